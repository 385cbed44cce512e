"""While the link is down the table judges nothing and the clocks stand; once it is back the
board and the dice are read afresh, and a throw made during the outage counts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.events import ButtonKind
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import Settings
from game.board import Color


@pytest.fixture
def table(tmp_path: Path) -> Iterator[EmulatedTable]:
    with EmulatedTable(Settings(length=1), tmp_path / "t", seed=5, players=False, line_noise=0.0,
                       flicker_rate=0.0) as emulated:
        emulated.wait(1.0)
        yield emulated


def types(table: EmulatedTable) -> list[str]:
    return [json.loads(line)["type"] for line in table.journal.path.read_text().splitlines()]


def display(table: EmulatedTable) -> str:
    assert table.table.display is not None
    return "".join(table.table.display.text)


def outage(table: EmulatedTable) -> None:
    table.emulator.unplug()
    table.wait(5.0)  # the heartbeat is missed: the link is declared down
    assert table.controller.links_down and display(table) == "CA"


def back(table: EmulatedTable) -> None:
    table.emulator.replug()
    table.wait(3.0)
    assert not table.controller.links_down


def blacks_roll_next(table: EmulatedTable) -> None:
    """White's opening 3-1 played (8/5 6/5): Black is to roll."""
    table.emulator.roll(3, 1)
    table.wait(0.6)
    table.emulator.move(8, 5)
    table.emulator.move(6, 5)
    table.wait(0.6)
    table.press("white", ButtonKind.DONE)
    table.wait(0.6)
    assert table.controller.prompt.waiting is Waiting.ROLL_OR_DOUBLE


def test_nothing_is_judged_and_the_clocks_stand_while_the_board_is_out_of_reach(table: EmulatedTable) -> None:
    table.emulator.roll(3, 1)
    table.wait(0.6)
    assert table.controller.prompt.waiting is Waiting.PLAY
    clock = table.controller.clock
    assert clock is not None and clock.running is Color.WHITE
    outage(table)
    left = clock.remaining(Color.WHITE, table.clock.now())
    table.emulator.move(8, 5)
    table.emulator.move(6, 5)
    table.wait(0.6)
    table.press("white", ButtonKind.DONE)
    table.wait(30.0)
    assert "play" not in types(table) and "flag" not in types(table)
    assert clock.remaining(Color.WHITE, table.clock.now()) == left and clock.running is None
    assert any("out of reach" in line for line in table.controller.log)
    back(table)
    assert clock.running is Color.WHITE
    table.press("white", ButtonKind.DONE)
    table.wait(0.6)
    assert types(table).count("play") == 1 and "flag" not in types(table)


def test_a_throw_made_while_the_link_was_down_counts_once_it_is_back(table: EmulatedTable) -> None:
    blacks_roll_next(table)
    outage(table)
    table.emulator.roll(6, 4)
    table.wait(1.0)
    assert table.controller.prompt.waiting is Waiting.ROLL_OR_DOUBLE
    back(table)
    prompt = table.controller.prompt
    assert (prompt.waiting, prompt.player, prompt.dice) == (Waiting.PLAY, Color.BLACK, (6, 4))


def test_dice_lying_as_before_the_outage_are_no_throw(table: EmulatedTable) -> None:
    blacks_roll_next(table)
    outage(table)
    back(table)
    assert table.controller.prompt.waiting is Waiting.ROLL_OR_DOUBLE and types(table).count("roll") == 0


def test_the_board_moves_on_its_own_clock_while_the_host_waits_to_reconnect(table: EmulatedTable) -> None:
    """A real board scans whether or not the host reads it: a checker slid while the host is
    between two reconnection attempts has landed when the hand next reaches for it."""
    table.emulator.unplug()
    table.wait(8.0)  # the link is down, retrying with longer and longer pauses
    table.emulator.slide(13, 11)
    table.wait(0.3)
    assert table.emulator.zones()[10] == "w" and table.emulator.hand() == ""
    table.emulator.lift(11)  # the simulated people's next move of that checker (it crashed the table)


def test_a_board_that_restarts_is_greeted_again_and_its_dice_are_no_throw(table: EmulatedTable) -> None:
    """The board's power drops and comes back with its cable in (a brown-out, a watchdog's reset):
    it answers a PING but streams nothing until it is said HELLO again, and its dice start again
    from throw count 0 lying on their faces. The host says HELLO again, and takes no roll from
    how the dice lie; the next throw is the roll."""
    blacks_roll_next(table)
    hellos = table.emulator.port().received["HelloRequest"]
    table.emulator.restart()
    table.wait(8.0)
    assert table.emulator.port().received["HelloRequest"] > hellos and not table.controller.links_down
    assert table.controller.prompt.waiting is Waiting.ROLL_OR_DOUBLE and types(table).count("roll") == 0
    table.emulator.roll(5, 2)
    table.wait(1.0)
    prompt = table.controller.prompt
    assert (prompt.waiting, prompt.player, prompt.dice) == (Waiting.PLAY, Color.BLACK, (5, 2))
