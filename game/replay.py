"""Replaying recorded events through the rules: `Match.replay`, `import_mat` and `validate`.

A `Replayer` is fed the events of a record one by one. Each action event is
applied to a `Match`; the events the match derives (`game_start`, `game_end`,
`match_end`) must then appear in the record with the same fields, timestamps
and unknown fields aside. A problem (an illegal action, a wrong score, a missing
event) is reported with its line, game, move and position; in strict mode it is
raised as `ReplayError`, otherwise the replayer skips to the next `game_start`
and carries on from the score the record gives there.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from game.board import Color, Variant
from game.errors import GameError, MatchActionError, RecordError, ReplayError
from game.events import MatchEvent
from game.match import Match, MatchOptions, Phase
from game.plays import Move, Play
from game.position import Position

ACTIONS = frozenset({"opening_roll", "roll", "play", "double", "take", "pass", "beaver", "resign",
                     "resign_accept", "resign_decline", "takeback", "forfeit"})
DERIVED = frozenset({"game_start", "game_end", "match_end"})
MAT_WINS = "mat_wins"  # a .mat "Wins N points" line (game.transcripts reads it): a resignation, or a game's end
UNREADABLE = "unreadable"  # a line of a .mat that cannot be read: a problem at that line
KNOWN = ACTIONS | DERIVED | {"match_start", MAT_WINS, UNREADABLE}
E = TypeVar("E", bound=Mapping[str, Any])


class Problem(NamedTuple):
    """Something in a record that the rules do not allow, and where it is.

    A NamedTuple, not a dataclass: made at every start of `python -m game`, it costs about an eighth as
    much.
    """

    rule: str
    line: int | None = None
    game: int | None = None
    move: int | None = None
    position: str | None = None  # XGID for Backgammon, else the JSON position document

    def describe(self) -> str:
        """The problem in one line, with where it is (line, game, move)."""
        where = ", ".join(f"{name} {value}" for name, value in
                          (("line", self.line), ("game", self.game), ("move", self.move))
                          if value is not None)
        text = f"{where}: {self.rule}" if where else self.rule
        return text + (f"\n    position: {self.position}" if self.position else "")


class EventReplayer(Generic[E]):
    """What replaying any record through its rules is: events fed one by one, each action applied
    to the rules' state, the events the rules derive expected next in the record with the same
    fields, problems reported where they stand. `Replayer` (a match) and the chouette's replayer
    (a session) say how to start, act, derive and carry on after a problem.

    In strict mode a problem raises `ReplayError`; otherwise the rest of its game is skipped and
    the next `game_start` is taken at its word. `lenient` (for .mat transcripts) compares only
    the fields a record event has and lets derived events be missing.
    """

    start_type: ClassVar[str]
    """The event a record begins with."""
    holds: ClassVar[str]
    """What one record holds (for the problem of a second start)."""
    event_types: ClassVar[frozenset[str]]
    """The event types this replayer reads; others (another layer's) are counted and ignored."""
    not_compared: ClassVar[frozenset[str]] = frozenset({"t", "type"})

    def __init__(self, *, strict: bool = False, lenient: bool = False) -> None:
        self.strict = strict
        self.lenient = lenient
        self.problems: list[Problem] = []
        self.unknown: Counter[str] = Counter()
        self.skipped_games: list[int] = []
        self._pending: deque[E] = deque()
        self._skipping = False
        self._dead = False
        self._now = 0.0

    @property
    def started(self) -> bool:
        """The record's start event has been read."""
        raise NotImplementedError

    @property
    def skipping(self) -> bool:
        """A problem has left the rules behind: events are ignored until the next game starts."""
        return self._skipping

    def report(self, rule: str, line: int | None = None, *, game: Any = None, skip: bool = True) -> None:
        """Record a problem where the rules stand; skip the rest of the game if `skip`."""
        raise NotImplementedError

    def feed(self, event: Mapping[str, Any], line: int | None = None) -> None:
        """Replay one event of the record (`line`: where it stands, for the problems found)."""
        kind = event.get("type") if type(event) is dict or isinstance(event, Mapping) else None
        if not isinstance(kind, str) or kind not in self.event_types:
            self.unknown[str(kind)] += 1
            return
        if self._dead:
            return
        stamp = event.get("t")
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
            self._now = float(stamp)
        if not self.started:
            self._start(event, line)
            return
        if kind == self.start_type:
            self.report(f"a second {kind}: one record holds one {self.holds}", line)
            return
        if kind == UNREADABLE:
            self.report(str(event.get("rule", "unreadable line")), line)
            return
        if self._skipping:
            if kind == "game_start":
                self._resync(event, line)
            return
        try:
            self._step(kind, event, line)
        except MatchActionError as exc:
            self.report(exc.reason, line, game=event.get("game"))
        except GameError as exc:
            self.report(str(exc), line, game=event.get("game"))

    def finish(self) -> None:
        """The record has ended: derived events still owed are a problem (the record was cut),
        unless the replay is lenient."""
        if self._pending and not self.lenient and not self._skipping:
            missing = ", ".join(e["type"] for e in self._pending)
            self.report(f"the record ends without {missing}", None, skip=False)

    def _start(self, event: Mapping[str, Any], line: int | None) -> None:
        raise NotImplementedError

    def _step(self, kind: str, event: Mapping[str, Any], line: int | None) -> None:
        raise NotImplementedError

    def _resync(self, event: Mapping[str, Any], line: int | None) -> None:
        raise NotImplementedError

    def _expected(self, kind: str, awaiting: Callable[[], str]) -> E:
        """The derived event the rules owe, which the record's `kind` event must be."""
        if not self._pending:
            raise MatchActionError(f"the record has {kind} where the rules have none ({awaiting()})")
        expected = self._pending.popleft()
        if expected["type"] != kind:
            raise MatchActionError(f"the record has {kind} where the rules have {expected['type']}")
        return expected

    def _nothing_owed(self, kind: str) -> None:
        """Before an action: the derived events the rules gave must all be in the record."""
        if self._pending:
            if not self.lenient:
                missing = ", ".join(e["type"] for e in self._pending)
                raise MatchActionError(f"the record lacks {missing} before this {kind}")
            self._pending.clear()

    def _compare(self, expected: E, recorded: Mapping[str, Any]) -> None:
        """The rules' event against the record's, every field but the time stamp, which it takes."""
        stamp = recorded.get("t")
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and isinstance(expected, dict):
            expected["t"] = stamp  # the rules' event (a dict at run time, a TypedDict) keeps the record's time
        wrong = []
        not_compared, lenient = self.not_compared, self.lenient
        for key, value in expected.items():
            if key in not_compared:
                continue
            if key not in recorded:
                if not lenient:
                    wrong.append(f"lacks '{key}' (rules: {_short(value)})")
                continue
            if recorded[key] != value:
                wrong.append(f"'{key}' is {_short(recorded[key])}, the rules give {_short(value)}")
        if wrong:
            raise MatchActionError(f"{expected['type']}: " + "; ".join(wrong))


def replay(events: Iterable[Mapping[str, Any]]) -> Match:
    """Rebuild the match of a record; raises `ReplayError` at the first problem."""
    replayer = Replayer(strict=True)
    for number, event in enumerate(events, 1):
        replayer.feed(event, number)
    return replayer.result()


class Replayer(EventReplayer[MatchEvent]):
    """Feeds events to a `Match`, checks what it derives, and collects problems.

    `lenient` (for .mat transcripts) compares only the fields a record event has and
    lets derived events be missing; a JSON record must have them all.
    """

    start_type = "match_start"
    holds = "match"
    event_types = KNOWN

    def __init__(self, *, strict: bool = False, lenient: bool = False) -> None:
        super().__init__(strict=strict, lenient=lenient)
        self.match: Match | None = None
        self.notes: list[Problem] = []  # what a careful referee remarks on without calling it a problem

    @property
    def started(self) -> bool:
        """The record's match_start has been read."""
        return self.match is not None

    def result(self) -> Match:
        """The match as replayed so far (ReplayError if the record started none)."""
        if self.match is None:
            raise ReplayError(Problem("the record holds no match_start event"))
        return self.match

    def report(self, rule: str, line: int | None = None, *, game: Any = None, skip: bool = True) -> None:
        """Record a problem at the match's current place; skip the rest of the game if `skip`.

        `game` is the game the faulty event names, when it is not the one in play (a
        wrong `game_end` is seen after the rules have started the next game).
        """
        m = self.match
        problem = Problem(rule, line)
        in_game = m is not None and m.phase not in (Phase.OPENING, Phase.OVER)
        if m is not None and (not isinstance(game, int) or game == m.game_number) and in_game:
            problem = Problem(rule, line, m.game_number, m.move_number + 1, position_text(m))
        elif m is not None:
            problem = Problem(rule, line, game if isinstance(game, int) else m.game_number)
        if self.strict:
            raise ReplayError(problem)
        self.problems.append(problem)
        if skip and m is not None:
            self._skipping = True
            self._pending.clear()
            if in_game and problem.game == m.game_number and m.game_number not in self.skipped_games:
                self.skipped_games.append(m.game_number)

    def note(self, rule: str, line: int | None = None, game: int | None = None) -> None:
        """Remark on something read at the match's current place, without calling it a problem;
        `game` names the game remarked on where it is already over (its result line, read after its
        last play, when the next game has begun)."""
        m = self.match
        if game is not None:
            self.notes.append(Problem(rule, line, game))
        elif m is not None and m.phase not in (Phase.OPENING, Phase.OVER):
            self.notes.append(Problem(rule, line, m.game_number, m.move_number + 1, position_text(m)))
        else:
            self.notes.append(Problem(rule, line, m.game_number if m is not None else None))

    def start_midway(self, game: int, score: tuple[int, int], crawford: bool | None = None) -> None:
        """The record starts in the middle of a match: game `game` at `score` (white, black);
        `crawford` whether it is the Crawford game (None: as the rules derive it from the score)."""
        m = self._match()
        m.restore_game(game, score, crawford)
        self._pending.clear()
        self._pending.extend(m.events_from(m.event_count - 1))  # the game_start the record's is compared with

    def _step(self, kind: str, event: Mapping[str, Any], line: int | None) -> None:
        if kind in DERIVED:
            self._derived(event, line)
        elif kind == MAT_WINS:
            self._wins(event, line)
        else:
            self._action(event, line)

    # -- the steps ----------------------------------------------------------------

    def _start(self, event: Mapping[str, Any], line: int | None) -> None:
        if event.get("type") != "match_start":
            self.report(f"the record must begin with match_start, got {event.get('type')}", line)
            self._dead = True
            return
        try:
            players = event.get("players", {})
            if not isinstance(players, Mapping):
                raise RecordError(f"players must be an object, got {players!r}")
            self.match = Match(
                Variant(event.get("variant", "backgammon")), event.get("length") or None,
                MatchOptions.from_document(event.get("options", {})),
                (str(players.get("white", "White")), str(players.get("black", "Black"))),
                clock=lambda: self._now)
        except (GameError, ValueError) as exc:
            self.report(f"cannot start the match: {exc}", line)
            self._dead = True
            return
        start, *derived = self.match.events_from(0)
        self._compare(start, event)
        self._pending.extend(derived)

    def _derived(self, event: Mapping[str, Any], line: int | None) -> None:
        m = self._match()
        kind = event["type"]
        if kind == "match_end" and not self._pending and m.length is None and m.phase is Phase.OPENING:
            self._run(lambda: m.stop(), event, line)
            return
        expected = self._expected(kind, m._awaiting)
        if kind == "game_start" and m.event_count == 2 and self._starts_midway(expected, event, line):
            return
        if kind == "game_start" and self._other_start(expected, event, line):
            return
        self._compare(expected, event)

    def _other_start(self, expected: MatchEvent, event: Mapping[str, Any], line: int | None) -> bool:
        """A game start that differs from the rules' and is taken anyway (a transcript's replayer
        takes some); the record's is compared otherwise."""
        return False

    def _starts_midway(self, expected: MatchEvent, event: Mapping[str, Any], line: int | None) -> bool:
        """The record's first game is not the rules' first: it starts in the middle of a match."""
        score, game = event.get("score"), event.get("game")
        if not isinstance(score, Mapping) or not isinstance(game, int) or game < 1:
            return False
        white, black = score.get("white"), score.get("black")
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (white, black)):
            return False
        assert isinstance(white, int) and isinstance(black, int)
        if (game, white, black) == (1, 0, 0):
            return False
        crawford = event.get("crawford")
        self.start_midway(game, (white, black), crawford if isinstance(crawford, bool) else None)
        self._compare(self._pending.popleft(), event)
        self.note(f"the record starts in the middle of the match: game {game} at white {white} black {black}"
                  + (", after the Crawford game" if crawford is False else ""), line)
        return True

    def _wins(self, event: Mapping[str, Any], line: int | None) -> None:
        """A .mat result line: only a transcript's replayer (game.transcripts) reads them."""
        raise RecordError("a .mat 'Wins' line is no event of a record")

    def _action(self, event: Mapping[str, Any], line: int | None) -> None:
        m = self.match  # not self._match(): at every event
        assert m is not None
        kind = event["type"]
        self._nothing_owed(kind)
        if kind in ("roll", "play") and "player" in event:
            actor = event_color(event, "player")
            if m.phase in (Phase.ROLL, Phase.MOVE) and actor is not m.on_roll:
                turn = m.on_roll.value if m.on_roll else "nobody"
                raise MatchActionError(f"{actor.value} cannot {kind}: it is {turn}'s turn")
        if kind == "opening_roll":
            self._run(lambda: m.opening_roll(_int(event, "white"), _int(event, "black")), event, line)
        elif kind == "roll":
            dice = _dice(event)
            self._run(lambda: m.roll(*dice), event, line)
        elif kind == "play":
            self._play(m, event, line)
        elif kind == "resign":
            self._run(lambda: m.resign(event_color(event, "player"), event.get("kind", "")), event, line)
        elif kind == "takeback":
            self._run(m.takeback, event, line)
        elif kind == "forfeit":
            self._run(lambda: m.forfeit(event_color(event, "player"), str(event.get("reason", ""))), event, line)
        else:
            player = event_color(event, "player")
            method = {"double": m.double, "take": m.take, "pass": m.pass_, "beaver": m.beaver,
                      "resign_accept": m.accept_resignation, "resign_decline": m.decline_resignation}[kind]
            self._run(lambda: method(player), event, line)

    def _play(self, m: Match, event: Mapping[str, Any], line: int | None) -> None:
        if "resolved" in event:  # a .mat play already read by game.transcripts (a Play, or None for none)
            chosen = event["resolved"]
            self._run(lambda: m.play(chosen if isinstance(chosen, Play) else []), event, line)
            return
        if "text" in event:  # notation with hits marked by "*"
            text = str(event["text"])
            self._run(lambda: m.play(text), event, line)
            return
        moves = event.get("moves")
        if not isinstance(moves, list) or not all(
                isinstance(s, list) and len(s) == 2 and all(isinstance(p, int) for p in s) for s in moves):
            raise RecordError(f"play moves must be a list of [from, to] pairs, got {moves!r}")
        position = Position.from_document(event.get("position"))
        if m.phase is Phase.MOVE and position.turn is not m.position.turn:
            raise MatchActionError("the position after a play keeps the mover's turn; "
                                   f"the record gives {position.turn.value}")
        if "accepted_illegal" in event:  # the traditional rule: the opponent let it stand
            breach = str(event["accepted_illegal"])
            self._run(lambda: m.accept_illegal_play(position, [(s, t) for s, t in moves], breach), event, line)
            return
        play = Play(tuple(Move(s, t) for s, t in moves), position)
        self._run(lambda: m.play(play), event, line)

    def _run(self, action: Any, event: Mapping[str, Any], line: int | None) -> None:
        m = self.match
        assert m is not None
        before = m.event_count
        action()
        own, *derived = m.events_from(before)
        self._compare(own, event)
        self._pending.extend(derived)

    def _resync(self, event: Mapping[str, Any], line: int | None) -> None:
        m = self._match()
        score, game = event.get("score"), event.get("game")
        if not isinstance(game, int) or not isinstance(score, Mapping):
            self.report("game_start needs 'game' and 'score' to carry on", line)
            return
        crawford = event.get("crawford")
        m.restore_game(game, (int(score.get("white", 0)), int(score.get("black", 0))),
                  crawford if isinstance(crawford, bool) else None)
        self._skipping = False
        self._pending.clear()
        try:
            self._compare(m.events_from(m.event_count - 1)[0], event)
        except MatchActionError as exc:
            self.report(exc.reason, line)

    def _match(self) -> Match:
        assert self.match is not None
        return self.match


def position_text(m: Match) -> str:
    """The position to show in a problem: an XGID for Backgammon, else the JSON document."""
    position = m.position
    if position.variant is not Variant.BACKGAMMON or position.rules:
        return position.to_json()
    from game.xgid import Xgid  # only a record with a problem or a note needs the XGID

    cube = m.cube
    return str(Xgid(position, cube_value=cube.value, cube_owner=cube.owner, dice=m.dice,
                    cube_action="D" if cube.offered else "", score=m.score, match_length=m.length or 0,
                    crawford=m.crawford, jacoby=m.options.jacoby, beavers=m.options.beavers,
                    max_cube=m.options.max_cube or 1024))


def _short(value: Any) -> str:
    if isinstance(value, Mapping) and "points" in value:
        return "a different position"
    return repr(value)


def event_color(event: Mapping[str, Any], key: str) -> Color:
    """The colour an event names under `key`; `RecordError` when it names none."""
    named = event.get(key)
    color = _COLORS.get(named) if type(named) is str else named if isinstance(named, Color) else None
    if color is None:  # looked up by value: Color(...) costs more, at every event
        raise RecordError(f"'{key}' must be \"white\" or \"black\", got {named!r}")
    return color


_COLORS = {color.value: color for color in Color}


def _int(event: Mapping[str, Any], key: str) -> int:
    value = event.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"'{key}' must be a whole number, got {value!r}")
    return value


def _dice(event: Mapping[str, Any]) -> tuple[int, int]:
    dice = event.get("dice")
    if not isinstance(dice, list) or len(dice) != 2 or not (isinstance(dice[0], int) and isinstance(dice[1], int)):
        raise RecordError(f"'dice' must be [d1, d2], got {dice!r}")
    return dice[0], dice[1]
