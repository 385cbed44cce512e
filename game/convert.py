"""`python -m game convert FILE --to jsonl|mat|sgf [--out PATH]`: a transcript (`.mat`, or GNU
Backgammon's `.sgf`) to the project's record, a record to a transcript, one transcript to the other.

A `.mat` transcript in any dialect becomes a JSON Lines record (game/RECORD.md: the replayed
match, the position after every play), so a referee can open any real transcript in `report` and
`render`; a record becomes a `.mat` for GNU Backgammon or eXtreme Gammon. The source is judged
first, as `validate` judges it: its verdict, its producer and dialect, and its integrity line are
printed; a source with a problem is not converted. The record written is hash-chained and
unsigned (no table signed it); a `.mat` carries no chain or signature.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from game.errors import MatFormatError, UsageError
from game.mat import export_mat
from game.record import read_lines, record_bytes
from game.transcripts.sgf import export_sgf, is_sgf
from game.validate import UNREADABLE, validate_file

SUFFIX = {"jsonl": ".jsonl", "mat": ".mat", "sgf": ".sgf"}
KIND = {"record": "JSON Lines record", "mat": ".mat transcript", "sgf": "GNU Backgammon .sgf match file"}


def convert(path: str, to: str, out_path: str | None, trusted: frozenset[str] | None, out: TextIO) -> int:
    """Convert `path` to `to` ("jsonl", "mat" or "sgf"), writing `out_path` (default: the same name with the
    new suffix); print what was read and written to `out`. Exit code 0 written, 1 not written
    because the source breaks the rules (or written, but the source record is not intact)."""
    from game.chouette.replay import is_chouette_record

    source = Path(path)
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    if data.lstrip()[:1] == b"{" and is_chouette_record(line.event for line in read_lines(data)):
        raise UsageError(f"{path!r} is a chouette session's record: use python -m game.chouette convert")
    wanted = "record" if to == "jsonl" else to
    start = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if ("record" if start[:1] == b"{" else "sgf" if is_sgf(start) else "mat") == wanted:
        raise UsageError(f"{path!r} is already a {KIND[wanted]}")
    target = Path(out_path) if out_path else source.with_suffix(SUFFIX[to])
    if target.is_dir():
        raise UsageError(f"--out {str(target)!r} is a directory: give a file name")
    if target.resolve() == source.resolve():
        raise UsageError(f"{str(target)!r} is the file being converted: give another --out")
    verdict = validate_file(path, trusted)
    if verdict.exit_code == UNREADABLE:
        raise UsageError(f"cannot read {path!r} as a record, .mat or .sgf: {verdict.error}")
    out.write(f"read {path}: {KIND[verdict.kind]}, verdict {verdict.verdict()}\n")
    if verdict.dialect is not None:
        out.write(verdict.dialect.describe() + "\n")
    out.write(verdict.integrity_line() + "\n")
    if verdict.notes:
        out.write(f"{len(verdict.notes)} notes: see python -m game validate {path}\n")
    match = verdict.match
    if verdict.problems or match is None:
        print(f"error: {path} is not converted: {len(verdict.problems)} problems (see python -m game validate "
              f"{path})", file=sys.stderr)
        return 1
    try:
        payload = (record_bytes(match) if to == "jsonl" else export_sgf(match).encode("utf-8") if to == "sgf"
                   else export_mat(match).encode("utf-8"))
    except MatFormatError as exc:
        raise UsageError(f"{path!r} cannot be written as .{to}: {exc}") from None
    try:
        target.write_bytes(payload)
    except OSError as exc:
        raise UsageError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    what = {"jsonl": "JSON Lines record, hash-chained and unsigned (converted, not written by a table)",
            "mat": ".mat transcript (no chain or signature)",
            "sgf": "GNU Backgammon .sgf match file (no chain or signature): 'load match' in GNU Backgammon"}[to]
    out.write(f"wrote {target}: {what}\n")
    return 1 if verdict.integrity is not None and verdict.integrity.tampered else 0
