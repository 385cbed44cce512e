"""The sensor board: zone snapshots and changes as events, snapshot requests, zone LEDs."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import suppress
from typing import Unpack

from drivers.errors import DriverConfigError, LinkError, UnsupportedFeature
from drivers.events import SensorSnapshot, ZoneChanged
from drivers.link import DeviceRole, LinkOptions, SerialLink
from drivers.protocol import (
    Ack,
    AckStatus,
    BoardMessage,
    Features,
    Hello,
    SetZoneLeds,
    Snapshot,
    SnapshotRequest,
    ZoneChange,
)
from game.zones import ZONE_COUNT, ZONES, ZoneReading, implausible_board, implausible_reading


class BoardSensor(DeviceRole):
    """Reports the board's zones: a `SensorSnapshot` after each `LinkUp`, `ZoneChanged` as
    checkers move, and a new `SensorSnapshot` whenever the board's periodic snapshot differs
    from what the changes built (a change was lost) or one was requested.

    `BoardSensor("/dev/ttyACM0", events=q)` makes its own link; `BoardSensor(link)` shares one.
    """

    def __init__(self, port: SerialLink | str, **options: Unpack[LinkOptions]) -> None:
        super().__init__(port, options)
        self._zones: tuple[ZoneReading, ...] | None = None
        self._want_snapshot = False
        self._latest: SensorSnapshot | None = None

    @property
    def latest(self) -> SensorSnapshot | None:
        """The last SensorSnapshot delivered."""
        return self._latest

    def request_snapshot(self, timeout: float = 1.0) -> SensorSnapshot:
        """Ask for a full snapshot and wait for it; it is also delivered as an event."""
        self._require(Features.ZONES)
        self._want_snapshot = True
        self.link.request(SnapshotRequest(), Snapshot, timeout)
        assert self._latest is not None
        return self._latest

    def set_zone_leds(self, zones: Iterable[int], timeout: float = 1.0) -> None:
        """Light exactly these zones' LEDs, the others off, and wait for the board's ACK."""
        lit = frozenset(zones)
        if not lit <= set(ZONES):
            raise DriverConfigError(f"zone LEDs {sorted(lit - set(ZONES))} are not zone ids 1..28")
        self._require(Features.ZONE_LEDS)
        ack = self.link.request(SetZoneLeds(lit), Ack, timeout,
                                lambda ack, seq: ack.request_seq == seq)
        if ack.status is not AckStatus.OK:
            raise UnsupportedFeature(
                f"{self.link.source} refused SET_ZONE_LEDS {sorted(lit)}: {ack.status.name}")

    def light_zones(self, zones: Iterable[int]) -> bool:
        """Light exactly these zones' LEDs without waiting for the board's ACK (for a loop that
        must not block); False when the board has no zone LEDs or the link is down."""
        lit = frozenset(zones)
        if not lit <= set(ZONES):
            raise DriverConfigError(f"zone LEDs {sorted(lit - set(ZONES))} are not zone ids 1..28")
        hello = self.link.hello
        if hello is None or not self.link.is_up or Features.ZONE_LEDS not in hello.features:
            return False
        try:
            self.link.send(SetZoneLeds(lit))
        except LinkError:
            return False
        return True

    def link_up(self, hello: Hello) -> None:
        """After each handshake: forget the zones and ask for a whole board if the board senses zones."""
        self._zones = None
        if Features.ZONES in hello.features:
            self._want_snapshot = True
            with suppress(LinkError):
                self.link.send(SnapshotRequest())

    def receive(self, message: BoardMessage, timestamp: float) -> None:
        """A message from the board: snapshots and zone changes become events (unless they cannot
        be true of the board that announced itself: those are rejected and counted); the rest is
        not the board sensor's."""
        if isinstance(message, Snapshot | ZoneChange):
            why = self._implausible(message)
            if why:
                self.reject("snapshot" if isinstance(message, Snapshot) else "zone change", why, message, timestamp)
                return
        source = self.link.source
        if isinstance(message, Snapshot):
            if self._want_snapshot or message.zones != self._zones:
                self._latest = SensorSnapshot(
                    source=source, timestamp=timestamp, capability=message.capability,
                    zones=message.zones, scan=message.scan)
                self.events.put(self._latest)
            self._zones = message.zones
            self._want_snapshot = False
        elif isinstance(message, ZoneChange):
            if self._zones is not None:
                zones = list(self._zones)
                zones[message.zone - 1] = message.reading
                self._zones = tuple(zones)
            self.events.put(ZoneChanged(source=source, timestamp=timestamp, zone=message.zone,
                                        reading=message.reading, scan=message.scan))

    def _implausible(self, message: Snapshot | ZoneChange) -> str | None:
        """Why the message cannot be true of the board that announced itself (None if it can)."""
        hello = self.link.hello
        announced = hello.capability if hello is not None else None
        if hello is None or announced is None or Features.ZONES not in hello.features:
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
