"""A board builder's first run: `python -m firmware_host check --config FILE` tries each part of a
table's hardware in turn and says what works, before anyone plays a match on it.

The parts: the handshake (what the board announced, at what speed), whether it fits the
configuration, the dice, the link's counts of what went wrong over a few seconds, the sensed
board against the variant's starting position (with the zones that differ), each zone LED lit
in turn, each segment and LED of the cube display lit in turn, and each button pressed when
asked (a button not pressed in time is "not seen"). Each part ends as passed, failed or skipped
(the table has no such part); the check passes when none failed. Without a configuration it
runs on the emulated board with gpiozero's mock pins and a simulated builder pressing each
button when asked (the embedded default).
"""

from __future__ import annotations

import itertools
import os
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from drivers.cube_display import TEST_STEPS
from drivers.errors import DriverError
from drivers.events import ButtonKind, ButtonPressed, DieState, Event, Player
from drivers.pinmap import DEFAULT_BUTTON_PINS
from drivers.protocol import PROTOCOL_VERSION, SERIAL_SETTINGS, Features, Hello, Snapshot, SnapshotRequest
from firmware_host.controller.links import describe_board, misfits
from firmware_host.emulator.board import BoardEmulator
from firmware_host.table import Table
from game.board import Variant
from game.position import Position
from game.zones import ZONES, Capability, implausible_board, layout, zone_diff

T = TypeVar("T")
Ask = Callable[[Player | None, ButtonKind | None], None]
"""Told which button the check waits for (None, None: the roll button), as it asks for it."""
_checks = itertools.count(1)
BUTTONS: tuple[tuple[Player, ButtonKind], ...] = tuple(DEFAULT_BUTTON_PINS)
"""The buttons asked for, in order: White's done, double, take, pass, then Black's."""


@dataclass
class Part:
    """One part of the check: passed (True), failed (False) or skipped (None), and what was seen."""

    name: str
    passed: bool | None = None
    summary: str = ""
    details: list[str] = field(default_factory=list)

    def line(self) -> str:
        """The part's line of the summary."""
        verdict = {True: "pass", False: "FAIL", None: "skipped"}[self.passed]
        return f"{self.name:<22} {verdict:<7} {self.summary}"


@dataclass
class SelfTest:
    """Checks each part of `table`'s hardware for a game of `variant`; `say` prints a line as the
    check goes, `asked` hears which button is asked for (the embedded default's builder presses it)."""

    table: Table
    variant: Variant
    say: Callable[[str], None]
    asked: Ask | None = None
    seconds: float = 3.0
    """How long the link's counts are watched."""
    dwell: float = 0.15
    """How long each zone LED, segment and display LED stays lit."""
    button_seconds: float = 10.0
    """How long each button is waited for."""
    roll_button: bool = False
    """The dice are the host's, thrown by a roll button (or the space bar): it is asked for too."""
    parts: list[Part] = field(default_factory=list)

    def run(self) -> list[Part]:
        """Every part in turn (those that need the board are skipped without a handshake)."""
        hellos = self._run_part("handshake", self._handshake)
        self._run_part("fits the configuration", lambda part: self._fits(part, hellos))
        self._run_part("dice", self._dice)
        self._run_part("link counts", self._link)
        self._run_part("board at the start", self._board)
        self._run_part("zone LEDs", self._zone_leds)
        self._run_part("display", self._display)
        self._run_part("buttons", self._buttons)
        return self.parts

    @property
    def passed(self) -> bool:
        """No part failed."""
        return all(part.passed is not False for part in self.parts)

    # -- the parts -------------------------------------------------------------------

    def _handshake(self, part: Part) -> dict[str, Hello]:
        """Each link's HELLO: what the board announced, at what speed."""
        hellos: dict[str, Hello] = {}
        for link in self.table.links:
            try:
                hello = link.connect(timeout=3.0)
            except DriverError as error:
                part.details.append(f"{link.source}: {error}")
                continue
            hellos[link.source] = hello
            features = " ".join(str(f.name) for f in Features if f in hello.features) or "none"
            part.details.append(
                f"{link.source}: protocol version {PROTOCOL_VERSION}, {describe_board(hello)}, "
                f"capability {hello.capability.name if hello.capability else 'none'}, features {features}, "
                f"{hello.zone_count} zones, max stack {hello.max_stack}, heartbeat {hello.heartbeat_ms} ms, "
                f"{link.baudrate} baud {SERIAL_SETTINGS}")
        part.passed = len(hellos) == len(self.table.links)
        part.summary = "every link answered" if part.passed else "no handshake: see above"
        return hellos

    def _fits(self, part: Part, hellos: dict[str, Hello] | None) -> None:
        if not hellos:
            part.summary = "no board answered"
            return
        found = [problem for source, hello in hellos.items() for problem in misfits(self.table.needs, source, hello)]
        part.details += [("does not fit: " if required else "note: ") + line for line, required in found]
        part.passed = not any(required for _, required in found)
        part.summary = ("what the configuration needs, the board has" if part.passed
                        else next(line for line, required in found if required))

    def _dice(self, part: Part) -> None:
        dice = self.table.dice
        if dice is None or not dice.link.is_up:
            part.summary = "the host's dice (a roll button)" if self.roll_button else "no dice link up"
            return
        deadline = time.monotonic() + 2.0
        while len(dice.states()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        states = dice.states()
        for owner, state in zip(("White's", "Black's"), states, strict=False):
            part.details.append(f"die {state.die_id:#x} ({owner} at the opening roll): {state.status.name}"
                                f"{f' on {state.face}' if state.face else ''}, battery {state.battery_pct}%, "
                                f"{state.throw} throws")
        part.passed = len(states) == 2
        part.summary = "two dice report" if part.passed else f"{len(states)} dice report, a board has 2"

    def _link(self, part: Part) -> None:
        links = [link for link in self.table.links if link.is_up]
        if not links:
            part.summary = "no link up"
            return
        before = {link.source: link.stats() for link in links}
        beats = [link.hello.heartbeat_ms / 1000 for link in links if link.hello is not None]
        seconds = max([self.seconds, *(2 * beat for beat in beats)])  # long enough for two heartbeats
        time.sleep(seconds)
        worse = []
        for link in links:
            after = link.stats()
            grew = {name: after.problems()[name] - before[link.source].problems()[name] for name in after.PROBLEMS}
            grew = {name: n for name, n in grew.items() if n}
            heard = after.frames - before[link.source].frames
            part.details.append(f"{link.source}: {heard} frames in {seconds:g} s; since the link was made: "
                                f"{after.describe()}")
            if grew or not heard:
                worse.append(f"{link.source}: " + (", ".join(f"+{n} {name}" for name, n in grew.items())
                                                   or "no frame heard"))
        part.passed = not worse
        part.summary = f"clean for {seconds:g} s" if part.passed else "; ".join(worse)

    def _board(self, part: Part) -> None:
        board = self.table.board
        hello = board.link.hello
        if hello is None or Features.ZONES not in hello.features or not board.link.is_up:
            part.summary = "no board senses zones"
            return
        start = Position.initial(self.variant)
        wait = max(2.0, board.link.reply_timeout)
        snapshot = board.link.request(SnapshotRequest(), Snapshot, wait)  # as read, even what the table would refuse
        diffs = zone_diff(start, snapshot.zones, snapshot.capability)
        order_only = diffs and all(sorted(d.sensed.stack or "") == sorted(d.expected.stack or "") for d in diffs)
        if snapshot.capability is Capability.STACKS and order_only and board.set_stacks(layout(start)):
            zones = ", ".join(str(d.zone) for d in diffs)
            part.details.append(f"told the board the order of its stacks (zones {zones})")
            time.sleep(0.3)
            snapshot = board.link.request(SnapshotRequest(), Snapshot, wait)
            diffs = zone_diff(start, snapshot.zones, snapshot.capability)
        impossible = implausible_board(snapshot.zones, snapshot.capability)
        if impossible:
            part.details.append(f"the table would refuse this reading: {impossible}")
        part.details += [f"zone {d.zone}: {d.describe()}" for d in diffs]
        part.passed = not diffs
        part.summary = (f"the {self.variant.value} starting position, as a {snapshot.capability.name} board reads it"
                        if part.passed else f"{len(diffs)} zones differ from the {self.variant.value} start")

    def _zone_leds(self, part: Part) -> None:
        board = self.table.board
        hello = board.link.hello
        if hello is None or Features.ZONE_LEDS not in hello.features or not board.link.is_up:
            part.summary = "the board has no zone LEDs"
            return
        self.say("watch each zone LED light in turn, zone 1 to 28")
        refused = []
        for zone in ZONES:
            try:
                board.set_zone_leds({zone})
            except DriverError as error:
                refused.append(f"zone {zone}: {error}")
            time.sleep(self.dwell)
        try:
            board.set_zone_leds(set())
        except DriverError as error:
            refused.append(f"all off: {error}")
        part.details += refused
        part.passed = not refused
        part.summary = ("each of the 28 lit in turn, every one acknowledged" if part.passed
                        else f"{len(refused)} not acknowledged")

    def _display(self, part: Part) -> None:
        display = self.table.display
        if display is None:
            part.summary = "no cube display"
            return
        self.say("watch the cube display: " + ", ".join(TEST_STEPS) + ", each alone in turn")
        wrong = []
        for step in TEST_STEPS:
            text, leds = display.light_one(step)
            lit_alone = (f"{step.removesuffix(' LED')}",) if step.endswith(" LED") else ()
            if leds != lit_alone or (step.endswith(" LED") and text != (" ", " ")):
                wrong.append(f"{step}: the pins read {''.join(text)!r} {leds}")
            time.sleep(self.dwell)
        display.off()
        part.details += wrong
        part.passed = not wrong
        part.summary = f"{len(TEST_STEPS)} segments, digits and LEDs driven in turn" if part.passed else wrong[0]

    def _buttons(self, part: Part) -> None:
        asked: list[tuple[Player | None, ButtonKind | None]] = list(BUTTONS)
        if self.roll_button:
            asked.append((None, None))
        missing = []
        for player, kind in asked:
            name = "the roll button" if kind is None else f"{player} {kind.value}"
            self._take_all()  # presses from before the question do not answer it
            self.say(f"press {name} (within {self.button_seconds:g} s)")
            if self.asked is not None:
                self.asked(player, kind)
            seen, other = self._wait_for(player, kind)
            for extra in other:
                part.details.append(f"while waiting for {name}: {extra} pressed")
            self.say(f"{name}: {'seen' if seen else f'not seen within {self.button_seconds:g} s'}")
            if not seen:
                missing.append(name)
        part.passed = not missing
        part.summary = f"all {len(asked)} seen" if part.passed else "not seen: " + ", ".join(missing)

    # -- machinery -----------------------------------------------------------------------

    def _run_part(self, name: str, check: Callable[[Part], T]) -> T | None:
        part = Part(name)
        self.parts.append(part)
        self.say(f"== {name}")
        result = None
        try:
            result = check(part)
        except DriverError as error:  # the hardware refused: the part fails, the check goes on
            part.passed, part.summary = False, str(error)
        for line in part.details:
            self.say(f"   {line}")
        self.say(part.line())
        return result

    def _take_all(self) -> list[Event]:
        taken = []
        while True:
            try:
                taken.append(self.table.events.get_nowait())
            except queue.Empty:
                return taken

    def _wait_for(self, player: Player | None, kind: ButtonKind | None) -> tuple[bool, list[str]]:
        deadline = time.monotonic() + self.button_seconds
        other: list[str] = []
        while time.monotonic() < deadline:
            try:
                event = self.table.events.get(timeout=0.05)
            except queue.Empty:
                continue
            if kind is None and isinstance(event, DieState) and event.battery_pct is None:
                return True, other  # the host's virtual dice: the roll button was pressed
            if isinstance(event, ButtonPressed):
                if (event.player, event.button) == (player, kind):
                    return True, other
                other.append(f"{event.player} {event.button.value}")
        return False, other


def emulated_table(capability: Capability = Capability.STACKS, **emulator: object) -> tuple[Table, Ask, BoardEmulator]:
    """The embedded default's table: an emulated board (`emulator` options, e.g. `dice="none"`) on its
    ``emulator://`` URL, the buttons and the display on gpiozero's mock pins, and a builder who
    presses each button as it is asked for."""
    from gpiozero.pins.mock import MockFactory

    board = BoardEmulator(capability=capability, name=f"check-{next(_checks)}-{os.getpid()}", **emulator)  # type: ignore[arg-type]
    pins = MockFactory()
    table = Table.open(f"emulator://{board.name}", pin_factory=pins, bounce_time=None)

    def press(player: Player | None, kind: ButtonKind | None) -> None:
        if player is not None and kind is not None:
            pin = pins.pin(DEFAULT_BUTTON_PINS[player, kind])
            pin.drive_low()
            pin.drive_high()

    return table, press, board
