"""The board drawn as text for a terminal, from White's side.

Points 13-24 run along the top, 12-1 along the bottom (White's home board at
the bottom right). White checkers are "O", Black "X"; a Catchgammon checker
trapped under its trappers is shown in lower case at the bottom of its stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.board import Color, Variant

if TYPE_CHECKING:
    from game.position import Position
    from game.xgid import Xgid

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
    """Half the board; in its BAR column the checkers on the bar that enter on this half's side
    (White's above, as White enters on points 24-19; Black's below), stacked from the middle."""
    lines = []
    rows = range(_ROWS) if top else range(_ROWS - 1, -1, -1)
    on_bar = position.bar[0] if top else position.bar[1]
    bar_glyph = _GLYPH["w" if top else "b"]
    for row in rows:
        cells = [_cell(position.stack(p), row) for p in points]
        from_middle = _ROWS - 1 - row
        bar = f" {bar_glyph} " if from_middle < on_bar else "   "
        if from_middle == _ROWS - 1 and on_bar > _ROWS:
            bar = f"{on_bar:^3}"
        lines.append("|" + "".join(cells[:6]) + f"|{bar}|" + "".join(cells[6:]) + "|")
    return lines


def draw(position: Position, setting: Xgid | None = None, *, ids: bool = False) -> str:
    """The position as text (board points numbered, White O and Black X, a trapped checker in lower case,
    checkers on the bar in the BAR column), with each side's pips, bar and borne-off checkers; the cube,
    dice, score and match length of `setting` (an XGID) when given; with `ids`, for Backgammon, the
    position's GNU Backgammon Position ID and XGID."""
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
    lines.extend(_setting_lines(position, setting, ids))
    return "\n".join(lines)


def _setting_lines(position: Position, setting: Xgid | None, ids: bool) -> list[str]:
    lines = []
    if setting is not None:
        owner = f"owned by {setting.cube_owner.value}" if setting.cube_owner else "centred"
        offered = {"D": ", a double offered", "B": ", beavered", "R": ", raccooned"}.get(setting.cube_action, "")
        lines.append(f"cube: {setting.cube_value}, {owner}{offered}")
        if setting.dice:
            lines.append(f"dice: {setting.dice[0]}-{setting.dice[1]}")
        white, black = setting.score
        if setting.match_length:
            crawford = " (Crawford game)" if setting.crawford else ""
            lines.append(f"score: white {white}, black {black}, match to {setting.match_length}{crawford}")
        else:
            rules = [name for name, on in (("Jacoby", setting.jacoby), ("beavers", setting.beavers)) if on]
            lines.append("money game" + (f" ({', '.join(rules)})" if rules else ""))
    if ids and position.variant is Variant.BACKGAMMON:
        lines.append(f"Position ID: {position.position_id()}")
        lines.append(str(setting) if setting is not None else position.xgid())
    return lines

