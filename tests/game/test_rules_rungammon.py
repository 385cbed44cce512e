"""Rungammon rules, one named test per rule."""

import pytest
from builders import board, notations

from game.board import Color, Variant
from game.position import Position, ResultKind

pytestmark = pytest.mark.usefixtures("each_kernel")  # the rules, by each kernel

RG = Variant.RUNGAMMON
W, B = Color.WHITE, Color.BLACK


def test_start_diagonally_opposite_and_both_run_anticlockwise() -> None:
    start = Position.initial(RG)
    assert start.stack(24) == "w" * 15 and start.stack(12) == "b" * 15
    assert start.pip_count(W) == start.pip_count(B) == 360
    black = start.pass_turn()
    (play,) = black.legal_plays((2, 1))
    assert play.notation() == "24/21"
    assert play.after_moves.stack(9) == "b"  # Black runs 12 -> 1 -> 24 -> 13


def test_black_path_crosses_from_point_1_to_24() -> None:
    pos = board(RG, B, {24: 15}, {1: 1, 12: 14})  # Black's own 13 is board 1
    after = {p.notation(): p.after_moves for p in pos.legal_plays((3, 1))}
    # 13/12 would land on board 24, White's start; 13/10 lands on board 22
    assert set(after) == {"13/9", "24/23 13/10"}
    assert after["13/9"].stack(21) == "b"
    assert after["24/23 13/10"].stack(22) == "b" and after["24/23 13/10"].stack(11) == "b"


def test_one_checker_holds_a_point_and_nothing_is_hit() -> None:
    pos = board(RG, W, {24: 14, 10: 1}, {8: 1, 12: 14})
    plays = notations(pos, (2, 1))
    assert not any("/8" in n for n in plays)
    for play in pos.legal_plays((2, 1)):
        assert not any(m.hit for m in play.moves)
        assert play.after_moves.stack(8) == "b"


def test_only_one_checker_leaves_the_start_until_one_has_passed_the_opponents_start() -> None:
    assert notations(Position.initial(RG), (3, 1)) == {"24/20"}
    assert notations(Position.initial(RG), (6, 6)) == {"24/18"}  # 18/12 is Black's start
    not_passed = board(RG, W, {24: 14, 13: 1}, {12: 15})
    # the 2 first passes Black's start (to own 11), then a second checker may leave with the 1
    assert notations(not_passed, (2, 1)) == {"24/23 13/11", "13/10"}


def test_may_not_hold_all_six_points_of_the_starting_table() -> None:
    pos = board(RG, W, {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {12: 15})
    for play in pos.legal_plays((5, 1)):
        held = [bool(play.after_moves.stack(p)) for p in range(19, 25)]
        assert not all(held), play.notation()
    assert "24/19 20/19" in notations(pos, (5, 1))
    assert "24/19 5/4" not in notations(pos, (5, 1))


def test_no_six_prime_with_opponents_behind_and_none_ahead() -> None:
    # White holds board 7-11 and makes 6 with 13/7 7/6: Black's own 18-23 with all of Black behind
    white = {24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 13: 1}
    trapped_behind = board(RG, W, white, {12: 15})
    assert "13/6" not in notations(trapped_behind, (6, 1))
    one_ahead = board(RG, W, white, {12: 14, 17: 1})  # a black checker already past the prime
    assert "13/6" in notations(one_ahead, (6, 1))
    one_off = board(RG, W, white, {12: 14}, off=(0, 1))  # borne-off checkers count as ahead
    assert "13/6" in notations(one_off, (6, 1))


def test_among_plays_that_break_no_prime_rule_the_dice_rules_apply() -> None:
    # Every play of both dice, and the 5 alone, would hold all of own 19-24: only the 4 is played.
    pos = board(RG, W, {24: 9, 23: 2, 22: 1, 21: 1, 20: 1, 1: 1},
                {14: 3, 15: 3, 16: 3, 17: 3, 18: 3})
    assert notations(pos, (5, 4)) == {"24/20"}


def test_bear_off_and_results_single_gammon_rungammon() -> None:
    pos = board(RG, W, {6: 1, 2: 1}, {12: 15}, off=(13, 0))
    assert notations(pos, (6, 2)) == {"6/off 2/off", "6/off"}  # 6/off alone is 6/4/off
    rungammon = board(RG, W, {}, {3: 15}, off=(15, 0))  # Black still in White's home
    assert rungammon.result().kind is ResultKind.TRIPLE  # type: ignore[union-attr]
    gammon = board(RG, W, {}, {12: 15}, off=(15, 0))
    assert gammon.result().kind is ResultKind.GAMMON  # type: ignore[union-attr]
    single = board(RG, W, {}, {14: 14}, off=(15, 1))
    assert single.result().kind is ResultKind.SINGLE  # type: ignore[union-attr]
