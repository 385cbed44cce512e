"""The sensor board: zone snapshots and changes as events, snapshot requests, zone LEDs, and the
order of a STACKS board's stacks told to it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from contextlib import suppress
from typing import Unpack, cast

from drivers.errors import DriverConfigError, LinkError, ProtocolError, UnsupportedFeature
from drivers.events import CommandFailed, SensorSnapshot, ZoneChanged
from drivers.link import DeviceRole, LinkOptions, SerialLink
from drivers.protocol import (
    Ack,
    AckStatus,
    BoardMessage,
    Features,
    Hello,
    HostMessage,
    MsgType,
    SetStacks,
    SetZoneLeds,
    Snapshot,
    SnapshotRequest,
    ZoneChange,
)
from game.zones import ZONE_COUNT, ZONES, Capability, ZoneReading, implausible_board, implausible_reading

ACK_TIMEOUT = 2.0
"""Seconds within which the board must acknowledge a command sent without waiting."""


_BoardReading = Snapshot | ZoneChange
"""The board's messages that read its zones (the board sensor's own)."""


class BoardSensor(DeviceRole):
    """Reports the board's zones: a `SensorSnapshot` after each `LinkUp`, `ZoneChanged` as
    checkers move, and a new `SensorSnapshot` whenever the board's periodic snapshot differs
    from what the changes built (a change was lost) or one was requested.

    Commands sent without waiting (`light_zones`, `set_stacks`) are followed up: an ACK other than
    OK, or none within `ACK_TIMEOUT`, is counted in `failed` and delivered as `CommandFailed`.

    `BoardSensor("/dev/ttyACM0", events=q)` makes its own link; `BoardSensor(link)` shares one.
    """

    def __init__(self, port: SerialLink | str, **options: Unpack[LinkOptions]) -> None:
        super().__init__(port, options)
        self._zones: list[ZoneReading] | None = None
        """The board as the changes since the last snapshot built it (a list: a change is one frame's work)."""
        self._want_snapshot = False
        self._latest: SensorSnapshot | None = None
        self._awaiting: dict[int, tuple[str, float]] = {}
        """Commands sent without waiting, by sequence number: their name and when they were sent."""
        self.failed: Counter[tuple[str, str]] = Counter()
        """Commands not done, by (command, outcome): an ACK's status, or "no ACK"."""
        self._hello: Hello | None = None
        self._capability: Capability | None = None

    @property
    def latest(self) -> SensorSnapshot | None:
        """The last SensorSnapshot delivered."""
        return self._latest

    def request_snapshot(self, timeout: float | None = None) -> SensorSnapshot:
        """Ask for a full snapshot and wait for it (by default as long as the link waits for any
        answer, its `reply_timeout`); it is also delivered as an event."""
        self._require(Features.ZONES)
        self._want_snapshot = True
        snapshot = self.link.request(SnapshotRequest(), Snapshot, self._wait(timeout))
        why = self._implausible(snapshot)
        if why is not None or self._latest is None:
            raise ProtocolError(f"{self.link.source}: its snapshot cannot be true of this board: {why}")
        return self._latest

    def set_zone_leds(self, zones: Iterable[int], timeout: float | None = None) -> None:
        """Light exactly these zones' LEDs, the others off, and wait for the board's ACK (by
        default as long as the link waits for any answer, its `reply_timeout`)."""
        lit = frozenset(zones)
        if not lit <= set(ZONES):
            raise DriverConfigError(f"zone LEDs {sorted(lit - set(ZONES))} are not zone ids 1..28")
        self._require(Features.ZONE_LEDS)
        ack = self.link.request(SetZoneLeds(lit), Ack, self._wait(timeout),
                                lambda ack, seq: ack.request_seq == seq)
        if ack.status is not AckStatus.OK:
            raise UnsupportedFeature(
                f"{self.link.source} refused SET_ZONE_LEDS {sorted(lit)}: {ack.status.name}")

    def _wait(self, timeout: float | None) -> float:
        return self.link.reply_timeout if timeout is None else timeout

    def light_zones(self, zones: Iterable[int]) -> bool:
        """Light exactly these zones' LEDs without waiting for the board's ACK (for a loop that
        must not block; a missing or refusing ACK is followed up); False when the board has no zone
        LEDs or the link is down."""
        lit = frozenset(zones)
        if not lit <= set(ZONES):
            raise DriverConfigError(f"zone LEDs {sorted(lit - set(ZONES))} are not zone ids 1..28")
        return self._send_followed(Features.ZONE_LEDS, SetZoneLeds(lit), MsgType.SET_ZONE_LEDS)

    def set_stacks(self, stacks: Sequence[str]) -> bool:
        """Tell a STACKS board the order of every zone's stack (28 stacks, bottom to top; index 0 is
        zone 1) without waiting for its ACK (followed up); False when the board does not take it
        (no STACK_ORDER: it keeps its order from history alone) or the link is down."""
        try:
            message = SetStacks(tuple(stacks))
        except ValueError as error:
            raise DriverConfigError(str(error)) from None
        return self._send_followed(Features.STACK_ORDER, message, MsgType.SET_STACKS)

    def _send_followed(self, feature: Features, message: HostMessage, kind: MsgType) -> bool:
        hello = self.link.hello
        if hello is None or not self.link.is_up or feature not in hello.features:
            return False
        try:
            seq = self.link.send(message)
        except LinkError:
            return False
        self._awaiting[seq] = (kind.name, self.link.clock.now())
        return True

    def _acknowledged(self, message: BoardMessage, timestamp: float) -> None:
        """Follow up the commands sent without waiting (some are): an ACK that is not OK, or none in time."""
        if isinstance(message, Ack) and message.request_seq in self._awaiting:
            command, _ = self._awaiting.pop(message.request_seq)
            if message.status is not AckStatus.OK:
                self._failed(command, message.status.name, timestamp)
        for seq, (command, sent) in list(self._awaiting.items()):
            if timestamp - sent > ACK_TIMEOUT:
                del self._awaiting[seq]
                self._failed(command, "no ACK", timestamp)

    def _failed(self, command: str, outcome: str, timestamp: float) -> None:
        self.failed[command, outcome] += 1
        self.events.put(CommandFailed(source=self.link.source, timestamp=timestamp, command=command,
                                      outcome=outcome, count=self.failed[command, outcome]))

    def link_up(self, hello: Hello) -> None:
        """After each handshake: forget the zones (and the commands awaiting an ACK: the link that
        carried them is gone) and ask for a whole board if the board senses zones."""
        self._zones = None
        self._awaiting.clear()
        if Features.ZONES in hello.features:
            self._want_snapshot = True
            with suppress(LinkError):
                self.link.send(SnapshotRequest())

    def read_afresh(self) -> None:
        """Ask the board for a whole reading now, without waiting: it comes as a `SensorSnapshot`
        event even when it holds nothing new (or, if the request is lost, the next heartbeat's does)."""
        self._want_snapshot = True
        with suppress(LinkError):
            self.link.send(SnapshotRequest())

    def frames_lost(self, timestamp: float) -> None:
        """Frames were lost on the line: one of them may have been a zone change, so the zones
        built from the changes may be wrong until the next snapshot; ask for it now rather than
        wait for the heartbeat's (a done press in between would be judged on a board that is not
        there)."""
        if self._zones is None or self._announced() is None:
            return  # no board to correct yet: the handshake's snapshot is on its way
        self.read_afresh()

    def receive(self, message: BoardMessage, timestamp: float) -> None:
        """A message from the board: snapshots and zone changes become events (unless they cannot
        be true of the board that announced itself: those are rejected and counted); the rest is
        not the board sensor's, but every message follows up the commands awaiting an ACK."""
        if self._awaiting:
            self._acknowledged(message, timestamp)
        kind = type(message)  # the wire's messages are these classes themselves: no isinstance at every frame
        if kind is not ZoneChange and kind is not Snapshot:
            return
        message = cast(_BoardReading, message)
        why = self._implausible(message)
        if why:
            self.reject("zone change" if kind is ZoneChange else "snapshot", why, message, timestamp)
            return
        if isinstance(message, ZoneChange):
            zones = self._zones
            if zones is not None:
                zones[message.zone - 1] = message.reading
            self.events.put(ZoneChanged(source=self.link.source, timestamp=timestamp, zone=message.zone,
                                        reading=message.reading, scan=message.scan))
        else:
            if self._want_snapshot or self._zones is None or message.zones != tuple(self._zones):
                self._latest = SensorSnapshot(
                    source=self.link.source, timestamp=timestamp, capability=message.capability,
                    zones=message.zones, scan=message.scan)
                self.events.put(self._latest)
            self._zones = list(message.zones)
            self._want_snapshot = False

    def _announced(self) -> Capability | None:
        """What the board that announced itself senses (None: no zones), read once a handshake."""
        hello = self.link.hello
        if hello is not self._hello:
            self._hello = hello
            self._capability = hello.capability if hello is not None and Features.ZONES in hello.features else None
        return self._capability

    def _implausible(self, message: Snapshot | ZoneChange) -> str | None:
        """Why the message cannot be true of the board that announced itself (None if it can)."""
        announced = self._announced()
        if announced is None:
            return "zones from a board that announced no zone sensing"
        if isinstance(message, Snapshot):
            if message.capability is not announced:
                return f"a {message.capability.name} snapshot from a board that announced {announced.name}"
            return implausible_board(message.zones, announced)
        if message.zone not in ZONES:
            return f"zone {message.zone} (zones are 1-{ZONE_COUNT})"
        # Only the zone itself: a scan's changes arrive one by one, so the board between two of
        # them may hold a checker twice (one that moved, seen landed and not yet gone).
        return implausible_reading(message.reading, announced)
