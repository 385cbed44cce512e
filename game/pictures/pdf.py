"""A PDF page that the sheet's blocks paint on as they paint on a Pillow page: the same few calls
(`text`, `line`, `rectangle`, `textlength`, `paste`), with text written as text (searchable,
copyable, in the bundled DejaVu Sans) and boards embedded as pictures.

fpdf2 writes the file (a well-kept pure-Python PDF library). Coordinates are the sheet's pixels
at `DPI`, so one layout serves both (the calls are `pen.Pen` and `pen.Surface`); the text is
measured with Pillow's metrics of the same font, so lines break and fit as on the PNG pages.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from fpdf import FPDF
from PIL import Image, ImageFont

from game.pictures import style
from game.pictures.pen import Ink

DPI = 150
"""The sheet's pixels per inch: a PDF unit is one of them."""


class PdfDocument:
    """A PDF of A4 pages laid out in the sheet's pixels."""

    def __init__(self, size: tuple[int, int], title: str) -> None:
        self.size = size
        self.pdf = FPDF(unit=72 / DPI, format=size)
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margin(0)
        self.pdf.set_title(title)
        self.pdf.set_creator("smartgammon")
        for bold in (False, True):
            name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
            self.pdf.add_font("DejaVu", "B" if bold else "", fname=style.font_path(name))

    def page(self) -> PdfPage:
        """A new page to paint on."""
        self.pdf.add_page()
        return PdfPage(self.pdf)

    def bytes(self) -> bytes:
        """The finished file."""
        return bytes(self.pdf.output())


class PdfPage:
    """One page: a `Pen` and a `Surface` at once."""

    def __init__(self, pdf: FPDF) -> None:
        self.pdf = pdf

    def text(self, xy: tuple[float, float], text: str, fill: Ink = None, font: ImageFont.FreeTypeFont | None = None,
             anchor: str | None = None) -> None:
        """`text` placed as Pillow's anchors place it ("la", "lm", "ls", "mm", "rs", ...)."""
        font = font or style.font(16)
        ascent, descent = font.getmetrics()
        horizontal, vertical = (anchor or "la")[0], (anchor or "la")[1]
        bold = font.getname()[1] == "Bold"
        self.pdf.set_font("DejaVu", "B" if bold else "", font.size * 72 / DPI)
        self.pdf.set_text_color(*(fill or style.INK))
        width = self.pdf.get_string_width(text)
        x, y = xy
        x -= {"l": 0.0, "m": width / 2, "r": width}[horizontal]
        y += {"a": ascent, "t": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}.get(vertical, 0)
        self.pdf.text(x, y, text)

    def line(self, xy: Sequence[float], fill: Ink = None, width: int = 1) -> None:
        """A straight line from (x0, y0) to (x1, y1)."""
        self.pdf.set_draw_color(*(fill or style.INK))
        self.pdf.set_line_width(width)
        x0, y0, x1, y1 = xy
        self.pdf.line(x0, y0, x1, y1)

    def rectangle(self, xy: Sequence[float], fill: Ink = None, outline: Ink = None, width: int = 1) -> None:
        """A rectangle (x0, y0, x1, y1), filled and outlined as asked."""
        x0, y0, x1, y1 = xy
        if fill is not None:
            self.pdf.set_fill_color(*fill)
        if outline is not None:
            self.pdf.set_draw_color(*outline)
            self.pdf.set_line_width(width)
        style_ = ("F" if fill is not None else "") + ("D" if outline is not None else "")
        if style_:
            self.pdf.rect(x0, y0, x1 - x0, y1 - y0, style=style_)

    def textlength(self, text: str, font: ImageFont.FreeTypeFont | None = None) -> float:
        """The width of `text` as Pillow measures it: the layout is the PNG's."""
        return (font or style.font(16)).getlength(text)

    def paste(self, im: Image.Image, box: tuple[int, int]) -> None:
        """A picture (a board) embedded at its size in pixels, in 128 colours (a third of the bytes)."""
        buffer = io.BytesIO()
        im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(buffer, "PNG", optimize=True)
        x, y = box
        self.pdf.image(buffer, x, y, w=im.width, h=im.height)
