"""GNU Backgammon's Position ID (Backgammon positions only).

The key is 80 bits, least significant bit of each byte first: for the player
not on roll, then the player on roll, for each own point 1-24 and the bar, as
many 1-bits as checkers followed by a 0-bit. Base64 without padding.
"""

from __future__ import annotations

import base64
import binascii

from game.board import BAR, CHECKERS, OWN_TO_BOARD, Color, Variant
from game.errors import NotationError, PositionError
from game.position import Position

# One side of a GNU Backgammon board: own points 1-24 (index 0-23), then the bar.
Side = tuple[int, ...]


def gnubg_board(position: Position) -> tuple[Side, Side]:
    """(player not on roll, player on roll), as GNU Backgammon's Python module takes it."""
    _require_backgammon(position)
    return _side(position, position.turn.opponent), _side(position, position.turn)


def _side(position: Position, color: Color) -> Side:
    table = OWN_TO_BOARD[Variant.BACKGAMMON, color]
    counts = [position.points[table[p] - 1].count(color.char) for p in range(1, 25)]
    return (*counts, position.bar[color.index])


def from_gnubg_board(board: tuple[Side, Side], turn: Color = Color.WHITE) -> Position:
    """The position of a GNU Backgammon board with `turn` on roll."""
    points = [""] * 24
    bar = [0, 0]
    off = [0, 0]
    for color, side in ((turn.opponent, board[0]), (turn, board[1])):
        table = OWN_TO_BOARD[Variant.BACKGAMMON, color]
        for p in range(1, 25):
            if side[p - 1]:
                if points[table[p] - 1]:
                    raise PositionError(f"both players on board point {table[p]}: {board}")
                points[table[p] - 1] = color.char * side[p - 1]
        bar[color.index] = side[BAR - 1]
        off[color.index] = CHECKERS - sum(side)
    return Position(Variant.BACKGAMMON, turn, tuple(points), (bar[0], bar[1]), (off[0], off[1]))


def position_id(position: Position) -> str:
    """GNU Backgammon's Position ID of a Backgammon position, the player on roll's side first."""
    bits: list[int] = []
    for side in gnubg_board(position):
        for count in side:
            bits.extend([1] * count + [0])
    key = bytearray(10)
    for i, bit in enumerate(bits):
        key[i // 8] |= bit << (i % 8)
    return base64.b64encode(bytes(key)).decode("ascii").rstrip("=")


def from_position_id(text: str, turn: Color = Color.WHITE) -> Position:
    """Read a Position ID; the player on roll is `turn` (the ID does not say who)."""
    try:
        key = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):
        raise NotationError(f"{text!r} is not a Position ID (base64)") from None
    if len(text) != 14 or len(key) != 10:
        raise NotationError(f"{text!r} is not a Position ID (14 characters, 10 bytes)")
    bits = [(key[i // 8] >> (i % 8)) & 1 for i in range(80)]
    sides: list[list[int]] = [[], []]
    side, count = 0, 0
    for bit in bits:
        if side == 2:
            break
        if bit:
            count += 1
            continue
        sides[side].append(count)
        count = 0
        if len(sides[side]) == 25:
            side += 1
    if side != 2 or any(sum(s) > CHECKERS for s in sides):
        raise NotationError(f"Position ID {text!r} does not describe 2 x 25 points of <= 15 checkers")
    try:
        return from_gnubg_board((tuple(sides[0]), tuple(sides[1])), turn)
    except PositionError as exc:
        raise NotationError(f"Position ID {text!r}: {exc}") from None


def _require_backgammon(position: Position) -> None:
    if position.variant is not Variant.BACKGAMMON:
        raise PositionError(f"GNU Backgammon IDs describe backgammon only, not {position.variant.value}")
