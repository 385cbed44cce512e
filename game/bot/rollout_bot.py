"""The rollout level: the expert level's best candidates judged by truncated rollouts within a
time budget per play.

For each play the expert bot (the network at 1-ply for the variants, GNU Backgammon at 0-ply for
Backgammon) ranks the roll's plays; the best `candidates` of them within 0.16 of its best (GNU
Backgammon's move filter) are rolled out, truncated after `plies` plays and judged there by the
expert bot's own estimate, round after round: in each round one game from every candidate on the
same dice (common random numbers, the first two rolls rotated, `rollout.GameDice`), luck-adjusted
for the variants' networks. The clock is read between rounds: rounds go on until the budget is
spent (at least `min_rounds`, at most `max_rounds`), so a play may overrun its budget by the
last round (a luck-adjusted Catchgammon game truncated at 3 plays takes about 3.5 ms of CPU here:
a 0.5 s budget bought 21 to 156 rounds, median 45, in 25 positions of a game, two benchmarks beside).
The candidate with the best mean is played, unless `confidence` asks more: then the expert's own
first play stands unless the best mean leads it by more than `confidence` standard errors of their
paired difference (`overruling`). A play with one candidate left by the filter costs no rollout at all.

The clock is a parameter (`clock`), so what the budget buys is counted in rounds and games, not
timed: a test gives a clock that moves a fixed step per reading. A `Tally` set on the bot (`tally`)
counts what the budget bought, play by play (benchmarks print it). The bot's cube decisions and
resignations are the expert bot's; its opening plays come from the opening book (`opening.py`).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from game.bot.base import Bot, Level, RankedPlay
from game.bot.context import MONEY, MatchContext
from game.bot.encoding import F32
from game.bot.luck import mean_error
from game.bot.met import MatchEquityTable
from game.bot.network_bot import FILTER, NetworkBot
from game.bot.rollout import GameDice, Rollout
from game.errors import UsageError
from game.plays import Play
from game.position import Position

DEFAULT_SECONDS = 2.0  # a play's budget unless told: what a person waits for a considered play
CANDIDATES = 4  # as many as the expert level looks at one ply ahead
TRUNCATE = 3  # plays a rollout game goes before the expert's estimate judges it
MIN_ROUNDS = 2  # a standard error needs two games a candidate, whatever the clock says
MAX_ROUNDS = 1296  # every pair of first two rolls once (GameDice)


@dataclass(frozen=True, slots=True)
class Judged:
    """One candidate of the last play: its rollout mean for the mover, standard error and games."""

    notation: str
    equity: float
    error: float
    games: int


@dataclass(slots=True)
class Tally:
    """What the budget bought: the rounds of each play rolled out and the seconds they took by the
    bot's clock (the expert's ranking before them not counted)."""

    rounds: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def describe(self) -> str:
        """One line: '312 plays rolled out: rounds median 41 (least 2), seconds median 0.51, worst 0.74'."""
        if not self.rounds:
            return "no play rolled out"
        return (f"{len(self.rounds)} plays rolled out: rounds median {statistics.median(self.rounds):g} "
                f"(least {min(self.rounds)}), seconds median {statistics.median(self.seconds):.2f}, "
                f"worst {max(self.seconds):.2f}")


def overruling(values: list[list[float]], confidence: float) -> int:
    """Which candidate to play, given each one's rollout games (`values`, in the expert's order, the
    same dice game by game): the best mean, when it leads the expert's first by more than
    `confidence` standard errors of their games' paired differences; else the expert's first (0).
    At confidence 0 the best mean is played whenever it leads."""
    means = [sum(kept) / len(kept) for kept in values]
    best = max(range(len(values)), key=means.__getitem__)
    if best == 0 or not confidence:
        return best
    lead, error = mean_error([a - b for a, b in zip(values[best], values[0], strict=True)])
    return best if lead > confidence * error else 0


def split_candidates(ranked: list[RankedPlay], candidates: int) -> tuple[list[RankedPlay], list[RankedPlay]]:
    """The expert's ranking split into the plays to roll out (of its first `candidates`, those within
    `FILTER` of its first) and the rest, each in the expert's order. The ranking need not fall in
    equity all the way (its 1-ply head before its 0-ply rest): the filter is against its first."""
    chosen = [i for i, r in enumerate(ranked[:candidates]) if r.equity >= ranked[0].equity - FILTER]
    return [ranked[i] for i in chosen], [r for i, r in enumerate(ranked) if i not in chosen]


class RolloutBot(Bot):
    """The `rollout` level over an expert bot of the same variant."""

    def __init__(self, base: Bot, seconds: float = DEFAULT_SECONDS, candidates: int = CANDIDATES,
                 plies: int | None = TRUNCATE, luck: bool | None = None, seed: int | None = None,
                 clock: Callable[[], float] = time.perf_counter, min_rounds: int = MIN_ROUNDS,
                 max_rounds: int = MAX_ROUNDS, confidence: float = 0.0) -> None:
        """`seconds` a play (the budget); `plies`: plays a game goes before the expert's estimate
        judges it (None: to the game's end); `luck`: luck-adjusted games (None: for the variants'
        networks, which judge the 21 rolls in one batch; GNU Backgammon's rollouts go without);
        `confidence`: the standard errors by which a rollout must lead to overrule the expert's first
        play (`overruling`; 0: the best mean is played)."""
        if not seconds > 0:
            raise UsageError(f"the rollout level needs a budget above 0 seconds a play, not {seconds}")
        if candidates < 2 or (plies is not None and plies < 0) or not 1 <= min_rounds <= max_rounds:
            raise UsageError(f"the rollout level needs 2 or more candidates, 0 or more plies and 1 <= min_rounds "
                             f"<= max_rounds, not {candidates}, {plies}, {min_rounds} and {max_rounds}")
        if not confidence >= 0:
            raise UsageError(f"the rollout level needs a confidence of 0 or more standard errors, not {confidence}")
        super().__init__(base.variant, Level.ROLLOUT, None, seed)
        self.base, self.seconds, self.candidates, self.plies = base, seconds, candidates, plies
        self.luck = isinstance(base, NetworkBot) if luck is None else luck
        self.clock, self.min_rounds, self.max_rounds = clock, min_rounds, max_rounds
        self.confidence = confidence
        self.last: list[Judged] = []  # the candidates of the last play rolled out, the one played first ([]: none)
        self.games: list[list[float]] = []  # the last play's games, a list a candidate in the expert's order
        self.rounds = 0  # rounds of the last play (each one game a candidate)
        self.tally: Tally | None = None  # set one to count every play's rounds and seconds

    @property
    def engine(self) -> str:
        return self.base.engine

    @property
    def name(self) -> str:
        return f"{self.base.engine} (rollout, {self.seconds:g} s a play)"

    def _load_met(self) -> MatchEquityTable:
        return self.base.met

    def warm_up(self) -> None:
        self.base.warm_up()

    def close(self) -> None:
        self.base.close()

    def estimate(self, position: Position, context: MatchContext = MONEY) -> F32:
        return self.base.estimate(position, context)

    def cube_efficiency(self, position: Position) -> float:
        return self.base.cube_efficiency(position)

    def rank_plays(self, position: Position, dice: tuple[int, int],
                   context: MatchContext = MONEY) -> list[RankedPlay]:
        """The expert's ranking with its best candidates re-ranked by their rollouts (their
        equities the rollout means, their outcome estimates the expert's; the play `overruling`
        chooses first, the others by their means); the rest follow in the expert's order with its
        equities."""
        self._check_variant(position)
        ranked = self.base.rank_plays(position, dice, context)
        head, rest = split_candidates(ranked, self.candidates)
        self.last, self.games, self.rounds = [], [], 0
        if len(head) < 2:
            return ranked
        rollout = Rollout(self.base, context, luck=self.luck, plies=self.plies)
        seed = self._rng.randrange(2**31)
        values: list[list[float]] = [[] for _ in head]
        deadline = self.clock() + self.seconds
        while self.rounds < self.max_rounds and (self.rounds < self.min_rounds or self.clock() < deadline):
            for entry, kept in zip(head, values, strict=True):
                value, luck = rollout.play_out(entry, position.turn, GameDice(seed, self.rounds))
                kept.append(value - luck)
            self.rounds += 1
        if self.tally is not None:
            self.tally.rounds.append(self.rounds)
            self.tally.seconds.append(self.clock() - (deadline - self.seconds))
        self.games = values
        played = head[overruling(values, self.confidence)]
        judged = [(entry, *mean_error(kept)) for entry, kept in zip(head, values, strict=True)]
        judged.sort(key=lambda item: (item[0] is not played, -item[1]))
        self.last = [Judged(entry.play.notation(), mean, error, self.rounds) for entry, mean, error in judged]
        return [RankedPlay(entry.play, mean, entry.probs) for entry, mean, _ in judged] + rest

    def choose_play(self, position: Position, dice: tuple[int, int],
                    context: MatchContext = MONEY) -> Play | None:
        self.last, self.games, self.rounds = [], [], 0  # an opening played from the book rolls nothing out
        return super().choose_play(position, dice, context)
