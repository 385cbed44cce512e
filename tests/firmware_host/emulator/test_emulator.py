"""The emulator's physical model, its sensing imperfections, dice and URL scheme."""

from __future__ import annotations

import random

import pytest
import serial

from drivers.clock import ManualClock
from drivers.protocol import (
    Ack,
    AckStatus,
    DieStatus,
    Features,
    FrameReader,
    HelloRequest,
    SetStacks,
    SnapshotRequest,
    ZoneChange,
    decode_message,
    encode_message,
)
from firmware_host.emulator.board import STANDARD_START, BoardEmulator
from firmware_host.emulator.firmware import hello
from firmware_host.errors import ImpossibleAction
from game.zones import BLACK_BAR, WHITE_OFF, Capability, ZoneReading


def stacks(emulator: BoardEmulator) -> tuple[str | None, ...]:
    return tuple(reading.stack for reading in emulator.sensed())


def sensed_after_each_scan(emulator: BoardEmulator, zones: list[int], scans: int) -> list[
        list[str | None]]:
    out = []
    for _ in range(scans):
        emulator.scan()
        out.append([emulator.sensed()[zone - 1].stack for zone in zones])
    return out


def test_starts_from_the_given_position_and_checks_it() -> None:
    assert BoardEmulator().zones() == STANDARD_START
    assert STANDARD_START[23] == "ww" and STANDARD_START[0] == "bb"
    assert sum(map(len, STANDARD_START)) == 30
    with pytest.raises(ImpossibleAction, match="28 stacks"):
        BoardEmulator(["w"] * 27)
    with pytest.raises(ImpossibleAction, match="more than 30"):
        BoardEmulator(["w" * 31] + [""] * 27)


def test_lift_and_place_go_through_the_hand() -> None:
    emu = BoardEmulator()
    assert emu.lift(1) == "b" and emu.lift(13) == "w"
    assert emu.hand() == "bw"
    emu.place(BLACK_BAR)
    emu.place(WHITE_OFF, "w")
    assert emu.hand() == "b"
    emu.place(13)
    assert emu.zones()[12] == "wwwwb" and emu.zones()[BLACK_BAR - 1] == "w"
    with pytest.raises(ImpossibleAction, match="empty zone 2"):
        emu.lift(2)
    with pytest.raises(ImpossibleAction, match="nothing in hand"):
        emu.place(2)
    with pytest.raises(ImpossibleAction, match="zone 29 is not a zone id"):
        emu.place(29, "w")


def test_sensing_follows_the_truth_only_when_scanned() -> None:
    emu = BoardEmulator()
    emu.scan()
    emu.move(13, 8)
    assert emu.sensed()[7].stack == "www"
    emu.scan()
    assert emu.sensed()[7].stack == "wwww"


@pytest.mark.parametrize("capability", list(Capability))
def test_sensors_report_at_the_capability_level(capability: Capability) -> None:
    emu = BoardEmulator(["bww"] + [""] * 27, capability=capability)
    emu.scan()
    assert emu.sensed()[0] == ZoneReading.of_stack("bww").at(capability)


def test_a_slide_passes_over_each_point_between() -> None:
    emu = BoardEmulator()
    emu.scan()
    emu.slide(13, 9)
    assert sensed_after_each_scan(emu, [13, 12, 11, 10, 9], 5) == [
        ["wwww", "bbbbb", "", "", ""],
        ["wwww", "bbbbbw", "", "", ""],
        ["wwww", "bbbbb", "w", "", ""],
        ["wwww", "bbbbb", "", "w", ""],
        ["wwww", "bbbbb", "", "", "w"],
    ]
    assert emu.zones()[8] == "w" and emu.hand() == ""


def test_a_sliding_checker_picked_up_by_a_hand_is_never_sensed_twice() -> None:
    # a hand that sets a board right while a checker slides may take that checker from the
    # hand: the slide ends there (it used to go on being sensed over the points between, 31
    # checkers on the board, and its landing raised ValueError for a checker no longer held)
    emulator = BoardEmulator()
    emulator.slide(13, 8)
    emulator.place_from_hand(8, "w")
    assert emulator.hand() == ""
    for _ in range(8):
        emulator.scan()
        assert sum(reading.count for reading in emulator.sensed()) == 30
    assert emulator.zones()[12] == "wwww" and emulator.zones()[7] == "wwww"


def test_a_slide_over_a_point_that_changed_is_sensed_on_what_stands_there_now() -> None:
    emulator = BoardEmulator()
    emulator.slide(13, 10)  # passes 12 (five black) and 11 (empty)
    emulator.move(12, 11)   # a black checker moves meanwhile onto the point it will pass
    assert sensed_after_each_scan(emulator, [12, 11], 3) == [
        ["bbbb", "b"], ["bbbbw", "b"], ["bbbb", "bw"]]


def test_a_stack_being_straightened_misreads_then_reads_right() -> None:
    emu = BoardEmulator(["wwb"] + [""] * 27)
    emu.teach_stacks(["wwb"] + [""] * 27)
    emu.scan()
    emu.straighten(1)
    # the tilted top checker goes unseen for a scan; the top two swapped in the hand are not seen
    # at all: a STACKS board's order is what its MCU followed, not what a sensor sees
    assert sensed_after_each_scan(emu, [1], 3) == [["ww"], ["wwb"], ["wwb"]]


def test_flicker_lasts_the_given_scans() -> None:
    emu = BoardEmulator()
    emu.scan()
    emu.flicker(6, scans=2)
    emu.flicker(5, scans=1, sensed="bb")
    assert sensed_after_each_scan(emu, [6, 5], 3) == [
        ["wwww", "bb"], ["wwww", ""], ["wwwww", ""]]


def test_a_stuck_sensor_ignores_the_board_until_unstuck() -> None:
    emu = BoardEmulator()
    emu.stick(8)
    emu.move(8, 7)
    emu.scan()
    assert emu.sensed()[7].stack == "www"
    emu.unstick(8)
    emu.scan()
    assert emu.sensed()[7].stack == "ww"


def test_random_flicker_is_reproducible_from_the_seed() -> None:
    def run(seed: int) -> list[tuple[str | None, ...]]:
        emu = BoardEmulator(flicker_rate=0.3, rng=random.Random(seed))
        readings = []
        for _ in range(50):
            emu.scan()
            readings.append(stacks(emu))
        return readings

    assert run(5) == run(5)
    assert run(5) != run(6)
    assert any(readings != STANDARD_START for readings in run(5))


def test_dice_roll_then_land_or_cock() -> None:
    emu = BoardEmulator(rng=random.Random(1))
    assert [d.status for d in emu.dice_reports()] == [DieStatus.REMOVED] * 2
    emu.roll(6, 2, cocked={1}, rolling_scans=2)
    assert [d.status for d in emu.dice_reports()] == [DieStatus.ROLLING] * 2
    emu.scan()
    emu.scan()
    assert [(d.status, d.face) for d in emu.dice_reports()] == [
        (DieStatus.SETTLED, 6), (DieStatus.COCKED, None)]
    emu.settle(1, 4)
    emu.roll(rolling_scans=1)
    emu.scan()
    faces = [d.face for d in emu.dice_reports()]
    assert all(face is not None and 1 <= face <= 6 for face in faces)
    with pytest.raises(ImpossibleAction, match=r"cannot roll \(7, 1\)"):
        emu.roll(7, 1)
    with pytest.raises(ImpossibleAction, match="no die 2"):
        emu.cock(2)


def frames_from(emu: BoardEmulator, *requests: object) -> list[object]:
    port = emu.port()
    for seq, request in enumerate(requests):
        port.write_from_host(encode_message(request, seq))  # type: ignore[arg-type]
    return [decode_message(f) for f in FrameReader().feed(port.read_to_host(1 << 16))]


def test_the_firmware_streams_only_after_hello_and_not_while_unplugged() -> None:
    emu = BoardEmulator(clock=ManualClock())
    emu.move(13, 8)
    emu.scan()
    assert emu.port().pending() == 0
    assert [type(m).__name__ for m in frames_from(emu, HelloRequest())] == ["Hello"]
    emu.move(8, 7)
    emu.scan()
    changes = frames_from(emu)
    assert [(m.zone, m.reading.count) for m in changes if isinstance(m, ZoneChange)] == [
        (7, 1), (8, 3)]
    emu.unplug()
    emu.move(7, 6)
    emu.scan()
    assert frames_from(emu, SnapshotRequest()) == []


def test_same_seed_same_noisy_bytes() -> None:
    def wire(seed: int) -> bytes:
        emu = BoardEmulator(clock=ManualClock(), line_noise=0.5, rng=random.Random(seed))
        port = emu.port()
        port.write_from_host(encode_message(HelloRequest(), 0))
        for seq in range(1, 20):
            port.write_from_host(encode_message(SnapshotRequest(), seq))
        return port.read_to_host(1 << 16)

    assert wire(3) == wire(3)
    assert wire(3) != wire(4)
    reader = FrameReader()
    reader.feed(wire(3))
    assert 0 < reader.stats.frames < 20


def test_the_url_makes_a_named_emulator_once() -> None:
    import firmware_host.emulator.board  # noqa: F401  (registers the scheme)

    url = "emulator://url-test?capability=counts&dice=none&seed=4&heartbeat_ms=250"
    with serial.serial_for_url(url, timeout=0) as port:
        emu = BoardEmulator.named("url-test")
        assert emu is not None
        assert (emu.capability, emu.heartbeat_ms, emu.dice_reports()) == (
            Capability.COUNTS, 250, ())
        with pytest.raises(serial.SerialException, match="already open"):
            serial.serial_for_url("emulator://url-test")
        port.write(encode_message(HelloRequest(), 0))
        [hello_frame] = FrameReader().feed(port.read(100))
    with serial.serial_for_url("emulator://url-test") as again:
        assert BoardEmulator.named("url-test") is emu and again.is_open
    emu.close()
    assert BoardEmulator.named("url-test") is None
    assert decode_message(hello_frame) == hello(emu, emu.port().features)
    for bad, complaint in [("emulator://", "expected emulator://NAME"),
                           ("emulator://x?colour=red", r"unknown options \['colour'\]"),
                           ("emulator://y?capability=smell", "SMELL"),
                           ("emulator://z?port=dice", "no 'dice' port")]:
        with pytest.raises(serial.SerialException, match=complaint):
            serial.serial_for_url(bad)
    made_before_failing = BoardEmulator.named("z")
    assert made_before_failing is not None and BoardEmulator.named("y") is None
    made_before_failing.close()


def test_a_stacks_board_keeps_its_order_from_history_and_takes_the_hosts_stacks() -> None:
    """sensing.md: no sensor sees the order; the MCU follows the colours' changes, guesses whites
    above blacks at power-up, and takes the order the host tells it (SET_STACKS)."""
    mixed = ["wb", "bw", "w"] + [""] * 25
    emu = BoardEmulator(mixed)
    emu.scan()
    assert stacks(emu)[:3] == ("bw", "bw", "w")  # powered up: whites above blacks
    emu.place(3, "b")  # a checker put on top is seen on top
    emu.scan()
    assert stacks(emu)[2] == "wb"
    assert emu.teach_stacks(["wb", "bw", "wb"] + [""] * 25) is AckStatus.OK
    emu.scan()
    assert stacks(emu)[:3] == ("wb", "bw", "wb")
    # the host's order must have the colours the board senses: else nothing changes
    assert emu.teach_stacks(["ww", "bw", "wb"] + [""] * 25) is AckStatus.CONFLICT
    emu.scan()
    assert stacks(emu)[:3] == ("wb", "bw", "wb")
    emu.set_zones(["", "", "", "wb"] + [""] * 24)  # a whole stack put down between two scans
    emu.scan()
    assert stacks(emu)[:4] == ("", "", "", "bw")


def test_set_stacks_on_the_wire_is_acknowledged_and_the_changed_zones_reported() -> None:
    emu = BoardEmulator(["wb"] + [""] * 27, dice="none")
    port = emu.port()
    reader = FrameReader()
    port.write_from_host(encode_message(HelloRequest(), 0))
    emu.scan()
    port.write_from_host(encode_message(SetStacks(("wb",) + ("",) * 27), 1))
    emu.scan()
    messages = [decode_message(f) for f in reader.feed(port.read_to_host(4096))]
    assert Features.STACK_ORDER in messages[0].features  # type: ignore[union-attr]
    assert Ack(1, AckStatus.OK) in messages
    assert [m for m in messages if isinstance(m, ZoneChange)] == [ZoneChange(2, 1, ZoneReading.of_stack("wb"))]
    old = BoardEmulator(["wb"] + [""] * 27, dice="none", stack_order=False)  # a board before STACK_ORDER
    old.port().write_from_host(encode_message(HelloRequest(), 0))
    old.port().write_from_host(encode_message(SetStacks(("wb",) + ("",) * 27), 1))
    answers = [decode_message(f) for f in FrameReader().feed(old.port().read_to_host(4096))]
    assert Features.STACK_ORDER not in answers[0].features  # type: ignore[union-attr]
    assert answers[1] == Ack(1, AckStatus.UNSUPPORTED)
