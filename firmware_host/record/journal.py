"""The controller's journal: the match record plus the referee's own events, hash-chained,
flushed line by line, so a controller killed at any moment resumes from it, and fsynced once per
action, so that a power cut loses at most the action under way.

The journal is a JSON Lines record (game/RECORD.md): the match's events, as `game.match`
emits them (a chouette session's, as `game.chouette` does), interleaved with the controller's
events (`flag`, `link`, `clock`, `dice_stats`, `takeback_request`, `choice`), each with a `"t"`
time stamp. Each line carries `prev`, the
hash of the line before. With the table's key (`firmware_host.record.signing`) the first line names
the key and `sign()` signs the chain's head, so that `python -m game validate` tells an edit by
anyone without the key, and a cut, from the record the table wrote (game/integrity.py).

Why the journal forces every action's lines to disk, not each line, nor each turn or minute: a
roll is seen by everyone the moment it is thrown, and a line left in the page cache (ext4 writes
data back after up to 30 s) would let a player who pulls the table's plug after a bad roll erase it.
So at the end of each action (the controller's handling of one event) its lines go to the journal's
syncer (firmware_host/record/syncer.py), which fsyncs at once on its own thread: the lines are
durable as soon as the controller could have made them so itself, and the table's loop does not
wait for the disk meanwhile (an SD card's fsync can take tens of milliseconds, sensor frames queueing
behind it). Lines of actions that end while an fsync runs share the next one.

A listener (`Journal.listen`) hears each line once it is durable, with its sequence number (its
line number in the file) and its hash, on the table's thread, at the end of an action or when the
table's loop asks (`deliver`): the room's publisher relays them to the director, and never a line
that a power cut could still take back.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from firmware_host.errors import JournalError
from firmware_host.folders import make_directory
from firmware_host.record.syncer import Syncer
from game.chouette.replay import is_chouette_record, resume
from game.errors import ReplayError
from game.record import RecordWriter, chain_problems, read_record, replay_lines
from game.replay import Problem

if TYPE_CHECKING:
    from firmware_host.record.signing import TableKey

JOURNAL_NAME = "journal.jsonl"
Listener = Callable[[int, bytes, str], None]
"""Called as `listener(seq, line, hash)`: the line's number in the file (from 1), its bytes
without the newline, and its SHA-256 (what the next line's `prev` carries)."""


def read_journal(directory: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The events of the journal in `directory` ([] when there is none), the chain and the
    rules checked (raises `ReplayError`). The journal may stop in the middle of an action (a
    kill between its lines): the controller that resumes it writes what the action implies."""
    path = Path(directory) / JOURNAL_NAME
    if not path.exists():
        return []
    lines = read_record(path)
    events = [line.event for line in lines if line.event is not None]
    if not is_chouette_record(events):
        replay_lines(lines, ended=False)
        return events
    for problem in chain_problems(lines):  # a chouette session's journal: the same chain, its own rules
        raise ReplayError(problem)
    for line in lines:
        if line.event is None:
            raise ReplayError(Problem(f"line {line.number} is not a JSON object", line.number))
    resume(events)
    return events


class Journal:
    """Appends events to `DIR/journal.jsonl`, continuing the chain of what is there; a line cut
    short by a kill is first set aside in `journal.cut`. Given the table's `key`, a new journal is
    signed with it (its first line, written by the controller, names it); an existing one must
    name the same key, or none: then it stays unsigned."""

    def __init__(self, directory: str | os.PathLike[str], *, fsync: bool = True, key: TableKey | None = None) -> None:
        self.directory = Path(directory)
        make_directory(self.directory, "record directory")
        self.path = self.directory / JOURNAL_NAME
        self.recovered = _drop_cut_line(self.path)
        """The bytes of a line cut short by a kill, set aside (b"" when there was none)."""
        existing = read_record(self.path) if self.path.exists() else []
        self.sequence = len(existing)
        """The number of the journal's last line (0 while it is empty)."""
        first = existing[0].event if existing else None
        named = first.get("key") if first is not None and first.get("type") == "table_key" else None
        if key is not None and named is not None and named != key.public:
            raise JournalError(f"{self.path} is signed by {named}, not by this table's key {key.public} "
                               f"({key.path}): resume it at the table that began it")
        if key is None and named is not None:
            raise JournalError(f"{self.path} is signed by {named}: go on with it with that table's key")
        self.key = key if key is not None and (named is not None or not existing) else None
        """The key this journal is signed with (None: unsigned)."""
        self._writer = RecordWriter.append(self.path)  # flushed line by line; forced to disk by the syncer
        self.syncer = Syncer(self._writer.fileno(), self.sequence) if fsync else None
        """The thread that forces the lines to disk (None: the journal does not fsync)."""
        # A journal dropped unclosed (a test's, a failed start's) ends its syncer's thread with it.
        self._stop_syncer = weakref.finalize(self, self.syncer.close) if self.syncer is not None else None
        self._listeners: list[Listener] = []
        self._unheard: list[tuple[int, bytes, str]] = []
        """Lines written and not yet told to the listeners: (seq, line, hash), in order."""
        self.heard = self.sequence
        """The number of the last line told to the listeners (durable, when the journal fsyncs)."""
        self._actions = 0
        self._action = _Action(self)  # one, reused: entered twice a frame, it must cost next to nothing

    def has_match(self) -> bool:
        """The journal holds a match (or a chouette session) to resume, not only the line naming its key
        (whether its rules hold is for `history` to say)."""
        if not self.path.exists():
            return False
        return any(line.event is not None and line.event.get("type") in ("match_start", "chouette_start")
                   for line in read_record(self.path))

    def history(self) -> list[dict[str, Any]]:
        """Every event in the journal so far, checked (see `read_journal`)."""
        return read_journal(self.directory)

    def write(self, event: Mapping[str, Any]) -> None:
        """Append one event, chained and flushed; sent to be made durable at once, or at the end of
        the action under way (`action`)."""
        digest = self._writer.write(event)
        self.sequence += 1
        if self._listeners:
            self._unheard.append((self.sequence, self._writer.line, digest))
        if not self._actions:
            self._commit()

    def action(self) -> _Action:
        """`with journal.action():` the lines written inside are one action's (the controller's
        handling of one event): each is flushed as it is written, so a killed process loses none, and
        at the end the syncer is asked to force them all to disk; the controller goes on meanwhile.
        Actions nest: the outermost one's end commits. Every action's end also tells the listeners
        the lines that have become durable since the last."""
        return self._action

    @property
    def durable(self) -> int:
        """The number of the last line known to be on disk (every line, when the journal does not fsync)."""
        return self.sequence if self.syncer is None else self.syncer.durable

    def deliver(self) -> None:
        """Tell the listeners each line that has become durable since they last heard (the table's
        loop calls it when it looks for news; each action's end does too). Raises `JournalError`
        once when an fsync failed: the lines stay written and are tried again."""
        syncer = self.syncer
        if syncer is not None and syncer.failure is not None:
            failure = syncer.take_failure()
            if failure is not None:
                raise JournalError(f"{self.path}: fsync failed, lines {self.durable + 1}-{self.sequence} "
                                   f"not yet durable (tried again): {failure}")
        if not self._unheard:
            return
        durable = self.durable
        if self._unheard[0][0] > durable:
            return
        ready = [line for line in self._unheard if line[0] <= durable]
        del self._unheard[:len(ready)]
        for seq, line, digest in ready:
            self.heard = seq
            for listener in self._listeners:
                listener(seq, line, digest)

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until every line written is durable, then tell the listeners; whether all is."""
        done = self.syncer is None or self.syncer.wait(timeout)
        self.deliver()
        return done

    def _commit(self) -> None:
        syncer = self.syncer
        if syncer is not None and syncer.durable < self.sequence:
            syncer.request(self.sequence)
        if self._unheard or (syncer is not None and syncer.failure is not None):
            self.deliver()  # else nothing to tell: most actions (a frame that settles nothing) write no line

    def listen(self, listener: Listener) -> None:
        """Call `listener(seq, line, hash)` for each line written from now on, once it is durable
        (fsynced, when the journal fsyncs), at the end of an action or at `deliver`. It runs on the
        writer's thread, so it must not block. Every line written before is made durable first (and
        counts as heard: the listener reads those from the file)."""
        if self.settle():
            self.heard = self.sequence
        self._listeners.append(listener)

    def sign(self, t: float) -> None:
        """Sign the chain's head at time `t`: every line so far is then the table's (nothing when unsigned)."""
        if self.key is None:
            return
        head = self._writer.prev
        self.write({"type": "signature", "lines": self.sequence, "head": head,
                    "signature": self.key.sign(self.sequence, head, float(t)), "t": float(t)})

    def close(self) -> None:
        """Close the file, what was written made durable and heard first (the syncer's last try); the
        journal can be opened again to go on."""
        if self.syncer is not None and self._stop_syncer is not None:
            self.syncer.request(self.sequence)
            self._stop_syncer()
        try:
            self.deliver()
        finally:
            self._writer.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class _Action:
    """The context of `Journal.action` (a class, not a generator: a quarter of the cost)."""

    __slots__ = ("_journal",)

    def __init__(self, journal: Journal) -> None:
        self._journal = journal

    def __enter__(self) -> None:
        self._journal._actions += 1

    def __exit__(self, *exc_info: object) -> None:
        journal = self._journal
        journal._actions -= 1
        if not journal._actions:  # the outermost action's end
            journal._commit()


def _drop_cut_line(path: Path) -> bytes:
    """A line cut short by a kill mid-write is moved to `journal.cut` (kept as evidence)."""
    if not path.exists():
        return b""
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return b""
    keep = data.rfind(b"\n") + 1
    cut = data[keep:]
    with open(path.with_suffix(".cut"), "ab") as evidence:
        evidence.write(cut + b"\n")
    with open(path, "r+b") as journal:
        journal.truncate(keep)
    return cut
