"""The project's match record: JSON Lines, one event a line, optionally hash-chained.

See `game/RECORD.md`. A line may carry `"prev"`: the SHA-256 (hex) of the bytes of
the line before it, without its newline; the first line's `prev` is 64 zeros.
Once the first line has `prev`, every line must, so that an edited, removed or
inserted line breaks the chain at a known place.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from game.errors import ReplayError
from game.match import Match
from game.replay import Problem, Replayer

GENESIS = "0" * 64


def line_hash(line: bytes) -> str:
    """The hash the next line's `prev` must carry: SHA-256 of the line without its newline."""
    return hashlib.sha256(line.rstrip(b"\r\n")).hexdigest()


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""Kept: `json.dumps` with arguments makes a new encoder at every call (a quarter of a line's cost)."""


def encode_event(event: Mapping[str, Any], prev: str | None = None) -> bytes:
    """One record line (without newline): compact JSON, UTF-8, `prev` added when given."""
    body = dict(event) if prev is None else {**event, "prev": prev}
    return _ENCODER.encode(body).encode("utf-8")


def write_event(fp: IO[bytes], event: Mapping[str, Any], prev_hash: str | None) -> str:
    """Append one event (chained to `prev_hash` unless None); returns the hash for the next line."""
    line = encode_event(event, prev_hash)
    fp.write(line + b"\n")
    return line_hash(line)


class RecordWriter:
    """Appends events to a record file, chaining each line to the last; flushes every line.

    `fsync=True` also forces each line to disk (the caller's choice: it costs time).
    `RecordWriter.append(path)` continues an existing record's chain.
    """

    def __init__(self, fp: IO[bytes], *, chain: bool = True, fsync: bool = False,
                 prev: str = GENESIS) -> None:
        self._fp = fp
        self._chain = chain
        self._fsync = fsync
        self.prev = prev
        self.line = b""
        """The last line written, without its newline."""

    @classmethod
    def append(cls, path: str | os.PathLike[str], *, chain: bool = True, fsync: bool = False) -> RecordWriter:
        """Open `path` for appending; the chain continues from its last line."""
        prev = GENESIS
        if os.path.exists(path):
            with open(path, "rb") as existing:
                last = b""
                for raw in existing:
                    if raw.strip():
                        last = raw
                if last:
                    prev = line_hash(last)
        return cls(open(path, "ab"), chain=chain, fsync=fsync, prev=prev)

    def write(self, event: Mapping[str, Any]) -> str:
        """Append one event, chained to the line before."""
        self.line = encode_event(event, self.prev if self._chain else None)
        self._fp.write(self.line + b"\n")
        self.prev = line_hash(self.line)
        self._fp.flush()
        if self._fsync:
            self.sync()
        return self.prev

    def sync(self) -> None:
        """Force what was written to disk."""
        os.fsync(self._fp.fileno())

    def fileno(self) -> int:
        """The file's descriptor (for a caller that forces it to disk on its own thread)."""
        return self._fp.fileno()

    def write_all(self, events: Iterable[Mapping[str, Any]]) -> None:
        """Append every event, in order."""
        for event in events:
            self.write(event)

    def close(self) -> None:
        """Close the file."""
        self._fp.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class RecordLine:
    """One line of a record as read: its number, its bytes and its event (None when it is not a JSON object)."""

    number: int  # 1-based line number in the file
    raw: bytes
    event: dict[str, Any] | None  # None when the line is not a JSON object


def read_lines(data: bytes) -> Iterator[RecordLine]:
    """The non-blank lines of a record, decoded where they are JSON objects."""
    for number, raw in enumerate(data.split(b"\n"), 1):
        raw = raw.rstrip(b"\r")
        if not raw.strip():
            continue
        try:
            event = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            event = None  # not a JSON object (or nested beyond reason): the line is reported
        yield RecordLine(number, raw, event if isinstance(event, dict) else None)


def chain_problems(lines: Iterable[RecordLine]) -> list[Problem]:
    """Breaks of the hash chain, each naming the lines around it; [] for an intact or absent chain."""
    problems = []
    chained = False
    previous: RecordLine | None = None
    for line in lines:
        prev = line.event.get("prev") if line.event is not None else None
        if previous is None:
            chained = prev is not None
        expected = GENESIS if previous is None else line_hash(previous.raw)
        if prev is not None and prev != expected:
            where = ("the first line's prev is not 64 zeros: lines were removed before it" if previous is None
                     else f"line {line.number}'s prev does not match line {previous.number}: line "
                          f"{previous.number} was edited, or lines were removed or inserted between them")
            problems.append(Problem(f"hash chain broken: {where}", line.number))
        elif prev is None and chained:
            problems.append(Problem(f"hash chain broken: line {line.number} has no prev (chained record)",
                                    line.number))
        previous = line
    return problems


def read_record(path: str | os.PathLike[str]) -> list[RecordLine]:
    """Every line of the record at `path`, in order (the chain is checked on replay)."""
    return list(read_lines(Path(path).read_bytes()))


def replay_lines(lines: Iterable[RecordLine], *, strict: bool = True, ended: bool = True) -> Replayer:
    """Replay a record's lines; strict raises `ReplayError` at the first problem (chain included).

    `ended=False` reads a record that may stop in the middle of one action (a journal whose
    writer was killed between the lines of a play that ended a game): the events the rules
    derive from its last action may still be missing."""
    lines = list(lines)
    replayer = Replayer(strict=strict)
    for problem in chain_problems(lines):
        if strict:
            raise ReplayError(problem)
        replayer.problems.append(problem)
    for line in lines:
        if line.event is None:
            replayer.report(f"line {line.number} is not a JSON object", line.number)
            continue
        replayer.feed(line.event, line.number)
    if ended:
        replayer.finish()
    return replayer


def replay_record(data: bytes) -> Match:
    """The match a record holds, replayed through the rules; raises `ReplayError` at a problem."""
    return replay_lines(read_lines(data)).result()


def record_bytes(match: Match, *, chain: bool = True) -> bytes:
    """A match's events as a record (chained by default)."""
    out = bytearray()
    prev: str | None = GENESIS if chain else None
    for event in match.events:
        line = encode_event(event, prev)
        out += line + b"\n"
        if chain:
            prev = line_hash(line)
    return bytes(out)
