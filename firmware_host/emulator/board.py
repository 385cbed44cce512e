"""The board's stand-in: a physical model of the board and its dice, behind emulated firmware.

Tests and the controller act on the board as a person would (`lift(13)`, `place(8)`,
`slide(13, 8)`, `roll(3, 1)`), and on its faults (`flicker`, `stick`, `straighten`,
`unplug`); the emulator scans its sensors at the chosen capability level and speaks the wire
protocol of `drivers.protocol` on its ports: "board" (zones, and the dice unless they have
their own port) and "dice" (when `dice="own port"`).

Outage a port three ways: `port(name)` in process; the pyserial URL
``emulator://NAME?capability=stacks&seed=1`` (the scheme is registered when this module is
imported; see `firmware_host.emulator.protocol_emulator`); `open_pty(name)`, which
serves a port on a pseudo-terminal (`firmware_host.emulator.pty`) and returns its tty path.

Time comes from the injected clock: scans run every `scan_period` and every port sends its
full state every `heartbeat_ms`, whenever `service()` is called (the transports call it);
`scan()` runs one scan at once, for scripted tests.

A STACKS board keeps the order of its stacks as its microcontroller would (hardware_docs/sensing.md):
no sensor sees through a pile, so each scan it reads the colours per zone and follows their
changes, a checker added going on top and one removed leaving from the top; at power-up it puts
whites above blacks. The host corrects it with SET_STACKS (`teach_stacks`). Checkers put on a
zone by `set_zones` arrive all in one scan, so a mixed stack set that way may read misordered
until the host does, as on a real board.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Literal, Self

import serial

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.protocol import AckStatus, DieReport, DieStatus, Features, ZoneChange
from firmware_host.emulator.firmware import EmulatorPort, PortName
from firmware_host.emulator.pty import PtyServer
from firmware_host.errors import EmulatorError, ImpossibleAction
from game.zones import MAX_STACK, POINTS, ZONE_COUNT, ZONES, Capability, ZoneReading

if "firmware_host.emulator" not in serial.protocol_handler_packages:
    serial.protocol_handler_packages.append("firmware_host.emulator")

DiceWiring = Literal["board", "own port", "none"]


def _standard_start() -> tuple[str, ...]:
    zones = [""] * ZONE_COUNT
    for point, stack in {24: "ww", 13: "w" * 5, 8: "www", 6: "w" * 5,
                         1: "bb", 12: "b" * 5, 17: "bbb", 19: "b" * 5}.items():
        zones[point - 1] = stack
    return tuple(zones)


STANDARD_START = _standard_start()
"""The backgammon starting position as 28 zone stacks (index 0 is zone 1)."""


def _power_up_order(stack: str) -> str:
    """A zone's order as a STACKS board guesses it at power-up: whites above blacks."""
    return "b" * stack.count("b") + "w" * stack.count("w")


@functools.lru_cache(maxsize=4096)
def _reading_at(stack: str, capability: Capability) -> ZoneReading:
    """One zone's reading (cached: a board scans every zone fifty times a second)."""
    return ZoneReading.of_stack(stack).at(capability)


@functools.lru_cache(maxsize=4096)
def follow_colours(believed: str, sensed: str) -> str:
    """A STACKS board's order after one scan: checkers gone leave from the top of their colour,
    checkers come are put on top (blacks first, then whites, when both come in one scan)."""
    order = list(believed)
    for colour in "wb":
        for _ in range(believed.count(colour) - sensed.count(colour)):
            del order[len(order) - 1 - order[::-1].index(colour)]
    for colour in "bw":
        order += colour * max(0, sensed.count(colour) - believed.count(colour))
    return "".join(order)


_registry: dict[str, BoardEmulator] = {}
_registry_lock = threading.Lock()


@dataclass
class _Slide:
    """A checker sliding along the points: sensed over `passing[scan]`, landing at `lands_at`."""

    colour: str
    target: int
    passing: dict[int, int]
    lands_at: int


@dataclass
class _Die:
    die_id: int
    status: DieStatus = DieStatus.REMOVED
    face: int | None = None
    battery_pct: int = 100
    throws: int = 0

    def report(self) -> DieReport:
        return DieReport(self.die_id, self.status, self.face, self.battery_pct, self.throws % 65536)


class BoardEmulator:
    """A sensor board with dice, as physical as the tests need it to be."""

    def __init__(self, zones: Sequence[str] = STANDARD_START, *,
                 capability: Capability = Capability.STACKS, dice: DiceWiring = "board",
                 zone_leds: bool = True, clock: Clock = SYSTEM_CLOCK,
                 rng: random.Random | None = None, scan_period: float = 0.02,
                 heartbeat_ms: int = 1000, flicker_rate: float = 0.0, line_noise: float = 0.0,
                 board_id: int = 0x5A0001, firmware: tuple[int, int, int] = (1, 0, 0),
                 die_ids: tuple[int, int] = (0xD1CE0001, 0xD1CE0002), stack_order: bool = True,
                 name: str | None = None) -> None:
        self.lock = threading.RLock()
        self.capability = capability
        self.clock = clock
        self.rng = rng if rng is not None else random.Random()
        self.scan_period = scan_period
        self.heartbeat_ms = heartbeat_ms
        self.flicker_rate = flicker_rate
        """Chance per scan that one random zone misreads for a few scans."""
        self.line_noise = line_noise
        """Chance per frame sent that it is corrupted, cut, dropped or preceded by garbage."""
        self.board_id = board_id
        self.firmware = firmware
        self.led_ack: AckStatus | None = AckStatus.OK
        """How the firmware answers SET_ZONE_LEDS (None: it does not answer, as a firmware that
        forgot the ACK)."""
        self.heartbeat_stopped = False
        """The firmware's heartbeat has stopped (it still answers requests and reports changes)."""
        self._zones = [""] * ZONE_COUNT
        self.set_zones(zones)
        self._order = [_power_up_order(stack) for stack in self._zones]
        """What the microcontroller believes of each zone's order (a STACKS board)."""
        self._hand: list[str] = []
        self._dice = [_Die(die_id) for die_id in die_ids] if dice != "none" else []
        self._stuck: dict[int, str] = {}
        self._overlays: dict[int, dict[int, str]] = {}
        self._scheduled: dict[int, list[Callable[[], None]]] = {}
        self._slides: list[_Slide] = []
        self._scan_no = 0
        self._next_scan = clock.now()
        self._reported = [self._reading(zone) for zone in ZONES]
        board = Features.ZONES | (Features.ZONE_LEDS if zone_leds else Features(0))
        if capability is Capability.STACKS and stack_order:
            board |= Features.STACK_ORDER
        if dice == "board":
            board |= Features.DICE
        self._ports: dict[str, EmulatorPort] = {"board": EmulatorPort(self, "board", board)}
        if dice == "own port":
            self._ports["dice"] = EmulatorPort(self, "dice", Features.DICE)
        self._pty_servers: list[PtyServer] = []
        self.name = name
        """The name under which ``emulator://NAME`` reaches this emulator, if any."""
        if name is not None:
            with _registry_lock:
                if name in _registry:
                    raise EmulatorError(f"an emulator named {name!r} already exists")
                _registry[name] = self

    @staticmethod
    def named(name: str) -> BoardEmulator | None:
        """The emulator registered under `name`, if any."""
        with _registry_lock:
            return _registry.get(name)

    # ------------------------------------------------------------ state, for tests

    def zones(self) -> tuple[str, ...]:
        """The true stacks, index 0 = zone 1 (what is on the board, not what is sensed)."""
        with self.lock:
            return tuple(self._zones)

    def sensed(self) -> tuple[ZoneReading, ...]:
        """What the sensors reported at the last scan, at the board's capability."""
        with self.lock:
            return tuple(self._reported)

    def set_zones(self, zones: Sequence[str]) -> None:
        """Put the board in a position: 28 stacks, bottom to top, index 0 = zone 1."""
        if len(zones) != ZONE_COUNT or any(set(s) - set("wb") for s in zones):
            raise ImpossibleAction(f"a position is {ZONE_COUNT} stacks of 'w'/'b': {zones!r}")
        if any(len(stack) > MAX_STACK for stack in zones):
            raise ImpossibleAction(f"no zone holds more than {MAX_STACK} checkers: {zones!r}")
        with self.lock:
            self._zones = list(zones)

    def teach_stacks(self, stacks: Sequence[str]) -> AckStatus:
        """SET_STACKS: the host tells the microcontroller the order of every zone's stack. Taken
        (OK, the changed zones reported at the next scan) only if each zone's colours are what the
        board senses there; else nothing changes (CONFLICT)."""
        with self.lock:
            if any(sorted(told) != sorted(believed) for told, believed in zip(stacks, self._order, strict=True)):
                return AckStatus.CONFLICT
            self._order = list(stacks)
            return AckStatus.OK

    def hand(self) -> str:
        """Checkers lifted and not yet placed, first lifted first."""
        with self.lock:
            return "".join(self._hand)

    def port(self, name: PortName = "board") -> EmulatorPort:
        """The firmware's session on port `name` ("board", or "dice" when the dice have their own)."""
        if name not in self._ports:
            raise EmulatorError(f"this emulator has no {name!r} port (ports: {list(self._ports)})")
        return self._ports[name]

    # ------------------------------------------------------------ physical actions

    def lift(self, zone: int) -> str:
        """Take the top checker of `zone` into the hand; returns its colour."""
        with self.lock:
            self._check_zone(zone)
            if not self._zones[zone - 1]:
                raise ImpossibleAction(f"cannot lift from empty zone {zone}")
            colour = self._zones[zone - 1][-1]
            self._zones[zone - 1] = self._zones[zone - 1][:-1]
            self._hand.append(colour)
            return colour

    def place(self, zone: int, colour: str | None = None) -> None:
        """Put the last lifted checker (or a new one of `colour`) on top of `zone`."""
        with self.lock:
            self._check_zone(zone)
            if colour is None and not self._hand:
                raise ImpossibleAction(f"nothing in hand to place on zone {zone}")
            if colour is not None and colour not in ("w", "b"):
                raise ImpossibleAction(f"colour {colour!r} is not 'w' or 'b'")
            if len(self._zones[zone - 1]) >= MAX_STACK:
                raise ImpossibleAction(f"zone {zone} already holds {MAX_STACK} checkers")
            if colour is not None:
                self._zones[zone - 1] += colour
            else:
                self._zones[zone - 1] += self._hand.pop()
                self._end_slides_picked_up()

    def place_from_hand(self, zone: int, colour: str) -> None:
        """Put a checker of `colour` that is in the hand on top of `zone` (a hand holding
        several checkers picks the colour it needs)."""
        with self.lock:
            if colour not in self._hand:
                raise ImpossibleAction(f"no {colour!r} checker in hand to place on zone {zone}")
            self._check_zone(zone)
            if len(self._zones[zone - 1]) >= MAX_STACK:
                raise ImpossibleAction(f"zone {zone} already holds {MAX_STACK} checkers")
            self._hand.remove(colour)
            self._zones[zone - 1] += colour
            self._end_slides_picked_up()

    def move(self, source: int, target: int) -> str:
        """Lift the top checker of `source` and put it on `target`; returns its colour."""
        colour = self.lift(source)
        self.place(target)
        return colour

    def slide(self, source: int, target: int) -> None:
        """Slide the top checker of `source` along the points to `target`: it leaves at the
        next scan, each point between is sensed under it for one scan, then it lands. Until it
        lands the checker is in the hand; a hand that places it meanwhile has picked it up, and
        the slide ends there."""
        with self.lock:
            colour = self.lift(source)
            path = (range(source - 1, target, -1) if target < source
                    else range(source + 1, target))
            start = self._scan_no + 1
            passed = list(path) if source in POINTS and target in POINTS else []
            passing = {start + offset: zone for offset, zone in enumerate(passed, start=1)}
            self._slides.append(_Slide(colour, target, passing, start + len(passed) + 1))

    def straighten(self, zone: int) -> None:
        """A hand squares up the stack on `zone`: for one scan the tilted top checker is not
        sensed, for the next the top two read swapped, then the reading is right again."""
        with self.lock:
            self._check_zone(zone)
            stack = self._zones[zone - 1]
            self._overlay(self._scan_no + 1, zone, stack[:-1])
            self._overlay(self._scan_no + 2, zone, stack[:-2] + stack[-1:-3:-1])

    def flicker(self, zone: int, scans: int = 3, sensed: str | None = None) -> None:
        """The sensor of `zone` misreads for the next `scans` scans: it sees `sensed`
        (by default the stack without its top checker, or one white one if empty)."""
        with self.lock:
            self._check_zone(zone)
            stack = self._zones[zone - 1]
            misread = sensed if sensed is not None else (stack[:-1] if stack else "w")
            for scan in range(self._scan_no + 1, self._scan_no + 1 + scans):
                self._overlay(scan, zone, misread)

    def stick(self, zone: int, sensed: str | None = None) -> None:
        """The sensor of `zone` is stuck reading `sensed` (by default what it reads now)."""
        with self.lock:
            self._check_zone(zone)
            self._stuck[zone] = sensed if sensed is not None else self._zones[zone - 1]

    def unstick(self, zone: int) -> None:
        """The sensor of `zone` reads true again."""
        with self.lock:
            self._stuck.pop(zone, None)

    def unplug(self, port: PortName = "board", *, vanish: bool = False) -> None:
        """Pull the cable of `port`: no bytes either way until `replug`. With `vanish` the
        in-process port also fails on open, read and write, as a USB device node does."""
        with self.lock:
            cable = self.port(port)
            cable.plugged = False
            cable.vanished = vanish
            cable.drop_output()

    def replug(self, port: PortName = "board") -> None:
        """Put the cable of `port` back."""
        with self.lock:
            cable = self.port(port)
            cable.plugged = True
            cable.vanished = False

    def restart(self, port: PortName = "board") -> None:
        """The power of the board behind `port` is cut and comes back (a brown-out, a watchdog's
        reset) while its cable stays in: the firmware is quiet until the host's next HELLO_REQUEST,
        as at power-up, and the dice it reports count their throws from 0 again, lying as they lay."""
        with self.lock:
            session = self.port(port)
            session.restart()
            if Features.DICE in session.features:
                for die in self._dice:
                    die.throws = 0

    # ------------------------------------------------------------ dice

    def roll(self, *faces: int, cocked: Collection[int] = (), rolling_scans: int | Sequence[int] = 5) -> None:
        """Throw the dice: they report ROLLING now and land `rolling_scans` scans later (one number
        for both, or one a die) on `faces` (random without), or COCKED for the die indexes in `cocked`."""
        with self.lock:
            if len(faces) not in (0, len(self._dice)) or not all(1 <= f <= 6 for f in faces):
                raise ImpossibleAction(f"cannot roll {faces} with {len(self._dice)} dice")
            results = faces or tuple(self.rng.randint(1, 6) for _ in self._dice)
            scans = [rolling_scans] * len(self._dice) if isinstance(rolling_scans, int) else list(rolling_scans)
            for index, die in enumerate(self._dice):
                self._set_die(die, DieStatus.ROLLING, None)
                landing = ((DieStatus.COCKED, None) if index in cocked
                           else (DieStatus.SETTLED, results[index]))
                self._scheduled.setdefault(self._scan_no + scans[index], []).append(
                    partial(self._set_die, die, *landing))

    def cock(self, die: int) -> None:
        """Die `die` (0 or 1) tips over onto a checker: not flat, no face."""
        with self.lock:
            self._set_die(self._die(die), DieStatus.COCKED, None)

    def settle(self, die: int, face: int) -> None:
        """Die `die` is laid flat (or put back) showing `face`."""
        with self.lock:
            self._set_die(self._die(die), DieStatus.SETTLED, face)

    def remove_die(self, die: int) -> None:
        """Take die `die` (0 or 1) off the board."""
        with self.lock:
            self._set_die(self._die(die), DieStatus.REMOVED, None)

    def set_battery(self, die: int, percent: int) -> None:
        """Die `die`'s battery is now at `percent`."""
        with self.lock:
            target = self._die(die)
            target.battery_pct = percent
            self._report_die(target)

    def dice_reports(self) -> tuple[DieReport, ...]:
        """Each die's state as the firmware reports it."""
        with self.lock:
            return tuple(die.report() for die in self._dice)

    # ------------------------------------------------------------ firmware

    @property
    def scan_number(self) -> int:
        """Scans made so far."""
        return self._scan_no

    def service(self) -> None:
        """Run the scans and heartbeats that are due by the clock."""
        with self.lock:
            now = self.clock.now()
            while now >= self._next_scan:
                self.scan()
                self._next_scan += self.scan_period
            if not self.heartbeat_stopped:
                for port in self._ports.values():
                    port.beat_if_due(now)

    def scan(self) -> None:
        """Scan every zone once now and report the zones whose reading changed."""
        with self.lock:
            self._scan_no += 1
            for action in self._scheduled.pop(self._scan_no, []):
                action()
            if self.flicker_rate and self.rng.random() < self.flicker_rate:
                self.flicker(self.rng.choice(ZONES), scans=self.rng.randint(1, 3))
            overlay = self._overlays.pop(self._scan_no, {})
            self._advance_slides(overlay)
            board = self._ports["board"]
            for zone in ZONES:
                reading = self._reading(zone, overlay.get(zone))
                if reading != self._reported[zone - 1]:
                    self._reported[zone - 1] = reading
                    if board.streaming():
                        board.send(ZoneChange(self._scan_no % 65536, zone, reading))

    def open_pty(self, port: PortName = "board") -> str:
        """Serve `port` on a new pseudo-terminal (until `close`); returns its tty path."""
        server = PtyServer(self.port(port))
        self._pty_servers.append(server)
        return server.path

    def close(self) -> None:
        """Stop serving ptys and give up this emulator's name, so the name can be reused."""
        for server in self._pty_servers:
            server.close()
        self._pty_servers.clear()
        with _registry_lock:
            if self.name is not None and _registry.get(self.name) is self:
                del _registry[self.name]

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------ internals

    def _reading(self, zone: int, overlay: str | None = None) -> ZoneReading:
        """What the sensors report for `zone` at this scan; at STACKS the order is the one the
        microcontroller keeps from the colours' changes (and corrections by SET_STACKS)."""
        stack = self._stuck.get(zone, overlay if overlay is not None else self._zones[zone - 1])
        if self.capability is not Capability.STACKS:
            return _reading_at(stack, self.capability)
        self._order[zone - 1] = order = follow_colours(self._order[zone - 1], stack)
        return _reading_at(order, Capability.STACKS)

    def _overlay(self, scan: int, zone: int, sensed: str) -> None:
        self._overlays.setdefault(scan, {})[zone] = sensed

    def _advance_slides(self, overlay: dict[int, str]) -> None:
        """Land the slides due at this scan; the others are sensed over the point they pass,
        on top of what stands there now."""
        for slide in list(self._slides):
            if self._scan_no >= slide.lands_at:
                self._slides.remove(slide)
                self._hand.remove(slide.colour)
                self._zones[slide.target - 1] += slide.colour
            elif (zone := slide.passing.get(self._scan_no)) is not None:
                overlay[zone] = overlay.get(zone, self._zones[zone - 1]) + slide.colour

    def _end_slides_picked_up(self) -> None:
        """A hand placed a checker of a colour that was sliding: when fewer of that colour are in
        the hand than are sliding, the latest such slides were picked up and end."""
        for colour in "wb":
            sliding = [slide for slide in self._slides if slide.colour == colour]
            for slide in sliding[self._hand.count(colour):]:
                self._slides.remove(slide)

    def _check_zone(self, zone: int) -> None:
        if zone not in ZONES:
            raise ImpossibleAction(f"zone {zone} is not a zone id 1..{ZONE_COUNT}")

    def _die(self, index: int) -> _Die:
        if not 0 <= index < len(self._dice):
            raise ImpossibleAction(f"no die {index}: this board has {len(self._dice)} dice")
        return self._dice[index]

    def _set_die(self, die: _Die, status: DieStatus, face: int | None) -> None:
        if status is DieStatus.ROLLING:
            die.throws += 1
        die.status, die.face = status, face
        self._report_die(die)

    def _report_die(self, die: _Die) -> None:
        for port in self._ports.values():
            if Features.DICE in port.features and port.streaming():
                port.send(die.report())
