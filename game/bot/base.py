"""The one interface every bot has: a play for a roll, the cube, resignations; and its levels.

An engine supplies two things: `rank_plays` (the legal plays of a roll, best first, each with
its equity and outcome estimates) and `estimate` (the outcome estimates of the side on roll
before it rolls). Everything else (cube actions, resignations, the noise of the weaker levels)
follows from those here, the same for every variant.
"""

from __future__ import annotations

import abc
import random
from dataclasses import dataclass
from typing import Self

import numpy as np

from game.board import Color, Variant
from game.bot.context import MONEY, CubeAction, MatchContext
from game.bot.encoding import F32
from game.bot.equity import (
    CUBE_EFFICIENCY,
    CubeDecision,
    accept_resignation,
    cube_decision,
    equities,
    resignation,
)
from game.bot.levels import DEFAULT_LEVEL as DEFAULT_LEVEL
from game.bot.levels import Level as Level
from game.bot.met import MatchEquityTable
from game.bot.opening import OpeningBook, book_play
from game.errors import WrongVariant
from game.plays import Play
from game.position import Position, ResultKind

BOOK_LEVELS = frozenset({Level.EXPERT, Level.WORLD_CLASS, Level.GRANDMASTER, Level.ROLLOUT})


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A legal play with the engine's judgement: equity for the mover, outcome estimates after it."""

    play: Play
    equity: float
    probs: tuple[float, float, float, float, float]

    def describe(self) -> str:
        """ "13/11 6/5  +0.123 (win 52.1%)" """
        return f"{self.play.notation()}  {self.equity:+.3f} (win {100 * self.probs[0]:.1f}%)"


class Bot(abc.ABC):
    """A player that chooses plays and cube actions for one variant at one level.

    `choose_play`, `cube_action`, `accept_resignation` and `offer_resignation` are what a table
    asks; `rank_plays`, `evaluate` and `cube_decision` give the judgements behind them (hints,
    analysis).
    """

    variant: Variant
    level: Level

    def __init__(self, variant: Variant, level: Level, met: MatchEquityTable | None, seed: int | None = None) -> None:
        """`met` None: the engine supplies its table when first needed (`_load_met`)."""
        self.variant, self.level, self._met = variant, level, met
        self._rng = random.Random(seed)
        self.use_book = True  # the opening book's play at an opening (expert and stronger; False: never)
        self.book: OpeningBook | None = None  # None: the shipped book

    @property
    def met(self) -> MatchEquityTable:
        """The match equity table of this bot's cube decisions."""
        if self._met is None:
            self._met = self._load_met()
        return self._met

    def _load_met(self) -> MatchEquityTable:
        raise NotImplementedError(f"{type(self).__name__} was made without a match equity table")

    def warm_up(self) -> None:
        """Get the engine ready now rather than at the first question (GNU Backgammon's worker
        process starts in the background); the bot works without it."""
        return None  # a network is ready once loaded

    def close(self) -> None:
        """Release what the engine holds (GNU Backgammon's worker process); a later call takes it
        up again. `with make_bot(...) as bot:` closes the bot at the end of the block."""
        return None  # a network holds nothing to release

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def name(self) -> str:
        """How the bot is named in records and reports: engine and level."""
        return f"{self.engine} ({self.level.value})"

    @property
    @abc.abstractmethod
    def engine(self) -> str:
        """The engine's name: "GNU Backgammon 1.x" or "smartgammon TD network"."""

    @abc.abstractmethod
    def rank_plays(self, position: Position, dice: tuple[int, int],
                   context: MatchContext = MONEY) -> list[RankedPlay]:
        """Every legal play of the roll, best first by the engine's judgement at this level
        (without the level's noise); [] when the roll cannot be played."""

    @abc.abstractmethod
    def estimate(self, position: Position, context: MatchContext = MONEY) -> F32:
        """Outcome estimates (5,) for the side on roll in `position`, before it rolls."""

    # -- what a table asks ----------------------------------------------------------

    def choose_play(self, position: Position, dice: tuple[int, int],
                    context: MatchContext = MONEY) -> Play | None:
        """The play this bot makes for `position.turn` with `dice`; None when the roll cannot be played.
        At an opening the book speaks for, the expert and stronger levels play the book's play."""
        self._check_variant(position)
        booked = self.opening_play(position, dice, context)
        if booked is not None:
            return booked
        ranked = self.rank_plays(position, dice, context)
        if not ranked:
            return None
        noise = self.level.noise
        if not noise:
            return ranked[0].play
        return max(ranked, key=lambda r: r.equity + self._rng.gauss(0.0, noise)).play

    def opening_play(self, position: Position, dice: tuple[int, int], context: MatchContext = MONEY) -> Play | None:
        """The opening book's play (`opening.py`) when this bot plays from it here: at the expert
        level and stronger, `use_book` on, an opening the book speaks for; else None."""
        if not self.use_book or self.level not in BOOK_LEVELS:
            return None
        return book_play(position, dice, context) if self.book is None else self.book.play(position, dice, context)

    def cube_decision(self, position: Position, context: MatchContext = MONEY) -> CubeDecision:
        """The cube decision for `position.turn`, on roll and before rolling."""
        self._check_variant(position)
        return cube_decision(self.estimate(position, context), context, position.turn, self.met,
                             self.cube_efficiency(position))

    def cube_efficiency(self, position: Position) -> float:
        """The cube efficiency of the cube model in `position` (Janowski's x): the contact value."""
        return CUBE_EFFICIENCY

    def cube_action(self, position: Position, context: MatchContext = MONEY) -> CubeAction:
        """What this bot does at the cube. `position.turn` is the player on roll (the doubler).

        With no double pending, the bot is the player on roll: DOUBLE or NO_DOUBLE. With a double
        pending (`context.cube.offered_by` set), the bot is the player doubled: TAKE, PASS or
        (money play with beavers) BEAVER. A beaver pending is answered by the original doubler.
        """
        offered_by = context.cube.offered_by
        if offered_by is None:
            if not context.may_double(position.turn):
                return CubeAction.NO_DOUBLE
            return self.cube_decision(position.with_turn(position.turn), context).action(answering=False)
        if context.cube.beavered:
            # The beaverer offered the cube back at twice its value: the original doubler answers it.
            decision = self.cube_decision(position.with_turn(offered_by.opponent), context)
            return CubeAction.TAKE if decision.double_take >= -1.0 else CubeAction.PASS
        decision = self.cube_decision(position.with_turn(offered_by), context)
        action = decision.action(answering=True)
        return CubeAction.TAKE if action is CubeAction.BEAVER and not context.options.beavers else action

    def accept_resignation(self, position: Position, context: MatchContext, resigner: Color,
                           kind: ResultKind) -> bool:
        """Whether the bot (the opponent of `resigner`) accepts a resignation of `kind`."""
        me = resigner.opponent
        return accept_resignation(self._estimate_for(position, context, me), context, me, kind, self.met)

    def offer_resignation(self, position: Position, context: MatchContext = MONEY) -> ResultKind | None:
        """What the bot, on roll in `position`, resigns now (None: it plays on)."""
        return resignation(self._estimate_for(position, context, position.turn))

    # -- helpers for the engines ------------------------------------------------------------

    def equity_of(self, probs: F32, context: MatchContext, me: Color) -> F32:
        """Equities (N,) of estimates (N, 5) for `me` in this context."""
        return equities(probs, context, me, self.met)

    def _estimate_for(self, position: Position, context: MatchContext, me: Color) -> F32:
        probs = self.estimate(position.with_turn(me), context)
        return np.asarray(probs, dtype=np.float32)

    def _check_variant(self, position: Position) -> None:
        if position.variant is not self.variant:
            raise WrongVariant(f"a {self.variant.value} bot cannot play a {position.variant.value} position")
