"""The bot of Catchgammon and Rungammon (and of the Backgammon learner check): a TD-trained network.

Levels: beginner, casual and intermediate judge each play at 0-ply with noise; advanced at 0-ply;
expert looks one ply ahead (the opponent's 21 rolls and best replies) for the best 4 plays of
the 0-ply ranking, world-class for the best 8, grandmaster for every play; in Catchgammon they then
judge the best 2, 3 and 4 of those two plies ahead (`search.two_ply`), which was measured to win
more against an independent Plakoto engine there and not in Rungammon. As GNU Backgammon's move
filter, only plays within 0.16 of the best are looked at further. Once contact is over
and every checker is home, the bear-off database (`bearoff.py`) judges every play exactly instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from game.board import Color, Variant
from game.bot import bearoff
from game.bot.base import Bot, Level, RankedPlay
from game.bot.bearoff import is_race
from game.bot.context import MONEY, MatchContext
from game.bot.encoding import F32, states_array
from game.bot.equity import BEAROFF_EFFICIENCY
from game.bot.met import MatchEquityTable
from game.bot.network import Network, mirror
from game.bot.search import after_states, estimate_after, final_estimate, one_ply, two_ply
from game.movegen import encode
from game.plays import Play
from game.position import Position

ONE_PLY_CANDIDATES = {Level.EXPERT: 4, Level.WORLD_CLASS: 8, Level.GRANDMASTER: 10_000}
TWO_PLY_CANDIDATES = {Variant.CATCHGAMMON: {Level.EXPERT: 2, Level.WORLD_CLASS: 3, Level.GRANDMASTER: 4}}
FILTER = 0.16  # equity below the 0-ply best beyond which a play is not looked at further (GNU Backgammon's 0.16)


def shipped_weights(variant: Variant) -> Path:
    """Where the trained network of `variant` ships inside the package."""
    return Path(str(resources.files("game.bot") / "weights" / f"{variant.value}.npz"))


class NetworkBot(Bot):
    """A bot that judges plays with a `Network` at 0 or 1 ply."""

    def __init__(self, network: Network, level: Level, met: MatchEquityTable | None = None,
                 seed: int | None = None) -> None:
        super().__init__(network.variant, level, met or MatchEquityTable.computed(network.variant), seed)
        self.network = network
        self.exact_races = True  # races judged by the bear-off database (False: by the network, to compare)
        self.two_ply = TWO_PLY_CANDIDATES.get(network.variant, {}).get(level, 0)
        """How many of the best plays after the one-ply look-ahead are judged again two plies ahead
        (`search.two_ply`; the variant's and level's, 0 for none)."""

    @classmethod
    def shipped(cls, variant: Variant, level: Level, seed: int | None = None) -> NetworkBot:
        """The bot with the network trained for `variant` that ships with the package."""
        return cls(Network.load(shipped_weights(variant)), level, seed=seed)

    @property
    def engine(self) -> str:
        return f"smartgammon TD network ({self.variant.value})"

    def rank_plays(self, position: Position, dice: tuple[int, int],
                   context: MatchContext = MONEY) -> list[RankedPlay]:
        self._check_variant(position)
        plays = position.legal_plays(dice)
        if not plays:
            return []
        me = position.turn
        if self.exact_races and is_race(position):
            return self._rank_race(plays, context)
        probs, _ = estimate_after(self.network, plays, after_states(plays))
        equity = self.equity_of(probs, context, me)
        order = [int(i) for i in np.argsort(-equity, kind="stable")]
        deeper = ONE_PLY_CANDIDATES.get(self.level, 0)
        head = [i for i in order[:deeper] if equity[i] >= equity[order[0]] - FILTER]
        if len(head) > 1:  # GNU Backgammon's move filter: look further only at plays close to the best

            def equity_of(p: F32, color: Color) -> F32:
                return self.equity_of(p, context, color)

            for index in head:
                probs[index] = one_ply(self.network, plays[index], equity_of)
            equity[head] = self.equity_of(probs[head], context, me)
            order = sorted(head, key=lambda i: -float(equity[i])) + order[len(head):]
            top = [i for i in order[:self.two_ply] if equity[i] >= equity[order[0]] - FILTER]
            if len(top) > 1:
                for index in top:
                    probs[index] = two_ply(self.network, plays[index], equity_of)
                equity[top] = self.equity_of(probs[top], context, me)
                order = sorted(top, key=lambda i: -float(equity[i])) + order[len(top):]
        return [RankedPlay(plays[i], float(equity[i]), _five(probs[i])) for i in order]

    def _rank_race(self, plays: Sequence[Play], context: MatchContext) -> list[RankedPlay]:
        """A race's plays judged exactly by the bear-off database (no look-ahead needed)."""
        database = bearoff.load()
        probs = np.empty((len(plays), 5), dtype=np.float32)
        for index, play in enumerate(plays):
            final = final_estimate(play.after_moves)
            probs[index] = final if final is not None else mirror(
                database.estimate_position(play.next_position)[None, :])[0]
        equity = self.equity_of(probs, context, plays[0].after_moves.turn)
        order = [int(i) for i in np.argsort(-equity, kind="stable")]
        return [RankedPlay(plays[i], float(equity[i]), _five(probs[i])) for i in order]

    def cube_efficiency(self, position: Position) -> float:
        """GNU Backgammon's: 0.6 in a bear-off the database judges, else the contact value."""
        return BEAROFF_EFFICIENCY if self.exact_races and is_race(position) else super().cube_efficiency(position)

    def estimate(self, position: Position, context: MatchContext = MONEY) -> F32:
        self._check_variant(position)
        if self.exact_races and is_race(position):
            return bearoff.load().estimate_position(position)
        probs: F32 = self.network.evaluate(states_array([encode(position)]))[0]
        return probs


def _five(row: F32) -> tuple[float, float, float, float, float]:
    a, b, c, d, e = (float(v) for v in row)
    return a, b, c, d, e
