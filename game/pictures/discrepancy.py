"""What the sensors saw beside what the rules expected, every differing zone marked and explained.

Sensors differ in what they can tell (`game.zones.Capability`): some count the checkers in a
zone, some count each colour, some read the stack in order. A reading is compared with the
expected position only as far as it can tell, and each difference is described at that
precision (`game.zones.ZoneDiff`): "point 8 has 2, expected 3", "point 13 has 5 (4 white,
1 black), expected 5 white".
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from PIL import Image, ImageDraw

from game.board import Color
from game.errors import GameError, ZoneError
from game.pictures import style
from game.pictures.board import (
    Box,
    Centre,
    Contents,
    Geometry,
    board_background,
    highlight_zones,
    paint_contents,
    paint_strip,
    position_parts,
)
from game.position import Position
from game.zones import (
    BLACK_BAR,
    BLACK_OFF,
    WHITE_BAR,
    WHITE_OFF,
    ZONE_COUNT,
    ZONES,
    Capability,
    Layout,
    ZoneDiff,
    ZoneReading,
    layout,
)


def compare_zones(expected: Position | Layout, sensed: Mapping[int, ZoneReading]) -> list[ZoneDiff]:
    """Every sensed zone that disagrees with `expected` (a position or a board) as far as its
    reading tells, in zone order; zones missing from `sensed` were not read and are not compared."""
    unknown = set(sensed) - set(ZONES)
    if unknown:
        raise ZoneError(f"zones are 1-{ZONE_COUNT}, got {sorted(unknown)}")
    stacks = layout(expected) if isinstance(expected, Position) else expected
    diffs = []
    for zone in sorted(sensed):
        reading = sensed[zone]
        wanted = ZoneReading.of_stack(stacks[zone - 1]).at(reading.capability)
        if reading != wanted:
            diffs.append(ZoneDiff(zone, reading, wanted))
    return diffs


def draw_discrepancy(expected: Position, sensed: Mapping[int, ZoneReading], *, perspective: Color | None = None,
                     title: str | None = None, scale: float = 0.8, board: Layout | None = None) -> Image.Image:
    """The sensed board (left) beside the expected one (right), differences outlined, numbered and listed.

    `expected` is the position the picture is about; `board`, when given, is the board expected
    instead of its own (a flagged play's nearest legal result). Points are numbered as
    `perspective` (default: the player on roll) reads them, on the boards and in the list. A
    title may have several lines. Zones missing from `sensed` were not read: they are hatched on
    the sensed board (the bar only in Backgammon, the one variant that has one).
    """
    numbering = perspective or expected.turn
    wanted = layout(expected) if board is None else board
    diffs = compare_zones(wanted, sensed)
    captions = discrepancy_captions(expected, sensed, perspective=perspective, board=board)
    geometry = Geometry(scale)
    title_lines = title.split("\n") if title else []
    origins = board_origins(geometry, titled=len(title_lines))
    board_w, board_h = geometry.size
    pad, line_h = geometry.px(_PAD), geometry.px(24)
    columns = 1 if len(diffs) <= 8 else 2
    rows = max(1, -(-len(diffs) // columns))
    width = origins[1][0] + board_w + pad
    top = origins[0][1]
    image = Image.new("RGB", (width, top + board_h + rows * line_h + 3 * pad), style.PAPER)
    draw = ImageDraw.Draw(image)
    heading = style.font(geometry.text(20), bold=True)
    for line, text in enumerate(title_lines):
        draw.text((pad, pad + line * geometry.px(_TITLE)), text, fill=style.INK, font=heading, anchor="lt")
    zones = [d.zone for d in diffs]
    readings = sensed
    unknown = sum(r.count for r in readings.values() if r.capability is Capability.COUNTS)
    sensed_caption = f"Sensed ({unknown} of unknown colour)" if unknown else "Sensed"
    boards = ((partial(_sensed_board, expected, readings, numbering, geometry), sensed_caption),
              (partial(_expected_board, expected, wanted, numbering, geometry), "Expected"))
    for (x, y), (draw_panel, caption) in zip(origins, boards, strict=True):
        _paste_panel(image, (x, y), draw_panel(), zones, geometry)  # a megabyte each: one at a time
        caption_at = (x + geometry.px(8), y - geometry.px(6))
        draw.text(caption_at, caption, fill=style.INK, font=heading, anchor="ls")
    y = top + board_h + pad
    body = style.font(geometry.text(16))
    if not diffs:
        draw.text((pad, y + line_h // 2), "Every sensed zone agrees with the expected position.",
                  fill=style.INK, font=body, anchor="lm")
    column_w = (width - 2 * pad) // columns
    for number, caption in enumerate(captions, start=1):
        column, row = divmod(number - 1, rows)
        x, line_y = pad + column * column_w, y + row * line_h + line_h // 2
        _badge(draw, (x + geometry.px(11), line_y), number, geometry.px(11))
        draw.text((x + geometry.px(28), line_y), caption, fill=style.INK, font=body, anchor="lm")
    return image


def _paste_panel(image: Image.Image, origin: Centre, panel: Image.Image, zones: list[int], geometry: Geometry) -> None:
    """One board's panel, its differing zones outlined and numbered, pasted at `origin`."""
    panel_draw = ImageDraw.Draw(panel)
    highlight_zones(panel_draw, geometry, zones)
    for number, zone in enumerate(zones, start=1):
        _badge(panel_draw, badge_centre(geometry, zone), number, geometry.px(11))
    image.paste(panel, origin)


def discrepancy_captions(expected: Position, sensed: Mapping[int, ZoneReading], *, perspective: Color | None = None,
                         board: Layout | None = None) -> list[str]:
    """The numbered list under a discrepancy picture (`draw_discrepancy`, the same arguments):
    each differing zone in words, points named by `perspective`'s own numbers."""
    wanted = layout(expected) if board is None else board
    perspective_of = (expected.variant, perspective or expected.turn)
    return [diff.describe(perspective_of) for diff in compare_zones(wanted, sensed)]


_PAD, _CAPTION, _TITLE = 12, 30, 34


def board_origins(geometry: Geometry, titled: int) -> tuple[Centre, Centre]:
    """The top-left corners of the sensed and the expected board in a discrepancy picture with
    `titled` lines of title."""
    top = geometry.px(_CAPTION + _TITLE * titled)
    pad = geometry.px(_PAD)
    return (pad, top), (2 * pad + geometry.size[0], top)


def _expected_board(expected: Position, wanted: Layout, numbering: Color, geometry: Geometry) -> Image.Image:
    board = board_background(expected.variant, numbering, geometry)
    draw = ImageDraw.Draw(board)
    paint_contents(board, draw, geometry, Contents(("", *wanted)))
    shown = _as_position(expected, wanted)
    for color in Color:
        parts = position_parts(shown, color) if shown else [(color.value.capitalize(), style.INK, True)]
        paint_strip(board, draw, geometry, color, parts)
    return board


def _as_position(expected: Position, wanted: Layout) -> Position | None:
    """The board `wanted` as a position of `expected`'s variant and turn, for its pip counts; None
    for a board no position has (a hit half done: the hitter down on the blot)."""
    if wanted == layout(expected):
        return expected
    try:
        return Position(expected.variant, expected.turn, wanted[:24], (len(wanted[WHITE_BAR - 1]),
                        len(wanted[BLACK_BAR - 1])), (len(wanted[WHITE_OFF - 1]), len(wanted[BLACK_OFF - 1])))
    except GameError:
        return None


def _sensed_board(expected: Position, readings: Mapping[int, ZoneReading], numbering: Color,
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
    return (x0 + x1) // 2, (y1 - r if zone == BLACK_OFF else y0 + r)


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
