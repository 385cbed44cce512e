"""The doubling cube's display: two seven-segment digits and four LEDs, on GPIO.

The digits show the cube value: "64" for a centred cube at 1 (as a real cube shows), " 2"
to "64" for 2 to 64, and for 128 and up the two leading digits with the units digit's
decimal point lit as "more digits follow": 128 -> "12.", 256 -> "25.", ... 524288 -> "52.".
These forms are distinct for every power of two up to 2**19; larger values are refused.
The LEDs tell where the cube stands (centre, White's side, Black's side) and whether this is
the Crawford game.
"""

from __future__ import annotations

import threading
from itertools import cycle, pairwise
from typing import Protocol, Self, TypeVar

from gpiozero import LED, Factory, LEDCharDisplay, OutputDevice

from drivers.errors import DisplayValueError
from drivers.events import Player
from drivers.pinmap import DEFAULT_CUBE_PINS, CubePins

LARGEST_VALUE = 2 ** 19
SEGMENTS = "abcdefg"
LED_NAMES = ("centre", "white", "black", "crawford")
TEST_STEPS = (*(f"segment {s}" for s in SEGMENTS), "decimal points", "tens digit", "units digit",
              *(f"{name} LED" for name in LED_NAMES))
"""What `light_one` lights, one at a time: each segment (both digits), the decimal points, each
digit whole, each LED."""


def _segment_char(segment: str) -> str:
    return chr(0x2460 + SEGMENTS.index(segment))  # a character of no code: one segment alone


def cube_digits(value: int) -> tuple[str, str]:
    """The (tens, units) characters that show cube `value`; a trailing "." lights the dp."""
    if value < 1 or value & (value - 1) or value > LARGEST_VALUE:
        raise DisplayValueError(
            f"cube value {value} is not a power of two from 1 to {LARGEST_VALUE}")
    if value == 1:
        return ("6", "4")
    digits = f"{value:>2}"
    return (digits[0], digits[1] + ("." if value >= 100 else ""))


class _Closable(Protocol):
    def close(self) -> None: ...


D = TypeVar("D", bound=_Closable)


Transition = list[tuple[OutputDevice, bool]]


class MultiplexedDigits:
    """The digits of a multiplexed display (`char`'s segment pins shared, one transistor pin a
    digit), as gpiozero's `LEDMultiCharDisplay` drives them, by one thread for the display's life:
    when the digits differ it lights one at a time, `plex_delay` seconds each; when they do not, it
    waits. gpiozero's stops, joins and starts a thread at every new value (about 0.15 ms of CPU, at
    every code the table shows); a new value here is handed to the running thread."""

    def __init__(self, char: LEDCharDisplay, digits: tuple[int, ...], *, pin_factory: Factory | None,
                 plex_delay: float) -> None:
        self.char = char
        self.plex = tuple(OutputDevice(pin, pin_factory=pin_factory) for pin in digits)
        self.plex_delay = plex_delay
        self._value: tuple[str, ...] = (" ",) * len(digits)
        self._plan: list[Transition] | None = None
        """The transitions the thread cycles through (None: nothing multiplexes)."""
        self._serial = 0
        """Changes with every value: the thread drops the plan it was cycling."""
        self._changed = threading.Condition()
        """Held while the pins are written, by the thread and by whoever sets a value."""
        self._closing = False
        self._thread: threading.Thread | None = None

    @property
    def value(self) -> tuple[str, ...]:
        """What each digit shows (a character of `char`'s font, a trailing "." lighting its dp)."""
        return self._value

    @value.setter
    def value(self, value: tuple[str, ...] | str) -> None:
        chars = (" ",) * (len(self.plex) - len(value)) + tuple(value)  # right-aligned, as gpiozero's
        states: dict[tuple[int, ...], list[int]] = {}
        for index, char in enumerate(chars):
            state = self.char._parse_state(char)
            if any(state):
                states.setdefault(state, []).append(index)
        order = sorted(states)
        # gpiozero's order of the lit states and its transitions between them: the digits off, the
        # segments that change, the next digits on
        plan = [[(self.plex[index], False) for index in states[old]]
                + [(led, bool(new_value)) for led, old_value, new_value in zip(self.char, old, new, strict=True)
                   if old_value != new_value]
                + [(self.plex[index], True) for index in states[new]]
                for old, new in pairwise([*order, order[0]])] if len(order) > 1 else None
        with self._changed:
            self._serial += 1
            self._plan = None
            for digit in self.plex:
                digit.off()
            if order:
                for led, on in zip(self.char, order[0], strict=True):
                    led.value = on
                if plan is None:
                    for index in states[order[0]]:
                        self.plex[index].on()
            self._plan = plan
            self._value = chars
            self._changed.notify()
        if plan is not None and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="cube display", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        with self._changed:
            while not self._closing:
                plan, serial = self._plan, self._serial
                if plan is None:
                    self._changed.wait()
                    continue
                for transition in cycle(plan):
                    for device, on in transition:
                        device.value = on
                    self._changed.wait(self.plex_delay)  # the pins are free while it waits; a new value wakes it
                    if self._serial != serial or self._closing:
                        break

    def off(self) -> None:
        """Everything dark: nothing multiplexes, every digit and segment off."""
        self.value = "  "
        with self._changed:
            for device in (*self.plex, self.char):
                device.off()

    def close(self) -> None:
        """Stop the thread and release the digits' pins (the segments' are `char`'s)."""
        with self._changed:
            self._closing = True
            self._changed.notify()
        if self._thread is not None:
            self._thread.join()
        for digit in self.plex:
            digit.close()


class CubeDisplay:
    """`show(value, owner, crawford)` puts the cube on the display; `show_text("E1")` shows a
    two-character code instead (the LEDs keep their state); `off()` darkens everything.

    When the two characters differ, they are multiplexed in a background thread
    (`MultiplexedDigits`): one digit's transistor on at a time, `plex_delay` seconds each.
    """

    def __init__(self, pins: CubePins = DEFAULT_CUBE_PINS, *,
                 pin_factory: Factory | None = None, plex_delay: float = 0.005) -> None:
        self._devices: list[_Closable] = []
        try:
            char = self._keep(LEDCharDisplay(*pins.segments, dp=pins.dp,
                                             pin_factory=pin_factory))
            self._digits = self._keep(MultiplexedDigits(char, pins.digits, pin_factory=pin_factory,
                                                        plex_delay=plex_delay))
            char.font["-"] = (False,) * 6 + (True,)  # segment g alone: a die not yet landed, "3-"
            self._font = set(char.font)
            for index, segment in enumerate(SEGMENTS):  # one segment alone, for a builder's test
                char.font[_segment_char(segment)] = tuple(i == index for i in range(len(SEGMENTS)))
            self._centre = self._keep(LED(pins.centre, pin_factory=pin_factory))
            self._white = self._keep(LED(pins.white, pin_factory=pin_factory))
            self._black = self._keep(LED(pins.black, pin_factory=pin_factory))
            self._crawford = self._keep(LED(pins.crawford, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise
        self._shown: tuple[tuple[str, str], tuple[bool, ...]] | None = None
        """What `show` last set (the digits and the four LEDs): a prompt shows the cube again and
        again, and each read of a gpiozero device goes through its pin (locks, a state read)."""

    def _keep(self, device: D) -> D:
        self._devices.append(device)
        return device

    @property
    def text(self) -> tuple[str, str]:
        """What the digits show, as (tens, units)."""
        if self._shown is not None:
            return self._shown[0]
        tens, units = self._digits.value
        return (str(tens), str(units))

    @property
    def leds(self) -> tuple[str, ...]:
        """The LEDs lit, by name: "centre", "white", "black", "crawford"."""
        lit = self._shown[1] if self._shown is not None else tuple(led.is_lit for led in self._leds())
        return tuple(name for name, on in zip(LED_NAMES, lit, strict=True) if on)

    def _leds(self) -> tuple[LED, LED, LED, LED]:
        return self._centre, self._white, self._black, self._crawford

    def light_one(self, step: str) -> tuple[tuple[str, str], tuple[str, ...]]:
        """Light `step` of `TEST_STEPS` alone, for a builder checking every segment and LED in turn;
        returns what the display then holds (`text`, `leds`) for the caller to check."""
        if step not in TEST_STEPS:
            raise DisplayValueError(f"{step!r} is not one of {', '.join(TEST_STEPS)}")
        self.off()
        what = step.removesuffix(" LED").removeprefix("segment ")
        if what in SEGMENTS:
            self._digits.value = (_segment_char(what),) * 2
        elif what == "decimal points":
            self._digits.value = (" .", " .")
        elif what in ("tens digit", "units digit"):
            self._digits.value = ("8.", " ") if what == "tens digit" else (" ", "8.")
        else:
            dict(zip(LED_NAMES, (self._centre, self._white, self._black, self._crawford), strict=True))[what].on()
        return self.text, self.leds

    def show(self, value: int, owner: Player | None, crawford: bool, *, text: str = "") -> None:
        """Show the cube: its value on the digits and its place on the LEDs (centre, White's or Black's side),
        and the Crawford LED. A `text` not blank (`show_text`'s) is on the digits instead of the value."""
        if value == 1 and owner is not None:
            raise DisplayValueError(f"a cube at 1 is centred, not owned by {owner}")
        if owner not in (None, "white", "black"):
            raise DisplayValueError(f"cube owner {owner!r} is not 'white', 'black' or None")
        chars = self._checked(text) if text.strip() else cube_digits(value)
        digits = (chars[0], chars[1])
        lit = (owner is None, owner == "white", owner == "black", crawford)
        shown = self._shown
        if shown is not None and shown == (digits, lit):
            return
        self._shown = None  # until all is set: a device that fails leaves it to be read from the pins
        self._set_digits(digits)
        for led, on in zip(self._leds(), lit, strict=True):
            if led.is_lit != on:
                led.value = on
        self._shown = digits, lit

    def show_text(self, text: str) -> None:
        """Show two characters of gpiozero's seven-segment font (space, digits and the
        letters ABCDEFGHIJLNOPQRSTUY) or "-", for codes such as "E1"."""
        self._shown = None
        self._set_digits(self._checked(text))

    def _checked(self, text: str) -> str:
        if len(text) != 2 or any(char not in self._font for char in text):
            raise DisplayValueError(f"{text!r} is not two characters the display can show")
        return text

    def _set_digits(self, digits: tuple[str, str] | str) -> None:
        """Digits that differ from those shown (each assignment writes the pins and hands the
        multiplexing thread its new plan)."""
        if tuple(digits) != self._digits.value:
            self._digits.value = digits

    def off(self) -> None:
        """Dark: the digits and every LED off."""
        self._shown = None
        self._digits.value = "  "  # stops the multiplexing
        self._digits.off()  # and the segment pins, which a blank value leaves as they were
        for led in (self._centre, self._white, self._black, self._crawford):
            led.off()

    def close(self) -> None:
        """Turn the display off and release its pins."""
        self._shown = None
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
