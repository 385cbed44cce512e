"""Fixed opponents to measure a bot against: a random player and a pip-count-and-safety player.

Neither doubles; both take every double and accept any resignation that gives them the game.
"""

from __future__ import annotations

import numpy as np

from game.board import Variant
from game.bot.base import Bot, Level, RankedPlay
from game.bot.context import MONEY, CubeAction, MatchContext
from game.bot.encoding import F32, U8, Board, flip
from game.bot.met import MatchEquityTable
from game.bot.search import after_states
from game.position import Position

_POINTS = np.arange(1, 25)
_EVEN = np.array([0.5, 0.15, 0.01, 0.15, 0.01], dtype=np.float32)


class _Fixed(Bot):
    """The cube and resignation habits of the baselines."""

    def __init__(self, variant: Variant, seed: int | None = None) -> None:
        super().__init__(variant, Level.ADVANCED, MatchEquityTable.computed(variant), seed)

    def estimate(self, position: Position, context: MatchContext = MONEY) -> F32:
        return _EVEN.copy()

    def cube_action(self, position: Position, context: MatchContext = MONEY) -> CubeAction:
        return CubeAction.NO_DOUBLE if context.cube.offered_by is None else CubeAction.TAKE


class RandomBot(_Fixed):
    """Plays a uniformly random legal play (seeded)."""

    @property
    def engine(self) -> str:
        return "random player"

    @property
    def name(self) -> str:
        return "random"

    def rank_plays(self, position: Position, dice: tuple[int, int],
                   context: MatchContext = MONEY) -> list[RankedPlay]:
        plays = list(position.legal_plays(dice))
        self._rng.shuffle(plays)
        return [RankedPlay(play, 0.0, (0.5, 0.15, 0.01, 0.15, 0.01)) for play in plays]


class HeuristicBot(_Fixed):
    """Plays what a beginner with a pip count and a sense of safety would: run ahead in the race,
    make points, hit or trap, and leave as few blots within the opponent's reach as it can."""

    @property
    def engine(self) -> str:
        return "pip-count-and-safety heuristic"

    @property
    def name(self) -> str:
        return "heuristic"

    def rank_plays(self, position: Position, dice: tuple[int, int],
                   context: MatchContext = MONEY) -> list[RankedPlay]:
        plays = position.legal_plays(dice)
        if not plays:
            return []
        scores = heuristic_scores(self.variant, after_states(plays))
        order = np.argsort(-scores, kind="stable")
        return [RankedPlay(plays[i], float(scores[i]), (0.5, 0.15, 0.01, 0.15, 0.01)) for i in order]


def heuristic_scores(variant: Variant, states: U8) -> F32:
    """The heuristic's score of each resulting state (mover's side): higher is better."""
    me, them = Board(states), Board(flip(variant, states))
    my_pips = ((me.mine + me.my_trapped) * _POINTS).sum(axis=1) + 25 * me.my_bar
    their_pips = ((them.mine + them.my_trapped) * _POINTS).sum(axis=1) + 25 * them.my_bar
    held = (me.mine >= 2) | (me.their_trapped if variant is Variant.CATCHGAMMON else False)
    if variant is Variant.RUNGAMMON:
        held = me.mine >= 1
    # A blot is in reach when an opposing checker stands 1-12 pips behind it on their way.
    theirs_at = me.theirs > 0
    reach = np.zeros_like(theirs_at)
    for distance in range(1, 13):
        reach[:, distance:] |= theirs_at[:, :-distance]
    blots = (me.mine == 1) & (me.theirs == 0)
    exposed = (blots & (reach | (me.their_bar > 0)[:, None])).sum(axis=1)
    if variant is Variant.RUNGAMMON:
        exposed = np.zeros_like(exposed)  # nothing is ever hit
    score = (their_pips - my_pips) / 10.0 + 1.0 * held.sum(axis=1) + 0.5 * held[:, :6].sum(axis=1)
    score = score - 1.5 * exposed + 3.0 * them.my_trapped.sum(axis=1) - 3.0 * me.my_trapped.sum(axis=1)
    scores: F32 = (score + 0.5 * me.my_off).astype(np.float32)
    return scores
