"""The journal's durability: every line flushed as it is written, one fsync per action, and the
listeners told of each line only once it is durable."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.controller import Controller
from firmware_host.emulator.table import EmulatedTable
from firmware_host.record.journal import Journal
from firmware_host.settings import Settings
from game.board import Variant
from game.record import line_hash


class Disk:
    """Counts the fsyncs of the journal's file and remembers its size at the last one."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
        self.path = path
        self.fsyncs = 0
        self.durable = path.stat().st_size if path.exists() else 0
        real = os.fsync

        def fsync(fd: int) -> None:
            real(fd)
            if os.path.exists(self.path) and os.fstat(fd).st_ino == os.stat(self.path).st_ino:
                self.fsyncs += 1
                self.durable = os.fstat(fd).st_size

        monkeypatch.setattr(os, "fsync", fsync)

    def written(self) -> int:
        return self.path.stat().st_size


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path) as opened:
        yield opened


def test_outside_an_action_each_line_is_durable_and_heard_at_once(journal: Journal,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    disk = Disk(monkeypatch, journal.path)
    heard: list[tuple[int, bytes, str, int]] = []
    journal.listen(lambda seq, line, digest: heard.append((seq, line, digest, disk.durable)))
    journal.write({"type": "link", "t": 1.0})
    journal.write({"type": "link", "t": 2.0})
    assert disk.fsyncs == 2
    lines = journal.path.read_bytes().splitlines()
    assert [(seq, line, digest) for seq, line, digest, _ in heard] == [
        (1, lines[0], line_hash(lines[0])), (2, lines[1], line_hash(lines[1]))]
    assert heard[0][3] == len(lines[0]) + 1  # heard once its own line was on disk
    assert heard[1][3] == disk.written()


def test_an_actions_lines_are_flushed_at_once_and_share_one_fsync_at_its_end(
        journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    disk = Disk(monkeypatch, journal.path)
    heard: list[int] = []
    journal.listen(lambda seq, line, digest: heard.append(seq))
    with journal.action():
        journal.write({"type": "play", "t": 1.0})
        assert len(journal.path.read_bytes().splitlines()) == 1  # flushed: a killed process keeps it
        journal.write({"type": "clock", "t": 1.0})
        with journal.action():  # nested: only the outermost end commits
            journal.write({"type": "game_end", "t": 1.0})
        assert (disk.fsyncs, heard) == (0, [])
        assert journal.sequence == 3
    assert disk.fsyncs == 1
    assert disk.durable == disk.written()
    assert heard == [1, 2, 3]


def test_an_action_that_raises_still_makes_its_lines_durable(journal: Journal,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    disk = Disk(monkeypatch, journal.path)
    with pytest.raises(RuntimeError, match="the display failed"), journal.action():
        journal.write({"type": "roll", "t": 1.0})
        raise RuntimeError("the display failed")
    assert (disk.fsyncs, disk.durable) == (1, disk.written())


def test_an_action_with_no_lines_costs_no_fsync(journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
    disk = Disk(monkeypatch, journal.path)
    with journal.action():
        pass
    assert disk.fsyncs == 0


def test_the_table_takes_no_event_before_the_last_ones_lines_are_on_disk_and_fsyncs_less_than_once_a_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = EmulatedTable(Settings(variant=Variant.BACKGAMMON, length=1), tmp_path / "record", 3)
    disk = Disk(monkeypatch, table.journal.path)
    entered: list[tuple[int, int]] = []
    real_handle, real_tick = Controller.handle, Controller.tick

    def handle(controller: Controller, event: object) -> None:
        entered.append((disk.written(), disk.durable))
        real_handle(controller, event)  # type: ignore[arg-type]

    def tick(controller: Controller, now: float) -> None:
        entered.append((disk.written(), disk.durable))
        real_tick(controller, now)

    monkeypatch.setattr(Controller, "handle", handle)
    monkeypatch.setattr(Controller, "tick", tick)
    lines_before = table.journal.sequence
    try:
        assert table.run()
    finally:
        table.close()
    lines = table.journal.sequence - lines_before
    assert entered and all(written == durable for written, durable in entered)
    assert disk.durable == disk.written()
    types = [line.split(b'"type":"')[1].split(b'"')[0] for line in table.journal.path.read_bytes().splitlines()]
    plays = types.count(b"play")
    assert plays > 10 and types.count(b"clock") >= plays
    assert 0 < disk.fsyncs <= lines - plays  # a play and its clock line: one fsync
