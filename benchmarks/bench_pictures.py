"""How long drawing takes: milliseconds per board picture at the default size, per variant.

Run: python3 benchmarks/bench_pictures.py [--count N]
The issue asks for a board well under 50 ms. The very first drawing fills the
caches of sprites and empty boards and is timed separately; each series starts
with one untimed drawing for the same reason.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

from game.board import Color, Variant
from game.pictures import CubeView, ScoreView, draw_board, draw_play
from game.selfplay import random_positions


def _measure(runs: Sequence[Callable[[], object]]) -> tuple[float, float, float]:
    """Mean, min and max in milliseconds, after one untimed run to warm the caches."""
    runs[0]()
    times = []
    for run in runs:
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.fmean(times), min(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=300, help="random positions per variant")
    count = parser.parse_args().count
    cube, score = CubeView(2, Color.WHITE), ScoreView(3, 4, 7)
    start = time.perf_counter()
    draw_board(random_positions(Variant.BACKGAMMON, 1, 0)[0][0])
    print(f"first board (cold caches): {(time.perf_counter() - start) * 1000:.1f} ms")
    print(f"{'variant':<12} {'picture':<6} {'n':>5} {'mean ms':>8} {'min ms':>7} {'max ms':>7}")
    for variant in Variant:
        corpus = random_positions(variant, count, seed=7)
        boards = [partial(draw_board, p, dice=d, cube=cube, score=score) for p, d in corpus]
        plays = [(p, d, p.legal_plays(d)) for p, d in corpus]
        arrows = [partial(draw_play, p, ls[0], dice=d, cube=cube, score=score) for p, d, ls in plays if ls]
        for name, runs in (("board", boards), ("play", arrows)):
            mean, low, high = _measure(runs)
            print(f"{variant.value:<12} {name:<6} {len(runs):>5} {mean:>8.2f} {low:>7.2f} {high:>7.2f}")


if __name__ == "__main__":
    main()
