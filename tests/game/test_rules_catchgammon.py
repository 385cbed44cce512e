"""Catchgammon rules, one named test per rule, and the seed example."""

import pytest
from builders import board, notations

from game.board import Color, Variant
from game.plays import Play
from game.position import Position, ResultKind

pytestmark = pytest.mark.usefixtures("each_kernel")  # the rules, by each kernel

CG = Variant.CATCHGAMMON
W, B = Color.WHITE, Color.BLACK


def _play(position: Position, dice: tuple[int, int], notation: str) -> Play:
    found = position.parse_play(notation, dice)
    assert found is not None, f"{notation} not among {sorted(notations(position, dice))}"
    return found


def test_start_all_checkers_on_the_opponents_one_point() -> None:
    start = Position.initial(CG)
    assert start.stack(24) == "w" * 15 and start.stack(1) == "b" * 15
    assert start.pip_count(W) == start.pip_count(B) == 360


def test_seed_example_white_traps_the_red_checker_on_point_7() -> None:
    after_white = _play(Position.initial(CG), (3, 2), "24/21 21/19").after_moves.pass_turn()
    after_black = _play(after_white, (6, 5), "24/19 24/18").after_moves
    assert after_black.stack(7) == "b" and after_black.stack(6) == "b"
    trapped = _play(after_black.pass_turn(), (3, 3), "19/16 16/13 13/10 10/7*").after_moves
    assert trapped.stack(7) == "bw"
    assert trapped.trapped(B) == (7,)
    black_to_play = trapped.pass_turn()
    for dice in [(1, 2), (6, 5), (4, 4), (1, 1)]:
        for play in black_to_play.legal_plays(dice):
            assert all(move.source != 18 for move in play.moves), (dice, play.notation())


def test_a_lone_checker_is_trapped_not_sent_to_a_bar() -> None:
    pos = board(CG, W, {24: 14, 10: 1}, {7: 1, 1: 14})
    after = _play(pos, (2, 1), "10/8 8/7*").after_moves
    assert after.stack(7) == "bw" and after.bar == (0, 0)
    assert after.pip_count(B) == pos.pip_count(B)  # the trapped checker keeps its place


def test_trapped_checker_is_freed_when_every_trapper_has_left() -> None:
    pos = board(CG, B, {7: 2, 24: 13}, {7: 1, 1: 14}, trapped={7: "b"})
    # Black's own 18 is board 7, under two white checkers: no black play moves it
    assert all(m.source != 18 for p in pos.legal_plays((6, 5)) for m in p.moves)
    one_left = _play(pos.pass_turn(), (3, 1), "24/21 7/6").after_moves
    assert one_left.stack(7) == "bw"  # one trapper still holds it
    assert all(m.source != 18 for p in one_left.pass_turn().legal_plays((2, 1)) for m in p.moves)
    both_left = _play(pos.pass_turn(), (2, 1), "7/6 7/5").after_moves
    assert both_left.stack(7) == "b"  # free again, alone
    freed_black = both_left.pass_turn()
    assert any(m.source == 18 for p in freed_black.legal_plays((2, 1)) for m in p.moves)


def test_cannot_land_on_two_opponent_checkers() -> None:
    pos = board(CG, W, {24: 15}, {20: 2, 1: 13})
    assert not any("/20" in n for n in notations(pos, (4, 3)))


def test_cannot_land_on_a_trapper_holding_your_own_checker() -> None:
    # board 20: a white checker trapped under one black checker; White may not land there
    pos = board(CG, W, {24: 14, 20: 1}, {20: 1, 1: 14}, trapped={20: "w"})
    assert not any("/20" in n for n in notations(pos, (4, 3)))


def test_may_add_checkers_on_top_of_your_own_trap() -> None:
    pos = board(CG, W, {20: 1, 24: 14}, {20: 1, 1: 14}, trapped={20: "b"})
    after = _play(pos, (4, 3), "24/21 24/20").after_moves
    assert after.stack(20) == "bww"


def test_bear_off_needs_all_checkers_home_and_free() -> None:
    home = board(CG, W, {6: 5, 3: 5, 2: 4, 1: 1}, {1: 1, 19: 14}, trapped={1: "b"})
    assert any("off" in n for n in notations(home, (6, 3)))
    trapped_white = board(CG, W, {6: 5, 3: 5, 1: 4, 20: 1}, {20: 1, 19: 14}, trapped={20: "w"})
    # White's own 20 is trapped far away: nothing may be borne off, though the others are home
    assert not any("off" in n for n in notations(trapped_white, (6, 3)))
    in_home_trapped = board(CG, W, {6: 5, 3: 5, 2: 4, 4: 1}, {4: 1, 19: 14}, trapped={4: "w"})
    assert not any("off" in n for n in notations(in_home_trapped, (6, 3)))
    assert notations(in_home_trapped, (6, 3))  # other checkers still move


def test_results_single_gammon_catchgammon() -> None:
    catch = board(CG, W, {}, {5: 15}, off=(15, 0))
    assert catch.result().kind is ResultKind.TRIPLE  # type: ignore[union-attr]
    gammon = board(CG, W, {}, {12: 15}, off=(15, 0))
    assert gammon.result().kind is ResultKind.GAMMON  # type: ignore[union-attr]
    single = board(CG, W, {}, {3: 10}, off=(15, 5))
    assert single.result().kind is ResultKind.SINGLE  # type: ignore[union-attr]


def test_remi_when_both_are_trapped_on_their_starting_points() -> None:
    # White trapped on board 24 (its own 24) under Black; Black trapped on board 1 under White
    remi = board(CG, W, {24: 1, 1: 1, 3: 13}, {24: 1, 1: 1, 22: 13}, trapped={24: "w", 1: "b"})
    assert remi.is_remi()
    one_side = board(CG, W, {24: 1, 3: 14}, {24: 1, 22: 14}, trapped={24: "w"})
    assert not one_side.is_remi()
    assert not Position.initial(CG).is_remi()


def test_opening_66_and_55_run_one_stack() -> None:
    start = Position.initial(CG)
    assert notations(start, (6, 6)) == {"24/18(4)", "24/12 24/18(2)", "24/12(2)", "24/6 24/18"}
    assert len(start.legal_plays((5, 5))) == 5
