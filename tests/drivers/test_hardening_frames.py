"""Well-formed frames with impossible content: rejected, counted, never acted on, never the end of the table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from drivers.events import ButtonKind
from drivers.protocol import BoardMessage, DieReport, DieStatus, Snapshot, ZoneChange
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import Settings
from game.zones import ZONE_COUNT, Capability, ZoneReading


@pytest.fixture
def table(tmp_path: Path) -> Iterator[EmulatedTable]:
    with EmulatedTable(Settings(length=1), tmp_path / "t", seed=3, players=False, line_noise=0.0,
                       flicker_rate=0.0) as emulated:
        emulated.wait(1.0)
        yield emulated


def journal(table: EmulatedTable) -> list[dict[str, Any]]:
    return [json.loads(line) for line in table.journal.path.read_text().splitlines()]


def send(table: EmulatedTable, message: BoardMessage) -> None:
    """The board's firmware sends `message` (CRC and sequence right, content as given)."""
    table.emulator.port("board").send(message)
    table.wait(0.5)


def to_play(table: EmulatedTable) -> None:
    table.emulator.roll(3, 1)
    table.wait(0.6)
    assert table.controller.prompt.waiting is Waiting.PLAY


IMPOSSIBLE: dict[str, BoardMessage] = {
    "a COUNTS change on a STACKS board": ZoneChange(9, 13, ZoneReading.of_count(5)),
    "a COUNTS snapshot on a STACKS board": Snapshot(9, Capability.COUNTS, (ZoneReading.of_count(0),) * ZONE_COUNT),
    "a stack of 47": ZoneChange(9, 13, ZoneReading.of_stack("w" * 47)),
    "16 white on one point": ZoneChange(9, 1, ZoneReading.of_stack("w" * 16)),
    "a 56-checker snapshot": Snapshot(9, Capability.STACKS, (ZoneReading.of_stack("ww"), ZoneReading.of_stack("bb"))
                                      * 14),
    "a zone 29": ZoneChange(9, 29, ZoneReading.of_stack("")),
    "more white than there are": Snapshot(9, Capability.STACKS, (ZoneReading.of_stack("wwww"),) * 4
                                          + (ZoneReading.of_stack(""),) * 24),
}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE))
def test_an_impossible_board_frame_is_rejected_while_a_player_moves(table: EmulatedTable, name: str) -> None:
    to_play(table)
    prompt, events = table.controller.prompt, len(journal(table))
    send(table, IMPOSSIBLE[name])
    assert table.loop.errors == 0
    assert table.controller.prompt == prompt and len(journal(table)) == events  # nothing acted on
    assert sum(table.table.board.rejected.values()) == 1
    assert any(line.startswith("rejected from") for line in table.controller.log)
    table.emulator.move(8, 5)
    table.emulator.move(6, 5)
    table.wait(0.6)
    table.press("white", ButtonKind.DONE)
    table.wait(0.6)
    assert [e["type"] for e in journal(table)].count("play") == 1  # the table plays on


def test_a_die_the_board_never_announced_throws_nothing(table: EmulatedTable) -> None:
    assert table.controller.prompt.waiting is Waiting.OPENING_ROLL
    for die in (0xBAD0001, 0xBAD0002):
        send(table, DieReport(die, DieStatus.ROLLING, None, 90, 7))
        send(table, DieReport(die, DieStatus.SETTLED, 6 if die & 1 else 2, 90, 7))
    assert "opening_roll" not in [e["type"] for e in journal(table)]
    assert table.table.dice is not None and table.table.dice.rejected["die report"] == 4
    table.emulator.roll(3, 1)
    table.wait(0.6)
    assert [e for e in journal(table) if e["type"] == "opening_roll"][0]["white"] == 3


def test_a_storm_of_rejections_tells_the_table_only_now_and_then(table: EmulatedTable) -> None:
    for _ in range(120):
        table.emulator.port("board").send(ZoneChange(9, 13, ZoneReading.of_count(5)))
    table.wait(0.5)
    assert table.table.board.rejected["zone change"] == 120
    told = [line for line in table.controller.log if line.startswith("rejected from")]
    assert [line.rsplit("(", 1)[1] for line in told] == ["1 so far)", "10 so far)", "100 so far)"]
