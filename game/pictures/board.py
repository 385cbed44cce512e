"""The board picture: points, checkers, bar, trays, dice, cube, pip counts and score.

The board is always drawn as the physical board stands, White's home at the
bottom right and both trays on the right, so a referee can hold the picture
next to the table. Only the point numbers follow a player: by default the one
on roll, optionally both.

Zones are numbered as the sensors number them (`game.zones`): 1-24 board points (White's own
numbers), 25 White's bar, 26 Black's bar, 27 White's tray, 28 Black's tray.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from game.board import BOARD_TO_OWN, Color, Variant
from game.pictures import style
from game.position import Position
from game.zones import BLACK_BAR, BLACK_OFF, WHITE_BAR, WHITE_OFF, ZONES, layout

POINT_SLOTS = 5  # checkers drawn on a point before the top one shows a count
BAR_SLOTS = 4

Box = tuple[int, int, int, int]
Centre = tuple[int, int]


def zone_slots(zone: int) -> int:
    """How many checkers a zone shows before the rest fold into a count."""
    return POINT_SLOTS if zone <= 24 else BAR_SLOTS if zone <= BLACK_BAR else 15


@dataclass(frozen=True, slots=True)
class CubeView:
    """The doubling cube as shown: its value, its owner (None: in the middle), Crawford."""

    value: int = 1
    owner: Color | None = None
    crawford: bool = False


@dataclass(frozen=True, slots=True)
class ScoreView:
    """The match score; `length` 0 is a money game."""

    white: int
    black: int
    length: int = 0


# Layout in units of the default size (scale 1.0): x left to right, y top to bottom.
_MARGIN, _INFO, _NUMBERS, _FRAME, _SIDE = 8, 30, 20, 10, 56
_POINT_W, _BAR_W, _CHECKER, _FIELD_H, _TRIANGLE_H = 44, 52, 40, 480, 190
_DIE, _CUBE, _SLAB_H, _SLAB_PITCH = 34, 36, 11, 14


@dataclass(frozen=True, slots=True)
class Geometry:
    """Where everything goes at one size; coordinates in pixels of the final image."""

    scale: float = 1.0
    both_sides: bool = False

    def px(self, units: float) -> int:
        """Board units (the picture at scale 1) in pixels at this scale."""
        return round(units * self.scale)

    def text(self, units: float) -> int:
        """A font size that shrinks with the board but stays legible on paper (11 px at 150 dpi: 5 pt)."""
        return max(11, self.px(units))

    @property
    def _number_rows(self) -> int:
        return 2 if self.both_sides else 1

    @property
    def _field_top(self) -> float:
        return _MARGIN + _INFO + _NUMBERS * self._number_rows

    @property
    def _left_half(self) -> float:
        return _MARGIN + _FRAME + _SIDE + _FRAME

    @property
    def _right_half(self) -> float:
        return self._left_half + 6 * _POINT_W + _BAR_W

    @property
    def _tray_x(self) -> float:
        return self._right_half + 6 * _POINT_W + _FRAME

    @property
    def size(self) -> tuple[int, int]:
        """The picture's width and height in pixels."""
        width = self._tray_x + _SIDE + _FRAME + _MARGIN
        height = 2 * self._field_top + _FIELD_H
        return self.px(width), self.px(height)

    @property
    def checker(self) -> int:
        """A checker's diameter in pixels."""
        return self.px(_CHECKER)

    def frame(self) -> Box:
        """The wooden frame's box."""
        top = _MARGIN + _INFO
        return self._box(_MARGIN, top, self._tray_x + _SIDE + _FRAME, top + 2 * _NUMBERS * self._number_rows
                         + _FIELD_H)

    def field(self) -> Box:
        """The playing field's box, the bar included."""
        return self._box(self._left_half, self._field_top, self._tray_x - _FRAME, self._field_top + _FIELD_H)

    def half(self, right: bool) -> Box:
        """The box of the right or left half of the field."""
        x = self._right_half if right else self._left_half
        return self._box(x, self._field_top, x + 6 * _POINT_W, self._field_top + _FIELD_H)

    def bar(self) -> Box:
        """The bar's box."""
        x = self._left_half + 6 * _POINT_W
        return self._box(x, self._field_top, x + _BAR_W, self._field_top + _FIELD_H)

    def side_column(self, tray: bool) -> Box:
        """The box of the trays' column (`tray`) or of the cube's column on the left."""
        x = self._tray_x if tray else _MARGIN + _FRAME
        return self._box(x, self._field_top, x + _SIDE, self._field_top + _FIELD_H)

    def strip(self, top: bool) -> Box:
        """The information strip above (Black) or below (White) the board."""
        width, height = self.size
        y = _MARGIN if top else 2 * self._field_top + _FIELD_H - _MARGIN - _INFO
        return self.px(_MARGIN), self.px(y), width - self.px(_MARGIN), self.px(y + _INFO)

    def number_row(self, top: bool, row: int) -> tuple[int, int]:
        """Top and bottom y of a row of point numbers; row 0 is next to the field."""
        if top:
            y = self._field_top - _NUMBERS * (row + 1)
        else:
            y = self._field_top + _FIELD_H + _NUMBERS * row
        return self.px(y), self.px(y + _NUMBERS)

    def _column_x(self, point: int) -> float:
        column = 12 - point if point <= 12 else point - 13  # 0-11 from the left
        if column < 6:
            return self._left_half + column * _POINT_W
        return self._right_half + (column - 6) * _POINT_W

    def point_box(self, point: int) -> Box:
        """The half-height column of board point 1-24, from the edge to the middle."""
        x = self._column_x(point)
        if point > 12:
            return self._box(x, self._field_top, x + _POINT_W, self._field_top + _FIELD_H / 2)
        return self._box(x, self._field_top + _FIELD_H / 2, x + _POINT_W, self._field_top + _FIELD_H)

    def triangle(self, point: int) -> tuple[Centre, Centre, Centre]:
        """The three corners of board point `point`'s triangle."""
        x = self._column_x(point)
        edge = self._field_top if point > 12 else self._field_top + _FIELD_H
        tip = edge + _TRIANGLE_H if point > 12 else edge - _TRIANGLE_H
        return ((self.px(x), self.px(edge)), (self.px(x + _POINT_W), self.px(edge)),
                (self.px(x + _POINT_W / 2), self.px(tip)))

    def zone_box(self, zone: int) -> Box:
        """The area of a zone, for highlighting."""
        if 1 <= zone <= 24:
            return self.point_box(zone)
        if zone in (WHITE_BAR, BLACK_BAR):
            x0, y0, x1, y1 = self.bar()
            middle = (y0 + y1) // 2
            return (x0, y0, x1, middle) if zone == WHITE_BAR else (x0, middle, x1, y1)
        x0, y0, x1, y1 = self.side_column(tray=True)
        middle = (y0 + y1) // 2
        return (x0, y0, x1, middle) if zone == BLACK_OFF else (x0, middle, x1, y1)

    def checker_centre(self, zone: int, slot: int) -> Centre:
        """The centre of the `slot`-th checker (0 at the base) of a point or bar zone.

        On a tray, the centre of the `slot`-th borne-off checker from the outer edge.
        Slots beyond those drawn fold onto the last one drawn.
        """
        if 1 <= zone <= 24:
            slot = min(slot, POINT_SLOTS - 1)
            x = self._column_x(zone) + _POINT_W / 2
            offset = 1 + _CHECKER / 2 + slot * _CHECKER
            y = self._field_top + offset if zone > 12 else self._field_top + _FIELD_H - offset
            return self.px(x), self.px(y)
        if zone in (WHITE_BAR, BLACK_BAR):
            slot = min(slot, BAR_SLOTS - 1)
            x = self._left_half + 6 * _POINT_W + _BAR_W / 2
            offset = 0.75 * _CHECKER + slot * _CHECKER
            middle = self._field_top + _FIELD_H / 2
            return self.px(x), self.px(middle - offset if zone == WHITE_BAR else middle + offset)
        slot = min(slot, 14)
        x = self._tray_x + _SIDE / 2
        offset = 6 + _SLAB_PITCH * slot + _SLAB_H / 2
        y = self._field_top + offset if zone == BLACK_OFF else self._field_top + _FIELD_H - offset
        return self.px(x), self.px(y)

    def tray_count_centre(self, zone: int, count: int) -> Centre:
        """Where a tray's count is written: just past its last slab, toward the board's middle."""
        # the slot after the last slab, which `checker_centre` folds back onto the last one when all
        # 15 are off: a full tray's count moves on by one slab's pitch
        x, y = self.checker_centre(zone, min(count, 14))
        further = self.px(_SLAB_PITCH) if count >= 15 else 0
        if zone == WHITE_OFF:  # the bottom tray: its slabs go up
            return x, y + (-self.px(_SLAB_H)) // 2 - further
        return x, y + self.px(_SLAB_H) // 2 + further

    def dice_centres(self, color: Color) -> tuple[Centre, Centre]:
        """The roller's dice lie in the middle of the roller's half: White right, Black left."""
        x0, y0, x1, y1 = self.half(right=color is Color.WHITE)
        mid_x, mid_y = (x0 + x1) / 2, (y0 + y1) / 2
        gap = self.px(_DIE * 0.65)
        return (round(mid_x - gap), round(mid_y)), (round(mid_x + gap), round(mid_y))

    def cube_centre(self, owner: Color | None) -> Centre:
        """Where the cube stands: in the middle of its column when centred, else toward its owner."""
        x0, y0, x1, y1 = self.side_column(tray=False)
        x = (x0 + x1) // 2
        inset = self.px(_CUBE * 0.5 + 8)
        if owner is None:
            return x, (y0 + y1) // 2
        return x, (y1 - inset if owner is Color.WHITE else y0 + inset)

    def _box(self, x0: float, y0: float, x1: float, y1: float) -> Box:
        return self.px(x0), self.px(y0), self.px(x1), self.px(y1)


# -- what stands on the board ------------------------------------------------

@dataclass(frozen=True, slots=True)
class Contents:
    """What stands in each zone: stacks of "w", "b" or "?" (colour unknown), bottom to top.

    `stacks[zone]` for zones 1-28; index 0 is unused. Zones in `unordered` hold
    checkers whose order is not known, so no trapped checker is shown there.
    """

    stacks: tuple[str, ...]
    unordered: frozenset[int] = frozenset()

    @classmethod
    def of_position(cls, position: Position) -> Contents:
        """What stands where in `position`."""
        return cls(("", *layout(position)))

    def trapped_zone(self, zone: int) -> bool:
        """True if the bottom checker of the point is trapped under the other colour."""
        stack = self.stacks[zone]
        return (zone <= 24 and zone not in self.unordered and len(stack) > 1 and "?" not in stack
                and stack[0] != stack[-1])


def point_labels(variant: Variant, color: Color) -> tuple[int, ...]:
    """Index b (1-24) gives `color`'s own number of board point b."""
    return BOARD_TO_OWN[variant, color]


# -- drawing --------------------------------------------------------------------

def draw_board(position: Position, *, dice: tuple[int, int] | None = None, cube: CubeView | None = None,
               score: ScoreView | None = None, perspective: Color | None = None, both_sides: bool = False,
               scale: float = 1.0) -> Image.Image:
    """A picture of `position`, numbered for `perspective` (default: the player on roll)."""
    geometry = Geometry(scale, both_sides)
    image = board_background(position.variant, perspective or position.turn, geometry)
    draw = ImageDraw.Draw(image)
    paint_contents(image, draw, geometry, Contents.of_position(position))
    if dice:
        paint_dice(image, geometry, dice, position.turn)
    if cube:
        paint_cube(image, draw, geometry, cube)
    for color in Color:
        paint_strip(image, draw, geometry, color, position_parts(position, color), _score_text(color, score))
    return image


def board_background(variant: Variant, numbering: Color, geometry: Geometry) -> Image.Image:
    """A fresh copy of the empty board, numbered for `numbering` (and the other side if asked)."""
    return _background(variant, numbering, geometry).copy()


@lru_cache(maxsize=16)
def _background(variant: Variant, numbering: Color, geometry: Geometry) -> Image.Image:
    width, height = geometry.size
    image = Image.new("RGB", (width, height), style.PAPER)
    for top in range(0, height, _BAND):  # a whole board drawn SUPERSAMPLE times larger took 20 MB at once
        band = _supersampled_band(geometry, top, min(_BAND, height - top))
        image.paste(band, (0, top))
    draw = ImageDraw.Draw(image)
    sides = (numbering, numbering.opponent) if geometry.both_sides else (numbering,)
    for row, color in enumerate(sides):
        labels = point_labels(variant, color)
        text_font = style.font(geometry.text(13), bold=row == 0)
        fill = style.FRAME_TEXT if row == 0 else style.CHECKER_RING[Color.WHITE]
        for top in (True, False):
            y0, y1 = geometry.number_row(top, row)
            for point in (range(13, 25) if top else range(1, 13)):
                px0, _, px1, _ = geometry.point_box(point)
                draw.text(((px0 + px1) / 2, (y0 + y1) / 2), str(labels[point]), fill=fill, font=text_font,
                          anchor="mm")
            if geometry.both_sides:  # say whose numbers each row gives
                cx0, _, cx1, _ = geometry.side_column(tray=False)
                _paste_checker(image, color, ((cx0 + cx1) // 2, (y0 + y1) // 2), geometry.px(14))
    return image


_BAND = 64
"""Rows of the final picture drawn at a time, supersampled: 2.5 MB at the default size."""


def _supersampled_band(geometry: Geometry, top: int, rows: int) -> Image.Image:
    """Rows `top` to `top + rows` of the empty board's shapes, drawn `SUPERSAMPLE` times larger and
    reduced: the same pixels as those rows of the whole board drawn so (each shape moved up by a
    whole number of pixels rasterises alike)."""
    width = geometry.size[0]
    k = style.SUPERSAMPLE
    big = Image.new("RGB", (width * k, rows * k), style.PAPER)
    draw = ImageDraw.Draw(big)
    shift = top * k

    def box(b: Box) -> Box:
        return b[0] * k, b[1] * k - shift, b[2] * k - 1, b[3] * k - 1 - shift

    draw.rounded_rectangle(box(geometry.frame()), radius=geometry.px(6) * k, fill=style.FRAME)
    for right in (False, True):
        draw.rectangle(box(geometry.half(right)), fill=style.FIELD)
    for tray in (False, True):
        draw.rectangle(box(geometry.side_column(tray)), fill=style.TRAY)
    x0, y0, x1, y1 = geometry.side_column(tray=True)
    middle = (y0 + y1) // 2 * k - shift
    draw.line((x0 * k, middle, x1 * k, middle), fill=style.FRAME, width=geometry.px(4) * k)
    for point in range(1, 25):
        colour = style.POINT_DARK if point % 2 else style.POINT_LIGHT
        draw.polygon([(x * k, y * k - shift) for x, y in geometry.triangle(point)], fill=colour)
    return big.reduce(k)


def _paste_checker(image: Image.Image, color: Color | None, centre: Centre, diameter: int) -> None:
    checker = style.checker_sprite(diameter, color)
    image.paste(checker, (centre[0] - diameter // 2, centre[1] - diameter // 2), checker)


def _char_color(char: str) -> Color | None:
    return None if char == "?" else Color.from_char(char)


def paint_contents(image: Image.Image, draw: ImageDraw.ImageDraw, geometry: Geometry,
                   contents: Contents) -> None:
    """Every checker: stacks on points and bars, slabs in the trays, counts where they overflow."""
    diameter = geometry.checker
    count_font = style.font(geometry.px(17), bold=True)
    for zone in ZONES:
        stack = contents.stacks[zone]
        if not stack:
            continue
        if zone in (WHITE_OFF, BLACK_OFF):
            _paint_tray(image, draw, geometry, zone, stack)
            continue
        slots = zone_slots(zone)
        shown = stack if len(stack) <= slots else stack[:slots - 1] + stack[-1]
        for slot, char in enumerate(shown):
            _paste_checker(image, _char_color(char), geometry.checker_centre(zone, slot), diameter)
        if contents.trapped_zone(zone):
            mark_trapped(draw, geometry, zone)
        if len(stack) > slots or "?" in stack:
            top = stack[-1]
            text = str(stack.count(top)) if top != "?" else "?" if len(stack) == 1 else f"{len(stack)}?"
            colour = _char_color(top)
            fill = style.CHECKER_TEXT[colour] if colour else style.INK
            draw.text(geometry.checker_centre(zone, len(shown) - 1), text, fill=fill, font=count_font,
                      anchor="mm")


def _paint_tray(image: Image.Image, draw: ImageDraw.ImageDraw, geometry: Geometry, zone: int,
                stack: str) -> None:
    x0, _, x1, _ = geometry.zone_box(zone)
    width, height = x1 - x0 - geometry.px(14), geometry.px(_SLAB_H)
    for slot, char in enumerate(stack[:15]):
        x, y = geometry.checker_centre(zone, slot)
        colour = _char_color(char)
        if colour is None:
            draw.rounded_rectangle((x - width // 2, y - height // 2, x + width // 2, y + height // 2),
                                   radius=height // 3, fill=style.UNKNOWN_FILL, outline=style.UNKNOWN_RIM)
            continue
        slab = style.slab_sprite(width, height, colour)
        image.paste(slab, (x - width // 2, y - height // 2), slab)
    draw.text(geometry.tray_count_centre(zone, len(stack)), str(len(stack)), fill=style.FRAME_TEXT,
              font=style.font(geometry.px(13), bold=True),
              anchor="mm")


def mark_trapped(draw: ImageDraw.ImageDraw, geometry: Geometry, zone: int) -> None:
    """An orange ring and cross over the bottom checker of a point: it is trapped."""
    x, y = geometry.checker_centre(zone, 0)
    r = geometry.checker // 2
    bar = round(r * 0.62)
    width = max(2, geometry.px(5))
    for colour, w in ((style.INK, width + max(2, geometry.px(3))), (style.ORANGE, width)):
        draw.line((x - bar, y - bar, x + bar, y + bar), fill=colour, width=w)
        draw.line((x - bar, y + bar, x + bar, y - bar), fill=colour, width=w)
    r += 1
    draw.ellipse((x - r, y - r, x + r, y + r), outline=style.ORANGE, width=max(2, geometry.px(3)))


def paint_dice(image: Image.Image, geometry: Geometry, dice: Sequence[int], roller: Color) -> None:
    """Draw the dice on the roller's half of the board."""
    size = geometry.px(_DIE)
    for face, (x, y) in zip(dice, geometry.dice_centres(roller), strict=True):
        die = style.die_sprite(size, face, roller)
        image.paste(die, (x - size // 2, y - size // 2), die)


def paint_cube(image: Image.Image, draw: ImageDraw.ImageDraw, geometry: Geometry, cube: CubeView) -> None:
    """The cube in the left column: in the middle when centred, else at its owner's side."""
    size = geometry.px(_CUBE)
    x, y = geometry.cube_centre(None if cube.crawford else cube.owner)
    face = style.cube_sprite(size, cube.crawford)
    image.paste(face, (x - size // 2, y - size // 2), face)
    value = 64 if cube.value == 1 and cube.owner is None else cube.value
    value_font = style.font(geometry.px(16 if value < 100 else 12), bold=True)
    draw.text((x, y), str(value), fill=style.INK, font=value_font, anchor="mm")
    if cube.crawford:
        draw.text((x, y + size // 2 + geometry.px(10)), "Crawford", fill=style.FRAME_TEXT,
                  font=style.font(geometry.px(10)), anchor="mm")


Part = tuple[str, style.RGB, bool]  # text, colour, bold


def position_parts(position: Position, color: Color) -> list[Part]:
    """A player's strip for a position: name, on roll, pip count, trapped checkers."""
    parts: list[Part] = [(color.value.capitalize(), style.INK, True)]
    if position.turn is color and position.result() is None:  # a game over has no one on roll
        parts.append(("\u25b6 on roll", style.BLUE, True))
    parts.append((f"{position.pip_count(color)} pips", style.INK, False))
    trapped = len(position.trapped(color))
    if trapped:
        parts.append((f"{trapped} trapped", style.INK, False))
    return parts


def paint_strip(image: Image.Image, draw: ImageDraw.ImageDraw, geometry: Geometry, color: Color,
                parts: Sequence[Part], right: str = "") -> None:
    """A player's line of text beside a checker of their colour: Black above the board, White below."""
    x0, y0, x1, y1 = geometry.strip(top=color is Color.BLACK)
    y = (y0 + y1) // 2
    size = geometry.px(22)
    checker = style.checker_sprite(size, color)
    image.paste(checker, (x0, y - size // 2), checker)
    bold, plain = style.font(geometry.text(15), bold=True), style.font(geometry.text(15))
    x = x0 + size + geometry.px(8)
    for text, fill, strong in parts:
        text_font = bold if strong else plain
        draw.text((x, y), text, fill=fill, font=text_font, anchor="lm")
        x += round(draw.textlength(text, font=text_font)) + geometry.px(18)
    if right:
        draw.text((x1, y), right, fill=style.INK, font=plain, anchor="rm")


def _score_text(color: Color, score: ScoreView | None) -> str:
    if score is None:
        return ""
    points = score.white if color is Color.WHITE else score.black
    unit = "point" if points == 1 else "points"
    return f"{points} {unit}" + (f" of {score.length}" if score.length else "")


def highlight_zones(draw: ImageDraw.ImageDraw, geometry: Geometry, zones: Collection[int]) -> None:
    """A vermillion outline with a light inner edge around each zone."""
    width = max(2, geometry.px(4))
    for zone in zones:
        x0, y0, x1, y1 = geometry.zone_box(zone)
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=style.VERMILLION, width=width)
        draw.rectangle((x0 + width, y0 + width, x1 - 1 - width, y1 - 1 - width), outline=style.PAPER, width=1)
