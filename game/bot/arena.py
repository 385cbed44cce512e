"""Bot against bot: single games without the cube, and win rates with their confidence intervals."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Protocol

from game.board import Color, Variant
from game.plays import Play
from game.position import Position

MAX_TURNS = 3000  # a guard: no game of any variant comes near it
MAX_REMIS = 100  # a guard too: a Remi is rare (about 1 game in 270 of self-play)


class Player(Protocol):
    """What a game asks of a side: its play for the roll (None: it cannot play). Every `Bot` is
    one; so is an engine written elsewhere that benchmarks/bench_external.py seats."""

    def choose_play(self, position: Position, dice: tuple[int, int]) -> Play | None: ...


class Watch(Protocol):
    """Shown each roll of a game before it is played, the roller on turn (`opening`: the game's
    first roll, which also chose the roller): what a measurement reads beside the game, such as
    the dice's luck (`luck.LuckMeter`). It changes nothing in the game."""

    def __call__(self, position: Position, dice: tuple[int, int], opening: bool) -> None: ...


class GameWatch(Watch, Protocol):
    """A `Watch` told when each game of a match-up starts (the side it reads for) and how it ended
    (points for that side): `luck.LuckMeter`."""

    def start(self, me: Color) -> None: ...

    def finish(self, points: int) -> object: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one game ended for the first bot: points won (+) or lost (-), 0 only if it never ended;
    `remis`: the Catchgammon Remis before it (each a draw played again, as the rules have it)."""

    points: int
    remis: int = 0

    @property
    def won(self) -> bool:
        """The first bot won the game."""
        return self.points > 0


def play_game(first: Player, second: Player, variant: Variant, rng: random.Random,
              first_color: Color = Color.WHITE, watch: Watch | None = None) -> Outcome:
    """One cubeless game; the opening roll decides who starts (doubles rolled again). A Catchgammon
    Remi scores nothing and the game is played again (game/RULES.md), so a game ends with a winner.
    `watch` is shown every roll."""
    for remis in range(MAX_REMIS):
        outcome = _play_once(first, second, variant, rng, first_color, watch)
        if outcome is not None:
            return Outcome(outcome.points, remis)
    return Outcome(0, MAX_REMIS)


def _play_once(first: Player, second: Player, variant: Variant, rng: random.Random,
               first_color: Color, watch: Watch | None) -> Outcome | None:
    """One game from the opening roll to its result, or None for a Remi."""
    bots = {first_color: first, first_color.opponent: second}
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    position = Position.initial(variant, Color.WHITE if a > b else Color.BLACK)
    dice = (a, b)
    for turn in range(MAX_TURNS):
        if watch is not None:
            watch(position, dice, turn == 0)
        play = bots[position.turn].choose_play(position, dice)
        after = play.after_moves if play else position
        result = after.result()
        if result is not None:
            return Outcome(int(result.kind) * (1 if result.winner is first_color else -1))
        if after.is_remi():
            return None
        position = after.pass_turn()
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    return Outcome(0)


@dataclass(frozen=True, slots=True)
class Score:
    """Games between two bots: wins of the first, games, and points per game."""

    wins: int
    games: int
    points: int
    sum_squares: int
    remis: int = 0  # Catchgammon Remis, each played again within its game

    @property
    def rate(self) -> float:
        """The first bot's share of games won."""
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson's 95% confidence interval of the win rate."""
        n, p = self.games, self.rate
        if not n:
            return 0.0, 1.0
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def equity(self) -> float:
        """Points won per game by the first bot."""
        return self.points / self.games if self.games else 0.0

    def equity_half_width(self, z: float = 1.96) -> float:
        """Half the 95% confidence interval of the points per game."""
        n = self.games
        if n < 2:
            return float("inf")
        variance = (self.sum_squares - self.points * self.points / n) / (n - 1)
        return z * math.sqrt(max(variance, 0.0) / n)

    def describe(self) -> str:
        """ "62.0% [55.1, 68.4] of 200 games, +0.31 +- 0.18 points per game" """
        low, high = self.interval()
        remis = f" ({self.remis} Remis played again)" if self.remis else ""
        return (f"{100 * self.rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}] of {self.games} games{remis}, "
                f"{self.equity:+.3f} +- {self.equity_half_width():.3f} points per game")


def match_up(first: Player, second: Player, variant: Variant, games: int, seed: int,
             watch: GameWatch | None = None) -> Score:
    """`games` games, the first bot White in half of them, reproducibly from `seed`; `watch` reads
    each game for the first bot (the games are the same)."""
    rng = random.Random(seed)
    wins = points = squares = remis = 0
    for number in range(games):
        color = Color.WHITE if number % 2 == 0 else Color.BLACK
        if watch is not None:
            watch.start(color)
        outcome = play_game(first, second, variant, rng, color, watch)
        if watch is not None:
            watch.finish(outcome.points)
        wins += outcome.won
        points += outcome.points
        squares += outcome.points * outcome.points
        remis += outcome.remis
    return Score(wins, games, points, squares, remis)
