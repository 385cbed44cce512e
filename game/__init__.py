"""The rules engine: positions, plays, cube, match and their formats. Pure Python, no I/O.

A position from an XGID, the plays for 6-2, one of them played, the XGID of the result (the
opponent on roll):

    >>> from game import Position
    >>> position = Position("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    >>> len(position.legal_plays((6, 2)))
    14
    >>> position.play("24/18 13/11", (6, 2)).xgid()
    'XGID=-b----E-C--AeD---cAe----A-:0:0:-1:00:0:0:0:0:10'

`print(position)` draws the board as text; `read_match` reads a record or a `.mat` transcript.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

TYPE_CHECKING = False  # not typing's: every `python -m game` imports this package before it pauses the collector

if TYPE_CHECKING:
    from typing import Any

    from game.board import BAR, OFF, Color, Variant
    from game.cube import Cube
    from game.errors import (
        AmbiguousPlayError,
        DiceError,
        GameError,
        IllegalPlayError,
        NotationError,
        PositionError,
    )
    from game.formats import parse_position, read_match
    from game.match import Match, MatchOptions, Phase
    from game.plays import Move, Play, format_moves, parse_moves
    from game.position import GameResult, Position, ResultKind
    from game.rules import RuleOptions

_HOMES = {
    "BAR": "board", "OFF": "board", "Color": "board", "Variant": "board", "Cube": "cube",
    "AmbiguousPlayError": "errors", "DiceError": "errors", "GameError": "errors", "IllegalPlayError": "errors",
    "NotationError": "errors", "PositionError": "errors", "parse_position": "formats", "read_match": "formats",
    "Match": "match", "MatchOptions": "match", "Phase": "match", "Move": "plays", "Play": "plays",
    "format_moves": "plays", "parse_moves": "plays", "GameResult": "position", "Position": "position",
    "ResultKind": "position", "RuleOptions": "rules",
}

__all__ = [
    "BAR", "OFF", "AmbiguousPlayError", "Color", "Cube", "DiceError", "GameError", "GameResult",
    "IllegalPlayError", "Match", "MatchOptions", "Move", "NotationError", "Phase", "Play", "Position",
    "PositionError", "ResultKind", "RuleOptions", "Variant", "format_moves", "parse_moves", "parse_position",
    "read_match",
]


def __getattr__(name: str) -> Any:
    """The package's names, each imported from its module when first used: importing `game` (as
    every `import game.x` and `python -m game` does) costs nothing, and a command imports only the
    modules it needs (validating a .mat needs no XGID or Position ID reader)."""
    if name not in _HOMES:
        raise AttributeError(f"module 'game' has no attribute {name!r}")
    return getattr(import_module(f"game.{_HOMES[name]}"), name)


def __dir__() -> list[str]:
    """The public names (each imported when first used), the submodules imported so far and the
    module's own attributes; not the helpers this file imports."""
    held = (name for name, value in globals().items() if name.startswith("__") or isinstance(value, ModuleType))
    return sorted({*held, *__all__})
