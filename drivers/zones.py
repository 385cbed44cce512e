"""Sensor zones, sensing capability levels and what a sensor reads on one zone.

Zone ids 1-24 are the board points numbered as White's own points (White moves 24 -> 1).
Colours are "w" and "b"; a stack is a str read bottom to top ("bww": a black checker
under two white ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

POINTS = range(1, 25)
WHITE_BAR = 25
BLACK_BAR = 26
WHITE_OFF = 27
BLACK_OFF = 28
ZONE_COUNT = 28
ZONES = range(1, ZONE_COUNT + 1)
MAX_STACK = 30
"""Design limit of checkers in one zone: both colours' 15 (Catchgammon traps under a stack)."""

COLOURS = frozenset("wb")


def zone_name(zone: int) -> str:
    """A short human name for a zone id: "point 13", "white bar", "black off"."""
    if zone in POINTS:
        return f"point {zone}"
    names = {WHITE_BAR: "white bar", BLACK_BAR: "black bar", WHITE_OFF: "white off",
             BLACK_OFF: "black off"}
    if zone not in names:
        raise ValueError(f"zone {zone} is not a zone id 1..{ZONE_COUNT}")
    return names[zone]


class Capability(IntEnum):
    """What a board's sensors can tell about a zone; the values are the wire codes."""

    COUNTS = 1
    """How many checkers, colour unknown."""
    COLOR_COUNTS = 2
    """How many white and how many black checkers, order unknown."""
    STACKS = 3
    """The ordered stack, bottom to top."""


@dataclass(frozen=True, slots=True)
class ZoneReading:
    """What the sensor of one zone reports, at the board's capability level.

    `count` is always known; `white` and `black` from COLOR_COUNTS up; `stack` at STACKS.
    Build one with `of_count`, `of_colours` or `of_stack`.
    """

    count: int
    white: int | None = None
    black: int | None = None
    stack: str | None = None

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError(f"negative checker count {self.count}")
        if (self.white is None) != (self.black is None):
            raise ValueError(f"white={self.white} and black={self.black} must be known together")
        if self.white is not None and self.black is not None:
            if self.white < 0 or self.black < 0 or self.white + self.black != self.count:
                raise ValueError(
                    f"white={self.white} + black={self.black} does not make count={self.count}")
        if self.stack is not None:
            if not set(self.stack) <= COLOURS:
                raise ValueError(f"stack {self.stack!r} holds colours other than 'w' and 'b'")
            if self.white != self.stack.count("w") or self.black != self.stack.count("b"):
                raise ValueError(f"stack {self.stack!r} does not match white={self.white}, "
                                 f"black={self.black}")

    @classmethod
    def of_count(cls, count: int) -> ZoneReading:
        return cls(count)

    @classmethod
    def of_colours(cls, white: int, black: int) -> ZoneReading:
        return cls(white + black, white, black)

    @classmethod
    def of_stack(cls, stack: str) -> ZoneReading:
        return cls(len(stack), stack.count("w"), stack.count("b"), stack)

    @property
    def capability(self) -> Capability:
        if self.stack is not None:
            return Capability.STACKS
        if self.white is not None:
            return Capability.COLOR_COUNTS
        return Capability.COUNTS

    def at(self, capability: Capability) -> ZoneReading:
        """This reading as a sensor of `capability` (no more than this one knows) reports it."""
        if capability > self.capability:
            raise ValueError(
                f"a {self.capability.name} reading cannot be told at {capability.name}")
        if capability is Capability.COUNTS:
            return ZoneReading(self.count)
        if capability is Capability.COLOR_COUNTS:
            return ZoneReading(self.count, self.white, self.black)
        return self
