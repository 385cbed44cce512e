"""The state of a chouette session, read-only, and the checks every action makes against it.

`SessionState` holds what a `ChouetteSession` (`game.chouette.session`) changes: the seating,
the roster, the board, the team's cubes and the totals; it answers the table's questions (who
is box and captain, whose cube is where, who acts next) and makes the refusals that name where
the session stands.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from game.board import Variant
from game.cube import Cube
from game.errors import (
    CubeNotAvailable,
    DuplicatePlayer,
    GameError,
    InvalidDice,
    MatchActionError,
    MatchOver,
    NotYourTurn,
    PlayerNameError,
    SessionSize,
    UnknownPlayer,
    WrongPhase,
)
from game.movegen import LegalPlays, check_dice
from game.position import Position

from . import events as ev
from .awaiting import Awaiting, Phase, awaiting
from .options import MAX_PLAYERS, MIN_PLAYERS, ChouetteOptions, Side, number
from .roster import Roster
from .seating import Seating
from .stakes import Stake, Stakes

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class ChouetteGame:
    """How one game of the session went: who played it and what everyone won or paid."""

    number: int
    box: str
    team: tuple[str, ...]  # in team order, the first captain first
    partner: str | None
    captain: str  # the captain at the end
    winner: Side | None  # None: a Remi
    kind: str
    reason: str  # "bearoff", "pass" (every member settled by a cube), "remi"
    results: dict[str, Fraction]
    totals: dict[str, Fraction]  # after the game
    stakes: tuple[Stake, ...]


@dataclass
class BoardState:
    """What changes turn by turn on the board."""

    position: Position
    phase: Phase
    dice: tuple[int, int] | None = None
    move_number: int = 0
    doubled: bool = False  # the side on roll has turned its cubes this turn


class SessionState:
    """Where a chouette session stands; `ChouetteSession` adds the actions."""

    def __init__(self, players: Sequence[str], variant: Variant = Variant.BACKGAMMON,
                 options: ChouetteOptions | None = None, clock: Callable[[], float] = time.time) -> None:
        names = [_name(p) for p in players]
        if len(set(names)) != len(names):
            raise DuplicatePlayer(f"every player of a chouette needs a name of their own, got {names}")
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise SessionSize(f"a chouette seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}")
        self.variant = variant
        self.options = options or ChouetteOptions()
        self._clock = clock
        self._events: list[ev.ChouetteEvent] = []
        self._games: list[ChouetteGame] = []
        self._totals = {name: Fraction(0) for name in names}  # everyone ever seated, in order
        self._seating = Seating(names)
        self._roster = Roster.seated(names)  # until the throws settle it
        self._game = 0
        self._board = BoardState(Position.initial(variant), Phase.SEATING)
        self._stakes: Stakes | None = None  # from the game's first opening roll
        self._captain = self._roster.captain
        self._lost: list[str] = []  # captains the box beat in this game, in order
        self._undo: BoardState | None = None

    # -- read-only state -------------------------------------------------------------

    @property
    def events(self) -> tuple[ev.ChouetteEvent, ...]:
        """Every event so far, in order, as the record holds them."""
        return tuple(self._events)

    def events_from(self, index: int) -> list[ev.ChouetteEvent]:
        """The events from number `index` on (0 = chouette_start)."""
        return self._events[index:]

    @property
    def event_count(self) -> int:
        """How many events there are."""
        return len(self._events)

    @property
    def games(self) -> tuple[ChouetteGame, ...]:
        """The games played to their end, in order."""
        return tuple(self._games)

    @property
    def phase(self) -> Phase:
        """What the session waits for, in one word."""
        return self._board.phase

    @property
    def is_over(self) -> bool:
        """Whether the session has stopped."""
        return self._board.phase is Phase.OVER

    @property
    def game_number(self) -> int:
        """The game in progress, or about to start (1, 2, ...; 0 while seating)."""
        return self._game

    @property
    def move_number(self) -> int:
        """Plays made so far in this game."""
        return self._board.move_number

    @property
    def seating(self) -> Seating:
        """The throws for the order."""
        return self._seating

    @property
    def roster(self) -> Roster:
        """The box, the line and the partner."""
        return self._roster

    @property
    def box(self) -> str:
        """The player in the box."""
        return self._roster.box

    @property
    def captain(self) -> str:
        """The captain now: after a captain's cube settled, the next member in line still in."""
        return self._captain

    @property
    def partner(self) -> str | None:
        """The box's partner in this game, if any."""
        return self._roster.partner

    @property
    def team(self) -> tuple[str, ...]:
        """This game's members in team order (from the opening roll; before it, as it would be)."""
        return self._stakes.order if self._stakes else self._roster.team

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone seated now, box first."""
        return self._roster.players

    @property
    def totals(self) -> dict[str, Fraction]:
        """Every player's running total, those who left included, in the order they came."""
        return dict(self._totals)

    @property
    def position(self) -> Position:
        """The position on the board."""
        return self._board.position

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice to be played, once rolled."""
        return self._board.dice

    @property
    def on_roll(self) -> Side | None:
        """The side whose turn it is (None between games)."""
        if self._board.phase in (Phase.ROLL, Phase.DOUBLED, Phase.MOVE):
            return Side.of(self._board.position.turn)
        return None

    @property
    def stakes(self) -> Stakes | None:
        """The team's cubes in this game (None before its first opening roll)."""
        return self._stakes

    def cube(self, member: str) -> Cube:
        """`member`'s cube in this game."""
        return self._stakes_now()[member].cube

    def in_game(self, member: str) -> bool:
        """Whether `member` still plays this game (has a cube, has not settled it)."""
        return self._stakes is not None and member in self._stakes.stakes and self._stakes[member].in_game

    def highest_cube(self) -> tuple[int, Side | None]:
        """The highest cube still in play and its owner's side, for the LED cube display."""
        if self._stakes is None or not self._stakes.in_game():
            return 1, None
        cubes = [self._stakes[m].cube for m in self._stakes.in_game()]
        top = max(cubes, key=lambda c: (c.value, c.owner is not None))
        return top.value, Side.of(top.owner) if top.owner else None

    def awaiting(self) -> Awaiting:
        """Who acts next, about whose cube, and the methods that may be called now."""
        return awaiting(self)

    def legal_plays(self) -> LegalPlays:
        """The legal plays of the roll to be played, as in a two-player game."""
        self._require(Phase.MOVE)
        assert self._board.dice is not None
        return self._board.position.legal_plays(self._board.dice)

    def may_double(self, side: Side, member: str) -> bool:
        """Whether `side` may turn `member`'s cube now."""
        return self._double_refusal(side, member) is None

    @property
    def can_take_back(self) -> bool:
        """Whether the last play may still be taken back (nothing has happened since)."""
        return self._undo is not None and self._board.phase is Phase.ROLL

    def roller(self) -> str:
        """The player who rolls and moves for the side on roll: the captain or the box."""
        return self._captain if self.on_roll is Side.TEAM else self.box

    def _check_double(self, side: Side, member: str) -> None:
        refusal = self._double_refusal(side, member)
        if refusal is not None:
            raise type(refusal)(refusal.reason, self._context())

    def _double_refusal(self, side: Side, member: str) -> MatchActionError | None:
        """Why `side` may not turn `member`'s cube now (None when it may), without the costly context."""
        phase = self._board.phase
        if phase is Phase.OVER:
            return MatchOver("the chouette session is over")
        if phase not in (Phase.ROLL, Phase.DOUBLED) or self._stakes is None:
            return WrongPhase(f"cubes are turned before the roll: the phase is {phase.value}")
        if self.on_roll is not side:
            return NotYourTurn(f"the {side.value} cannot turn a cube: the {side.other.value} is on roll")
        if self._board.doubled:
            return CubeNotAvailable(f"the {side.value} has turned its cubes this turn: it rolls now")
        refusal = self._member_refusal(member, self._stakes)
        if refusal is not None:
            return refusal
        refusal = self._stakes.doubling_refusal(side, member)
        if refusal is not None:
            return type(refusal)(f"the {side.value} cannot turn {member}'s cube: {refusal.reason}")
        return None

    def _member_acts_for(self, member: str, stakes: Stakes) -> None:
        refusal = self._member_refusal(member, stakes)
        if refusal is not None:
            raise type(refusal)(refusal.reason, self._context())

    def _member_refusal(self, member: str, stakes: Stakes) -> MatchActionError | None:
        """The member named must be on the team; with a team cube only the captain decides."""
        if member not in stakes.stakes:
            return UnknownPlayer(f"{member} is not on the team of game {self._game} "
                                 f"(team: {', '.join(stakes.order)})")
        if self.options.team_cube and member != self._captain:
            return NotYourTurn(f"with one team cube the captain ({self._captain}) turns and answers it, "
                               f"not {member}")
        return None

    def _stakes_now(self) -> Stakes:
        if self._stakes is None:
            raise WrongPhase(f"game {self._game} has not begun: the cubes come with the opening roll",
                             self._context())
        return self._stakes

    def _op(self, op: Callable[[], _T]) -> _T:
        try:
            return op()
        except MatchActionError as exc:
            raise type(exc)(exc.reason, self._context()) from None

    def _require(self, *phases: Phase) -> None:
        phase = self._board.phase
        if phase is Phase.OVER:
            raise MatchOver("the chouette session is over", self._context())
        if phase not in phases:
            wanted = " or ".join(p.value for p in phases)
            raise WrongPhase(f"this action needs phase {wanted}, the phase is {phase.value}: "
                             f"{self.awaiting().describe()}", self._context())

    def _check_dice(self, dice: tuple[int, int], what: str) -> None:
        try:
            check_dice(dice)
        except GameError as exc:
            raise InvalidDice(f"{what}: {exc}", self._context()) from None

    def _context(self) -> str:
        """Where the session stands, enough to reproduce an error."""
        b = self._board
        if b.phase is Phase.SEATING:
            return self._seating.describe()
        parts = [f"game {self._game}", self._roster.describe(), f"phase {b.phase.value}"]
        if self.on_roll is not None:
            parts.append(f"{self.on_roll.value} on roll ({self.roller()}), captain {self._captain}")
        if self._stakes is not None:
            parts.append(self._stakes.describe())
        parts.append(f"move {b.move_number}")
        if b.dice:
            parts.append(f"dice {b.dice[0]}{b.dice[1]}")
        parts.append(f"position {b.position.to_json()}")
        return ", ".join(parts)

    def _totals_doc(self) -> ev.Totals:
        return {name: number(points) for name, points in self._totals.items()}

    def _emit(self, event: ev.ChouetteEvent) -> None:
        self._undo = None  # only the play just made can be taken back, before anything else happens
        self._events.append(event)


def _name(raw: object, context: str = "") -> str:
    if not isinstance(raw, str) or not raw.strip() or raw != raw.strip() or len(raw) > 40:
        raise PlayerNameError(f"a player's name is 1 to 40 characters without spaces around, got {raw!r}", context)
    return raw
