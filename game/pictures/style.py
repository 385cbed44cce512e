"""Colours, fonts and anti-aliased sprites shared by every picture.

The palette separates the two sides by lightness (ivory against near-black), so
it survives colour-blindness and a greyscale printer. The three signal colours
are Okabe-Ito's, and none of them is ever the only cue: differences also get an
outline and a label, trapped checkers a cross, hits a burst and a word.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from game.board import Color

RGB = tuple[int, int, int]


def rgb(hex_colour: str) -> RGB:
    """A colour written "#rrggbb" as an (r, g, b) triple."""
    value = int(hex_colour.lstrip("#"), 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


PAPER = rgb("#FFFFFF")
INK = rgb("#1A1A1A")
MUTED_INK = rgb("#5A5A5A")
FRAME = rgb("#5E4128")
FRAME_TEXT = rgb("#F3E7D0")
FIELD = rgb("#EDE3CC")
POINT_DARK = rgb("#5F7F78")  # sage: darker than the field and than ivory
POINT_LIGHT = rgb("#C99D74")  # tan: between the field and the sage
TRAY = rgb("#8A6E52")  # light enough for both colours of borne-off checkers

CHECKER_FILL = {Color.WHITE: rgb("#F7F2E6"), Color.BLACK: rgb("#2A2421")}
CHECKER_RIM = {Color.WHITE: rgb("#4B4036"), Color.BLACK: rgb("#0C0A09")}
CHECKER_RING = {Color.WHITE: rgb("#D6CCB6"), Color.BLACK: rgb("#5A514A")}
CHECKER_TEXT = {Color.WHITE: INK, Color.BLACK: rgb("#F7F2E6")}
UNKNOWN_FILL = rgb("#A9A9A9")  # a sensed checker of unknown colour
UNKNOWN_RIM = rgb("#4D4D4D")

ORANGE = rgb("#E69F00")  # Okabe-Ito: trapped checkers
BLUE = rgb("#0072B2")  # Okabe-Ito: arrows of a play, the player on roll
VERMILLION = rgb("#D55E00")  # Okabe-Ito: hits, traps and differences

SUPERSAMPLE = 4  # sprites are drawn this many times larger, then reduced


def font_path(name: str) -> str:
    """Where a bundled font file is (for a PDF writer that embeds it)."""
    return str(resources.files("game").joinpath("fonts", name))


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at `size` pixels, so pictures look the same everywhere. Opened by
    its path, FreeType reads the file as it needs it: a font made from the file's bytes keeps a
    copy of them (700 KB) for each size."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(font_path(name), max(size, 1))


def sprite(width: int, height: int, paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """An RGBA image drawn `SUPERSAMPLE` times larger by `paint(draw, factor)`, then reduced.

    Pillow draws shapes without anti-aliasing; reducing a larger drawing gives
    smooth edges at a cost paid once per sprite (callers cache the result).
    """
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    return big.reduce(SUPERSAMPLE)


@lru_cache(maxsize=32)
def checker_sprite(diameter: int, color: Color | None) -> Image.Image:
    """A checker seen from above; `color` None is a sensed checker of unknown colour."""
    fill = CHECKER_FILL[color] if color else UNKNOWN_FILL
    rim = CHECKER_RIM[color] if color else UNKNOWN_RIM
    ring = CHECKER_RING[color] if color else UNKNOWN_RIM

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        d = diameter * k
        edge = max(k, round(d * 0.045))
        draw.ellipse((0, 0, d - 1, d - 1), fill=rim)
        draw.ellipse((edge, edge, d - 1 - edge, d - 1 - edge), fill=fill)
        inset = round(d * 0.2)
        draw.ellipse((inset, inset, d - 1 - inset, d - 1 - inset), outline=ring,
                     width=max(k, round(d * 0.04)))

    return sprite(diameter, diameter, paint)


@lru_cache(maxsize=16)
def slab_sprite(width: int, height: int, color: Color) -> Image.Image:
    """A borne-off checker seen edge on, as it lies in the tray."""
    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        draw.rounded_rectangle((0, 0, width * k - 1, height * k - 1), radius=height * k // 3,
                               fill=CHECKER_FILL[color], outline=CHECKER_RIM[color], width=k)

    return sprite(width, height, paint)


_PIPS = {
    1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


@lru_cache(maxsize=32)
def die_sprite(size: int, face: int, color: Color) -> Image.Image:
    """A die showing `face`, in the colour of the player who rolled it."""
    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        draw.rounded_rectangle((0, 0, s - 1, s - 1), radius=s // 6, fill=CHECKER_FILL[color],
                               outline=CHECKER_RIM[color], width=max(k, s // 24))
        r = s * 0.09
        for col, row in _PIPS[face]:
            x, y = s * (0.25 + 0.25 * col), s * (0.25 + 0.25 * row)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=CHECKER_TEXT[color])

    return sprite(size, size, paint)


@lru_cache(maxsize=16)
def cube_sprite(size: int, crossed: bool) -> Image.Image:
    """The doubling cube's face without its number; crossed out in a Crawford game."""
    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        s = size * k
        draw.rounded_rectangle((0, 0, s - 1, s - 1), radius=s // 7, fill=PAPER, outline=INK,
                               width=max(k, s // 16))
        if crossed:
            draw.line((s * 0.12, s * 0.88, s * 0.88, s * 0.12), fill=VERMILLION, width=max(k, s // 14))

    return sprite(size, size, paint)
