"""`python -m game`: legal plays, boards and records from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from game.board import Variant
from game.errors import DiceError, GameError, PositionError, UsageError
from game.formats import parse_position
from game.movegen import check_dice, count_plays, legal_plays
from game.position import Position
from game.text import draw


def read_position(arg: str, variant: Variant | None = None) -> Position:
    """POS as the commands take it: XGID, Position ID, inline JSON or @file.json."""
    if arg.startswith("@"):
        try:
            arg = Path(arg[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read position file {arg[1:]!r}: {exc.strerror}") from None
    return parse_position(arg, variant)


def read_dice(text: str) -> tuple[int, int]:
    digits = [c for c in text if not c.isspace() and c != ","]
    if len(digits) != 2 or not all(c.isdigit() for c in digits):
        raise DiceError(f"dice must be two faces like 31 or 3,1, got {text!r}")
    return check_dice([int(c) for c in digits])


def _plays_json(position: Position, dice: tuple[int, int]) -> dict[str, Any]:
    return {"plays": [play.to_document() for play in legal_plays(position, dice)]}


def cmd_plays(args: argparse.Namespace, out: TextIO) -> int:
    variant = Variant(args.variant) if args.variant else None
    if args.batch:
        return _plays_batch(args.batch, args.count, variant, out)
    if not args.position or not args.dice:
        raise UsageError("plays needs --position and --dice, or --batch FILE.jsonl")
    position = read_position(args.position, variant)
    dice = read_dice(args.dice)
    if args.json:
        out.write(json.dumps(_plays_json(position, dice)) + "\n")
        return 0
    plays = legal_plays(position, dice)
    out.write(f"{len(plays)} legal plays for {dice[0]}{dice[1]}, {position.turn.value} to play\n")
    for play in sorted(plays, key=lambda p: p.notation()):
        out.write(play.notation() + "\n")
    return 0


def _batch_lines(path: str) -> Iterator[tuple[int, str]]:
    try:
        handle = sys.stdin if path == "-" else open(path, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read batch file {path!r}: {exc.strerror}") from None
    with handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                yield number, line


def _plays_batch(path: str, count_only: bool, variant: Variant | None, out: TextIO) -> int:
    """One output line per input line, in order; a bad line gets an error object and exit 2."""
    status = 0
    for number, line in _batch_lines(path):
        try:
            item = json.loads(line)
            if not isinstance(item, dict) or set(item) != {"position", "dice"}:
                raise UsageError('each line must be {"position": POS, "dice": [d1, d2]}')
            pos = item["position"]
            position = (Position.from_document(pos) if isinstance(pos, dict)
                        else read_position(str(pos), variant))
            if variant is not None and position.variant is not variant:
                raise PositionError(f"position is {position.variant.value}, not {variant.value}")
            dice = check_dice(item["dice"] if isinstance(item["dice"], list) else [])
            result: dict[str, Any] = ({"count": count_plays(position, dice)} if count_only
                                      else _plays_json(position, dice))
        except (json.JSONDecodeError, GameError) as exc:
            print(f"error: {path} line {number}: {exc}", file=sys.stderr)
            result = {"error": f"line {number}: {exc}"}
            status = 2
        out.write(json.dumps(result) + "\n")
    return status


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    variant = Variant(args.variant) if args.variant else None
    out.write(draw(read_position(args.position, variant)) + "\n")
    return 0


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    from game.validate import main as validate

    return validate(args.file, out)


def cmd_render(args: argparse.Namespace, out: TextIO) -> int:
    from game.pictures import render_command

    variant = Variant(args.variant) if args.variant else None
    position = read_position(args.position, variant)
    dice = read_dice(args.dice) if args.dice else None
    try:
        render_command(position, args.play, dice, args.out, both_sides=args.both_sides)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out!r}: {exc.strerror or exc}") from None
    out.write(f"wrote {args.out}\n")
    return 0


def cmd_report(args: argparse.Namespace, out: TextIO) -> int:
    from game.pictures import report_command

    try:
        written = report_command(args.record, args.out)
    except OSError as exc:
        raise UsageError(f"cannot read {args.record!r} or write {args.out!r}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    out.write("".join(f"wrote {path}\n" for path in written))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m game", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    variants = [v.value for v in Variant]

    plays = commands.add_parser("plays", help="list the legal plays for a position and roll")
    plays.add_argument("--position", help="XGID, Position ID, inline JSON or @file.json")
    plays.add_argument("--dice", help="the roll, e.g. 31")
    plays.add_argument("--variant", choices=variants)
    plays.add_argument("--json", action="store_true", help="print the plays as JSON")
    plays.add_argument("--batch", metavar="FILE.jsonl", help='lines of {"position": POS, "dice": [d1, d2]}')
    plays.add_argument("--count", action="store_true", help="with --batch: print only {\"count\": n}")
    plays.set_defaults(run=cmd_plays)

    show = commands.add_parser("show", help="draw a position in the terminal with pip counts")
    show.add_argument("--position", required=True)
    show.add_argument("--variant", choices=variants)
    show.set_defaults(run=cmd_show)

    validate = commands.add_parser("validate", help="replay a .mat or JSON Lines record through the rules")
    validate.add_argument("file")
    validate.set_defaults(run=cmd_validate)

    render = commands.add_parser("render", help="draw a position (and a play) as an image")
    render.add_argument("--position", required=True)
    render.add_argument("--variant", choices=variants)
    render.add_argument("--play", help='a play to draw with arrows, e.g. "24/18 13/11"')
    render.add_argument("--dice", help="the roll, drawn on the board and used to read --play")
    render.add_argument("--both-sides", action="store_true", help="number the points from both sides")
    render.add_argument("--out", required=True, help="the image file (.png)")
    render.set_defaults(run=cmd_render)

    report = commands.add_parser("report", help="a match sheet of a JSON Lines record, as PDF or PNG")
    report.add_argument("record")
    report.add_argument("--out", required=True, help="match.pdf or match.png")
    report.set_defaults(run=cmd_report)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace, TextIO], int] = args.run
    try:
        return run(args, out)
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
