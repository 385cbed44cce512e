"""The luck of the dice in a game, as a network judges it: what a measurement subtracts to need
fewer games.

A roll's luck, for the side that throws it, is the value of the position after its best 0-ply
play for that roll less the mean of that value over the rolls it might have thrown (the 21 rolls,
1/36 a double and 2/36 the others; at the opening the 30 outcomes of two different dice, which
also decide who starts). Values are read for one side, `me`: its chance of winning (`Luck.wins`)
and its cubeless money equity (`Luck.points`).

Whatever the network's errors, each roll's luck has mean zero given the position it is thrown in,
so a game's result less the luck of its rolls has the same mean as the result: an unbiased
estimate of it, GNU Backgammon's luck-adjusted result. The better the network follows the game,
the smaller that estimate's spread: the dice's share of it leaves, and what is left is mostly the
players' own doing. `benchmarks/bench_external.py` reads it beside every game unless told `--luck off`,
`bench_bot.py --luck` beside its network figures; `rollout.py` adjusts its games the same way on
the move generator's states.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.board import Color, Variant
from game.bot import bearoff
from game.bot.base import Level
from game.bot.context import MONEY
from game.bot.encoding import F32, states_array
from game.bot.network import mirror
from game.bot.network_bot import NetworkBot
from game.bot.search import ROLL_WEIGHTS, ROLLS, final_estimate, lookahead_estimates
from game.movegen import decode, encode, state_plays
from game.position import Position

OPENING_ROLLS = tuple(i for i, (a, b) in enumerate(ROLLS) if a != b)
"""The rolls an opening can be (two different dice): 15 of the 21, each as likely as another."""


@dataclass(frozen=True, slots=True)
class Luck:
    """Luck for one side: in its chance of winning, and in cubeless money points."""

    wins: float = 0.0
    points: float = 0.0

    def __add__(self, other: Luck) -> Luck:
        return Luck(self.wins + other.wins, self.points + other.points)


class LuckMeter:
    """Sums the luck of one game's rolls for one side, as `arena.play_game` shows them to it
    (`watch`).

    `judge`: the network bot whose 0-ply values are read, whatever its level; `shipped` takes the
    variant's shipped network, so that measurements of any two players subtract the same luck."""

    def __init__(self, judge: NetworkBot) -> None:
        self.judge = judge
        self.me = Color.WHITE
        self.total = Luck()
        self.rolls = 0
        self.games: list[Adjusted] = []
        """Each game ended so far (`finish`), with its luck."""

    @classmethod
    def shipped(cls, variant: Variant) -> LuckMeter:
        """The meter judging by the variant's shipped network."""
        return cls(NetworkBot.shipped(variant, Level.ADVANCED))

    def start(self, me: Color) -> None:
        """A new game, its luck read for `me`."""
        self.me, self.total, self.rolls = me, Luck(), 0

    def finish(self, points: int) -> Adjusted:
        """The game ended with `points` for `me` (won if positive): kept in `games`."""
        game = Adjusted(points > 0, points, self.total)
        self.games.append(game)
        return game

    def __call__(self, position: Position, dice: tuple[int, int], opening: bool) -> None:
        """The roll `dice` thrown in `position` (its turn the roller; `opening`: the game's first roll,
        which also chose the roller)."""
        self.total = self.total + self.luck(position, dice, opening)
        self.rolls += 1

    def luck(self, position: Position, dice: tuple[int, int], opening: bool = False) -> Luck:
        """One roll's luck for `me` (see the module's docstring)."""
        index = ROLLS.index((min(dice), max(dice)))
        wins, points = self._values(position)
        if not opening:
            return Luck(float(wins[index] - ROLL_WEIGHTS @ wins), float(points[index] - ROLL_WEIGHTS @ points))
        other_wins, other_points = self._values(position.with_turn(position.turn.opponent))
        rolls = list(OPENING_ROLLS)
        mean_wins = (wins[rolls].sum() + other_wins[rolls].sum()) / (2 * len(rolls))
        mean_points = (points[rolls].sum() + other_points[rolls].sum()) / (2 * len(rolls))
        return Luck(float(wins[index] - mean_wins), float(points[index] - mean_points))

    def _values(self, position: Position) -> tuple[F32, F32]:
        """`me`'s chance of winning and money equity after the roller's best play, for each of the 21 rolls."""
        probs = best_after_each_roll(self.judge, position)
        equity = self.judge.equity_of(probs, MONEY, position.turn)
        if position.turn is self.me:
            return probs[:, 0], equity
        return 1.0 - probs[:, 0], -equity


def best_after_each_roll(bot: NetworkBot, position: Position) -> F32:
    """The roller's outcome estimates (21, 5) after its best 0-ply play (by money equity) for each
    of the 21 rolls, in `ROLLS` order: exact once the game is over or a race (the bear-off
    database); a roll with no play leaves the opponent to roll in the same position."""
    if bearoff.is_race(position):
        return _race_rows(bot, position)
    start, variant, rules = encode(position), position.variant, position.rules
    found = [state_plays(start, variant, roll, rules)[0] for roll in ROLLS]
    flat = [state for states in found for state in states]
    out = np.empty((len(ROLLS), 5), dtype=np.float32)
    if flat:
        probs = lookahead_estimates(bot.network, states_array(flat), rules, lambda row: decode(flat[row], position))
        equity = bot.equity_of(probs, MONEY, position.turn)
    first = 0
    for index, states in enumerate(found):
        if states:
            out[index] = probs[first + int(np.argmax(equity[first:first + len(states)]))]
        else:
            out[index] = stuck_estimate(bot, position)
        first += len(states)
    return out


def _race_rows(bot: NetworkBot, position: Position) -> F32:
    database = bearoff.load()
    out = np.empty((len(ROLLS), 5), dtype=np.float32)
    for index, roll in enumerate(ROLLS):
        plays = position.legal_plays(roll)
        if not plays:
            out[index] = mirror(database.estimate_position(position.pass_turn())[None, :])[0]
            continue
        rows = np.stack([final if (final := final_estimate(play.after_moves)) is not None
                         else mirror(database.estimate_position(play.next_position)[None, :])[0] for play in plays])
        out[index] = rows[int(np.argmax(bot.equity_of(rows, MONEY, position.turn)))]
    return out


def stuck_estimate(bot: NetworkBot, position: Position) -> F32:
    """The roller's estimates when its roll cannot be played: the opponent rolls in the same position."""
    theirs = bot.estimate(position.with_turn(position.turn.opponent))
    return np.array([1.0 - theirs[0], theirs[3], theirs[4], theirs[1], theirs[2]], dtype=np.float32)


@dataclass(frozen=True, slots=True)
class Adjusted:
    """One game's result for one side with its luck: won or not, points, and `luck`."""

    won: bool
    points: int
    luck: Luck

    @property
    def wins(self) -> float:
        """The game's win less its luck: its share of an unbiased, luck-adjusted win rate."""
        return float(self.won) - self.luck.wins

    @property
    def adjusted_points(self) -> float:
        """The game's points less its luck in points."""
        return self.points - self.luck.points


def mean_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of `values` and its standard error (infinite for one value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def mean_half_width(values: Sequence[float]) -> tuple[float, float]:
    """The mean of `values` and half its 95% interval (normal; infinite for fewer than two)."""
    mean, error = mean_error(values)
    return mean, 1.96 * error


def describe_adjusted(games: Sequence[Adjusted]) -> str:
    """The games' luck-adjusted win rate and points a game, each with its 95% half-width and what
    the adjustment is worth: the plain figure's variance over the adjusted one's, the factor by
    which it multiplies the games."""
    rate, rate_width = mean_half_width([g.wins for g in games])
    _, plain_rate_width = mean_half_width([float(g.won) for g in games])
    equity, equity_width = mean_half_width([g.adjusted_points for g in games])
    _, plain_equity_width = mean_half_width([float(g.points) for g in games])
    return (f"luck-adjusted: win rate {100 * rate:.1f}% +- {100 * rate_width:.1f} (95%; the plain figure's "
            f"+- {100 * plain_rate_width:.1f}: {_worth(plain_rate_width, rate_width)}), {equity:+.3f} +- "
            f"{equity_width:.3f} points a game (the plain figure's +- {plain_equity_width:.3f}: "
            f"{_worth(plain_equity_width, equity_width)})")


def _worth(plain: float, adjusted: float) -> str:
    if adjusted == 0 or not math.isfinite(adjusted) or not math.isfinite(plain):
        return "no spread to compare"
    return f"worth {(plain / adjusted) ** 2:.1f} times the games"
