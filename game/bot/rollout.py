"""Rollouts: the candidate plays of a roll judged by playing games out from each (Monte Carlo).

For each candidate the bot plays the game out from the position the play leaves, both sides at
0-ply (cubeless, no noise), many times; the candidate's equity is the mean result, for its mover,
in the context's terms (money: single 1, gammon 2, triple 3; a match: the normalised match equity).

What shrinks the error of these means:
- **the same dice for every candidate** (common random numbers): game g of every candidate rolls
  the same dice, so the differences between candidates, which decide the play, vary far less than
  the equities themselves (their standard errors are given apart); and the first two rolls of the
  games rotate through all 36 rolls each (`GameDice`), so that no first roll comes up more than
  its share. The standard errors are computed as if the games were independent, which the
  rotation makes an over-estimate.
- **luck adjustment** (`--luck`, the variants' networks): at each roll the roller's best 0-ply
  value for that roll less its mean over all 21 rolls is that roll's luck; a game's result less
  the luck of its rolls (each counted for the side that rolled) has the same mean and a smaller
  variance, as GNU Backgammon's "variance reduction" does. All replies of all 21 rolls go through
  the network in one batch, which also gives the play for the roll made. It is not the default:
  it costs about 4.5 times the time a game, and measured from the opening 42 it was worth 5.9 times
  the games in Catchgammon but only 2.3 in Rungammon (benchmarks/bench_bot.py --only rollout).
A race (every checker home and free) ends the game early: the bear-off database's exact cubeless
estimate stands for the rest. A truncated rollout (`plies`, what the rollout level plays by:
`rollout_bot.py`) stops each game after that many plays and takes the bot's estimate of the
position reached.

Backgammon is rolled out by GNU Backgammon at 0-ply through its worker (a round trip a play): the
same dice for every candidate and the race cut-off, without the luck adjustment (21 more round
trips a play).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from game.board import Color
from game.bot import bearoff
from game.bot.base import Bot, RankedPlay
from game.bot.context import MONEY, MatchContext
from game.bot.encoding import F32, states_array
from game.bot.luck import mean_error, stuck_estimate
from game.bot.network_bot import NetworkBot
from game.bot.search import DRAW, ROLL_WEIGHTS, ROLLS, final_estimate, lookahead_estimates
from game.errors import UsageError
from game.movegen import decode, encode, opponent_view, state_plays
from game.position import Position

MAX_PLIES = 3000  # a game still going after these is judged by the evaluator (never seen)
ROLL_INDEX = {roll: index for index, roll in enumerate(ROLLS)}


@dataclass(frozen=True, slots=True)
class RolloutResult:
    """One candidate's rollout: equity for the candidate's mover (with luck adjustment when made),
    its standard error, the plain mean and its error, and against the best candidate the mean
    difference of the paired games with its standard error."""

    play: RankedPlay
    games: int
    equity: float
    error: float
    raw_equity: float
    raw_error: float
    difference: float = 0.0
    difference_error: float = 0.0

    def to_document(self) -> dict[str, Any]:
        """The result as `rollout --json` prints it."""
        return {"notation": self.play.play.notation(), "games": self.games, "equity": round(self.equity, 4),
                "error": round(self.error, 4), "raw_equity": round(self.raw_equity, 4),
                "raw_error": round(self.raw_error, 4), "difference": round(self.difference, 4),
                "difference_error": round(self.difference_error, 4), "evaluation": round(self.play.equity, 4)}


class GameDice:
    """The dice of one rollout game: the same for every candidate (common random numbers), and
    the first two rolls rotated: in each block of 36 games every roll comes first once and second
    once (game g rolls roll g mod 36 first and roll (g + g div 36) mod 36 second, so that 1,296
    games meet every pair of first rolls once), as GNU Backgammon's rotated dice do; random after them."""

    def __init__(self, seed: int, game: int) -> None:
        self._rng = random.Random(f"{seed}:{game}")
        self._rotated = [game % 36, (game + game // 36) % 36]

    def roll(self) -> tuple[int, int]:
        """The next roll of this game."""
        if self._rotated:
            index = self._rotated.pop(0)
            return index // 6 + 1, index % 6 + 1
        return self._rng.randint(1, 6), self._rng.randint(1, 6)


class Rollout:
    """Rolls candidate plays out with one bot (its network at 0-ply, or GNU Backgammon at 0-ply)."""

    def __init__(self, bot: Bot, context: MatchContext = MONEY, luck: bool = False, races: bool = True,
                 plies: int | None = None) -> None:
        """`luck`: adjust for luck (the variants' networks); `races`: stop at a race and take the
        bear-off database's exact estimate (False: play every game to its end); `plies`: a
        truncated rollout, each game stopped after that many plays and judged by the bot's
        estimate of the position, the side on roll before it rolls (None: played to the end)."""
        if plies is not None and plies < 0:
            raise UsageError(f"a truncated rollout needs zero or more plies, not {plies}")
        self.bot, self.context, self.races, self.plies = bot, context, races, plies
        self.luck = luck and isinstance(bot, NetworkBot)

    def equity(self, probs: F32, color: Color) -> float:
        """`color`'s equity of its outcome estimates (5,) in the rollout's context."""
        return float(self.bot.equity_of(probs[None, :], self.context, color)[0])

    def run(self, position: Position, dice: tuple[int, int], games: int, candidates: int = 3, seed: int = 1,
            progress: Callable[[int, int], None] | None = None, judge: Bot | None = None) -> list[RolloutResult]:
        """Roll out the best `candidates` plays of the ranking of `judge` (the rollout's bot unless
        told), `games` games each; best first."""
        if games < 1 or candidates < 1:
            raise UsageError(f"a rollout needs at least one game and one candidate, not {games} and {candidates}")
        ranked = (judge or self.bot).rank_plays(position, dice, self.context)[:candidates]
        if not ranked:
            raise UsageError(f"the roll {dice[0]}{dice[1]} cannot be played: nothing to roll out")
        me = position.turn
        per_play: list[tuple[list[float], list[float]]] = []
        for index, entry in enumerate(ranked):
            adjusted, raw = [], []
            for game in range(games):
                value, luck = self.play_out(entry, me, GameDice(seed, game))
                raw.append(value)
                adjusted.append(value - luck)
            per_play.append((adjusted, raw))
            if progress is not None:
                progress(index + 1, len(ranked))
        results = []
        for entry, (adjusted, raw) in zip(ranked, per_play, strict=True):
            mean, error = mean_error(adjusted)
            raw_mean, raw_error = mean_error(raw)
            results.append(RolloutResult(entry, games, mean, error, raw_mean, raw_error))
        best = max(range(len(results)), key=lambda i: results[i].equity)
        out = []
        for index, result in enumerate(results):
            paired = [a - b for a, b in zip(per_play[index][0], per_play[best][0], strict=True)]
            gap, gap_error = mean_error(paired) if index != best else (0.0, 0.0)
            out.append(RolloutResult(result.play, games, result.equity, result.error, result.raw_equity,
                                     result.raw_error, gap, gap_error))
        return sorted(out, key=lambda r: -r.equity)

    def play_out(self, entry: RankedPlay, me: Color, dice: GameDice) -> tuple[float, float]:
        """One game from the position `entry`'s play leaves: (result, luck), both `me`'s equity."""
        final = final_estimate(entry.play.after_moves)
        if final is not None:
            return self.equity(final, me), 0.0
        if isinstance(self.bot, NetworkBot):
            return self._play_out_states(self.bot, entry.play.next_position, me, dice)
        return self._play_out_positions(entry.play.next_position, me, dice), 0.0

    def _race(self, position: Position, me: Color) -> float | None:
        """`me`'s exact cubeless equity once the game is a race (the bear-off database), else None."""
        boards = bearoff.race_boards(position) if self.races else None
        return None if boards is None else self._for(bearoff.load().estimate(*boards), position.turn, me)

    def _other(self, probs: F32, roller: Color) -> float:
        """The opponent's equity of the roller's estimates (match equity is not antisymmetric in
        general: it is read for the other side)."""
        mirrored = np.array([1.0 - probs[0], probs[3], probs[4], probs[1], probs[2]], dtype=np.float32)
        return self.equity(mirrored, roller.opponent)

    def _for(self, probs: F32, holder: Color, me: Color) -> float:
        return self.equity(probs, me) if holder is me else self._other(probs, holder)

    def _play_out_positions(self, position: Position, me: Color, dice: GameDice) -> float:
        """The generic game loop through the bot's own choices (GNU Backgammon's worker)."""
        for ply in range(MAX_PLIES):
            race = self._race(position, me)
            if race is not None:
                return race
            if ply == self.plies:
                return self._for(self.bot.estimate(position, self.context), position.turn, me)
            roll = dice.roll()
            play = self.bot.choose_play(position, roll, self.context)
            if play is None:
                position = position.with_turn(position.turn.opponent)
                continue
            final = final_estimate(play.after_moves)
            if final is not None:
                return self._for(final, position.turn, me)
            position = play.next_position
        return self._for(self.bot.estimate(position, self.context), position.turn, me)

    def _play_out_states(self, bot: NetworkBot, position: Position, me: Color,
                         dice: GameDice) -> tuple[float, float]:
        """The network's game loop on the move generator's states; each roll's luck from one batch."""
        net, variant = bot.network, bot.variant
        templates = {color: position.with_turn(color) for color in Color}
        mover, state = position.turn, encode(position)
        luck = 0.0
        for ply in range(MAX_PLIES):
            current = decode(state, templates[mover])
            race = self._race(current, me)
            if race is not None:
                return race, luck
            if ply == self.plies:
                return self._for(bot.estimate(current, self.context), mover, me), luck
            roll = dice.roll()
            low, high = sorted(roll)
            rolls = ROLLS if self.luck else ((low, high),)
            found: list[tuple[bytes, ...]] = [state_plays(state, variant, r)[0] for r in rolls]
            flat = [s for results in found for s in results]
            stuck = not all(found)
            if stuck:
                flat.append(state)  # a roll that cannot be played: the same checkers, the opponent rolls
            probs = lookahead_estimates(net, states_array(flat), current.rules,
                                        partial(_decoded, flat, templates[mover]))
            if stuck:
                probs[-1] = stuck_estimate(bot, current)
            values = bot.equity_of(probs, self.context, mover)
            best_rows, start = [], 0
            for results in found:
                end = start + len(results)
                best_rows.append(start + int(np.argmax(values[start:end])) if end > start else len(flat) - 1)
                start = end
            chosen = best_rows[ROLL_INDEX[low, high] if self.luck else 0]
            if self.luck:
                mean = float(ROLL_WEIGHTS @ values[best_rows])
                swing = float(values[chosen]) - mean
                luck += swing if mover is me else -swing
            if stuck and chosen == len(flat) - 1:
                after = state  # no play: the same checkers, the opponent on roll
            else:
                after = flat[chosen]
                final = _final(flat, chosen, templates[mover])
                if final is not None:
                    return self._for(final, mover, me), luck
            state, mover = opponent_view(after, variant), mover.opponent
        return self._for(bot.estimate(decode(state, templates[mover]), self.context), mover, me), luck


def _decoded(states: list[bytes], template: Position, row: int) -> Position:
    return decode(states[row], template)


def _final(states: list[bytes], row: int, template: Position) -> F32 | None:
    """The exact outcome after the play of `row` when it ends the game (the mover's), else None."""
    position = decode(states[row], template)
    if position.result() is None and not position.is_remi():
        return None
    final = final_estimate(position)
    return DRAW.copy() if final is None else final

