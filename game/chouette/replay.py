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

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from game.board import Variant
from game.errors import GameError, RecordError, ReplayError
from game.plays import Move, Play
from game.position import Position
from game.replay import EventReplayer, Problem, _dice, _int
from game.xgid import Xgid

from .events import ACTIONS, DERIVED, EVENT_TYPES, ChouetteEvent
from .options import ChouetteOptions
from .roster import Roster
from .session import ChouetteSession, Phase

NOT_COMPARED = frozenset({"t", "type", "prev"})  # `prev`: the chain, checked by the record's reader


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


class ChouetteReplayer(EventReplayer[ChouetteEvent]):
    """Feeds events to a `ChouetteSession`, checks what it derives, and collects problems."""

    start_type = "chouette_start"
    holds = "session"
    event_types = frozenset(EVENT_TYPES)
    not_compared = NOT_COMPARED

    def __init__(self, *, strict: bool = False) -> None:
        super().__init__(strict=strict)
        self.session: ChouetteSession | None = None

    @property
    def started(self) -> bool:
        """The record's chouette_start has been read."""
        return self.session is not None

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

    def _step(self, kind: str, event: Mapping[str, Any], line: int | None) -> None:
        if kind in DERIVED:
            self._derived(event)
        else:
            assert kind in ACTIONS
            self._action(event)

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
        self._compare(self._expected(kind, lambda: self._session().awaiting().describe()), event)

    def _action(self, event: Mapping[str, Any]) -> None:
        s = self._session()
        kind = event["type"]
        self._nothing_owed(kind)
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
