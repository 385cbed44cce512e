"""The default wiring on the Raspberry Pi 40-pin header, in BCM GPIO numbers.

hardware_docs/wiring.md shows the same table (a test keeps the two equal). The 22 pins
used are GPIO4-13 and GPIO16-27: the UART pins (GPIO14/15) stay free for a board on the
serial header, and the I2C pins (GPIO2/3) for the roll button of a board without
electronic dice (GPIO3 has the Pi's own 1.8 kOhm pull-up, which suits a button to ground).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from drivers.events import ButtonKind, Player


@dataclass(frozen=True, slots=True)
class CubePins:
    """Pins of the cube display: a two-digit common-cathode seven-segment display driven
    segment by segment (a-g and the decimal point, through resistors), each digit's common
    cathode switched by an NPN transistor, and four single LEDs."""

    segments: tuple[int, int, int, int, int, int, int]
    """Segments a, b, c, d, e, f, g."""
    dp: int
    digits: tuple[int, int]
    """Tens digit, units digit (transistor bases)."""
    centre: int
    white: int
    """Lit when the cube is on White's side (White owns it)."""
    black: int
    crawford: int


DEFAULT_CUBE_PINS = CubePins(segments=(4, 17, 27, 22, 10, 9, 11), dp=7, digits=(8, 25),
                             centre=24, white=23, black=18, crawford=26)

DEFAULT_BUTTON_PINS: MappingProxyType[tuple[Player, ButtonKind], int] = MappingProxyType({
    ("white", ButtonKind.DONE): 5,
    ("white", ButtonKind.DOUBLE): 6,
    ("white", ButtonKind.TAKE): 13,
    ("white", ButtonKind.PASS): 19,
    ("black", ButtonKind.DONE): 12,
    ("black", ButtonKind.DOUBLE): 16,
    ("black", ButtonKind.TAKE): 20,
    ("black", ButtonKind.PASS): 21,
})

ROLL_BUTTON_PIN = 3
"""The roll button of a board without electronic dice."""

UART_PINS = (14, 15)
"""TXD, RXD of /dev/serial0, for a sensor board wired to the header instead of USB."""

HEADER_PIN = MappingProxyType({
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33,
    19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32,
    16: 36, 20: 38, 21: 40,
})
"""BCM GPIO number -> physical pin number on the 40-pin header."""
