"""Backgammon's contact inputs (GNU Backgammon's, eval.c's CalculateHalfInputs) on positions counted by
hand, and on random positions against a point-by-point reading of gnubg's definitions (a loop per
checker, as eval.c has them, where the encoding computes them for a whole batch at once)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from game.board import Variant
from game.bot.encoding import Board, _containment, features, flip, input_size, states_array
from game.movegen import encode
from game.position import Position
from game.selfplay import random_positions

NAMES = ("back_escapes", "back_escapes_beyond", "contain_rear", "contain_rear2", "contain", "contain2",
         "mobility", "break_contact", "free_pips", "timing", "back", "back_anchor", "forward_anchor",
         "moment", "back_game", "back_game1")


def _inputs(state: npt.NDArray[np.uint8]) -> dict[str, float]:
    b, other = Board(state), Board(flip(Variant.BACKGAMMON, state))
    return dict(zip(NAMES, (float(v) for v in _containment(b, other)[0, :len(NAMES)]), strict=True))


def _state(mine: dict[int, int], theirs: dict[int, int], my_bar: int = 0, their_bar: int = 0) -> npt.NDArray[np.uint8]:
    """A Backgammon state from the side on roll: `mine` on own points, `theirs` on the mover's points."""
    state = np.zeros((1, 28), dtype=np.uint8)
    for point, n in mine.items():
        state[0, point] = n
    for point, n in theirs.items():
        state[0, point] = 16 + n
    state[0, 25], state[0, 26] = my_bar, their_bar
    state[0, 0] = 15 - sum(mine.values()) - my_bar
    state[0, 27] = 15 - sum(theirs.values()) - their_bar
    return state


def _escapes_by_hand(blocked_pips: set[int]) -> int:
    """Rolls of 36 that carry a checker a + b pips to an open point by way of an open a or b pip point."""
    count = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if a + b in blocked_pips or (a in blocked_pips and b in blocked_pips):
                continue
            count += 1
    return count


def test_the_starting_position() -> None:
    """Both sides at the start: the opponent's back checkers on my 1-point face my points 13, 8 and 6
    (12, 7 and 5 pips ahead); the pips to break contact are all 167 of mine."""
    start = states_array([encode(Position.initial(Variant.BACKGAMMON))])
    got = _inputs(start)
    # Blocked 5, 7, 12: sums 5 (4 rolls), 7 (6), 12 (6-6) and 5-5 (by way of 5) fail: 36 - 12.
    assert _escapes_by_hand({5, 7, 12}) == 24
    assert got["back_escapes"] * 36 == pytest.approx(24)
    # Beyond the first block (5 pips): sums 6 (5 rolls), 8 (5), 9 (4), 10 (2: 5-5 fails), 11 (2).
    assert got["back_escapes_beyond"] * 36 == pytest.approx(18)
    assert got["break_contact"] * 167 == pytest.approx(167)
    assert got["free_pips"] == 0
    assert got["back"] * 24 == pytest.approx(23)  # my 24-point
    assert got["back_anchor"] * 24 == pytest.approx(23)
    assert got["forward_anchor"] == pytest.approx(1 / 6)  # the anchor on the 24-point: 24 - 23 = 1
    assert got["back_game"] == 0 and got["back_game1"] == pytest.approx(2 / 8)  # one anchor, two checkers


def test_a_checker_walled_in_behind_a_six_prime_has_no_escape() -> None:
    """Their checker on my 1-point (their 24) behind my prime on 2-7: no roll escapes, so the containment
    from any of my outfield and home points is total, and my points hold it with none beyond."""
    state = _state({2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 13: 3}, {1: 1, 19: 14})
    got = _inputs(state)
    assert got["back_escapes"] == 0 and got["back_escapes_beyond"] == 0
    assert got["contain_rear"] == 1 and got["contain"] == 1 and got["contain2"] == 1


def test_free_pips_break_contact_and_the_mobility_of_a_checker_outside_home() -> None:
    """One opposing checker on my 10-point (their 15): my checkers below it are free (pips 3 + 2 * 2),
    my checker on 20 must pass it (20 - 10 + 1 pips, gnubg's count), and that checker escapes on every
    roll but those blocked by their points 5 and 7 pips ahead (my 15 and 13) ."""
    state = _state({20: 1, 3: 1, 2: 2}, {10: 1, 15: 2, 13: 2})
    got = _inputs(state)
    assert got["free_pips"] * 100 == pytest.approx(3 + 2 * 2)
    assert got["break_contact"] * 167 == pytest.approx(20 - 10 + 1)
    # Mobility: (20 - 6) pips from home, times its escapes (blocked 5 and 7 pips ahead).
    assert got["mobility"] * 3600 == pytest.approx(14 * _escapes_by_hand({5, 7}))
    assert got["back"] * 24 == pytest.approx(19) and got["back_anchor"] * 24 == pytest.approx(1)
    assert got["forward_anchor"] == 2.0  # no anchor on points 13-24


def test_timing_counts_spares_then_fills_home_gaps() -> None:
    """Their rearmost checker on my 20-point (index 19): my checkers above it count as spares only beyond
    two (4 on 22: 2 spares at index 21); those from the 7-point up to it all (3 on index 9); then my home,
    from the 6-point down: 3 on the 6-point gives 1 spare (index 5), the empty 5 and 4 points take 2 each
    while spares last."""
    state = _state({22: 4, 10: 3, 6: 3, 1: 5}, {20: 1, 18: 14})
    # index sums: 2 * 21 + 3 * 9 = 69 pips from 5 checkers, + 1 * 5 (6 checkers), fill index 4 (-8,
    # 4 left), index 3 (-6, 2 left), index 2 (-4, 0 left), index 1 cannot; index 0 has 5: +3 * 0.
    assert _inputs(state)["timing"] * 100 == pytest.approx(69 + 5 - 8 - 6 - 4)


def test_back_games_count_the_checkers_in_the_opponents_home() -> None:
    state = _state({24: 2, 21: 2, 20: 1, 6: 10}, {1: 15})
    got = _inputs(state)
    assert got["back_game"] == pytest.approx((5 - 3) / 4) and got["back_game1"] == 0
    assert got["forward_anchor"] == pytest.approx((24 - 20) / 6)  # the lower of the two: my 21-point


def _escapes(board: list[int], n: int, beyond: bool) -> int:
    """eval.c's Escapes (and Escapes1, `beyond`) for the opponent's checker on its index `n`, one roll at a time."""
    blocked = [k < min(n, 12) and board[24 + k - n] >= 2 for k in range(12)]
    first = next((k for k in range(12) if blocked[k]), None)
    count = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if blocked[a + b - 1] or (blocked[a - 1] and blocked[b - 1]):
                continue
            if beyond and (first is None or a + b - 1 <= first):
                continue
            count += 1
    return count


def _timing(mine: list[int], opp_back: int) -> int:
    """eval.c's I_TIMING before scaling, point by point."""
    t, no = 24 * mine[24], mine[24]
    m = max(opp_back, 11)
    i = 23
    while i > m:
        if mine[i] and mine[i] != 2:
            k = mine[i] - 2 if mine[i] > 2 else 1
            no, t = no + k, t + i * k
        i -= 1
    while i >= 6:
        no, t = no + mine[i], t + i * mine[i]
        i -= 1
    for i in range(5, -1, -1):
        if mine[i] > 2:
            t, no = t + i * (mine[i] - 2), no + mine[i] - 2
        elif mine[i] < 2 and no >= 2 - mine[i]:
            t, no = t - i * (2 - mine[i]), no - (2 - mine[i])
    return t


def _reference(mine: list[int], theirs: list[int]) -> list[float]:
    """eval.c's definitions read checker by checker: `mine` and `theirs` are 25 counts in each side's own
    numbering (index 24: the bar), `mine` the side the inputs are for."""
    opp_back = next((i for i in range(24, -1, -1) if theirs[i]), -1)
    opp_back = 23 - opp_back
    break_contact = sum((i + 1 - opp_back) * mine[i] for i in range(opp_back + 1, 25))
    free = sum((i + 1) * mine[i] for i in range(max(opp_back, 0)))
    t = _timing(mine, opp_back)
    back = next((i for i in range(24, -1, -1) if mine[i]), -1)
    anchor = next((i for i in range(23 if back == 24 else back, -1, -1) if mine[i] >= 2), -1)
    forward = next((24 - j for j in range(18, anchor + 1) if mine[j] >= 2), 0)
    if forward == 0:
        forward = next((24 - j for j in range(17, 11, -1) if mine[j] >= 2), 0)
    total = sum(mine)
    mean = (sum(i * c for i, c in enumerate(mine)) + total - 1) // total if total else 0
    beyond_mean = sum(mine[i] for i in range(mean + 1, 25))
    moment = sum(mine[i] * (i - mean) ** 2 for i in range(mean + 1, 25))
    moment = (moment + beyond_mean - 1) // beyond_mean if beyond_mean else 0
    rear = 23 - opp_back
    contain_rear = min([_escapes(mine, i, False) for i in range(15, rear + 1)], default=36)
    # eval.c goes on from where the first loop stopped, but starts again without the bar when the
    # opponent is on it.
    start, contain = (15, 36) if opp_back < 0 else (max(15, rear + 1), contain_rear)
    contain = min([contain] + [_escapes(mine, i, False) for i in range(start, 24)])
    mobility = sum((i - 5) * mine[i] * _escapes(theirs, i, False) for i in range(6, 25))
    anchors = sum(mine[i] >= 2 for i in range(18, 24))
    in_back = sum(mine[18:25])
    return [_escapes(mine, rear, False) / 36, _escapes(mine, rear, True) / 36, (36 - contain_rear) / 36,
            ((36 - contain_rear) / 36) ** 2, (36 - contain) / 36, ((36 - contain) / 36) ** 2, mobility / 3600,
            break_contact / 167, free / 100, max(t, 0) / 100, back / 24, anchor / 24,
            2.0 if forward == 0 else forward / 6, moment / 400, (in_back - 3) / 4 if anchors > 1 else 0.0,
            in_back / 8 if anchors == 1 else 0.0]


def test_the_batch_agrees_with_a_checker_by_checker_reading_of_gnubgs_definitions() -> None:
    positions = [p for p, _ in random_positions(Variant.BACKGAMMON, 400, 27)]
    states = states_array([encode(p) for p in positions])
    b, other = Board(states), Board(flip(Variant.BACKGAMMON, states))
    got = _containment(b, other)[:, :len(NAMES)]
    for row in range(len(positions)):
        mine = [int(c) for c in b.mine[row]] + [int(b.my_bar[row])]
        theirs = [int(c) for c in other.mine[row]] + [int(other.my_bar[row])]
        assert got[row] == pytest.approx(_reference(mine, theirs), abs=1e-6), row


def test_only_backgammon_has_them() -> None:
    """The Catchgammon network keeps its inputs (Rungammon gains its own: test_bot_rungammon_inputs.py);
    Backgammon's gains 16 a side at its end."""
    assert input_size(Variant.CATCHGAMMON) == 281
    assert input_size(Variant.BACKGAMMON) == 223 + 2 * len(NAMES)
    states = states_array([encode(p) for p, _ in random_positions(Variant.BACKGAMMON, 20, 3)])
    b, other = Board(states), Board(flip(Variant.BACKGAMMON, states))
    x = features(Variant.BACKGAMMON, states)
    both = _containment(b, other)
    assert np.array_equal(x[:, -32:], both)
    assert np.array_equal(both[:, 16:], _containment(other, b)[:, :16])  # the same for the other side
