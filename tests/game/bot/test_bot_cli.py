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
    _, listed = run("plays", "--position", start, "--dice", "65", "--json")
    assert status == 0 and doc in json.loads(listed)["plays"]


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
                                  ["--position", "nonsense", "--dice", "31"], ["--dice", "31"]])
def test_play_bot_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "game", "play-bot", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_analyse_finds_the_random_players_errors_in_a_mat(tmp_path: Path) -> None:
    match = random_match(Variant.BACKGAMMON, 1, rng=random.Random(5), cube_rate=0.0, resign_rate=0.0)
    mat = tmp_path / "m.mat"
    mat.write_text(export_mat(match))
    status, text = run("analyse", str(mat), "--level", "expert", "--out", str(tmp_path / "sheet.png"))
    assert status == 0 and "error rate (PR)" in text and "biggest errors:" in text
    rates = [float(x) for x in next(line for line in text.splitlines() if "(PR)" in line).split()[-2:]]
    assert all(rate > 30 for rate in rates), text  # random plays are far from GNU Backgammon's
    assert (tmp_path / "sheet.png").exists() and "wrote" in text


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


def test_analyse_refuses_what_is_not_a_match(tmp_path: Path) -> None:
    empty = tmp_path / "e.jsonl"
    empty.write_text('{"type": "roll"}\n')
    done = subprocess.run([sys.executable, "-m", "game", "analyse", str(empty)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


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
