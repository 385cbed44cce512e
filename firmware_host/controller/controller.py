"""The board controller: driver events in, rules applied, the match (or chouette) run, the record kept.

Data flows one way. Each kind of driver event (`handle`) goes to its owner, looked up once by its
type: a zone change or snapshot to the `SensedBoard`, whose settled board goes, by what the table
waits for, to the part that judges it then (`BoardChecks`, `PlayFlow`, `BotSeat`); a die's report
to `Throws`; a press to the part the `ButtonMap` names for the moment; a link's news to `Outage`
and `LinkHealth`. The part returns what should happen as effects (firmware_host/controller/effects.py),
which the controller applies in one place (`_apply`): prompts and codes through the `Prompter`,
the rest through `Outputs` (journal, cube display, zone LEDs, flags, log), and actions on what is
played (`Session`: a `Match`, or a chouette session), which the controller owns and journals, then
publishes what follows. What differs between a match and a chouette (the cube's dialogues, the
display's cube, how the record's ends are told) is the `CubeDialogue`'s (firmware_host/controller/session.py).
Time comes from the caller (`tick(now)` and the events' timestamps), so the controller is
deterministic under a manual clock.

How a play is judged, the referee profiles (`Profile`), the buttons and every display code:
hardware_docs/referee.md.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from drivers.cube_display import CubeDisplay
from drivers.events import (
    ButtonKind,
    ButtonPressed,
    CommandFailed,
    DieState,
    Event,
    FrameRejected,
    LinkDown,
    LinkStatistics,
    LinkUp,
    SensorSnapshot,
    ZoneChanged,
)
from firmware_host.controller import cube
from firmware_host.controller.board_checks import BoardChecks, StackSetter
from firmware_host.controller.bot_seat import BotSeat, Roll, make_bots, make_chouette_bots, seated
from firmware_host.controller.buttons import ButtonMap
from firmware_host.controller.chess_clock import GameClock
from firmware_host.controller.effects import (
    Act,
    Advance,
    Effect,
    Effects,
    Flash,
    Light,
    Note,
    Publish,
    RaiseFlag,
    Refuse,
    Republish,
    Restate,
    Show,
    Told,
    Write,
)
from firmware_host.controller.links import LinkHealth, Needs, Outage
from firmware_host.controller.outputs import Outputs, ZoneLeds
from firmware_host.controller.play_flow import PlayFlow
from firmware_host.controller.prompts import Prompt, Prompter, Waiting
from firmware_host.controller.resign_takeback import Takeback
from firmware_host.controller.rulings import refusal
from firmware_host.controller.sensed_board import SensedBoard
from firmware_host.controller.session import Session
from firmware_host.controller.throws import Throws
from firmware_host.errors import JournalError, NotAMatch
from firmware_host.record.dice_stats import DiceStats
from firmware_host.record.journal import Journal
from firmware_host.record.match_report import MatchReport
from firmware_host.record.recorder import Recorder
from firmware_host.settings import Profile, Settings
from game.board import Color
from game.codes import Code
from game.errors import MatchActionError
from game.match import Match
from game.reconcile import Verdict
from game.zones import View, ZoneReading, zone_diff

if TYPE_CHECKING:
    from game.bot.base import Bot
    from game.bot.chouette import ChouetteBot

WallTime = Callable[[], float]



class Controller:
    """Referees one match (or chouette) at one table. Make one with `Controller.new` or
    `Controller.resume`; feed it every driver event (`handle`) and let time pass (`tick`); read
    what it waits for from `prompt`."""

    def __init__(self, settings: Settings, played: Session, outputs: Outputs, clock: GameClock | None,
                 history: list[dict[str, Any]] | None = None, *, stacks: StackSetter | None = None,
                 needs: Needs | None = None, bots: Mapping[Color, Bot] | None = None, roll: Roll | None = None,
                 chouette_bots: Mapping[str, ChouetteBot] | None = None,
                 read_board: Callable[[], None] | None = None) -> None:
        self.settings = settings
        self.played = played
        """What is played: a `Match`, or a chouette session (`firmware_host.controller.session`)."""
        self.outputs = outputs
        outputs.chouette = settings.chouette is not None
        self.clock = clock
        """The chess clock (None when the table plays untimed)."""
        self.resumed = history is not None
        self.dialogue = cube.dialogue_for(played, settings)
        """The part that differs by what is played: the cube's dialogues, the display's cube."""
        describe = self.dialogue.describe
        self.recorder = (Recorder(outputs, describe) if history is None
                         else Recorder.resuming(outputs, describe, history, self.dialogue.event_types))
        self.board = SensedBoard(settings.settle_seconds, read_board)
        self.throws = Throws(played, self.dialogue.throws(), rethrow_cocked=settings.profile is not Profile.CASUAL)
        """What a throw of the dice does now."""
        self.prompter = Prompter(outputs, self.dialogue.cube, clock, self.dialogue.context)
        self.link_up = False
        self.outage = Outage()
        self.links = LinkHealth(outputs, needs)
        self._now = 0.0
        self.takeback = Takeback(played)
        self.plays = PlayFlow(played, self.board, self.takeback, traditional=settings.profile is Profile.TRADITIONAL,
                              casual=settings.profile is Profile.CASUAL)
        self.checks = BoardChecks(played, self.board, self.takeback, stacks)
        self.seat = BotSeat(played, bots or {}, self.board, prompts=self.prompter, commit=self.plays.commit,
                            roll=roll, casual=settings.profile is Profile.CASUAL, chouette=chouette_bots,
                            dialogue=self.dialogue)
        """The sides a bot plays (a chouette's players that are bots; none at a table of people), and the hints."""
        self.takeback.voters = self.seat.takeback_votes
        self.report = MatchReport(outputs.note)
        """The analysed report written beside the journal when a Backgammon match ends (`settings.analyse`)."""
        self._buttons = self._button_map()
        self._routes: Mapping[type[Event], Callable[[Any], None]] = {
            SensorSnapshot: self._snapshot, ZoneChanged: self._zone_changed, DieState: self._die,
            ButtonPressed: self._pressed, LinkUp: self._link_up, LinkDown: self._link_down,
            FrameRejected: self.links.observe, LinkStatistics: self.links.observe, CommandFailed: self.links.observe}
        """Where each kind of driver event goes."""
        still = self.checks.still
        self._boards: Mapping[Waiting, Callable[[View, Prompt], Effects]] = {
            Waiting.SET_BOARD: self.checks.setting, Waiting.ROLL_OR_DOUBLE: still, Waiting.OPENING_ROLL: still,
            Waiting.BOT_ROLL: still, Waiting.TAKEBACK: self.checks.withdrawn,
            Waiting.PLAY: self.plays.settled, Waiting.CORRECT: self.plays.settled, Waiting.BOT_PLAY: self.seat.settled}
        """Which part judges a settled board, by what the table waits for (nobody's, at the other moments)."""

    # -- construction ----------------------------------------------------------------

    @classmethod
    def new(cls, settings: Settings, journal: Journal, *, display: CubeDisplay | None = None,
            zone_leds: ZoneLeds | None = None, wall_time: WallTime = time.time, stacks: StackSetter | None = None,
            needs: Needs | None = None, roll: Roll | None = None,
            read_board: Callable[[], None] | None = None) -> Controller:
        """A new match (or chouette) at a table whose journal holds none yet; `roll` throws the host's
        dice for a bot (a roll-button board); `read_board` asks the board for a whole reading (at a done
        press, `BoardSensor.read_afresh`)."""
        if journal.has_match():
            raise JournalError(f"{journal.path} already holds a match: resume it")
        bots = make_bots(settings)  # the bots are named in the record's first line
        chouette_bots = make_chouette_bots(settings)  # a chouette's keep their players' names
        settings = replace(settings, players=seated(settings.players, bots))
        played = cube.start(settings, wall_time)
        outputs = Outputs(journal, display=display, zone_leds=zone_leds, wall_time=wall_time, images=settings.images)
        clock = GameClock.for_match(settings.length, settings.clock_delay, settings.reserve_per_point)
        controller = cls(settings, played, outputs, clock if settings.timed else None, stacks=stacks, needs=needs,
                         bots=bots, roll=roll, chouette_bots=chouette_bots, read_board=read_board)
        controller.recorder.begin(played, settings)
        controller._start()
        controller._settle()
        return controller

    @classmethod
    def resume(cls, settings: Settings, journal: Journal, *, display: CubeDisplay | None = None,
               zone_leds: ZoneLeds | None = None, wall_time: WallTime = time.time, stacks: StackSetter | None = None,
               needs: Needs | None = None, roll: Roll | None = None,
               read_board: Callable[[], None] | None = None) -> Controller:
        """The match (or chouette) of a journal that a stopped or killed controller left, going on from its
        last event."""
        history = journal.history()
        if not any(e.get("type") in ("match_start", "chouette_start") for e in history):
            raise JournalError(f"{journal.path} holds no match to resume")
        played = cube.resume(settings, journal, history, wall_time)
        flags = sum(1 for e in history if e.get("type") == "flag")  # flag pictures keep their numbers
        outputs = Outputs(journal, display=display, zone_leds=zone_leds, wall_time=wall_time,
                          images=settings.images, flags=flags)
        clock = None
        if settings.timed:
            clock = GameClock.for_match(settings.length, settings.clock_delay, settings.reserve_per_point)
            clock.restore(history)
        controller = cls(settings, played, outputs, clock, history, stacks=stacks, needs=needs,
                         bots=make_bots(settings), roll=roll, chouette_bots=make_chouette_bots(settings),
                         read_board=read_board)
        controller.recorder.resumed(played, clock, history, controller.dialogue.where(), controller.dialogue.phase())
        controller._start()
        controller._settle()
        return controller

    @classmethod
    def open(cls, settings: Settings, journal: Journal, *, display: CubeDisplay | None = None,
             zone_leds: ZoneLeds | None = None, wall_time: WallTime = time.time, stacks: StackSetter | None = None,
             needs: Needs | None = None, roll: Roll | None = None,
             read_board: Callable[[], None] | None = None) -> Controller:
        """The journal's match resumed, or a new one when it holds none (a table starting up)."""
        start = cls.resume if journal.has_match() else cls.new
        return start(settings, journal, display=display, zone_leds=zone_leds, wall_time=wall_time, stacks=stacks,
                     needs=needs, roll=roll, read_board=read_board)

    def _start(self) -> None:
        if self.played.is_over:
            self._advance()
        else:  # first, the physical board must show the position of the match (or a play on the way)
            self._publish(Publish(Waiting.SET_BOARD, position=self.played.position, code=Code.SET_CHECKERS,
                                  message="checking the board"))

    # -- what others read ------------------------------------------------------------

    @property
    def match(self) -> Match:
        """The match at this table; `NotAMatch` at a chouette's (read `played` there)."""
        if not isinstance(self.played, Match):
            raise NotAMatch(f"this table plays a chouette, not a match ({self.dialogue.where()})")
        return self.played

    @property
    def prompt(self) -> Prompt:
        """What the table waits for now."""
        return self.prompter.prompt

    @property
    def dice_stats(self) -> DiceStats:
        """The faces thrown in this match (or session)."""
        return self.recorder.dice_stats

    @property
    def links_down(self) -> set[str]:
        """Links that went down and have not come back: while any is down the table judges
        nothing, takes no press and the clocks stand."""
        return self.outage.down

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
        turn = self.plays.turn
        return turn.verdict if turn is not None else None

    # -- events in ---------------------------------------------------------------------

    def close(self) -> None:
        """Release what the table's bots hold (their engines' worker processes); the journal and
        the hardware are their owners' to close."""
        self.seat.close()

    def handle(self, event: Event) -> None:
        """One event from the drivers: one action of the journal (durable before the next)."""
        with self.journal.action():
            try:
                self._handle(event)
            finally:
                self._settle()

    def _handle(self, event: Event) -> None:
        if event.timestamp > self._now:
            self._now = event.timestamp
        route = self._routes.get(type(event))
        if route is not None:
            route(event)

    def tick(self, now: float) -> None:
        """Let time pass: a board that has settled is judged; the clocks are checked."""
        with self.journal.action():
            try:
                self._tick(now)
            finally:
                self._settle()

    def _settle(self) -> None:
        """Done with an event (or a moment): what the table shows into the record, then the signature if due."""
        self.outputs.settle()
        self.recorder.sign_if_due()

    def _tick(self, now: float) -> None:
        if now > self._now:
            self._now = now
        self.prompter.tick(self._now)
        if self.outage.down:
            return  # nothing is judged and the clocks stand while the board is out of reach
        settled = self.board.poll(now)
        if settled is not None:
            self._settled(settled)
        # the board went back to the stable one it was (a flicker): a done press waiting for it is taken
        pending = self.seat.pending() if self.prompt.waiting is Waiting.BOT_PLAY else self.plays.pending(self.prompt)
        if pending:
            self._apply(pending)
        if self.clock is not None and not self.played.is_over:
            loser = self.clock.check(now)
            if loser is not None:
                self._time_loss(loser)

    # -- the board ------------------------------------------------------------------------

    def _snapshot(self, event: SensorSnapshot) -> None:
        self._settled(self.board.snapshot(event.capability, event.zones, event.timestamp))

    def _zone_changed(self, event: ZoneChanged) -> None:
        settled = self.board.change(event.zone, event.reading, event.timestamp)
        if settled is not None:  # seldom: a board settles in a tick, after its last change
            self._settled(settled)

    def _link_up(self, event: LinkUp) -> None:
        self.link_up = True
        self.board.announce(event.hello.capability)
        self.links.up(event)
        self._back_in_reach(event.source)

    def _link_down(self, event: LinkDown) -> None:
        self.link_up = False
        self.links.down(event)
        self._out_of_reach(event.source)

    def _out_of_reach(self, source: str) -> None:
        """A link is down: stand the clocks and say so; nothing is judged until it is back."""
        if not self.outage.lose(source, self.clock, self._now):
            return
        self.plays.forget_done()
        self.seat.forget_done()
        self.prompter.show(Code.CABLE_DOWN)
        self.outputs.note("the board is out of reach: nothing is judged and the clocks stand until it is back")

    def _back_in_reach(self, source: str) -> None:
        """The link is back: the board is read afresh before anything is judged; the clock that
        stood runs again and the display shows what it showed."""
        if source not in self.outage.down:
            return
        held = self.outage.regain(source, self.clock, self._now)
        if held is None:
            return
        self.board.forget()
        self.prompter.show(self.prompt.code)
        self.outputs.note("the board is back: reading it afresh")
        for state in held:
            self._die(state)

    def _settled(self, view: View | None) -> None:
        """A board that has settled, to the part that judges it now."""
        if view is None or self.board.capability is None:
            return
        prompt = self.prompt
        owner = self._boards.get(prompt.waiting)
        if owner is not None:
            self._apply(owner(view, prompt))

    # -- dice ---------------------------------------------------------------------------

    def _die(self, state: DieState) -> None:
        if self.outage.out:  # dice on a link of their own: read once the board is back
            self.outage.hold(state)
            return
        self._apply(self.throws.report(state, self.prompt))

    # -- buttons -------------------------------------------------------------------------

    def _button_map(self) -> ButtonMap:
        play = {ButtonKind.DONE: self.plays.pressed_done, ButtonKind.DOUBLE: self.plays.next_choice}
        return ButtonMap({
            **self.dialogue.buttons(),  # the cube's dialogues (and resigning, in a match)
            Waiting.PLAY: {**play, ButtonKind.TAKE: self.seat.hint},
            Waiting.CORRECT: play,
            Waiting.BOT_PLAY: {ButtonKind.DONE: self.seat.pressed_done},
            Waiting.ACCEPT_ILLEGAL: {ButtonKind.TAKE: self.plays.accept_illegal,
                                     ButtonKind.PASS: self.plays.require_correction},
            Waiting.TAKEBACK: {ButtonKind.TAKE: self.takeback.agree, ButtonKind.PASS: self.takeback.refuse},
        }, anyone=frozenset({Waiting.TAKEBACK, Waiting.BOT_PLAY}))

    def _pressed(self, event: ButtonPressed) -> None:
        """A press, to what its button does now (`ButtonMap`); refused when it does nothing now."""
        player, button = Color(event.player), event.button
        if self.outage.out:
            self.outputs.note(f"{player.value} pressed {button.value}: the board is out of reach, nothing is taken "
                              "until it is back")
            return
        prompt = self.prompt
        action = self._buttons.action(prompt.waiting, prompt.player, player, button)
        if action is None:
            self._refuse(player, button, self._buttons.refusal(prompt.waiting, prompt.player, player, button))
            return
        self._apply(action(player))

    def _refuse(self, player: Color, button: ButtonKind, why: str) -> None:
        """A press the table cannot use: `NO` on the display for a moment, and why in the log."""
        self.outputs.note(f"{player.value} pressed {button.value}: NO, {why}")
        self._flash(Code.NOT_ALLOWED)

    # -- what is played ---------------------------------------------------------------------

    def _apply(self, effects: Iterable[Effect]) -> None:
        """Do what a part handed back, in order (firmware_host/controller/effects.py)."""
        for effect in effects:
            match effect:
                case Act(action=action, then=then):
                    self._act(action)
                    if then is not None:
                        self._apply(then())
                case Advance():
                    self._advance()
                case _:
                    self._tell(effect)

    def _tell(self, effect: Told) -> None:
        match effect:
            case Publish():
                self._publish(effect)
            case Republish(message=message):
                self.prompter.republish(message, self._now)
            case Restate(message=message):
                self.prompter.restate(message)
            case Show(code=code):
                self.prompter.show(code)
            case Flash(code=code):
                self._flash(code)
            case Light(zones=zones):
                self.outputs.light(zones)
            case Note(text=text):
                self.outputs.note(text)
            case Write(event=event):
                self.outputs.write(event)
            case RaiseFlag():
                self._flag(effect)
            case Refuse(player=player, button=button, why=why):
                self._refuse(player, button, why)

    def _act(self, action: Callable[[], object]) -> None:
        """Run one action on what is played; a refusal is logged and shown, never crashes the table."""
        try:
            action()
        except MatchActionError as exc:
            self.outputs.note(f"refused: {exc}")
            self._flash(Code.NOT_ALLOWED)
            return
        self._sync()
        self._advance()

    def _sync(self) -> list[str]:
        """Journal the new events of what is played (and the clocks after each play); returns their types."""
        return self.recorder.sync(self.played, self.clock, self._now)

    def _advance(self) -> None:
        """Publish the prompt that follows from the state of what is played: the end, a play, the
        contest's own moments (the cube), or a game's opening (the board set, the opening roll)."""
        played = self.played
        self.plays.turn = None
        self.throws.expect()
        if played.is_over:
            self.links.match_over()
            if self.settings.analyse and isinstance(played, Match):
                self.report.match_over(played.variant, self.journal.path)
            over = Waiting.MATCH_OVER if isinstance(played, Match) else Waiting.SESSION_OVER
            self._publish(Publish(over, message=self.dialogue.over()))
        elif played.dice is not None:
            bot_play = self.seat.begin(played.position.turn, played.dice, self.board.capability)
            self._apply(bot_play if bot_play is not None else
                       self.plays.begin(played.position.turn, played.dice, self.board.capability))
        elif (asked := self.dialogue.prompt()) is not None:
            self._apply(asked)
            self._apply(self.seat.asked(self.prompt))  # a bot's side answers at once
        else:
            self._opening()

    def _opening(self) -> None:
        played, board = self.played, self.board
        if board.zones is None or board.capability is None or zone_diff(played.position, board.zones,
                                                                        board.capability):
            self._publish(Publish(Waiting.SET_BOARD, position=played.position, code=Code.SET_CHECKERS,
                                  message=f"set up game {played.game_number}"))
            if board.zones is not None:
                self._apply(self.checks.set_board(played.position))
            return
        self._apply(self.throws.opening())

    def _time_loss(self, loser: Color) -> None:
        self.outputs.note(f"{loser.value} has run out of time")
        self._apply(self.dialogue.time_loss(loser))

    # -- a referee's ruling, from the room's director --------------------------------------

    def referee(self, name: str, action: str, *, flag: int | None = None, player: Color | None = None,
                seconds: float = 0.0, ruling: str = "") -> dict[str, Any]:
        """Apply a tournament referee's ruling where the table's state allows it (`rulings.refusal`),
        show it (`RF`; `NO` when it does not apply now) and journal it as a `referee` event (returned).
        `ruling` is the director's id for it."""
        with self.journal.action():
            return self._referee(name, action, flag=flag, player=player, seconds=seconds, ruling=ruling)

    def _referee(self, name: str, action: str, *, flag: int | None, player: Color | None, seconds: float,
                 ruling: str) -> dict[str, Any]:
        why = refusal(action, flag=flag, player=player, seconds=seconds, flags=self.flags,
                      waiting=self.prompt.waiting, timed=self.clock is not None, over=self.played.is_over,
                      in_reach=not self.outage.out)
        event = {"type": "referee", "referee": name, "action": action, "flag": flag,
                 "player": player.value if player else None, "seconds": seconds, "ruling": ruling,
                 "applied": why is None, "outcome": why or "applied"}
        self.outputs.write(event)
        self.outputs.note(f"referee {name}: {action}" + (f" flag {flag}" if flag else "") + f": {event['outcome']}")
        if not self.outage.out:  # else CA stands
            self._flash(Code.NOT_ALLOWED if why else Code.RULING)
        turn = self.plays.turn
        if why is None and action == "correct" and turn is not None and turn.illegal is not None:
            self._apply(self.plays.require_correction())
        elif why is None and action == "accept":
            self._apply(self.plays.accept_illegal())
        elif why is None and action == "time_penalty" and self.clock is not None and player is not None:
            self.clock.reserve[player] -= seconds
            self.recorder.write_clock(self.clock)
        return event

    # -- a member's decision, from a phone --------------------------------------------------

    def decide(self, answer: str, **record: Any) -> str | None:
        """A chouette member's `answer`, from their phone, to the decision asked now
        (`ChouetteDialogue.decide`): applied as the member's press would be, None; else why not."""
        with self.journal.action():
            decided = self.dialogue.decide(answer, **record)
            if isinstance(decided, str):
                return decided
            self._apply(decided)
            return None

    # -- out: prompts and the display ---------------------------------------------------

    def _publish(self, prompt: Publish) -> None:
        """Publish a prompt (`Prompter.publish`) at the table's time."""
        self.prompter.publish(prompt.waiting, self._now, player=prompt.player, dice=prompt.dice,
                              position=prompt.position, code=prompt.code, message=prompt.message,
                              can_double=prompt.can_double, can_beaver=prompt.can_beaver, zones=prompt.zones,
                              asked=prompt.asked, member=prompt.member, answers=prompt.answers, play=prompt.play)

    def _flash(self, code: str) -> None:
        """A code that tells of a moment, on the display for a few seconds (`Prompter.flash`)."""
        self.prompter.flash(code, self._now)

    def _flag(self, flag: RaiseFlag) -> None:
        """A referee flag, with the sensed board as its evidence; its code on the display (for a
        moment, unless the prompt that follows shows it as long as it stands)."""
        zones: list[ZoneReading] | None = self.board.zones
        self.outputs.flag(flag.kind, player=flag.player, message=flag.message, code=flag.code,
                          game=self.played.game_number, move=self.played.move_number + 1, sensed=zones,
                          expected=flag.expected, dice=self.prompt.dice, board=flag.board, because=flag.because)
        self._flash(flag.code)

