"""The events the drivers deliver to the controller: typed, immutable, on one queue.

Every event says which driver sent it (`source`, the port or "buttons") and when
(`timestamp`, from the driver's injected clock, in seconds).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Literal, Protocol

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


class EventQueue(Protocol):
    """Where the drivers put their events and the table takes them: the drivers make a
    `queue.SimpleQueue` (a put and a get cost a twentieth of `queue.Queue`'s, whose locks and
    conditions serve bounded queues and `join`, which the table never uses: at every sensor
    frame); any queue with these calls (`queue.Queue`) may be handed to them instead."""

    def put(self, item: Event, block: bool = True, timeout: float | None = None) -> None:
        """Add an event."""

    def get(self, block: bool = True, timeout: float | None = None) -> Event:
        """The oldest event, waiting for one as `block` and `timeout` say (`queue.Empty` if none)."""

    def get_nowait(self) -> Event:
        """The oldest event, `queue.Empty` if none."""

    def empty(self) -> bool:
        """No event waits."""


@dataclass(frozen=True, slots=True)
class LinkStats:
    """A serial link's counts since it was made (the frame reader's survive reconnections): what a
    noisy cable, a loose connector or a firmware bug costs, so a builder can see it."""

    frames: int = 0
    garbage_bytes: int = 0
    """Bytes between delimiters that did not start a frame (line noise, a frame's tail)."""
    bad_crc: int = 0
    """Frames of the right length whose CRC did not match (corrupted in transit)."""
    cut_frames: int = 0
    """Frames that started well but ended before their length (cut by a delimiter)."""
    seq_gaps: int = 0
    """Times a frame's sequence number was not the one after the previous frame's (frames lost)."""
    malformed: int = 0
    """Frames with a good CRC whose message made no sense (firmware bug or version skew)."""
    unknown_types: int = 0
    """Frames with a good CRC of a message type this host does not know."""
    late_heartbeats: int = 0
    """Times the board's heartbeat was late and the host pinged it."""
    connects: int = 0
    """Successful handshakes."""
    failures: int = 0
    """Failed attempts and lost links."""

    PROBLEMS = ("garbage_bytes", "bad_crc", "cut_frames", "seq_gaps", "malformed", "unknown_types",
                "late_heartbeats")
    """The counts that say something went wrong on a link that is up (a lost link says so itself)."""

    def problems(self) -> dict[str, int]:
        """The counts of what went wrong, by name (every one, zeros included)."""
        return {name: getattr(self, name) for name in self.PROBLEMS}

    def describe(self) -> str:
        """One short line: "0 garbage bytes, 2 bad CRC, ..." over the counts of what went wrong."""
        words = {"garbage_bytes": "garbage bytes", "bad_crc": "bad CRC", "cut_frames": "cut frames",
                 "seq_gaps": "sequence gaps", "malformed": "malformed", "unknown_types": "unknown types",
                 "late_heartbeats": "late heartbeats"}
        return f"{self.frames} frames, " + ", ".join(f"{getattr(self, name)} {words[name]}" for name in self.PROBLEMS)

    def to_document(self) -> dict[str, int]:
        """Every count by name, as the journal records it."""
        return asdict(self)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The names of the counts, in order."""
        return tuple(f.name for f in fields(cls))


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """What every event says: which driver sent it and when."""

    source: str
    timestamp: float


@dataclass(frozen=True, slots=True, kw_only=True)
class LinkUp(Event):
    """The board answered the handshake; a SensorSnapshot follows when it senses zones."""

    hello: Hello
    stats: LinkStats | None = None
    """The link's counts at the handshake."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LinkDown(Event):
    """The link is lost or could not be made; the driver keeps retrying with backoff."""

    reason: str
    stats: LinkStats | None = None
    """The link's counts when it went down."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LinkStatistics(Event):
    """The counts of what went wrong on a link changed (delivered at most every few seconds, so a
    noisy cable cannot flood the table)."""

    stats: LinkStats


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandFailed(Event):
    """A command to the board that changes something (SET_ZONE_LEDS, SET_STACKS) was not done:
    the board answered an ACK other than OK, or none in time. `count` is how many times this
    command has failed so on this link with this outcome."""

    command: str
    outcome: str
    """The ACK's status (UNSUPPORTED, BAD_REQUEST, CONFLICT), or "no ACK"."""
    count: int


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
    """None for the host's virtual dice (`RollButton`), which have no battery."""
    throw: int = 0
    """The die's throw count: a new throw even when the face is the same as before."""
    resync: bool = False
    """The die's state as first reported after the link came up: how it lies, not a change seen
    (a die lying on 5 since before a reconnection is not a new throw of 5)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonPressed(Event):
    """A player pressed one of their buttons."""

    player: Player
    button: ButtonKind
