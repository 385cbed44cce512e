"""Every error of the rules engine: one root, `GameError`, each class also the matching builtin.

Messages carry what is needed to reproduce the problem: the position, the dice, the line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.plays import Play
    from game.replay import Problem


class GameError(Exception):
    """Root of every error raised by the rules engine."""


# -- positions, plays and notation ---------------------------------------------

class PositionError(GameError, ValueError):
    """A position that is malformed or impossible in its variant."""


class RuleOptionError(PositionError):
    """A rule option that does not exist, or that belongs to another variant (game/rules.py)."""


class NotationError(GameError, ValueError):
    """Text that is not a valid position, play or record notation."""


class DiceError(GameError, ValueError):
    """Dice that are not two faces from 1 to 6."""


class IllegalPlayError(GameError, ValueError):
    """A play that is not legal for the position and dice."""


class IncompletePlayError(IllegalPlayError):
    """A written play whose every step is allowed but that stops before the dice are used as the rules
    require (a player who resigned in the middle of a turn, in some transcripts)."""


class AmbiguousPlayError(IllegalPlayError):
    """A written play that fits several legal plays of the position and dice; `plays` holds them."""

    def __init__(self, message: str, plays: tuple[Play, ...] = ()) -> None:
        super().__init__(message)
        self.plays = plays


class ZoneError(GameError, ValueError):
    """A zone id or a sensor reading that cannot be (a negative count, colours that do not add up,
    a reading told at more than its sensor knows)."""


# -- the cube and the match ------------------------------------------------------

class CodeError(GameError, ValueError):
    """A display code out of its family's range (game/codes.py)."""


class MatchActionError(GameError, ValueError):
    """An action that the rules do not allow in the current state of the match.

    `reason` says which rule forbids it; `context` (game, score, move, cube, dice,
    position) says where, enough to reproduce it. The message carries both.
    """

    def __init__(self, reason: str, context: str = "") -> None:
        super().__init__(f"{reason} [{context}]" if context else reason)
        self.reason = reason
        self.context = context


class NotYourTurn(MatchActionError):
    """The player acting is not the one whose action is expected."""


class WrongPhase(MatchActionError):
    """The action does not fit the phase: rolling before a double is answered, playing before rolling."""


class MatchOver(MatchActionError):
    """The match has ended: no further action is possible."""


class CubeNotAvailable(MatchActionError):
    """The cube is owned by the opponent, already offered, or at its maximum."""


class CrawfordNoDouble(CubeNotAvailable):
    """Nobody may double in the Crawford game."""


class OptionDisabled(MatchActionError):
    """The action needs an option that this match does not play (beavers in match play, ...)."""


class InvalidDice(MatchActionError, DiceError):
    """Dice values that are not faces from 1 to 6."""


class IllegalMove(MatchActionError, IllegalPlayError):
    """A play that is not one of the legal plays for the position and dice."""


# -- the chouette (game.chouette): three or more players at one board ---------------

class UnknownPlayer(MatchActionError, LookupError):
    """A name that is not a player of the chouette (or not one who may act here)."""


class DuplicatePlayer(MatchActionError):
    """A player who joins under a name already seated in the chouette."""


class SessionSize(MatchActionError):
    """A chouette would have fewer players than it needs or more than it seats."""


class OutOfGame(NotYourTurn):
    """A chouette member whose game is settled (passed, or passed by the box) acts in it again."""


class OutOfTeamOrder(NotYourTurn):
    """A cube decision taken before the decisions of the members ahead of it in team order."""


class BoxMustTakeHalf(CubeNotAvailable):
    """The house rule: the box takes at least half of the initial cubes turned at once, or passes all."""


class PartnerNotAllowed(MatchActionError):
    """A box partner the rules do not allow: the captain, the box itself, or a second partner."""


class PlayerNameError(MatchActionError):
    """A player's name that cannot be used: not text, empty, padded with spaces, or too long."""


# -- records -----------------------------------------------------------------------

class RecordError(GameError, ValueError):
    """A record or .mat file that cannot be read: bad JSON, missing fields, unknown format."""


class ChainError(RecordError):
    """The hash chain of a record is broken: a line was edited, removed or inserted."""


class MatFormatError(RecordError):
    """Text that is not a .mat transcript, or a match the format cannot hold."""


class ReplayError(GameError, ValueError):
    """The first problem of a record replayed strictly."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.describe())
        self.problem = problem


# -- the command line -----------------------------------------------------------------

class UsageError(GameError, ValueError):
    """Command-line input that cannot be used (a file that cannot be read, a bad line)."""


class KernelError(GameError, RuntimeError):
    """The move-generator kernel asked for (SMARTGAMMON_KERNEL, `use_kernel`) cannot be used here."""


# -- the bot ---------------------------------------------------------------------------

class BotError(GameError):
    """Root of the bot's errors (game.bot)."""


class BearoffError(BotError, ValueError):
    """A file that is not a bear-off database, or a position the bear-off database does not judge."""


class OpeningBookError(BotError, ValueError):
    """An opening book that cannot be read, or whose play is not legal for its roll."""


class WeightsError(BotError, ValueError):
    """Network weights that cannot be read or do not fit the variant's encoding."""


class EngineUnavailable(BotError, ImportError):
    """The engine a bot needs is not installed (the `bot` extra: numpy, gnubg)."""


class UnknownLevel(BotError, ValueError):
    """A bot level that does not exist (the message lists the levels)."""


class WrongVariant(BotError, ValueError):
    """A bot asked about a position of another variant."""


class EngineError(BotError, RuntimeError):
    """An engine call that failed (GNU Backgammon's worker answered with an error)."""


class EngineDied(EngineError):
    """GNU Backgammon's worker process died during a call, and again on a new worker."""
