"""Replaying a chouette record through the rules: validation, and resuming a session at the table.

A `ChouetteReplayer` is fed the record's events one by one. Each action is applied to a
`ChouetteSession`; the events the session derives (settlements, captain changes, game ends,
rotations, the next game's start) must follow in the record with the same fields, the time
stamp aside. A problem is reported with its line, game, move and position; in strict mode it
is raised as `ReplayError`, otherwise the rest of that game is skipped and the next
`game_start` is taken at its word. Event types of other layers (the controller's) are counted
and ignored.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from game.board import Variant
from game.errors import GameError, MatchActionError, RecordError, ReplayError
from game.plays import Move, Play
from game.position import Position
from game.replay import Problem, _dice, _int, _short
from game.xgid import Xgid

from .events import ACTIONS, DERIVED, EVENT_TYPES, ChouetteEvent
from .options import ChouetteOptions
from .roster import Roster
from .session import ChouetteSession, Phase

NOT_COMPARED = frozenset({"t", "type", "prev"})


def replay_session(events: Iterable[Mapping[str, Any]]) -> ChouetteSession:
    """The session of a record; raises `ReplayError` at the first problem (a cut end included)."""
    replayer = ChouetteReplayer(strict=True)
    for number, event in enumerate(events, 1):
        replayer.feed(event, number)
    replayer.finish()
    return replayer.result()


def resume(events: Iterable[Mapping[str, Any]]) -> tuple[ChouetteSession, list[ChouetteEvent]]:
    """The session of a record cut anywhere (a table killed mid-game), and the derived events its
    last action still owes the record (write them before going on). Raises `ReplayError` when
    the record holds an illegal event."""
    replayer = ChouetteReplayer(strict=True)
    for number, event in enumerate(events, 1):
        replayer.feed(event, number)
    return replayer.result(), replayer.owed


class ChouetteReplayer:
    """Feeds events to a `ChouetteSession`, checks what it derives, and collects problems."""

    def __init__(self, *, strict: bool = False) -> None:
        self.strict = strict
        self.session: ChouetteSession | None = None
        self.problems: list[Problem] = []
        self.unknown: Counter[str] = Counter()
        self.skipped_games: list[int] = []
        self._pending: deque[ChouetteEvent] = deque()
        self._skipping = False
        self._dead = False
        self._now = 0.0

    @property
    def owed(self) -> list[ChouetteEvent]:
        """Derived events the rules gave that the record has not (yet) shown."""
        return list(self._pending)

    def result(self) -> ChouetteSession:
        """The session replayed so far."""
        if self.session is None:
            raise ReplayError(Problem("the record holds no chouette_start event"))
        return self.session

    def report(self, rule: str, line: int | None = None, *, game: Any = None, skip: bool = True) -> None:
        """Record a problem where the session stands; skip the rest of the game if `skip`.

        `game` is the game the faulty event names, when the rules have already gone on to the
        next one (a wrong `settle` is seen after its game has ended by the rules).
        """
        s = self.session
        problem = Problem(rule, line)
        if s is not None:
            number = game if isinstance(game, int) and not isinstance(game, bool) else s.game_number
            in_game = number == s.game_number and s.phase in (Phase.ROLL, Phase.DOUBLED, Phase.MOVE)
            problem = (Problem(rule, line, number, s.move_number + 1, position_text(s)) if in_game
                       else Problem(rule, line, number or None))
        if self.strict:
            raise ReplayError(problem)
        self.problems.append(problem)
        if skip and s is not None:
            self._skipping = True
            self._pending.clear()
            if problem.game and problem.game not in self.skipped_games and s.phase is not Phase.SEATING:
                self.skipped_games.append(problem.game)

    def feed(self, event: Mapping[str, Any], line: int | None = None) -> None:
        """Apply (or check) one event of the record, read at `line`."""
        kind = event.get("type") if isinstance(event, Mapping) else None
        if not isinstance(kind, str) or kind not in EVENT_TYPES:
            self.unknown[str(kind)] += 1
            return
        if self._dead:
            return
        stamp = event.get("t")
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
            self._now = float(stamp)
        if self.session is None:
            self._start(event, line)
            return
        if self._skipping:
            if kind == "game_start":
                self._resync(event, line)
            return
        try:
            if kind == "chouette_start":
                raise RecordError("a second chouette_start: one record holds one session")
            if kind in DERIVED:
                self._derived(event)
            else:
                assert kind in ACTIONS
                self._action(event)
        except MatchActionError as exc:
            self.report(exc.reason, line, game=event.get("game"))
        except GameError as exc:
            self.report(str(exc), line, game=event.get("game"))

    def finish(self) -> None:
        """The record has ended: derived events still owed are a problem (the record was cut)."""
        if self._pending and not self._skipping:
            missing = ", ".join(e["type"] for e in self._pending)
            self.report(f"the record ends without {missing}", None, skip=False)

    # -- the steps ---------------------------------------------------------------------

    def _start(self, event: Mapping[str, Any], line: int | None) -> None:
        if event.get("type") != "chouette_start":
            self.report(f"a chouette record begins with chouette_start, got {event.get('type')}", line)
            self._dead = True
            return
        try:
            players = event.get("players")
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise RecordError(f"players must be a list of names, got {players!r}")
            self.session = ChouetteSession(players, Variant(event.get("variant", "backgammon")),
                                           ChouetteOptions.from_document(event.get("options", {})),
                                           clock=lambda: self._now)
            self._compare(self.session.events[0], event)
        except (GameError, ValueError) as exc:
            self.report(f"cannot start the session: {exc}", line)
            self._dead = True

    def _derived(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        if not self._pending:
            raise MatchActionError(f"the record has {kind} where the rules have none "
                                   f"({self._session().awaiting().describe()})")
        expected = self._pending.popleft()
        if expected["type"] != kind:
            raise MatchActionError(f"the record has {kind} where the rules have {expected['type']}")
        self._compare(expected, event)

    def _action(self, event: Mapping[str, Any]) -> None:
        s = self._session()
        if self._pending:
            missing = ", ".join(e["type"] for e in self._pending)
            raise MatchActionError(f"the record lacks {missing} before this {event['type']}")
        kind = event["type"]
        before = s.event_count
        if kind == "seat_throw":
            s.throw(_text(event, "player"), _int(event, "die"))
        elif kind in ("join", "leave"):
            getattr(s, kind)(_text(event, "player"))
        elif kind == "partner":
            s.take_partner(_text(event, "player"))
        elif kind == "opening_roll":
            s.opening_roll(_int(event, "team"), _int(event, "box"))
        elif kind == "roll":
            s.roll(*_dice(event))
        elif kind == "play":
            self._play(s, event)
        elif kind == "takeback":
            s.takeback()
        elif kind == "session_end":
            s.stop()
        else:  # a cube action: the box's when the box acts, else the member's
            member = _text(event, "member")
            by_box = _text(event, "player") == s.box
            verb = {"double": "double", "take": "take", "pass": "pass_", "beaver": "beaver"}[kind]
            getattr(s, ("box_" + verb.rstrip("_")) if by_box else verb)(member)
        own, *derived = s.events_from(before)
        self._compare(own, event)
        self._pending.extend(derived)

    def _play(self, s: ChouetteSession, event: Mapping[str, Any]) -> None:
        moves = event.get("moves")
        if not isinstance(moves, list) or not all(
                isinstance(m, list) and len(m) == 2 and all(isinstance(p, int) for p in m) for m in moves):
            raise RecordError(f"play moves must be a list of [from, to] pairs, got {moves!r}")
        position = Position.from_document(event.get("position"))
        if "accepted_illegal" in event:
            s.accept_illegal_play(position, [(a, b) for a, b in moves], str(event["accepted_illegal"]))
        else:
            s.play(Play(tuple(Move(a, b) for a, b in moves), position))

    def _compare(self, expected: ChouetteEvent, recorded: Mapping[str, Any]) -> None:
        """The rules' event against the record's, every field but the time stamp, which it takes."""
        stamp = recorded.get("t")
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
            expected["t"] = float(stamp)
        wrong = []
        for key, value in expected.items():
            if key in NOT_COMPARED:
                continue
            if key not in recorded:
                wrong.append(f"lacks '{key}' (rules: {_short(value)})")
            elif recorded[key] != value:
                wrong.append(f"'{key}' is {_short(recorded[key])}, the rules give {_short(value)}")
        if wrong:
            raise MatchActionError(f"{expected['type']}: " + "; ".join(wrong))

    def _resync(self, event: Mapping[str, Any], line: int | None) -> None:
        s = self._session()
        try:
            game, box, roster_line = event.get("game"), event.get("box"), event.get("line")
            totals = event.get("totals")
            if not (isinstance(game, int) and isinstance(box, str) and isinstance(roster_line, list)
                    and isinstance(totals, Mapping)):
                raise RecordError("game_start needs 'game', 'box', 'line' and 'totals' to carry on")
            points = {str(k): Fraction(v) for k, v in totals.items() if isinstance(v, (int, float))}
            s.restore_game(game, Roster(box, tuple(str(p) for p in roster_line)), points)
            self._skipping = False
            self._pending.clear()
            self._compare(s.events[-1], event)
        except (GameError, ValueError) as exc:
            self.report(str(exc), line)

    def _session(self) -> ChouetteSession:
        assert self.session is not None
        return self.session


def is_chouette_record(events: Iterable[Mapping[str, Any] | None]) -> bool:
    """Whether a record holds a chouette session: its first event, after the line naming a table's
    key (a table's journal begins with it), is `chouette_start`."""
    for event in events:
        if event is not None and event.get("type") == "table_key":
            continue
        return event is not None and event.get("type") == "chouette_start"
    return False


def position_text(s: ChouetteSession) -> str:
    """The position to show in a problem: an XGID for Backgammon, else the JSON document."""
    if s.variant is not Variant.BACKGAMMON:
        return s.position.to_json()
    return str(Xgid(s.position, dice=s.dice, match_length=0))


def _text(event: Mapping[str, Any], key: str) -> str:
    value = event.get(key)
    if not isinstance(value, str):
        raise RecordError(f"'{key}' must be a player's name, got {value!r}")
    return value
