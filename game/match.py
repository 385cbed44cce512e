"""A whole match or money session: cube, score, game flow, and the record of events.

`Match` is the one stateful object of the layer. The dice are not inside: the
caller hands it the values rolled. Each action checks that the rules allow it,
raises a specific `MatchActionError` when they do not, and appends an event (a
dict, see `game/RECORD.md`) to `Match.events`. Derived events (`game_start`,
`game_end`, `match_end`) follow the action that causes them.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from game.board import Color, Variant
from game.cube import Cube
from game.errors import (
    CrawfordNoDouble,
    GameError,
    IllegalMove,
    IllegalPlayError,
    InvalidDice,
    MatchActionError,
    MatchOver,
    NotYourTurn,
    OptionDisabled,
    WrongPhase,
)
from game.events import (
    CubeOffer,
    Forfeit,
    GameEnd,
    GameStart,
    MatchEnd,
    MatchEvent,
    MatchStart,
    OpeningRoll,
    PlayerAction,
    PlayerName,
    PlayMade,
    Resign,
    Roll,
    ScoreDoc,
    Take,
)
from game.movegen import LegalPlays, check_dice, complete_play, encode, legal_states
from game.play_reader import read_play
from game.plays import Move, Play, WrittenPlay, format_moves
from game.position import Position, ResultKind
from game.rules import STANDARD, RuleOptions
from game.values import Value
from game.values import set_field as _set

if TYPE_CHECKING:
    from random import SystemRandom

Score = tuple[int, int]
Steps = Sequence[tuple[int, int]]

RECORD_VERSION = 1


def throw_dice() -> tuple[int, int]:
    """Two dice thrown by the operating system's randomness: what `roll()` rolls when it is given none."""
    dice = _system_dice()
    return dice.randint(1, 6), dice.randint(1, 6)


@lru_cache(maxsize=1)
def _system_dice() -> SystemRandom:
    """The operating system's randomness, made when dice are first thrown here (never, when replaying a
    record): importing `random` costs every `python -m game validate` process about a millisecond."""
    from random import SystemRandom

    return SystemRandom()


class Phase(enum.Enum):
    """Where a game stands: what the match waits for next."""

    OPENING = "opening"    # waiting for the opening roll
    ROLL = "roll"          # the player on roll may double, or roll
    MOVE = "move"          # the dice are rolled: the player on roll plays
    DOUBLED = "doubled"    # a double waits for take, pass (or beaver)
    BEAVERED = "beavered"  # a beaver waits for the original doubler's take or pass
    RESIGNED = "resigned"  # a resignation waits for acceptance or refusal
    OVER = "over"          # the match is over, or the money session stopped


def kind_name(kind: ResultKind, variant: Variant) -> str:
    """"single", "gammon" or the variant's triple name."""
    return {ResultKind.SINGLE: "single", ResultKind.GAMMON: "gammon"}.get(kind, variant.triple_name)


def kind_from_name(name: Any, variant: Variant) -> ResultKind:
    """The result kind a record names (`single`, `gammon`, or the variant's triple name)."""
    for kind in ResultKind:
        if kind_name(kind, variant) == name:
            return kind
    names = ", ".join(kind_name(k, variant) for k in ResultKind)
    raise MatchActionError(f"{name!r} is not a result kind of {variant.value} ({names})")


class MatchOptions(Value):
    """The options of a match or money session, each off by default: the rule options (`rules`,
    `game.rules`: Nackgammon, the mother checker), which match play allows too, and the
    money-play options (Jacoby, beavers, automatic doubles, a maximum cube), which it does not."""

    __slots__ = ("jacoby", "beavers", "automatic_doubles", "max_cube", "rules")
    _fields = __slots__
    jacoby: bool
    beavers: bool
    automatic_doubles: bool
    max_cube: int | None
    rules: RuleOptions

    def __init__(self, jacoby: bool = False, beavers: bool = False, automatic_doubles: bool = False,
                 max_cube: int | None = None, rules: RuleOptions = STANDARD) -> None:
        _set(self, "jacoby", jacoby)
        _set(self, "beavers", beavers)
        _set(self, "automatic_doubles", automatic_doubles)
        _set(self, "max_cube", max_cube)
        _set(self, "rules", rules)

    @property
    def money_only(self) -> bool:
        """Whether any money-play option is on (match play refuses them)."""
        return self.replace(rules=STANDARD) != NO_OPTIONS

    def to_document(self) -> dict[str, Any]:
        """The options as the record's `match_start` event writes them (`rules` only when one is on)."""
        doc: dict[str, Any] = {"jacoby": self.jacoby, "beavers": self.beavers,
                               "automatic_doubles": self.automatic_doubles, "max_cube": self.max_cube}
        if self.rules:
            doc["rules"] = self.rules.to_document()
        return doc

    @classmethod
    def from_document(cls, doc: Any) -> MatchOptions:
        """Read the options of a `match_start` event (raises `OptionDisabled` on a bad one)."""
        known = {*cls().to_document(), "rules"}
        if not isinstance(doc, Mapping) or set(doc) - known:
            raise OptionDisabled(f"options must be an object with keys among {sorted(known)}, got {doc!r}")
        flags = {k: doc.get(k, False) for k in ("jacoby", "beavers", "automatic_doubles")}
        max_cube = doc.get("max_cube")
        if not all(isinstance(v, bool) for v in flags.values()) or not (
                max_cube is None or (isinstance(max_cube, int) and not isinstance(max_cube, bool))):
            raise OptionDisabled(f"options must be booleans and max_cube a number or null, got {doc!r}")
        try:
            rules = RuleOptions.from_document(doc.get("rules", {}))
        except GameError as exc:
            raise OptionDisabled(str(exc)) from None
        return cls(max_cube=max_cube, rules=rules, **flags)


NO_OPTIONS = MatchOptions()


class GameSummary(NamedTuple):
    """How one game ended. `winner` is None and `kind` "remi" for a Catchgammon Remi
    (a NamedTuple, not a dataclass: made at every start of `python -m game`, it costs about an eighth as much)."""

    number: int
    winner: Color | None
    kind: str
    points: int
    reason: str  # "bearoff", "mother_checker", "pass", "resign" or "remi"
    score: Score  # (white, black) after the game


class _Resignation(NamedTuple):
    """A resignation offered (a NamedTuple, not a dataclass: made at every start of `python -m game`,
    it costs about an eighth as much)."""

    player: Color
    kind: ResultKind
    resume: Phase


class _State:
    """Everything that changes while a game is played.

    A plain class, not a dataclass: made at every start of `python -m game`, a dataclass costs half a
    millisecond.
    """

    def __init__(self, position: Position, cube: Cube, phase: Phase = Phase.OPENING,
                 dice: tuple[int, int] | None = None, move_number: int = 0, auto_doubled: bool = False,
                 resignation: _Resignation | None = None) -> None:
        self.position = position
        self.cube = cube
        self.phase = phase
        self.dice = dice
        self.move_number = move_number
        self.auto_doubled = auto_doubled
        self.resignation = resignation

    def copy(self) -> _State:
        """The same state, apart (a shallow copy: its fields are immutable), made after every play
        for its takeback."""
        other = _State.__new__(_State)
        other.__dict__.update(self.__dict__)
        return other


class Match:
    """A match to `length` points, or a money session (`length=None`) that runs until `stop()`."""

    def __init__(self, variant: Variant = Variant.BACKGAMMON, length: int | None = None,
                 options: MatchOptions = NO_OPTIONS, players: tuple[str, str] = ("White", "Black"),
                 clock: Callable[[], float] = time.time) -> None:
        if length is not None and (not isinstance(length, int) or isinstance(length, bool) or length < 1):
            raise OptionDisabled(f"a match length is a whole number >= 1 (or None for money), got {length!r}")
        if length is not None and options.money_only:
            raise OptionDisabled(f"match play has no Jacoby, beavers, automatic doubles or maximum cube, "
                                 f"got {options}")
        try:
            options.rules.check(variant)
        except GameError as exc:
            raise OptionDisabled(str(exc)) from None
        top = options.max_cube
        if top is not None and (top < 1 or top & (top - 1)):
            raise OptionDisabled(f"the maximum cube is a power of two, got {options.max_cube}")
        self.variant = variant
        self.length = length
        self.options = options
        self.players = players
        self._clock = clock
        self._events: list[MatchEvent] = []
        self._games: list[GameSummary] = []
        self._score = [0, 0]
        self._game = 0
        self._crawford = False
        self._crawford_done = False
        self._winner: Color | None = None
        self._s = _State(Position.initial(variant, rules=options.rules), Cube(max_value=options.max_cube))
        self._undo: _State | None = None  # the state before the last play, while it may be taken back
        self._emit(MatchStart(type="match_start", t=self._clock(), variant=variant.value, length=length or 0,
                              options=options.to_document(), players={"white": players[0], "black": players[1]},
                              version=RECORD_VERSION))
        self._start_game()

    def __repr__(self) -> str:
        kind = "money session" if self.length is None else f"{self.length}-point match"
        white, black = self._score
        state = "over" if self.is_over else self._awaiting()
        return f"<Match {self.variant.value} {kind}, game {self._game}, score {white}-{black}: {state}>"

    def use_clock(self, clock: Callable[[], float]) -> None:
        """Time-stamp the events from now on with `clock` (a replayed match goes on live)."""
        self._clock = clock

    @classmethod
    def replay(cls, events: Iterable[Mapping[str, Any]]) -> Match:
        """Rebuild a match from its events; raises `ReplayError` at the first illegal one."""
        from game.replay import replay

        return replay(events)

    # -- read-only state ----------------------------------------------------

    @property
    def events(self) -> tuple[MatchEvent, ...]:
        """Every event so far, in order (see game/RECORD.md)."""
        return tuple(self._events)

    @property
    def games(self) -> tuple[GameSummary, ...]:
        """How each finished game ended."""
        return tuple(self._games)

    @property
    def position(self) -> Position:
        """The position now (the player on roll, or the mover during a play)."""
        return self._s.position

    @property
    def cube(self) -> Cube:
        """The doubling cube of the game in progress."""
        return self._s.cube

    @property
    def score(self) -> Score:
        """Points so far, (white, black)."""
        return self._score[0], self._score[1]

    @property
    def crawford(self) -> bool:
        """Whether the game in progress is the Crawford game."""
        return self._crawford

    @property
    def post_crawford(self) -> bool:
        """The Crawford game has been played and a player is still one point from the match."""
        return self._crawford_done

    @property
    def phase(self) -> Phase:
        """What the game in progress waits for."""
        return self._s.phase

    @property
    def game_number(self) -> int:
        """The game in progress (1, 2, ...)."""
        return self._game

    @property
    def move_number(self) -> int:
        """Plays made so far in this game."""
        return self._s.move_number

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice rolled and not yet played, if any."""
        return self._s.dice

    @property
    def on_roll(self) -> Color | None:
        """The player whose turn it is in the game; None before the opening roll."""
        return None if self._s.phase in (Phase.OPENING, Phase.OVER) else self._s.position.turn

    @property
    def expected(self) -> Color | None:
        """The player whose action is awaited; None when both (opening roll) or nobody (over)."""
        s = self._s
        if s.phase in (Phase.ROLL, Phase.MOVE):
            return s.position.turn
        if s.phase in (Phase.DOUBLED, Phase.BEAVERED):
            assert s.cube.offered_by is not None
            return s.cube.offered_by.opponent
        if s.phase is Phase.RESIGNED:
            assert s.resignation is not None
            return s.resignation.player.opponent
        return None

    @property
    def resignation(self) -> tuple[Color, ResultKind] | None:
        """The resignation offered and not yet answered: who, and what they give up."""
        r = self._s.resignation
        return None if r is None else (r.player, r.kind)

    @property
    def is_over(self) -> bool:
        """The match (or money session) has ended."""
        return self._s.phase is Phase.OVER

    @property
    def winner(self) -> Color | None:
        """Who won the match, once it is over (None for a tied money session)."""
        return self._winner

    def legal_plays(self) -> LegalPlays:
        """The legal plays of the roll to be played (empty when it cannot be played)."""
        self._require(Phase.MOVE)
        assert self._s.dice is not None
        return self._s.position.legal_plays(self._s.dice)

    @property
    def can_take_back(self) -> bool:
        """Whether the last play may still be taken back (nothing has happened since)."""
        return self._undo is not None and self._s.phase is Phase.ROLL

    def value_of(self, kind: ResultKind) -> int:
        """What the game in progress would score if it ended now as `kind` (cube, Jacoby)."""
        return self._points(kind)

    def may_double(self, player: Color) -> bool:
        """Whether `player` may double now (cube available, not the Crawford game, within the maximum)."""
        try:
            self._check_double(player)
        except MatchActionError:
            return False
        return True

    # -- actions --------------------------------------------------------------

    def opening_roll(self, white_die: int, black_die: int) -> None:
        """Each player rolls one die; equal dice are rolled again, the higher die starts."""
        self._require(Phase.OPENING)
        self._check_dice((white_die, black_die), "opening roll")
        s = self._s
        self._emit(OpeningRoll(type="opening_roll", t=self._clock(), game=self._game, white=white_die, black=black_die))
        if white_die == black_die:
            if self.options.automatic_doubles and not s.auto_doubled and s.cube.room_to_double():
                s.cube = s.cube.automatic_double()
                s.auto_doubled = True
            return
        starter = Color.WHITE if white_die > black_die else Color.BLACK
        s.position = s.position.with_turn(starter)
        s.dice = (max(white_die, black_die), min(white_die, black_die))
        s.phase = Phase.MOVE

    def roll(self, d1: int | None = None, d2: int | None = None) -> tuple[int, int]:
        """The player on roll rolls (instead of doubling): the dice given, or two thrown here
        (`random`) when none are; returns the dice.

            >>> match = Match()
            >>> match.opening_roll(3, 1)
            >>> match.play("8/5 6/5").notation()
            '8/5 6/5'
            >>> match.roll(6, 2)
            (6, 2)
        """
        self._require(Phase.ROLL)
        if d1 is None and d2 is None:
            d1, d2 = throw_dice()
        elif d1 is None or d2 is None:
            raise InvalidDice(f"roll: give both dice or none, got {d1!r} and {d2!r}", self._context())
        self._check_dice((d1, d2), "roll")
        self._s.dice = (d1, d2)
        self._s.phase = Phase.MOVE
        # a literal, not Roll(...): the same dict at a third of the cost, at every roll of a replay
        roll: Roll = {"type": "roll", "t": self._clock(), "game": self._game, "player": _name(self._s.position.turn),
                      "dice": [d1, d2]}
        self._emit(roll)
        return d1, d2

    def play(self, moves: Play | Steps | str, hits: Iterable[int] | None = None) -> Play | None:
        """The player on roll plays the dice: a `Play`, (source, target) steps, or notation.

        Steps and notation are in the mover's own numbering; a chain such as 24/14 may
        stand for both dice. They must name one legal play; `hits` (the points where the
        mover hits) settles plays that differ only by a hit on the way. No moves is
        allowed only when the roll cannot be played. A `Play` the rules engine found legal
        in this position for this roll (`legal_plays()`, `game.play_reader`) is taken as it
        is; any other is checked. Returns the play made (None for no play).
        """
        self._require(Phase.MOVE)
        s = self._s
        assert s.dice is not None
        mover = s.position.turn
        s.move_number += 1
        try:
            chosen = self._resolve(moves, hits)
        except MatchActionError:
            s.move_number -= 1
            raise
        after = (chosen.after_moves if chosen else s.position).with_rules(s.position.rules)  # a play read elsewhere
        self._played(mover, [[m.source, m.target] for m in chosen.moves] if chosen else [], after)
        return chosen

    def accept_illegal_play(self, after: Position, steps: Steps, breach: str) -> None:
        """The traditional rule: the opponent accepts an illegal play, which then stands.

        `after` is the position the play made (mover's turn), `steps` its moves and
        `breach` the rule it broke; the record keeps both (`accepted_illegal`).
        """
        self._require(Phase.MOVE)
        s = self._s
        if after.variant is not s.position.variant or after.turn is not s.position.turn:
            raise IllegalMove(f"an accepted play must leave a {s.position.variant.value} position with "
                              f"{s.position.turn.value} to move", self._context())
        after = after.with_rules(s.position.rules)  # a board read off the sensors knows no rule options
        s.move_number += 1
        self._played(s.position.turn, [[a, b] for a, b in steps], after, accepted_illegal=breach)

    def takeback(self) -> None:
        """Both players agree to take back the last play, before the opponent rolls or doubles:
        the mover plays the same dice again."""
        self._require(Phase.ROLL)
        undo = self._undo
        if undo is None or undo.phase is not Phase.MOVE:
            raise WrongPhase("there is no play to take back in this game", self._context())
        self._s, self._undo = undo, None
        self._emit(PlayerAction(type="takeback", t=self._clock(), game=self._game, player=_name(undo.position.turn)))

    def forfeit(self, player: Color, reason: str) -> None:
        """`player` loses the match (on time, or by a referee's decision); the score stands."""
        if self._s.phase is Phase.OVER:
            raise MatchOver("the match is already over", self._context())
        self._emit(Forfeit(type="forfeit", t=self._clock(), game=self._game, player=_name(player), reason=reason))
        self._winner = player.opponent
        self._finish()

    def _played(self, mover: Color, moves: list[list[int]], after: Position, accepted_illegal: str | None = None
                ) -> None:
        s = self._s
        assert s.dice is not None
        undo = s.copy()
        undo.move_number -= 1
        event: PlayMade = {"type": "play", "t": self._clock(), "game": self._game, "player": _name(mover),
                           "dice": list(s.dice), "moves": moves, "position": after.to_document()}
        if accepted_illegal is not None:
            event["accepted_illegal"] = accepted_illegal
        self._emit(event)
        self._undo = undo
        s.position = after
        s.dice = None
        result = after.result()
        if result is not None:
            self._end_game(result.winner, result.kind, "mother_checker" if after.mother_trapped() else "bearoff")
        elif after.is_remi():
            self._end_game(None, None, "remi")
        else:
            s.position = after.pass_turn()
            s.phase = Phase.ROLL

    def double(self, player: Color) -> None:
        """`player`, on roll and before rolling, offers the cube."""
        self._check_double(player)
        s = self._s
        s.cube = self._cube_op(lambda: s.cube.double(player))
        s.phase = Phase.DOUBLED
        self._emit(CubeOffer(type="double", t=self._clock(), game=self._game, player=_name(player),
                             value=2 * s.cube.value))

    def take(self, player: Color) -> None:
        """`player` accepts the pending double or beaver."""
        self._require(Phase.DOUBLED, Phase.BEAVERED, player=self.expected, actor=player)
        s = self._s
        s.cube = self._cube_op(lambda: s.cube.take(player))
        s.phase = Phase.ROLL
        self._emit(Take(type="take", t=self._clock(), game=self._game, player=_name(player), value=s.cube.value))

    def pass_(self, player: Color) -> None:
        """`player` refuses the pending double or beaver: the offerer wins the value before it."""
        self._require(Phase.DOUBLED, Phase.BEAVERED, player=self.expected, actor=player)
        points = self._s.cube.pass_points(player)
        self._emit(PlayerAction(type="pass", t=self._clock(), game=self._game, player=_name(player)))
        self._end_game(player.opponent, ResultKind.SINGLE, "pass", points)

    drop = pass_

    def beaver(self, player: Color) -> None:
        """`player`, just doubled, takes and at once redoubles, keeping the cube (money play)."""
        if not self.options.beavers:
            raise OptionDisabled(f"{player.value} cannot beaver: this {self._kind_of_play()} "
                                 f"plays no beavers", self._context())
        self._require(Phase.DOUBLED, player=self.expected, actor=player)
        s = self._s
        s.cube = self._cube_op(lambda: s.cube.beaver(player))
        s.phase = Phase.BEAVERED
        self._emit(CubeOffer(type="beaver", t=self._clock(), game=self._game, player=_name(player),
                             value=2 * s.cube.value))

    def resign(self, player: Color, kind: ResultKind | str = ResultKind.SINGLE) -> None:
        """`player` offers to lose the game as a single game, gammon or triple (at any time in a game,
        before its opening roll too: a player who does not want to play it)."""
        if isinstance(kind, str):
            kind = kind_from_name(kind, self.variant)
        self._require(Phase.OPENING, Phase.ROLL, Phase.MOVE)
        s = self._s
        s.resignation = _Resignation(player, ResultKind(kind), s.phase)
        s.phase = Phase.RESIGNED
        self._emit(Resign(type="resign", t=self._clock(), game=self._game, player=_name(player),
                          kind=kind_name(kind, self.variant)))

    def accept_resignation(self, player: Color) -> None:
        """`player` accepts the opponent's resignation: the game ends at what was offered."""
        self._require(Phase.RESIGNED, player=self.expected, actor=player)
        r = self._s.resignation
        assert r is not None
        self._emit(PlayerAction(type="resign_accept", t=self._clock(), game=self._game, player=_name(player)))
        self._end_game(player, r.kind, "resign")

    def decline_resignation(self, player: Color) -> None:
        """`player` declines the opponent's resignation: the game goes on where it was."""
        self._require(Phase.RESIGNED, player=self.expected, actor=player)
        r = self._s.resignation
        assert r is not None
        self._s.phase, self._s.resignation = r.resume, None
        self._emit(PlayerAction(type="resign_decline", t=self._clock(), game=self._game, player=_name(player)))

    def stop(self) -> None:
        """End a money session between games (before the next opening roll)."""
        if self.length is not None:
            raise WrongPhase(f"a match ends when a player reaches {self.length}, it is not stopped",
                             self._context())
        self._require(Phase.OPENING)
        white, black = self._score
        self._winner = None if white == black else Color.WHITE if white > black else Color.BLACK
        self._finish()

    # -- internals ------------------------------------------------------------

    def _resolve(self, moves: Play | Steps | str, hits: Iterable[int] | None) -> Play | None:
        s = self._s
        assert s.dice is not None
        try:
            if isinstance(moves, Play):
                if moves.legal_in(s.position, s.dice):
                    return moves  # the rules engine found it legal here (its legal plays, the play reader)
                return _match_play(s.position, s.dice, moves)
            return read_play(s.position, s.dice, WrittenPlay.of(moves if isinstance(moves, str) else list(moves),
                                                                None if hits is None else frozenset(hits)))
        except IllegalMove as exc:
            raise IllegalMove(exc.reason, self._context()) from None
        except IllegalPlayError as exc:
            raise IllegalMove(str(exc), self._context()) from None

    def _check_double(self, player: Color) -> None:
        self._require(Phase.ROLL, player=self.expected, actor=player)
        if self._crawford:
            raise CrawfordNoDouble(f"{player.value} cannot double in the Crawford game", self._context())
        self._cube_op(lambda: self._s.cube.double(player))

    def _cube_op(self, op: Callable[[], Cube]) -> Cube:
        try:
            return op()
        except MatchActionError as exc:
            raise type(exc)(exc.reason, self._context()) from None

    def _require(self, *phases: Phase, player: Color | None = None, actor: Color | None = None) -> None:
        phase = self._s.phase
        if phase is Phase.OVER:
            raise MatchOver(f"the {self._kind_of_play()} is over", self._context())
        if phase not in phases:
            wanted = " or ".join(p.value for p in phases)
            raise WrongPhase(f"this action needs phase {wanted}, the phase is {phase.value}: "
                             f"{self._awaiting()}", self._context())
        if actor is not None and player is not None and actor is not player:
            raise NotYourTurn(f"{actor.value} cannot act now: {self._awaiting()}", self._context())

    def _check_dice(self, dice: tuple[int, int], what: str) -> None:
        try:
            check_dice(dice)
        except GameError as exc:
            raise InvalidDice(f"{what}: {exc}", self._context()) from None

    def _awaiting(self) -> str:
        s = self._s
        who = self.expected.value if self.expected else ""
        return {
            Phase.OPENING: "waiting for the opening roll",
            Phase.ROLL: f"{who} to double or roll",
            Phase.MOVE: f"{who} to play {s.dice[0]}{s.dice[1]}" if s.dice else "",
            Phase.DOUBLED: f"{who} to take or pass",
            Phase.BEAVERED: f"{who} to take or pass the beaver",
            Phase.RESIGNED: f"{who} to accept or decline the resignation",
            Phase.OVER: "nothing: it is over",
        }[s.phase]

    def _context(self) -> str:
        """Where the match stands, enough to reproduce an error."""
        s = self._s
        parts = [f"game {self._game}", f"score white {self._score[0]} black {self._score[1]}"
                 + (f" of {self.length}" if self.length else " (money)")]
        if self._crawford:
            parts.append("Crawford game")
        parts.append(f"move {s.move_number}")
        parts.append(f"cube {s.cube.value}" + (f" owned by {s.cube.owner.value}" if s.cube.owner else ""))
        if s.dice:
            parts.append(f"dice {s.dice[0]}{s.dice[1]}")
        parts.append(f"position {s.position.to_json()}")
        return ", ".join(parts)

    def _kind_of_play(self) -> str:
        return "money session" if self.length is None else "match"

    def _emit(self, event: MatchEvent) -> None:
        self._undo = None  # only the play just made can be taken back, before anything else happens
        self._events.append(event)

    def _points(self, kind: ResultKind) -> int:
        s = self._s
        if self.options.jacoby and self.length is None and s.cube.centred:
            kind = ResultKind.SINGLE  # Jacoby: gammons count only once the cube was turned
        return s.cube.value * int(kind)

    def _end_game(self, winner: Color | None, kind: ResultKind | None, reason: str,
                  points: int | None = None) -> None:
        s = self._s
        if points is None:
            points = 0 if winner is None or kind is None else self._points(kind)
        if winner is not None:
            self._score[winner.index] += points
            if self._crawford:
                self._crawford_done = True
        name = "remi" if kind is None else kind_name(kind, self.variant)
        summary = GameSummary(self._game, winner, name, points, reason, self.score)
        self._games.append(summary)
        s.phase, s.dice, s.resignation = Phase.OVER, None, None
        self._emit(GameEnd(type="game_end", t=self._clock(), game=self._game,
                           winner=_name(winner) if winner else None, kind=name, points=points, reason=reason,
                           score=_score_doc(self.score)))
        if self.length is not None and winner is not None and self._score[winner.index] >= self.length:
            self._winner = winner
            self._finish()
        else:
            self._start_game()

    def _finish(self) -> None:
        self._s.phase = Phase.OVER
        self._emit(MatchEnd(type="match_end", t=self._clock(), winner=_name(self._winner) if self._winner else None,
                            score=_score_doc(self.score)))

    def _start_game(self) -> None:
        self._game += 1
        white, black = self._score
        if self.length is not None and not self._crawford_done:
            self._crawford = (white == self.length - 1) != (black == self.length - 1)
        else:
            self._crawford = False
        self._s = _State(Position.initial(self.variant, rules=self.options.rules),
                         Cube(max_value=self.options.max_cube))
        self._undo = None
        self._emit(GameStart(type="game_start", t=self._clock(), game=self._game, score=_score_doc(self.score),
                             crawford=self._crawford, position=self._s.position.to_document()))

    def events_from(self, index: int) -> list[MatchEvent]:
        """The events from number `index` on (0 = match_start)."""
        return self._events[index:]

    @property
    def event_count(self) -> int:
        """How many events the match has emitted."""
        return len(self._events)

    def restore_game(self, game: int, score: Score, crawford: bool | None = None) -> None:
        """Start game `game` afresh at `score`, as a record says: for a reader that goes on after a
        problem left the rules behind, or a record that starts mid-match. `crawford` says whether
        this game is the Crawford game (None: as the rules derive it). A game restored before anything
        happened in the one in progress takes its place (its start is not kept)."""
        if self._events and self._events[-1]["type"] == "game_start":
            self._events.pop()
        self._winner = None
        self._score = [score[0], score[1]]
        self._game = game - 1
        if crawford is not None and self.length is not None:
            self._crawford_done = not crawford and self.length - 1 in score
        self._start_game()


def _match_play(position: Position, dice: tuple[int, int], play: Play) -> Play | None:
    """The legal play leading to `play.after_moves`, its moves (if given) agreeing."""
    if play.moves and play.after_moves.turn is position.turn:
        done = complete_play(position, dice, play.moves)
        if done is not None and done[0] == encode(play.after_moves):
            return Play(done[1], play.after_moves)  # legal single moves using every die: no search needed
    legal = legal_states(position, dice)
    if not legal and not play.moves and play.after_moves == position:
        return None
    moves = legal.get(encode(play.after_moves)) if play.after_moves.turn is position.turn else None
    if moves is None:
        raise IllegalMove(f"{play.notation()} (to the recorded position) is not a legal play of "
                          f"{dice[0]}{dice[1]}")
    if play.moves and _flow(moves) != _flow(play.moves):
        raise IllegalMove(f"the moves {play.notation()} do not lead to the recorded position "
                          f"(the legal play to it is {format_moves(moves)})")
    return Play(moves, play.after_moves)


def _score_doc(score: Score) -> ScoreDoc:
    return {"white": score[0], "black": score[1]}


def _name(color: Color) -> PlayerName:
    return "white" if color is Color.WHITE else "black"


def _flow_of_steps(steps: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    """Checkers leaving (-) and arriving (+) per point; points a chain passes through cancel."""
    flow: dict[int, int] = {}
    for source, target in steps:
        flow[source] = flow.get(source, 0) - 1
        flow[target] = flow.get(target, 0) + 1
    return frozenset(item for item in flow.items() if item[1])


def _flow(moves: Iterable[Move]) -> frozenset[tuple[int, int]]:
    return _flow_of_steps((m.source, m.target) for m in moves)
