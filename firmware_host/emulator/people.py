"""Simulated people at the emulated board: they read the prompts, throw the dice, move
checkers by hand with realistic noise, press the buttons, and now and then make a mistake
for the referee to catch. Two players, or a chouette's box and team (each member deciding on
their own cube in their own style, `ChouetteJudge`).

They act only through the board emulator (lifts, placements, slides, dice) and the button
pins, as people do, so the controller meets them exactly as it meets real players.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Protocol

from drivers.events import ButtonKind, Player
from firmware_host.controller.prompts import Prompt, Waiting
from firmware_host.emulator.board import BoardEmulator
from firmware_host.errors import ImpossibleAction
from game.board import OWN_TO_BOARD, Color, Variant
from game.bot.context import MONEY, MatchContext
from game.chouette import Side
from game.chouette.sim import CubeStyle
from game.cube import Cube
from game.hands import Lift, Place, hand_moves, rearrangement
from game.plays import Play
from game.position import Position
from game.zones import layout

if TYPE_CHECKING:
    from game.bot.base import Bot

Press = Callable[[Player, ButtonKind], None]


@dataclass(frozen=True)
class Habits:
    """How the simulated people behave; rates are chances per opportunity."""

    mistake_rate: float = 0.05     # an illegal play or a misplaced checker
    slide_rate: float = 0.3        # slide a checker along the points instead of lifting it
    fumble_rate: float = 0.1       # touch a stack and straighten it, mid-play
    cocked_rate: float = 0.03      # a die lands cocked
    accept_illegal_rate: float = 0.3
    think: tuple[float, float] = (0.4, 2.5)
    hand: tuple[float, float] = (0.2, 0.8)


class CubeJudge(Protocol):
    """How the people asked decide on the cube, from what the prompt tells them."""

    def doubles(self, prompt: Prompt) -> bool:
        """Whether the person asked turns the cube (the prompt names the player; a chouette's, the member too)."""

    def answer(self, prompt: Prompt) -> ButtonKind:
        """take, pass, or double (a beaver) to the double the prompt shows."""


@dataclass
class PipJudge:
    """Two players' cube decisions on the race: double when ahead (half the time), pass when far behind."""

    rng: random.Random

    def doubles(self, prompt: Prompt) -> bool:
        """Ahead by a tenth of the race, and in the mood."""
        assert prompt.player is not None and prompt.position is not None
        return _pip_lead(prompt.position, prompt.player) > 0.1 and self.rng.random() < 0.5

    def answer(self, prompt: Prompt) -> ButtonKind:
        """Take unless far behind; beaver when ahead and allowed."""
        assert prompt.player is not None and prompt.position is not None
        lead = _pip_lead(prompt.position, prompt.player)
        if prompt.can_beaver and lead > 0.05:
            return ButtonKind.DOUBLE
        return ButtonKind.TAKE if lead > -0.15 else ButtonKind.PASS


@dataclass
class ChouetteJudge:
    """A chouette's people, each deciding in their own style (`game.chouette.sim.CubeStyle`, as the
    simulated sessions do), drawn from `rng` the first time each is asked."""

    rng: random.Random
    styles: dict[str, CubeStyle] = field(default_factory=dict)

    def style(self, person: str) -> CubeStyle:
        """`person`'s style."""
        if person not in self.styles:
            self.styles[person] = CubeStyle.drawn(random.Random(f"{self.rng.random()}:{person}"))
        return self.styles[person]

    def doubles(self, prompt: Prompt) -> bool:
        """The person asked turns the cube the prompt names when their side leads enough."""
        assert prompt.player is not None and prompt.position is not None
        side = Side.of(prompt.player)
        return self.style(prompt.asked).doubles(prompt.position, side, side)

    def answer(self, prompt: Prompt) -> ButtonKind:
        """The person asked takes, passes or beavers in their style, within the answers the house allows."""
        assert prompt.player is not None and prompt.position is not None
        side, on_roll = Side.of(prompt.player), Side.of(prompt.position.turn)
        verb = self.style(prompt.asked).answer(prompt.position, side, on_roll, "beaver" in prompt.answers)
        if verb not in prompt.answers:  # a house rule refuses it (the box must take half)
            verb = "take" if "take" in prompt.answers else "pass"
        return {"take": ButtonKind.TAKE, "pass": ButtonKind.PASS, "beaver": ButtonKind.DOUBLE}[verb]


@dataclass
class BotJudge:
    """The cube decisions of the sides a bot plays (game.bot), and `others` for the rest, in the
    match's context as the prompt tells it (the score, the cube, the Crawford game)."""

    bots: Mapping[Color, Bot]
    others: CubeJudge

    def doubles(self, prompt: Prompt) -> bool:
        """The bot's double for its side; the others' judge for a person."""
        from game.bot.context import CubeAction

        bot = self.bots.get(prompt.player) if prompt.player else None
        if bot is None:
            return self.others.doubles(prompt)
        assert prompt.player is not None and prompt.position is not None
        return bot.cube_action(prompt.position.with_turn(prompt.player), _context(prompt)) is CubeAction.DOUBLE

    def answer(self, prompt: Prompt) -> ButtonKind:
        """The bot's take or pass to the opponent's double; the others' judge for a person."""
        from game.bot.context import CubeAction

        bot = self.bots.get(prompt.player) if prompt.player else None
        if bot is None:
            return self.others.answer(prompt)
        assert prompt.player is not None and prompt.position is not None
        doubler = prompt.player.opponent
        action = bot.cube_action(prompt.position.with_turn(doubler), _context(prompt, offered_by=doubler))
        return ButtonKind.PASS if action is CubeAction.PASS else ButtonKind.TAKE


@dataclass
class SimulatedTable:
    """The people at an emulated table: what they plan on seeing a prompt, and what they do as time
    passes; `judge` decides their cubes (None: two players' `PipJudge` on `rng`)."""

    emulator: BoardEmulator
    press: Press
    rng: random.Random
    habits: Habits = field(default_factory=Habits)
    judge: CubeJudge | None = None
    bots: Mapping[Color, Bot] = field(default_factory=dict)
    """Sides whose plays and cube actions a bot decides (game.bot); their hands still carry them out."""
    mistakes: int = 0
    recoveries: int = 0
    """Times a hand found the board not as it expected and set it right."""
    _serial: int = -1
    _goal: tuple[tuple[str, ...], Callable[[], object] | None] | None = None
    """The board a plan makes, and the press that follows it (to recover a plan gone wrong)."""
    _script: list[tuple[float, Callable[[], object]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._people: CubeJudge = self.judge or PipJudge(self.rng)

    @property
    def _judge(self) -> CubeJudge:
        return BotJudge(self.bots, self._people) if self.bots else self._people

    # -- what the people do -----------------------------------------------------

    def see(self, prompt: Prompt, now: float) -> None:
        """Plan what to do about a new prompt (a prompt seen before is ignored)."""
        if prompt.serial == self._serial:
            return
        self._serial = prompt.serial
        self._script.clear()
        self._goal = None
        at = now + self._pause(self.habits.think)
        plan = {
            Waiting.SET_BOARD: self._set_board,
            Waiting.OPENING_ROLL: self._opening_roll,
            Waiting.SEATING: self._opening_roll,
            Waiting.ROLL_OR_DOUBLE: self._roll_or_double,
            Waiting.TURN_CUBE: self._turn_cube,
            Waiting.CUBE_RESPONSE: self._answer_double,
            Waiting.RESIGN_RESPONSE: self._answer_resignation,
            Waiting.PLAY: self._play,
            Waiting.CORRECT: self._correct,
            Waiting.ACCEPT_ILLEGAL: self._accept_or_correct,
            Waiting.TAKEBACK: self._refuse_takeback,
            Waiting.BOT_ROLL: self._opening_roll,  # a throw for the bot: as any throw
            Waiting.BOT_PLAY: self._carry_out,
        }.get(prompt.waiting)
        if plan is not None:
            plan(prompt, at)

    def act(self, now: float) -> None:
        """Do whatever is due by `now`. A hand that finds the board not as it expected (a checker
        not where it should be) looks again and sets the board to what it was making."""
        while self._script and self._script[0][0] <= now:
            _, action = self._script.pop(0)
            try:
                action()
            except ImpossibleAction:
                self.recoveries += 1
                self._recover(now)
                return

    def _recover(self, now: float) -> None:
        self._script.clear()
        if self._goal is None:
            return
        wanted, then = self._goal
        at = self._arrange(wanted, now + self._pause(self.habits.think))
        if then is not None:
            self._later(at + self._pause(self.habits.think), then)

    @property
    def busy(self) -> bool:
        """Something is planned and not yet done."""
        return bool(self._script)

    def next_action_at(self) -> float | None:
        """When the next planned action is due (None: nothing planned)."""
        return self._script[0][0] if self._script else None

    # -- plans --------------------------------------------------------------------

    def _set_board(self, prompt: Prompt, at: float) -> None:
        assert prompt.position is not None
        self._goal = (layout(prompt.position), None)
        self._arrange(layout(prompt.position), at)

    def _opening_roll(self, prompt: Prompt, at: float) -> None:
        self._throw(at, opening=True)

    def _roll_or_double(self, prompt: Prompt, at: float) -> None:
        assert prompt.player is not None and prompt.position is not None
        if prompt.member:  # a chouette asks about one cube: turn it or let it be
            self._turn_cube(prompt, at)
        elif prompt.can_double and self._judge.doubles(prompt):
            self._later(at, partial(self.press, _name(prompt.player), ButtonKind.DOUBLE))
        else:
            self._throw(at)

    def _turn_cube(self, prompt: Prompt, at: float) -> None:
        kind = ButtonKind.DOUBLE if self._judge.doubles(prompt) else ButtonKind.PASS
        self._later(at, partial(self.press, _name(prompt.player), kind))

    def _answer_double(self, prompt: Prompt, at: float) -> None:
        self._later(at, partial(self.press, _name(prompt.player), self._judge.answer(prompt)))

    def _answer_resignation(self, prompt: Prompt, at: float) -> None:
        assert prompt.player is not None
        kind = ButtonKind.TAKE if self.rng.random() < 0.7 else ButtonKind.PASS
        self._later(at, partial(self.press, _name(prompt.player), kind))

    def _play(self, prompt: Prompt, at: float) -> None:
        assert prompt.player is not None and prompt.position is not None and prompt.dice is not None
        before = prompt.position
        plays = before.legal_plays(prompt.dice)
        done = partial(self.press, _name(prompt.player), ButtonKind.DONE)
        self._goal = (layout(before), done)
        if plays:
            play = self._choose(before, plays, prompt.dice, prompt)
            self._goal = (layout(play.after_moves), done)
            if self.rng.random() < self.habits.mistake_rate:
                at = self._mistake(before, play, at)
            else:
                at = self._make(before, play, at)
        self._later(at + self._pause(self.habits.think), done)

    def _carry_out(self, prompt: Prompt, at: float) -> None:
        """Carry out the bot's play the prompt shows, move by move (now and then a mistake for the
        referee to flag); after a flag, set the board to the play. The board is judged as it stands:
        only when the turn has not passed a while after the last move (a die left unused is no flag
        until then) is done pressed."""
        assert prompt.position is not None and prompt.play is not None
        before, play = prompt.position, prompt.play
        self._goal = (layout(play.after_moves), None)
        if tuple(self.emulator.zones()) != layout(before) or not play.moves:
            at = self._arrange(layout(play.after_moves), at)
        elif self.rng.random() < self.habits.mistake_rate:
            at = self._mistake(before, play, at)
        else:
            at = self._make(before, play, at)
        self._later(at + 1.0 + self._pause(self.habits.think), partial(self.press, _name(prompt.player),
                                                                       ButtonKind.DONE))

    def _correct(self, prompt: Prompt, at: float) -> None:
        assert prompt.player is not None and prompt.position is not None and prompt.dice is not None
        plays = prompt.position.legal_plays(prompt.dice)
        wanted = self._choose(prompt.position, plays, prompt.dice, prompt).after_moves if plays else prompt.position
        done = partial(self.press, _name(prompt.player), ButtonKind.DONE)
        self._goal = (layout(wanted), done)
        at = self._arrange(layout(wanted), at)
        self._later(at + self._pause(self.habits.think), done)

    def _accept_or_correct(self, prompt: Prompt, at: float) -> None:
        assert prompt.player is not None
        kind = ButtonKind.TAKE if self.rng.random() < self.habits.accept_illegal_rate else ButtonKind.PASS
        self._later(at, partial(self.press, _name(prompt.player), kind))

    def _refuse_takeback(self, prompt: Prompt, at: float) -> None:
        for player in ("white", "black"):
            self._later(at, partial(self.press, player, ButtonKind.PASS))

    # -- hands ----------------------------------------------------------------------

    def _throw(self, at: float, opening: bool = False) -> None:
        faces = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        cocked = [i for i in (0, 1) if self.rng.random() < self.habits.cocked_rate]
        self._later(at, partial(self.emulator.roll, *faces, cocked=cocked))
        if cocked:  # the player sees it and lays the die flat
            for index in cocked:
                face = self.rng.randint(1, 6)
                self._later(at + 1.5, partial(self.emulator.settle, index, face))

    def _make(self, before: Position, play: Play, at: float) -> float:
        for step in hand_moves(before, play.moves):
            if self.rng.random() < self.habits.fumble_rate and self.emulator.zones()[step.source - 1]:
                self._later(at, partial(self.emulator.straighten, step.source))
                at += self._pause(self.habits.hand)
            along = step.source <= 24 and step.target <= 24 and abs(step.source - step.target) <= 6
            if along and self.rng.random() < self.habits.slide_rate:
                self._later(at, partial(self.emulator.slide, step.source, step.target))
                at += self._pause(self.habits.hand) + 0.3
                continue
            self._later(at, partial(self.emulator.lift, step.source))
            at += self._pause(self.habits.hand)
            self._later(at, partial(self.emulator.place, step.target))
            at += self._pause(self.habits.hand)
        return at

    def _mistake(self, before: Position, play: Play, at: float) -> float:
        """A die left unused (the play's last move not made), or a checker one point off."""
        self.mistakes += 1
        if len(play.moves) > 1 and self.rng.random() < 0.5:
            return self._make(before, Play(play.moves[:-1], play.after_moves), at)
        at = self._make(before, play, at)
        wrong = self._one_point_off(play)
        if wrong is not None:
            source, target = wrong
            self._later(at, partial(self.emulator.lift, source))
            at += self._pause(self.habits.hand)
            self._later(at, partial(self.emulator.place, target))
            at += self._pause(self.habits.hand)
        return at

    def _one_point_off(self, play: Play) -> tuple[int, int] | None:
        """A checker the play put on a point, moved on by one more point (a miscount)."""
        after, mover = play.after_moves, play.after_moves.turn
        table = OWN_TO_BOARD[after.variant, mover]
        for move in reversed(play.moves):
            if 2 <= move.target <= 24:
                return table[move.target], table[move.target - 1]
        return None

    def _arrange(self, wanted: tuple[str, ...], at: float) -> float:
        for step in rearrangement(self.emulator.zones(), wanted, self.emulator.hand()):
            if isinstance(step, Lift):
                self._later(at, partial(self.emulator.lift, step.zone))
            elif isinstance(step, Place):
                self._later(at, partial(self.emulator.place_from_hand, step.zone, step.colour))
            at += self._pause((0.1, 0.4))
        return at

    # -- judgement --------------------------------------------------------------------

    def _choose(self, before: Position, plays: Sequence[Play], dice: tuple[int, int], prompt: Prompt) -> Play:
        mover = before.turn
        bot = self.bots.get(mover)
        if bot is not None:
            chosen = bot.choose_play(before, dice, _context(prompt))
            if chosen is not None:
                return next(p for p in plays if p.after_moves == chosen.after_moves)
        scored = sorted(plays, key=lambda p: _score(p.after_moves, mover) + self.rng.random())
        return scored[-1]

    # -- timing -----------------------------------------------------------------------

    def _later(self, at: float, action: Callable[[], object]) -> None:
        self._script.append((at, action))
        self._script.sort(key=lambda item: item[0])

    def _pause(self, span: tuple[float, float]) -> float:
        return self.rng.uniform(*span)


def _context(prompt: Prompt, offered_by: Color | None = None) -> MatchContext:
    """The match around the prompt's position as the prompt tells it (money play when it tells none);
    `offered_by`: a double pending from that side."""
    context = prompt.context or MONEY
    if offered_by is not None and context.cube.offered_by is None:
        context = replace(context, cube=Cube(context.cube.value, context.cube.owner, offered_by))
    return context


def _name(color: Color | None) -> Player:
    assert color is not None
    return "white" if color is Color.WHITE else "black"


def _pip_lead(position: Position, player: Color) -> float:
    """How far ahead `player` is in the race, as a fraction of their own pip count."""
    mine, theirs = position.pip_count(player), position.pip_count(player.opponent)
    return (theirs - mine) / max(mine, 1)


def _score(position: Position, mover: Color) -> float:
    """A quick judgement of a position for `mover`: race, checkers off, hits, blots."""
    them = mover.opponent
    score = position.pip_count(them) - position.pip_count(mover) + 8.0 * position.off[mover.index]
    score += 6.0 * len(position.trapped(them)) - 6.0 * len(position.trapped(mover))
    if position.variant is Variant.BACKGAMMON:
        blots = sum(1 for s in position.points if s == mover.char)
        score -= 3.0 * blots
    return score
