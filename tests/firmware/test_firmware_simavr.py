"""The reference firmware (firmware/), unmodified, running instruction by instruction in simavr on its
board model (`firmware_host.emulator.simavr_board`): the host talks to it over a pseudo-terminal exactly as to
a real Arduino Mega on /dev/ttyACM0. The self-test passes against it, and a whole short match is
refereed on it: the simulated people move the checkers through the model's control channel, the
host's roll button throws the dice, a wrong play is flagged and corrected, and the record validates.

Nothing is timed: every wait is for a state, with a guard that fails instead of hanging.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from gpiozero.pins.mock import MockFactory
from needs import require
from pty_tables import Terminal, answer_buttons, config, pump

from drivers.board import BoardSensor
from drivers.events import ButtonKind, Event, LinkDown, LinkUp, Player
from drivers.pinmap import DEFAULT_BUTTON_PINS, ROLL_BUTTON_PIN
from drivers.protocol import (
    Ack,
    AckStatus,
    Features,
    FrameReader,
    Hello,
    HelloRequest,
    Ping,
    Pong,
    SetZoneLeds,
    Snapshot,
    SnapshotRequest,
    ZoneChange,
    decode_message,
    encode_frame,
    encode_message,
)
from drivers.protocol import Frame as WireFrame
from firmware_host.controller import Controller
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.simavr_board import APT_PACKAGES, TARE_SECONDS, SimavrBoard, missing_tools
from firmware_host.record.journal import Journal
from firmware_host.settings import Settings
from firmware_host.table import Table
from game.board import Color, Variant
from game.hands import hand_moves
from game.plays import Play
from game.position import Position
from game.zones import Capability, layout, sensed_view

pytestmark = [pytest.mark.subprocess, pytest.mark.pty]

Answer = TypeVar("Answer")
HANG_GUARD = 60.0
"""Seconds: only to fail instead of hanging on a loaded machine; nothing is timed."""
START = tuple(len(stack) for stack in layout(Position.initial(Variant.BACKGAMMON)))


@pytest.fixture
def boards() -> Iterator[Callable[..., SimavrBoard]]:
    require("the firmware toolchain and simavr", not missing_tools(), f"apt-get install {APT_PACKAGES}")
    made: list[SimavrBoard] = []

    def make(counts: tuple[int, ...] = START, **options: Any) -> SimavrBoard:
        made.append(SimavrBoard(counts, **options))
        return made[-1]

    yield make
    for board in made:
        board.close()


def test_the_self_test_passes_against_the_firmware_in_simavr(tmp_path: Path,
                                                             boards: Callable[..., SimavrBoard]) -> None:
    board = boards()
    path = config(tmp_path, board.path, dice={"source": "roll button"}, board={"reply_seconds": 2})
    terminal = Terminal("check", "--config", str(path), "--seconds", "1", "--dwell", "0.01",
                        "--button-seconds", "20", cwd=tmp_path)
    try:
        handshake = terminal.read_until(r"handshake +(pass|FAIL)")
        assert "protocol version 1, board 0x4d470001, firmware 1.1.0, capability COUNTS" in handshake, handshake
        assert "features ZONES ZONE_LEDS" in handshake
        answer_buttons(terminal)
        terminal.read_until("press the roll button ")
        terminal.type(" ")
        assert terminal.finish() == 0, terminal.output[-3000:]
    finally:
        terminal.close()
    summary = terminal.output[terminal.output.index("summary:"):]
    for part in ("handshake", "fits the configuration", "link counts", "board at the start", "zone LEDs",
                 "display", "buttons"):
        assert re.search(rf"{part} +pass", summary), summary
    assert "all passed" in summary
    assert board.lit_zones() == frozenset()  # the check lit each zone in turn, then all off


def test_requests_garbage_and_the_zone_leds_on_the_wire(boards: Callable[..., SimavrBoard]) -> None:
    """The firmware's answers as bytes: resynchronised after garbage, a bad request refused, the LEDs lit."""
    board = boards()
    port = os.open(board.path, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(port)
    reader = FrameReader()
    got: list[object] = []

    def exchange(wire: bytes, until: Callable[[], bool]) -> None:
        os.write(port, wire)
        give_up = time.monotonic() + HANG_GUARD
        while not until():
            assert time.monotonic() < give_up, got
            try:
                data = os.read(port, 4096)
            except BlockingIOError:
                continue
            got.extend(decode_message(frame) for frame in reader.feed(data))

    try:
        os.set_blocking(port, False)
        # garbage, a frame cut short and a bad CRC before the request: only the request is answered
        good = encode_message(HelloRequest(), 0)
        corrupt = bytearray(encode_message(Ping(1), 1))
        corrupt[-3] ^= 0x55
        exchange(b"\x00\x13\x37\xff\x42" + good[:7] + bytes(corrupt) + good,
                 lambda: any(isinstance(m, Hello) for m in got))
        hello = next(m for m in got if isinstance(m, Hello))
        assert Features.ZONES in hello.features and hello.capability is Capability.COUNTS
        exchange(encode_message(SetZoneLeds(frozenset({8, 13})), 5), lambda: any(isinstance(m, Ack) for m in got))
        assert [m for m in got if isinstance(m, Ack)] == [Ack(5, AckStatus.OK)]
        assert board.lit_zones() == frozenset({8, 13})
        # a PING without its token: a frame with a good CRC that makes no sense
        exchange(encode_frame(WireFrame(1, 6, 0x03, b"\x01")), lambda: len([m for m in got if isinstance(m, Ack)]) == 2)
        assert [m for m in got if isinstance(m, Ack)][-1] == Ack(6, AckStatus.BAD_REQUEST)
        exchange(encode_frame(WireFrame(1, 7, 0x05, b"")), lambda: len([m for m in got if isinstance(m, Ack)]) == 3)
        assert [m for m in got if isinstance(m, Ack)][-1] == Ack(7, AckStatus.UNSUPPORTED)  # no dice on the MCU
        exchange(encode_message(Ping(0xC0FFEE), 8), lambda: any(isinstance(m, Pong) for m in got))
        assert [m for m in got if isinstance(m, Pong)] == [Pong(0xC0FFEE)]
        landed = board.place(20)
        exchange(b"", lambda: any(isinstance(m, ZoneChange) and m.zone == 20 for m in got))
        change = next(m for m in got if isinstance(m, ZoneChange) and m.zone == 20)
        assert change.reading.count == 1
        assert landed > 0
    finally:
        os.close(port)
    assert reader.stats.bad_crc == reader.stats.cut_frames == reader.stats.seq_gaps == 0


# -- a whole match refereed on the simulated board -------------------------------------------------------

class Referee:
    """The table's controller reading the simulated board through a real `Table`, and the people at it."""

    def __init__(self, board: SimavrBoard, record: Path) -> None:
        self.board = board
        self.pins = MockFactory()
        self.table = Table.open(board.path, dice="roll button", pin_factory=self.pins, reply_timeout=2.0)
        settings = Settings(variant=Variant.BACKGAMMON, length=1, settle_seconds=0.1)
        self.controller = Controller.new(settings, Journal(record), display=self.table.display,
                                         zone_leds=self.table.board.light_zones)
        self.handled: list[Event] = []
        self.table.start()

    def pump(self, done: Callable[[], bool], what: str) -> None:
        pump(self.table, self.controller, self.handled, done, what, pause=0.005)

    def waiting(self, *waiting: Waiting) -> Waiting:
        self.pump(lambda: self.controller.prompt.waiting in waiting, " or ".join(w.value for w in waiting))
        return self.controller.prompt.waiting

    def press(self, player: Player | None, button: ButtonKind | None = None) -> None:
        """A player's button, or (None) the roll button."""
        number = ROLL_BUTTON_PIN if player is None or button is None else DEFAULT_BUTTON_PINS[player, button]
        pin = self.pins.pin(number)
        pin.drive_low()
        time.sleep(0.03)  # held past the button's debounce
        pin.drive_high()

    def settled_on(self, position: Position) -> None:
        view = sensed_view(position, Capability.COUNTS)
        self.pump(lambda: self.controller.stable == view, "settled on the board as it stands")

    def journal(self, kind: str | None = None) -> list[dict[str, Any]]:
        events = [json.loads(line) for line in self.controller.journal.path.read_text(encoding="utf-8").splitlines()]
        return [e for e in events if kind is None or e["type"] == kind]

    def close(self) -> None:
        self.table.close()
        self.controller.journal.close()


def moved_on(now: Callable[[], object], was: object) -> Callable[[], bool]:
    """Whether what `now` reads is no longer `was`."""
    return lambda: now() != was


def name(color: Color) -> Player:
    return "white" if color is Color.WHITE else "black"


def by_hand(board: SimavrBoard, before: Position, play: Play, *, rest_hand: bool = False) -> None:
    """The play's checkers moved by hand; `rest_hand`: the mover's other hand leans on the first
    source point for a moment (60 g: four checkers' worth), as players do."""
    if rest_hand:
        board.rest_hand(hand_moves(before, play.moves)[0].source, 60.0, 150)
    for step in hand_moves(before, play.moves):
        if step.source <= 24 and step.target <= 24 and abs(step.source - step.target) <= 3:
            board.slide(step.source, step.target)  # short moves are slid along the points
        else:
            board.move(step.source, step.target)


def plain_play(position: Position, dice: tuple[int, int]) -> Play:
    """The people play quickly and peaceably: never a hit when they can help it, else the play that
    takes the mover furthest home (so a game ends in a few dozen plays)."""
    mover = position.turn
    return min(position.legal_plays(dice),
               key=lambda p: (sum(m.hit for m in p.moves), p.after_moves.pip_count(mover)))


def wrong_step(before: Position, dice: tuple[int, int], play: Play) -> tuple[int, int, int] | None:
    """The play's last checker put down off its point (source, right target, wrong target), so that
    the board is no legal play of the roll."""
    *_, last = hand_moves(before, play.moves)
    legal = {tuple(len(s) for s in layout(p.after_moves)) for p in before.legal_plays(dice)}
    counts = list(len(s) for s in layout(play.after_moves))
    for wrong in (last.target + 1, last.target - 1, last.target + 2, last.target - 2):
        if last.target <= 24 and 1 <= wrong <= 24 and wrong != last.source:
            shifted = counts.copy()
            shifted[last.target - 1] -= 1
            shifted[wrong - 1] += 1
            if tuple(shifted) not in legal:
                return last.source, last.target, wrong
    return None


def test_a_short_match_refereed_end_to_end_on_the_firmware_in_simavr(tmp_path: Path,
                                                                      boards: Callable[..., SimavrBoard]) -> None:
    board = boards(noise_mg=100, drift_mg=5)
    referee = Referee(board, tmp_path / "record")
    try:
        referee.pump(lambda: any(isinstance(e, LinkUp) for e in referee.handled), "the board's handshake")
        link_up = next(e for e in referee.handled if isinstance(e, LinkUp))
        assert link_up.hello.capability is Capability.COUNTS and link_up.hello.board_id == 0x4D470001
        referee.waiting(Waiting.OPENING_ROLL)
        while (opening := referee.controller.prompt).waiting is Waiting.OPENING_ROLL:
            referee.press(None)  # the roll button: the host throws one die for each player (again on a tie)
            referee.pump(lambda: referee.controller.prompt != opening, "the opening roll")
        flagged, plays = False, 0
        while referee.waiting(Waiting.PLAY, Waiting.ROLL_OR_DOUBLE, Waiting.MATCH_OVER) is not Waiting.MATCH_OVER:
            prompt = referee.controller.prompt
            if prompt.waiting is Waiting.ROLL_OR_DOUBLE:
                referee.press(None)  # the roll button: the host throws
                referee.pump(moved_on(lambda: referee.controller.prompt, prompt), "the host's roll")
                continue
            before, dice, mover = referee.controller.match.position, prompt.dice, prompt.player
            assert dice is not None and mover is not None
            play = plain_play(before, dice)
            wrong = None if flagged else wrong_step(before, dice, play)
            if wrong is not None:
                source, target, off = wrong
                steps = hand_moves(before, play.moves)
                for step in steps[:-1]:
                    board.move(step.source, step.target)
                board.move(source, off)
                flags = len(referee.journal("flag"))
                time.sleep(0.3)  # the checkers come to rest before the mover presses done
                referee.press(name(mover), ButtonKind.DONE)
                referee.waiting(Waiting.CORRECT)
                assert len(referee.journal("flag")) == flags + 1 and referee.journal("play") == []
                board.move(off, target)  # the mover puts it right
                flagged = True
            else:
                by_hand(board, before, play, rest_hand=plays % 5 == 1)
            referee.settled_on(play.after_moves)
            referee.press(name(mover), ButtonKind.DONE)
            referee.pump(moved_on(lambda: referee.controller.match.position, before), "the play committed")
            assert referee.controller.match.position in (play.after_moves.pass_turn(), play.after_moves)
            plays += 1
        assert flagged and referee.controller.flags == 1
        match = referee.controller.match
        assert match.is_over and match.winner is not None and sum(match.score) >= 1
        assert 15 in board.counts()[26:]  # the winner's checkers all borne off, into its tray
        assert len(referee.journal("play")) == plays
        stats = referee.table.links[0].stats()
        # the firmware's heartbeat never late, nothing lost or garbled on the way (the host counted)
        assert (stats.late_heartbeats, stats.bad_crc, stats.cut_frames, stats.seq_gaps, stats.failures) == (0,) * 5
        assert stats.connects == 1
        rolls = referee.journal("roll")
        assert rolls and all(len(r["dice"]) == 2 for r in rolls)  # the host's dice, thrown by the roll button
    finally:
        referee.close()
    assert referee.journal("link")[0]["state"] == "up"
    validated = subprocess.run([sys.executable, "-m", "game", "validate", str(referee.controller.journal.path)],
                               capture_output=True, text=True, check=False)
    assert validated.returncode == 0, validated.stdout + validated.stderr


def test_a_match_goes_on_through_a_restart_of_the_board(tmp_path: Path, boards: Callable[..., SimavrBoard]) -> None:
    """The firmware restarts between two plays (a brown-out, the checkers on the board): the table
    sees the link go down and come back, finds the board as the game has it, and the next play is
    refereed as any other; the journal says what happened and validates."""
    board = boards()
    referee = Referee(board, tmp_path / "record")
    try:
        referee.waiting(Waiting.OPENING_ROLL)
        while (opening := referee.controller.prompt).waiting is Waiting.OPENING_ROLL:
            referee.press(None)
            referee.pump(lambda: referee.controller.prompt != opening, "the opening roll")
        for turn in range(2):
            if turn == 1:
                board.restart(20)
                referee.pump(lambda: any(isinstance(e, LinkDown) for e in referee.handled), "the link down")
                referee.pump(lambda: sum(isinstance(e, LinkUp) for e in referee.handled) == 2,
                             "the board said HELLO again")
                referee.settled_on(referee.controller.match.position)  # the checkers counted, not tared away
            if referee.waiting(Waiting.PLAY, Waiting.ROLL_OR_DOUBLE) is Waiting.ROLL_OR_DOUBLE:
                prompt = referee.controller.prompt
                referee.press(None)
                referee.pump(moved_on(lambda: referee.controller.prompt, prompt), "the host's roll")
            prompt = referee.controller.prompt
            before, dice, mover = referee.controller.match.position, prompt.dice, prompt.player
            assert dice is not None and mover is not None
            play = plain_play(before, dice)
            by_hand(board, before, play)
            referee.settled_on(play.after_moves)
            referee.press(name(mover), ButtonKind.DONE)
            referee.pump(moved_on(lambda: referee.controller.match.position, before), "the play committed")
        assert len(referee.journal("play")) == 2 and referee.controller.flags == 0
    finally:
        referee.close()
    links = referee.journal("link")
    assert [link["state"] for link in links] == ["up", "down", "up"]
    assert "a PING answered but nothing streamed" in links[1]["reason"]
    validated = subprocess.run([sys.executable, "-m", "game", "validate", str(referee.controller.journal.path)],
                               capture_output=True, text=True, check=False)
    assert "verdict: LEGAL so far" in validated.stdout, validated.stdout + validated.stderr  # two plays of a match


def test_a_converter_that_lost_its_wire_reads_empty_while_the_other_zones_scan_on(
        boards: Callable[..., SimavrBoard]) -> None:
    board = boards()
    with BoardSensor(board.path, reply_timeout=2.0) as sensor:
        sensor.start()
        give_up = time.monotonic() + HANG_GUARD
        while not sensor.link.is_up:
            assert time.monotonic() < give_up, "no handshake"
            time.sleep(0.01)
        assert sensor.request_snapshot(timeout=HANG_GUARD).zones[5].count == 5
        board.unplug(6)  # the 6-point's HX711: its data line stays high, "never ready"
        while (snapshot := sensor.request_snapshot(timeout=HANG_GUARD)).zones[5].count != 0:
            assert time.monotonic() < give_up, snapshot
        board.place(20)
        while (later := sensor.request_snapshot(timeout=HANG_GUARD)).zones[19].count != 1:
            assert time.monotonic() < give_up, later
        assert later.scan != snapshot.scan and later.zones[12].count == 5  # the others still weighed
        lit: set[bool] = set()
        while len(lit) < 2:  # the status LED blinks fast: an HX711 is not answering
            assert time.monotonic() < give_up, lit
            lit.add(board.status_led())
            time.sleep(0.01)


def test_a_board_that_restarts_mid_game_is_said_hello_again_and_counts_the_checkers_on_it(
        boards: Callable[..., SimavrBoard]) -> None:
    """A brown-out or a watchdog's reset with the checkers on the board and the cable in: the firmware
    answers PINGs and streams nothing until it is said HELLO again, and then counts the checkers it
    finds there from the tare it kept, not from a tare taken with them on."""
    board = boards()
    source = next(zone for zone, count in enumerate(START, 1) if count)
    target = next(zone for zone, count in enumerate(START, 1) if not count and zone <= 24)
    moved = list(START)
    moved[source - 1] -= 1
    moved[target - 1] += 1
    seen: list[Event] = []

    def counts() -> list[int]:
        return [reading.count for reading in sensor.request_snapshot(timeout=HANG_GUARD).zones]

    def until(done: Callable[[], bool], what: str) -> None:
        give_up = time.monotonic() + HANG_GUARD
        while not done():
            assert time.monotonic() < give_up, f"{what}: {seen[-5:]}"
            try:
                seen.append(sensor.events.get(timeout=0.05))
            except queue.Empty:
                pass

    with BoardSensor(board.path, reply_timeout=2.0) as sensor:
        sensor.start()
        until(lambda: sensor.link.is_up, "the handshake")
        board.move(source, target)  # a game under way
        until(lambda: counts() == moved, "the move read")
        board.restart(20)
        until(lambda: any(isinstance(e, LinkDown) for e in seen), "the link down")
        [down] = [e for e in seen if isinstance(e, LinkDown)]
        assert "a PING answered but nothing streamed" in down.reason
        until(lambda: isinstance(seen[-1], LinkUp), "HELLO again")
        assert counts() == moved, "the checkers on the board when it restarted"
        board.move(target, source)  # and the board goes on following the play
        until(lambda: counts() == list(START), "a move after the restart")
    assert sensor.link.stats().connects == 2


def test_a_board_starting_answers_once_it_has_weighed_its_zones_and_its_first_snapshot_counts_them(
        boards: Callable[..., SimavrBoard]) -> None:
    """A host asking while the firmware still tares after a restart gets no answer (it asks again),
    and the first SNAPSHOT tells the checkers on the board: never zones read empty because they
    have not been weighed yet."""
    board = boards()
    port = os.open(board.path, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(port)
    os.set_blocking(port, False)
    reader = FrameReader()
    asked = 0
    try:
        board.restart(0)
        give_up = time.monotonic() + HANG_GUARD
        while not (snapshots := [m for m in map(decode_message, reader.feed(read_all(port)))
                                 if isinstance(m, Snapshot)]):
            assert time.monotonic() < give_up, "no SNAPSHOT"
            os.write(port, encode_message(HelloRequest(), 0) + encode_message(SnapshotRequest(), 1))
            asked += 1
            board.wait_chip(0.02)
    finally:
        os.close(port)
    assert [reading.count for reading in snapshots[0].zones] == list(START)
    assert asked >= 5, "asked while the firmware tared (0.2 s), every 20 ms of the chip's time"


def read_all(port: int) -> bytes:
    """What the board has sent on the open pseudo-terminal `port` so far (non-blocking)."""
    try:
        return os.read(port, 65536)
    except BlockingIOError:
        return b""


def kept_tare(board: SimavrBoard, zone: int) -> tuple[int, bool]:
    """What EEPROM keeps of `zone`'s tare (firmware/src/board.h: five bytes a zone from byte 60, the
    tare's four little-endian, then its check byte) and whether its check byte matches it."""
    kept = board.eeprom(60 + 5 * (zone - 1), 5)
    check = kept[0] ^ kept[1] ^ kept[2] ^ kept[3] ^ 0x5A
    return int.from_bytes(kept[:4], "little", signed=True), kept[4] == check


def test_the_tares_are_kept_in_eeprom_and_a_re_tare_past_two_grams_is_kept_too(
        boards: Callable[..., SimavrBoard]) -> None:
    """What a restart counts from: written at power-up, and again when a plate has crept and been re-tared."""
    board = boards()
    empty = next(zone for zone, count in enumerate(START, 1) if not count)
    at_power_up, checked = kept_tare(board, empty)
    assert checked
    board.drift(empty, 3.0)  # within the re-tare's window: still empty, tared again after 10 s
    board.wait_chip(10.2)
    give_up = time.monotonic() + HANG_GUARD
    while (kept := kept_tare(board, empty)) == (at_power_up, True) or not kept[1]:
        assert time.monotonic() < give_up, "the re-tare was not kept"
        board.wait_chip(0.1)
    assert kept[0] - at_power_up == pytest.approx(3.0 * 420, abs=0.2 * 420)  # board.h's 420 counts a gram


def test_a_tare_half_written_when_the_power_went_is_not_trusted(boards: Callable[..., SimavrBoard]) -> None:
    """A kept tare whose check byte does not match (the power went between its bytes) is not taken
    for one: an empty zone is tared as it reads, never counted from a wrong tare."""
    board = boards()
    empty = next(zone for zone, count in enumerate(START, 1) if not count)
    tare, _ = kept_tare(board, empty)
    torn = (tare - 10 * 420).to_bytes(4, "little", signed=True)  # 10 g light: a checker, if trusted
    board.program_eeprom(60 + 5 * (empty - 1), torn[:2])  # the first two bytes of a new tare, no more
    board.restart()
    board.wait_chip(TARE_SECONDS)
    assert [reading.count for reading in snapshot_of(board).zones] == list(START)
    assert kept_tare(board, empty)[1], "the zone's tare written again, whole"


def answer_of(board: SimavrBoard, kind: type[Answer]) -> Answer:
    """The board's first answer of `kind` to a HELLO_REQUEST and a SNAPSHOT_REQUEST, as the firmware
    sends it, read from the model's log of the wire."""
    port = os.open(board.path, os.O_RDWR | os.O_NOCTTY)
    try:
        tty.setraw(port)
        board.frames()
        os.write(port, encode_message(HelloRequest(), 0) + encode_message(SnapshotRequest(), 1))
        give_up = time.monotonic() + HANG_GUARD
        while True:
            reader = FrameReader()
            for frame in board.frames():
                for message in reader.feed(b"\x00" + frame.wire + b"\x00"):
                    if isinstance(decoded := decode_message(message), kind):
                        return decoded
            assert time.monotonic() < give_up, f"no {kind.__name__}"
            time.sleep(0.05)
    finally:
        os.close(port)


def snapshot_of(board: SimavrBoard) -> Snapshot:
    """The board's SNAPSHOT as the firmware sends it."""
    return answer_of(board, Snapshot)


def test_the_board_id_is_read_as_make_board_id_writes_it(boards: Callable[..., SimavrBoard]) -> None:
    """`make board-id BOARD_ID=0x4D470002` has avrdude write the id big-endian into EEPROM bytes 0-3
    (firmware/Makefile); the firmware reads it at power-up and HELLO reports the same id."""
    board = boards()
    assert answer_of(board, Hello).board_id == 0x4D470001  # an erased EEPROM: the default id
    board.program_eeprom(0, bytes.fromhex("4d470002"))
    board.restart()
    board.wait_chip(TARE_SECONDS)  # a byte sent to a chip still starting is lost: a host asks again
    assert answer_of(board, Hello).board_id == 0x4D470002


def test_calibration_with_five_checkers_on_every_zone_counts_tall_stacks_right(
        boards: Callable[..., SimavrBoard]) -> None:
    # load cells within 6 % of the default scale: 15 checkers (210 g) can be off by 12 g, a checker
    uncalibrated = boards((15,) * 28, seed=3, gain_spread_pct=6)
    misread = [zone for zone, reading in enumerate(snapshot_of(uncalibrated).zones, 1) if reading.count != 15]
    assert misread, "the spread of the cells' scales should miscount some stack of 15 without calibration"
    calibrated = boards(seed=3, gain_spread_pct=6, hold_calibration=True)  # the same cells
    calibrated.calibrate()
    assert [reading.count for reading in snapshot_of(calibrated).zones] == [5] * 28
    calibrated.set_counts((15,) * 28)
    calibrated.wait_chip(0.2)
    assert [reading.count for reading in snapshot_of(calibrated).zones] == [15] * 28
    calibrated.restart()  # the scales and the tares kept in EEPROM: the stacks counted, not tared away
    calibrated.wait_chip(TARE_SECONDS)
    assert [reading.count for reading in snapshot_of(calibrated).zones] == [15] * 28
