"""`python -m game`: legal plays, boards and records from the command line."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TextIO

from game.board import Variant
from game.errors import DiceError, GameError, PositionError, UsageError
from game.movegen import check_dice, count_plays, describe_kernel, legal_plays
from game.position import Position
from game.xgid import Xgid


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose refusal is one line on stderr (and exit 2), not the usage text."""

    def error(self, message: str) -> NoReturn:
        """One line on stderr and exit 2, instead of argparse's usage block."""
        self.exit(2, f"error: {self.prog}: {message} (see --help)\n")


def read_position(arg: str, variant: Variant | None = None) -> Position:
    """POS as the commands take it: XGID, Position ID, inline JSON or @file.json."""
    return read_setting(arg, variant)[0]


def read_setting(arg: str, variant: Variant | None = None) -> tuple[Position, Xgid | None]:
    """`read_position`, and for an XGID all it says besides: cube, dice, score, match length."""
    if arg.startswith("@"):
        try:
            arg = Path(arg[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read position file {arg[1:]!r}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise UsageError(f"position file {arg[1:]!r} is not UTF-8 text") from None
    from game.formats import parse_setting  # XGID, Position ID, JSON: the commands that take a position

    return parse_setting(arg, variant)


def read_dice(text: str) -> tuple[int, int]:
    """DICE as the commands take it: two faces, `31` or `3,1` (ASCII digits only)."""
    digits = [c for c in text if not c.isspace() and c != ","]
    if len(digits) != 2 or not all(c in "0123456789" for c in digits):
        raise DiceError(f"dice must be two faces like 31 or 3,1, got {text!r}")
    return check_dice([int(c) for c in digits])


def read_json(text: str, what: str) -> Any:
    """JSON from a user's input, refused in one line when it is not JSON or nests too deep."""
    import json  # here and below, not at the top: `validate` of a .mat, the common command, needs none

    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{what} is not JSON: {exc}") from None
    except RecursionError:
        raise UsageError(f"{what} nests JSON too deep") from None


def _plays_json(position: Position, dice: tuple[int, int]) -> dict[str, Any]:
    return {"plays": [play.to_document() for play in legal_plays(position, dice)]}


def cmd_plays(args: argparse.Namespace, out: TextIO) -> int:
    """`plays`: the legal plays of one position and roll, or of every line of a batch."""
    variant = Variant(args.variant) if args.variant else None
    if args.batch:
        return _plays_batch(args.batch, args.count, variant, out)
    if not args.position or not args.dice:
        raise UsageError("plays needs --position and --dice, or --batch FILE.jsonl")
    position = read_position(args.position, variant)
    dice = read_dice(args.dice)
    if args.json:
        import json

        out.write(json.dumps(_plays_json(position, dice)) + "\n")
        return 0
    plays = legal_plays(position, dice)
    out.write(f"{len(plays)} legal plays for {dice[0]}{dice[1]}, {position.turn.value} to play\n")
    for play in sorted(plays, key=lambda p: p.notation()):
        out.write(play.notation() + "\n")
    return 0


def _batch_lines(path: str) -> Iterator[tuple[int, str | None]]:
    """The non-blank lines of a batch file (None for a line that is not UTF-8)."""
    try:
        handle = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read batch file {path!r}: {exc.strerror or exc}") from None
    with handle:
        head = handle.peek(4096)[:4096] if hasattr(handle, "peek") else b""
        if b"\x00" in head:
            raise UsageError(f"batch file {path!r} is not text: one JSON object a line")
        for number, raw in enumerate(handle, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield number, None
                continue
            if line.strip():
                yield number, line


def _plays_batch(path: str, count_only: bool, variant: Variant | None, out: TextIO) -> int:
    """One output line per input line, in order; a bad line gets an error object and exit 2."""
    def answer(position: Position, dice: tuple[int, int]) -> dict[str, Any]:
        return {"count": count_plays(position, dice)} if count_only else _plays_json(position, dice)

    return run_batch(path, variant, answer, out)


def run_batch(path: str, variant: Variant | None, answer: Callable[[Position, tuple[int, int]], dict[str, Any]],
              out: TextIO) -> int:
    """Answer each line {"position": POS, "dice": [d1, d2]} of a batch file with one JSON line, in
    order; a bad line gets {"error": ...} (and a line on stderr) and the exit status becomes 2."""
    import json

    status = 0
    for number, line in _batch_lines(path):
        try:
            if line is None:
                raise UsageError("the line is not UTF-8 text")
            item = read_json(line, "the line")
            if not isinstance(item, dict) or set(item) != {"position", "dice"}:
                raise UsageError('each line must be {"position": POS, "dice": [d1, d2]}')
            pos = item["position"]
            position = (Position.from_document(pos) if isinstance(pos, dict)
                        else read_position(str(pos), variant))
            if variant is not None and position.variant is not variant:
                raise PositionError(f"position is {position.variant.value}, not {variant.value}")
            dice = check_dice(item["dice"] if isinstance(item["dice"], list) else [])
            result = answer(position, dice)
        except GameError as exc:
            print(f"error: {path} line {number}: {exc}", file=sys.stderr)
            result = {"error": f"line {number}: {exc}"}
            status = 2
        out.write(json.dumps(result) + "\n")
    return status


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    """`show`: a position drawn as text."""
    from game.text import draw

    variant = Variant(args.variant) if args.variant else None
    position, xgid = read_setting(args.position, variant)
    out.write(draw(position, xgid, ids=True) + "\n")
    return 0


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    """Replay a record or .mat through the rules, and check the record's integrity."""
    from game.validate import UNREADABLE
    from game.validate import main as validate

    with _no_cyclic_collection():
        code = validate(args.file, out, read_trust(args.trust), as_json=args.json)
    if code == UNREADABLE:
        print(f"error: cannot read {args.file!r} as a record or .mat (see the verdict)", file=sys.stderr)
    return code


@contextmanager
def _no_cyclic_collection() -> Iterator[None]:
    """The cyclic garbage collector paused for a while: replaying a record builds the match's events,
    tens of thousands of objects that all live until the verdict is printed, and makes no garbage
    cycles worth the trouble, so the collector would only walk them again and again (about a tenth
    of validating a long match). Reference counting still frees everything else."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_trust(path: str | None) -> frozenset[str] | None:
    """The public keys of a trust file (`--trust`), or None when none was given."""
    if path is None:
        return None
    from game.integrity import read_trusted

    try:
        return read_trusted(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read trust file {path!r}: {getattr(exc, 'strerror', None) or exc}") from None


def cmd_convert(args: argparse.Namespace, out: TextIO) -> int:
    """Convert a transcript to the project's record, or a record to a transcript (game/convert.py)."""
    from game.convert import convert

    return convert(args.file, args.to, args.out, read_trust(args.trust), out)


def cmd_render(args: argparse.Namespace, out: TextIO) -> int:
    """`render`: a position (and a play on it) drawn as a picture file."""
    from game.pictures import render_command

    variant = Variant(args.variant) if args.variant else None
    position, xgid = read_setting(args.position, variant)
    dice = read_dice(args.dice) if args.dice else (xgid.dice if xgid else None)
    image_file(args.out, (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif", ".tif", ".tiff"))
    try:
        render_command(position, args.play, dice, args.out, both_sides=args.both_sides, setting=xgid)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out!r}: {exc.strerror or exc}") from None
    out.write(f"wrote {args.out}\n")
    return 0


def image_file(path: str, suffixes: tuple[str, ...]) -> None:
    """Refuse, before any work, an output that is a directory or has no picture suffix."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"--out {path!r} is a directory: give a file name such as board.png")
    if target.suffix.lower() not in suffixes:
        raise UsageError(f"--out {path!r}: write one of {', '.join(suffixes)}")


def cmd_report(args: argparse.Namespace, out: TextIO) -> int:
    """The match sheet of a record; the record's verdict and integrity first, as validate says them.
    Exit 1 when the rules or the record's integrity have a problem (an unfinished match is none)."""
    from game.chouette.replay import is_chouette_record
    from game.chouette.validate import ChouetteVerdict, validate_chouette
    from game.pictures import report_command
    from game.record import read_lines
    from game.validate import UNREADABLE, Verdict, validate_file

    trusted = read_trust(args.trust)
    image_file(args.out, (".pdf", ".png"))
    try:
        data = Path(args.record).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {args.record!r}: {exc.strerror or exc}") from None
    chouette = is_chouette_record(line.event for line in read_lines(data))
    verdict: Verdict | ChouetteVerdict = (validate_chouette(args.record, data, trusted) if chouette
                                          else validate_file(args.record, trusted))
    if verdict.exit_code == UNREADABLE:
        raise UsageError(f"cannot read {args.record!r}: {verdict.error}")
    try:
        written = report_command(args.record, args.out)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out!r}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    integrity = verdict.integrity
    rules = "LEGAL" if not verdict.problems else f"ILLEGAL ({len(verdict.problems)} problems: see validate)"
    out.write(f"rules: {rules}\n" + (integrity.describe() if integrity else "integrity: a .mat transcript") + "\n")
    out.write("".join(f"wrote {path}\n" for path in written))
    return 1 if verdict.problems or (integrity is not None and integrity.tampered) else 0


def version() -> str:
    """The package's version and the move-generator kernel in use (`--version`)."""
    from importlib import metadata  # here, not at the top: it takes a tenth of a second to import

    try:
        number = metadata.version("smartgammon")
    except metadata.PackageNotFoundError:
        number = "(not installed)"
    return f"smartgammon {number}; legal plays: {describe_kernel()}"


class VersionAction(argparse.Action):
    """`--version`: the version line as it is (argparse's own would wrap it to the terminal)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(version())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The `python -m game` command line: every command and its options."""
    parser = OneLineParser(prog="python -m game", description=__doc__)
    parser.add_argument("--version", action=VersionAction, nargs=0,
                        help="print the version and the move-generator kernel in use, and exit")
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
    validate.add_argument("--trust", metavar="KEYFILE",
                          help="public keys you trust (ed25519:..., one a line; a table's .pub file)")
    validate.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    validate.set_defaults(run=cmd_validate)

    convert = commands.add_parser("convert", help="a .mat transcript to a JSON Lines record, or a record to .mat")
    convert.add_argument("file")
    convert.add_argument("--to", required=True, choices=["jsonl", "mat"], help="the format to write")
    convert.add_argument("--out", metavar="PATH", help="the file to write (default: FILE with the new suffix)")
    convert.add_argument("--trust", metavar="KEYFILE", help="public keys you trust, as for validate")
    convert.set_defaults(run=cmd_convert)

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
    report.add_argument("--trust", metavar="KEYFILE", help="public keys you trust, as for validate")
    report.set_defaults(run=cmd_report)

    from game.bot.commands import add_parsers  # the bot's commands load their engines only when run

    add_parsers(commands, variants)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    """Run one `python -m game` command; returns its exit status (2 for bad input)."""
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace, TextIO], int] = args.run
    try:
        return run(args, out)
    except GameError as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ninterrupted: {args.command} stopped", file=sys.stderr)
        return 130


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit] + "..."
