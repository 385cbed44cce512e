"""Errors of the rules engine: one root, each also the matching builtin."""


class GameError(Exception):
    """Root of every error raised by the rules engine."""


class PositionError(GameError, ValueError):
    """A position that is malformed or impossible in its variant."""


class NotationError(GameError, ValueError):
    """Text that is not a valid position, play or record notation."""


class DiceError(GameError, ValueError):
    """Dice that are not two faces from 1 to 6."""


class IllegalPlayError(GameError, ValueError):
    """A play that is not legal for the position and dice."""
