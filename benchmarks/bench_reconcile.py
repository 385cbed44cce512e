"""Time to set up a turn's reconciler and to judge a board, at each sensing capability, over
random-play corpora of each variant.

Per turn: `setup` builds the TurnReconciler (legal plays, their boards by view, the ways to
them). Then one judgement each of a legal result, a board on the way (after the first move),
an illegal board (relaxed dice moves) and a misplaced one (one checker moved where no
sequence of the roll puts it), each on a fresh reconciler, so a first illegal or misplaced
board pays for its search (toward the boards that look like it). `nearest`: the misplaced
board judged and its nearest board read (its diffs, as when the board is shown), which lists
every board the roll's relaxed moves make. Figures are milliseconds, the best of three runs
each: mean, and worst with its roll.

    python benchmarks/bench_reconcile.py [--positions N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from game.board import Variant
from game.explain import Explainer
from game.movegen import single_moves
from game.position import Position
from game.reconcile import TurnReconciler
from game.selfplay import random_positions
from game.zones import Capability, Layout, View, layout, view_of


@dataclass
class Timings:
    samples: list[tuple[float, tuple[int, int]]] = field(default_factory=list)

    def add(self, seconds: float, dice: tuple[int, int]) -> None:
        self.samples.append((seconds * 1e3, dice))

    def __str__(self) -> str:
        if not self.samples:
            return f"{'-':>17}"
        mean = sum(ms for ms, _ in self.samples) / len(self.samples)
        worst, dice = max(self.samples)
        return f"{mean:6.2f} {worst:7.1f} ({dice[0]}{dice[1]})"


def best_of(prepare: Callable[[], Callable[[], object]], repeat: int = 3) -> float:
    """The fastest of `repeat` runs, each of an action prepared afresh (untimed), in seconds."""
    best = float("inf")
    for _ in range(repeat):
        action = prepare()
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def setting_up(fresh: Callable[[], TurnReconciler]) -> Callable[[], Callable[[], object]]:
    def prepare() -> Callable[[], object]:
        return fresh

    return prepare


def judging(fresh: Callable[[], TurnReconciler], view: View) -> Callable[[], Callable[[], object]]:
    def prepare() -> Callable[[], object]:
        return partial(fresh().judge, view)  # a fresh reconciler: nothing listed yet

    return prepare


def judging_and_showing(fresh: Callable[[], TurnReconciler], view: View) -> Callable[[], Callable[[], object]]:
    def prepare() -> Callable[[], object]:
        judge = partial(fresh().judge, view)  # a fresh reconciler: nothing listed yet
        return lambda: judge().zones()

    return prepare


def misplaced(position: Position, dice: tuple[int, int], rng: random.Random) -> Layout:
    """The board with one checker moved from a random zone to another, such that no sequence
    of the roll makes it."""
    explainer = Explainer(position, dice)
    while True:
        stacks = list(layout(position))
        source = rng.choice([z for z, stack in enumerate(stacks) if stack])
        target = rng.choice([z for z in range(len(stacks)) if z != source])
        stacks[target] += stacks[source][-1]
        stacks[source] = stacks[source][:-1]
        if explainer.explain(tuple(stacks)) is None:
            return tuple(stacks)


def bench(corpus: list[tuple[Position, tuple[int, int]]], capability: Capability,
          rng: random.Random) -> dict[str, Timings]:
    times = {name: Timings() for name in ("setup", "legal", "partial", "illegal", "misplaced", "nearest")}
    for position, dice in corpus:
        fresh = partial(TurnReconciler, position, dice, capability)
        times["setup"].add(best_of(setting_up(fresh)), dice)
        plays = position.legal_plays(dice)
        boards: dict[str, Layout] = {"misplaced": misplaced(position, dice, rng)}
        if plays:
            play = rng.choice(plays)
            boards["legal"] = layout(play.after_moves)
            if len(play.moves) > 1:
                first = play.moves[0]
                boards["partial"] = layout(next(p.after_moves for die in set(dice) for p in single_moves(position, die)
                                                if p.moves[0] == first))
        illegal = [b for b, e in Explainer(position, dice, plays).outcomes().items() if e.broken]
        if illegal:
            boards["illegal"] = rng.choice(illegal)
        for name, board in boards.items():
            times[name].add(best_of(judging(fresh, view_of(board, capability))), dice)
        times["nearest"].add(best_of(judging_and_showing(fresh, view_of(boards["misplaced"], capability))), dice)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.positions} random-play turns per variant, seed {args.seed}; "
          "milliseconds, best of 3 runs each: mean, worst (its roll)")
    columns = ("setup", "legal", "partial", "illegal", "misplaced", "nearest")
    print(f"{'variant':12} {'sensing':12} " + " ".join(f"{c:>17}" for c in columns))
    rng = random.Random(args.seed)
    for variant in Variant:
        corpus = random_positions(variant, args.positions, args.seed)
        for capability in Capability:
            times = bench(corpus, capability, rng)
            print(f"{variant.value:12} {capability.name:12} " + " ".join(str(times[c]) for c in columns))


if __name__ == "__main__":
    main()
