"""The journal's durability: every line flushed as it is written; at each action's end its lines go to
the syncer, which forces them to disk on its own thread while the table goes on; the listeners told of
each line only once it is durable."""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.emulator.table import EmulatedTable
from firmware_host.errors import JournalError
from firmware_host.record.journal import Journal
from firmware_host.settings import Settings
from game.board import Variant
from game.record import line_hash

WAIT = 10.0  # seconds a test waits for the syncer before it fails (it needs well under one)


class Disk:
    """Counts the fsyncs of the journal's file and remembers its size at the last one; `hold()`
    keeps the next fsyncs from finishing until `release()`, `fail_next()` makes the next one fail."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
        self.path = path
        self.fsyncs = 0
        self.durable = path.stat().st_size if path.exists() else 0
        self.started = threading.Event()
        self._open = threading.Event()
        self._open.set()
        self._fail = False
        real = os.fsync

        def fsync(fd: int) -> None:
            if not (os.path.exists(self.path) and os.fstat(fd).st_ino == os.stat(self.path).st_ino):
                real(fd)
                return
            self.started.set()
            assert self._open.wait(WAIT), "the disk was held too long"
            if self._fail:
                self._fail = False
                raise OSError(5, "Input/output error")
            size = os.fstat(fd).st_size
            real(fd)
            self.fsyncs += 1
            self.durable = size

        monkeypatch.setattr(os, "fsync", fsync)

    def written(self) -> int:
        return self.path.stat().st_size

    def hold(self) -> None:
        self.started.clear()
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    def fail_next(self) -> None:
        self._fail = True


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path) as opened:
        yield opened


@pytest.fixture
def heard(journal: Journal) -> list[int]:
    """The numbers of the lines the journal's listener has heard, in order."""
    numbers: list[int] = []
    journal.listen(lambda seq, line, digest: numbers.append(seq))
    return numbers


def test_an_actions_lines_are_flushed_at_once_and_made_durable_by_one_fsync_after_its_end(
        journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    disk = Disk(monkeypatch, journal.path)
    heard: list[tuple[int, bytes, str]] = []
    journal.listen(lambda seq, line, digest: heard.append((seq, line, digest)))
    with journal.action():
        journal.write({"type": "play", "t": 1.0})
        assert len(journal.path.read_bytes().splitlines()) == 1  # flushed: a killed process keeps it
        journal.write({"type": "clock", "t": 1.0})
        with journal.action():  # nested: only the outermost end commits
            journal.write({"type": "game_end", "t": 1.0})
        journal.deliver()
        assert (disk.fsyncs, heard, journal.sequence) == (0, [], 3)
    assert journal.settle(WAIT)  # no other event: the syncer forces the lines on its own
    assert (disk.fsyncs, disk.durable, journal.durable, journal.heard) == (1, disk.written(), 3, 3)
    lines = journal.path.read_bytes().splitlines()
    assert heard == [(n + 1, line, line_hash(line)) for n, line in enumerate(lines)]


def test_a_listener_hears_only_the_lines_written_after_it_came_and_those_before_count_as_heard(
        journal: Journal) -> None:
    journal.write({"type": "link", "t": 1.0})
    heard: list[int] = []
    journal.listen(lambda seq, line, digest: heard.append(seq))  # after the first line: not the fixture
    assert (journal.heard, journal.durable, heard) == (1, 1, [])
    journal.write({"type": "link", "t": 2.0})
    assert journal.settle(WAIT)
    assert (journal.heard, heard) == (2, [2])


def test_the_table_goes_on_while_the_disk_is_slow_and_no_line_is_heard_before_it_is_durable(
        journal: Journal, heard: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    disk = Disk(monkeypatch, journal.path)
    disk.hold()
    with journal.action():
        journal.write({"type": "roll", "t": 1.0})
    assert disk.started.wait(WAIT)  # the syncer is inside the fsync, and the action has returned
    for t in (2.0, 3.0, 4.0):  # actions ending meanwhile: their lines wait for the next fsync, together
        with journal.action():
            journal.write({"type": "clock", "t": t})
    journal.deliver()
    assert (disk.fsyncs, heard, journal.durable) == (0, [], 0)
    disk.release()
    assert journal.settle(WAIT)
    assert (disk.fsyncs, heard, disk.durable) == (2, [1, 2, 3, 4], disk.written())


def test_an_action_that_raises_still_makes_its_lines_durable(journal: Journal,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    disk = Disk(monkeypatch, journal.path)
    with pytest.raises(RuntimeError, match="the display failed"), journal.action():
        journal.write({"type": "roll", "t": 1.0})
        raise RuntimeError("the display failed")
    assert journal.settle(WAIT)
    assert (disk.fsyncs, disk.durable) == (1, disk.written())


def test_an_action_with_no_lines_costs_no_fsync(journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    disk = Disk(monkeypatch, journal.path)
    with journal.action():
        pass
    assert journal.settle(WAIT)
    assert disk.fsyncs == 0


def test_a_failed_fsync_is_said_once_and_tried_again_and_nothing_is_lost(
        journal: Journal, heard: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    disk = Disk(monkeypatch, journal.path)
    disk.fail_next()
    with journal.action():
        journal.write({"type": "roll", "t": 1.0})
    with pytest.raises(JournalError, match=r"journal.jsonl: fsync failed, lines 1-1 not yet durable .*Input/output"):
        journal.settle(WAIT)  # said once, at the table's next look
    assert heard == [] and journal.durable == 0
    with journal.action():  # the table goes on; the syncer tries again
        journal.write({"type": "clock", "t": 2.0})
    assert journal.settle(WAIT)
    assert (heard, disk.durable) == ([1, 2], disk.written())
    assert disk.fsyncs in (1, 2)  # the retry may come before the second line or after it


def test_closing_or_dropping_a_journal_ends_its_syncer_with_every_line_durable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    closed = Journal(tmp_path / "closed")
    disk = Disk(monkeypatch, closed.path)
    with closed.action():
        closed.write({"type": "roll", "t": 1.0})
    syncer = closed.syncer
    assert syncer is not None and syncer.running
    closed.close()
    closed.close()  # again: nothing
    assert not syncer.running and disk.durable == disk.written()
    dropped = Journal(tmp_path / "dropped")
    syncer = dropped.syncer
    del dropped  # a journal nobody closed (a failed start's) takes its thread with it
    gc.collect()
    assert syncer is not None and not syncer.running


def test_a_whole_match_every_line_heard_only_once_durable_and_fewer_fsyncs_than_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = EmulatedTable(Settings(variant=Variant.BACKGAMMON, length=1), tmp_path / "record", 3)
    journal = table.journal
    disk = Disk(monkeypatch, journal.path)
    late: list[int] = []
    lines_before = journal.sequence
    end = [journal.path.stat().st_size]

    def heard(seq: int, line: bytes, digest: str) -> None:
        end[0] += len(line) + 1
        if disk.durable < end[0]:
            late.append(seq)

    journal.listen(heard)
    try:
        assert table.run()
    finally:
        table.close()
    lines = journal.sequence - lines_before
    assert late == [] and journal.heard == journal.sequence
    assert disk.durable == disk.written() == end[0]
    types = [line.split(b'"type":"')[1].split(b'"')[0] for line in journal.path.read_bytes().splitlines()]
    plays = types.count(b"play")
    assert plays > 10 and types.count(b"clock") >= plays
    assert 0 < disk.fsyncs <= lines - plays  # a play and its clock line: one fsync, or fewer
