"""How long `validate` takes per move on a long generated match.

    python3 benchmarks/bench_validate.py [--length 25] [--seed 1] [--repeat 3]

Generates a random 25-point Backgammon match (random legal plays, occasional
doubles), writes it as a chained JSON Lines record and as a .mat transcript,
and times `validate_file` on each. Prints figures; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.board import Variant
from game.mat import export_mat
from game.match_sim import random_match
from game.record import record_bytes
from game.validate import validate_file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    match = random_match(Variant.BACKGAMMON, args.length, rng=random.Random(args.seed),
                         cube_rate=0.02, resign_rate=0.0)
    moves = sum(1 for e in match.events if e["type"] == "play")
    print(f"{args.length}-point match: {len(match.games)} games, {moves} moves, {len(match.events)} events, "
          f"final score {match.score}")
    with tempfile.TemporaryDirectory() as folder:
        files = {"JSON Lines record": os.path.join(folder, "match.jsonl"),
                 ".mat transcript": os.path.join(folder, "match.mat")}
        Path(files["JSON Lines record"]).write_bytes(record_bytes(match))
        Path(files[".mat transcript"]).write_text(export_mat(match))
        for label, path in files.items():
            best = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                verdict = validate_file(path)
                best = min(best, time.perf_counter() - start)
            assert verdict.exit_code == 0, verdict.render()
            print(f"{label:<18} {best:7.3f} s  = {best / moves * 1e6:6.0f} us per move "
                  f"(best of {args.repeat}, {os.path.getsize(path) // 1024} KiB)")


if __name__ == "__main__":
    main()
