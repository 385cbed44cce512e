"""What the sensors saw beside what the rules expected, every differing zone marked and explained.

Sensors differ in what they can tell: some count the checkers in a zone, some
count each colour, some read the stack in order. A reading is compared with
the expected position only as far as it can tell, and each difference is
described at that precision: "has 3, expected 2", "has 3w, expected 2w",
"has 2w on 1b, expected 3w".
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from game.board import Color
from game.pictures import style
from game.pictures.board import (
    BLACK_BAR,
    BLACK_TRAY,
    WHITE_BAR,
    WHITE_TRAY,
    ZONES,
    Box,
    Centre,
    Contents,
    Geometry,
    board_background,
    highlight_zones,
    paint_contents,
    paint_strip,
    point_labels,
    position_parts,
)
from game.position import Position


@dataclass(frozen=True, slots=True)
class SensedZone:
    """One zone as sensed: always a count; per-colour counts or the ordered stack when known.

    `stack` is bottom to top, "w"/"b" per checker, as in a position's points.
    """

    count: int
    white: int | None = None
    black: int | None = None
    stack: str | None = None

    def __post_init__(self) -> None:
        if self.count < 0 or (self.white is None) != (self.black is None):
            raise ValueError(f"a reading needs a count >= 0 and both colour counts or neither: {self}")
        if self.white is not None and self.black is not None:
            if min(self.white, self.black) < 0 or self.white + self.black != self.count:
                raise ValueError(f"colour counts do not add up to the count: {self}")
        if self.stack is not None:
            if self.stack.strip("wb") or len(self.stack) != self.count:
                raise ValueError(f"a stack is {self.count} of 'w'/'b', bottom to top: {self}")
            if self.white is not None and self.white != self.stack.count("w"):
                raise ValueError(f"colour counts disagree with the stack: {self}")

    @classmethod
    def of(cls, reading: Reading) -> SensedZone:
        """A reading from its short forms: a stack "bww", colour counts (white, black), or a count."""
        if isinstance(reading, SensedZone):
            return reading
        if isinstance(reading, str):
            return cls(len(reading), reading.count("w"), reading.count("b"), reading)
        if isinstance(reading, tuple):
            white, black = reading
            return cls(white + black, white, black)
        return cls(reading)

    @property
    def precision(self) -> str:
        return "stack" if self.stack is not None else "colours" if self.white is not None else "count"

    def agrees_with(self, expected: str) -> bool:
        """True if the reading fits the expected stack as far as the sensor can tell."""
        return describe(expected, self.precision) == self.describe()

    def describe(self) -> str:
        if self.stack is not None:
            return describe(self.stack, "stack")
        if self.white is not None and self.black is not None:
            return describe("w" * self.white + "b" * self.black, "colours")
        return describe("?" * self.count, "count")

    def drawn(self) -> tuple[str, bool]:
        """The stack to draw ("?" for a checker of unknown colour) and whether its order is known."""
        if self.stack is not None:
            return self.stack, True
        if self.white is not None and self.black is not None:
            return "w" * self.white + "b" * self.black, not (self.white and self.black)
        return "?" * self.count, False


Reading = SensedZone | str | tuple[int, int] | int


def describe(stack: str, precision: str) -> str:
    """A stack as a sensor of `precision` would know it: "3", "2w 1b", "2w on 1b", "empty"."""
    if not stack:
        return "empty"
    if precision == "count":
        return str(len(stack))
    if precision == "colours":
        return " ".join(f"{stack.count(c)}{c}" for c in "wb" if c in stack)
    runs = [f"{len(list(group))}{char}" for char, group in itertools.groupby(stack)]
    return " on ".join(reversed(runs))


@dataclass(frozen=True, slots=True)
class ZoneDiff:
    zone: int  # 1-24 board points, 25/26 White's/Black's bar, 27/28 White's/Black's tray
    name: str  # as the picture numbers it: "point 13", "White's bar"
    sensed: str
    expected: str

    def __str__(self) -> str:
        return f"{self.name}: has {self.sensed}, expected {self.expected}"


def zone_name(zone: int, labels: Sequence[int]) -> str:
    if 1 <= zone <= 24:
        return f"point {labels[zone]}"
    owner = "White's" if zone in (WHITE_BAR, WHITE_TRAY) else "Black's"
    return f"{owner} {'bar' if zone in (WHITE_BAR, BLACK_BAR) else 'tray'}"


def compare_zones(expected: Position, sensed: Mapping[int, Reading],
                  perspective: Color | None = None) -> list[ZoneDiff]:
    """Every sensed zone that disagrees with `expected`, in zone order; unsensed zones are skipped.

    Point names use `perspective`'s numbers (default: the player on roll), as the picture does.
    """
    unknown = set(sensed) - set(ZONES)
    if unknown:
        raise ValueError(f"zones are 1-28, got {sorted(unknown)}")
    stacks = Contents.of_position(expected).stacks
    labels = point_labels(expected.variant, perspective or expected.turn)
    diffs = []
    for zone in sorted(sensed):
        reading = SensedZone.of(sensed[zone])
        if not reading.agrees_with(stacks[zone]):
            diffs.append(ZoneDiff(zone, zone_name(zone, labels), reading.describe(),
                                  describe(stacks[zone], reading.precision)))
    return diffs


def draw_discrepancy(expected: Position, sensed: Mapping[int, Reading], *, perspective: Color | None = None,
                     title: str | None = None, scale: float = 0.8) -> Image.Image:
    """The sensed board (left) beside the expected one (right), differences outlined, numbered and listed.

    Zones missing from `sensed` were not read: they are hatched on the sensed board (the bar only
    in Backgammon, the one variant that has one).
    """
    numbering = perspective or expected.turn
    diffs = compare_zones(expected, sensed, numbering)
    geometry = Geometry(scale)
    origins = board_origins(geometry, titled=bool(title))
    board_w, board_h = geometry.size
    pad, line_h = geometry.px(_PAD), geometry.px(24)
    columns = 1 if len(diffs) <= 8 else 2
    rows = max(1, -(-len(diffs) // columns))
    width = origins[1][0] + board_w + pad
    top = origins[0][1]
    image = Image.new("RGB", (width, top + board_h + rows * line_h + 3 * pad), style.PAPER)
    draw = ImageDraw.Draw(image)
    heading = style.font(geometry.text(20), bold=True)
    if title:
        draw.text((pad, pad), title, fill=style.INK, font=heading, anchor="lt")
    zones = [d.zone for d in diffs]
    readings = {zone: SensedZone.of(reading) for zone, reading in sensed.items()}
    unknown = sum(r.count for r in readings.values() if r.stack is None and r.white is None)
    sensed_caption = f"Sensed ({unknown} of unknown colour)" if unknown else "Sensed"
    boards = ((_sensed_board(expected, readings, numbering, geometry), sensed_caption),
              (_expected_board(expected, numbering, geometry), "Expected"))
    for (x, y), (board, caption) in zip(origins, boards, strict=True):
        board_draw = ImageDraw.Draw(board)
        highlight_zones(board_draw, geometry, zones)
        for number, zone in enumerate(zones, start=1):
            _badge(board_draw, badge_centre(geometry, zone), number, geometry.px(11))
        image.paste(board, (x, y))
        caption_at = (x + geometry.px(8), y - geometry.px(6))
        draw.text(caption_at, caption, fill=style.INK, font=heading, anchor="ls")
    y = top + board_h + pad
    body = style.font(geometry.text(16))
    if not diffs:
        draw.text((pad, y + line_h // 2), "Every sensed zone agrees with the expected position.",
                  fill=style.INK, font=body, anchor="lm")
    column_w = (width - 2 * pad) // columns
    for number, diff in enumerate(diffs, start=1):
        column, row = divmod(number - 1, rows)
        x, line_y = pad + column * column_w, y + row * line_h + line_h // 2
        _badge(draw, (x + geometry.px(11), line_y), number, geometry.px(11))
        draw.text((x + geometry.px(28), line_y), str(diff), fill=style.INK, font=body, anchor="lm")
    return image


_PAD, _CAPTION, _TITLE = 12, 30, 34


def board_origins(geometry: Geometry, titled: bool) -> tuple[Centre, Centre]:
    """The top-left corners of the sensed and the expected board in a discrepancy picture."""
    top = geometry.px(_CAPTION + (_TITLE if titled else 0))
    pad = geometry.px(_PAD)
    return (pad, top), (2 * pad + geometry.size[0], top)


def _expected_board(expected: Position, numbering: Color, geometry: Geometry) -> Image.Image:
    board = board_background(expected.variant, numbering, geometry)
    draw = ImageDraw.Draw(board)
    paint_contents(board, draw, geometry, Contents.of_position(expected))
    for color in Color:
        paint_strip(board, draw, geometry, color, position_parts(expected, color))
    return board


def _sensed_board(expected: Position, readings: Mapping[int, SensedZone], numbering: Color,
                  geometry: Geometry) -> Image.Image:
    stacks = [""] * 29
    unordered = set()
    for zone, reading in readings.items():
        stacks[zone], ordered = reading.drawn()
        if not ordered:
            unordered.add(zone)
    board = board_background(expected.variant, numbering, geometry)
    draw = ImageDraw.Draw(board)
    paint_contents(board, draw, geometry, Contents(tuple(stacks), frozenset(unordered)))
    for zone in ZONES:
        if zone not in readings and (expected.variant.has_bar or zone not in (WHITE_BAR, BLACK_BAR)):
            _hatch(draw, geometry.zone_box(zone), geometry.px(10))
    for color in Color:
        seen = sum(r.drawn()[0].count(color.char) for r in readings.values())
        paint_strip(board, draw, geometry, color,
                    [(color.value.capitalize(), style.INK, True), (f"{seen} seen", style.INK, False)])
    return board


def badge_centre(geometry: Geometry, zone: int) -> Centre:
    """Where a zone's number badge goes: at the middle end of a point, in the middle of a bar or tray."""
    x0, y0, x1, y1 = geometry.zone_box(zone)
    r = geometry.px(13)
    if 1 <= zone <= 24:
        return (x0 + x1) // 2, (y1 - r if zone > 12 else y0 + r)
    if zone in (WHITE_BAR, BLACK_BAR):
        return (x0 + x1) // 2, (y0 + r if zone == WHITE_BAR else y1 - r)
    return (x0 + x1) // 2, (y1 - r if zone == BLACK_TRAY else y0 + r)


def _badge(draw: ImageDraw.ImageDraw, centre: Centre, number: int, radius: int) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=style.VERMILLION, outline=style.INK,
                 width=max(1, radius // 8))
    draw.text((x, y), str(number), fill=style.PAPER, font=style.font(round(radius * 1.2), bold=True),
              anchor="mm")


def _hatch(draw: ImageDraw.ImageDraw, box: Box, step: int) -> None:
    """Thin diagonal lines over a zone that was not sensed."""
    x0, y0, x1, y1 = box
    for offset in range(-(y1 - y0), x1 - x0, step):
        a = (x0 + max(offset, 0), y0 + max(-offset, 0))
        length = min(x1 - a[0], y1 - a[1])
        draw.line((a[0], a[1], a[0] + length, a[1] + length), fill=style.MUTED_INK, width=1)
