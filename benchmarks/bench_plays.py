"""Time to list every legal play, per position, over random-play corpora of each variant: the
pure-Python kernel, the compiled kernel and GNU Backgammon's own listing (`findbestmoves` at
0-ply, which also evaluates each play) side by side, on the same positions, in one run.

    python benchmarks/bench_plays.py [--positions N] [--seed S] [--passes P]

Figures per position, best of P passes, the passes of every contender interleaved so that a
change in the machine's load falls on all of them alike:
  plays     `legal_plays`: every legal play with its resulting position (the compact state;
            `Play` and `Position` objects are built when a caller looks at a play)
  +objects  the same, then every `Play` and its `Position` built
  count     `count_plays`: the number of plays only
  worst     the slowest single roll of the corpus (and of the heaviest positions: the start,
            and a start with White's checkers spread over twelve points, every double)
  batch     `python -m game plays --batch FILE`'s work (JSON documents in, a JSON line out each)
            over the corpus written as such a file, Backgammon (the default kernel): with `--moves`
            (each play's moves, what findbestmoves gives), `--count`, and the full output (each
            play's notation, moves and position document)

Targets (issue 13): plays at most 1.0 x GNU Backgammon (stretch 0.5), count at most 0.3 x, the
worst Catchgammon and Rungammon roll under 1 ms; (issue 28) batch below 1.0 x.
"""

from __future__ import annotations

import argparse
import io
import json
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from game.board import Variant
from game.cli import _plays_batch
from game.movegen import available_kernels, count_plays, legal_plays, use_kernel
from game.position import Position
from game.selfplay import many_stacks, random_positions

Corpus = Sequence[tuple[Position, tuple[int, int]]]
Timed = Callable[[], None]
DOUBLES = [(d, d) for d in range(1, 7)]


def interleaved(passes: int, contenders: dict[str, Timed]) -> dict[str, float]:
    """Best seconds of each contender over `passes` rounds, the contenders taking turns."""
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(passes):
        for name, run in contenders.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def over(corpus: Corpus, list_plays: Callable[[Position, tuple[int, int]], object]) -> Timed:
    def run() -> None:
        for position, dice in corpus:
            list_plays(position, dice)
    return run


def built(position: Position, dice: tuple[int, int]) -> object:
    return [play.after_moves for play in legal_plays(position, dice)]


def worst_ms(corpus: Corpus, list_plays: Callable[[Position, tuple[int, int]], object],
             repeat: int = 3) -> tuple[float, Position, tuple[int, int]]:
    """The slowest roll of the corpus (best of `repeat` for each), in milliseconds."""
    worst = (0.0, corpus[0][0], corpus[0][1])
    for position, dice in corpus:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            list_plays(position, dice)
            best = min(best, time.perf_counter() - start)
        if best * 1e3 > worst[0]:
            worst = (best * 1e3, position, dice)
    return worst


def heaviest(variant: Variant) -> Corpus:
    return [(position, dice) for position in (Position.initial(variant), many_stacks(variant)) for dice in DOUBLES]


def gnubg_listing(corpus: Corpus) -> Timed | None:
    try:
        import gnubg
    except ImportError:
        return None
    from game.gnubg_ids import gnubg_board

    context, cube = gnubg.evalcontext(0, 0, 0, 0, 0), gnubg.cubeinfo()
    boards = [(gnubg_board(position), dice) for position, dice in corpus]

    def run() -> None:
        for board, dice in boards:
            gnubg.findbestmoves(board, cube, context, dice)
    return run


BATCH_OUTPUTS = {"moves": {"moves_only": True}, "count": {"count_only": True}, "full": {}}


def batch_file(corpus: Corpus, folder: Path, output: str) -> Timed:
    """The corpus as a `plays --batch` file of position documents, and the batch command's work over
    it for `output`: `--moves` (each play's moves: what findbestmoves gives), `--count`, or the full
    output (each play's notation, moves and the position document after it)."""
    path = folder / "batch.jsonl"
    path.write_text("".join(json.dumps({"position": position.to_document(), "dice": list(dice)}) + "\n"
                            for position, dice in corpus))
    options = BATCH_OUTPUTS[output]

    def run() -> None:
        if _plays_batch(str(path), bool(options.get("count_only")), None, io.StringIO(),
                        moves_only=bool(options.get("moves_only"))) != 0:
            raise RuntimeError("the batch file was refused")
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args()
    kernels = available_kernels()
    print(f"command: python benchmarks/bench_plays.py --positions {args.positions} --seed {args.seed} "
          f"--passes {args.passes}")
    print(f"{args.positions} random-play positions per variant; microseconds per position, best of {args.passes} "
          f"interleaved passes; kernels: {', '.join(kernels)}")
    if "compiled" not in kernels:
        print("the compiled kernel is not built here: `python -m game --version` says why")
    print(f"{'kernel':9} {'variant':12} {'plays':>8} {'+objects':>9} {'count':>8} {'worst roll':>11} "
          f"{'+objects':>9} {'heaviest roll':>14}")
    corpora = {variant: random_positions(variant, args.positions, args.seed) for variant in Variant}
    folder = Path(tempfile.mkdtemp(prefix="bench-plays-"))
    gnubg_run = gnubg_listing(corpora[Variant.BACKGAMMON])
    figures: dict[tuple[str, Variant], dict[str, float]] = {}
    for variant, corpus in corpora.items():
        contenders: dict[str, Timed] = {}
        if variant is Variant.BACKGAMMON and gnubg_run is not None:
            contenders["gnubg"] = gnubg_run
        if variant is Variant.BACKGAMMON:
            contenders |= {f"batch {output}": batch_file(corpus, folder, output) for output in BATCH_OUTPUTS}
        for name in kernels:
            with use_kernel(name):
                legal_plays(*corpus[0])  # the kernel's first call is not timed
            contenders |= {f"{name} plays": _in(name, over(corpus, legal_plays)),
                           f"{name} +objects": _in(name, over(corpus, built)),
                           f"{name} count": _in(name, over(corpus, count_plays))}
        best = interleaved(args.passes, contenders)
        for name in kernels:
            with use_kernel(name):
                worst, _, dice = worst_ms(corpus, legal_plays)
                worst_built, _, _ = worst_ms(corpus, built)
                heavy, heavy_position, heavy_dice = worst_ms(heaviest(variant), legal_plays)
            us = {what: best[f"{name} {what}"] / len(corpus) * 1e6 for what in ("plays", "+objects", "count")}
            figures[name, variant] = us | {what: best.get(what, 0.0) / len(corpus) * 1e6
                                           for what in ("gnubg", *(f"batch {output}" for output in BATCH_OUTPUTS))}
            print(f"{name:9} {variant.value:12} {us['plays']:8.1f} {us['+objects']:9.1f} {us['count']:8.1f} "
                  f"{worst:7.3f} ms {worst_built:6.3f} ms {heavy:9.3f} ms  (worst dice {dice[0]}{dice[1]}; "
                  f"heaviest {heavy_dice[0]}{heavy_dice[1]}, {len(legal_plays(heavy_position, heavy_dice))} plays)")
    if gnubg_run is None:
        print("GNU Backgammon's Python module (gnubg) is not installed: no side-by-side figure")
        return
    theirs = figures[kernels[0], Variant.BACKGAMMON]["gnubg"]
    print(f"\nbackgammon, the same {args.positions} positions: GNU Backgammon findbestmoves 0-ply {theirs:.1f} us "
          "per position (interleaved with the kernels above)")
    for output in BATCH_OUTPUTS:
        batch = figures[kernels[0], Variant.BACKGAMMON][f"batch {output}"]
        flag = "" if output == "full" else f" --{output}"
        print(f"plays --batch{flag} (JSON position documents in, one JSON line out each): {batch:.1f} us per "
              f"position, {batch / theirs:.2f} x GNU Backgammon" + (" (target < 1.0)" if output == "moves" else ""))
    print("ratios to GNU Backgammon (targets: plays <= 1.0, stretch 0.5; count <= 0.3):")
    for name in kernels:
        us = figures[name, Variant.BACKGAMMON]
        print(f"  {name:9} plays {us['plays'] / theirs:5.2f}   +objects {us['+objects'] / theirs:5.2f}   "
              f"count {us['count'] / theirs:5.2f}")


def _in(kernel: str, run: Timed) -> Timed:
    def timed() -> None:
        with use_kernel(kernel):
            run()
    return timed


if __name__ == "__main__":
    main()
