"""Reading a position from any of its text forms: XGID, Position ID or JSON document."""

from __future__ import annotations

from game.board import Color, Variant
from game.errors import NotationError, PositionError
from game.gnubg_ids import from_position_id
from game.position import Position
from game.xgid import Xgid


def parse_position(text: str, variant: Variant | None = None) -> Position:
    """An XGID, a GNU Backgammon Position ID (White on roll) or an inline JSON document.

    `variant`, when given, must agree with what the text describes.
    """
    return parse_setting(text, variant)[0]


def parse_setting(text: str, variant: Variant | None = None) -> tuple[Position, Xgid | None]:
    """`parse_position`, and for an XGID all it says besides (cube, dice, score, match length)."""
    body = text.strip()
    xgid = None
    if body.startswith("{"):
        position = Position.from_json(body)
    elif body.upper().startswith("XGID=") or body.count(":") == 9:
        xgid = Xgid.parse(body)
        position = xgid.position
    elif len(body) == 14:
        position = from_position_id(body, Color.WHITE)
    else:
        raise NotationError(
            f"cannot tell what {_clip(body)!r} is: expected an XGID, a 14-character "
            "Position ID, a JSON position document or @file.json")
    if variant is not None and position.variant is not variant:
        raise PositionError(f"position is {position.variant.value}, but --variant is {variant.value}")
    return position, xgid


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
