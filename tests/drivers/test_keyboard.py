"""The players' buttons from a terminal's keys (`drivers.keyboard`), read from a pipe here; over a
real pseudo-terminal in tests/test_check_and_keys_pty.py."""

from __future__ import annotations

import os
import random
import time

import pytest

from drivers.buttons import VirtualDice
from drivers.clock import ManualClock
from drivers.errors import DriverConfigError
from drivers.events import ButtonKind, ButtonPressed, DieState, Event, EventQueue
from drivers.keyboard import KEYMAP, KeyboardButtons, describe_keys


def drain(events: EventQueue) -> list[Event]:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def test_each_key_of_the_map_is_a_press_and_the_space_bar_rolls() -> None:
    read, write = os.pipe()
    dice = VirtualDice(clock=ManualClock(5.0), rng=random.Random(1), source="keyboard")
    keys = KeyboardButtons(read, clock=ManualClock(5.0), dice=dice)
    try:
        assert keys.feed(b"aSx;") == 3  # upper case too; x is no key
        presses = drain(keys.events)
        assert [(e.player, e.button) for e in presses if isinstance(e, ButtonPressed)] == [
            ("white", ButtonKind.DONE), ("white", ButtonKind.DOUBLE), ("black", ButtonKind.PASS)]
        assert keys.feed(b" ") == 1
        rolled = drain(dice.events)
        assert [(e.die_id, e.battery_pct, e.throw) for e in rolled if isinstance(e, DieState)] == [
            (1, None, 1), (2, None, 1)]
    finally:
        keys.close()
        os.close(read)
        os.close(write)


def test_keys_are_read_in_a_thread_until_the_input_ends() -> None:
    read, write = os.pipe()
    keys = KeyboardButtons(read)
    keys.start()
    os.write(write, b"jl")
    os.close(write)  # the end of input: the reader stops by itself
    give_up = time.monotonic() + 10.0
    seen: list[Event] = []
    while len(seen) < 2 and time.monotonic() < give_up:
        seen += drain(keys.events)
        time.sleep(0.01)
    keys.close()
    os.close(read)
    assert [(e.player, e.button) for e in seen if isinstance(e, ButtonPressed)] == [
        ("black", ButtonKind.DONE), ("black", ButtonKind.TAKE)]


def test_the_key_map_in_one_line_and_a_bad_map_refused() -> None:
    assert describe_keys(KEYMAP, roll=True) == ("keys: white a done s double d take f pass | "
                                               "black j done k double l take ; pass | space roll")
    read, write = os.pipe()
    with pytest.raises(DriverConfigError, match="single keys, the space bar kept for the roll"):
        KeyboardButtons(read, keymap={" ": ("white", ButtonKind.DONE)})
    os.close(read)
    os.close(write)
