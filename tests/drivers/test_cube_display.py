"""The cube display's pins on gpiozero's MockFactory, for every cube value and owner.

The digits are multiplexed by a thread, so a test pin class logs every state
change in order; replaying the log shows which segments are lit whenever a digit's
transistor is switched on. Nothing is timed: the test waits (with a hang guard) until the
multiplex has cycled a few times.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from drivers.cube_display import LARGEST_VALUE, CubeDisplay, cube_digits
from drivers.errors import DisplayValueError
from drivers.events import Player
from drivers.pinmap import DEFAULT_CUBE_PINS as PINS

SEGMENTS = {" ": "", "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg",
            "5": "acdfg", "6": "acdefg", "8": "abcdefg", "E": "adefg", "-": "g"}
TRACE: list[tuple[int, bool]] = []
TRACE_LOCK = threading.Lock()


class TracingPin(MockPin):  # type: ignore[misc]
    def _change_state(self, value: bool) -> bool:
        with TRACE_LOCK:
            changed: bool = super()._change_state(value)
            if changed:
                TRACE.append((int(self.info.name.removeprefix("GPIO")), value))
        return changed


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=TracingPin)
    with TRACE_LOCK:
        TRACE.clear()  # fresh pins start low, as the replay assumes
    yield factory
    factory.reset()


@pytest.fixture
def display(factory: MockFactory) -> Iterator[CubeDisplay]:
    with CubeDisplay(pin_factory=factory, plex_delay=0.0005) as display:
        yield display


def lit(segments: str, dp: bool) -> tuple[bool, ...]:
    return tuple(name in segments for name in "abcdefg") + (dp,)


def expected_lit(char: str) -> tuple[bool, ...]:
    return lit(SEGMENTS[char.rstrip(".")], char.endswith("."))


def seen_on_digits(mark: int, wanted: dict[int, tuple[bool, ...]]) -> dict[int, set[tuple[
        bool, ...]]]:
    """Replay the trace; from `mark` on, sample the segments each time a digit is switched
    on, until each digit in `wanted` was sampled 3 times (once if nothing multiplexes)."""
    multiplexed = len(set(wanted.values())) > 1
    enough = 3 if multiplexed else 1
    give_up = time.monotonic() + 10.0
    while True:
        with TRACE_LOCK:
            trace = list(TRACE)
        state: dict[int, bool] = {}
        samples: dict[int, list[tuple[bool, ...]]] = {}
        for index, (pin, value) in enumerate(trace):
            state[pin] = value
            if index >= mark and value and pin in PINS.digits:
                other = PINS.digits[1 - PINS.digits.index(pin)]
                assert not (multiplexed and state.get(other, False)), "two digits lit at once"
                samples.setdefault(pin, []).append(tuple(
                    state.get(p, False) for p in (*PINS.segments, PINS.dp)))
        if all(len(samples.get(digit, [])) >= enough for digit in wanted):
            return {digit: set(found) for digit, found in samples.items()}
        assert time.monotonic() < give_up, f"digits never lit as {wanted}: {samples}"
        time.sleep(0.001)


def assert_shows(factory: MockFactory, display: CubeDisplay, chars: tuple[str, str],
                 action: object) -> None:
    with TRACE_LOCK:
        mark = len(TRACE)
    assert callable(action)
    action()
    wanted = {digit: expected_lit(char) for digit, char in zip(PINS.digits, chars,
                                                                strict=True) if char != " "}
    seen = seen_on_digits(mark, wanted)
    assert seen == {digit: {segments} for digit, segments in wanted.items()}
    assert display.text == chars


CASES = [(2 ** n, owner) for n in range(20) for owner in (None, "white", "black")
         if n > 0 or owner is None]


@pytest.mark.parametrize(("value", "owner"), CASES)
def test_every_cube_value_and_owner_lights_exactly_the_right_pins(
        factory: MockFactory, display: CubeDisplay, value: int, owner: Player | None) -> None:
    crawford = value % 3 == 1
    chars = cube_digits(value)
    assert_shows(factory, display, chars, lambda: display.show(value, owner, crawford))
    leds = {pin: factory.pin(pin).state for pin in (PINS.centre, PINS.white, PINS.black,
                                                    PINS.crawford)}
    assert leds == {PINS.centre: owner is None, PINS.white: owner == "white",
                    PINS.black: owner == "black", PINS.crawford: crawford}


@pytest.mark.parametrize(("value", "chars"), [
    (1, ("6", "4")), (2, (" ", "2")), (8, (" ", "8")), (16, ("1", "6")), (64, ("6", "4")),
    (128, ("1", "2.")), (1024, ("1", "0.")), (16384, ("1", "6.")), (LARGEST_VALUE, ("5", "2."))])
def test_cube_digits_forms(value: int, chars: tuple[str, str]) -> None:
    assert cube_digits(value) == chars


def test_every_displayable_value_looks_different() -> None:
    forms = [cube_digits(2 ** n) for n in range(1, 20)]
    assert len(set(forms)) == len(forms)


def test_codes_show_as_text_and_leave_the_leds(factory: MockFactory,
                                               display: CubeDisplay) -> None:
    display.show(4, "black", False)
    assert_shows(factory, display, ("E", "1"), lambda: display.show_text("E1"))
    assert_shows(factory, display, ("8", "8"), lambda: display.show_text("88"))
    assert factory.pin(PINS.black).state
    display.off()
    assert not any(factory.pin(pin).state for pin in (
        *PINS.segments, PINS.dp, *PINS.digits, PINS.centre, PINS.white, PINS.black,
        PINS.crawford))


def test_a_code_shown_with_the_cube_takes_the_digits_and_the_leds_say_where_the_cube_is(
        factory: MockFactory, display: CubeDisplay) -> None:
    assert_shows(factory, display, ("E", "1"), lambda: display.show(4, "white", True, text="E1"))
    assert [factory.pin(pin).state for pin in (PINS.centre, PINS.white, PINS.black, PINS.crawford)] == [
        False, True, False, True]
    assert_shows(factory, display, (" ", "4"), lambda: display.show(4, "white", True, text="  "))


def test_one_multiplexing_thread_shows_value_after_value_until_the_display_closes(
        factory: MockFactory, display: CubeDisplay) -> None:
    display.show_text("E1")
    running = display._digits._thread
    assert running is not None and running.is_alive()
    display.show(2, None, False, text="E1")
    display.show_text("E1")
    assert display._digits._thread is running and running.is_alive()
    assert_shows(factory, display, ("E", "2"), lambda: display.show_text("E2"))
    assert_shows(factory, display, ("3", "3"), lambda: display.show_text("33"))  # nothing to multiplex: it waits
    assert_shows(factory, display, ("6", "4"), lambda: display.show(1, None, False))
    assert display._digits._thread is running and running.is_alive()
    display.close()
    assert not running.is_alive()


@pytest.mark.parametrize(("call", "complaint"), [
    (lambda d: d.show(3, None, False), "cube value 3 is not a power of two"),
    (lambda d: d.show(0, None, False), "cube value 0"),
    (lambda d: d.show(2 ** 20, None, False), "cube value 1048576"),
    (lambda d: d.show(1, "white", False), "a cube at 1 is centred, not owned by white"),
    (lambda d: d.show(2, "red", False), "cube owner 'red'"),
    (lambda d: d.show_text("E"), "'E' is not two characters"),
    (lambda d: d.show_text("E~"), "'E~' is not two characters"),
    (lambda d: d.show(2, None, False, text="E~"), "'E~' is not two characters"),
    (lambda d: d.light_one("segment h"), "'segment h' is not one of segment a"),
])
def test_what_cannot_be_shown_is_refused(display: CubeDisplay, call: object,
                                         complaint: str) -> None:
    assert callable(call)
    with pytest.raises(DisplayValueError, match=complaint) as caught:
        call(display)
    assert isinstance(caught.value, ValueError)


def test_a_die_not_yet_landed_shows_as_a_dash(factory: MockFactory, display: CubeDisplay) -> None:
    assert_shows(factory, display, ("3", "-"), lambda: display.show_text("3-"))


def test_each_segment_and_led_lights_alone_for_a_builder(factory: MockFactory, display: CubeDisplay) -> None:
    led_pins = dict(zip(("centre", "white", "black", "crawford"), (PINS.centre, PINS.white, PINS.black,
                                                                   PINS.crawford), strict=True))
    for index, segment in enumerate("abcdefg"):
        display.light_one(f"segment {segment}")
        assert [factory.pin(p).state for p in PINS.segments] == [i == index for i in range(7)]
        assert not factory.pin(PINS.dp).state
    display.light_one("decimal points")
    assert factory.pin(PINS.dp).state and not any(factory.pin(p).state for p in PINS.segments)
    for name in led_pins:
        assert display.light_one(f"{name} LED") == ((" ", " "), (name,))
        assert [n for n, p in led_pins.items() if factory.pin(p).state] == [name]


def test_close_releases_every_pin(factory: MockFactory) -> None:
    display = CubeDisplay(pin_factory=factory)
    display.show(2, "white", True)
    display.close()
    with CubeDisplay(pin_factory=factory) as again:  # would raise GPIOPinInUse otherwise
        again.show(1, None, False)
