"""The events the drivers deliver to the controller: typed, immutable, on one queue.

Every event says which driver sent it (`source`, the port or "buttons") and when
(`timestamp`, from the driver's injected clock, in seconds).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from drivers.protocol import DieStatus, Hello
from game.zones import Capability, ZoneReading

Player = Literal["white", "black"]
PLAYERS: tuple[Player, Player] = ("white", "black")


class ButtonKind(StrEnum):
    """The four buttons each player has."""

    DONE = "done"
    """The clock press that ends a turn."""
    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """What every event says: which driver sent it and when."""

    source: str
    timestamp: float


@dataclass(frozen=True, slots=True, kw_only=True)
class LinkUp(Event):
    """The board answered the handshake; a SensorSnapshot follows when it senses zones."""

    hello: Hello


@dataclass(frozen=True, slots=True, kw_only=True)
class LinkDown(Event):
    """The link is lost or could not be made; the driver keeps retrying with backoff."""

    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FrameRejected(Event):
    """A well-formed frame whose content cannot be true of the board that announced itself (a
    reading of another capability, more checkers than there are, a die it does not have): it
    was not acted on. Delivered for the 1st, 10th, 100th ... rejection of each reason, with the
    count so far, so a storm of them cannot flood the table."""

    reason: str
    detail: str
    """The message, as decoded."""
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SensorSnapshot(Event):
    """Every zone's reading at one board scan; `zones[0]` is zone 1."""

    capability: Capability
    zones: tuple[ZoneReading, ...]
    scan: int

    def zone(self, zone: int) -> ZoneReading:
        """The reading of zone id `zone` (1..28)."""
        if not 1 <= zone <= len(self.zones):
            raise IndexError(f"zone {zone} is not within 1..{len(self.zones)}")
        return self.zones[zone - 1]


@dataclass(frozen=True, slots=True, kw_only=True)
class ZoneChanged(Event):
    """One zone read differently at scan `scan`."""

    zone: int
    reading: ZoneReading
    scan: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DieState(Event):
    """A die's state: rolling, settled on a face, cocked or removed."""

    die_id: int
    status: DieStatus
    face: int | None
    battery_pct: int | None
    throw: int = 0
    """The die's throw count: a new throw even when the face is the same as before."""
    resync: bool = False
    """The die's state as first reported after the link came up: how it lies, not a change seen
    (a die lying on 5 since before a reconnection is not a new throw of 5)."""
    """None for the host's virtual dice (`RollButton`), which have no battery."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonPressed(Event):
    """A player pressed one of their buttons."""

    player: Player
    button: ButtonKind
