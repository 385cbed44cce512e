"""The public face of a position: made from any notation, written back, and the position after a play."""

from __future__ import annotations

import pytest
from hypothesis import given
from strategies import positions

from game import Color, NotationError, Position, PositionError, Variant


@pytest.mark.parametrize("variant", list(Variant))
@given(data=positions(Variant.BACKGAMMON))
def test_repr_makes_the_same_position_again(variant: Variant, data: Position) -> None:
    position = data if variant is Variant.BACKGAMMON else Position.initial(variant, Color.BLACK)
    assert eval(repr(position), {"Position": Position}) == position


@given(positions(Variant.BACKGAMMON))
def test_each_notation_reads_back_what_it_wrote(position: Position) -> None:
    assert Position.from_xgid(position.xgid()) == position
    assert Position(position.xgid()) == position
    assert Position.from_position_id(position.position_id(), position.turn) == position
    assert Position.from_json(position.to_json()) == position
    assert Position.parse(position.to_json()) == Position.parse(position.xgid()) == position


@pytest.mark.parametrize("variant", [Variant.CATCHGAMMON, Variant.RUNGAMMON])
def test_the_variants_have_no_xgid_but_their_document(variant: Variant) -> None:
    start = Position.initial(variant)
    with pytest.raises(PositionError, match="backgammon only"):
        start.xgid()
    assert repr(start) == f"Position({start.to_json()!r})"
    with pytest.raises(PositionError, match="but --variant is"):
        Position.parse(start.to_json(), Variant.BACKGAMMON)


def test_a_position_needs_all_its_fields_or_one_notation() -> None:
    with pytest.raises(PositionError, match="needs its variant, turn and points"):
        Position(Variant.BACKGAMMON)  # type: ignore[call-overload]
    with pytest.raises(NotationError, match="cannot tell what"):
        Position("no such notation")


def test_the_next_position_passes_the_turn() -> None:
    start = Position.initial()
    play = start.legal_plays((3, 1))[0]
    assert play.after_moves.turn is Color.WHITE and play.next_position.turn is Color.BLACK
    assert play.next_position.points == play.after_moves.points
