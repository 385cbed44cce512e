"""The package's face to a Python user, after python-chess: a position prints as a board and shows
as a picture, one call plays a play, a match says where it stands, one reader reads any match file,
and the README's example runs as written."""

from __future__ import annotations

import doctest
import io
import re
from pathlib import Path

import pytest
from PIL import Image
from repo import ROOT

import game
from game import Color, IllegalPlayError, Match, Position, PositionError, Variant
from game.errors import InvalidDice, MatFormatError
from game.mat import export_mat
from game.record import record_bytes
from game.text import draw
from game.transcripts.sgf import export_sgf


def test_print_draws_the_board_and_the_document_is_one_call_away() -> None:
    start = Position.initial()
    assert str(start) == draw(start)
    assert str(start).splitlines()[0] == "backgammon, white to play"
    assert "O white: pips 167" in str(start)
    assert Position.from_json(start.to_json()) == start


def test_a_notebook_shows_a_position_as_a_png_of_the_board() -> None:
    png = Position.initial(Variant.CATCHGAMMON)._repr_png_()
    picture = Image.open(io.BytesIO(png))
    assert picture.format == "PNG" and picture.width > picture.height > 100


@pytest.mark.parametrize("variant", list(Variant))
def test_initial_takes_a_variant_or_its_name(variant: Variant) -> None:
    assert Position.initial(variant.value, Color.BLACK) == Position.initial(variant, Color.BLACK)


def test_initial_refuses_an_unknown_name_in_one_line() -> None:
    with pytest.raises(PositionError, match="'variant' must be one of backgammon|catchgammon|rungammon, got 'chess'"):
        Position.initial("chess")


def test_play_returns_the_next_position() -> None:
    start = Position.initial()
    after = start.play("24/18 13/11", (6, 2))
    assert after == start.parse_play("24/18 13/11", (6, 2)).next_position  # type: ignore[union-attr]
    assert after.turn is Color.BLACK and after.stack(18) == "w"


def test_play_raises_rather_than_returning_nothing() -> None:
    with pytest.raises(IllegalPlayError, match="24/15"):
        Position.initial().play("24/15", (6, 2))


def test_a_roll_that_cannot_be_played_passes_the_turn() -> None:
    points = ("ww",) * 6 + ("www",) + ("",) * 16 + ("b" * 14,)
    closed = Position(Variant.BACKGAMMON, Color.BLACK, points, bar=(0, 1))  # on the bar against a shut board
    assert not closed.legal_plays((6, 5))
    assert closed.play("", (6, 5)) == closed.pass_turn()


def test_a_match_says_where_it_stands() -> None:
    match = Match(length=5)
    assert repr(match) == "<Match backgammon 5-point match, game 1, score 0-0: waiting for the opening roll>"
    match.opening_roll(3, 1)
    assert repr(match) == "<Match backgammon 5-point match, game 1, score 0-0: white to play 31>"
    assert repr(Match(Variant.RUNGAMMON)).startswith("<Match rungammon money session, game 1")


def test_roll_returns_the_dice_given_or_thrown() -> None:
    match = Match()
    match.opening_roll(3, 1)
    match.play("8/5 6/5")
    assert match.roll(6, 2) == (6, 2) == match.dice
    match.play("24/18 13/11")
    thrown = match.roll()
    assert thrown == match.dice and all(1 <= d <= 6 for d in thrown)
    assert match.events[-1] == {**match.events[-1], "type": "roll", "dice": list(thrown)}


def test_roll_refuses_one_die_alone() -> None:
    match = Match()
    match.opening_roll(3, 1)
    match.play("8/5 6/5")
    with pytest.raises(InvalidDice, match="give both dice or none, got 6 and None"):
        match.roll(6)


def test_dir_lists_the_public_names_not_the_helpers() -> None:
    names = dir(game)
    assert set(game.__all__) <= set(names)
    assert "import_module" not in names and "ModuleType" not in names
    for name in game.__all__:
        assert getattr(game, name) is not None


def _a_match() -> Match:
    match = Match(length=3, players=("Ann", "Bob"))
    match.opening_roll(3, 1)
    match.play("8/5 6/5")
    match.roll(6, 2)
    match.play("24/18 13/11")
    return match


@pytest.mark.parametrize("form", ["record bytes", "record path", "mat text", "mat file", "mat path", "sgf text",
                                  "sgf path"])
def test_read_match_reads_a_record_or_a_transcript_in_any_form(form: str, tmp_path: Path) -> None:
    match = _a_match()
    record, mat, sgf = record_bytes(match), export_mat(match), export_sgf(match)
    (tmp_path / "m.jsonl").write_bytes(record)
    (tmp_path / "m.mat").write_text(mat)
    (tmp_path / "m.sgf").write_text(sgf)
    source = {"record bytes": record, "record path": tmp_path / "m.jsonl", "mat text": mat,
              "mat file": io.StringIO(mat), "mat path": tmp_path / "m.mat", "sgf text": sgf,
              "sgf path": tmp_path / "m.sgf"}[form]
    read = game.read_match(source)  # type: ignore[arg-type]
    assert read.position == match.position and read.score == match.score and read.length == 3
    assert read.players == ("Ann", "Bob")


@pytest.mark.parametrize(("data", "named"), [
    (b"this is not a match\n", "no 'N point match' line"),
    (b"", "an empty file"),
    (b"RGMH\x01\x00\x00\x00" + bytes(64), "an eXtreme Gammon match file"),
    (b"\x00\x01\x02", "a binary file"),
])
def test_read_match_refuses_what_is_no_match_and_names_a_format_it_does_not_read(data: bytes, named: str) -> None:
    with pytest.raises(MatFormatError, match=re.escape(named)):
        game.read_match(data)


def test_the_readme_opens_with_a_python_example_that_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```(\w*)\n", readme)
    assert first_block is not None and first_block.group(1) == "python"
    assert ">>> from game import" in readme[first_block.end():first_block.end() + 200]
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE  # the board's rows end in spaces; the README's do not
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=flags)
    assert result.attempted >= 5 and result.failed == 0
