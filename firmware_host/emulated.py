"""The embedded default: a whole table with no hardware. The board emulator with its dice,
gpiozero's mock pins for the buttons and the cube display, and two simulated players, all
on one manual clock, so a match is reproducible from its seed and runs as fast as the
host allows (or at a chosen multiple of real time, to watch). Given a broker, the table
also publishes to the room (`firmware_host.room`); without one, nothing of the room is loaded.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gpiozero.pins.mock import MockFactory

from drivers.clock import ManualClock
from drivers.events import ButtonKind, Player
from drivers.pinmap import DEFAULT_BUTTON_PINS
from drivers.zones import Capability
from firmware_host.controller import Controller, Settings
from firmware_host.emulator import BoardEmulator
from firmware_host.journal import Journal
from firmware_host.simulated_players import Habits, SimulatedTable
from firmware_host.table import Table

if TYPE_CHECKING:
    from firmware_host.room.broker import BrokerConfig
    from firmware_host.room.table_link import TableLink

TICK = 0.01
"""Seconds of table time per step of the loop."""
_names = itertools.count(1)


@dataclass
class EmulatedTable:
    """Everything at one emulated table; `step()` moves it on by one tick."""

    settings: Settings
    record: Path
    seed: int
    capability: Capability = Capability.STACKS
    habits: Habits = field(default_factory=Habits)
    line_noise: float = 0.01
    flicker_rate: float = 0.002
    players: bool = True
    """False: nobody plays by themselves; a test acts on `emulator` and `press` instead."""
    broker: BrokerConfig | None = None
    """Publish to the room on this broker (None: the table stands alone)."""

    def __post_init__(self) -> None:
        self.journal = Journal(self.record)  # first: it sets aside a line cut short by a kill
        # a resumed match goes on from the time its journal stopped, so the record's times only grow
        earlier = [float(e.get("t", 0.0)) for e in Journal.existing(self.record)]
        self.clock = ManualClock(max([1000.0, *earlier]) + 1.0)
        self.started = self.clock.now()
        rng = random.Random(self.seed)
        name = f"table-{self.seed}-{next(_names)}"
        self.emulator = BoardEmulator(capability=self.capability, clock=self.clock, rng=random.Random(rng.random()),
                                      line_noise=self.line_noise, flicker_rate=self.flicker_rate, name=name)
        self.pins = MockFactory()
        # mock pins do not bounce, and a fast simulation presses buttons closer than any debounce
        self.table = Table.open(f"emulator://{name}", pin_factory=self.pins, clock=self.clock, bounce_time=None)
        # the record's timestamps follow the table's clock, so a seed gives the same record
        self.controller = Controller(self.settings, self.journal, display=self.table.display,
                                     zone_leds=self.table.board.light_zones, wall_clock=self.clock.now)
        self.people = SimulatedTable(self.emulator, self.press, random.Random(rng.random()), self.habits)
        self.link: TableLink | None = None
        if self.broker is not None:
            from firmware_host.room.table_link import connect_table

            self.link = connect_table(self.controller, self.broker)

    def press(self, player: Player, button: ButtonKind) -> None:
        pin = self.pins.pin(DEFAULT_BUTTON_PINS[player, button])
        pin.drive_low()
        pin.drive_high()

    def step(self) -> None:
        self.clock.advance(TICK)
        now = self.clock.now()
        self.table.poll()
        for event in self.table.drain():
            self.controller.handle(event)
        self.controller.tick(now)
        if self.link is not None:
            self.link.poll(now)
        if self.players:
            self.people.see(self.controller.prompt, now)
            self.people.act(now)

    def wait(self, seconds: float) -> None:
        """Let `seconds` of table time pass."""
        for _ in range(max(1, round(seconds / TICK))):
            self.step()

    def run(self, *, max_seconds: float = 6 * 3600, speed: float | None = None,
            on_frame: Callable[[EmulatedTable], None] | None = None, frame_every: float = 0.2) -> bool:
        """Play until the match is over (True) or `max_seconds` of table time have passed.

        `speed` paces the table at that multiple of real time (None: as fast as possible);
        `on_frame` is called every `frame_every` real seconds (a live view).
        """
        start_table, start_real = self.clock.now(), time.monotonic()
        next_frame = start_real
        while not self.controller.match.is_over and self.clock.now() - start_table < max_seconds:
            self.step()
            real = time.monotonic()
            if speed is not None:
                ahead = (self.clock.now() - start_table) / speed - (real - start_real)
                if ahead > 0:
                    time.sleep(ahead)
            if on_frame is not None and real >= next_frame:
                on_frame(self)
                next_frame = real + frame_every
        if on_frame is not None:
            on_frame(self)
        return self.controller.match.is_over

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
        self.table.close()
        self.journal.close()
        self.emulator.close()
