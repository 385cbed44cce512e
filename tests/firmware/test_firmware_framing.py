"""The firmware's framing (firmware/src/frame.c) and its sensing arithmetic (sensing.c), compiled
for this machine with gcc and called through ctypes, against the host's own encoder and reader
(`drivers.protocol`): the same bytes both ways, the same judgement of every broken piece."""

from __future__ import annotations

import ctypes
import random
import zlib
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from needs import require

from drivers.protocol import (
    Frame,
    FrameReader,
    HelloRequest,
    Ping,
    SetZoneLeds,
    cobs_decode,
    cobs_encode,
    encode_frame,
    encode_message,
)
from firmware_host.emulator.simavr_board import APT_PACKAGES, FRAMING_LIBRARY, build, missing_tools

pytestmark = pytest.mark.subprocess

FRAME_OK, FRAME_GARBAGE, FRAME_CUT, FRAME_BAD_CRC = range(4)


class CFrame(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint8), ("seq", ctypes.c_uint8), ("type", ctypes.c_uint8),
                ("length", ctypes.c_uint16), ("payload", ctypes.POINTER(ctypes.c_uint8))]


@pytest.fixture(scope="module")
def firmware() -> Iterator[ctypes.CDLL]:
    require("the firmware toolchain", not missing_tools(), f"apt-get install {APT_PACKAGES}")
    library = ctypes.CDLL(str(build(FRAMING_LIBRARY)))
    library.crc32.restype = ctypes.c_uint32
    library.cobs_encode.restype = ctypes.c_uint16
    library.cobs_decode_in_place.restype = ctypes.c_uint16
    library.frame_encode.restype = ctypes.c_uint16
    library.frame_decode.restype = ctypes.c_int
    for flag in (library.sensing_sample, library.sensing_power_up, library.sensing_tare_moved):
        flag.restype = ctypes.c_uint8  # C's uint8_t: ctypes' default int would read the register's other bits
    library.sensing_milligrams.restype = ctypes.c_int32
    library.sensing_power_up.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_uint8, ctypes.c_int32,
                                         ctypes.c_uint8]
    yield library


def buffer(data: bytes, size: int | None = None) -> ctypes.Array[ctypes.c_uint8]:
    made = (ctypes.c_uint8 * max(1, size if size is not None else len(data)))()
    ctypes.memmove(made, data, len(data))
    return made


def firmware_frame(library: ctypes.CDLL, seq: int, msg_type: int, payload: bytes) -> bytes:
    body = buffer(b"", len(payload) + 9)
    wire = buffer(b"", len(payload) + 9 + (len(payload) + 9) // 254 + 3)
    length = library.frame_encode(seq, msg_type, buffer(payload), len(payload), body, wire)
    return bytes(wire[:length])


def firmware_judges(library: ctypes.CDLL, piece: bytes) -> tuple[int, Frame | None]:
    frame, decoded = CFrame(), buffer(piece)  # the payload points into `decoded`: it must live on
    status = library.frame_decode(decoded, len(piece), ctypes.byref(frame))
    if status != FRAME_OK:
        return status, None
    return status, Frame(frame.version, frame.seq, frame.type, bytes(frame.payload[:frame.length]))


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=700))
def test_crc_and_cobs_are_the_hosts(firmware: ctypes.CDLL, data: bytes) -> None:
    assert firmware.crc32(buffer(data), len(data)) == zlib.crc32(data)
    out = buffer(b"", len(data) + len(data) // 254 + 2)
    encoded = bytes(out[:firmware.cobs_encode(buffer(data), len(data), out)])
    assert encoded == cobs_encode(data)
    complete = ctypes.c_uint8()
    decoded = buffer(encoded)
    assert bytes(decoded[:firmware.cobs_decode_in_place(decoded, len(encoded), ctypes.byref(complete))]) == data
    assert complete.value == 1


@settings(max_examples=300, deadline=None)
@given(seq=st.integers(0, 255), msg_type=st.integers(0, 255), payload=st.binary(max_size=600))
def test_a_frame_is_the_same_bytes_both_ways(firmware: ctypes.CDLL, seq: int, msg_type: int, payload: bytes) -> None:
    wire = firmware_frame(firmware, seq, msg_type, payload)
    assert wire == encode_frame(Frame(1, seq, msg_type, payload))
    status, frame = firmware_judges(firmware, wire[1:-1])
    assert status == FRAME_OK and frame == Frame(1, seq, msg_type, payload)


def test_the_hosts_requests_as_the_firmware_reads_them(firmware: ctypes.CDLL) -> None:
    for seq, message, msg_type, payload in ((0, HelloRequest(), 0x01, b""), (7, Ping(42), 0x03, bytes([0, 0, 0, 42])),
                                            (4, SetZoneLeds(frozenset({8, 13})), 0x04, bytes([0, 0, 0x10, 0x80]))):
        status, frame = firmware_judges(firmware, encode_message(message, seq)[1:-1])
        assert status == FRAME_OK and frame == Frame(1, seq, msg_type, payload)


def host_judges(piece: bytes) -> int:
    """What the host's reader makes of one piece between delimiters."""
    reader = FrameReader()
    frames = reader.feed(b"\x00" + piece + b"\x00")
    stats = reader.stats
    if frames:
        return FRAME_OK
    if stats.bad_crc:
        return FRAME_BAD_CRC
    if stats.cut_frames:
        return FRAME_CUT
    assert stats.garbage_bytes == len(piece), stats
    return FRAME_GARBAGE


@settings(max_examples=500, deadline=None)
@given(seed=st.integers(0, 2**32), payload=st.binary(max_size=40))
def test_a_broken_piece_is_judged_as_the_host_judges_it(firmware: ctypes.CDLL, seed: int, payload: bytes) -> None:
    rng = random.Random(seed)
    piece = bytearray(encode_frame(Frame(1, rng.randrange(256), 0x83, payload))[1:-1])
    match rng.choice(("flip", "cut", "garbage", "append")):
        case "flip":
            at = rng.randrange(len(piece))
            piece[at] = (piece[at] ^ rng.randint(1, 255)) or 1  # a 00 would split it: another case
        case "cut":
            del piece[rng.randrange(1, len(piece)):]
        case "garbage":
            piece = bytearray(rng.randint(1, 255) for _ in range(rng.randint(1, 30)))
        case "append":
            piece += bytes(rng.randint(1, 255) for _ in range(rng.randint(1, 5)))
    assert firmware_judges(firmware, bytes(piece))[0] == host_judges(bytes(piece))


def test_cobs_decoding_a_cut_piece_keeps_what_the_host_keeps(firmware: ctypes.CDLL) -> None:
    for piece in (bytes([5, 1, 2]), bytes([3, 1, 2, 9, 4]), bytes([1, 1, 200])):
        complete = ctypes.c_uint8()
        decoded = buffer(piece)
        length = firmware.cobs_decode_in_place(decoded, len(piece), ctypes.byref(complete))
        assert (bytes(decoded[:length]), bool(complete.value)) == cobs_decode(piece)


class ZoneSense(ctypes.Structure):
    """firmware/src/sensing.h's zone_sense_t."""

    _fields_ = [("tare", ctypes.c_int32), ("kept_tare", ctypes.c_int32), ("previous_sample", ctypes.c_int32),
                ("counts_per_gram", ctypes.c_uint16),
                ("count", ctypes.c_uint8), ("candidate", ctypes.c_uint8), ("still_scans", ctypes.c_uint16)]


COUNTS_PER_GRAM = 420
PLATE = 25_000  # raw counts of an empty plate


def tared_zone(firmware: ctypes.CDLL) -> ZoneSense:
    zone = ZoneSense()
    firmware.sensing_init(ctypes.byref(zone), COUNTS_PER_GRAM)
    firmware.sensing_tare(ctypes.byref(zone), PLATE * 16, 16)
    return zone


def weigh(firmware: ctypes.CDLL, zone: ZoneSense, grams: float) -> bool:
    """One sample of `grams` on the plate; whether the firmware reports a new count."""
    return bool(firmware.sensing_sample(ctypes.byref(zone), PLATE + round(grams * COUNTS_PER_GRAM)))


def test_a_count_is_reported_once_it_holds_for_two_scans(firmware: ctypes.CDLL) -> None:
    zone = tared_zone(firmware)
    assert [weigh(firmware, zone, 0.0) for _ in range(3)] == [False] * 3
    reported = [weigh(firmware, zone, 3 * 14.1) for _ in range(4)]
    assert reported.index(True) >= 1 and reported.count(True) == 1 and zone.count == 3
    # a hand knocking the plate for one sample: the count does not hold for two scans
    assert not weigh(firmware, zone, 3 * 14.1 + 60) and not weigh(firmware, zone, 3 * 14.1)
    assert not weigh(firmware, zone, 3 * 14.1) and zone.count == 3


@pytest.mark.parametrize(("grams", "count"), [(6.9, 0), (7.1, 1), (13.0, 1), (20.9, 1), (21.1, 2),
                                              (30 * 14.2, 30), (30 * 13.8, 30), (-40.0, 0)])
def test_mass_is_rounded_to_checkers_of_14_grams(firmware: ctypes.CDLL, grams: float, count: int) -> None:
    zone = tared_zone(firmware)
    for _ in range(3):
        weigh(firmware, zone, grams)
    assert zone.count == count


def test_an_empty_zone_that_drifted_is_tared_again_once_still_for_ten_seconds(firmware: ctypes.CDLL) -> None:
    zone = tared_zone(firmware)
    for _ in range(799):
        weigh(firmware, zone, 3.0)  # the plate crept by 3 g: still zero checkers
    assert zone.tare == PLATE and zone.count == 0
    weigh(firmware, zone, 3.0)  # 800 scans at 80 a second
    assert abs(zone.tare - (PLATE + 3 * COUNTS_PER_GRAM)) <= 2
    # a checker of 13.8 g on the drifted plate: without the re-tare it would read 16.8 g, still 1,
    # but its mass is now measured from the right zero
    for _ in range(3):
        weigh(firmware, zone, 3.0 + 13.8)
    assert zone.count == 1
    assert firmware.sensing_milligrams(ctypes.byref(zone), PLATE + round(16.8 * COUNTS_PER_GRAM)) == \
        pytest.approx(13_800, abs=5)


def powered_up(firmware: ctypes.CDLL, grams: float, kept: int | None) -> tuple[ZoneSense, bool]:
    """A zone at power-up weighing `grams` over PLATE, with the tare EEPROM kept (None: none kept);
    whether the firmware asks for its tare to be kept."""
    zone = ZoneSense()
    firmware.sensing_init(ctypes.byref(zone), COUNTS_PER_GRAM)
    raw = PLATE + round(grams * COUNTS_PER_GRAM)
    keep = firmware.sensing_power_up(ctypes.byref(zone), raw * 16, 16, PLATE if kept is None else kept,
                                     kept is not None)
    return zone, bool(keep)


@pytest.mark.parametrize(("grams", "kept", "tare", "keep"), [
    (0.0, None, PLATE, True),                                   # the first power-up: tared and kept
    (1.5, PLATE, PLATE + 630, False),                           # the empty plate, near the kept tare
    (3.0, PLATE, PLATE + 1260, True),                           # it crept past 2 g: the new tare kept
    (-9.0, PLATE, PLATE - 3780, True),                          # lighter than kept: tared as it reads
    (6.9, PLATE, PLATE + round(6.9 * COUNTS_PER_GRAM), True),   # under half a checker: a tare, not a checker
    (5 * 14.1, PLATE, PLATE, False),                            # five checkers on it: a restart mid-game
])
def test_the_power_up_tare_comes_from_the_plate_or_from_the_tare_kept(
        firmware: ctypes.CDLL, grams: float, kept: int | None, tare: int, keep: bool) -> None:
    zone, asked = powered_up(firmware, grams, kept)
    assert (zone.tare, asked) == (tare, keep)
    assert zone.kept_tare == (tare if keep else kept)  # what EEPROM holds once the firmware wrote it


def test_a_zone_with_checkers_at_power_up_counts_them_from_the_kept_tare(firmware: ctypes.CDLL) -> None:
    zone, _ = powered_up(firmware, 3 * 13.9 + 1.0, PLATE)  # three checkers, the plate crept a gram
    assert zone.count == 3  # counted at power-up: the first SNAPSHOT says so
    for _ in range(3):
        weigh(firmware, zone, 3 * 13.9 + 1.0)
    assert zone.count == 3
    # had the firmware tared them away, the zone would read empty, and a checker lifted would be -1
    for _ in range(3):
        weigh(firmware, zone, 2 * 13.9 + 1.0)
    assert zone.count == 2


def test_a_re_tare_past_two_grams_is_one_to_keep_once(firmware: ctypes.CDLL) -> None:
    zone = tared_zone(firmware)
    assert not firmware.sensing_tare_moved(ctypes.byref(zone))
    for _ in range(800):
        weigh(firmware, zone, 1.5)  # re-tared by 1.5 g: not worth an EEPROM write
    assert zone.tare != PLATE and not firmware.sensing_tare_moved(ctypes.byref(zone))
    for _ in range(800):
        weigh(firmware, zone, 3.0)  # 3 g from the kept tare
    assert firmware.sensing_tare_moved(ctypes.byref(zone))
    assert zone.kept_tare == zone.tare and not firmware.sensing_tare_moved(ctypes.byref(zone))


def test_a_zone_reading_below_its_tare_is_tared_again_once_still_for_ten_seconds(firmware: ctypes.CDLL) -> None:
    """A tare taken with two checkers on the zone (a board switched on set up), the checkers since
    lifted: the plate reads 28 g below its tare, so one checker put back would read -14 g, none."""
    zone = tared_zone(firmware)
    weigh(firmware, zone, -28.0)  # the checkers lifted: still from the next scan on
    for _ in range(799):
        weigh(firmware, zone, -28.0)
    assert zone.tare == PLATE and zone.count == 0
    weigh(firmware, zone, -28.0)  # 800 scans still, 10 s at 80 a second
    assert abs(zone.tare - (PLATE - 28 * COUNTS_PER_GRAM)) <= 2
    for _ in range(3):
        weigh(firmware, zone, -28.0 + 14.1)
    assert zone.count == 1


def test_a_zone_below_its_tare_but_moving_is_not_tared_again(firmware: ctypes.CDLL) -> None:
    zone = tared_zone(firmware)
    for scan in range(2000):
        weigh(firmware, zone, -28.0 if scan % 400 else -10.0)  # knocked every 5 s
    assert zone.tare == PLATE
