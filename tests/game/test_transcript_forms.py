"""What a referee is handed besides the servers' transcripts: a hand transcriber's words, Backgammon
Galaxy's money sessions written as matches, a file with two match lengths, and match files in other
formats, each named with how to export a readable one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from mat_dialects import DIALECTS, Dialect, write

from game.board import Variant
from game.match import MatchOptions
from game.match_sim import random_match
from game.validate import UNREADABLE, validate_file

HAND = next(d for d in DIALECTS if d.name == "hand")
GALAXY = next(d for d in DIALECTS if d.name == "galaxy")
HAND_WORDS = "a hand transcription's words for the cube and the result"


def judged(tmp_path: Path, text: str, name: str = "match.mat") -> tuple[int, str, list[str], list[str]]:
    path = tmp_path / name
    path.write_text(text)
    verdict = validate_file(str(path))
    return (verdict.exit_code, verdict.error or verdict.verdict(), [p.rule for p in verdict.problems],
            [n.rule for n in verdict.notes])


# -- a hand transcriber's words ----------------------------------------------------------------

HEAD = (" 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1)                             31: 8/5 6/5\n")


@pytest.mark.parametrize(("double", "answer", "result"), [
    ("Double => 2", "Take", None), ("Doubled => 2", "Taken", None), ("Double", "Drop", "Win 1 point"),
    ("Double => 2", "Dropped", "Win 1 point")])
def test_each_form_a_transcriber_writes_for_the_cube_is_read(tmp_path: Path, double: str, answer: str,
                                                            result: str | None) -> None:
    text = HEAD + f"  2) 52: 13/8 13/11               {double}\n  3)  {answer}\n"
    text += f"{result:>{34 + len(result)}}\n" if result else "                                 64: 24/18 13/9\n"
    path = tmp_path / "hand.mat"
    path.write_text(text)
    verdict = validate_file(str(path))
    assert not verdict.problems and verdict.match is not None
    assert verdict.dialect is not None and HAND_WORDS in verdict.dialect.describe()
    assert verdict.match.cube.value == (2 if result is None else 1)
    if result is not None:
        assert verdict.games[0].winner is not None and verdict.games[0].winner.value == "white"
        assert verdict.games[0].reason == "pass" and verdict.match.score == (1, 0)


def test_a_word_no_reader_knows_stays_a_problem(tmp_path: Path) -> None:
    _, verdict, problems, _ = judged(tmp_path, HEAD + "  2) 52: 13/8 13/11               Double => 2\n  3)  Pass\n")
    assert verdict.startswith("ILLEGAL") and "cannot read 'Pass'" in problems[0]


def test_a_whole_match_in_a_transcribers_words_reads_back_to_its_positions(tmp_path: Path) -> None:
    match = random_match(Variant.BACKGAMMON, 5, rng=random.Random(7), cube_rate=0.1, resign_rate=0.01)
    path = tmp_path / "hand.mat"
    path.write_text(write(match, HAND))
    verdict = validate_file(str(path))
    assert verdict.exit_code == 0 and verdict.match is not None and verdict.match.score == match.score
    assert [g.points for g in verdict.games] == [g.points for g in match.games]


# -- Backgammon Galaxy's money sessions ------------------------------------------------------------

def galaxy_money(seed: int, header: str = "") -> tuple[str, list[int]]:
    session = random_match(Variant.BACKGAMMON, None, MatchOptions(jacoby=True), rng=random.Random(seed),
                           cube_rate=0.1, resign_rate=0.01, money_games=6)
    dialect = Dialect("galaxy-money", stars=False, numeric=True, losses=True, header=True, singular=True,
                      site="BackgammonGalaxy", length=16)
    text = write(session, dialect)
    if header:
        text = text.replace("; [Player 1", header + "\n; [Player 1", 1)
    return text, [g.points for g in session.games]


@pytest.mark.parametrize("seed", range(4))
def test_a_galaxy_money_session_written_as_a_16_point_match_is_read_as_money(tmp_path: Path, seed: int) -> None:
    text, points = galaxy_money(seed)
    path = tmp_path / "money.mat"
    path.write_text(text)
    verdict = validate_file(str(path))
    assert verdict.exit_code == 0, verdict.render()
    m = verdict.match
    assert m is not None and m.length is None and m.options.jacoby and m.is_over
    assert [g.points for g in verdict.games] == points
    assert "money session" in verdict.render().splitlines()[0] and verdict.verdict() == "LEGAL"
    assert any("a money session written as a 16-point match" in n.rule and "Jacoby rule on" in n.rule
               for n in verdict.notes)


def test_the_headers_rules_and_stakes_are_the_sessions(tmp_path: Path) -> None:
    text, _ = galaxy_money(1, '; [Jacoby "Off"]\n; [Beaver "On"]\n; [Stake "10"]')
    path = tmp_path / "money.mat"
    path.write_text(text)
    verdict = validate_file(str(path))
    assert verdict.match is not None and not verdict.match.options.jacoby and verdict.match.options.beavers
    note = next(n.rule for n in verdict.notes if "money session" in n.rule)
    assert "Jacoby rule off (as its header says)" in note and "stakes: Stake '10'" in note


def test_a_galaxy_match_of_another_length_stays_a_match(tmp_path: Path) -> None:
    match = random_match(Variant.BACKGAMMON, 5, rng=random.Random(3), cube_rate=0.05)
    dialect = Dialect("galaxy-match", stars=False, numeric=True, losses=True, header=True, singular=True,
                      site="BackgammonGalaxy")
    path = tmp_path / "match.mat"
    path.write_text(write(match, dialect))
    verdict = validate_file(str(path))
    assert verdict.exit_code == 0 and verdict.match is not None and verdict.match.length == 5


# -- two match lengths ------------------------------------------------------------------------------

def test_two_match_lengths_before_the_games_are_said_in_a_referees_words(tmp_path: Path) -> None:
    code, error, _, _ = judged(tmp_path, " 13 point match\n 15 point match\n\n" + HEAD.split("\n", 2)[2])
    assert code == UNREADABLE
    assert error == ("line 2: the file states two match lengths, a 13-point match at line 1 and a 15-point match "
                     "here: which one was played cannot be told")


def test_a_second_match_in_the_file_is_named(tmp_path: Path) -> None:
    first = write(random_match(Variant.BACKGAMMON, 3, rng=random.Random(2)), GALAXY)
    code, error, _, _ = judged(tmp_path, first + "\n 5 point match\n\n" + HEAD.split("\n", 2)[2])
    assert code == UNREADABLE and "a second match starts here, a 5-point match after a 3-point match" in error


def test_the_same_length_said_twice_is_read_past(tmp_path: Path) -> None:
    code, verdict, problems, _ = judged(tmp_path, " 3 point match\n" + HEAD)
    assert not problems and verdict.startswith("LEGAL")


# -- other formats, named --------------------------------------------------------------------------

OLDMOVES = """ Score is 0-0 in a 3 point match.
 hal is X - max is O
X: (3 1) 8-5 6-5
O: (6 4) 24-18 13-9
"""


@pytest.mark.parametrize(("name", "data", "named", "how"), [
    # the first bytes of a real .xg (Insti/xgdatatools example.xg): RGMH, version 1, header size 8232
    ("match.xg", b"RGMH\x01\x00\x00\x00\x28\x20\x00\x00" + bytes(64), "an eXtreme Gammon match file (.xg, binary)",
     "export the match from eXtreme Gammon as a Jellyfish .mat file"),
    ("renamed.mat", b"RGMH\x01\x00\x00\x00\x28\x20\x00\x00" + bytes(64), "an eXtreme Gammon match file", ".mat"),
    ("hal-max.txt", OLDMOVES.encode(), "a FIBS 'oldmoves' log", "'import oldmoves FILE'"),
    ("position.xgp", b"\x00\x01", "an eXtreme Gammon position file", "XGID"),
    ("match.mat", b"", "an empty file", "ask for the file again"),
    ("match.mat", b"\r\n  \n", "an empty file", "nothing but white space"),
])
def test_another_format_is_named_with_how_to_export_a_readable_one(tmp_path: Path, name: str, data: bytes,
                                                                  named: str, how: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    verdict = validate_file(str(path))
    assert verdict.exit_code == UNREADABLE and verdict.error is not None
    assert verdict.error.startswith(named) and how in verdict.error and "\n" not in verdict.error
