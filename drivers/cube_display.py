"""The doubling cube's display: two seven-segment digits and four LEDs, on GPIO.

The digits show the cube value: "64" for a centred cube at 1 (as a real cube shows), " 2"
to "64" for 2 to 64, and for 128 and up the two leading digits with the units digit's
decimal point lit as "more digits follow": 128 -> "12.", 256 -> "25.", ... 524288 -> "52.".
These forms are distinct for every power of two up to 2**19; larger values are refused.
The LEDs tell where the cube stands (centre, White's side, Black's side) and whether this is
the Crawford game.
"""

from __future__ import annotations

from typing import Self, TypeVar

from gpiozero import LED, Device, Factory, LEDCharDisplay, LEDMultiCharDisplay

from drivers.errors import DisplayValueError
from drivers.events import Player
from drivers.pinmap import DEFAULT_CUBE_PINS, CubePins

LARGEST_VALUE = 2 ** 19
D = TypeVar("D", LED, LEDCharDisplay, LEDMultiCharDisplay)
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


def _multi_char_display(char: LEDCharDisplay, digits: tuple[int, int],
                        pin_factory: Factory | None) -> LEDMultiCharDisplay:
    """gpiozero 2.0.1 makes the display's group of digit pins with the default pin factory
    instead of the one given (gpiozero issue #1213, fixed upstream by PR #1225): lend it
    ours as the default while it is built."""
    if pin_factory is None:
        return LEDMultiCharDisplay(char, *digits)
    default = Device.pin_factory
    Device.pin_factory = pin_factory
    try:
        return LEDMultiCharDisplay(char, *digits, pin_factory=pin_factory)
    finally:
        Device.pin_factory = default


class CubeDisplay:
    """`show(value, owner, crawford)` puts the cube on the display; `show_text("E1")` shows a
    two-character code instead (the LEDs keep their state); `off()` darkens everything.

    When the two characters differ, gpiozero's `LEDMultiCharDisplay` multiplexes them in a
    background thread: one digit's transistor on at a time, `plex_delay` seconds each.
    """

    def __init__(self, pins: CubePins = DEFAULT_CUBE_PINS, *,
                 pin_factory: Factory | None = None, plex_delay: float = 0.005) -> None:
        self._devices: list[LED | LEDCharDisplay | LEDMultiCharDisplay] = []
        try:
            char = self._keep(LEDCharDisplay(*pins.segments, dp=pins.dp,
                                             pin_factory=pin_factory))
            self._digits = self._keep(_multi_char_display(char, pins.digits, pin_factory))
            self._digits.plex_delay = plex_delay  # seconds each digit stays lit in turn
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
        """Digits that differ from those shown: each assignment restarts gpiozero's multiplexing
        thread (a thread stopped, joined and started: most of the CPU of a prompt at the table)."""
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
