"""The rules engine: positions, plays, cube, match and their formats. Pure Python, no I/O.

A position from an XGID, the plays for 6-2, one of them played, the XGID of the result (the
opponent on roll):

    >>> from game import Position
    >>> position = Position("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    >>> len(position.legal_plays((6, 2)))
    14
    >>> position.parse_play("24/18 13/11", (6, 2)).next_position.xgid()
    'XGID=-b----E-C--AeD---cAe----A-:0:0:-1:00:0:0:0:0:10'
"""

from game.board import BAR, OFF, Color, Variant
from game.cube import Cube
from game.errors import AmbiguousPlayError, DiceError, GameError, IllegalPlayError, NotationError, PositionError
from game.formats import parse_position
from game.match import Match, MatchOptions, Phase
from game.plays import Move, Play, format_moves, parse_moves
from game.position import GameResult, Position, ResultKind

__all__ = [
    "BAR", "OFF", "AmbiguousPlayError", "Color", "Cube", "DiceError", "GameError", "GameResult",
    "IllegalPlayError", "Match", "MatchOptions", "Move", "NotationError", "Phase", "Play", "Position",
    "PositionError", "ResultKind", "Variant", "format_moves", "parse_moves", "parse_position",
]
