"""The cube alone: pure transitions, action by action."""

import pytest

from game.board import Color
from game.cube import Cube
from game.errors import CubeNotAvailable, GameError, NotYourTurn, WrongPhase

W, B = Color.WHITE, Color.BLACK


def test_a_new_cube_is_centred_at_one_and_either_player_may_double() -> None:
    cube = Cube()
    assert (cube.value, cube.owner, cube.offered) == (1, None, False)
    assert cube.may_double(W) and cube.may_double(B)


def test_double_then_take_doubles_the_value_and_the_taker_owns_it() -> None:
    offered = Cube().double(W)
    assert (offered.value, offered.offered_by, offered.owner) == (1, W, None)
    taken = offered.take(B)
    assert (taken.value, taken.owner, taken.offered) == (2, B, False)
    assert taken.may_double(B) and not taken.may_double(W)


def test_transitions_leave_the_original_cube_unchanged() -> None:
    cube = Cube()
    cube.double(W)
    assert cube == Cube()


def test_only_the_owner_redoubles_and_the_taker_then_owns_it() -> None:
    cube = Cube().double(W).take(B)
    with pytest.raises(CubeNotAvailable, match="black owns the cube"):
        cube.double(W)
    redoubled = cube.double(B).take(W)
    assert (redoubled.value, redoubled.owner) == (4, W)


def test_a_pass_concedes_the_value_before_the_double() -> None:
    assert Cube().double(W).pass_points(B) == 1
    assert Cube().double(W).take(B).double(B).pass_points(W) == 2


def test_answers_must_come_from_the_doubled_player_with_an_offer_pending() -> None:
    offered = Cube().double(W)
    with pytest.raises(NotYourTurn):
        offered.take(W)
    with pytest.raises(NotYourTurn):
        offered.pass_points(W)
    with pytest.raises(WrongPhase):
        Cube().take(B)
    with pytest.raises(WrongPhase):
        offered.double(B)


def test_the_maximum_cube_stops_doubling() -> None:
    cube = Cube(max_value=4).double(W).take(B)
    assert cube.may_double(B)
    at_max = cube.double(B).take(W)
    assert at_max.value == 4 and not at_max.room_to_double() and not at_max.may_double(W)
    with pytest.raises(CubeNotAvailable, match="maximum is 4"):
        at_max.double(W)


def test_a_beaver_redoubles_at_once_and_the_beaverer_keeps_the_cube() -> None:
    beavered = Cube().double(W).beaver(B)
    assert (beavered.value, beavered.owner, beavered.offered_by, beavered.beavered) == (2, B, B, True)
    taken = beavered.take(W)
    assert (taken.value, taken.owner, taken.offered, taken.beavered) == (4, B, False, False)


def test_passing_a_beaver_concedes_the_doubled_value() -> None:
    assert Cube().double(W).beaver(B).pass_points(W) == 2


def test_a_beaver_is_answered_by_the_original_doubler_and_not_beavered_back() -> None:
    beavered = Cube().double(W).beaver(B)
    with pytest.raises(NotYourTurn):
        beavered.take(B)
    with pytest.raises(WrongPhase):
        beavered.beaver(W)
    with pytest.raises(NotYourTurn):
        Cube().double(W).beaver(W)


def test_a_beaver_respects_the_maximum() -> None:
    with pytest.raises(CubeNotAvailable, match="cannot go to 4"):
        Cube(max_value=2).double(W).beaver(B)


def test_an_automatic_double_keeps_the_cube_centred() -> None:
    cube = Cube().automatic_double()
    assert (cube.value, cube.owner) == (2, None)
    with pytest.raises(CubeNotAvailable):
        Cube().double(W).take(B).automatic_double()
    with pytest.raises(CubeNotAvailable):
        Cube(max_value=1).automatic_double()


def test_cube_errors_are_game_errors_and_value_errors() -> None:
    with pytest.raises(GameError):
        Cube().take(W)
    with pytest.raises(ValueError):
        Cube().take(W)
