"""TD(lambda) self-play with many games at once (`train --parallel G`): the same learning as
`td.Trainer.play_game`, batched so that numpy's cost per call is paid once per step, not per game.

G games stand on G slots. At every step each slot's game makes one play: the network judges the
positions of all slots in one call (with the gradients of their estimates), the candidate plays of
all slots in a second call, and the step's updates, one per game from its own eligibility traces,
are added to the weights together. A slot whose game ends takes the next game of the run. Each game
rolls its own dice, from a generator seeded by the run's seed and the game's number, so a run
repeats from its seed and G (unlike a run of single games, its first n games are not the run of n:
the games overlap).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from game.board import Color
from game.bot.encoding import F32, features, states_array
from game.bot.equity import distribution
from game.bot.network import OUTPUTS, WIN
from game.bot.search import ROLL_WEIGHTS, ROLLS, best_rows, estimate_after_states, may_be_over
from game.bot.td import BLACK_SIGN, FROM_BLACK, MAX_PLIES, MONEY_VALUES, Trainer
from game.movegen import State, decode, encode, opponent_view, state_plays
from game.position import Position

_SAME = np.arange(OUTPUTS)
_EYE = np.eye(OUTPUTS, dtype=np.float32)


def game_dice(seed: int, game: int) -> random.Random:
    """The dice of game `game` of a parallel run from `seed`."""
    return random.Random(seed * 1_000_003 + game)


@dataclass
class _Game:
    """One slot's game: its number, dice, position (the mover's state) and plies so far."""

    number: int
    dice_rng: random.Random
    state: State
    mover: Color
    dice: tuple[int, int]
    x: F32
    explorer: random.Random
    """Draws the game's exploring plays (settings' `explore`), apart from its dice."""
    plies: int = 0
    over: bool = False

    def roll(self) -> None:
        self.dice = (self.dice_rng.randint(1, 6), self.dice_rng.randint(1, 6))


class Lockstep:
    """Plays a trainer's games G at a time (its settings' `parallel`), learning after every step."""

    def __init__(self, trainer: Trainer, compiled: bool = True) -> None:
        """`compiled`: fade the traces and add the gradients with the compiled kernel where it is
        built (`describe_traces`): the same numbers to the bit as numpy's, the training 1.5 to 1.9
        times as fast (game/bot/README.md)."""
        self.trainer = trainer
        net, variant = trainer.network, trainer.settings.variant
        self.templates = {color: Position.initial(variant, color) for color in Color}
        slots = trainer.settings.parallel
        self.traces = [np.zeros((slots, OUTPUTS, *a.shape), dtype=np.float32) for a in net.arrays()]
        # numpy's path makes the first layer's gradients in place each step; the compiled one never holds them.
        self._kernel = _TRACES if compiled else None
        self._buffer = np.empty_like(self.traces[0]) if self._kernel is None else None

    def _start(self, number: int) -> _Game:
        """Game `number`: the opening roll (doubles rolled again) decides who starts."""
        s = self.trainer.settings
        dice_rng = game_dice(s.seed, number)
        while True:
            a, b = dice_rng.randint(1, 6), dice_rng.randint(1, 6)
            if a != b:
                break
        mover = Color.WHITE if a > b else Color.BLACK
        state = encode(self.templates[mover])
        x = features(s.variant, states_array([state]))[0]
        return _Game(number, dice_rng, state, mover, (a, b), x, random.Random(f"explore {s.seed} {number}"))

    def run(self, progress: Callable[[int, float], None] | None = None,
            checkpoint: Callable[[int], None] | None = None, every: int = 0) -> float:
        """Play all the run's games; `progress(done, elapsed)` as each ends, `checkpoint(done)` every
        `every`. The games go in blocks of `every` (a slot takes no game of the next block before the
        block is over), so that a run of n games, n a multiple of `every`, is the first n of a longer run."""
        started = time.perf_counter()
        total = self.trainer.settings.games
        block = every or total
        if checkpoint and every:
            checkpoint(0)
        for first in range(0, total, block):
            self._play_block(first, min(total, first + block), progress, started)
            if checkpoint and every and (first + block) <= total:
                checkpoint(first + block)
        return time.perf_counter() - started

    def _play_block(self, first: int, end: int, progress: Callable[[int, float], None] | None,
                    started: float) -> None:
        """Games first .. end - 1, each slot taking the next game as its own ends."""
        opening = range(first, min(end, first + self.trainer.settings.parallel))
        slots: list[_Game | None] = [self._start(n) for n in opening]
        for trace in self.traces:
            trace[...] = 0.0
        following, done = first + len(slots), first
        while True:
            for index, game in enumerate(slots):
                if game is None or not game.over:
                    continue
                done += 1
                slots[index] = None
                if following < end:
                    slots[index] = self._start(following)
                    following += 1
                    for trace in self.traces:
                        trace[index] = 0.0
                if progress:
                    progress(done, time.perf_counter() - started)
            if all(game is None for game in slots):
                return
            self._step(slots)

    def _step(self, slots: list[_Game | None]) -> None:
        """One play in every slot's game, and the learning from it."""
        trainer = self.trainer
        net, s = trainer.network, trainer.settings
        live = [i for i, game in enumerate(slots) if game is not None]
        games = [game for game in slots if game is not None]
        x = np.stack([game.x for game in games])
        hidden, second, y = net.activations(x)
        black = np.array([game.mover is Color.BLACK for game in games])
        # The network's estimate before each play, its gradients, and the play's target.
        targets, after_states, next_x = self._choose(games)
        delta = _white_view(targets, black) - _white_view(y, black)
        self._learn(live, x, hidden, second, y, black)
        alphas = np.array([s.alpha_at(s.start + game.number) for game in games], dtype=np.float32)
        coef = np.zeros((self.traces[0].shape[0], OUTPUTS), dtype=np.float32)
        coef[live] = alphas[:, None] * delta
        flat = coef.reshape(-1)
        for array, trace in zip(net.arrays(), self.traces, strict=True):
            array += (flat @ trace.reshape(flat.size, -1)).reshape(array.shape)
        for game, after, x_next in zip(games, after_states, next_x, strict=True):
            trainer.plies += 1
            game.plies += 1
            final = None
            if may_be_over(s.variant, states_array([after]), self.templates[game.mover].rules)[0]:
                ended = decode(after, self.templates[game.mover])
                final = ended if ended.result() is not None or ended.is_remi() else None
            if final is not None or game.plies >= MAX_PLIES:
                if final is not None:
                    trainer.count(final)
                game.over = True
                continue
            game.state, game.mover = opponent_view(after, s.variant), game.mover.opponent
            game.roll()
            game.x = x_next

    def _choose(self, games: list[_Game]) -> tuple[F32, list[State], F32]:
        """Each game's greedy play at 0-ply (candidates of all games judged in one batch): the mover's
        estimate after it (or, with `expected`, the mean over the 21 rolls of the estimate after each
        roll's greedy play: a 1-ply backup, free of the dice's luck), its resulting state, and the
        input row of the position the opponent rolls in. In a game's first `explore` plies the play
        is drawn (`explored`) instead; the expected target stays the greedy plays' mean."""
        settings = self.trainer.settings
        variant, net, expected = settings.variant, self.trainer.network, settings.expected
        candidates: list[State] = []
        owner: list[int] = []
        bounds: list[tuple[int, int]] = []  # each game's (first, end) per roll: its own dice, or the 21 rolls
        for index, game in enumerate(games):
            for dice in (ROLLS if expected else (game.dice,)):
                results, _moves = state_plays(game.state, variant, dice)
                found = list(results) or [game.state]  # no play: the same checkers, the opponent on roll
                bounds.append((len(candidates), len(candidates) + len(found)))
                candidates.extend(found)
                owner.extend([index] * len(found))

        def position_of(row: int) -> Position:
            return decode(candidates[row], self.templates[games[owner[row]].mover])

        probs, xs = estimate_after_states(net, states_array(candidates), self.templates[Color.WHITE].rules, position_of)
        equity = distribution(probs) @ MONEY_VALUES
        best = best_rows(equity, bounds)
        rolls = len(ROLLS) if expected else 1
        thrown = [index * rolls + (ROLLS.index(tuple(sorted(game.dice))) if expected else 0)
                  for index, game in enumerate(games)]
        played = [best[roll] for roll in thrown]
        for index, game in enumerate(games):
            if game.plies < settings.explore:
                first, end = bounds[thrown[index]]
                played[index] = first + explored(equity[first:end], settings.temperature, game.explorer)
        if not expected:
            return probs[played], [candidates[b] for b in played], xs[played]
        per_game = np.array(best).reshape(len(games), len(ROLLS))
        targets = np.einsum("r,grk->gk", ROLL_WEIGHTS, probs[per_game]).astype(np.float32)
        return targets, [candidates[b] for b in played], xs[played]

    def _learn(self, live: list[int], x: F32, hidden: F32, second: F32 | None, y: F32,
               black: npt.NDArray[np.bool_]) -> None:
        """Fade every live slot's traces by lambda and add the gradients of its estimate, read as White's
        (`Network.gradients`, batched)."""
        net, lam = self.trainer.network, self.trainer.settings.lam
        rows = np.arange(len(live))[:, None]
        order = np.where(black[:, None], FROM_BLACK[None, :], _SAME[None, :])
        sign = np.where(black[:, None], BLACK_SIGN[None, :], 1.0).astype(np.float32)
        dy = (y * (1.0 - y))[rows, order] * sign  # (n, 5): d (White's output k) / d its pre-activation
        unit = _EYE[order] * dy[:, :, None]  # (n, 5, 5): the gradient for b2
        into_first = dy[:, :, None] * net.w2[order]  # (n, 5, hidden): d (White's output k) / d h1 ...
        deep: list[tuple[F32, F32 | None]] = []
        if net.second is not None and second is not None:
            back2 = dy[:, :, None] * net.second.out[order] * (second * (1.0 - second))[:, None, :]  # for its b
            into_first = into_first + back2 @ net.second.w  # ... and through the second layer
            deep = [(back2, hidden), (back2, None), (unit, second)]
        back = into_first * (hidden * (1.0 - hidden))[:, None, :]  # (n, 5, hidden): the gradient for b1
        # Each weight array's gradients, as (n, 5, units) times each game's (n, what feeds them), or alone.
        factors: list[tuple[F32, F32 | None]] = [(back, x), (back, None), (unit, hidden), (unit, None), *deep]
        if self._kernel is not None:
            slots = np.array(live, dtype=np.int64)
            for trace, (left, right) in zip(self.traces, factors, strict=True):
                feed = np.ones((len(live), 1), dtype=np.float32) if right is None else right  # b * 1 is b
                self._kernel.fade_and_add(trace, np.ascontiguousarray(left, dtype=np.float32),
                                          np.ascontiguousarray(feed, dtype=np.float32), slots,
                                          left.shape[1], left.shape[2], feed.shape[1], lam)
            return
        assert self._buffer is not None
        grads = [np.multiply(back[:, :, :, None], x[:, None, None, :], out=self._buffer[:len(live)])]
        grads += [left if right is None else left[:, :, :, None] * right[:, None, None, :]
                  for left, right in factors[1:]]
        every_slot = len(live) == self.traces[0].shape[0]
        for trace, grad in zip(self.traces, grads, strict=True):
            part = trace if every_slot else trace[live]  # fancy indexing copies: only for the last games
            part *= lam
            part += grad
            if not every_slot:
                trace[live] = part


def describe_traces() -> str:
    """Which path fades the traces and adds each step's gradients, in words (benchmarks print it)."""
    return "compiled traces (game/bot/_traces.c)" if _TRACES is not None else f"numpy traces ({_WHY_NOT})"


def explored(equity: F32, temperature: float, rng: random.Random) -> int:
    """A candidate drawn with the weight exp((equity - the best's) / temperature): a play as good as
    the best as often as the best, one a temperature worse 1/e as often (the index among `equity`)."""
    if len(equity) == 1:
        return 0
    weights = np.exp((equity - equity.max()) / temperature)
    return rng.choices(range(len(equity)), weights=weights.tolist())[0]


def _white_view(values: F32, black: npt.NDArray[np.bool_]) -> F32:
    """Estimates (n, 5) of each side on roll, as White's."""
    out: F32 = np.where(black[:, None], values[:, FROM_BLACK], values).astype(np.float32)
    out[black, WIN] = 1.0 - values[black, WIN]
    return out


try:
    from game.bot import _traces as _TRACES

    _WHY_NOT = ""
except ImportError as exc:  # no C compiler where it was installed: numpy, the same numbers
    _TRACES = None  # type: ignore[assignment]
    _WHY_NOT = f"the compiled traces are not built: {exc}"
