"""`python -m game.chouette`: a simulated session's record, and each member's games as .mat files.

    python -m game.chouette simulate --players Ann,Bob,Cy,Dee --games 10 --seed 1 --out s.jsonl
    python -m game.chouette convert s.jsonl --out mats/         # mats/Ann.mat, mats/Bob.mat, ...

`python -m game validate s.jsonl` and `python -m game report s.jsonl --out s.pdf` judge and draw
the record. `cmd_convert` is the command's body, for the `game` command line to take up.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from game.arguments import OneLineParser, fraction, output_file, positive
from game.board import Variant
from game.errors import GameError, ReplayError, UsageError
from game.record import RecordWriter, read_record

from .mat import chouette_mats
from .options import ChouetteOptions, signed
from .replay import replay_session
from .sim import simulate


def cmd_convert(record: str, out_dir: str, out: TextIO) -> int:
    """Write each member's games of the chouette `record` as `out_dir/NAME.mat`; print each path."""
    try:
        lines = read_record(record)
    except OSError as exc:
        raise UsageError(f"cannot read {record!r}: {exc.strerror or exc}") from None
    try:
        session = replay_session(line.event for line in lines if line.event is not None)
    except ReplayError as exc:  # said of the file named, as a compiler names its file before the line
        raise UsageError(f"{record}: {exc}") from None
    target = Path(out_dir)
    if target.exists() and not target.is_dir():
        raise UsageError(f"--out {out_dir!r} is a file: give a folder for the .mat files")
    try:
        target.mkdir(parents=True, exist_ok=True)
        for member, text in chouette_mats(session).items():
            path = target / f"{file_name(member)}.mat"
            path.write_text(text, encoding="utf-8")
            out.write(f"wrote {path}\n")
    except OSError as exc:
        raise UsageError(f"cannot write in {out_dir!r}: {exc.strerror or exc}") from None
    return 0


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Write a simulated session's record; print its totals."""
    options = ChouetteOptions(**{name: getattr(args, name) for name in ChouetteOptions().to_document()})
    players = [p.strip() for p in args.players.split(",")]
    session = simulate(players, args.games, args.seed, Variant(args.variant), options,
                       join_rate=args.join_rate, leave_rate=args.leave_rate)
    try:
        with RecordWriter(open(args.out, "wb")) as writer:
            writer.write_all(session.events)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out!r}: {exc.strerror or exc}") from None
    totals = ", ".join(f"{name} {signed(points)}" for name, points in session.totals.items())
    out.write(f"wrote {args.out}: {len(session.games)} games, {len(session.events)} events; {totals}\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m game.chouette`."""
    parser = OneLineParser(prog="python -m game.chouette", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="a simulated session, written as a chained record")
    sim.add_argument("--players", default="Ann,Bob,Cy,Dee,Eve", help="names, comma-separated (3 to 9)")
    sim.add_argument("--games", type=positive, default=10)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--variant", choices=[v.value for v in Variant], default="backgammon")
    sim.add_argument("--join-rate", type=fraction, default=0.0, help="chance a guest joins between games")
    sim.add_argument("--leave-rate", type=fraction, default=0.0, help="chance a player leaves between games")
    for name in ChouetteOptions().to_document():
        sim.add_argument(f"--{name.replace('_', '-')}", dest=name, action="store_true")
    sim.add_argument("--out", required=True, type=output_file, help="the record (.jsonl)")
    conv = commands.add_parser("convert", help="each member's games against the box as a money .mat")
    conv.add_argument("record")
    conv.add_argument("--out", required=True, help="the folder for NAME.mat files")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    """Run the command line; 2 with one line on stderr for input that cannot be used."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "convert":
            return cmd_convert(args.record, args.out, out)
        return cmd_simulate(args, out)
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def file_name(name: str) -> str:
    """A player's name as a file name: what a file system may hold, "player" when nothing is left."""
    return re.sub(r"[^\w.-]+", "_", name).strip("._") or "player"
