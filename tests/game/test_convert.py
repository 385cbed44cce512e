"""`python -m game convert` and `validate --json`: a transcript to a record and back, the source's
verdict, dialect and integrity line printed, and bad input refused in one line."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from game.board import Variant
from game.cli import main
from game.mat import export_mat
from game.match_sim import random_match
from game.record import record_bytes
from game.transcripts import replay_transcript
from game.validate import validate_file

GALAXY = ('; [Site "BackgammonGalaxy"]\n; [Match ID "1"]\n\n3 point match\n\n Game 1\n'
          " lasse : 0                       paese : 0\n"
          "  1)                             31: 8/5 6/5\n"
          "  2) 61: 13/7 8/7                 Doubles => 2\n"
          "  3)  Drops                       Wins 1 point\n\n"
          " Game 2\n lasse : 0                       paese : 1\n"
          "  1) 42: 8/4 6/4                  Doubles => 2\n"
          "  2)  Takes                       Losses 3 point\n\n"
          "      Wins 3 point and the match\n")


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out), out.getvalue()


def test_a_transcript_becomes_a_record_that_validates_to_the_same_match(tmp_path: Path) -> None:
    source = tmp_path / "galaxy.txt"
    source.write_text(GALAXY)
    status, text = run("convert", str(source), "--to", "jsonl")
    lines = text.splitlines()
    assert status == 0 and lines[0] == f"read {source}: .mat transcript, verdict LEGAL"
    assert lines[1].startswith("producer: Backgammon Galaxy; dialect: ")
    assert lines[2] == "integrity: a .mat transcript carries no chain or signature"
    target = tmp_path / "galaxy.jsonl"
    assert lines[-1] == (f"wrote {target}: JSON Lines record, hash-chained and unsigned "
                         "(converted, not written by a table)")
    verdict = validate_file(str(target))
    original = replay_transcript(GALAXY).replayer.match
    assert verdict.exit_code == 0 and verdict.match is not None and original is not None
    assert verdict.match.score == original.score == (1, 4) and [g.points for g in verdict.match.games] == [1, 4]
    assert verdict.integrity is not None and verdict.integrity.chained and verdict.integrity.key is None


def test_a_record_becomes_a_transcript_with_its_integrity_line(tmp_path: Path) -> None:
    match = random_match(Variant.BACKGAMMON, 5, rng=random.Random(8), cube_rate=0.05, resign_rate=0.01)
    source = tmp_path / "journal.jsonl"
    source.write_bytes(record_bytes(match))
    status, text = run("convert", str(source), "--to", "mat", "--out", str(tmp_path / "out.mat"))
    assert status == 0 and "integrity: UNSIGNED (hash-chained only)" in text
    assert (tmp_path / "out.mat").read_text() == export_mat(match)
    again = replay_transcript((tmp_path / "out.mat").read_text()).replayer.match
    assert again is not None and [g.points for g in again.games] == [g.points for g in match.games]


def test_a_transcript_with_a_problem_is_not_converted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bad.mat"
    source.write_text(GALAXY.replace("Wins 1 point", "Wins 100 points"))
    status, text = run("convert", str(source), "--to", "jsonl")
    assert status == 1 and "verdict ILLEGAL (1 problems)" in text and not (tmp_path / "bad.jsonl").exists()
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("args, message", [
    (["convert", "/no/such.mat", "--to", "jsonl"], "cannot read '/no/such.mat'"),
    (["convert", "{src}", "--to", "mat"], "is already a .mat transcript"),
    (["convert", "{src}", "--to", "jsonl", "--out", "{src}"], "is the file being converted"),
    (["convert", "{src}", "--to", "jsonl", "--out", "{dir}"], "is a directory"),
    (["convert", "{src}", "--to", "csv"], "invalid choice"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                         message: str) -> None:
    source = tmp_path / "m.mat"
    source.write_text(GALAXY)
    filled = [a.format(src=source, dir=tmp_path) for a in args]
    if "csv" in args:  # argparse refuses it before the command runs, in one line too
        with pytest.raises(SystemExit) as info:
            run(*filled)
        assert info.value.code == 2
    else:
        assert run(*filled)[0] == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_validate_json_says_what_validate_says(tmp_path: Path) -> None:
    source = tmp_path / "galaxy.txt"
    source.write_text(GALAXY)
    status, text = run("validate", str(source), "--json")
    doc = json.loads(text)
    assert status == 0 and doc["verdict"] == "LEGAL" and doc["producer"] == "Backgammon Galaxy"
    assert doc["dialect"]["marks_hits"] is False
    assert doc["dialect"]["features"]["results written on the loser's side (Losses N point)"]["line"] == 15
    assert [g["points"] for g in doc["games"]] == [1, 4] and doc["final"]["score"] == {"white": 1, "black": 4}
    assert doc["problems"] == [] and "counted toward the match" in doc["notes"][0]["rule"]
    assert doc["integrity"] == "integrity: a .mat transcript carries no chain or signature"
    status, text = run("validate", str(source))
    assert "producer: Backgammon Galaxy" in text and "note 1: line 15, game 2" in text
