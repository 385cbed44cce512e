"""The embedded default: a whole table with no hardware. The board emulator with its dice,
gpiozero's mock pins for the buttons and the cube display, and simulated people (two players,
or a chouette's box and team), all on one manual clock, so a match or a chouette is
reproducible from its seed and runs as fast as the host allows (or at a chosen multiple of
real time, to watch). Given a broker, the table also publishes to the room
(`firmware_host.room`); without one, nothing of the room is loaded.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Self

from gpiozero.pins.mock import MockFactory

from drivers.clock import ManualClock
from drivers.events import ButtonKind, Event, Player
from drivers.pinmap import DEFAULT_BUTTON_PINS
from firmware_host.controller import Controller
from firmware_host.emulator.board import BoardEmulator
from firmware_host.emulator.people import ChouetteJudge, Habits, SimulatedTable
from firmware_host.record.journal import Journal
from firmware_host.record.signing import TableKey
from firmware_host.settings import Settings
from firmware_host.table import Table
from firmware_host.table_loop import TableLoop
from game.zones import Capability

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
    signed: bool = True
    """Sign the journal with the table's key (`firmware_host.record.signing`)."""
    key_path: Path | None = None
    """Where the table's key is (None: `default_key_path()`)."""
    broker: BrokerConfig | None = None
    """Publish to the room on this broker (None: the table stands alone)."""
    start_time: float = 1000.0
    """Where the table's clock (and its record's time stamps) begins: a room gives each table its own."""

    def __post_init__(self) -> None:
        key = TableKey.load_or_create(self.key_path) if self.signed else None
        self.journal = Journal(self.record, key=key)  # first: it sets aside a line cut short by a kill
        history = self.journal.history()
        # a resumed match goes on from the time its journal stopped, so the record's times only grow
        earlier = [float(e.get("t", 0.0)) for e in history]
        self.clock = ManualClock(max([self.start_time, *earlier]) + 1.0)
        self.started = self.clock.now()
        rng = random.Random(self.seed)
        name = f"table-{self.seed}-{next(_names)}"
        self.emulator = BoardEmulator(capability=self.capability, clock=self.clock, rng=random.Random(rng.random()),
                                      line_noise=self.line_noise, flicker_rate=self.flicker_rate, name=name)
        self.pins = MockFactory()
        # mock pins do not bounce, and a fast simulation presses buttons closer than any debounce
        self.table = Table.open(f"emulator://{name}", pin_factory=self.pins, clock=self.clock, bounce_time=None)
        # the record's timestamps follow the table's clock, so a seed gives the same record
        controller = Controller.open(self.settings, self.journal, display=self.table.display,
                                     zone_leds=self.table.board.light_zones, wall_time=self.clock.now,
                                     stacks=self.table.board.set_stacks, needs=self.table.needs,
                                     read_board=self.table.board.read_afresh)
        if self.line_noise or self.flicker_rate:
            controller.links.expect_faults(
                f"the emulated board injects faults on purpose: {self.line_noise:.0%} of its frames corrupted, cut, "
                f"dropped or after junk bytes, and {self.flicker_rate:.1%} of its scans misread a zone; its link's "
                "counts are those, not a fault of the host")
        judge = ChouetteJudge(random.Random(f"cubes {self.seed}")) if self.settings.chouette is not None else None
        self.people = SimulatedTable(self.emulator, self.press, random.Random(rng.random()), self.habits, judge)
        self.link: TableLink | None = None
        if self.broker is not None:
            from firmware_host.room.table_link import connect_table

            self.link = connect_table(controller, self.broker)
        self.loop = TableLoop(controller, self._events, self.clock.now, after_step=self._after_step)

    @property
    def controller(self) -> Controller:
        """The table's controller (a test may put a new one in, as after a restart)."""
        return self.loop.controller

    @controller.setter
    def controller(self, controller: Controller) -> None:
        self.loop.controller = controller

    def press(self, player: Player, button: ButtonKind) -> None:
        """Press and release `player`'s `button` on the mock pins."""
        pin = self.pins.pin(DEFAULT_BUTTON_PINS[player, button])
        pin.drive_low()
        pin.drive_high()

    def _events(self) -> list[Event]:
        self.clock.advance(TICK)
        self.emulator.service()  # the board scans on its own clock, whether or not the host reads it
        self.table.poll()
        return self.table.drain()

    def _after_step(self, now: float) -> None:
        if self.link is not None:
            self.link.poll(now)
        if self.players:
            self.people.see(self.controller.prompt, now)
            self.people.act(now)

    def step(self) -> None:
        """One tick of table time: the board scans, the controller judges, the people act."""
        self.loop.step()

    def wait(self, seconds: float) -> None:
        """Let `seconds` of table time pass."""
        for _ in range(max(1, round(seconds / TICK))):
            self.step()

    def run(self, *, max_seconds: float = 6 * 3600, speed: float | None = None,
            on_frame: Callable[[EmulatedTable], None] | None = None, frame_every: float = 0.2) -> bool:
        """Play until the match (or the chouette) is over (True) or `max_seconds` of table time have passed.

        `speed` paces the table at that multiple of real time (None: as fast as possible);
        `on_frame` is called every `frame_every` real seconds (a live view).
        """
        frame = None if on_frame is None else (lambda: on_frame(self))
        return self.loop.run(max_seconds=max_seconds, speed=speed, on_frame=frame, frame_every=frame_every)

    def close(self) -> None:
        """Close the room's link (if any), the bots, the hardware stand-ins, the journal and the emulator."""
        if self.link is not None:
            self.link.close()
        self.controller.close()
        self.table.close()
        self.journal.close()
        self.emulator.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
