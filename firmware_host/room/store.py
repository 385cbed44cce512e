"""The director's copy of every match: DATA/TABLE/MATCH.jsonl, the very lines of the table's
journal, in order, checked link by link (`python -m game validate` reads it as it reads the
journal). A line is appended only when it is the next one and its `prev` is the hash of the
line before. In memory a copy keeps 32 bytes of hash and 8 of file offset per line, and what
the pages need: players, result, flags.

Durability costs one fsync per acknowledgement round, however many tables: every line stored
also goes to DATA/ingest.log, which `durable()` forces to disk before the director
acknowledges; the copies themselves are forced to disk only when the log is emptied (at 32 MB,
at start, at close). At start the log's lines that a crash kept from the copies are put back.

A line is checked (`messages.check_event`: the types and ranges of what the pages read) when it is
written, and again when a copy is loaded: a start never fails on what is on disk; a file that does
not load is moved to DATA/quarantine/ and reported (`problems`). What one table's login can make
the director hold is bounded: `MAX_AHEAD` lines ahead of a gap per match and `MAX_AHEAD_BYTES` in all,
`MAX_MATCHES` matches per table; what is refused is counted (`refused`).
"""

from __future__ import annotations

import json
import os
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from firmware_host.errors import MessageRejected
from firmware_host.folders import make_directory
from firmware_host.room.messages import EventMessage, check_event, loads, match_id
from firmware_host.room.topics import NAME
from game.integrity import signature_verifies
from game.record import GENESIS, line_hash

MAX_AHEAD = 2000
"""Lines kept per match that arrived ahead of a gap (a resend fills it)."""
MAX_AHEAD_BYTES = 16 * 1024 * 1024
"""Bytes of such lines kept over every match (more are dropped and counted: the table sends them again)."""
MAX_MATCHES = 300
"""Matches kept per table (a weekend's tournament plays a few dozen at one table): a new match beyond
them is refused and counted."""
QUARANTINE = "quarantine"
LOG_NAME = "ingest.log"
ROTATE_BYTES = 32 * 1024 * 1024


class AheadBudget:
    """The bytes of lines held ahead of a gap, over every copy of a store, within `limit`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def take(self, message: EventMessage) -> bool:
        """Whether `message` may be held (its bytes are then counted as used)."""
        if self.used + len(message.line) > self.limit:
            return False
        self.used += len(message.line)
        return True

    def give_back(self, message: EventMessage) -> None:
        """`message` is held no more."""
        self.used -= len(message.line)


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
    """From match_start and match_end: variant, length, players, and when over: score, winner; a chouette
    session's (chouette_start): variant, `chouette` (the players), t."""
    flags: list[int] = field(default_factory=list)
    """The line numbers of the flag events (flag n is flags[n - 1])."""
    key: str | None = None
    """The public key the first line names (`table_key`): the one every signature must verify with."""
    signed: int = 0
    """Lines 1 to `signed` are covered by a signature that verifies with `key`."""
    flaw: str | None = None
    """Why the copy cannot be the table's own, seen as its lines arrived (no key, a bad signature)."""
    verdict: str | None = None
    """The director's judgement of a sealed match (`Director.judge_due`): VERIFIED or why not; None before."""
    pending: dict[int, EventMessage] = field(default_factory=dict)
    budget: AheadBudget | None = None
    """The store's bound on lines held ahead of a gap, shared by every copy."""
    _fp: IO[bytes] | None = None

    @property
    def held(self) -> int:
        """How many lines the copy holds: lines 1 to `held`, in order, chained."""
        return len(self.offsets)

    @property
    def finished(self) -> bool:
        """Whether the copy holds the match's end (its score is known)."""
        return "score" in self.summary

    @property
    def sealed(self) -> bool:
        """Finished, and its last line a signature that covers every line: ready to be judged."""
        return self.finished and self.held > 0 and self.signed == self.held

    def last_hash(self) -> str:
        """The hash of the last line held (GENESIS before the first): the `prev` the next line must carry."""
        return self.hashes[-32:].hex() if self.hashes else GENESIS

    def hash_of(self, seq: int) -> str:
        """The hash of line `seq` (1 to `held`), to tell a duplicate from a conflicting line."""
        return self.hashes[(seq - 1) * 32:seq * 32].hex()

    def receive(self, message: EventMessage) -> tuple[str, list[EventMessage]]:
        """("stored", the lines added), ("duplicate", []) or ("ahead", []); MessageRejected: a conflict, a
        broken chain (the lines before it stay stored)."""
        if message.seq <= self.held:
            if self.hash_of(message.seq) == message.hash:
                return "duplicate", []
            raise MessageRejected("conflict", f"table {self.table} match {self.match} line {message.seq}: not the "
                                              "line held (a replayed or forged event)")
        if message.seq > self.held + 1:
            if message.seq in self.pending:
                return "ahead", []
            if len(self.pending) >= MAX_AHEAD or (self.budget is not None and not self.budget.take(message)):
                return "ahead-dropped", []
            self.pending[message.seq] = message
            return "ahead", []
        self._append(message)
        added = [message]
        while self.held + 1 in self.pending:
            waiting = self._pop(self.held + 1)
            self._append(waiting)
            added.append(waiting)
        return "stored", added

    def _pop(self, seq: int) -> EventMessage:
        message = self.pending.pop(seq)
        if self.budget is not None:
            self.budget.give_back(message)
        return message

    def drop_pending(self) -> None:
        """Forget the lines held ahead of a gap (a resend brings them again)."""
        for seq in list(self.pending):
            self._pop(seq)

    def _append(self, message: EventMessage) -> None:
        if message.prev != self.last_hash():
            self.drop_pending()
            raise MessageRejected("chain", f"table {self.table} match {self.match} line {message.seq}: prev does not "
                                           f"match the hash of line {message.seq - 1}")
        where = f"table {self.table} match {self.match} line {message.seq}"
        try:
            event = check_event(loads(message.line), where)
        except ValueError as exc:  # MessageRejected is one too
            self.drop_pending()
            raise exc if isinstance(exc, MessageRejected) else MessageRejected("payload", f"{where}: {exc}") from None
        if self._fp is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fp = open(self.path, "ab")
        self._fp.write(message.line + b"\n")
        self._fp.flush()
        self._index(message.line, event)

    def _index(self, line: bytes, event: dict[str, Any]) -> None:
        self.offsets.append(self.size)
        self.size += len(line) + 1
        self.hashes += bytes.fromhex(line_hash(line))
        self._check_signing(event)
        if event["type"] in ("match_start", "match_end", "flag", "chouette_start"):
            if event["type"] == "match_start":
                self.summary.update({k: event.get(k) for k in ("variant", "length", "players", "t")})
            elif event["type"] == "chouette_start":  # a chouette session: never a finished match of the results
                self.summary.update(variant=event.get("variant"), chouette=event.get("players"), t=event.get("t"))
            elif event["type"] == "match_end":
                self.summary.update(score=event.get("score"), winner=event.get("winner"))
            elif event["type"] == "flag":
                self.flags.append(self.held)

    def _check_signing(self, event: dict[str, Any]) -> None:
        """The table's signing, line by line as it arrives: the first line names the key, each
        signature must verify with it (the chain was checked before)."""
        number = self.held
        if number == 1:
            key = event.get("key") if event["type"] == "table_key" else None
            self.key = key if isinstance(key, str) else None
            if self.key is None:
                self.flaw = "unsigned: its first line names no table key"
        elif event["type"] == "signature" and self.key is not None:
            if signature_verifies(self.key, event, number):
                self.signed = number
            elif self.flaw is None:
                self.flaw = f"the signature on line {number} does not verify with the key its first line names"

    def sync(self) -> None:
        """Force the copy to disk."""
        if self._fp is not None:
            os.fsync(self._fp.fileno())

    def read_bytes(self) -> bytes:
        """The copy's lines so far (read outside the director's lock: a copy only grows, and only
        its first `size` bytes are read)."""
        size = self.size
        if not size:
            return b""
        with open(self.path, "rb") as copy:
            return copy.read(size)

    def event(self, seq: int) -> dict[str, Any]:
        """The event of line `seq` (read from the file)."""
        with open(self.path, "rb") as copy:
            copy.seek(self.offsets[seq - 1])
            result: dict[str, Any] = json.loads(copy.readline())
            return result

    def events(self) -> list[dict[str, Any]]:
        """Every event of the copy so far, in order (read from the file, like `read_bytes`)."""
        return [json.loads(raw) for raw in self.read_bytes().splitlines() if raw.strip()]

    def close(self) -> None:
        """Force the copy to disk and close its file (a line that arrives later opens it again)."""
        if self._fp is not None:
            self.sync()
            self._fp.close()
            self._fp = None


class Store:
    """Every match copy under `directory`, loaded (and checked) at start; the ingest log behind them."""

    def __init__(self, directory: str | os.PathLike[str], *, rotate_bytes: int = ROTATE_BYTES) -> None:
        self.directory = Path(directory)
        make_directory(self.directory, "director's data directory")
        self.rotate_bytes = rotate_bytes
        self.copies: dict[str, dict[str, MatchCopy]] = {}
        """Table -> match -> copy, each table's matches in the order they began."""
        self.problems: list[str] = []
        """What was wrong on disk at start: a copy cut where its chain broke, a file moved to quarantine."""
        self.refused: Counter[str] = Counter()
        """Lines not held by the store's bounds: `ahead-dropped`, `too-many-matches`."""
        self.ahead = AheadBudget(MAX_AHEAD_BYTES)
        for table_dir in sorted(p for p in self.directory.iterdir() if p.is_dir() and NAME.fullmatch(p.name)):
            loaded = [self._load_or_quarantine(table_dir.name, path) for path in table_dir.glob("*.jsonl")]
            for copy in sorted((c for c in loaded if c is not None), key=lambda c: float(c.summary.get("t") or 0)):
                self.copies.setdefault(table_dir.name, {})[copy.match] = copy
        self.recovered = 0
        """Lines the ingest log gave back at start (the copies had lost them in a crash)."""
        self._dirty: set[tuple[str, str]] = set()
        log = self.directory / LOG_NAME
        if log.exists():
            self._recover(log.read_bytes())
        self._log = open(log, "ab")
        self._rotate()

    def _recover(self, data: bytes) -> None:
        lines = data.split(b"\n")
        for header, line in zip(lines[0::2], lines[1::2], strict=False):
            try:
                doc = json.loads(header)
                message = EventMessage(doc["table"], doc["match"], int(doc["seq"]), line_hash(line), line)
                copy = self.copy(message.table, message.match)
                if message.seq == copy.held + 1:
                    copy.receive(message)
                    self._dirty.add((message.table, message.match))
                    self.recovered += 1
            except (ValueError, KeyError, TypeError, MessageRejected):
                continue  # a record cut short by the crash: never acknowledged

    def receive(self, message: EventMessage) -> tuple[str, int]:
        """Take an event (see `MatchCopy.receive`); the lines stored go to the ingest log too."""
        copy = self.find(message.table, message.match)
        if copy is None:
            if len(self.copies.get(message.table, {})) >= MAX_MATCHES:
                self.refused["too-many-matches"] += 1
                raise MessageRejected("too-many-matches", f"table {message.table}: match {message.match} would be "
                                                          f"more than {MAX_MATCHES} matches kept for one table")
            copy = self.copy(message.table, message.match)
        outcome, added = copy.receive(message)
        if outcome == "ahead-dropped":
            self.refused[outcome] += 1
        for stored in added:
            self._log.write(stored.encode() + b"\n")
        if added:
            self._dirty.add((copy.table, copy.match))
        return outcome, len(added)

    def flush(self) -> int:
        """Hand what was stored to the operating system; returns the log's file descriptor for `durable`."""
        self._log.flush()
        return self._log.fileno()

    @staticmethod
    def durable(fd: int) -> None:
        """Force the ingest log to disk (one fsync for every table): what was flushed before is durable."""
        os.fsync(fd)

    def rotate_if_large(self) -> None:
        """Empty the ingest log once it is over `rotate_bytes` (the copies it covers are forced to disk first)."""
        if self._log.tell() > self.rotate_bytes:
            self._rotate()

    def _rotate(self) -> None:
        """Force the copies written since the last rotation to disk, then empty the log."""
        for table, match in self._dirty:
            copy = self.find(table, match)
            if copy is not None:
                copy.sync()
        self._dirty.clear()
        self._log.flush()
        self._log.truncate(0)
        os.fsync(self._log.fileno())

    def _load_or_quarantine(self, table: str, path: Path) -> MatchCopy | None:
        """The copy in `path`, or None: a file that is not a copy, or has a line the director would have
        refused, is moved to DATA/quarantine/ (and reported), so that the director starts whatever is on disk."""
        try:
            return self._load(table, path)
        except (OSError, ValueError, UnicodeDecodeError) as exc:  # MessageRejected is a ValueError
            quarantine = self.directory / QUARANTINE
            quarantine.mkdir(exist_ok=True)
            moved = quarantine / f"{table}-{path.name}"
            try:
                path.replace(moved)
            except OSError as move_error:
                self.problems.append(f"{path}: {exc}; could not move it to {quarantine}: {move_error}")
                return None
            self.problems.append(f"{path}: {exc}; moved to {moved}")
            return None

    def _load(self, table: str, path: Path) -> MatchCopy:
        data = path.read_bytes()
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        else:  # a line cut short by a crash was never acknowledged: drop it
            data = data[:data.rfind(b"\n") + 1]
            path.write_bytes(data)
            lines = data.split(b"\n")[:-1]
        if not lines or match_id(lines[0]) != path.stem:
            raise ValueError(f"not a match copy (its first line is not match {path.stem})")
        copy = MatchCopy(table, path.stem, path, budget=self.ahead)
        for number, line in enumerate(lines, 1):
            event = check_event(loads(line), f"line {number}")
            if event.get("prev") != copy.last_hash():
                self.problems.append(f"{path}: the chain breaks at line {number}; kept lines 1 to {number - 1}")
                with open(path, "r+b") as cut:
                    cut.truncate(copy.size)
                break
            copy._index(line, event)
        return copy

    def copy(self, table: str, match: str) -> MatchCopy:
        """The copy of `match` at `table` (a new, empty one for a new match: the table's earlier
        copies are then forced to disk and closed, so a room keeps one open file per table)."""
        matches = self.copies.setdefault(table, {})
        if match not in matches:
            for earlier in matches.values():
                earlier.close()
                self._dirty.discard((table, earlier.match))
            matches[match] = MatchCopy(table, match, self.directory / table / f"{match}.jsonl", budget=self.ahead)
        return matches[match]

    def find(self, table: str, match: str) -> MatchCopy | None:
        """The copy of `match` at `table`, or None (unlike `copy`, never makes one)."""
        return self.copies.get(table, {}).get(match)

    def latest(self, table: str) -> MatchCopy | None:
        """The table's latest match (the last begun), or None for a table with no copy."""
        matches = self.copies.get(table)
        return next(reversed(matches.values())) if matches else None

    def close(self) -> None:
        """Force every copy to disk, empty the ingest log and close every file."""
        self._rotate()
        self._log.close()
        for matches in self.copies.values():
            for copy in matches.values():
                copy.close()
