"""Learning by self-play with temporal differences, TD(lambda), as TD-Gammon began.

The network plays both sides, choosing each play greedily at 0-ply. After every play the
estimate of the position before it is moved toward the estimate of the position after it (the
opponent then on roll, read back from the mover's side), and at the end toward the result.
Eligibility traces carry each error back over the earlier positions, fading by lambda. Everything
is read from White's side for the traces, so the alternating players share one chain of estimates.
Runs are reproducible from their seed: one numpy generator for the initial weights, one
`random.Random` for the dice.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from game.board import Color, Variant
from game.bot.encoding import F32, features, states_array
from game.bot.equity import distribution
from game.bot.network import LOSE_GAMMON, LOSE_TRIPLE, OUTPUTS, WIN, WIN_GAMMON, WIN_TRIPLE, Network
from game.bot.search import estimate_after_states, may_be_over
from game.errors import UsageError, WrongVariant
from game.movegen import decode, encode, opponent_view, state_plays
from game.position import Position

MONEY_VALUES = np.array([1, 2, 3, -1, -2, -3], dtype=np.float32)
MAX_PLIES = 3000
DEFAULT_TEMPERATURE = 0.1  # --explore's: a play 0.1 worse than the best is drawn 1/e as often
# White's outputs from Black's: each row k of White's reads output FROM_BLACK[k] of Black's.
FROM_BLACK = np.array([WIN, LOSE_GAMMON, LOSE_TRIPLE, WIN_GAMMON, WIN_TRIPLE])
BLACK_SIGN = np.array([-1.0, 1.0, 1.0, 1.0, 1.0], dtype=np.float32)


def _white_view(values: F32, mover: Color) -> F32:
    """Estimates (5,) of the side on roll, as White's."""
    if mover is Color.WHITE:
        return values
    out: F32 = values[FROM_BLACK].copy()
    out[WIN] = 1.0 - values[WIN]
    return out


def _decode(states: Sequence[bytes], template: Position, row: int) -> Position:
    """The position of one resulting state, with the template's variant and turn (the mover)."""
    return decode(states[row], template)


@dataclass
class Settings:
    """A training run's parameters (all written into the weights' record)."""

    variant: Variant
    games: int
    seed: int
    hidden: int = 64
    second: int = 0
    """Units of a second hidden layer added to the initial network at no say (`Network.deepened`);
    0: none added (a network that has one keeps it)."""
    alpha: float = 0.1  # learning rate at the start, falling toward alpha_end
    alpha_end: float = 0.02
    lam: float = 0.7
    alpha_games: int = 5000  # games for the rate to fall 63% of the way
    start: int = 0  # games the initial network has already played (a continued run): the rate goes on from there
    parallel: int = 1  # games played at once (game.bot.lockstep); 1: one after another, as TD-Gammon
    expected: bool = False
    """Each play's target is the mean over the 21 rolls of the estimate after that roll's greedy
    play (a 1-ply backup), not the estimate after the play for the roll thrown (lockstep only)."""
    explore: int = 0
    """The first plies of each game that sample their play, not take the greedy one (lockstep only):
    each candidate with the weight exp(equity / temperature), relative to the best."""
    temperature: float = DEFAULT_TEMPERATURE

    def __post_init__(self) -> None:
        if self.expected and self.parallel == 1:
            raise UsageError("--expected-target: the mean over the 21 rolls is made in lockstep; "
                             "add --parallel N (N > 1)")
        if self.explore and self.parallel == 1:
            raise UsageError(f"--explore {self.explore}: exploring plays are chosen in lockstep; "
                             "add --parallel N (N > 1)")
        if self.explore < 0 or not self.temperature > 0:
            raise UsageError(f"--explore {self.explore} --temperature {self.temperature}: the plies must be 0 "
                             "or more and the temperature above 0")

    def alpha_at(self, game: int) -> float:
        """The learning rate of game `game` (0-based). It does not depend on the run's length, so
        the first n games of a longer run are the run of n games, checkpoint for checkpoint."""
        return self.alpha_end + (self.alpha - self.alpha_end) * math.exp(-game / self.alpha_games)


@dataclass
class Trainer:
    """Self-play TD(lambda) over one network."""

    settings: Settings
    initial: Network | None = None  # continue from these weights (a copy is trained), else untrained ones
    network: Network = field(init=False)
    plies: int = 0
    results: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # remi, single, gammon, triple

    def __post_init__(self) -> None:
        s = self.settings
        if self.initial is None:
            self.network = Network.untrained(s.variant, s.hidden, s.seed)
        else:
            if self.initial.variant is not s.variant:
                raise WrongVariant(f"cannot continue a {self.initial.variant.value} network on {s.variant.value}")
            # More hidden units than the initial network's: the same estimates, with room to learn more.
            wider = s.hidden > self.initial.hidden
            self.network = self.initial.widened(s.hidden, s.seed) if wider else self.initial.copy()
        if s.second:
            self.network = self.network.deepened(s.second, s.seed)
        self._dice = random.Random(s.seed)

    def play_game(self, game: int) -> None:
        """Self-play game number `game` of this run (0-based), learning after every play.

        The game runs on the move generator's states (`state_plays`, `opponent_view`): a position is
        built only when a play may end the game."""
        net, variant = self.network, self.settings.variant
        alpha, lam = self.settings.alpha_at(self.settings.start + game), self.settings.lam
        traces = [np.zeros((OUTPUTS, *a.shape), dtype=np.float32) for a in net.arrays()]
        while True:
            a, b = self._dice.randint(1, 6), self._dice.randint(1, 6)
            if a != b:
                break
        mover = Color.WHITE if a > b else Color.BLACK
        templates = {color: Position.initial(variant, color) for color in Color}  # variant and turn to decode
        state = encode(templates[mover])
        dice = (a, b)
        x = features(variant, states_array([state]))[0]
        for _ in range(MAX_PLIES):
            y, grads = net.gradients(x)
            results, _moves = state_plays(state, variant, dice)
            template = templates[mover]
            if results:
                probs, xs = estimate_after_states(net, states_array(list(results)), template.rules,
                                                  partial(_decode, results, template))
                best = int(np.argmax(distribution(probs) @ MONEY_VALUES))
                after, target, x_next = results[best], probs[best], xs[best]
            else:
                # No play: the same checkers, the opponent on roll (and the game cannot end here).
                after = state
                probs, xs = estimate_after_states(net, states_array([state]), template.rules,
                                                  partial(_decode, (state,), template))
                target, x_next = probs[0], xs[0]
            # target: the mover's estimate after the play; y: the network's before it.
            final = None
            if may_be_over(variant, states_array([after]), template.rules)[0]:
                ended = decode(after, template)
                final = ended if ended.result() is not None or ended.is_remi() else None
            delta = _white_view(target, mover) - _white_view(y, mover)
            for trace, grad in zip(traces, grads, strict=True):
                sign = BLACK_SIGN.reshape((5,) + (1,) * (grad.ndim - 1))
                g = grad if mover is Color.WHITE else grad[FROM_BLACK] * sign
                trace *= lam
                trace += g
            for array, trace in zip(net.arrays(), traces, strict=True):
                array += alpha * np.tensordot(delta, trace, axes=1)
            self.plies += 1
            if final is not None:
                self.count(final)
                return
            state, mover = opponent_view(after, variant), mover.opponent
            dice = (self._dice.randint(1, 6), self._dice.randint(1, 6))
            x = x_next

    def count(self, final: Position) -> None:
        """Count a finished self-play game's result."""
        result = final.result()
        self.results[0 if result is None else int(result.kind)] += 1

    def run(self, progress: Callable[[int, float], None] | None = None,
            checkpoint: Callable[[int], None] | None = None, every: int = 0) -> float:
        """Play all the games; `progress(done, elapsed)` after each, `checkpoint(done)` every `every`."""
        start = time.perf_counter()
        if checkpoint and every:
            checkpoint(0)
        for game in range(self.settings.games):
            self.play_game(game)
            if progress:
                progress(game + 1, time.perf_counter() - start)
            if checkpoint and every and (game + 1) % every == 0:
                checkpoint(game + 1)
        return time.perf_counter() - start
