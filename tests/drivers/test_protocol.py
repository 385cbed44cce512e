"""The wire protocol from bytes alone: COBS, frames, messages, the resynchronising reader."""

from __future__ import annotations

import pytest

from drivers.errors import MalformedMessage, ProtocolError, UnsupportedVersion
from drivers.protocol import (
    Ack,
    AckStatus,
    DiceRequest,
    DieReport,
    DieStatus,
    Features,
    Frame,
    FrameReader,
    Hello,
    HelloRequest,
    Message,
    MsgType,
    Ping,
    Pong,
    SetZoneLeds,
    Snapshot,
    SnapshotRequest,
    ZoneChange,
    cobs_decode,
    cobs_encode,
    decode_message,
    encode_frame,
    encode_message,
)
from game.zones import Capability, ZoneReading

COBS_VECTORS = [  # the examples of Cheshire & Baker's COBS paper, as listed on Wikipedia
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    (bytes(range(2, 256)) + b"\x00", b"\xff" + bytes(range(2, 256)) + b"\x01\x01"),
    (bytes(range(3, 256)) + b"\x00\x01", b"\xfe" + bytes(range(3, 256)) + b"\x02\x01"),
]


@pytest.mark.parametrize(("data", "encoded"), COBS_VECTORS)
def test_cobs_matches_the_published_vectors(data: bytes, encoded: bytes) -> None:
    assert cobs_encode(data) == encoded
    assert cobs_decode(encoded) == (data, True)


def test_cobs_decode_of_a_cut_input_is_partial() -> None:
    assert cobs_decode(b"\x05\x11\x22") == (b"\x11\x22", False)


def test_ping_frame_byte_by_byte() -> None:
    # body 01 07 03 0004 0000002a + crc32 e4647c7f, then COBS and the two delimiters
    wire = encode_message(Ping(42), seq=7)
    assert wire.hex(" ") == "00 04 01 07 03 02 04 01 01 06 2a e4 64 7c 7f 00"
    assert FrameReader().feed(wire) == [Frame(1, 7, MsgType.PING, bytes.fromhex("0000002a"))]


STACKS_SNAPSHOT = Snapshot(
    scan=513, capability=Capability.STACKS,
    zones=tuple(ZoneReading.of_stack(s) for s in ["ww", "", "b" * 15 + "w" * 15, "bww"] * 7))

MESSAGES: list[Message] = [
    HelloRequest(), SnapshotRequest(), DiceRequest(), Ping(0xDEADBEEF), Pong(1),
    SetZoneLeds(frozenset({1, 13, 28})), SetZoneLeds(frozenset()),
    Hello((1, 2, 3), Features.ZONES | Features.DICE, Capability.STACKS, 28, 30, 1000, 0xB0A4D),
    Hello((0, 9, 0), Features.DICE, None, 0, 0, 500, 7),
    STACKS_SNAPSHOT,
    Snapshot(2, Capability.COUNTS, tuple(ZoneReading.of_count(n) for n in range(28))),
    Snapshot(3, Capability.COLOR_COUNTS,
             tuple(ZoneReading.of_colours(n % 3, n % 5) for n in range(28))),
    ZoneChange(65535, 13, ZoneReading.of_stack("bwwbw")),
    ZoneChange(0, 27, ZoneReading.of_colours(15, 0)),
    ZoneChange(9, 1, ZoneReading.of_count(0)),
    Ack(200, AckStatus.UNSUPPORTED),
    DieReport(0x01020304, DieStatus.SETTLED, 6, 87),
    DieReport(2, DieStatus.COCKED, None, 0),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_survives_the_wire(message: Message) -> None:
    [frame] = FrameReader().feed(encode_message(message, seq=5))
    assert frame.seq == 5
    assert decode_message(frame) == message


def test_stack_bits_are_lsb_first_bottom_up_and_one_is_black() -> None:
    wire = encode_message(ZoneChange(1, 8, ZoneReading.of_stack("bwwbw" + "w" * 4 + "b")), 0)
    [frame] = FrameReader().feed(wire)
    # scan 0001, STACKS, zone 8, height 10, bits 0b1000001001 little-endian
    assert frame.payload.hex(" ") == "00 01 03 08 0a 09 02"


def test_worst_case_snapshot_is_156_bytes_on_the_wire() -> None:
    tall = Snapshot(0, Capability.STACKS, (ZoneReading.of_stack("wb" * 15),) * 28)
    assert len(encode_message(tall, 0)) == 156


@pytest.mark.parametrize(("msg_type", "payload", "complaint"), [
    (MsgType.PING, b"\x00\x01", "PING payload is 2 bytes, not 4"),
    (MsgType.HELLO_REQUEST, b"\x00", "HELLO_REQUEST payload is 1 bytes, not 0"),
    (0x7E, b"", "no message type of protocol version 1"),
    (MsgType.ZONE_CHANGE, bytes.fromhex("0001 03 05 02 04"), "colour bits 0x4 set above"),
    (MsgType.ZONE_CHANGE, bytes.fromhex("0001 03 05 09 ff"), "stack of 9 needs 3 bytes"),
    (MsgType.SNAPSHOT, bytes.fromhex("0001 04 00"), "4 is not a valid Capability"),
    (MsgType.SNAPSHOT, bytes.fromhex("0001 01 02 05"), "index out of range"),
    (MsgType.DIE_REPORT, bytes.fromhex("00000001 01 03 50 0000"), "ROLLING die cannot show face 3"),
    (MsgType.DIE_REPORT, bytes.fromhex("00000001 02 07 50 0000"), "die face 7 is not 1..6"),
    (MsgType.DIE_REPORT, bytes.fromhex("00000001 02 01 65 0000"), "battery 101% is not 0..100"),
])
def test_malformed_payloads_are_refused_with_the_bytes(
        msg_type: int, payload: bytes, complaint: str) -> None:
    with pytest.raises(MalformedMessage, match=complaint) as caught:
        decode_message(Frame(1, 0, msg_type, payload))
    assert isinstance(caught.value, ValueError)
    assert f"type {msg_type:#04x} payload {payload.hex(' ')}" in str(caught.value)


def test_another_protocol_version_is_refused() -> None:
    with pytest.raises(UnsupportedVersion, match="version 2, this host speaks 1"):
        decode_message(Frame(2, 0, MsgType.HELLO_REQUEST, b""))


def test_messages_that_cannot_be_encoded_are_refused() -> None:
    with pytest.raises(ProtocolError, match="within 1..32"):
        encode_message(SetZoneLeds(frozenset({33})), 0)
    with pytest.raises(ProtocolError, match="256 checkers"):
        encode_message(ZoneChange(0, 1, ZoneReading.of_count(256)), 0)
    with pytest.raises(ProtocolError, match="another kind of reading"):
        encode_message(Snapshot(0, Capability.STACKS, (ZoneReading.of_count(1),)), 0)
    with pytest.raises(ProtocolError, match="exceeds 1024"):
        encode_frame(Frame(1, 0, MsgType.PING, bytes(1025)))


# ---------------------------------------------------------------- the reader


def frames_of(*messages: Message) -> list[bytes]:
    return [encode_message(message, seq) for seq, message in enumerate(messages)]


def test_reader_takes_a_stream_one_byte_at_a_time() -> None:
    wire = b"".join(frames_of(*MESSAGES))
    reader = FrameReader()
    frames = [frame for i in range(len(wire)) for frame in reader.feed(wire[i:i + 1])]
    assert [decode_message(frame) for frame in frames] == MESSAGES
    assert reader.stats.frames == len(MESSAGES)
    assert reader.stats.seq_gaps == reader.stats.rejected == reader.stats.garbage_bytes == 0


def test_reader_resynchronises_after_garbage_and_counts_it() -> None:
    first, second = frames_of(Pong(1), Pong(2))
    reader = FrameReader()
    frames = reader.feed(b"\x13\x37\xff" + first + b"line noise" + second)
    assert [decode_message(frame) for frame in frames] == [Pong(1), Pong(2)]
    assert reader.stats.garbage_bytes == 3 + len(b"line noise")


def test_reader_counts_a_cut_frame_and_keeps_the_next() -> None:
    first, second = frames_of(Pong(1), Pong(2))
    reader = FrameReader()
    frames = reader.feed(first[:9] + second)
    assert [decode_message(frame) for frame in frames] == [Pong(2)]
    assert reader.stats.cut_frames == 1
    assert reader.stats.rejected == 1


def test_reader_counts_a_corrupted_frame_as_bad_crc() -> None:
    wire = bytearray(encode_message(Pong(1), 0))
    wire[-2] ^= 0x40  # the CRC's last byte
    reader = FrameReader()
    assert reader.feed(bytes(wire)) == []
    assert reader.stats.bad_crc == 1


def test_reader_counts_sequence_gaps_and_hello_restarts_the_sequence() -> None:
    wire = [encode_message(Pong(n), seq) for n, seq in enumerate([0, 1, 3, 4, 200])]
    wire.append(encode_message(Hello((1, 0, 0), Features.ZONES, Capability.COUNTS, 28, 15,
                                     1000, 1), 0))
    wire.append(encode_message(Pong(9), 1))
    reader = FrameReader()
    assert len(reader.feed(b"".join(wire))) == 7
    assert reader.stats.seq_gaps == 2


def test_sequence_wraps_from_255_to_0_without_a_gap() -> None:
    reader = FrameReader()
    reader.feed(encode_message(Pong(0), 255) + encode_message(Pong(1), 0))
    assert reader.stats.seq_gaps == 0


def test_reader_drops_an_endless_run_without_delimiters_as_garbage() -> None:
    reader = FrameReader()
    for _ in range(10):
        assert reader.feed(b"\x01" * 1000) == []
    assert reader.feed(b"\x00" + encode_message(Pong(5), 0)) != []
    assert reader.stats.garbage_bytes == 10_000


def test_reset_counts_a_partial_frame_as_garbage_and_forgets_the_sequence() -> None:
    reader = FrameReader()
    reader.feed(encode_message(Pong(0), 10) + b"\x00\x05\x01\x02")
    reader.reset()
    reader.feed(encode_message(Pong(1), 0))
    assert reader.stats.garbage_bytes == 3
    assert reader.stats.seq_gaps == 0
