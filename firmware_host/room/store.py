"""The director's copy of every match: DATA/TABLE/MATCH.jsonl, the very lines of the table's
journal, in order, checked link by link (`python -m game validate` reads it as it reads the
journal). A line is appended only when it is the next one and its `prev` is the hash of the
line before; the copy is fsynced before the director acknowledges it (`sync`), so what the
director has acknowledged survives its restart. In memory a copy keeps 32 bytes of hash and
8 of file offset per line, and what the pages need: players, result, flags.
"""

from __future__ import annotations

import json
import os
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from firmware_host.room.errors import MessageRejected
from firmware_host.room.messages import EventMessage, match_id
from firmware_host.room.topics import NAME
from game.record import GENESIS, line_hash

MAX_AHEAD = 2000
"""Lines kept that arrived ahead of a gap (a resend fills it)."""


@dataclass
class MatchCopy:
    """The director's copy of one match at one table."""

    table: str
    match: str
    path: Path
    hashes: bytearray = field(default_factory=bytearray)
    offsets: array[int] = field(default_factory=lambda: array("Q"))
    size: int = 0
    summary: dict[str, Any] = field(default_factory=dict)
    """From match_start and match_end: variant, length, players, and when over: score, winner."""
    flags: list[int] = field(default_factory=list)
    """The line numbers of the flag events (flag n is flags[n - 1])."""
    pending: dict[int, EventMessage] = field(default_factory=dict)
    unsynced: bool = False
    _fp: IO[bytes] | None = None

    @property
    def held(self) -> int:
        return len(self.offsets)

    @property
    def finished(self) -> bool:
        return "score" in self.summary

    def last_hash(self) -> str:
        return self.hashes[-32:].hex() if self.hashes else GENESIS

    def hash_of(self, seq: int) -> str:
        return self.hashes[(seq - 1) * 32:seq * 32].hex()

    def receive(self, message: EventMessage) -> tuple[str, int]:
        """("stored", lines added), ("duplicate", 0) or ("ahead", 0); MessageRejected: a conflict, a broken chain."""
        if message.seq <= self.held:
            if self.hash_of(message.seq) == message.hash:
                return "duplicate", 0
            raise MessageRejected("conflict", f"table {self.table} match {self.match} line {message.seq}: not the "
                                              "line held (a replayed or forged event)")
        if message.seq > self.held + 1:
            if len(self.pending) < MAX_AHEAD:
                self.pending.setdefault(message.seq, message)
            return "ahead", 0
        self._append(message)
        added = 1
        while self.held + 1 in self.pending:
            waiting = self.pending.pop(self.held + 1)
            self._append(waiting)
            added += 1
        return "stored", added

    def _append(self, message: EventMessage) -> None:
        if message.prev != self.last_hash():
            self.pending.clear()
            raise MessageRejected("chain", f"table {self.table} match {self.match} line {message.seq}: prev does not "
                                           f"match the hash of line {message.seq - 1}")
        if self._fp is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fp = open(self.path, "ab")
        self._fp.write(message.line + b"\n")
        self._fp.flush()
        self._index(message.line)
        self.unsynced = True

    def _index(self, line: bytes) -> None:
        self.offsets.append(self.size)
        self.size += len(line) + 1
        self.hashes += bytes.fromhex(line_hash(line))
        if b'"type":"match_start"' in line or b'"type":"match_end"' in line or b'"type":"flag"' in line:
            event = json.loads(line)
            if event["type"] == "match_start":
                self.summary.update({k: event.get(k) for k in ("variant", "length", "players", "t")})
            elif event["type"] == "match_end":
                self.summary.update(score=event.get("score"), winner=event.get("winner"))
            elif event["type"] == "flag":
                self.flags.append(self.held)

    def sync(self) -> None:
        """Force the copy to disk (before it is acknowledged)."""
        if self._fp is not None and self.unsynced:
            os.fsync(self._fp.fileno())
        self.unsynced = False

    def read_bytes(self) -> bytes:
        return self.path.read_bytes() if self.held else b""

    def event(self, seq: int) -> dict[str, Any]:
        """The event of line `seq` (read from the file)."""
        with open(self.path, "rb") as copy:
            copy.seek(self.offsets[seq - 1])
            result: dict[str, Any] = json.loads(copy.readline())
            return result

    def events(self) -> list[dict[str, Any]]:
        return [json.loads(raw) for raw in self.read_bytes().splitlines() if raw.strip()]

    def close(self) -> None:
        if self._fp is not None:
            self.sync()
            self._fp.close()
            self._fp = None


class Store:
    """Every match copy under `directory`, loaded (and checked) at start."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.copies: dict[str, dict[str, MatchCopy]] = {}
        """Table -> match -> copy, each table's matches in the order they began."""
        self.problems: list[str] = []
        for table_dir in sorted(p for p in self.directory.iterdir() if p.is_dir() and NAME.fullmatch(p.name)):
            loaded = [self._load(table_dir.name, path) for path in table_dir.glob("*.jsonl")]
            for copy in sorted((c for c in loaded if c is not None), key=lambda c: float(c.summary.get("t") or 0)):
                self.copies.setdefault(table_dir.name, {})[copy.match] = copy

    def _load(self, table: str, path: Path) -> MatchCopy | None:
        data = path.read_bytes()
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        else:  # a line cut short by a crash was never acknowledged: drop it
            data = data[:data.rfind(b"\n") + 1]
            path.write_bytes(data)
            lines = data.split(b"\n")[:-1]
        if not lines or match_id(lines[0]) != path.stem:
            self.problems.append(f"{path}: not a match copy (its first line is not match {path.stem})")
            return None
        copy = MatchCopy(table, path.stem, path)
        for number, line in enumerate(lines, 1):
            prev = json.loads(line).get("prev")
            if prev != copy.last_hash():
                self.problems.append(f"{path}: the chain breaks at line {number}; kept lines 1 to {number - 1}")
                with open(path, "r+b") as cut:
                    cut.truncate(copy.size)
                break
            copy._index(line)
        return copy

    def copy(self, table: str, match: str) -> MatchCopy:
        matches = self.copies.setdefault(table, {})
        if match not in matches:
            matches[match] = MatchCopy(table, match, self.directory / table / f"{match}.jsonl")
        return matches[match]

    def find(self, table: str, match: str) -> MatchCopy | None:
        return self.copies.get(table, {}).get(match)

    def latest(self, table: str) -> MatchCopy | None:
        matches = self.copies.get(table)
        return next(reversed(matches.values())) if matches else None

    def close(self) -> None:
        for matches in self.copies.values():
            for copy in matches.values():
                copy.close()
