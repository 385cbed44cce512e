"""GNU Backgammon's `.sgf` match files: read (validate, convert, report, analyse take them) and
written (`convert --to sgf`); GNU Backgammon's own reading and writing are tests/test_sgf_gnubg.py."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from game.board import Color, Variant
from game.cli import main
from game.convert import convert
from game.errors import MatFormatError, UsageError
from game.mat import export_mat
from game.match import Match, MatchOptions
from game.match_sim import random_match
from game.position import Position
from game.record import record_bytes
from game.transcripts import replay_sgf
from game.transcripts.sgf import export_sgf, read_sgf, resolve_moves
from game.validate import UNREADABLE, validate_file

ROOT = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:0][ws:0][bs:0]PW[Alice]PB[Bob]RU[Crawford]"


def events_of(match: Match) -> list[tuple[str, object]]:
    """What a match file must carry: every play's position, cube action and game's result."""
    kept: list[tuple[str, object]] = []
    for e in match.events:
        if e["type"] == "play":
            kept.append(("play", e["position"]))
        elif e["type"] in ("double", "take", "pass", "beaver"):
            kept.append((e["type"], e["player"]))
        elif e["type"] == "game_end":
            kept.append(("end", (e["winner"], e["points"], e["reason"] == "resign")))
    return kept


@pytest.mark.parametrize(("length", "options", "seed"), [
    (5, MatchOptions(), 1), (7, MatchOptions(), 2), (1, MatchOptions(), 3),
    (None, MatchOptions(jacoby=True), 4), (None, MatchOptions(beavers=True), 5)])
def test_a_match_written_as_sgf_reads_back_to_the_same_match(length: int | None, options: MatchOptions,
                                                             seed: int) -> None:
    match = random_match(Variant.BACKGAMMON, length, options, rng=random.Random(seed), cube_rate=0.1,
                         resign_rate=0.02, money_games=6)
    replay = replay_sgf(export_sgf(match))
    again = replay.replayer.match
    assert again is not None and not replay.replayer.problems
    assert events_of(again) == events_of(match) and again.score == match.score
    assert again.options.jacoby == options.jacoby and again.length == length


def test_gnubgs_moves_in_an_order_the_dice_do_not_allow_are_the_play_that_leaves_their_board() -> None:
    # Black to play 53, checkers on its 3-point: gnubg writes 7/2 2/off where only 7/4/off is legal
    position = Position.from_xgid("XGID=-BG---------------a---chc-:0:0:-1:53:0:0:0:5:10")
    play = resolve_moves(position, (5, 3), [(7, 2), (2, 0)])
    assert play is not None and [(m.source, m.target) for m in play.moves] == [(7, 4), (4, 0)]
    assert resolve_moves(position, (5, 3), [(7, 1), (3, 0)]) is None  # no legal play leaves that board


def test_a_roll_gnubg_records_before_a_resignation_is_read() -> None:
    text = ROOT + "RE[B+1R]\n;B[31qtst]\n;PL[W]DI[42])\n"  # white 8/5 6/5, black rolls 42 and resigns
    replay = replay_sgf(text)
    match = replay.replayer.match
    assert match is not None and not replay.replayer.problems
    assert match.games[0].winner is Color.WHITE and match.games[0].reason == "resign" and match.score == (1, 0)


def test_a_play_against_the_rules_is_a_problem_at_its_line() -> None:
    replay = replay_sgf(ROOT + "RE[B+1]\n;B[31qtst]\n;W[42aeae])\n")
    assert [p.line for p in replay.replayer.problems] == [3]
    assert "1/5 1/5 is no legal play of 42 for black" in replay.replayer.problems[0].rule


@pytest.mark.parametrize(("text", "said"), [
    (ROOT + "\n;PL[B]AE[a:y]AW[f][f][h]AB[s][s][q]\n;CV[1]\n;PL[B]DI[42])\n", "a GNU Backgammon position file"),
    ("(;FF[4]GM[1]SZ[19];B[dd])\n", "another game (GM[1])"),
    (ROOT + "\n;B[31qtst]\n", "the file ends inside a game tree"),
    ("(;FF[4]GM[6]MI[length:3]RU[Nackgammon]\n;B[31hefe])\n", "a variation the project does not play"),
])
def test_what_is_no_match_is_said_in_one_line(text: str, said: str) -> None:
    with pytest.raises(MatFormatError, match=said.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        read_sgf(text)


@pytest.mark.slow
def test_validate_convert_report_and_analyse_take_an_sgf(tmp_path: Path) -> None:
    match = random_match(Variant.BACKGAMMON, 3, rng=random.Random(8), cube_rate=0.1)
    sgf = tmp_path / "match.sgf"
    sgf.write_text(export_sgf(match))
    verdict = validate_file(str(sgf))
    assert verdict.kind == "sgf" and verdict.exit_code == 0 and verdict.match is not None
    assert verdict.render().splitlines()[0].endswith(", backgammon 3-point match, white Wendy v black Boris")
    assert main(["convert", str(sgf), "--to", "jsonl", "--out", str(tmp_path / "match.jsonl")]) == 0
    assert main(["convert", str(sgf), "--to", "mat", "--out", str(tmp_path / "match.mat")]) == 0
    assert main(["report", str(sgf), "--out", str(tmp_path / "sheet.png")]) == 0
    assert (tmp_path / "sheet.png").stat().st_size > 1000
    said, from_mat = io.StringIO(), io.StringIO()
    assert main(["analyse", str(sgf), "--level", "beginner"], said) == 0
    (tmp_path / "same.mat").write_text(export_mat(match))
    assert main(["analyse", str(tmp_path / "same.mat"), "--level", "beginner"], from_mat) == 0
    assert "checker plays" in said.getvalue() and said.getvalue() == from_mat.getvalue()
    for made in ("match.jsonl", "match.mat"):
        assert events_of(validate_file(str(tmp_path / made)).match or match) == events_of(match)


def test_convert_writes_an_sgf_from_a_record_and_from_a_mat(tmp_path: Path) -> None:
    match = random_match(Variant.BACKGAMMON, 5, rng=random.Random(9), cube_rate=0.1, resign_rate=0.01)
    (tmp_path / "match.jsonl").write_bytes(record_bytes(match))
    (tmp_path / "match.mat").write_text(export_mat(match))
    for source in ("match.jsonl", "match.mat"):
        target = tmp_path / f"{source}.sgf"
        said = io.StringIO()
        assert main(["convert", str(tmp_path / source), "--to", "sgf", "--out", str(target)], said) == 0
        assert f"wrote {target}: GNU Backgammon .sgf match file" in said.getvalue()
        assert events_of(validate_file(str(target)).match or match) == events_of(match)
    with pytest.raises(UsageError, match="is already a GNU Backgammon .sgf match file"):
        convert(str(tmp_path / "match.jsonl.sgf"), "sgf", None, None, io.StringIO())


def test_another_variant_is_not_written_as_sgf() -> None:
    match = random_match(Variant.CATCHGAMMON, 1)
    with pytest.raises(MatFormatError, match="Backgammon only"):
        export_sgf(match)


def test_a_cut_sgf_is_unreadable_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "cut.sgf"
    path.write_text(ROOT + "\n;B[31qtst]\n")
    verdict = validate_file(str(path))
    assert verdict.exit_code == UNREADABLE and verdict.error == "the file ends inside a game tree: it was cut"
