"""`python -m game play-bot` and `python -m game analyse`."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import gnubg
import pytest
from bot_fixtures import shipped
from needs import pdf_text
from repo import ROOT

from game.board import Variant
from game.bot.levels import Level
from game.cli import main
from game.gnubg_ids import gnubg_board
from game.mat import export_mat
from game.match_sim import random_match
from game.position import Position
from game.record import record_bytes


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out), out.getvalue()


def test_play_bot_prints_gnubgs_opening_play() -> None:
    status, text = run("play-bot", "--position", "4HPwATDgc/ABMA", "--dice", "31")
    best = gnubg.findbestmove(gnubg_board(Position.from_position_id("4HPwATDgc/ABMA")), gnubg.cubeinfo(),
                              gnubg.evalcontext(0, 0, 1, 1, 0), (3, 1))
    assert status == 0 and text == "8/5 6/5\n" and best == (8, 5, 6, 5)


def test_play_bot_json_is_a_play_as_plays_prints_it() -> None:
    start = json.dumps(Position.initial(Variant.CATCHGAMMON).to_document())
    status, text = run("play-bot", "--position", start, "--dice", "65", "--json", "--level", "advanced")
    doc = json.loads(text)
    ranking, equity = doc.pop("ranking"), doc.pop("equity")
    _, listed = run("plays", "--position", start, "--dice", "65", "--json")
    assert status == 0 and doc in json.loads(listed)["plays"]
    assert ranking[0]["notation"] == doc["notation"] and ranking[0]["equity"] == equity  # advanced: no noise
    assert len(ranking) == 2 and [r["rank"] for r in ranking] == [1, 2]  # 24/19 24/18 or 24/13
    assert all(a["equity"] >= b["equity"] for a, b in zip(ranking, ranking[1:], strict=False))


@pytest.mark.parametrize("variant", [Variant.CATCHGAMMON, Variant.RUNGAMMON])
def test_play_bot_ranks_every_play_of_a_variant_with_the_bots_own_equities(variant: Variant) -> None:
    start = Position.initial(variant)
    status, text = run("play-bot", "--position", json.dumps(start.to_document()), "--dice", "42", "--json",
                       "--hint", "100")
    ranking = json.loads(text)["ranking"]
    own = shipped(variant, Level.EXPERT).rank_plays(start, (4, 2))  # the default level
    assert status == 0 and len(ranking) == len(start.legal_plays((4, 2))) == len(own)
    assert [(r["notation"], r["equity"], r["win"]) for r in ranking] == [
        (r.play.notation(), round(r.equity, 4), round(r.probs[0], 4)) for r in own]
    assert all(r["difference"] == pytest.approx(r["equity"] - ranking[0]["equity"], abs=2e-4) for r in ranking)


def test_play_bot_hint_lists_gnubgs_ranking_as_its_hint_does() -> None:
    status, text = run("play-bot", "--position", "4HPwATDgc/ABMA", "--dice", "31", "--hint", "3")
    found = gnubg.findbestmoves(gnubg_board(Position.from_position_id("4HPwATDgc/ABMA")), gnubg.cubeinfo(),
                                gnubg.evalcontext(0, 0, 1, 1, 0), (3, 1))
    # GNU Backgammon's hint: rank, play, "Eq.:" with the distance from the best, then the estimates
    lines = text.splitlines()
    assert status == 0 and len(lines) == 6 and lines[0].split()[:2] == ["1.", "8/5"]
    equities = [float(line.split("Eq.:")[1].split()[0]) for line in lines[0::2]]
    assert equities == [round(entry["score"], 3) for entry in found[:3]]
    assert f"({equities[1] - equities[0]:+.3f})" in lines[2]
    win = [float(x) for x in lines[1].split()[:3]]
    assert 0.5 < win[0] < 0.6 and win[1] < win[0]


def test_play_bot_batch_answers_each_line_and_flags_bad_ones(tmp_path: Path) -> None:
    rungammon = Position.initial(Variant.RUNGAMMON).to_document()
    lines = [{"position": rungammon, "dice": [6, 6]}, {"position": "4HPwATDgc/ABMA", "dice": [3, 1]},
             {"position": rungammon, "dice": [7, 1]}]
    batch = tmp_path / "b.jsonl"
    batch.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    done = subprocess.run([sys.executable, "-m", "game", "play-bot", "--batch", str(batch), "--level", "advanced"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 2 and len(answers) == 3
    assert answers[0]["notation"] == "24/18" and answers[1]["notation"] == "8/5 6/5"  # 66: one six at the start
    assert "error" in answers[2] and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["--position", "4HPwATDgc/ABMA", "--dice", "3"],
                                  ["--position", "4HPwATDgc/ABMA", "--dice", "31", "--level", "godlike"],
                                  ["--position", "nonsense", "--dice", "31"], ["--dice", "31"],
                                  ["--position", "4HPwATDgc/ABMA", "--dice", "31", "--hint", "0"]])
def test_play_bot_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "game", "play-bot", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.slow
def test_analyse_finds_the_random_players_errors_in_a_mat(tmp_path: Path) -> None:
    match = random_match(Variant.BACKGAMMON, 1, rng=random.Random(5), cube_rate=0.0, resign_rate=0.0)
    mat = tmp_path / "m.mat"
    mat.write_text(export_mat(match))
    status, text = run("analyse", str(mat), "--level", "expert", "--out", str(tmp_path / "sheet.png"))
    assert status == 0 and "error rate (PR)" in text and "biggest errors:" in text
    rates = [float(x) for x in next(line for line in text.splitlines() if "(PR)" in line).split()[-2:]]
    assert all(rate > 30 for rate in rates), text  # random plays are far from GNU Backgammon's
    assert (tmp_path / "sheet.png").exists() and "wrote" in text


@pytest.mark.slow
def test_analyse_of_the_bots_own_match_finds_almost_no_errors(tmp_path: Path) -> None:
    from game.bot.driver import bot_match

    bot = shipped(Variant.RUNGAMMON)
    match = bot_match(bot, bot, Variant.RUNGAMMON, 1, seed=3)
    record = tmp_path / "r.jsonl"
    record.write_bytes(record_bytes(match))
    status, text = run("analyse", str(record), "--level", "advanced")
    assert status == 0 and "error rate (NER)" in text and "not GNU Backgammon's PR" in text
    lost = [float(x) for x in next(line for line in text.splitlines() if "equity lost" in line).split()[-2:]]
    assert lost == [0.0, 0.0], text  # the judge made every play itself, at the same level


@pytest.mark.parametrize(("name", "data", "said"), [
    ("e.jsonl", b'{"type": "roll"}\n', "no match_start event"),
    ("e.mat", b"", "an empty file"),  # named as validate names it (`file_kind`), not "no 'N point match' line"
    ("e.xg", b"RGMH\x01\x00\x00\x00" + bytes(64), "an eXtreme Gammon match file"),
])
def test_analyse_refuses_what_is_not_a_match(tmp_path: Path, name: str, data: bytes, said: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "game", "analyse", str(path)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and said in done.stderr


@pytest.mark.slow
def test_the_analysed_pdf_begins_with_the_summary_and_the_text_aligns(tmp_path: Path) -> None:
    match = random_match(Variant.RUNGAMMON, 1, rng=random.Random(8), cube_rate=0.0, resign_rate=0.0)
    record = tmp_path / "r.jsonl"
    record.write_bytes(record_bytes(match))
    status, text = run("analyse", str(record), "--level", "advanced", "--out", str(tmp_path / "sheet.pdf"))
    assert status == 0, text
    table = text.splitlines()[1:8]  # the header row, then six rows of figures
    ends = {len(line) for line in table}
    assert len(ends) == 1, table  # every row ends where the header's Black column ends
    pdf = pdf_text(tmp_path / "sheet.pdf")
    first_page = pdf.split("\f")[0]
    summary, games = first_page.index("Analysis by"), first_page.index("Game 1")
    assert summary < games
    figures = {line.split("  ")[0].strip(): line.split()[-2:] for line in table[1:]}
    for label, (white, black) in figures.items():  # the sheet's table says what the text says
        assert re.search(rf"{re.escape(label)}\s+{re.escape(white)}\s+{re.escape(black)}", first_page), label
    biggest = next(line.strip() for line in text.splitlines() if line.startswith("  game 1,"))
    assert biggest in " ".join(first_page[summary:games].split())


def test_the_analysis_names_a_side_once_when_the_player_is_named_after_it() -> None:
    from game.bot.analysis import Analysis

    for players, header in ((("White", "Black"), ["white", "black"]),
                            (("Ann", "black"), ["white", "(Ann)", "black"])):
        text = Analysis(Variant.CATCHGAMMON, players, "a judge", []).render()
        assert text.splitlines()[1].split() == header, text
