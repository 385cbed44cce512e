"""The board controller: driver events in, rules applied, the match run, the record kept.

Data flows one way. The drivers' events (`handle`) become a settled sensed board
(`SensedBoard`), judged against the rules for the roll (`Turn`, with the reconciler); a throw
of the dice is collected by `DiceCollector`; a button press is looked up in the `ButtonMap`.
Committed plays and cube actions drive the `Match`, which the controller owns; the results go
out through `Outputs` (journal, cube display, zone LEDs, flags, log) and the published `Prompt`
(what the table is waiting for). Time comes from the caller (`tick(now)` and the events'
timestamps), so the controller is deterministic under a manual clock.

How a play is judged, the referee profiles (`Profile`), the buttons and every display code:
hardware_docs/referee.md.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from drivers.cube_display import CubeDisplay
from drivers.events import (
    ButtonKind,
    ButtonPressed,
    DieState,
    Event,
    FrameRejected,
    LinkDown,
    LinkUp,
    SensorSnapshot,
    ZoneChanged,
)
from firmware_host.button_map import ButtonMap
from firmware_host.dice_stats import DiceStats
from firmware_host.dice_throw import Cocked, DiceCollector, EarlyRoll, Thrown
from firmware_host.errors import JournalError
from firmware_host.game_clock import GameClock
from firmware_host.journal import Journal
from firmware_host.outputs import Outputs, ZoneLeds
from firmware_host.physical import zones_position
from firmware_host.prompts import Prompt, Waiting
from firmware_host.reconcile import Illegal, Misplaced, TurnReconciler, Verdict
from firmware_host.rulings import refusal
from firmware_host.sensed_board import SensedBoard
from firmware_host.settings import Profile, Settings
from firmware_host.turn import Choose, Commit, Flag, Turn
from game.board import Color
from game.errors import GameError, MatchActionError
from game.events import MATCH_EVENT_TYPES, GameEnd, MatchEnd
from game.match import Match, Phase
from game.plays import Play
from game.position import Position, ResultKind
from game.zones import View, ZoneReading, sensed_view, zone_diff

WallTime = Callable[[], float]

OUT_OF_REACH = "CA"
"""The display while a link is down (the cable)."""

# Prompts during which nobody's clock runs.
_CLOCK_STANDS = frozenset({Waiting.SET_BOARD, Waiting.OPENING_ROLL, Waiting.MATCH_OVER, Waiting.TAKEBACK})


class Controller:
    """Referees one match at one table. Make one with `Controller.new` or `Controller.resume`;
    feed it every driver event (`handle`) and let time pass (`tick`); read what it waits for
    from `prompt`."""

    def __init__(self, settings: Settings, match: Match, outputs: Outputs, clock: GameClock | None,
                 dice_stats: DiceStats, *, resumed: bool) -> None:
        self.settings = settings
        self.match = match
        self.outputs = outputs
        self.clock = clock
        """The chess clock (None when the table plays untimed)."""
        self.dice_stats = dice_stats
        self.resumed = resumed
        self.board = SensedBoard(settings.settle_seconds)
        self.dice = DiceCollector(rethrow_cocked=settings.profile is not Profile.CASUAL)
        self.prompt = Prompt(Waiting.SET_BOARD)
        self.link_up = False
        self.links_down: set[str] = set()
        """Links that went down and have not come back: while any is down the table judges
        nothing, takes no press and the clocks stand."""
        self._stood: Color | None = None
        self._held_dice: list[DieState] = []
        self._sign_due = False
        self.turn: Turn | None = None
        """The play in progress (while the prompt is PLAY, CORRECT or ACCEPT_ILLEGAL)."""
        self._now = 0.0
        self._serial = 0
        self._written = len(match.events)
        self._resigning: ResultKind | None = None
        self._before_last_play: Position | None = None
        self._takeback_votes: set[Color] = set()
        self._buttons = self._button_map()

    # -- construction ----------------------------------------------------------------

    @classmethod
    def new(cls, settings: Settings, journal: Journal, *, display: CubeDisplay | None = None,
            zone_leds: ZoneLeds | None = None, wall_time: WallTime = time.time) -> Controller:
        """A new match at a table whose journal holds none yet."""
        if journal.has_match():
            raise JournalError(f"{journal.path} already holds a match: resume it")
        match = Match(settings.variant, settings.length, settings.options, settings.players, clock=wall_time)
        outputs = Outputs(journal, display=display, zone_leds=zone_leds, wall_time=wall_time, images=settings.images)
        clock = GameClock.for_match(settings.length, settings.clock_delay, settings.reserve_per_point)
        controller = cls(settings, match, outputs, clock if settings.timed else None, DiceStats(), resumed=False)
        if journal.key is not None and journal.sequence == 0:  # the first line names the key that signs it
            outputs.write({"type": "table_key", "key": journal.key.public})
        controller._written = 0
        controller._sync()
        outputs.write({"type": "controller_start", **settings.to_document()})
        controller._start()
        controller._sign_if_due()
        return controller

    @classmethod
    def resume(cls, settings: Settings, journal: Journal, *, display: CubeDisplay | None = None,
               zone_leds: ZoneLeds | None = None, wall_time: WallTime = time.time) -> Controller:
        """The match of a journal that a stopped or killed controller left, going on from its last event."""
        history = journal.history()
        if not any(e.get("type") == "match_start" for e in history):
            raise JournalError(f"{journal.path} holds no match to resume")
        match = Match.replay(history)
        _check_same_match(match, settings, journal)
        match.use_clock(wall_time)  # a replayed match's clock stood at its last recorded time
        flags = sum(1 for e in history if e.get("type") == "flag")  # flag pictures keep their numbers
        outputs = Outputs(journal, display=display, zone_leds=zone_leds, wall_time=wall_time,
                          images=settings.images, flags=flags)
        clock = None
        if settings.timed:
            clock = GameClock.for_match(settings.length, settings.clock_delay, settings.reserve_per_point)
            clock.restore(history)
        controller = cls(settings, match, outputs, clock, DiceStats.of_events(match.events), resumed=True)
        # A kill between the lines of one action: write what it implies (a game_end and the next
        # game_start after the play that ended a game, the match_end, the dice statistics).
        controller._written = sum(1 for e in history if e.get("type") in MATCH_EVENT_TYPES)
        completed = controller._sync()
        outputs.note(f"resumed from {journal.path}: game {match.game_number}, score {match.score}"
                     + (f", completing {', '.join(completed)}" if completed else ""))
        outputs.write({"type": "resume", "game": match.game_number, "phase": match.phase.value})
        if match.is_over and "match_end" not in completed and not any(e.get("type") == "dice_stats" for e in history):
            outputs.write({"type": "dice_stats", **controller.dice_stats.summary()})  # killed just before it
        controller._sign_due = controller._sign_due or _ending_unsigned(history)
        controller._start()
        controller._sign_if_due()
        return controller

    @classmethod
    def open(cls, settings: Settings, journal: Journal, *, display: CubeDisplay | None = None,
             zone_leds: ZoneLeds | None = None, wall_time: WallTime = time.time) -> Controller:
        """The journal's match resumed, or a new one when it holds none (a table starting up)."""
        start = cls.resume if journal.has_match() else cls.new
        return start(settings, journal, display=display, zone_leds=zone_leds, wall_time=wall_time)

    def _start(self) -> None:
        if self.match.is_over:
            self._advance()
        else:  # first, the physical board must show the position of the match (or a play on the way)
            self._publish(Waiting.SET_BOARD, position=self.match.position, code="SC", message="checking the board")

    # -- what others read ------------------------------------------------------------

    @property
    def journal(self) -> Journal:
        """The match's journal."""
        return self.outputs.journal

    @property
    def display(self) -> CubeDisplay | None:
        """The LED cube display, if the table has one."""
        return self.outputs.display

    @property
    def log(self) -> deque[str]:
        """The referee's log, newest last."""
        return self.outputs.log

    @property
    def flags(self) -> int:
        """Flags raised in this match."""
        return self.outputs.flags

    @property
    def stable(self) -> View | None:
        """The last sensed board that settled."""
        return self.board.stable

    @property
    def verdict(self) -> Verdict | None:
        """The verdict on the last settled board of the play in progress."""
        return self.turn.verdict if self.turn is not None else None

    # -- events in ---------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        """One event from the drivers."""
        try:
            self._handle(event)
        finally:
            self._sign_if_due()

    def _handle(self, event: Event) -> None:
        self._now = max(self._now, event.timestamp)
        if isinstance(event, SensorSnapshot):
            self._settled(self.board.snapshot(event.capability, event.zones, event.timestamp))
        elif isinstance(event, ZoneChanged):
            self._settled(self.board.change(event.zone, event.reading, event.timestamp))
        elif isinstance(event, DieState):
            self._die(event)
        elif isinstance(event, ButtonPressed):
            self._button(Color(event.player), event.button)
        elif isinstance(event, LinkUp):
            self.link_up = True
            self.board.announce(event.hello.capability)
            self.outputs.note(f"link up: {event.source}")
            self.outputs.write({"type": "link", "state": "up", "source": event.source})
            if event.source in self.links_down:
                self._back_in_reach(event.source)
        elif isinstance(event, FrameRejected):
            self.outputs.note(f"rejected from {event.source}: {event.reason} ({event.count} so far)")
        elif isinstance(event, LinkDown):
            self.link_up = False
            self.outputs.note(f"link down: {event.source}: {event.reason}")
            self.outputs.write({"type": "link", "state": "down", "source": event.source, "reason": event.reason})
            self._out_of_reach(event.source)

    def tick(self, now: float) -> None:
        """Let time pass: a board that has settled is judged; the clocks are checked."""
        try:
            self._tick(now)
        finally:
            self._sign_if_due()

    def _tick(self, now: float) -> None:
        self._now = max(self._now, now)
        if self.links_down:
            return  # nothing is judged and the clocks stand while the board is out of reach
        self._settled(self.board.poll(now))
        turn = self.turn
        if turn is not None and turn.done_pending and self.board.settled:
            # the board went back to the stable one it was (a flicker): judge that
            turn.done_pending = False
            self._done(self.prompt.player or self.match.position.turn)
        if self.clock is not None and not self.match.is_over:
            loser = self.clock.check(now)
            if loser is not None:
                self._time_loss(loser)

    # -- the board ------------------------------------------------------------------------

    def _out_of_reach(self, source: str) -> None:
        """A link is down: stand the clocks and say so; nothing is judged until it is back."""
        first = not self.links_down
        self.links_down.add(source)
        if not first:
            return
        if self.clock is not None and self.clock.running is not None:
            self._stood = self.clock.running
            self.clock.stop(self._now)
        if self.turn is not None:
            self.turn.done_pending = False
        self._show(OUT_OF_REACH)
        self.outputs.note("the board is out of reach: nothing is judged and the clocks stand until it is back")

    def _back_in_reach(self, source: str) -> None:
        """The link is back: the board is read afresh before anything is judged; the clock that
        stood runs again and the display shows what it showed."""
        self.links_down.discard(source)
        if self.links_down:
            return
        self.board.forget()
        if self.clock is not None and self._stood is not None:
            self.clock.start(self._stood, self._now)
        self._stood = None
        self._show(self.prompt.code)
        self.outputs.note("the board is back: reading it afresh")
        held, self._held_dice = self._held_dice, []
        for state in held:
            self._die(state)

    def _expected_view(self, position: Position) -> View:
        assert self.board.capability is not None
        return sensed_view(position, self.board.capability)

    def _settled(self, view: View | None) -> None:
        if view is None or self.board.capability is None:
            return
        waiting = self.prompt.waiting
        if waiting is Waiting.SET_BOARD:
            self._check_set_board()
        elif waiting in (Waiting.PLAY, Waiting.CORRECT) and self.turn is not None:
            verdict = self.turn.judge(view)
            if self.settings.profile is Profile.CASUAL and not self.turn.choices:
                self._show(verdict.short_code())
                self.outputs.light(verdict.zones())
            if self.turn.done_pending:
                self.turn.done_pending = False
                self._done(self.prompt.player or self.match.position.turn)
        elif waiting in (Waiting.ROLL_OR_DOUBLE, Waiting.OPENING_ROLL):
            self._check_still(view)
        elif waiting is Waiting.TAKEBACK and view == self._expected_view(self.match.position):
            self.outputs.note("takeback withdrawn: the board is back as it was")
            self._advance()

    def _check_set_board(self) -> None:
        board = self.board
        assert self.prompt.position is not None and board.capability is not None and board.zones is not None
        expected = self.prompt.position
        if self.match.phase is Phase.MOVE and expected == self.match.position and self.match.dice is not None:
            verdict = TurnReconciler(expected, self.match.dice, board.capability).judge(board.zones)
            if not isinstance(verdict, Misplaced):  # resuming mid-turn: a partial play may stand
                self._advance()
                return
        diffs = zone_diff(expected, board.zones, board.capability)
        if not diffs:
            self.outputs.note("the board is set")
            self._advance()
            return
        message = "; ".join(d.describe() for d in diffs[:4]) + (" ..." if len(diffs) > 4 else "")
        if message != self.prompt.message:  # the same request, said more precisely: same serial
            self.prompt = replace(self.prompt, message=message)
        self.outputs.light(frozenset(d.zone for d in diffs))

    def _check_still(self, view: View) -> None:
        """Between plays the board must not change; a return to the last position asks for a takeback."""
        if view == self._expected_view(self.match.position):
            return
        last = self._before_last_play
        if last is not None and self.match.phase is Phase.ROLL and view == self._expected_view(last):
            self._takeback_votes.clear()
            self._publish(Waiting.TAKEBACK, player=last.turn, position=last, code="TB",
                          message=f"{last.turn.value} takes back the last play: both press take to agree")
            self.outputs.write({"type": "takeback_request", "player": last.turn.value,
                                "game": self.match.game_number})
            return
        self._flag("set_board", self.match.position.turn, "checkers moved between turns", "SC", self.match.position)
        self._publish(Waiting.SET_BOARD, position=self.match.position, code="SC",
                      message="checkers moved between turns: set them back")

    # -- dice ---------------------------------------------------------------------------

    def _die(self, state: DieState) -> None:
        if self.links_down:  # dice on a link of their own: read once the board is back
            self._held_dice.append(state)
            return
        waiting = self.prompt.waiting
        outcome = self.dice.report(state, throw_expected=waiting in (Waiting.OPENING_ROLL, Waiting.ROLL_OR_DOUBLE),
                                   moving=waiting in (Waiting.PLAY, Waiting.CORRECT))
        if isinstance(outcome, EarlyRoll):
            roller = (self.prompt.player or Color.WHITE).opponent
            self._flag("early_roll", roller, f"{roller.value} rolled before the opponent pressed done: "
                       "the roll does not count", "ER", self.match.position)
        elif isinstance(outcome, Cocked):
            self._flag("cocked", self.prompt.player,
                       "a cocked die" + (": roll both dice again" if outcome.rethrow else ": lay it flat"), "CO", None)
            if outcome.rethrow:
                self._republish("cocked die: roll both dice again")
        elif isinstance(outcome, Thrown):
            first, second = outcome.faces
            if waiting is Waiting.OPENING_ROLL:  # one die a player: faces, not a roll
                self.dice_stats.record([first])
                self.dice_stats.record([second])
                self._act(lambda: self.match.opening_roll(first, second))
                if self.match.phase is Phase.OPENING:
                    self._republish(f"equal dice {first}-{second}: roll again")
            else:
                self.dice_stats.record([first, second])
                self._act(lambda: self.match.roll(first, second))

    # -- buttons -------------------------------------------------------------------------

    def _button_map(self) -> ButtonMap:
        match = self.match
        play = {ButtonKind.DONE: self._done, ButtonKind.DOUBLE: self._next_choice}
        return ButtonMap({
            Waiting.ROLL_OR_DOUBLE: {ButtonKind.DOUBLE: lambda p: self._act(lambda: match.double(p)),
                                     ButtonKind.PASS: lambda p: self._choose_resignation(p, ResultKind.SINGLE)},
            Waiting.RESIGN_KIND: {ButtonKind.PASS: self._more_resignation, ButtonKind.TAKE: lambda p: self._advance(),
                                  ButtonKind.DONE: self._offer_resignation},
            Waiting.CUBE_RESPONSE: {ButtonKind.TAKE: lambda p: self._act(lambda: match.take(p)),
                                    ButtonKind.PASS: lambda p: self._act(lambda: match.pass_(p)),
                                    ButtonKind.DOUBLE: lambda p: self._act(lambda: match.beaver(p))},
            Waiting.RESIGN_RESPONSE: {ButtonKind.TAKE: lambda p: self._act(lambda: match.accept_resignation(p)),
                                      ButtonKind.PASS: lambda p: self._act(lambda: match.decline_resignation(p))},
            Waiting.PLAY: play,
            Waiting.CORRECT: play,
            Waiting.ACCEPT_ILLEGAL: {ButtonKind.TAKE: lambda p: self._accept_illegal(),
                                     ButtonKind.PASS: lambda p: self._require_correction()},
            Waiting.TAKEBACK: {ButtonKind.TAKE: self._takeback_agreed, ButtonKind.PASS: self._takeback_refused},
        }, anyone=frozenset({Waiting.TAKEBACK}))

    def _button(self, player: Color, button: ButtonKind) -> None:
        if self.links_down:
            self.outputs.note(f"{player.value} pressed {button.value}: the board is out of reach, nothing is taken "
                              "until it is back")
            return
        action = self._buttons.action(self.prompt.waiting, self.prompt.player, player, button)
        if action is None:
            self._nothing_to_do(player, button)
            return
        action(player)

    def _nothing_to_do(self, player: Color, button: ButtonKind) -> None:
        self.outputs.note(f"{player.value} pressed {button.value}: nothing to do now ({self.prompt.describe()})")

    def _choose_resignation(self, player: Color, kind: ResultKind) -> None:
        self._resigning = kind
        name = {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
                ResultKind.TRIPLE: f"a {self.match.variant.triple_name}"}[kind]
        self._publish(Waiting.RESIGN_KIND, player=player, position=self.match.position, code=f"R{int(kind)}",
                      message=f"{player.value} resigns {name}?")

    def _more_resignation(self, player: Color) -> None:
        assert self._resigning is not None
        self._choose_resignation(player, ResultKind(self._resigning % 3 + 1))

    def _offer_resignation(self, player: Color) -> None:
        kind = self._resigning
        assert kind is not None
        self._act(lambda: self.match.resign(player, kind))

    def _next_choice(self, player: Color) -> None:
        if self.turn is None or self.turn.next_choice() is None:
            self._nothing_to_do(player, ButtonKind.DOUBLE)
            return
        self._show_choice()

    # -- the play ------------------------------------------------------------------------

    def _done(self, player: Color) -> None:
        turn = self.turn
        if turn is None or self.board.zones is None:
            return
        if not self.board.settled:
            turn.done_pending = True  # judge once the board has settled
            return
        decision = turn.done(self.board.zones)
        if isinstance(decision, Commit):
            self._commit(decision.play)
            if decision.among:  # after the play: a kill between the two never leaves a choice of no play
                self.outputs.write({"type": "choice", "player": player.value, "play": decision.play.notation(),
                                    "among": [p.notation() for p in decision.among]})
        elif isinstance(decision, Choose):
            self.outputs.note(decision.verdict.describe())
            self._show_choice()
        elif isinstance(decision, Flag):
            self._flag_play(player, turn, decision.verdict)

    def _commit(self, play: Play) -> None:
        before = self.match.position
        self._act(lambda: self.match.play(play))
        self._before_last_play = before

    def _flag_play(self, player: Color, turn: Turn, verdict: Verdict) -> None:
        before = turn.position
        kind = "illegal" if isinstance(verdict, Illegal) else "misplaced"
        self._flag(kind, player, verdict.describe(), verdict.short_code(), before)
        if isinstance(verdict, Illegal) and self.settings.profile is Profile.TRADITIONAL:
            turn.illegal = verdict
            self._publish(Waiting.ACCEPT_ILLEGAL, player=player.opponent, position=before, dice=turn.dice,
                          code=verdict.short_code(), zones=verdict.zones(),
                          message=f"{verdict.describe()}: {player.opponent.value} accepts (take) or "
                                  "requires correction (pass)")
            return
        self._publish(Waiting.CORRECT, player=player, position=before, dice=turn.dice,
                      code=verdict.short_code(), message=verdict.describe(), zones=verdict.zones())

    def _accept_illegal(self) -> None:
        turn = self.turn
        assert turn is not None and turn.illegal is not None
        explanation = turn.illegal.explanation
        before = self.match.position
        try:
            after = zones_position(explanation.result, before.variant, before.turn)
        except (GameError, ValueError):  # e.g. two colours on one Backgammon point: no position to accept
            self.outputs.note("this board is no position of the game: the play must be corrected")
            self._require_correction()
            return
        steps = [(m.move.source, m.move.target) for m in explanation.moves]
        game = self.match.game_number
        self._act(lambda: self.match.accept_illegal_play(after, steps, explanation.describe()))
        self._before_last_play = before
        self.outputs.write({"type": "illegal_accepted", "player": before.turn.opponent.value, "game": game,
                            "breach": explanation.describe()})

    def _require_correction(self) -> None:
        turn = self.turn
        assert turn is not None and turn.illegal is not None
        illegal, turn.illegal = turn.illegal, None
        player = self.match.position.turn
        self.outputs.write({"type": "correction_required", "player": player.opponent.value,
                            "game": self.match.game_number})
        self._publish(Waiting.CORRECT, player=player, position=turn.position, dice=turn.dice,
                      code=illegal.short_code(), message=illegal.describe())

    def _takeback_refused(self, player: Color) -> None:
        self.outputs.write({"type": "takeback_refused", "player": player.value, "game": self.match.game_number})
        self.outputs.note(f"{player.value} refuses the takeback: set the board back")
        self._publish(Waiting.SET_BOARD, position=self.match.position, code="SC",
                      message="takeback refused: set the board as it was")

    def _takeback_agreed(self, player: Color) -> None:
        self._takeback_votes.add(player)
        if len(self._takeback_votes) == 2 and self._before_last_play is not None:
            self._before_last_play = None
            self._act(self.match.takeback)

    # -- the match -------------------------------------------------------------------------

    def _act(self, action: Callable[[], object]) -> None:
        """Run one match action; a refusal is logged and shown, never crashes the table."""
        try:
            action()
        except MatchActionError as exc:
            self.outputs.note(f"refused: {exc}")
            self._show("NO")
            return
        self._sync()
        self._advance()

    def _sync(self) -> list[str]:
        """Journal the match's new events (and the clocks after each play); returns their types."""
        new = self.match.events_from(self._written)
        self._written += len(new)
        for event in new:
            self.outputs.journal.write(event)
            if event["type"] == "game_end" or event["type"] == "match_end":
                self.outputs.note(_describe_end(event))
            if event["type"] == "play" and self.clock is not None:
                if self.clock.running is not None:
                    self.clock.stop(self._now)  # the mover's turn ends with the play
                self.outputs.write({"type": "clock", "white": round(self.clock.reserve[Color.WHITE], 3),
                                    "black": round(self.clock.reserve[Color.BLACK], 3)})
        if any(e["type"] == "match_end" for e in new):
            self.outputs.write({"type": "dice_stats", **self.dice_stats.summary()})
        if any(e["type"] in ("game_end", "match_end") for e in new):
            self._sign_due = True  # once the notes that explain this action are written too
        return [e["type"] for e in new]

    def _sign_if_due(self) -> None:
        """Sign the journal after an action that ended a game or the match, and what explains it."""
        if self._sign_due:
            self._sign_due = False
            self.outputs.sign()

    def _advance(self) -> None:
        """Publish the prompt that follows from the match's state."""
        match = self.match
        self.turn = None
        self.dice.expect()
        if match.is_over:
            self._publish(Waiting.MATCH_OVER, message=_match_over(match))
            return
        if match.phase is Phase.OPENING:
            board = self.board
            if board.zones is None or board.capability is None or zone_diff(
                    match.position, board.zones, board.capability):
                self._publish(Waiting.SET_BOARD, position=match.position, code="SC",
                              message=f"set up game {match.game_number}")
                if board.zones is not None:
                    self._check_set_board()
                return
            self._publish(Waiting.OPENING_ROLL, message="each player throws one die")
            return
        player = match.expected
        assert player is not None
        if match.phase is Phase.ROLL:
            self._publish(Waiting.ROLL_OR_DOUBLE, player=player, position=match.position,
                          can_double=match.may_double(player))
        elif match.phase is Phase.MOVE:
            assert match.dice is not None
            if self.board.capability is not None:
                self.turn = Turn(match.position, match.dice, self.board.capability)
            self._publish(Waiting.PLAY, player=player, dice=match.dice, position=match.position)
        elif match.phase in (Phase.DOUBLED, Phase.BEAVERED):
            self._publish(Waiting.CUBE_RESPONSE, player=player, position=match.position,
                          can_beaver=match.phase is Phase.DOUBLED and match.options.beavers, code="DB")
        elif match.phase is Phase.RESIGNED:
            self._publish(Waiting.RESIGN_RESPONSE, player=player, position=match.position, code="RE")

    def _time_loss(self, loser: Color) -> None:
        self.outputs.note(f"{loser.value} has run out of time")
        game = self.match.game_number
        self._act(lambda: self.match.forfeit(loser, "time"))
        self.outputs.write({"type": "time_loss", "player": loser.value, "game": game})

    # -- a referee's ruling, from the room's director --------------------------------------

    def referee(self, name: str, action: str, *, flag: int | None = None, player: Color | None = None,
                seconds: float = 0.0, ruling: str = "") -> dict[str, Any]:
        """Apply a tournament referee's ruling where the table's state allows it (`rulings.refusal`),
        show it (`RF`; `NO` when it does not apply now) and journal it as a `referee` event (returned).
        `ruling` is the director's id for it."""
        why = refusal(action, flag=flag, player=player, seconds=seconds, flags=self.flags,
                      waiting=self.prompt.waiting, timed=self.clock is not None, over=self.match.is_over,
                      in_reach=not self.links_down)
        event = {"type": "referee", "referee": name, "action": action, "flag": flag,
                 "player": player.value if player else None, "seconds": seconds, "ruling": ruling,
                 "applied": why is None, "outcome": why or "applied"}
        self.outputs.write(event)
        self.outputs.note(f"referee {name}: {action}" + (f" flag {flag}" if flag else "") + f": {event['outcome']}")
        self._show(OUT_OF_REACH if self.links_down else "NO" if why else "RF")
        if why is None and action == "correct" and self.turn is not None and self.turn.illegal is not None:
            self._require_correction()
        elif why is None and action == "accept":
            self._accept_illegal()
        elif why is None and action == "time_penalty" and self.clock is not None and player is not None:
            self.clock.reserve[player] -= seconds
            self.outputs.write({"type": "clock", "white": round(self.clock.reserve[Color.WHITE], 3),
                                "black": round(self.clock.reserve[Color.BLACK], 3)})
        return event

    # -- out: prompts and the display ---------------------------------------------------

    def _publish(self, waiting: Waiting, *, player: Color | None = None, dice: tuple[int, int] | None = None,
                 position: Position | None = None, code: str = "", message: str = "",
                 can_double: bool = False, can_beaver: bool = False, zones: frozenset[int] = frozenset()) -> None:
        self._serial += 1
        self.outputs.light(zones)
        self.prompt = Prompt(waiting, player, dice, position, can_double, can_beaver, code, message, self._serial)
        self.outputs.note(self.prompt.describe())
        self._show(code)
        if self.clock is not None:
            acting = None if waiting in _CLOCK_STANDS else player
            if acting is None and self.clock.running is not None:
                self.clock.stop(self._now)
            elif acting is not None and self.clock.running is not acting:
                self.clock.start(acting, self._now)

    def _republish(self, message: str) -> None:
        p = self.prompt
        self._publish(p.waiting, player=p.player, dice=p.dice, position=p.position, code=p.code,
                      message=message, can_double=p.can_double, can_beaver=p.can_beaver)

    def _show_choice(self) -> None:
        assert self.turn is not None
        choice, choices = self.turn.choice, self.turn.choices
        self._show(f"C{choice + 1}"[:2])
        self.outputs.note(f"choice {choice + 1} of {len(choices)}: {choices[choice].notation()} "
                          "(double: next, done: confirm)")

    def _show(self, code: str) -> None:
        self.outputs.show(code, self.match.cube, self.match.crawford)

    def _flag(self, kind: str, player: Color | None, message: str, code: str, expected: Position | None) -> None:
        zones: list[ZoneReading] | None = self.board.zones
        self.outputs.flag(kind, player=player, message=message, code=code, game=self.match.game_number,
                          move=self.match.move_number + 1, sensed=zones, expected=expected)


def _check_same_match(match: Match, settings: Settings, journal: Journal) -> None:
    """A journal resumes only with the settings it began with: never another match over it."""
    def described(variant: str, length: int | None) -> str:
        return f"a {variant} {f'{length}-point match' if length else 'money session'}"

    recorded = described(match.variant.value, match.length)
    asked = described(settings.variant.value, settings.length)
    if recorded != asked or match.options != settings.options:
        raise JournalError(f"{journal.directory} holds {recorded}, not {asked}: give another record directory, "
                           "or the settings it began with, to go on with it")


def _ending_unsigned(history: list[dict[str, Any]]) -> bool:
    """A game or the match ended after the journal's last signature (killed before it signed)."""
    for event in reversed(history):
        if event.get("type") == "signature":
            return False
        if event.get("type") in ("game_end", "match_end"):
            return True
    return False


def _describe_end(event: GameEnd | MatchEnd) -> str:
    score = event["score"]
    points = f"{score['white']}-{score['black']} (white-black)"
    if event["type"] == "match_end":
        return f"match over: {event['winner'] or 'nobody'} wins, score {points}"
    winner = event["winner"] or "nobody (remi)"
    return f"game {event['game']} over: {winner} wins {event['points']} ({event['kind']}), score {points}"


def _match_over(match: Match) -> str:
    winner = match.winner.value if match.winner else "nobody"
    return f"{winner} wins the match, score {match.score[0]}-{match.score[1]} (white-black)"
