"""Hypothesis fuzz of the frame reader and the message decoder."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from drivers.errors import ProtocolError
from drivers.protocol import (
    MAX_PAYLOAD,
    PROTOCOL_VERSION,
    Frame,
    FrameReader,
    MsgType,
    ZoneChange,
    decode_message,
    encode_frame,
    encode_message,
)
from game.zones import ZoneReading

frames = st.builds(
    Frame, st.just(PROTOCOL_VERSION), st.integers(0, 255), st.sampled_from(list(MsgType)),
    st.binary(max_size=300))


def feed_in_chunks(reader: FrameReader, wire: bytes, cuts: list[int]) -> list[Frame]:
    out: list[Frame] = []
    start = 0
    for cut in sorted(cut % (len(wire) + 1) for cut in cuts) + [len(wire)]:
        out += reader.feed(wire[start:cut])
        start = cut
    return out


def is_subsequence(found: list[Frame], sent: list[Frame]) -> bool:
    remaining = iter(sent)
    return all(any(frame == candidate for candidate in remaining) for frame in found)


@given(st.lists(st.tuples(st.binary(max_size=40), frames), max_size=8),
       st.lists(st.integers(0, 10_000), max_size=6))
def test_every_frame_between_garbage_is_recovered_in_order(
        pieces: list[tuple[bytes, Frame]], cuts: list[int]) -> None:
    wire = b"".join(garbage + encode_frame(frame) for garbage, frame in pieces)
    reader = FrameReader()
    assert feed_in_chunks(reader, wire, cuts) == [frame for _, frame in pieces]
    assert reader.stats.frames == len(pieces)


mutation = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10_000), st.integers(1, 255)),
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.integers(0, 255)),
    st.tuples(st.just("delete"), st.integers(0, 10_000), st.integers(1, 40)),
)


@given(st.lists(frames, min_size=1, max_size=6), st.lists(mutation, min_size=1, max_size=8),
       st.lists(st.integers(0, 10_000), max_size=6))
def test_mutated_streams_never_yield_a_frame_that_was_not_sent(
        sent: list[Frame], mutations: list[tuple[str, int, int]], cuts: list[int]) -> None:
    wire = bytearray(b"".join(encode_frame(frame) for frame in sent))
    for kind, where, value in mutations:
        at = where % (len(wire) + 1)
        if kind == "flip" and at < len(wire):
            wire[at] ^= value
        elif kind == "insert":
            wire.insert(at, value)
        elif kind == "delete":
            del wire[at:at + value]
    reader = FrameReader()
    found = feed_in_chunks(reader, bytes(wire), cuts)
    assert is_subsequence(found, sent)


@given(st.binary(max_size=3 * MAX_PAYLOAD), st.lists(st.integers(0, 10_000), max_size=6))
def test_random_bytes_never_crash_the_reader(noise: bytes, cuts: list[int]) -> None:
    reader = FrameReader()
    feed_in_chunks(reader, noise, cuts)
    stats = reader.stats
    assert stats.garbage_bytes + stats.rejected + stats.frames <= len(noise)


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=200))
def test_the_decoder_answers_any_frame_with_a_message_or_a_protocol_error(
        version: int, msg_type: int, payload: bytes) -> None:
    try:
        decode_message(Frame(version, 0, msg_type, payload))
    except ProtocolError:
        pass


@given(st.integers(1, 28), st.text(alphabet="wb", max_size=40), st.integers(0, 65535))
def test_any_stack_survives_the_wire(zone: int, stack: str, scan: int) -> None:
    message = ZoneChange(scan, zone, ZoneReading.of_stack(stack))
    [frame] = FrameReader().feed(encode_message(message, 3))
    assert decode_message(frame) == message
