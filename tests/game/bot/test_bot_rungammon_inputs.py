"""Rungammon's blocking inputs (`encoding._blocking`) on positions counted by hand: both sides run the
same way, one checker holds a point, and the opponent's points anywhere ahead of a checker block it."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from game.board import Variant
from game.bot.encoding import Board, _blocking, features, flip, input_size, states_array
from game.movegen import encode
from game.position import Position
from game.selfplay import random_positions

NAMES = ("rear_escapes", "rear_beyond", "fewest", "failing", "run", "gap", "caught", "free_pips", "spare_pips",
         "walled_in")


def _halves(state: npt.NDArray[np.uint8]) -> tuple[dict[str, float], dict[str, float]]:
    """The inputs of the side on roll, then of the other side."""
    row = _blocking(Board(state), Board(flip(Variant.RUNGAMMON, state)))[0]
    k = len(NAMES)
    return (dict(zip(NAMES, (float(v) for v in row[:k]), strict=True)),
            dict(zip(NAMES, (float(v) for v in row[k:]), strict=True)))


def _state(mine: dict[int, int], theirs: dict[int, int]) -> npt.NDArray[np.uint8]:
    """A Rungammon state from the side on roll: `mine` on own points, `theirs` on the mover's points."""
    state = np.zeros((1, 28), dtype=np.uint8)
    for point, n in mine.items():
        state[0, point] = n
    for point, n in theirs.items():
        state[0, point] = 16 + n
    state[0, 0], state[0, 27] = 15 - sum(mine.values()), 15 - sum(theirs.values())
    return state


def _escapes_by_hand(blocked_pips: set[int], beyond: int = 0) -> int:
    """Rolls of 36 that carry a checker a + b pips (past `beyond` pips) to an open point by way of an open
    a or b pip point."""
    return sum(1 for a in range(1, 7) for b in range(1, 7)
               if a + b not in blocked_pips and not (a in blocked_pips and b in blocked_pips) and a + b > beyond)


def test_the_starting_position() -> None:
    """All 15 of each side on its own 24-point: the opponent's start (my 12-point) is 12 pips ahead of my
    start, so only 6-6 fails; one run of one point, 12 pips away, nothing past, 14 spares on my 24-point."""
    start = states_array([encode(Position.initial(Variant.RUNGAMMON))])
    mine, theirs = _halves(start)
    assert mine == theirs
    assert mine["rear_escapes"] * 36 == pytest.approx(35) and mine["fewest"] * 36 == pytest.approx(35)
    assert mine["rear_beyond"] == 0  # no roll of 11 pips or less lands beyond the block 12 pips ahead
    assert mine["failing"] * 540 == pytest.approx(15 * 1)
    assert (mine["run"] * 6, mine["gap"] * 12, mine["caught"]) == pytest.approx((1, 12, 0))
    assert mine["free_pips"] == 0 and mine["spare_pips"] * 360 == pytest.approx(14 * 24)
    assert mine["walled_in"] == 0


def test_checkers_walled_in_behind_a_six_point_prime() -> None:
    """Theirs one each on my points 13-18 (a six-point run) and nine on my 5-point; mine two on my
    19-point (every die blocked), one on my 22-point, twelve home on my 1-point (past all of theirs)."""
    state = _state({19: 2, 22: 1, 1: 12}, {13: 1, 14: 1, 15: 1, 16: 1, 17: 1, 18: 1, 5: 9})
    mine, theirs = _halves(state)
    # From 22 their points stand 4 to 9 pips ahead (the 5-point is 17 pips away): 1-1, 1-2 and 2-1 escape.
    assert _escapes_by_hand(set(range(4, 10))) == 3
    assert mine["rear_escapes"] * 36 == pytest.approx(3)
    assert mine["rear_beyond"] == 0  # none lands beyond the first block, 4 pips ahead
    assert mine["fewest"] == 0  # from 19 every die and every sum up to 6 is blocked, the sums above too
    assert mine["failing"] * 540 == pytest.approx(2 * 36 + 1 * (36 - 3))
    assert mine["run"] * 6 == pytest.approx(6)
    assert mine["gap"] * 12 == pytest.approx(22 - 18)
    assert mine["caught"] * 15 == pytest.approx(3)
    assert mine["free_pips"] * 360 == pytest.approx(12 * 1)
    assert mine["spare_pips"] * 360 == pytest.approx(1 * 19)  # the second checker on 19; those home are free
    assert mine["walled_in"] * 15 == pytest.approx(2)
    # The opponent, in its own numbering (my p is its p + 12 or p - 12): nine on its 17-point, one each on
    # its 1-6 (past all of mine); mine stand on its 13, 10 and 7: 4, 7 and 10 pips ahead of its nine.
    assert theirs["rear_escapes"] * 36 == pytest.approx(_escapes_by_hand({4, 7, 10}))
    assert theirs["rear_beyond"] * 36 == pytest.approx(_escapes_by_hand({4, 7, 10}, beyond=4))
    assert theirs["fewest"] == theirs["rear_escapes"]
    assert theirs["failing"] * 540 == pytest.approx(9 * (36 - _escapes_by_hand({4, 7, 10})))
    assert theirs["run"] * 6 == pytest.approx(1) and theirs["gap"] * 12 == pytest.approx(17 - 7)
    assert theirs["caught"] == 0  # a run of one catches nothing
    assert theirs["free_pips"] * 360 == pytest.approx(1 + 2 + 3 + 4 + 5 + 6)
    assert theirs["spare_pips"] * 360 == pytest.approx(8 * 17)
    assert theirs["walled_in"] == 0


def test_a_race_has_nothing_to_block() -> None:
    """Every checker past every opposing one: escapes are full, all pips are free, nothing is walled in."""
    state = _state({1: 5, 3: 5, 6: 5}, {14: 15})
    mine, theirs = _halves(state)
    assert mine["rear_escapes"] == 1 and mine["fewest"] == 1 and mine["failing"] == 0
    assert mine["free_pips"] * 360 == pytest.approx(5 + 15 + 30) and mine["spare_pips"] == 0
    assert theirs["rear_escapes"] == 1 and theirs["free_pips"] * 360 == pytest.approx(15 * 2)


def test_rungammon_alone_gains_them_at_its_end() -> None:
    """Backgammon's and Catchgammon's inputs stay as they were; Rungammon's gains 10 a side at its end,
    and the other side's are the mover's read from the flipped state."""
    assert (input_size(Variant.BACKGAMMON), input_size(Variant.CATCHGAMMON)) == (255, 281)
    assert input_size(Variant.RUNGAMMON) == 225 + 2 * len(NAMES)
    states = states_array([encode(p) for p, _ in random_positions(Variant.RUNGAMMON, 40, 3)])
    b, other = Board(states), Board(flip(Variant.RUNGAMMON, states))
    both = _blocking(b, other)
    assert np.array_equal(features(Variant.RUNGAMMON, states)[:, -2 * len(NAMES):], both)
    assert np.array_equal(both[:, len(NAMES):], _blocking(other, b)[:, :len(NAMES)])
    assert ((both >= 0) & (both <= 1)).all()
