"""`python -m game.bot average`: one network from the mean of several checkpoints of a run.

The last weights of a TD run still move with the last games it played; the mean of its
checkpoints (`train --keep`) sits nearer the middle of where training wanders. The averaged
network's record names the files and keeps each one's record, so the chain of commands that
made them, and this one, remakes it. The checkpoints of one run all continue the same file, so
what they continue is kept once, as `all_continue`, not in each (`compact_record`): kept in each,
a chain of averages of averages grew its record to 568 KB, 4.8 MB of the table's memory when the
bot loaded it. The averaged network plays the curve's baselines as a
checkpoint does (`--eval-games`): the record keeps that figure as its own `point`, and the curve
of the newest checkpoint is drawn beside the weights with the average's point marked.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from PIL import Image

from game.arguments import count, output_file
from game.bot.network import Network
from game.bot.train import BASELINES, curve_point
from game.pictures.curve import draw_curve


def average(args: argparse.Namespace, err: TextIO) -> int:
    """Average the given weights files into `--out`; the record keeps what each one was."""
    paths = [Path(name) for name in args.weights]
    networks = [Network.load(path) for path in paths]
    network = Network.averaged(networks)
    newest = max(networks, key=lambda net: int(net.record.get("total_games", 0)))
    network.record = {
        "command": " ".join(["python -m game.bot average", f"--out {Path(args.out).name}",
                             f"--eval-games {args.eval_games}", f"--seed {args.seed}"]
                            + [path.name for path in paths]),
        "hidden": network.hidden,
        "second": 0 if network.second is None else network.second.units,
        # A run continued from the average goes on from the newest checkpoint's games and curve.
        "total_games": newest.record.get("total_games", 0),
        "curve": newest.record.get("curve", []),
        "averaged": {path.name: _without_curve(net.record) for path, net in zip(paths, networks, strict=True)},
    }
    network.record = compact_record(network.record)
    figure, picture = "", ""
    if args.eval_games:
        if err.isatty():  # the evaluation games take a minute or more: say so from the first second
            err.write(f"the mean of {len(networks)} networks: {args.eval_games} games against each baseline...\n")
            err.flush()
        point = curve_point(network, int(network.record["total_games"]), args.eval_games, args.seed)
        network.record["point"] = point
        figure = f"; 0-ply v random {100 * point['random']:.1f}%, v heuristic {100 * point['heuristic']:.1f}%"
        if network.record["curve"]:
            picture_path = Path(args.out).with_suffix(".png")
            _draw(network, networks, point).save(picture_path)
            picture = f" and {picture_path}"
    network.save(args.out)
    err.write(f"wrote {args.out}{picture}: the mean of {len(networks)} networks of "
              f"{network.describe_shape()}{figure}\n")
    return 0


def _draw(network: Network, networks: list[Network], point: dict[str, float]) -> Image.Image:
    """The newest checkpoint's curve with the average's own point marked on it."""
    games = sorted(int(net.record.get("total_games", 0)) for net in networks)
    title = f"{network.variant.value}: self-play; the mean of the networks at {games[0]:,} to {games[-1]:,} games"
    return draw_curve(title, network.record["curve"], BASELINES, (f"mean of {len(networks)}", point))


def _without_curve(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "curve"}


def compact_record(record: dict[str, Any]) -> dict[str, Any]:
    """`record` with what every file of an average continues kept once, as the average's
    `all_continue`, through the whole chain (the records of files made before this was done too).
    Nothing is lost: an averaged file's own record is its entry with `continues` set to that."""
    compact = {key: compact_record(value) if key in ("continues", "all_continue") and isinstance(value, dict)
               else value for key, value in record.items()}
    averaged = record.get("averaged")
    if not isinstance(averaged, dict):
        return compact
    entries = {name: compact_record(entry) if isinstance(entry, dict) else entry for name, entry in averaged.items()}
    shared = [entry.get("continues") if isinstance(entry, dict) else None for entry in entries.values()]
    if len(shared) > 1 and shared[0] is not None and all(each == shared[0] for each in shared):
        compact["all_continue"] = shared[0]
        entries = {name: {key: value for key, value in entry.items() if key != "continues"}
                   for name, entry in entries.items()}
    compact["averaged"] = entries
    return compact


def add_parser(commands: Any) -> None:
    """The `average` command's arguments."""
    p = commands.add_parser("average", help="average the weights of checkpoints of a run (train --keep)")
    p.add_argument("--out", required=True, type=output_file, help="the averaged weights file (.npz)")
    p.add_argument("--eval-games", type=count, default=200, help="games of the average against each baseline")
    p.add_argument("--seed", type=int, default=1, help="the dice of those games")
    p.add_argument("weights", nargs="+", help="the weights files (.npz) of one variant and shape")
    p.set_defaults(run=lambda args, out, err: average(args, err))
