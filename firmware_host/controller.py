"""The board controller: driver events in, rules applied, the match run, the record kept.

Data flows one way: the drivers' events (`handle`) become a stable sensed board
(`Debouncer`), judged against the rules for the roll (`TurnReconciler`); committed plays and
cube actions drive the `Match`; the result goes out to the journal, the cube display and the
published `Prompt` (what the table is waiting for). Time comes from the caller (`tick(now)`
and the events' timestamps), so the controller is deterministic under a manual clock.

Referee profiles (`Profile`), chosen per match:
- casual: verdicts are shown on the display as the checkers move; an illegal play or a
  misplaced checker must be corrected before the turn passes; a cocked die is laid flat.
- tournament ("legal moves"): nothing is shown until the clock press; then an illegal play
  must be corrected before the opponent rolls; a cocked die means both dice are rolled again.
- traditional: as tournament, but the opponent may accept an illegal play (take) or require
  its correction (pass). A board that no sequence of the roll explains is always corrected.

A die counts toward a roll when it is seen rolling and settling, or settling with a new throw
count, during the roll prompt; a die merely re-reported after a reconnection never does.

Buttons: done ends a turn; double offers the cube (and, answering a double, beavers where
allowed); take and pass answer a double, a resignation, a takeback request or an illegal
play. Pass on your own turn, before rolling, starts a resignation: the display shows R1 (a
single game); pass again for R2 (gammon) or R3 (the triple game), done offers it, take cancels. Where several legal
plays look alike to the sensors, double cycles through them on the display (C1, C2, ...)
and done confirms. The opening roll is one die per player: the die with the lower id is
White's.
"""

from __future__ import annotations

import enum
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from drivers.cube_display import CubeDisplay
from drivers.events import ButtonKind, ButtonPressed, DieState, Event, LinkDown, LinkUp, SensorSnapshot, ZoneChanged
from drivers.protocol import DieStatus
from drivers.zones import Capability, ZoneReading
from firmware_host.dice_stats import DiceStats
from firmware_host.game_clock import GameClock
from firmware_host.journal import Journal
from firmware_host.physical import zones_position
from firmware_host.prompts import Prompt, Waiting
from firmware_host.reconcile import (
    Ambiguous,
    Debouncer,
    Illegal,
    Legal,
    Misplaced,
    TurnReconciler,
    Verdict,
    View,
    board_diff,
    sensed_view,
)
from game.board import Color, Variant
from game.errors import GameError
from game.match import NO_OPTIONS, Match, MatchOptions, Phase
from game.match_errors import MatchActionError
from game.plays import Play
from game.position import Position, ResultKind

_log = logging.getLogger(__name__)


class Profile(enum.Enum):
    CASUAL = "casual"
    TOURNAMENT = "tournament"
    TRADITIONAL = "traditional"


@dataclass(frozen=True)
class Settings:
    variant: Variant = Variant.BACKGAMMON
    length: int | None = 3
    options: MatchOptions = NO_OPTIONS
    players: tuple[str, str] = ("White", "Black")
    profile: Profile = Profile.TOURNAMENT
    settle_seconds: float = 0.3
    clock: bool = True
    clock_delay: float = 12.0
    reserve_per_point: float = 120.0
    images: bool = True

    def to_document(self) -> dict[str, Any]:
        return {"profile": self.profile.value, "settle_seconds": self.settle_seconds,
                "clock": self.clock, "clock_delay": self.clock_delay,
                "reserve_per_point": self.reserve_per_point}


def _color(player: str) -> Color:
    return Color.WHITE if player == "white" else Color.BLACK


class Controller:
    def __init__(self, settings: Settings, journal: Journal, *, display: CubeDisplay | None = None,
                 zone_leds: Callable[[frozenset[int]], object] | None = None,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.journal = journal
        self.display = display
        self._zone_leds = zone_leds
        self._lit: frozenset[int] = frozenset()
        self._wall = wall_clock
        history = Journal.existing(journal.directory)
        self.resumed = bool(history)
        self.match = (Journal.replay(history) if history else
                      Match(settings.variant, settings.length, settings.options, settings.players, clock=wall_clock))
        self._written = len(self.match.events) if history else 0
        self.match.use_clock(wall_clock)  # a replayed match's clock stood at its last recorded time
        self.dice_stats = DiceStats.of_events(self.match.events)
        self.clock = self._restore_clock(history) if settings.clock else None
        self.capability: Capability | None = None
        self.zones: list[ZoneReading] | None = None
        self.debouncer = Debouncer(settings.settle_seconds)
        self.stable: View | None = None
        self.prompt = Prompt(Waiting.SET_BOARD)
        self.verdict: Verdict | None = None
        self.log: deque[str] = deque(maxlen=200)
        self.flags = sum(1 for e in history if e.get("type") == "flag")  # flag pictures keep their numbers
        self.link_up = False
        self._now = 0.0
        self._serial = 0
        self._reconciler: TurnReconciler | None = None
        self._fresh_dice: dict[int, DieState] = {}
        self._done_waiting = False
        self._choices: tuple[Play, ...] = ()
        self._choice = 0
        self._illegal: Illegal | None = None
        self._before_last_play: tuple[Position, tuple[int, int]] | None = None
        self._takeback_votes: set[Color] = set()
        self._early_flagged = False
        if self.resumed:
            self._note(f"resumed from {journal.path}: game {self.match.game_number}, score {self.match.score}")
            self._write({"type": "resume", "game": self.match.game_number, "phase": self.match.phase.value})
            if self.match.is_over and not any(e.get("type") == "dice_stats" for e in history):
                self._write({"type": "dice_stats", **self.dice_stats.summary()})  # killed just before it
        else:
            self._sync()
            self._write({"type": "controller_start", **settings.to_document()})
        if self.match.is_over:
            self._advance()
        else:  # first, the physical board must show the position of the match (or a play on the way)
            self._publish(Waiting.SET_BOARD, position=self.match.position, code="SC", message="checking the board")

    # -- events in ---------------------------------------------------------------

    def handle(self, event: Event) -> None:
        self._now = max(self._now, event.timestamp)
        if isinstance(event, SensorSnapshot):
            self.capability = event.capability
            self.zones = list(event.zones)
            self._settled(self.debouncer.update(self.zones, event.timestamp))
        elif isinstance(event, ZoneChanged):
            if self.zones is not None:
                self.zones[event.zone - 1] = event.reading
                self._settled(self.debouncer.change(event.zone, event.reading, event.timestamp))
        elif isinstance(event, DieState):
            self._die(event)
        elif isinstance(event, ButtonPressed):
            self._button(_color(event.player), event.button)
        elif isinstance(event, LinkUp):
            self.link_up = True
            if event.hello.capability is not None:
                self.capability = event.hello.capability
            self._note(f"link up: {event.source}")
            self._write({"type": "link", "state": "up", "source": event.source})
        elif isinstance(event, LinkDown):
            self.link_up = False
            self._note(f"link down: {event.source}: {event.reason}")
            self._write({"type": "link", "state": "down", "source": event.source, "reason": event.reason})

    def tick(self, now: float) -> None:
        """Let time pass: a board that has settled is judged; the clocks are checked."""
        self._now = max(self._now, now)
        self._settled(self.debouncer.poll(now))
        if self._done_waiting and self.zones is not None and self.debouncer.stable == tuple(self.zones):
            # the board went back to the stable one it was (a flicker): judge that
            self._done_waiting = False
            self._done(self.prompt.player or self.match.position.turn)
        if self.clock is not None and not self.match.is_over:
            loser = self.clock.check(now)
            if loser is not None:
                self._time_loss(loser)

    # -- the board -----------------------------------------------------------------

    def _expected_view(self, position: Position) -> View:
        assert self.capability is not None
        return sensed_view(position, self.capability)

    def _settled(self, view: View | None) -> None:
        if view is None or self.capability is None:
            return
        self.stable = view
        waiting = self.prompt.waiting
        if waiting is Waiting.SET_BOARD:
            self._check_set_board()
        elif waiting in (Waiting.PLAY, Waiting.CORRECT) and self._reconciler is not None:
            self.verdict = self._reconciler.judge(view)
            if self.settings.profile is Profile.CASUAL and not self._choices:
                self._show(self.verdict.short_code())
                self._light(self.verdict.zones())
            if self._done_waiting:
                self._done_waiting = False
                self._done(self.prompt.player or self.match.position.turn)
        elif waiting in (Waiting.ROLL_OR_DOUBLE, Waiting.OPENING_ROLL):
            self._check_still(view)
        elif waiting is Waiting.TAKEBACK and view == self._expected_view(self.match.position):
            self._note("takeback withdrawn: the board is back as it was")
            self._advance()

    def _check_set_board(self) -> None:
        assert self.prompt.position is not None and self.capability is not None and self.zones is not None
        expected = self.prompt.position
        if self.match.phase is Phase.MOVE and expected == self.match.position and self.match.dice is not None:
            verdict = TurnReconciler(expected, self.match.dice, self.capability).judge(self.zones)
            if not isinstance(verdict, Misplaced):  # resuming mid-turn: a partial play may stand
                self._advance()
                return
        diffs = board_diff(expected, self.zones, self.capability)
        if not diffs:
            self._note("the board is set")
            self._advance()
            return
        message = "; ".join(d.describe() for d in diffs[:4]) + (" ..." if len(diffs) > 4 else "")
        if message != self.prompt.message:  # the same request, said more precisely: same serial
            self.prompt = replace(self.prompt, message=message)
        self._light(frozenset(d.zone for d in diffs))

    def _check_still(self, view: View) -> None:
        """Between plays the board must not change; a return to the last position asks for a takeback."""
        if view == self._expected_view(self.match.position):
            return
        last = self._before_last_play
        if (last is not None and self.match.phase is Phase.ROLL
                and view == self._expected_view(last[0])):
            self._takeback_votes.clear()
            self._publish(Waiting.TAKEBACK, player=last[0].turn, position=last[0], code="TB",
                          message=f"{last[0].turn.value} takes back the last play: both press take to agree")
            self._write({"type": "takeback_request", "player": last[0].turn.value, "game": self.match.game_number})
            return
        self._flag("set_board", self.match.position.turn, "checkers moved between turns", "SC",
                   self.match.position)
        self._publish(Waiting.SET_BOARD, position=self.match.position, code="SC",
                      message="checkers moved between turns: set them back")

    # -- dice ------------------------------------------------------------------------

    def _die(self, state: DieState) -> None:
        waiting = self.prompt.waiting
        if waiting not in (Waiting.OPENING_ROLL, Waiting.ROLL_OR_DOUBLE):
            if (waiting in (Waiting.PLAY, Waiting.CORRECT) and state.status is DieStatus.ROLLING
                    and not self._early_flagged):
                self._early_flagged = True
                roller = (self.prompt.player or Color.WHITE).opponent
                self._flag("early_roll", roller, f"{roller.value} rolled before the opponent pressed done: "
                           "the roll does not count", "ER", self.match.position)
            return
        if state.status is DieStatus.COCKED:
            again = self.settings.profile is not Profile.CASUAL
            self._flag("cocked", self.prompt.player, "a cocked die" + (": roll both dice again" if again
                                                                      else ": lay it flat"), "CO", None)
            if again:
                self._fresh_dice.clear()
                self._republish("cocked die: roll both dice again")
            else:
                self._fresh_dice.pop(state.die_id, None)
            return
        if state.status is DieStatus.REMOVED:
            self._fresh_dice.pop(state.die_id, None)
            return
        if state.resync and state.status is DieStatus.SETTLED:
            return  # how the die lies after a reconnection: not a throw
        self._fresh_dice[state.die_id] = state
        settled = [s for _, s in sorted(self._fresh_dice.items()) if s.status is DieStatus.SETTLED]
        if len(settled) < 2 or len(self._fresh_dice) < 2:
            return
        first, second = (settled[0].face or 0), (settled[1].face or 0)
        self._fresh_dice.clear()
        if waiting is Waiting.OPENING_ROLL:  # one die a player: faces, not a roll
            self.dice_stats.record([first])
            self.dice_stats.record([second])
            self._act(lambda: self.match.opening_roll(first, second))
            if self.match.phase is Phase.OPENING:
                self._republish(f"equal dice {first}-{second}: roll again")
        else:
            self.dice_stats.record([first, second])
            self._act(lambda: self.match.roll(first, second))

    # -- buttons -----------------------------------------------------------------------

    def _button(self, player: Color, kind: ButtonKind) -> None:
        waiting, prompted = self.prompt.waiting, self.prompt.player
        handler: Callable[[], None] | None = None
        if waiting is Waiting.ROLL_OR_DOUBLE and player is prompted:
            if kind is ButtonKind.DOUBLE:
                handler = lambda: self.match.double(player)  # noqa: E731
            elif kind is ButtonKind.PASS:
                self._choose_resignation(player, ResultKind.SINGLE)
                return
        elif waiting is Waiting.RESIGN_KIND and player is prompted:
            offered = ResultKind(int(self.prompt.code[1]))
            if kind is ButtonKind.PASS:
                self._choose_resignation(player, ResultKind(offered % 3 + 1))
                return
            if kind is ButtonKind.TAKE:
                self._advance()  # changed their mind
                return
            if kind is ButtonKind.DONE:
                handler = lambda: self.match.resign(player, offered)  # noqa: E731
        elif waiting is Waiting.CUBE_RESPONSE and player is prompted:
            handler = {ButtonKind.TAKE: lambda: self.match.take(player),
                       ButtonKind.PASS: lambda: self.match.pass_(player),
                       ButtonKind.DOUBLE: lambda: self.match.beaver(player)}.get(kind)
        elif waiting is Waiting.RESIGN_RESPONSE and player is prompted:
            handler = {ButtonKind.TAKE: lambda: self.match.accept_resignation(player),
                       ButtonKind.PASS: lambda: self.match.decline_resignation(player)}.get(kind)
        elif waiting in (Waiting.PLAY, Waiting.CORRECT) and player is prompted:
            if kind is ButtonKind.DONE:
                self._done(player)
            elif kind is ButtonKind.DOUBLE and self._choices:
                self._choice = (self._choice + 1) % len(self._choices)
                self._show_choice()
            return
        elif waiting is Waiting.ACCEPT_ILLEGAL and player is prompted:
            if kind is ButtonKind.TAKE:
                self._accept_illegal()
            elif kind is ButtonKind.PASS:
                self._require_correction()
            return
        elif waiting is Waiting.TAKEBACK:
            self._takeback_vote(player, kind)
            return
        if handler is None:
            self._note(f"{player.value} pressed {kind.value}: nothing to do now ({self.prompt.describe()})")
            return
        self._act(handler)

    def _choose_resignation(self, player: Color, kind: ResultKind) -> None:
        name = {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
                ResultKind.TRIPLE: f"a {self.match.variant.triple_name}"}[kind]
        self._publish(Waiting.RESIGN_KIND, player=player, position=self.match.position, code=f"R{int(kind)}",
                      message=f"{player.value} resigns {name}?")

    def _done(self, player: Color) -> None:
        reconciler = self._reconciler
        if reconciler is None or self.zones is None:
            return
        if self.debouncer.stable != tuple(self.zones):
            self._done_waiting = True  # judge once the board has settled
            return
        if self._choices:
            chosen = self._choices[self._choice]
            self._write({"type": "choice", "player": player.value, "play": chosen.notation(),
                         "among": [p.notation() for p in self._choices]})
            self._commit(chosen)
            return
        verdict = reconciler.judge(self.zones, done=True)
        self.verdict = verdict
        if isinstance(verdict, Legal):
            self._commit(verdict.play)
        elif isinstance(verdict, Ambiguous):
            self._choices, self._choice = verdict.plays, 0
            self._note(verdict.describe())
            self._show_choice()
        else:
            self._flag_play(player, verdict)

    def _commit(self, play: Play) -> None:
        before = self.match.position
        dice = self.match.dice
        self._choices = ()
        self._act(lambda: self.match.play(play))
        if dice is not None:
            self._before_last_play = (before, dice)

    def _flag_play(self, player: Color, verdict: Verdict) -> None:
        assert self._reconciler is not None
        before = self._reconciler.position
        kind = "illegal" if isinstance(verdict, Illegal) else "misplaced"
        self._flag(kind, player, verdict.describe(), verdict.short_code(), before)
        if isinstance(verdict, Illegal) and self.settings.profile is Profile.TRADITIONAL:
            self._illegal = verdict
            self._publish(Waiting.ACCEPT_ILLEGAL, player=player.opponent, position=before,
                          dice=self._reconciler.dice, code=verdict.short_code(), zones=verdict.zones(),
                          message=f"{verdict.describe()}: {player.opponent.value} accepts (take) or "
                                  "requires correction (pass)")
            return
        self._publish(Waiting.CORRECT, player=player, position=before, dice=self._reconciler.dice,
                      code=verdict.short_code(), message=verdict.describe(), zones=verdict.zones())

    def _accept_illegal(self) -> None:
        assert self._illegal is not None and self._reconciler is not None
        explanation = self._illegal.explanation
        before = self.match.position
        self._write({"type": "illegal_accepted", "player": before.turn.opponent.value,
                     "game": self.match.game_number, "breach": explanation.describe()})
        dice = self.match.dice
        try:
            after = zones_position(explanation.result, before.variant, before.turn)
        except (GameError, ValueError):  # e.g. two colours on one Backgammon point: no position to accept
            self._note("this board is no position of the game: the play must be corrected")
            self._require_correction()
            return
        steps = [(m.move.source, m.move.target) for m in explanation.moves]
        self._act(lambda: self.match.accept_illegal_play(after, steps, explanation.describe()))
        if dice is not None:
            self._before_last_play = (before, dice)
        self._illegal = None

    def _require_correction(self) -> None:
        assert self._illegal is not None and self._reconciler is not None
        player = self.match.position.turn
        self._write({"type": "correction_required", "player": player.opponent.value,
                     "game": self.match.game_number})
        self._publish(Waiting.CORRECT, player=player, position=self._reconciler.position,
                      dice=self._reconciler.dice, code=self._illegal.short_code(),
                      message=self._illegal.describe())
        self._illegal = None

    def _takeback_vote(self, player: Color, kind: ButtonKind) -> None:
        if kind is ButtonKind.PASS:
            self._write({"type": "takeback_refused", "player": player.value, "game": self.match.game_number})
            self._note(f"{player.value} refuses the takeback: set the board back")
            self._publish(Waiting.SET_BOARD, position=self.match.position, code="SC",
                          message="takeback refused: set the board as it was")
            return
        if kind is not ButtonKind.TAKE:
            return
        self._takeback_votes.add(player)
        if len(self._takeback_votes) == 2 and self._before_last_play is not None:
            self._before_last_play = None
            self._act(self.match.takeback)

    # -- the match -----------------------------------------------------------------------

    def _act(self, action: Callable[[], object]) -> None:
        """Run one match action; a refusal is logged and shown, never crashes the table."""
        try:
            action()
        except MatchActionError as exc:
            self._note(f"refused: {exc}")
            self._show("NO")
            return
        self._sync()
        self._advance()

    def _sync(self) -> None:
        """Journal the match's new events."""
        events = self.match.events
        for event in events[self._written:]:
            self.journal.write(event)
            if event["type"] in ("game_end", "match_end"):
                self._note(_describe_end(event))
            if event["type"] == "play" and self.clock is not None:
                if self.clock.running is not None:
                    self.clock.stop(self._now)  # the mover's turn ends with the play
                self._write({"type": "clock", "white": round(self.clock.reserve[Color.WHITE], 3),
                             "black": round(self.clock.reserve[Color.BLACK], 3)})
        if any(e["type"] == "match_end" for e in events[self._written:]):
            self._write({"type": "dice_stats", **self.dice_stats.summary()})
        self._written = len(events)

    def _advance(self) -> None:
        """Publish the prompt that follows from the match's state."""
        match = self.match
        self._reconciler = None
        self._choices = ()
        self._early_flagged = False
        if match.is_over:
            self._publish(Waiting.MATCH_OVER, message=_match_over(match))
            return
        if match.phase is Phase.OPENING:
            if self.zones is None or self.capability is None or board_diff(
                    match.position, self.zones, self.capability):
                self._publish(Waiting.SET_BOARD, position=match.position, code="SC",
                              message=f"set up game {match.game_number}")
                if self.zones is not None:
                    self._check_set_board()
                return
            self._fresh_dice.clear()
            self._publish(Waiting.OPENING_ROLL, message="each player throws one die")
            return
        player = match.expected
        assert player is not None
        if match.phase is Phase.ROLL:
            self._fresh_dice.clear()
            self._publish(Waiting.ROLL_OR_DOUBLE, player=player, position=match.position,
                          can_double=match.may_double(player))
        elif match.phase is Phase.MOVE:
            assert match.dice is not None
            if self.capability is not None:
                self._reconciler = TurnReconciler(match.position, match.dice, self.capability)
            self._publish(Waiting.PLAY, player=player, dice=match.dice, position=match.position)
        elif match.phase in (Phase.DOUBLED, Phase.BEAVERED):
            self._publish(Waiting.CUBE_RESPONSE, player=player, position=match.position,
                          can_beaver=match.phase is Phase.DOUBLED and match.options.beavers,
                          code="DB")
        elif match.phase is Phase.RESIGNED:
            self._publish(Waiting.RESIGN_RESPONSE, player=player, position=match.position, code="RE")

    def _time_loss(self, loser: Color) -> None:
        self._note(f"{loser.value} has run out of time")
        self._write({"type": "time_loss", "player": loser.value, "game": self.match.game_number})
        self._act(lambda: self.match.forfeit(loser, "time"))

    # -- a referee's ruling, from the room's director ---------------------------------------

    def referee(self, name: str, action: str, *, flag: int | None = None, player: Color | None = None,
                seconds: float = 0.0, ruling: str = "") -> dict[str, Any]:
        """Apply a tournament referee's ruling where the table's state allows it, show it on the
        display (`RF`; `NO` when it does not apply now) and journal it as a `referee` event (returned).

        Actions: `acknowledge` flag number `flag`; `correct` (the illegal play waiting for the
        opponent's decision must be corrected) or `accept` it (the traditional rule); `time_penalty`
        (`seconds` off `player`'s reserve). `ruling` is the director's id of the ruling.
        """
        refusal = self._ruling_refusal(action, flag, player, seconds)
        event = {"type": "referee", "referee": name, "action": action, "flag": flag,
                 "player": player.value if player else None, "seconds": seconds, "ruling": ruling,
                 "applied": refusal is None, "outcome": refusal or "applied"}
        self._write(event)
        self._note(f"referee {name}: {action}" + (f" flag {flag}" if flag else "") + f": {event['outcome']}")
        self._show("NO" if refusal else "RF")
        if refusal is None and action == "correct" and self._illegal is not None:
            self._require_correction()
        elif refusal is None and action == "accept":
            self._accept_illegal()
        elif refusal is None and action == "time_penalty" and self.clock is not None and player is not None:
            self.clock.reserve[player] -= seconds
            self._write({"type": "clock", "white": round(self.clock.reserve[Color.WHITE], 3),
                         "black": round(self.clock.reserve[Color.BLACK], 3)})
        return event

    def _ruling_refusal(self, action: str, flag: int | None, player: Color | None, seconds: float) -> str | None:
        pending = self.prompt.waiting
        if flag is not None and not 1 <= flag <= self.flags:
            return f"there is no flag {flag} (flags: {self.flags})"
        if action == "acknowledge":
            return None if flag is not None else "acknowledge needs a flag number"
        if action == "correct":
            return None if pending in (Waiting.ACCEPT_ILLEGAL, Waiting.CORRECT) else "no illegal play is waiting"
        if action == "accept":
            return None if pending is Waiting.ACCEPT_ILLEGAL else \
                "accept applies only to an illegal play the traditional rule lets the opponent accept"
        if action == "time_penalty":
            if self.clock is None or self.match.is_over or player is None or not seconds > 0:
                return "a time penalty needs a running match with a clock, a player and seconds > 0"
            return None
        return f"unknown action {action!r}"

    # -- out: prompts, display, journal, log ------------------------------------------------

    def _light(self, zones: frozenset[int]) -> None:
        """Show on the board's zone LEDs (where it has them) which zones are wrong or to choose."""
        if self._zone_leds is not None and zones != self._lit:
            self._lit = zones
            self._zone_leds(zones)

    def _publish(self, waiting: Waiting, *, player: Color | None = None, dice: tuple[int, int] | None = None,
                 position: Position | None = None, code: str = "", message: str = "",
                 can_double: bool = False, can_beaver: bool = False, zones: frozenset[int] = frozenset()) -> None:
        self._serial += 1
        self._light(zones)
        self.prompt = Prompt(waiting, player, dice, position, can_double, can_beaver, code, message, self._serial)
        self._note(self.prompt.describe())
        self._show(code)
        if self.clock is not None:
            acting = player if waiting not in (Waiting.SET_BOARD, Waiting.OPENING_ROLL,
                                               Waiting.MATCH_OVER, Waiting.TAKEBACK) else None
            if acting is None and self.clock.running is not None:
                self.clock.stop(self._now)
            elif acting is not None and self.clock.running is not acting:
                self.clock.start(acting, self._now)

    def _republish(self, message: str) -> None:
        p = self.prompt
        self._publish(p.waiting, player=p.player, dice=p.dice, position=p.position, code=p.code,
                      message=message, can_double=p.can_double, can_beaver=p.can_beaver)

    def _show_choice(self) -> None:
        play = self._choices[self._choice]
        code = f"C{self._choice + 1}"[:2]
        self._show(code)
        self._note(f"choice {self._choice + 1} of {len(self._choices)}: {play.notation()} "
                   "(double: next, done: confirm)")

    def _show(self, code: str) -> None:
        if self.display is None:
            return
        if code.strip():
            self.display.show_text(code)
            return
        cube = self.match.cube
        owner = None if cube.owner is None else cube.owner.value
        self.display.show(cube.value, owner, self.match.crawford)  # type: ignore[arg-type]

    def _flag(self, kind: str, player: Color | None, message: str, code: str,
              expected: Position | None) -> None:
        self.flags += 1
        event: dict[str, Any] = {"type": "flag", "kind": kind, "code": code, "message": message,
                                 "player": player.value if player else None,
                                 "game": self.match.game_number, "move": self.match.move_number + 1}
        if self.zones is not None:
            event["sensed"] = [_reading_text(r) for r in self.zones]
        if expected is not None:
            event["expected"] = expected.to_document()
            image = self._flag_image(expected)
            if image:
                event["image"] = image
        self._write(event)
        self._note(f"FLAG {code} {kind}: {message}")

    def _flag_image(self, expected: Position) -> str | None:
        if not self.settings.images or self.zones is None:
            return None
        from game.pictures import SensedZone, draw_discrepancy

        sensed = {zone: _sensed_zone(SensedZone, reading) for zone, reading in enumerate(self.zones, start=1)}
        name = f"flags/flag-{self.flags:04d}.png"
        path = self.journal.directory / name
        path.parent.mkdir(exist_ok=True)
        try:
            draw_discrepancy(expected, sensed, title=f"flag {self.flags}").save(path)
        except (OSError, ValueError) as exc:
            self._note(f"could not save {path}: {exc}")
            return None
        return name

    def _write(self, event: dict[str, Any]) -> None:
        self.journal.write({**event, "t": round(self._wall(), 3)})

    def _note(self, text: str) -> None:
        self.log.append(text)
        _log.info(text)

    def _restore_clock(self, history: Sequence[dict[str, Any]]) -> GameClock:
        s = self.settings
        clock = GameClock.for_match(s.length, s.clock_delay, s.reserve_per_point)
        for event in history:
            if event.get("type") == "clock":
                clock.reserve = {Color.WHITE: float(event["white"]), Color.BLACK: float(event["black"])}
        return clock


def _reading_text(reading: ZoneReading) -> str:
    if reading.stack is not None:
        return reading.stack
    if reading.white is not None and reading.black is not None:
        return f"{reading.white}w{reading.black}b"
    return str(reading.count)


def _sensed_zone(kind: Any, reading: ZoneReading) -> Any:
    if reading.stack is not None:
        return kind.of(reading.stack)
    if reading.white is not None and reading.black is not None:
        return kind.of((reading.white, reading.black))
    return kind.of(reading.count)


def _describe_end(event: dict[str, Any]) -> str:
    score = event.get("score") or {}
    points = f"{score.get('white')}-{score.get('black')} (white-black)"
    if event["type"] == "match_end":
        return f"match over: {event.get('winner') or 'nobody'} wins, score {points}"
    winner = event.get("winner") or "nobody (remi)"
    return f"game {event.get('game')} over: {winner} wins {event.get('points')} ({event.get('kind')}), score {points}"


def _match_over(match: Match) -> str:
    winner = match.winner.value if match.winner else "nobody"
    return f"{winner} wins the match, score {match.score[0]}-{match.score[1]} (white-black)"
