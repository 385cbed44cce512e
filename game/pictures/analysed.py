"""An analysed error on the match sheet: the play made and the better play, side by side."""

from __future__ import annotations

from game.pictures import style
from game.pictures.arrows import draw_play
from game.pictures.board import ScoreView
from game.pictures.pdf import Pen, Surface
from game.pictures.sheet import _LINE as LINE
from game.pictures.sheet import _MARGIN as MARGIN
from game.pictures.sheet import Block, SheetRow
from game.plays import Play


def error_block(row: SheetRow, score: ScoreView | None, scale: float) -> Block:
    """An analysed error: the play made and the better play, each drawn on its own board."""
    assert row.before is not None and row.position is not None and row.better is not None
    small = scale * 0.62
    made = draw_play(row.before, Play(row.moves, row.position), dice=row.dice, cube=row.cube, score=score,
                     scale=small)
    better = draw_play(row.before, row.better, dice=row.dice, cube=row.cube, score=score, scale=small)
    who = row.player.value.capitalize() if row.player else ""
    caption = f"Line {row.number}, {who}: played {row.notation} {row.mark}, better {row.better.notation()}"
    labels = ("played", "better")

    def paint(page: Surface, draw: Pen, y: int) -> None:
        draw.text((MARGIN, y + 6), caption, fill=style.INK, font=style.font(20, bold=True), anchor="la")
        draw.text((MARGIN, y + 6 + LINE), row.note, fill=style.INK, font=style.font(18), anchor="la")
        x = MARGIN
        for label, board in zip(labels, (made, better), strict=True):
            page.paste(board, (x, y + 2 * LINE + 14))
            draw.text((x, y + 2 * LINE + 18 + board.height), label, fill=style.MUTED_INK, font=style.font(18),
                      anchor="la")
            x += board.width + 30

    return Block(max(made.height, better.height) + 3 * LINE + 24, paint)
