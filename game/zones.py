"""The sensing model: the board's 28 zones, what a sensor reads on one, and how a sensed board
differs from a position.

Every layer speaks of the physical board in these terms: the drivers decode readings off the
wire, the reconciler and the explainer judge them, the pictures draw them. Zone ids:

    1-24  board points, numbered as White's own points (White moves 24 -> 1)
    25    White's bar        26  Black's bar
    27    White's tray       28  Black's tray (borne-off checkers)

A stack is a str read bottom to top, one character a checker ("w"/"b"): "bww" is a black
checker trapped under two white ones (Catchgammon).

    >>> from game import Position
    >>> start = layout(Position.initial())
    >>> start[23], ZoneReading.of_stack(start[23]).at(Capability.COUNTS)
    ('ww', ZoneReading(count=2, white=None, black=None, stack=None))
    >>> zone_name(25)
    "White's bar"
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import TypeVar

from game.board import BOARD_TO_OWN, CHECKERS, Color, Variant
from game.errors import ZoneError
from game.movegen import kernel_gather
from game.movegen.state import MY_BAR, MY_OFF, THEIR_BAR, THEIR_OFF, State, board_order, stack_table
from game.position import Position

POINTS = range(1, 25)
WHITE_BAR, BLACK_BAR, WHITE_OFF, BLACK_OFF = 25, 26, 27, 28
ZONE_COUNT = 28
ZONES = range(1, ZONE_COUNT + 1)
BAR_ZONE = {Color.WHITE: WHITE_BAR, Color.BLACK: BLACK_BAR}
OFF_ZONE = {Color.WHITE: WHITE_OFF, Color.BLACK: BLACK_OFF}
MAX_STACK = 30
"""Design limit of checkers in one zone: both colours' 15 (Catchgammon traps under a stack)."""

Layout = tuple[str, ...]
"""A board as it physically stands: 28 stacks, index z - 1 for zone z."""
T = TypeVar("T")


def layout(position: Position) -> Layout:
    """Where the position's checkers physically stand (a hit checker on its own colour's bar)."""
    bar, off = position.bar, position.off
    return (*position.points, "w" * bar[0], "b" * bar[1], "w" * off[0], "b" * off[1])


def state_views(template: Position, zone: Callable[[str], T]) -> Callable[[State], tuple[T, ...]]:
    """For the many states of one roll (`game.movegen.state`, the template's variant and turn):
    what `zone` makes of each stack of the `layout` of the position each stands for, without
    building the position (`str` gives the layout, `len` the counts)."""
    tables, order = state_view_tables(template.variant, template.turn, zone)
    gather = kernel_gather()
    return lambda state: gather(state, tables, order)


@lru_cache(maxsize=64)
def state_view_tables(variant: Variant, turn: Color,
                      zone: Callable[[str], T]) -> tuple[tuple[tuple[T, ...], ...], bytes]:
    """What `state_views` gathers with (`game.movegen.kernel_gather`) for the states of `turn`'s
    rolls: what `zone` makes of each point code and each count on a bar or tray, by zone, and the
    state's byte of each zone."""
    points = tuple(map(zone, stack_table(turn)))
    white = tuple(zone("w" * n) for n in range(CHECKERS + 1))
    black = tuple(zone("b" * n) for n in range(CHECKERS + 1))
    trays = (MY_BAR, THEIR_BAR, MY_OFF, THEIR_OFF) if turn is Color.WHITE else \
        (THEIR_BAR, MY_BAR, THEIR_OFF, MY_OFF)  # zones 25-28: White's bar, Black's bar, White's tray, Black's
    return (points,) * 24 + (white, black, white, black), board_order(variant, turn) + bytes(trays)


def state_layouts(template: Position) -> Callable[[State], Layout]:
    """`state_views` giving the layout itself."""
    return state_views(template, str)


def zone_name(zone: int, perspective: tuple[Variant, Color] | None = None) -> str:
    """A zone in words: "point 13", "White's bar", "Black's tray".

    Points are named by their board number, or by a player's own number when `perspective`
    (variant, player) is given, as the referee's messages name them to that player.
    """
    if zone in POINTS:
        return f"point {BOARD_TO_OWN[perspective][zone] if perspective else zone}"
    if zone not in ZONES:
        raise ZoneError(f"zone {zone} is not a zone id 1..{ZONE_COUNT}")
    owner = "White's" if zone in (WHITE_BAR, WHITE_OFF) else "Black's"
    return f"{owner} {'bar' if zone in (WHITE_BAR, BLACK_BAR) else 'tray'}"


def zone_owner(zone: int) -> Color:
    """The colour whose bar or tray zone (25-28) this is."""
    return Color.WHITE if zone in (WHITE_BAR, WHITE_OFF) else Color.BLACK


class Capability(enum.IntEnum):
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
    Build one with `of_count`, `of_colours`, `of_stack`, or `parse` its text form.
    """

    count: int
    white: int | None = None
    black: int | None = None
    stack: str | None = None

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ZoneError(f"negative checker count {self.count}")
        if (self.white is None) != (self.black is None):
            raise ZoneError(f"white={self.white} and black={self.black} must be known together")
        if self.white is not None and self.black is not None:
            if self.white < 0 or self.black < 0 or self.white + self.black != self.count:
                raise ZoneError(f"white={self.white} + black={self.black} does not make count={self.count}")
        if self.stack is not None:
            if self.stack.strip("wb"):
                raise ZoneError(f"stack {self.stack!r} holds colours other than 'w' and 'b'")
            if self.white != self.stack.count("w") or self.black != self.stack.count("b"):
                raise ZoneError(f"stack {self.stack!r} does not match white={self.white}, black={self.black}")

    @classmethod
    def of_count(cls, count: int) -> ZoneReading:
        """A COUNTS reading."""
        return cls(count)

    @classmethod
    def of_colours(cls, white: int, black: int) -> ZoneReading:
        """A COLOR_COUNTS reading."""
        return cls(white + black, white, black)

    @classmethod
    def of_stack(cls, stack: str) -> ZoneReading:
        """A STACKS reading."""
        return _of_stack(stack)

    @classmethod
    def parse(cls, text: str) -> ZoneReading:
        """The reading `text()` wrote: a stack "bww", colour counts "2w1b", a count "3".

        >>> ZoneReading.parse("2w1b") == ZoneReading.of_colours(2, 1)
        True
        """
        if not text.strip("wb"):
            return cls.of_stack(text)
        if text.isascii() and text.isdigit():
            return cls.of_count(int(text))
        white, sep, rest = text.partition("w")
        black = rest.removesuffix("b")
        if sep and rest.endswith("b") and white.isascii() and white.isdigit() and black.isascii() and black.isdigit():
            return cls.of_colours(int(white), int(black))
        raise ZoneError(f"{text!r} is not a zone reading (a stack like 'bww', colours like '2w1b', or a count)")

    def text(self) -> str:
        """The short form kept in records: the stack, "2w1b", or the count."""
        if self.stack is not None:
            return self.stack
        if self.white is not None:
            return f"{self.white}w{self.black}b"
        return str(self.count)

    @property
    def capability(self) -> Capability:
        """The most a sensor giving this reading can tell."""
        if self.stack is not None:
            return Capability.STACKS
        if self.white is not None:
            return Capability.COLOR_COUNTS
        return Capability.COUNTS

    def at(self, capability: Capability) -> ZoneReading:
        """This reading as a sensor of `capability` (no more than this one knows) reports it."""
        own = self.capability
        if capability is own:
            return self  # as a board of that capability sent it: every judged board, 28 times
        if capability > own:
            raise ZoneError(f"a {own.name} reading cannot be told at {capability.name}")
        if capability is Capability.COUNTS:
            return ZoneReading(self.count)
        if capability is Capability.COLOR_COUNTS:
            return ZoneReading(self.count, self.white, self.black)
        return self

    def drawn(self) -> tuple[str, bool]:
        """The stack to draw ("?" for a checker of unknown colour) and whether its order is known."""
        if self.stack is not None:
            return self.stack, True
        if self.white is not None and self.black is not None:
            return "w" * self.white + "b" * self.black, not (self.white and self.black)
        return "?" * self.count, False

    def words(self) -> str:
        """ "none", "3", "2 white", "3 (2 white, 1 black)", "3 (2 white on 1 black)"."""
        if self.count == 0:
            return "none"
        if self.white is None or self.black is None:
            return str(self.count)
        if not self.black or not self.white:
            return f"{self.count} {'white' if self.white else 'black'}"
        if self.stack is None:
            return f"{self.count} ({self.white} white, {self.black} black)"
        runs = [f"{len(list(group))} {'white' if colour == 'w' else 'black'}"
                for colour, group in itertools.groupby(reversed(self.stack))]
        return f"{self.count} ({' on '.join(runs)})"


@lru_cache(maxsize=4096)
def _of_stack(stack: str) -> ZoneReading:
    return ZoneReading(len(stack), stack.count("w"), stack.count("b"), stack)


View = tuple[ZoneReading, ...]
"""28 zone readings, index z - 1 for zone z, as a board of one capability reports them."""


@lru_cache(maxsize=4096)
def _reading(stack: str, capability: Capability) -> ZoneReading:
    return _of_stack(stack).at(capability)


def view_of(board: Layout, capability: Capability) -> View:
    """What a board of `capability` reports for checkers standing as in `board`."""
    return tuple(_reading(stack, capability) for stack in board)


def sensed_view(position: Position, capability: Capability) -> View:
    """What a board of `capability` reports for `position` (a trapped checker reads at the
    bottom of its stack at STACKS)."""
    return view_of(layout(position), capability)


def normalised(zones: Sequence[ZoneReading], capability: Capability) -> View:
    """28 readings as a board of `capability` tells them (raises ZoneError if they cannot be)."""
    if len(zones) != ZONE_COUNT:
        raise ZoneError(f"a board reports {ZONE_COUNT} zones, got {len(zones)}")
    if _all_at(zones, capability):  # as a board of that capability sent them: every judged board
        return tuple(zones)
    return tuple(reading.at(capability) for reading in zones)


def _all_at(zones: Sequence[ZoneReading], capability: Capability) -> bool:
    """Every reading is told at `capability` (`ZoneReading.capability`), seen without a loop in Python."""
    if capability is Capability.STACKS:
        return None not in map(_STACK, zones)
    if list(map(_STACK, zones)).count(None) != ZONE_COUNT:
        return False
    whites = list(map(_WHITE, zones))
    return whites.count(None) == (ZONE_COUNT if capability is Capability.COUNTS else 0)


@dataclass(frozen=True, slots=True)
class ZoneDiff:
    """A zone that does not read as expected, both readings at the sensor's capability."""

    zone: int
    sensed: ZoneReading
    expected: ZoneReading

    def describe(self, perspective: tuple[Variant, Color] | None = None) -> str:
        """ "point 9 has 1 white, expected none" (points by `perspective`'s numbers when given)."""
        return f"{zone_name(self.zone, perspective)} has {self.sensed.words()}, expected {self.expected.words()}"


def view_diff(sensed: View, expected: View) -> tuple[ZoneDiff, ...]:
    """The zones where two views of one capability differ, in zone order."""
    return tuple(ZoneDiff(zone, got, want)
                 for zone, (got, want) in enumerate(zip(sensed, expected, strict=True), start=1) if got != want)


def zone_diff(expected: Position | Layout, zones: Sequence[ZoneReading],
              capability: Capability) -> tuple[ZoneDiff, ...]:
    """The zones where a sensed board differs from `expected`, as far as `capability` tells."""
    board = layout(expected) if isinstance(expected, Position) else expected
    return view_diff(normalised(zones, capability), view_of(board, capability))


def implausible_reading(reading: ZoneReading, capability: Capability) -> str | None:
    """Why one zone's reading cannot come from a real board of `capability` (None if it can):
    a reading of another capability, more checkers than a zone holds or a side has."""
    if reading.capability is not capability:
        return f"a {reading.capability.name} reading from a {capability.name} board"
    if reading.count > MAX_STACK:
        return f"{reading.count} checkers in one zone (at most {MAX_STACK})"
    if reading.white is not None and reading.black is not None and max(reading.white, reading.black) > CHECKERS:
        return f"{reading.white} white and {reading.black} black in one zone (at most {CHECKERS} a side)"
    return None


def implausible_board(readings: Sequence[ZoneReading], capability: Capability) -> str | None:
    """Why 28 readings cannot be a real board of `capability` (None if they can): a wrong
    number of zones, an impossible zone, or more checkers than the two sides have."""
    if len(readings) != ZONE_COUNT:
        return f"{len(readings)} zones (a board has {ZONE_COUNT})"
    if _plausible_at_a_glance(readings, capability):  # as every snapshot but a flawed one: without a loop in Python
        return None
    return _why_implausible(readings, capability)


def _why_implausible(readings: Sequence[ZoneReading], capability: Capability) -> str | None:
    """`implausible_board` for 28 readings, zone by zone."""
    for zone, reading in enumerate(readings, start=1):
        why = implausible_reading(reading, capability)
        if why:
            return f"{zone_name(zone)}: {why}"
    total = sum(reading.count for reading in readings)
    if total > 2 * CHECKERS:
        return f"{total} checkers on the board (there are {2 * CHECKERS})"
    if capability is not Capability.COUNTS:
        white = sum(reading.white or 0 for reading in readings)
        black = sum(reading.black or 0 for reading in readings)
        if max(white, black) > CHECKERS:
            return f"{white} white and {black} black checkers (each side has {CHECKERS})"
    return None


_COUNT, _WHITE, _BLACK, _STACK = (attrgetter(name) for name in ("count", "white", "black", "stack"))


def _plausible_at_a_glance(readings: Sequence[ZoneReading], capability: Capability) -> bool:
    """`implausible_board`'s None for 28 readings, told by the totals: each side's checkers within
    `CHECKERS` (or all of them within both sides' at COUNTS) puts every zone within its limits."""
    stacks = list(map(_STACK, readings))
    if capability is Capability.STACKS:  # a stack's reading has its colours counted from it (`ZoneReading`)
        if None in stacks:
            return False
        board = "".join(stacks)
        return board.count("w") <= CHECKERS and board.count("b") <= CHECKERS
    whites = list(map(_WHITE, readings))
    if capability is Capability.COUNTS:
        return stacks.count(None) == whites.count(None) == ZONE_COUNT and sum(map(_COUNT, readings)) <= 2 * CHECKERS
    if stacks.count(None) != ZONE_COUNT or None in whites:
        return False
    return sum(whites) <= CHECKERS and bool(sum(map(_BLACK, readings)) <= CHECKERS)
