"""The rules engine: positions, plays, cube, match and their formats. Pure Python, no I/O.

    >>> from game import Position, Variant
    >>> len(Position.initial(Variant.BACKGAMMON).legal_plays((3, 1)))
    16
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
