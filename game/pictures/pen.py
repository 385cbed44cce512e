"""What a sheet's blocks draw with, on a Pillow page or a PDF page alike: the few calls both give.

Apart from `pdf.py` so that drawing a sheet as pictures never loads the PDF library (fpdf2, and
numpy with it): the room draws sheets as pictures, and only a PDF asked for needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image, ImageFont

Ink = tuple[int, int, int] | None


class Pen(Protocol):
    """What a block draws with: Pillow's `ImageDraw` or a `PdfPage`."""

    def text(self, xy: tuple[float, float], text: str, fill: Ink = None, font: ImageFont.FreeTypeFont | None = None,
             anchor: str | None = None) -> None: ...

    def line(self, xy: Sequence[float], fill: Ink = None, width: int = 1) -> None: ...

    def rectangle(self, xy: Sequence[float], fill: Ink = None, outline: Ink = None, width: int = 1) -> None: ...

    def textlength(self, text: str, font: ImageFont.FreeTypeFont | None = None) -> float: ...


class Surface(Protocol):
    """What a block pastes pictures on: a Pillow page or a `PdfPage`."""

    def paste(self, im: Image.Image, box: tuple[int, int]) -> None: ...
