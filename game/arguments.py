"""What the project's commands share: a parser that refuses in one line, and the readers of a
count, a number above 0 or from 0 to 1, a rollout's truncation and confidence, a position, dice,
JSON, a batch file, an output file and an output picture's name, each refusing bad input in one
line (`UsageError`, `DiceError`, `PositionError`). `python -m game`, `python -m game.bot`, the
chouette's and the table's commands all read their arguments here, so each reads them the same
way. Nothing here imports pathlib or shutil at the top: a `python -m game validate` process, run
once for each of many files, never needs them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from game.board import Variant
from game.errors import DiceError, GameError, PositionError, UsageError
from game.movegen import State, check_dice, encode_document
from game.position import Position

if TYPE_CHECKING:
    from game.xgid import Xgid


class _Formatter(argparse.HelpFormatter):
    """argparse's help as it is, the terminal's width found without `shutil`: argparse makes a
    formatter for every parser it builds, and shutil (with zlib, bz2 and lzma) would cost every
    `python -m game validate` process a few milliseconds for a help text it never prints."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


def _columns() -> int:
    """The terminal's columns as `shutil.get_terminal_size` finds them: $COLUMNS, the terminal, or 80."""
    import os

    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    if sys.__stdout__ is None:
        return 80
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose refusal is one line on stderr (and exit 2), not the usage text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """One line on stderr and exit 2, instead of argparse's usage block; a missing command names
        the commands there are."""
        missing = message.removeprefix("the following arguments are required: ")
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction) and missing == action.dest:
                message = f"a command is needed: {', '.join(action.choices)}"
        self.exit(2, f"error: {self.prog}: {message} (see --help)\n")


def count(text: str) -> int:
    """A count of 0 or more (an argument's `type`)."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def positive(text: str) -> int:
    """A count of 1 or more (an argument's `type`)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {text}")
    return value


def above_zero(text: str) -> float:
    """A number above 0 (an argument's `type`): a rate, a speed, a time."""
    value = float(text)
    if not 0.0 < value < float("inf"):  # NaN fails too
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {text}")
    return value


def fraction(text: str) -> float:
    """A number from 0 to 1 (an argument's `type`): a chance, TD's lambda."""
    value = float(text)
    if not 0.0 <= value <= 1.0:  # NaN fails too
        raise argparse.ArgumentTypeError(f"must be from 0 to 1, got {text}")
    return value


def truncation(text: str) -> int | None:
    """Where a rollout's games stop to be judged (an argument's `type`): a number of plays of 1 or
    more, or `none` (None: to the game's end)."""
    word = text.strip().lower()
    if word == "none":
        return None
    if not word.isdigit() or int(word) < 1:
        raise argparse.ArgumentTypeError(f"{text.strip()!r}: a number of plays of 1 or more, or none")
    return int(word)


def on_off(text: str) -> bool:
    """`on` or `off` (an argument's `type`), case ignored."""
    word = text.strip().lower()
    if word not in ("on", "off"):
        raise argparse.ArgumentTypeError(f"{text.strip()!r}: on or off")
    return word == "on"


def standard_errors(text: str) -> float:
    """A number of standard errors, 0 or more (an argument's `type`): how sure a rollout must be."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value < float("inf"):  # NaN fails too
        raise argparse.ArgumentTypeError(f"{text.strip()!r}: a number of standard errors, 0 or more")
    return value


def read_position(arg: str, variant: Variant | None = None) -> Position:
    """POS as the commands take it: XGID, Position ID, inline JSON, @file.json or `start`."""
    return read_setting(arg, variant)[0]


def read_setting(arg: str, variant: Variant | None = None) -> tuple[Position, Xgid | None]:
    """`read_position`, and for an XGID all it says besides: cube, dice, score, match length."""
    if arg.startswith("@"):
        from pathlib import Path

        try:
            arg = Path(arg[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read position file {arg[1:]!r}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise UsageError(f"position file {arg[1:]!r} is not UTF-8 text") from None
    from game.formats import parse_setting  # XGID, Position ID, JSON: the commands that take a position

    return parse_setting(arg, variant)


def read_dice(text: str) -> tuple[int, int]:
    """DICE as the commands take it: two faces, `31`, `3-1` or `3,1` (ASCII digits only)."""
    digits = [c for c in text if not c.isspace() and c not in ",-"]
    if len(digits) != 2 or not all(c in "0123456789" for c in digits):
        raise DiceError(f"dice must be two faces like 31, 3-1 or 3,1, got {text!r}")
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


_JSON_WHITESPACE = " \t\n\r"  # what JSON allows around a value (str.strip would take more)


Answer = dict[str, Any] | str


def run_batch(path: str, variant: Variant | None, answer: Callable[[Position, tuple[int, int]], Answer], out: TextIO,
              state_answer: Callable[[State, tuple[int, int]], Answer] | None = None) -> int:
    """Answer each line {"position": POS, "dice": [d1, d2]} of a batch file with one JSON line (an
    answer may be JSON text already), in order; a bad line gets {"error": ...} (and a line on
    stderr) and the exit status becomes 2. `state_answer`, when given, answers the same from the
    position's state (Backgammon, standard rules) for a document in its usual form
    (`game.movegen.encode_document`): no `Position` is built for it."""
    import json

    scan: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
    status = 0
    for number, line in _batch_lines(path):
        try:
            if line is None:
                raise UsageError("the line is not UTF-8 text")
            try:  # json.loads's own scanner without its wrapping (two regular expressions a line)
                item, end = scan(line, 0)
                if line[end:].strip(_JSON_WHITESPACE):
                    raise ValueError("more after the JSON value")
            except (StopIteration, ValueError, RecursionError):
                item = read_json(line, "the line")  # which refuses it, saying why
            if type(item) is not dict or len(item) != 2 or "position" not in item or "dice" not in item:
                raise UsageError('each line must be {"position": POS, "dice": [d1, d2]}')
            pos = item["position"]
            state = encode_document(pos) if state_answer is not None and type(pos) is dict else None
            position = None if state is not None else (Position.from_document(pos) if isinstance(pos, dict)
                                                       else read_position(str(pos), variant))
            read_variant = Variant.BACKGAMMON if position is None else position.variant
            if variant is not None and read_variant is not variant:
                raise PositionError(f"position is {read_variant.value}, not {variant.value}")
            dice = check_dice(item["dice"] if isinstance(item["dice"], list) else [])
            if position is None:
                assert state is not None and state_answer is not None
                result = state_answer(state, dice)
            else:
                result = answer(position, dice)
        except GameError as exc:
            print(f"error: {path} line {number}: {exc}", file=sys.stderr)
            result = {"error": f"line {number}: {exc}"}
            status = 2
        out.write((result if isinstance(result, str) else json.dumps(result)) + "\n")
    return status


def output_file(text: str) -> str:
    """--out's type: a file the command will write, refused before any work when it cannot be (a
    directory, or in a directory that is not there): a build of minutes must not fail at its end."""
    from pathlib import Path

    target = Path(text)
    if target.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a directory: give a file name")
    folder = target.parent
    if not folder.is_dir():
        there = "is not a directory" if folder.exists() else "does not exist"
        raise argparse.ArgumentTypeError(f"{text!r}: its directory {str(folder)!r} {there}")
    return text


def new_file(text: str) -> str:
    """An output file that must not be there yet (`output_file`'s checks, then that): what it
    would replace is a measurement's or a record's, not to be lost."""
    from pathlib import Path

    output_file(text)
    if Path(text).exists():
        raise argparse.ArgumentTypeError(f"{text!r} is there already: name a new file")
    return text


def image_file(path: str, suffixes: tuple[str, ...]) -> None:
    """Refuse, before any work, an output that is a directory or has no picture suffix."""
    from pathlib import Path

    target = Path(path)
    if target.is_dir():
        raise UsageError(f"--out {path!r} is a directory: give a file name such as board.png")
    if target.suffix.lower() not in suffixes:
        raise UsageError(f"--out {path!r}: write one of {', '.join(suffixes)}")
