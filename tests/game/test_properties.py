"""Properties over arbitrary positions: conservation, most dice used, agreement with a reference."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from needs import examples
from reference_rules import reference_results
from strategies import dice, positions

from game.board import CHECKERS, Color, Variant
from game.movegen import count_plays, single_moves
from game.plays import Play
from game.position import Position

pytestmark = pytest.mark.usefixtures("each_kernel")  # the rules, by each kernel

any_position = st.sampled_from(Variant).flatmap(positions)
SETTINGS = settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _total(position: Position, color: Color) -> int:
    return (sum(s.count(color.char) for s in position.points) + position.bar[color.index]
            + position.off[color.index])


@pytest.mark.slow
@SETTINGS
@given(any_position, dice)
def test_fifteen_checkers_a_side_are_conserved(position: Position, roll: tuple[int, int]) -> None:
    for play in position.legal_plays(roll):
        assert _total(play.after_moves, Color.WHITE) == _total(play.after_moves, Color.BLACK) == CHECKERS
        assert play.after_moves.turn is position.turn


def _deepest(position: Position, dice_left: tuple[int, ...]) -> int:
    """The most dice any sequence of single moves can use, ignoring whole-play rules."""
    best = 0
    for i, die in enumerate(dice_left):
        rest = dice_left[:i] + dice_left[i + 1:]
        for play in _single_step(position, die):
            best = max(best, 1 + _deepest(play.after_moves, rest))
            if best == len(dice_left):
                return best
    return best


@SETTINGS
@given(st.sampled_from([Variant.BACKGAMMON, Variant.CATCHGAMMON]).flatmap(positions), dice)
def test_every_play_uses_the_most_dice_possible(position: Position, roll: tuple[int, int]) -> None:
    plays = position.legal_plays(roll)
    all_dice = roll * 2 if roll[0] == roll[1] else roll
    deepest = _deepest(position, all_dice)
    assert {len(p.moves) for p in plays} == ({deepest} if deepest else set())
    if deepest == 1 and roll[0] != roll[1]:
        larger = {p.after_moves for p in _single_step(position, max(roll))}
        if larger:
            assert {p.after_moves for p in plays} == larger


@SETTINGS
@given(any_position, dice)
def test_plays_agree_with_the_reference_rules(position: Position, roll: tuple[int, int]) -> None:
    assert {p.after_moves for p in position.legal_plays(roll)} == reference_results(position, roll)


@SETTINGS
@given(any_position, dice)
def test_plays_are_distinct_by_position_and_counted_alike(position: Position, roll: tuple[int, int]) -> None:
    plays = position.legal_plays(roll)
    assert len({p.after_moves for p in plays}) == len(plays) == count_plays(position, roll)


@pytest.mark.slow
@SETTINGS
@given(any_position, dice)
def test_moves_replayed_one_by_one_reach_the_plays_position(position: Position,
                                                            roll: tuple[int, int]) -> None:
    for play in position.legal_plays(roll):
        step = position
        for move in play.moves:
            nexts = [p.after_moves for die in set(roll) for p in _single_step(step, die)
                     if p.moves[0] == move]
            assert nexts, f"{move} does not follow from {step.to_json()}"
            step = nexts[0]
        assert step == play.after_moves


def _single_step(position: Position, die: int) -> tuple[Play, ...]:
    return single_moves(position, die)
