"""`python -m game`: legal plays, boards and records from the command line."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

from game.board import Variant
from game.errors import GameError, UsageError
from game.movegen import State, describe_kernel, encode, legal_plays, state_count, state_plays
from game.plays import format_roll
from game.position import Position
from game.rules import STANDARD, RuleOptions

if TYPE_CHECKING:
    import argparse  # imported by `build_parser`: a `validate FILE` process reads its two words itself


def _plays_json(position: Position, dice: tuple[int, int]) -> dict[str, Any]:
    return {"plays": [play.to_document() for play in legal_plays(position, dice)]}


def cmd_plays(args: argparse.Namespace, out: TextIO) -> int:
    """`plays`: the legal plays of one position and roll, or of every line of a batch."""
    from game.arguments import read_dice, read_position

    variant = Variant(args.variant) if args.variant else None
    if args.batch:
        return _plays_batch(args.batch, args.count, variant, out, moves_only=args.moves)
    if not args.position or not args.dice:
        raise UsageError("plays needs --position and --dice, or --batch FILE.jsonl")
    position = read_position(args.position, variant)
    if args.rules:
        from game.rules import RuleOptions

        position = position.with_rules(RuleOptions.parse(args.rules))
    dice = read_dice(args.dice)
    if args.json:
        import json

        out.write(json.dumps(_plays_json(position, dice)) + "\n")
        return 0
    plays = legal_plays(position, dice)
    counted = "1 legal play" if len(plays) == 1 else f"{len(plays)} legal plays"
    out.write(f"{counted} for {format_roll(dice)}, {position.turn.value} to play\n")
    for play in plays:  # in the order `legal_plays` (and --json) gives them
        out.write(play.notation() + "\n")
    return 0


class _MovesJson(dict[bytes, str]):
    """A play's moves (the kernel's bytes: source, target, hit) as `plays --batch --moves` writes
    them, `[[24, 21], [24, 23]]`, each made once: the same plays come back position after position."""

    def __missing__(self, raw: bytes) -> str:
        text = self[raw] = "[" + ", ".join(f"[{raw[i]}, {raw[i + 1]}]" for i in range(0, len(raw), 3)) + "]"
        return text


_MOVES_JSON = _MovesJson()


def _plays_batch(path: str, count_only: bool, variant: Variant | None, out: TextIO, *,
                 moves_only: bool = False) -> int:
    """One output line per input line, in order; a bad line gets an error object and exit 2."""
    from game.arguments import run_batch

    def answer(position: Position, dice: tuple[int, int]) -> dict[str, Any] | str:
        if count_only or moves_only:
            return from_state(encode(position), dice, position.variant, position.rules)
        return _plays_json(position, dice)

    def from_state(state: State, dice: tuple[int, int], variant: Variant = Variant.BACKGAMMON,
                   rules: RuleOptions = STANDARD) -> dict[str, Any] | str:
        if count_only:
            return {"count": state_count(state, variant, dice, rules)}
        # each play's moves as JSON text, made once for each play the kernel gives (3 bytes a move)
        raw_moves = state_plays(state, variant, dice, rules)[1]
        return '{"plays": [' + ", ".join(map(_MOVES_JSON.__getitem__, raw_moves)) + "]}"

    with _no_cyclic_collection():  # a line's JSON makes dozens of containers, and no cycles
        return run_batch(path, variant, answer, out, from_state if count_only or moves_only else None)


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    """`show`: a position drawn as text."""
    from game.arguments import read_setting
    from game.text import draw

    variant = Variant(args.variant) if args.variant else None
    position, xgid = read_setting(args.position, variant)
    out.write(draw(position, xgid, ids=True) + "\n")
    return 0


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    """Replay a record or .mat through the rules, and check the record's integrity."""
    return _validate(args.file, args.trust, args.json, out)


def _validate(file: str, trust: str | None, as_json: bool, out: TextIO) -> int:
    from game.validate import UNREADABLE
    from game.validate import main as validate

    with _no_cyclic_collection():
        code = validate(file, out, read_trust(trust), as_json=as_json)
    if code == UNREADABLE:
        print(f"error: cannot read {file!r} as a record, .mat or .sgf (see the verdict)", file=sys.stderr)
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
    from pathlib import Path  # here, as everywhere in this module: a validate process never needs pathlib

    from game.integrity import read_trusted

    try:
        return read_trusted(Path(path).read_text(encoding="utf-8"), f"trust file {path}")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read trust file {path!r}: {getattr(exc, 'strerror', None) or exc}") from None


def cmd_convert(args: argparse.Namespace, out: TextIO) -> int:
    """Convert a transcript to the project's record, or a record to a transcript (game/convert.py)."""
    from game.convert import convert

    return convert(args.file, args.to, args.out, read_trust(args.trust), out)


def cmd_render(args: argparse.Namespace, out: TextIO) -> int:
    """`render`: a position (and a play on it) drawn as a picture file."""
    from game.arguments import image_file, read_dice, read_setting
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


def cmd_report(args: argparse.Namespace, out: TextIO) -> int:
    """The match sheet of a record; the record's verdict and integrity first, as validate says them.
    Exit 1 when the rules or the record's integrity have a problem (an unfinished match is none)."""
    from game.arguments import image_file
    from game.chouette.replay import is_chouette_record
    from game.chouette.validate import ChouetteVerdict, validate_chouette
    from game.pictures import report_command
    from game.record import read_lines
    from game.validate import UNREADABLE, Verdict, validate_file

    trusted = read_trust(args.trust)
    image_file(args.out, (".pdf", ".png"))
    from pathlib import Path

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
    said = (integrity.describe() if integrity else verdict.integrity_line() if isinstance(verdict, Verdict)
            else "integrity: none")
    out.write(f"rules: {rules}\n{said}\n")
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


def version_action(line: Callable[[], str] = version) -> type[argparse.Action]:
    """`--version` (with `nargs=0`): `line()` printed as it is (argparse's own would wrap it to the
    terminal), then exit; every command line of the project shows its version so."""
    import argparse

    class VersionAction(argparse.Action):
        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                     option_string: str | None = None) -> None:
            print(line())
            parser.exit()

    return VersionAction


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The `python -m game` command line: every command and its options (`only="validate"`: that
    command alone, as a process that validates one file is run for each of many)."""
    from game.arguments import OneLineParser

    parser = OneLineParser(prog="python -m game", description=__doc__)
    parser.add_argument("--version", action=version_action(), nargs=0,
                        help="print the version and the move-generator kernel in use, and exit")
    # prog given: argparse would make a help formatter to find it, importing shutil (and zlib, bz2, lzma)
    commands = parser.add_subparsers(dest="command", required=True, prog=parser.prog)
    if only == "validate":
        _add_validate(commands)
        return parser
    variants = [v.value for v in Variant]

    plays = commands.add_parser("plays", help="list the legal plays for a position and roll")
    plays.add_argument("--position", help="XGID, Position ID, inline JSON, @file.json or start")
    plays.add_argument("--dice", help="the roll, e.g. 31 or 3-1")
    plays.add_argument("--variant", choices=variants)
    plays.add_argument("--rules", metavar="OPTIONS",
                       help="rule options, comma-separated: mother-checker, nackgammon (game/RULES.md)")
    plays.add_argument("--json", action="store_true", help="print the plays as JSON")
    plays.add_argument("--batch", metavar="FILE.jsonl", help='lines of {"position": POS, "dice": [d1, d2]}')
    plays.add_argument("--count", action="store_true", help="with --batch: print only {\"count\": n}")
    plays.add_argument("--moves", action="store_true",
                       help="with --batch: each play's moves only, {\"plays\": [[[from, to], ...], ...]}")
    plays.set_defaults(run=cmd_plays)

    show = commands.add_parser("show", help="draw a position in the terminal with pip counts")
    show.add_argument("--position", required=True)
    show.add_argument("--variant", choices=variants)
    show.set_defaults(run=cmd_show)

    _add_validate(commands)

    convert = commands.add_parser("convert", help="a .mat or GNU Backgammon .sgf to a JSON Lines record, "
                                                  "or a record to .mat or .sgf")
    convert.add_argument("file")
    convert.add_argument("--to", required=True, choices=["jsonl", "mat", "sgf"], help="the format to write")
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

    report = commands.add_parser("report", help="a match sheet of a JSON Lines record, .mat or .sgf, as PDF or PNG")
    report.add_argument("record")
    report.add_argument("--out", required=True, help="match.pdf or match.png")
    report.add_argument("--trust", metavar="KEYFILE", help="public keys you trust, as for validate")
    report.set_defaults(run=cmd_report)

    from game.bot.commands import add_parsers  # the bot's commands load their engines only when run

    add_parsers(commands, variants)
    return parser


def _add_validate(commands: Any) -> None:
    validate = commands.add_parser("validate", help="replay a .mat or JSON Lines record through the rules")
    validate.add_argument("file")
    validate.add_argument("--trust", metavar="KEYFILE",
                          help="public keys you trust (ed25519:..., one a line; a table's .pub file)")
    validate.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    validate.set_defaults(run=cmd_validate)


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    """Run one `python -m game` command; returns its exit status (2 for bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) == 2 and argv[0] == "validate" and not argv[1].startswith("-"):
        # `validate FILE`, run once for each of many files: read as argparse reads it, without argparse
        # (with gettext and locale it costs such a process a few milliseconds)
        return _guarded("validate", lambda: _validate(argv[1], None, False, out))
    args = build_parser(argv[0] if argv[:1] == ["validate"] else None).parse_args(argv)
    run: Callable[[argparse.Namespace, TextIO], int] = args.run
    return _guarded(args.command, lambda: run(args, out))


def console() -> None:
    """The installed short name `gammon`: `main`, ended as `python -m game` ends it (`game.exits`)."""
    from game.exits import exit_with

    exit_with(main)


def _guarded(command: str, run: Callable[[], int]) -> int:
    """Run a command: its exit status, or 2 with its error in one line, or 130 when interrupted."""
    try:
        return run()
    except GameError as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ninterrupted: {command} stopped", file=sys.stderr)
        return 130


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit] + "..."
