"""Backgammon rules, one named test per rule."""

import pytest
from builders import board, notations

from game.board import Color, Variant
from game.position import Position, ResultKind

pytestmark = pytest.mark.usefixtures("each_kernel")  # the rules, by each kernel

BG = Variant.BACKGAMMON
W, B = Color.WHITE, Color.BLACK


def test_opening_31_has_the_sixteen_gnu_backgammon_plays() -> None:
    plays = notations(Position.initial(BG), (3, 1))
    assert len(plays) == 16
    assert "8/5 6/5" in plays


def test_checker_on_the_bar_must_enter_before_any_other_move() -> None:
    pos = board(BG, W, {13: 5, 6: 5, 8: 4}, {1: 2, 12: 5, 17: 3, 19: 5}, bar=(1, 0))
    # the 6 would enter on 19 (blocked), so the 1 enters and the 6 is played after it
    assert notations(pos, (6, 1)) == {"bar/18", "bar/24 13/7", "bar/24 8/2"}
    blocked = board(BG, W, {13: 5, 6: 5, 8: 4}, {24: 2, 19: 2, 12: 3, 17: 3, 1: 5}, bar=(1, 0))
    assert blocked.legal_plays((6, 1)) == ()


def test_entering_hits_a_blot_and_sends_it_to_the_bar() -> None:
    pos = board(BG, W, {13: 5, 6: 5, 8: 4}, {22: 1, 1: 14}, bar=(1, 0))
    after = {p.notation(): p.after_moves for p in pos.legal_plays((3, 6))}
    hit = after["bar/22* 13/7"]
    assert hit.bar == (0, 1) and hit.stack(22) == "w"


def test_a_point_with_two_opponent_checkers_is_blocked() -> None:
    pos = board(BG, W, {24: 1, 1: 14}, {18: 2, 1: 0, 2: 13})
    assert all("24/18" not in n for n in notations(pos, (6, 5)))


def test_both_dice_must_be_played_when_any_order_allows_it() -> None:
    # 6 then 5 is possible only as 24/18/13; 24/19 first blocks the 6 (19->13 blocked).
    pos = board(BG, W, {24: 1, 1: 14}, {13: 0, 12: 2, 14: 2, 7: 2, 3: 2, 2: 7})
    plays = notations(pos, (6, 5))
    assert plays == {"24/13"}  # one checker's steps joined, as GNU Backgammon writes them


def test_only_one_die_playable_then_the_larger_must_be_played() -> None:
    # White's lone back checker can move 6 or 5 but never both; everything else is borne... blocked.
    pos = board(BG, W, {24: 1, 1: 14}, {18: 0, 13: 2, 12: 2, 19: 2, 7: 2, 8: 2, 9: 2, 4: 3})
    plays = notations(pos, (6, 5))
    assert plays == {"24/18"}


def test_smaller_die_alone_when_the_larger_cannot_be_played() -> None:
    pos = board(BG, W, {24: 1, 1: 14}, {18: 2, 13: 2, 12: 2, 7: 2, 8: 2, 9: 2, 4: 3})
    assert notations(pos, (6, 5)) == {"24/19"}


def test_bear_off_needs_every_checker_home() -> None:
    pos = board(BG, W, {9: 1, 6: 4, 5: 5, 4: 5}, {24: 15})
    plays = notations(pos, (6, 1))
    assert "9/3 6/5" in plays
    assert not any("off" in n for n in plays)
    last_home = board(BG, W, {7: 1, 6: 4, 5: 5, 1: 5}, {24: 15})
    assert "7/off" in notations(last_home, (6, 1))  # home after the first die


def test_bear_off_with_exact_die_or_from_the_highest_point() -> None:
    pos = board(BG, W, {4: 2, 2: 3}, {24: 15}, off=(10, 0))
    assert notations(pos, (6, 5)) == {"4/off(2)"}  # both dice bear off from the highest point
    pos = board(BG, W, {6: 1, 4: 1}, {24: 15}, off=(13, 0))
    # 4/off with the 5 is not allowed while a checker stands higher, on 6; 6/5 5/off
    # ends where 6/1/off does, and plays are told apart by the position they produce
    assert notations(pos, (5, 1)) == {"6/off", "6/1 4/3"}


def test_no_obligation_to_bear_off_when_another_move_exists() -> None:
    pos = board(BG, W, {6: 2, 1: 1}, {24: 15}, off=(12, 0))
    plays = notations(pos, (5, 1))
    assert "6/5 6/1" in plays and "6/off" in plays


def test_result_single_gammon_backgammon() -> None:
    backgammon = board(BG, W, {}, {3: 15}, off=(15, 0))  # Black still in White's home
    assert backgammon.result() is not None and backgammon.result().kind is ResultKind.TRIPLE  # type: ignore[union-attr]
    gammon = board(BG, W, {}, {18: 15}, off=(15, 0))
    assert gammon.result().kind is ResultKind.GAMMON  # type: ignore[union-attr]
    single = board(BG, W, {}, {18: 14}, off=(15, 1))
    assert single.result().kind is ResultKind.SINGLE  # type: ignore[union-attr]
    on_bar = board(BG, W, {}, {18: 14}, bar=(0, 1), off=(15, 0))
    assert on_bar.result().kind is ResultKind.TRIPLE  # type: ignore[union-attr]
    assert Position.initial(BG).result() is None


def test_black_moves_the_other_way() -> None:
    plays = Position.initial(BG, B).legal_plays((6, 5))
    lover = [p for p in plays if p.notation() == "24/13"]
    assert len(lover) == 1
    assert lover[0].after_moves.stack(1) == "b" and lover[0].after_moves.stack(12) == "bbbbbb"
