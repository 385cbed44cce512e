"""The compiled frame path (drivers/_frames.c) against its pure-Python reference (drivers/protocol.py's
`check_frame` and `split_zones`): the same frames, readings, counts and rejection messages on random,
garbled and cut streams; it is in use where it was built (under CI=true it must be), and a build of
another interface is refused, saying so."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from needs import require
from repo import ROOT

from drivers import protocol
from drivers.errors import DriverConfigError, ProtocolError
from drivers.protocol import (
    BAD_CRC,
    CUT,
    GARBAGE,
    PROTOCOL_VERSION,
    Frame,
    FrameReader,
    Message,
    MsgType,
    Snapshot,
    ZoneChange,
    check_frame,
    cobs_encode,
    decode_message,
    describe_frame_path,
    encode_frame,
    encode_message,
    frame_paths,
    split_zones,
    use_frame_path,
    zone_reading,
)
from game.zones import MAX_STACK, ZONE_COUNT, Capability, ZoneReading

HINT = "a C compiler and Python's headers, then pip install -e . (setup.py builds drivers/_frames.c)"


@pytest.fixture(scope="module")
def compiled() -> Iterator[ModuleType]:
    require("the compiled frame path", "compiled" in frame_paths(), HINT)
    assert protocol._compiled is not None
    yield protocol._compiled


def readings(capability: Capability) -> st.SearchStrategy[ZoneReading]:
    stacks = st.text(alphabet="wb", max_size=MAX_STACK)
    return stacks.map(lambda stack: ZoneReading.of_stack(stack).at(capability))


@st.composite
def zone_messages(draw: st.DrawFn) -> Snapshot | ZoneChange:
    capability = draw(st.sampled_from(list(Capability)))
    scan = draw(st.integers(0, 0xFFFF))
    if draw(st.booleans()):
        return ZoneChange(scan, draw(st.integers(0, 255)), draw(readings(capability)))
    return Snapshot(scan, capability, tuple(draw(st.lists(readings(capability), max_size=ZONE_COUNT + 2))))


def garbled(data: bytes, edits: list[tuple[int, int]]) -> bytes:
    """`data` with bytes flipped (value 1-255), removed (0) or inserted (256 + byte)."""
    out = bytearray(data)
    for where, value in edits:
        at = where % (len(out) + 1)
        if 1 <= value <= 255 and at < len(out):
            out[at] ^= value
        elif value == 0:
            del out[at:at + 1]
        elif value > 255:
            out.insert(at, value - 256)
    return bytes(out)


edits = st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 511)), max_size=6)


def outcome(payload_type: int, payload: bytes) -> Message | str:
    """What decoding a frame of this type and payload gives: the message, or the error's class and text."""
    try:
        return decode_message(Frame(PROTOCOL_VERSION, 0, payload_type, payload))
    except ProtocolError as error:
        return f"{type(error).__name__}: {error}"


def read(stream: bytes, cuts: list[int]) -> tuple[list[Frame], object]:
    reader = FrameReader()
    frames: list[Frame] = []
    start = 0
    for cut in sorted(cut % (len(stream) + 1) for cut in cuts) + [len(stream)]:
        frames += reader.feed(stream[start:cut])
        start = cut
    return frames, reader.stats


@given(st.lists(zone_messages(), min_size=1, max_size=5), edits, st.lists(st.integers(0, 5000), max_size=4))
def test_both_paths_read_the_same_frames_from_a_garbled_stream(
        compiled: ModuleType, sent: list[Message], changes: list[tuple[int, int]], cuts: list[int]) -> None:
    stream = garbled(b"".join(encode_message(message, seq) for seq, message in enumerate(sent)), changes)
    with use_frame_path("pure"):
        pure = read(stream, cuts)
    with use_frame_path("compiled"):
        assert read(stream, cuts) == pure


@given(st.binary(max_size=1200))
def test_both_paths_judge_any_bytes_between_delimiters_alike(compiled: ModuleType, candidate: bytes) -> None:
    assert compiled.check(candidate) == check_frame(candidate)


@given(st.sampled_from(list(MsgType)), st.integers(0, 255), st.binary(max_size=1100), edits)
def test_both_paths_judge_a_garbled_frame_alike(
        compiled: ModuleType, msg_type: MsgType, seq: int, payload: bytes, changes: list[tuple[int, int]]) -> None:
    candidate = garbled(encode_frame(Frame(PROTOCOL_VERSION, seq, msg_type, payload))[1:-1], changes)
    if candidate:
        assert compiled.check(candidate) == check_frame(candidate)


@given(zone_messages(), edits)
def test_both_paths_decode_a_zone_payload_to_the_same_message_or_the_same_error(
        compiled: ModuleType, message: Snapshot | ZoneChange, changes: list[tuple[int, int]]) -> None:
    body = encode_message(message, 0)
    frame = FrameReader().feed(body)[0]
    payload = garbled(frame.payload, changes)
    for snapshot in (True, False):
        assert compiled.zones(snapshot, payload, zone_reading) == split_zones(snapshot, payload, zone_reading)
    with use_frame_path("pure"):
        pure = outcome(frame.type, payload)
    with use_frame_path("compiled"):
        assert outcome(frame.type, payload) == pure
    if payload == frame.payload:
        assert pure == message


def test_the_rejections_are_told_by_kind(compiled: ModuleType) -> None:
    frame = encode_frame(Frame(PROTOCOL_VERSION, 3, MsgType.PONG, b"\x00\x00\x00\x07"))[1:-1]
    corrupted = bytes([*frame[:-1], frame[-1] ^ 0x40])
    for candidate, expected in ((b"\x01\x01", GARBAGE), (frame[:-2], CUT), (corrupted, BAD_CRC),
                                (cobs_encode(bytes(1100)), GARBAGE)):
        assert check_frame(candidate) == compiled.check(candidate) == expected, candidate.hex(" ")
    assert compiled.check(frame) == (PROTOCOL_VERSION, 3, MsgType.PONG, b"\x00\x00\x00\x07")


def test_a_malformed_zone_payload_is_refused_with_the_same_words_on_both_paths(compiled: ModuleType) -> None:
    stack_too_short = bytes([0, 1, Capability.STACKS, 5, 9, 0xFF])  # 9 checkers need 2 bytes of colours
    for path in frame_paths():
        with use_frame_path(path):
            assert outcome(MsgType.ZONE_CHANGE, stack_too_short) == (
                "MalformedMessage: type 0x83 payload 00 01 03 05 09 ff: stack of 9 needs 3 bytes, 2 left")
            assert outcome(MsgType.SNAPSHOT, bytes([0, 1, 7, 0])) == (
                "MalformedMessage: type 0x82 payload 00 01 07 00: 7 is not a valid Capability")


def test_the_compiled_frame_path_is_in_use_where_it_was_built() -> None:
    require("the compiled frame path", "compiled" in frame_paths(), HINT)
    assert describe_frame_path() == "compiled frame path (drivers/_frames.c)"
    with use_frame_path("pure"):
        assert describe_frame_path() == "pure-Python frame path (chosen)"
    assert describe_frame_path() == "compiled frame path (drivers/_frames.c)"


def test_a_frame_path_not_here_is_refused_in_one_line() -> None:
    with pytest.raises(DriverConfigError, match=r"^no 'fast' frame path here \(have pure"), use_frame_path("fast"):
        pass


def test_a_build_of_another_interface_is_refused_and_the_pure_path_used() -> None:
    stale = ("import sys, types\n"
             "old = types.ModuleType('drivers._frames'); old.ABI = 0\n"
             "sys.modules['drivers._frames'] = old\n"
             "from drivers.protocol import FrameReader, Ping, describe_frame_path, encode_message, frame_paths\n"
             "print(frame_paths(), FrameReader().feed(encode_message(Ping(7), 1))[0].seq)\n"
             "print(describe_frame_path())\n")
    done = subprocess.run([sys.executable, "-c", stale], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ), check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("('pure',) 1\npure-Python frame path (the compiled frame path was built from another "
                           "_frames.c (interface 0, this host needs 1): build it again (pip install -e .))\n")
