"""Emulated tables a test drives by hand, action by action: no simulated people, a quiet line, each
table in its own record folder of the test's and closed at the end (the `scripted` fixture), and the
steps tests take at such a table (a roll, a hand's moves, a press, the opening roll) and read back
(the journal, what the table waits for); and the wait for a bot's play at a table with people."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from drivers.events import ButtonKind, Player
from firmware_host.controller.prompts import Prompt, Waiting
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import Settings
from game.board import Variant
from game.zones import layout


class ScriptedTables:
    """Makes the test's tables: the n-th in `directory`/t<n-1> with seed `first_seed` + n - 1 (unless
    given), settled for a second; a variant's board set to its start (the emulator's board is set for
    Backgammon)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.tables: list[EmulatedTable] = []

    def __call__(self, settings: Settings, *, record: Path | None = None, seed: int | None = None,
                 first_seed: int = 1, settle: bool = True, quiet: bool = True, **options: Any) -> EmulatedTable:
        number = len(self.tables)
        noise = {"line_noise": 0.0, "flicker_rate": 0.0} if quiet else {}
        table = EmulatedTable(settings, record or self.directory / f"t{number}",
                              seed=first_seed + number if seed is None else seed,
                              **{"players": False, **noise, **options})
        self.tables.append(table)
        if settings.variant is not Variant.BACKGAMMON and record is None and settings.chouette is None:
            table.emulator.set_zones(layout(table.controller.match.position))
        if settle:
            table.wait(1.0)
        return table

    def close(self) -> None:
        for table in self.tables:
            table.close()


@pytest.fixture
def scripted(tmp_path: Path) -> Iterator[ScriptedTables]:
    """The test's scripted tables, closed when it ends."""
    tables = ScriptedTables(tmp_path)
    yield tables
    tables.close()


def journal(table: EmulatedTable, kind: str | None = None) -> list[dict[str, Any]]:
    """The table's journal as events (of one `kind`, when given)."""
    events = [json.loads(line) for line in table.journal.path.read_text().splitlines()]
    return [e for e in events if kind is None or e["type"] == kind]


def of_type(table: EmulatedTable, kind: str) -> list[dict[str, Any]]:
    return journal(table, kind)


def waiting(table: EmulatedTable) -> Waiting:
    return table.controller.prompt.waiting


def roll(table: EmulatedTable, a: int, b: int) -> None:
    table.emulator.roll(a, b)
    table.wait(0.6)


def hand(table: EmulatedTable, *moves: tuple[int, int]) -> None:
    """A hand moves checkers zone to zone, a moment between them, then lets the board settle."""
    for source, target in moves:
        table.emulator.move(source, target)
        table.wait(0.1)
    table.wait(0.6)


def press(table: EmulatedTable, player: Player, button: ButtonKind, settle: float = 0.6) -> None:
    table.press(player, button)
    table.wait(settle)


def until_the_bots_play(table: EmulatedTable) -> Prompt:
    """Step the table (its people at work) until it waits for a bot's play to be carried out."""
    for _ in range(200_000):  # a guard, not a timing: a bot's first play comes within minutes of table time
        if table.controller.prompt.waiting is Waiting.BOT_PLAY:
            return table.controller.prompt
        table.step()
    raise AssertionError(f"no bot's play: {table.controller.prompt.describe()}")


def opening(table: EmulatedTable, white: int = 3, black: int = 1) -> None:
    assert waiting(table) is Waiting.OPENING_ROLL, table.controller.prompt.describe()
    roll(table, white, black)
