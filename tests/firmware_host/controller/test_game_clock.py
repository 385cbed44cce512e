import pytest

from firmware_host.controller.chess_clock import GameClock
from firmware_host.errors import ClockNotRunning
from game.board import Color

W, B = Color.WHITE, Color.BLACK


def test_defaults_two_minutes_a_point_and_twelve_seconds_delay() -> None:
    clock = GameClock.for_match(5)
    assert clock.reserve == {W: 600.0, B: 600.0} and clock.delay == 12.0
    assert GameClock.for_match(None).reserve[W] == 840.0


def test_delay_is_free_then_reserve_runs_down() -> None:
    clock = GameClock.for_match(1)
    clock.start(W, now=100.0)
    assert clock.remaining(W, 110.0) == 120.0 and clock.show(W, 110.0) == "2:00 (+2s)"
    assert clock.stop(now=130.0) == pytest.approx(18.0)
    assert clock.reserve[W] == pytest.approx(102.0) and clock.reserve[B] == 120.0
    clock.start(B, now=130.0)
    clock.start(W, now=135.0)  # switching stops Black's clock within the delay: nothing used
    assert clock.reserve[B] == 120.0 and clock.running is W


def test_time_loss_is_flagged_and_stays() -> None:
    clock = GameClock({W: 10.0, B: 10.0}, delay=2.0)
    clock.start(B, now=0.0)
    assert clock.check(11.9) is None
    assert clock.check(12.5) is B
    clock.stop(20.0)
    assert clock.flagged is B and clock.reserve[B] < 0 and clock.show(B, 20.0) == "0:00"


def test_stopping_a_stopped_clock_is_an_error() -> None:
    with pytest.raises(ClockNotRunning):
        GameClock.for_match(3).stop(1.0)
