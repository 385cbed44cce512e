"""The board as its sensors report it: the capability the board announced, every zone as last
read, and the last board that stood still long enough to be judged (`Debouncer`)."""

from __future__ import annotations

from firmware_host.debounce import Debouncer
from game.zones import Capability, View, ZoneReading


class SensedBoard:
    """Follows the board's snapshots and zone changes; `read` and `poll` return a board that has
    newly settled, for the controller to judge."""

    def __init__(self, settle_seconds: float) -> None:
        self.capability: Capability | None = None
        self.zones: list[ZoneReading] | None = None
        """Every zone as last read, settled or not (None until the first snapshot)."""
        self._debouncer = Debouncer(settle_seconds)

    @property
    def stable(self) -> View | None:
        """The last board that settled."""
        return self._debouncer.stable

    @property
    def settled(self) -> bool:
        """The zones read now are the last settled board (no checker in motion)."""
        return self.zones is not None and self._debouncer.stable == tuple(self.zones)

    @property
    def ready(self) -> bool:
        """A whole board has been read and its capability is known."""
        return self.zones is not None and self.capability is not None

    def forget(self) -> None:
        """The board was out of reach: nothing read before counts; wait for a whole board again."""
        self.zones = None
        self._debouncer = Debouncer(self._debouncer.settle_seconds)

    def announce(self, capability: Capability | None) -> None:
        """The capability a board announced in its handshake."""
        if capability is not None:
            self.capability = capability

    def snapshot(self, capability: Capability, zones: tuple[ZoneReading, ...], now: float) -> View | None:
        """A whole board read; the newly settled board, if any."""
        self.capability = capability
        self.zones = list(zones)
        return self._debouncer.update(self.zones, now)

    def change(self, zone: int, reading: ZoneReading, now: float) -> View | None:
        """One zone read anew (ignored before the first snapshot); the newly settled board, if any."""
        if self.zones is None:
            return None
        self.zones[zone - 1] = reading
        return self._debouncer.change(zone, reading, now)

    def poll(self, now: float) -> View | None:
        """Time passed: the board that has newly settled, if any."""
        return self._debouncer.poll(now)
