"""The board drawn as text for a terminal, from White's side.

Points 13-24 run along the top, 12-1 along the bottom (White's home board at
the bottom right). White checkers are "O", Black "X"; a Catchgammon checker
trapped under its trappers is shown in lower case at the bottom of its stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.board import Color

if TYPE_CHECKING:
    from game.position import Position

_ROWS = 5
_GLYPH = {"w": "O", "b": "X"}


def _cell(stack: str, row: int) -> str:
    """Row `row` (0 = at the edge) of a point's column, 3 characters wide."""
    if row >= len(stack):
        return " . " if row == 0 else "   "
    if row == _ROWS - 1 and len(stack) > _ROWS:
        return f"{len(stack):^3}"
    glyph = _GLYPH[stack[row]]
    trapped = row == 0 and len(stack) > 1 and stack[0] != stack[-1]
    return f" {glyph.lower() if trapped else glyph} "


def _half(position: Position, points: list[int], top: bool) -> list[str]:
    lines = []
    rows = range(_ROWS) if top else range(_ROWS - 1, -1, -1)
    for row in rows:
        cells = [_cell(position.stack(p), row) for p in points]
        lines.append("|" + "".join(cells[:6]) + "|   |" + "".join(cells[6:]) + "|")
    return lines


def draw(position: Position) -> str:
    """The position as text (board points numbered, White O and Black X, a trapped checker in lower case), with
    each side's pips, bar and borne-off checkers."""
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    numbers_top = " " + "".join(f"{p:^3}" for p in top[:6]) + "     " + "".join(f"{p:^3}" for p in top[6:])
    numbers_bottom = " " + "".join(f"{p:^3}" for p in bottom[:6]) + "     " + "".join(
        f"{p:^3}" for p in bottom[6:])
    rule = "+" + "-" * 18 + "+---+" + "-" * 18 + "+"
    white, black = Color.WHITE, Color.BLACK
    lines = [
        f"{position.variant.value}, {position.turn.value} to play",
        numbers_top, rule, *_half(position, top, True),
        "|" + " " * 18 + "|BAR|" + " " * 18 + "|",
        *_half(position, bottom, False), rule, numbers_bottom,
        f"O white: pips {position.pip_count(white)}, bar {position.bar[0]}, off {position.off[0]}",
        f"X black: pips {position.pip_count(black)}, bar {position.bar[1]}, off {position.off[1]}",
    ]
    if position.trapped(white) or position.trapped(black):
        lines.append("o / x: a checker trapped under the other colour")
    return "\n".join(lines)

