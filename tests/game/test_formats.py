"""Position document, XGID and Position ID: round trips, GNU Backgammon agreement, clear errors."""

import json
import re
from typing import Any

import gnubg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from needs import examples
from strategies import positions

from game.board import Color, Variant
from game.errors import NotationError, PositionError
from game.formats import parse_position
from game.gnubg_ids import from_position_id, gnubg_board, position_id
from game.position import Position
from game.selfplay import random_positions
from game.xgid import Xgid

any_position = st.sampled_from(Variant).flatmap(positions)


@settings(max_examples=examples(300), deadline=None)
@given(any_position)
def test_position_document_round_trip(position: Position) -> None:
    assert Position.from_json(position.to_json()) == position
    assert parse_position(json.dumps(position.to_document())) == position


@settings(max_examples=examples(300), deadline=None)
@given(positions(Variant.BACKGAMMON), st.sampled_from(Color), st.integers(0, 6),
       st.sampled_from([None, Color.WHITE, Color.BLACK]), st.integers(0, 12), st.booleans())
def test_xgid_round_trip(position: Position, turn: Color, cube_log: int, owner: Color | None,
                         length: int, flag: bool) -> None:
    xgid = Xgid(position.with_turn(turn), cube_value=2 ** cube_log, cube_owner=owner,
                dice=(3, 1), score=(min(1, length), 0), match_length=length,
                crawford=flag and length > 0, jacoby=flag and not length, beavers=flag and not length)
    assert Xgid.parse(str(xgid)) == xgid


@settings(max_examples=examples(300), deadline=None)
@given(positions(Variant.BACKGAMMON), st.sampled_from(Color))
def test_position_id_round_trip(position: Position, turn: Color) -> None:
    position = position.with_turn(turn)
    assert from_position_id(position_id(position), turn) == position


def test_ids_agree_with_gnu_backgammon_on_random_play_positions() -> None:
    for position, roll in random_positions(Variant.BACKGAMMON, 300, seed=11):
        board = gnubg_board(position)
        assert position_id(position) == gnubg.position_id(board)
        xgid = Xgid(position, dice=roll)
        gnubg.set_gnubg_id(str(xgid))
        assert gnubg.board() == board, str(xgid)


def test_initial_position_in_every_form() -> None:
    start = Position.initial()
    assert position_id(start) == "4HPwATDgc/ABMA"
    assert str(Xgid(start)) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
    assert parse_position("4HPwATDgc/ABMA") == start
    assert parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10") == start


@pytest.mark.parametrize("variant", [None, *Variant])
def test_start_names_the_variants_starting_position(variant: Variant | None) -> None:
    start = Position.initial(variant or Variant.BACKGAMMON, Color.WHITE)
    assert parse_position("start", variant) == start
    assert parse_position(" Start\n", variant) == start


@pytest.mark.parametrize(("text", "message"), [
    ("hello", "cannot tell what"),
    ("started", "a JSON position document, @file.json or start"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00", "10 fields"),
    ("XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:0:10", "not a checker count"),
    ("XGID=-b----E-C---eE---c-e----BB:0:0:1:00:0:0:0:0:10", "white has 17 checkers"),
    ("4HPwATDgc/AB!A", "not a Position ID"),
    ("////////////AA", "does not describe"),
    ('{"variant": "chess", "turn": "white", "points": []}', "'variant' must be one of"),
    ('{"turn": "white", "points": [[]]}', "list of 24 stacks"),
    ('{"turn": "white", "points": [["x"]' + ",[]" * 23 + "]}", "points[0] (board point 1)"),
    ('{"turn": "white", "points": [' + ",".join(["[]"] * 24) + "]}", "white has 0 checkers"),
    ('{"turn": "white", "points": [', "not valid JSON"),
])
def test_malformed_positions_name_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises((NotationError, PositionError), match=re.escape(message)):
        parse_position(text)


def test_variant_rules_on_stacks() -> None:
    mixed = ["bw"] + ["w"] * 14 + [""] * 9
    points = [list(s) for s in mixed]
    doc: dict[str, Any] = {"variant": "backgammon", "turn": "white", "points": points}
    points[23] = ["b"] * 14
    with pytest.raises(PositionError, match="both colours on one point"):
        Position.from_document(doc)
    doc["variant"] = "catchgammon"
    assert Position.from_document(doc).trapped(Color.BLACK) == (1,)
    points[0] = ["b", "w", "b"]
    points[1] = []
    with pytest.raises(PositionError, match="not one trapped checker"):
        Position.from_document(doc)
    rung = Position.initial(Variant.RUNGAMMON).to_document()
    rung["bar"] = {"white": 1, "black": 0}
    with pytest.raises(PositionError, match="has no bar"):
        Position.from_document(rung)


def test_ids_refuse_other_variants() -> None:
    with pytest.raises(PositionError, match="backgammon only"):
        position_id(Position.initial(Variant.CATCHGAMMON))
    with pytest.raises(PositionError, match="backgammon only"):
        str(Xgid(Position.initial(Variant.RUNGAMMON)))
    with pytest.raises(PositionError, match="but --variant is rungammon"):
        parse_position("4HPwATDgc/ABMA", Variant.RUNGAMMON)
