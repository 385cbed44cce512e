"""Time to list every legal play, per position, over random-play corpora of each variant.

Side by side, in one run, with GNU Backgammon's own listing (`findbestmoves` at 0-ply) on
the same Backgammon corpus, when its Python module is installed.

    python benchmarks/bench_plays.py [--positions N] [--seed S]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

from game.board import Variant
from game.movegen import count_plays, legal_plays
from game.position import Position
from game.selfplay import random_positions

Corpus = Sequence[tuple[Position, tuple[int, int]]]


def per_position_us(corpus: Corpus, list_plays: Callable[[Position, tuple[int, int]], object],
                    repeat: int = 3) -> float:
    """Best of `repeat` passes over the corpus, in microseconds per position."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for position, dice in corpus:
            list_plays(position, dice)
        best = min(best, time.perf_counter() - start)
    return best / len(corpus) * 1e6


def worst_ms(corpus: Corpus) -> tuple[float, Position, tuple[int, int]]:
    worst = (0.0, corpus[0][0], corpus[0][1])
    for position, dice in corpus:
        start = time.perf_counter()
        for _ in range(3):
            legal_plays(position, dice)
        elapsed = (time.perf_counter() - start) / 3 * 1e3
        if elapsed > worst[0]:
            worst = (elapsed, position, dice)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.positions} random-play positions per variant, seed {args.seed}; "
          "microseconds per position (best of 3 passes)")
    print(f"{'variant':12} {'plays':>9} {'count only':>11} {'worst roll':>11}")
    corpora = {v: random_positions(v, args.positions, args.seed) for v in Variant}
    for variant, corpus in corpora.items():
        full = per_position_us(corpus, legal_plays)
        counted = per_position_us(corpus, count_plays)
        worst, position, dice = worst_ms(corpus)
        print(f"{variant.value:12} {full:9.1f} {counted:11.1f} {worst:9.2f}ms  (dice {dice[0]}{dice[1]})")
    try:
        import gnubg
    except ImportError:
        print("GNU Backgammon's Python module is not installed: no side-by-side figure")
        return
    from game.gnubg_ids import gnubg_board

    context, cube = gnubg.evalcontext(0, 0, 0, 0, 0), gnubg.cubeinfo()
    boards = [(gnubg_board(p), d) for p, d in corpora[Variant.BACKGAMMON]]

    def gnubg_list(board: object, dice: tuple[int, int]) -> object:
        return gnubg.findbestmoves(board, cube, context, dice)

    theirs = per_position_us(boards, gnubg_list)  # type: ignore[arg-type]
    ours = per_position_us(corpora[Variant.BACKGAMMON], legal_plays)
    ours_count = per_position_us(corpora[Variant.BACKGAMMON], count_plays)
    print(f"backgammon, same corpus: GNU Backgammon findbestmoves 0-ply {theirs:.1f} us; "
          f"ours {ours:.1f} us (ratio {ours / theirs:.2f}), count only {ours_count:.1f} us "
          f"(ratio {ours_count / theirs:.2f})")


if __name__ == "__main__":
    main()
