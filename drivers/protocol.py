"""The wire protocol between the host and the board's microcontroller, version 1.

The one home of the frame layout, the CRC and the messages: the drivers read with it,
the emulator writes with it, and hardware_docs/protocol.md documents it byte by byte.

On the wire a frame is ``00 | COBS(body) | 00`` and the body is::

    version u8 | seq u8 | type u8 | length u16 | payload (length bytes) | crc u32

Integers are big-endian. The CRC is CRC-32 (IEEE 802.3, as `zlib.crc32`) over version
through payload. COBS removes every 00 byte from the body, so 00 only ever delimits
frames and a reader resynchronises at the next 00 after garbage or a cut frame.
Each sender numbers its frames 0, 1, ... 255, 0, ...; HELLO_REQUEST and HELLO restart at 0.
"""

from __future__ import annotations

import importlib
import struct
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum, IntFlag
from functools import lru_cache
from types import ModuleType

from drivers.errors import DriverConfigError, MalformedMessage, ProtocolError, UnknownMessageType, UnsupportedVersion
from game.zones import MAX_STACK, ZONE_COUNT, Capability, ZoneReading

PROTOCOL_VERSION = 1
BAUD_RATE = 460_800
SERIAL_SETTINGS = "8N1"
"""8 data bits, no parity, 1 stop bit, no flow control: 10 bits on the wire per byte."""
DELIMITER = b"\x00"
HEADER = struct.Struct(">BBBH")
CRC = struct.Struct(">I")
MAX_PAYLOAD = 1024
MAX_BODY = HEADER.size + MAX_PAYLOAD + CRC.size
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 1


class MsgType(IntEnum):
    # host -> board
    """The message types and their wire codes."""

    HELLO_REQUEST = 0x01
    SNAPSHOT_REQUEST = 0x02
    PING = 0x03
    SET_ZONE_LEDS = 0x04
    DICE_REQUEST = 0x05
    SET_STACKS = 0x06
    # board -> host
    HELLO = 0x81
    SNAPSHOT = 0x82
    ZONE_CHANGE = 0x83
    PONG = 0x84
    ACK = 0x85
    DIE_REPORT = 0x86


class Features(IntFlag):
    """What a device announces it has in its HELLO."""

    ZONES = 0x01
    """The device senses the 28 zones."""
    DICE = 0x02
    """The device reports electronic dice."""
    ZONE_LEDS = 0x04
    """The device has an LED per zone that the host can light."""
    STACK_ORDER = 0x08
    """A STACKS board that takes SET_STACKS: the host tells it the order of its stacks (which no
    sensor sees) at a known moment. A STACKS board without it keeps its order from history only."""


class AckStatus(IntEnum):
    """How a device answers a request that changes something."""

    OK = 0
    UNSUPPORTED = 1
    BAD_REQUEST = 2
    CONFLICT = 3
    """The request contradicts what the board senses (SET_STACKS whose colours per zone are not
    the checkers on it): nothing changed."""


class DieStatus(IntEnum):
    """The states a die reports."""

    ROLLING = 1
    SETTLED = 2
    COCKED = 3
    """Landed not flat: leaning on a checker or the board's edge; no face."""
    REMOVED = 4
    """Not on the board (in a hand, in the cup, on the floor)."""


# ---------------------------------------------------------------- COBS


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing (canonical form): the result holds no 00 byte."""
    out = bytearray()
    blocks = data.split(DELIMITER)
    last = len(blocks) - 1
    for index, block in enumerate(blocks):
        start = 0
        while len(block) - start >= 254:
            out.append(0xFF)
            out += block[start:start + 254]
            start += 254
        rest = block[start:]
        if rest or start == 0 or index < last:
            out.append(len(rest) + 1)
            out += rest
    return bytes(out)


def cobs_decode(data: bytes) -> tuple[bytes, bool]:
    """Undo `cobs_encode`; returns (decoded bytes, complete). A cut input decodes partly."""
    out = bytearray()
    index, size = 0, len(data)
    while index < size:
        code = data[index]
        end = index + code
        if code == 0 or end > size:
            out += data[index + 1:size]
            return bytes(out), False
        out += data[index + 1:end]
        index = end
        if code != 0xFF and index < size:
            out.append(0)
    return bytes(out), True


# ---------------------------------------------------------------- frames


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame: the header's fields and the payload."""

    version: int
    seq: int
    type: int
    payload: bytes


def encode_frame(frame: Frame) -> bytes:
    """The bytes that carry `frame` on the wire, delimiters included."""
    if len(frame.payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(frame.payload)} bytes exceeds {MAX_PAYLOAD}")
    body = HEADER.pack(frame.version, frame.seq, frame.type, len(frame.payload)) + frame.payload
    body += CRC.pack(zlib.crc32(body))
    return DELIMITER + cobs_encode(body) + DELIMITER


@dataclass(frozen=True, slots=True)
class ReaderStats:
    """What a FrameReader accepted and rejected since it was made."""

    frames: int = 0
    garbage_bytes: int = 0
    """Bytes between delimiters that did not start a frame (line noise, a frame's tail)."""
    bad_crc: int = 0
    """Frames of the right length whose CRC did not match (corrupted in transit)."""
    cut_frames: int = 0
    """Frames that started well but ended before their length (cut by a delimiter)."""
    seq_gaps: int = 0
    """Times a frame's sequence number was not the one after the previous frame's."""

    @property
    def rejected(self) -> int:
        """Frames thrown away: bad CRC or cut short."""
        return self.bad_crc + self.cut_frames


class FrameReader:
    """Splits a byte stream into frames, resynchronising on delimiters; counts rejects."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._overflow = 0
        self._expected_seq: int | None = None
        self._frames = self._garbage = self._bad_crc = self._cut = self._gaps = 0

    @property
    def stats(self) -> ReaderStats:
        """What the reader accepted and rejected so far."""
        return ReaderStats(self._frames, self._garbage, self._bad_crc, self._cut, self._gaps)

    @property
    def losses(self) -> int:
        """Frames lost so far, as one count that grows with each (junk bytes, a bad CRC, a cut
        frame, a sequence gap): when it moves, what was built from the stream may be wrong."""
        return self._garbage + self._bad_crc + self._cut + self._gaps

    def reset(self) -> None:
        """Forget a partial frame and the sequence (on reconnect); the counts stay."""
        self._garbage += len(self._pending) + self._overflow
        self._pending.clear()
        self._overflow = 0
        self._expected_seq = None

    def feed(self, data: bytes) -> list[Frame]:
        """Take bytes as they arrive; returns the frames they complete, in order."""
        *ended, tail = data.split(DELIMITER)
        frames = []
        for chunk in ended:
            if self._pending or self._overflow or len(chunk) > MAX_ENCODED:
                self._append(chunk)
                frame = self._take()
            elif chunk:  # a whole frame's bytes between two delimiters, as they mostly come
                frame = self._judge(chunk)
            else:
                continue
            if frame is not None:
                frames.append(frame)
        self._append(tail)
        return frames

    def _append(self, chunk: bytes) -> None:
        if self._overflow or len(self._pending) + len(chunk) > MAX_ENCODED:
            self._overflow += len(self._pending) + len(chunk)
            self._pending.clear()
        else:
            self._pending += chunk

    def _take(self) -> Frame | None:
        candidate = bytes(self._pending)
        self._pending.clear()
        if self._overflow:
            self._garbage += self._overflow
            self._overflow = 0
            return None
        if not candidate:
            return None
        return self._judge(candidate)

    def _judge(self, candidate: bytes) -> Frame | None:
        checked = _check(candidate)
        if isinstance(checked, int):
            if checked == GARBAGE:
                self._garbage += len(candidate)
            elif checked == CUT:
                self._cut += 1
            else:
                self._bad_crc += 1
            return None
        version, seq, msg_type, payload = checked
        self._frames += 1
        if msg_type != MsgType.HELLO and msg_type != MsgType.HELLO_REQUEST:
            if self._expected_seq is not None and seq != self._expected_seq:
                self._gaps += 1
        self._expected_seq = (seq + 1) % 256
        return Frame(version, seq, msg_type, payload)


GARBAGE, CUT, BAD_CRC = 1, 2, 3
"""What `check_frame` says of bytes that are no frame: not a frame's start (line noise, a
frame's tail), a frame cut short by a delimiter, a frame whose CRC does not match."""


def check_frame(candidate: bytes) -> tuple[int, int, int, bytes] | int:
    """One frame's bytes between two delimiters (not empty): its version, sequence number, type
    and payload once COBS is undone and its length and CRC checked; else `GARBAGE`, `CUT` or
    `BAD_CRC`. The reference of the compiled frame path (drivers/_frames.c `check`)."""
    body, complete = cobs_decode(candidate)
    if len(body) < HEADER.size:
        return GARBAGE
    version, seq, msg_type, length = HEADER.unpack_from(body)
    expected = HEADER.size + length + CRC.size
    if length > MAX_PAYLOAD or len(body) > expected:
        return GARBAGE
    if len(body) < expected or not complete:
        return CUT
    (crc,) = CRC.unpack_from(body, expected - CRC.size)
    if crc != zlib.crc32(body[:expected - CRC.size]):
        return BAD_CRC
    return version, seq, msg_type, body[HEADER.size:expected - CRC.size]


def _load_compiled() -> tuple[ModuleType | None, str]:
    """The compiled frame path (drivers/_frames.c), or None and why not."""
    try:
        compiled = importlib.import_module("drivers._frames")
    except ImportError as exc:
        return None, f"the compiled frame path is not built ({exc})"
    if getattr(compiled, "ABI", None) != FRAMES_ABI:  # built from another _frames.c: it would answer wrongly
        return None, (f"the compiled frame path was built from another _frames.c (interface "
                      f"{getattr(compiled, 'ABI', None)}, this host needs {FRAMES_ABI}): "
                      "build it again (pip install -e .)")
    return compiled, ""


FRAMES_ABI = 1
"""The interface of drivers/_frames.c this module speaks (its `ABI`)."""
_compiled, _why_not_compiled = _load_compiled()


def frame_paths() -> tuple[str, ...]:
    """The frame paths this installation has: "pure", and "compiled" where drivers/_frames.c was built."""
    return ("pure", "compiled") if _compiled is not None else ("pure",)


def describe_frame_path() -> str:
    """The frame path in use in a few words, and why when it is not the compiled one."""
    if _check is not check_frame:
        return "compiled frame path (drivers/_frames.c)"
    return f"pure-Python frame path ({_why_not_compiled or 'chosen'})"


@contextmanager
def use_frame_path(name: str) -> Iterator[None]:
    """Check and decode frames with the frame path `name` ("pure" or "compiled") inside the block."""
    global _check, _zones
    if name not in frame_paths():
        raise DriverConfigError(f"no {name!r} frame path here (have {', '.join(frame_paths())}; "
                            f"{_why_not_compiled or 'built'})")
    saved = _check, _zones
    _check, _zones = (check_frame, split_zones) if name == "pure" else (_compiled.check, _compiled.zones)  # type: ignore[union-attr]
    try:
        yield
    finally:
        _check, _zones = saved


# ---------------------------------------------------------------- messages


@dataclass(frozen=True, slots=True)
class HelloRequest:
    """Host -> board: identify yourself and start reporting. Restarts both sequences."""


@dataclass(frozen=True, slots=True)
class SnapshotRequest:
    """Host -> board: send a full SNAPSHOT now."""


@dataclass(frozen=True, slots=True)
class DiceRequest:
    """Host -> board: send a DIE_REPORT for every die now."""


@dataclass(frozen=True, slots=True)
class Ping:
    """The host asks the device to answer with the same token."""

    token: int


@dataclass(frozen=True, slots=True)
class SetZoneLeds:
    """Host -> board: light exactly these zones' LEDs (the others go off)."""

    zones: frozenset[int]


@dataclass(frozen=True, slots=True)
class SetStacks:
    """Host -> board (a STACKS board announcing STACK_ORDER): the checkers on each zone stand in
    this order, bottom to top; index 0 is zone 1. Answered by ACK: OK once the board has taken
    it (and reports the zones whose reading changed), CONFLICT when a zone's colours are not what
    the board senses there (nothing changed)."""

    stacks: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.stacks) != ZONE_COUNT or any(stack.strip("wb") or len(stack) > MAX_STACK
                                                   for stack in self.stacks):
            raise ValueError(f"SET_STACKS takes {ZONE_COUNT} stacks of at most {MAX_STACK} 'w'/'b', "
                             f"got {self.stacks!r}")


@dataclass(frozen=True, slots=True)
class Hello:
    """Board -> host, the answer to HELLO_REQUEST: who the board is and what it senses."""

    firmware: tuple[int, int, int]
    features: Features
    capability: Capability | None
    zone_count: int
    max_stack: int
    """The most checkers the board's sensors can tell apart on one zone."""
    heartbeat_ms: int
    """The board sends its full state at least this often; silence for 3 periods = dead."""
    board_id: int


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Board -> host: every zone's reading at one scan, on request and every heartbeat."""

    scan: int
    capability: Capability
    zones: tuple[ZoneReading, ...]


@dataclass(frozen=True, slots=True)
class ZoneChange:
    """Board -> host: one zone's reading changed at this scan."""

    scan: int
    zone: int
    reading: ZoneReading


@dataclass(frozen=True, slots=True)
class Pong:
    """The device's answer to a PING."""

    token: int


@dataclass(frozen=True, slots=True)
class Ack:
    """Board -> host: the outcome of a command that has no other answer (SET_ZONE_LEDS)."""

    request_seq: int
    status: AckStatus


@dataclass(frozen=True, slots=True)
class DieReport:
    """Board -> host: one die's state, on change, on request and every heartbeat."""

    die_id: int
    status: DieStatus
    face: int | None
    battery_pct: int
    throw: int = 0
    """Counts the die's throws (mod 65536): a throw whose ROLLING report was lost, landing on
    the face it showed before, is still seen as a new throw."""

    def __post_init__(self) -> None:
        if (self.face is not None) != (self.status is DieStatus.SETTLED):
            raise ValueError(f"a {self.status.name} die cannot show face {self.face}")
        if self.face is not None and not 1 <= self.face <= 6:
            raise ValueError(f"die face {self.face} is not 1..6")
        if not 0 <= self.battery_pct <= 100:
            raise ValueError(f"battery {self.battery_pct}% is not 0..100")
        if not 0 <= self.throw <= 0xFFFF:
            raise ValueError(f"throw count {self.throw} is not 0..65535")


HostMessage = HelloRequest | SnapshotRequest | DiceRequest | Ping | SetZoneLeds | SetStacks
BoardMessage = Hello | Snapshot | ZoneChange | Pong | Ack | DieReport
Message = HostMessage | BoardMessage

_U16 = struct.Struct(">H")
_U32 = struct.Struct(">I")
_HELLO = struct.Struct(">BBBBBBBHI")
_SCAN = struct.Struct(">HBB")
_DIE = struct.Struct(">IBBBH")
_EMPTY: dict[type[HelloRequest | SnapshotRequest | DiceRequest], MsgType] = {
    HelloRequest: MsgType.HELLO_REQUEST,
    SnapshotRequest: MsgType.SNAPSHOT_REQUEST,
    DiceRequest: MsgType.DICE_REQUEST,
}


def encode_reading(reading: ZoneReading) -> bytes:
    """COUNTS: count. COLOR_COUNTS: white, black. STACKS: height, then ceil(height/8)
    bytes of colour bits, bit i (LSB first) = checker i from the bottom, 1 = black."""
    if reading.count > 255:
        raise ProtocolError(f"{reading.count} checkers do not fit in one byte")
    if reading.stack is not None:
        bits = sum(1 << i for i, colour in enumerate(reading.stack) if colour == "b")
        return bytes([reading.count]) + bits.to_bytes((reading.count + 7) // 8, "little")
    if reading.white is not None and reading.black is not None:
        return bytes([reading.white, reading.black])
    return bytes([reading.count])


def _decode_reading(capability: Capability, data: bytes, at: int) -> tuple[ZoneReading, int]:
    if capability is Capability.COUNTS:
        return ZoneReading.of_count(data[at]), at + 1
    if capability is Capability.COLOR_COUNTS:
        return ZoneReading.of_colours(data[at], data[at + 1]), at + 2
    height = data[at]
    end = at + 1 + (height + 7) // 8
    if end > len(data):
        raise IndexError(f"stack of {height} needs {end - at} bytes, {len(data) - at} left")
    bits = int.from_bytes(data[at + 1:end], "little")
    if bits >> height:
        raise ValueError(f"colour bits {bits:#x} set above a stack of {height}")
    return ZoneReading.of_stack("".join("wb"[bits >> i & 1] for i in range(height))), end


def _payload(message: Message) -> tuple[MsgType, bytes]:
    match message:
        case HelloRequest() | SnapshotRequest() | DiceRequest():
            return _EMPTY[type(message)], b""
        case Ping(token):
            return MsgType.PING, _U32.pack(token)
        case SetZoneLeds(zones):
            if not zones <= set(range(1, 33)):
                raise ProtocolError(f"zone LEDs {sorted(zones)} are not all within 1..32")
            return MsgType.SET_ZONE_LEDS, _U32.pack(sum(1 << (zone - 1) for zone in zones))
        case SetStacks(stacks):
            return MsgType.SET_STACKS, bytes([len(stacks)]) + b"".join(
                encode_reading(ZoneReading.of_stack(stack)) for stack in stacks)
    return _board_payload(message)


def _board_payload(message: Message) -> tuple[MsgType, bytes]:
    """What a board sends (the host's requests are `_payload`'s)."""
    match message:
        case Hello():
            major, minor, patch = message.firmware
            return MsgType.HELLO, _HELLO.pack(
                major, minor, patch, message.features, message.capability or 0,
                message.zone_count, message.max_stack, message.heartbeat_ms, message.board_id)
        case Snapshot(scan, capability, zones):
            if any(reading.capability is not capability for reading in zones):
                raise ProtocolError(f"a {capability.name} snapshot holds another kind of reading")
            return MsgType.SNAPSHOT, _SCAN.pack(scan, capability, len(zones)) + b"".join(
                encode_reading(reading) for reading in zones)
        case ZoneChange(scan, zone, reading):
            return MsgType.ZONE_CHANGE, _SCAN.pack(scan, reading.capability, zone) + (
                encode_reading(reading))
        case Pong(token):
            return MsgType.PONG, _U32.pack(token)
        case Ack(request_seq, status):
            return MsgType.ACK, bytes([request_seq, status])
        case DieReport(die_id, status, face, battery_pct, throw):
            return MsgType.DIE_REPORT, _DIE.pack(die_id, status, face or 0, battery_pct, throw)
    raise TypeError(f"not a protocol message: {message!r}")


def describe_message(message: Message) -> str:
    """One short line for a log: the message's type and content, zone readings in their text form."""
    match message:
        case Snapshot(scan, capability, zones):
            return f"SNAPSHOT scan {scan} {capability.name} [{' '.join(r.text() or '-' for r in zones)}]"
        case ZoneChange(scan, zone, reading):
            return f"ZONE_CHANGE scan {scan} zone {zone} {reading.capability.name} {reading.text() or '-'}"
        case DieReport(die_id, status, face, battery_pct, throw):
            return f"DIE_REPORT die {die_id:#x} {status.name} face {face} battery {battery_pct}% throw {throw}"
    return repr(message)


def encode_message(message: Message, seq: int) -> bytes:
    """The wire bytes of `message` sent as frame number `seq`."""
    msg_type, payload = _payload(message)
    return encode_frame(Frame(PROTOCOL_VERSION, seq, msg_type, payload))


def decode_message(frame: Frame) -> Message:
    """The message a (CRC-checked) frame carries; MalformedMessage if it makes no sense."""
    if frame.version == PROTOCOL_VERSION and (frame.type == MsgType.ZONE_CHANGE or frame.type == MsgType.SNAPSHOT):
        snapshot = frame.type == MsgType.SNAPSHOT
        zones = _zones(snapshot, frame.payload, zone_reading)
        if zones is not None:  # else the payload is malformed: the whole decoding below says how
            scan, capability, count, readings = zones
            if snapshot:
                return Snapshot(scan, _CAPABILITIES[capability], readings)
            return ZoneChange(scan, count, readings[0])
    if frame.version != PROTOCOL_VERSION:
        raise UnsupportedVersion(
            f"frame of protocol version {frame.version}, this host speaks {PROTOCOL_VERSION}")
    try:
        msg_type = MsgType(frame.type)
    except ValueError:
        raise UnknownMessageType(f"type {frame.type:#04x} payload {frame.payload.hex(' ')}: no message type of "
                                 f"protocol version {PROTOCOL_VERSION}") from None
    try:
        message = _decode_payload(msg_type, frame.payload)
    except (ValueError, IndexError, struct.error) as error:
        raise MalformedMessage(
            f"type {frame.type:#04x} payload {frame.payload.hex(' ')}: {error}") from error
    return message


def _exact(msg_type: MsgType, data: bytes, size: int) -> None:
    if len(data) != size:
        raise ValueError(f"{msg_type.name} payload is {len(data)} bytes, not {size}")


def _decode_payload(msg_type: MsgType, data: bytes) -> Message:
    if msg_type in (MsgType.HELLO_REQUEST, MsgType.SNAPSHOT_REQUEST, MsgType.DICE_REQUEST):
        _exact(msg_type, data, 0)
        return next(cls() for cls, code in _EMPTY.items() if code is msg_type)
    if msg_type in (MsgType.PING, MsgType.PONG):
        _exact(msg_type, data, _U32.size)
        return (Ping if msg_type is MsgType.PING else Pong)(_U32.unpack(data)[0])
    if msg_type is MsgType.SET_ZONE_LEDS:
        _exact(msg_type, data, _U32.size)
        (mask,) = _U32.unpack(data)
        return SetZoneLeds(frozenset(bit + 1 for bit in range(32) if mask >> bit & 1))
    if msg_type is MsgType.HELLO:
        _exact(msg_type, data, _HELLO.size)
        major, minor, patch, features, capability, zones, max_stack, beat, board_id = (
            _HELLO.unpack(data))
        return Hello((major, minor, patch), Features(features),
                     Capability(capability) if capability else None, zones, max_stack, beat,
                     board_id)
    if msg_type in (MsgType.SNAPSHOT, MsgType.ZONE_CHANGE):
        return _decode_zones(msg_type, data)
    if msg_type is MsgType.SET_STACKS:
        count, at = data[0], 1
        stacks = []
        for _ in range(count):
            reading, at = _decode_reading(Capability.STACKS, data, at)
            stacks.append(reading.stack or "")
        _exact(msg_type, data, at)
        return SetStacks(tuple(stacks))
    if msg_type is MsgType.ACK:
        _exact(msg_type, data, 2)
        return Ack(data[0], AckStatus(data[1]))
    _exact(msg_type, data, _DIE.size)
    die_id, status, face, battery, throw = _DIE.unpack(data)
    return DieReport(die_id, DieStatus(status), face or None, battery, throw)


ReadingOf = Callable[[int, bytes], ZoneReading]
"""Makes the reading of one zone from its capability's wire code and its bytes."""


@lru_cache(maxsize=4096)
def zone_reading(capability: int, data: bytes) -> ZoneReading:
    """The reading whose wire form, at a capability's wire code, is `data` (bytes `split_zones`
    found well-formed): made once, then shared by every frame that carries it."""
    return _decode_reading(Capability(capability), data, 0)[0]


_CAPABILITIES = (None, *Capability)
"""Each capability at its wire code."""


def split_zones(snapshot: bool, data: bytes,
                reading: ReadingOf) -> tuple[int, int, int, tuple[ZoneReading, ...]] | None:
    """A SNAPSHOT's (`snapshot`) or a ZONE_CHANGE's payload: its scan, capability code, count (a
    ZONE_CHANGE's zone) and each zone's reading, made by `reading` from its bytes; None when the
    payload is malformed in any way (`_decode_zones` then says how). The reference of the
    compiled frame path (drivers/_frames.c `zones`)."""
    if len(data) < _SCAN.size or not Capability.COUNTS <= data[2] <= Capability.STACKS:
        return None
    scan, capability, count = _SCAN.unpack_from(data)
    at, cuts = _SCAN.size, []
    for _ in range(count if snapshot else 1):
        size = _reading_size(capability, data, at)
        if size is None:
            return None
        cuts.append((at, at + size))
        at += size
    if at != len(data):
        return None
    return scan, capability, count, tuple(reading(capability, data[start:end]) for start, end in cuts)


def _reading_size(capability: int, data: bytes, at: int) -> int | None:
    """The size of the reading at `data[at:]` (`encode_reading`), None when it is not one."""
    if capability == Capability.COUNTS:
        return 1 if at < len(data) else None
    if capability == Capability.COLOR_COUNTS:
        return 2 if at + 1 < len(data) else None
    if at >= len(data):
        return None
    height = data[at]
    size = (height + 7) // 8
    if at + 1 + size > len(data) or height % 8 and data[at + size] >> height % 8:  # a colour above the top
        return None
    return 1 + size


def _decode_zones(msg_type: MsgType, data: bytes) -> Snapshot | ZoneChange:
    """A SNAPSHOT (every zone) or a ZONE_CHANGE (one zone: the header's count is the zone's number)."""
    scan, capability_code, count = _SCAN.unpack_from(data)
    capability = Capability(capability_code)
    at = _SCAN.size
    readings = []
    for _ in range(count if msg_type is MsgType.SNAPSHOT else 1):
        reading, at = _decode_reading(capability, data, at)
        readings.append(reading)
    _exact(msg_type, data, at)
    if msg_type is MsgType.SNAPSHOT:
        return Snapshot(scan, capability, tuple(readings))
    return ZoneChange(scan, count, readings[0])


_check: Callable[[bytes], tuple[int, int, int, bytes] | int] = check_frame
_zones: Callable[[bool, bytes, ReadingOf], tuple[int, int, int, tuple[ZoneReading, ...]] | None] = split_zones
if _compiled is not None:
    _check, _zones = _compiled.check, _compiled.zones
