"""What a board builder's firmware meets on the link: a late heartbeat is pinged before the link is
declared down, every count of what went wrong is told (rate-limited) and carried by the link's
events, unknown message types are counted apart, commands whose ACK is missing or refusing are
followed up, and a STACKS board is told the order of its stacks (SET_STACKS)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator

import pytest

from drivers.board import ACK_TIMEOUT, BoardSensor
from drivers.clock import ManualClock
from drivers.events import CommandFailed, Event, EventQueue, LinkDown, LinkStatistics, LinkUp, ZoneChanged
from drivers.link import HEARTBEAT_MISSES, STATS_INTERVAL, SerialLink
from drivers.protocol import AckStatus, Frame, encode_frame
from firmware_host.emulator.board import BoardEmulator
from game.zones import Capability

_names = itertools.count()
Make = Callable[..., tuple[BoardEmulator, BoardSensor]]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(100.0)


@pytest.fixture
def board_of(clock: ManualClock) -> Iterator[Make]:
    made: list[tuple[BoardEmulator, BoardSensor]] = []

    def make(zones: tuple[str, ...] | None = None, **options: object) -> tuple[BoardEmulator, BoardSensor]:
        name = f"health-{next(_names)}"
        extra = {"zones": zones} if zones is not None else {}
        emulator = BoardEmulator(clock=clock, name=name, rng=random.Random(3), **extra, **options)  # type: ignore[arg-type]
        board = BoardSensor(f"emulator://{name}", clock=clock)
        board.connect(1.0)
        board.poll(0)
        made.append((emulator, board))
        return emulator, board

    yield make
    for emulator, board in made:
        board.close()
        emulator.close()


def drain(events: EventQueue) -> list[Event]:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def run(board: BoardSensor, seconds: float, step: float = 0.05) -> list[Event]:
    seen: list[Event] = []
    for _ in range(round(seconds / step)):
        board.poll(step)
        seen += drain(board.events)
    return seen


def test_a_late_heartbeat_is_pinged_and_a_board_whose_heartbeat_comes_back_stays_up(
        board_of: Make, clock: ManualClock) -> None:
    emulator, board = board_of()
    drain(board.events)
    emulator.heartbeat_stopped = True  # a heartbeat that stalls for two periods, then beats again
    seen = run(board, 2.2)
    emulator.heartbeat_stopped = False
    seen += run(board, 4 * HEARTBEAT_MISSES)
    assert not [e for e in seen if isinstance(e, LinkDown)] and board.link.is_up
    assert board.link.stats().late_heartbeats == 1  # pinged once, at 1.5 periods of silence


def test_a_board_that_answers_a_ping_but_streams_nothing_is_said_hello_again(
        board_of: Make, clock: ManualClock) -> None:
    """A board that restarted (its power dropped, its cable in) answers PINGs and is quiet until it
    is said HELLO again: a PONG is no heartbeat. After 3 periods the link is down, and the host says
    HELLO again; a firmware whose heartbeat timer died is treated so too."""
    emulator, board = board_of()
    drain(board.events)
    emulator.restart()
    seen = run(board, 2 * HEARTBEAT_MISSES)
    [down] = [e for e in seen if isinstance(e, LinkDown)]
    assert "a PING answered but nothing streamed" in down.reason and down.stats is not None
    assert [e for e in seen if isinstance(e, LinkUp)] and board.link.is_up
    assert emulator.port().received["HelloRequest"] == 2 and board.link.stats().connects == 2
    emulator.heartbeat_stopped = True  # a firmware whose heartbeat timer died, still answering
    [down] = [e for e in run(board, 2 * HEARTBEAT_MISSES) if isinstance(e, LinkDown)]
    assert "a PING answered but nothing streamed" in down.reason
    run(board, 1.0)  # said HELLO again: up, and still without a heartbeat
    late = board.link.stats().late_heartbeats
    emulator.unplug()  # now nothing answers: down after 3 silent periods, the PING unanswered
    [down] = [e for e in run(board, 2 * HEARTBEAT_MISSES) if isinstance(e, LinkDown)]
    assert "a PING unanswered" in down.reason
    assert down.stats is not None and down.stats.late_heartbeats == late + 1


def test_the_counts_of_what_went_wrong_are_told_when_they_change_at_most_every_few_seconds(
        board_of: Make, clock: ManualClock) -> None:
    emulator, board = board_of()
    drain(board.events)
    quiet = run(board, 3.0)
    assert not [e for e in quiet if isinstance(e, LinkStatistics)], "nothing went wrong: nothing to tell"
    emulator.line_noise = 0.5
    seen = run(board, 30.0)
    told = [e for e in seen if isinstance(e, LinkStatistics)]
    assert len(told) >= 3
    assert all(b.timestamp - a.timestamp >= STATS_INTERVAL for a, b in itertools.pairwise(told))
    assert all(a.stats.problems() != b.stats.problems() for a, b in itertools.pairwise(told))
    last = told[-1].stats
    assert last.garbage_bytes + last.bad_crc + last.cut_frames > 0 and last.seq_gaps > 0
    assert last.describe().startswith(f"{last.frames} frames, {last.garbage_bytes} garbage bytes")


def test_a_message_type_the_host_does_not_know_is_counted_apart(board_of: Make) -> None:
    emulator, board = board_of()
    port = emulator.port()
    port.send_raw(encode_frame(Frame(1, 1, 0x9F, b"\x01\x02")))  # a firmware's own message type
    board.poll(0.05)
    stats = board.link.stats()
    assert (stats.unknown_types, stats.malformed) == (1, 0)


def test_a_missing_or_refusing_ack_of_zone_leds_is_followed_up_and_counted(board_of: Make) -> None:
    emulator, board = board_of()
    emulator.led_ack = AckStatus.UNSUPPORTED  # announces ZONE_LEDS, then refuses them
    assert board.light_zones({3})
    board.poll(0.05)
    [refused] = [e for e in drain(board.events) if isinstance(e, CommandFailed)]
    assert (refused.command, refused.outcome, refused.count) == ("SET_ZONE_LEDS", "UNSUPPORTED", 1)
    emulator.led_ack = None  # forgets the ACK altogether
    assert board.light_zones({4})
    seen = run(board, ACK_TIMEOUT + 1.5)
    [missing] = [e for e in seen if isinstance(e, CommandFailed)]
    assert (missing.command, missing.outcome) == ("SET_ZONE_LEDS", "no ACK")
    assert board.failed == {("SET_ZONE_LEDS", "UNSUPPORTED"): 1, ("SET_ZONE_LEDS", "no ACK"): 1}
    emulator.led_ack = AckStatus.OK
    assert board.light_zones({5})
    assert not [e for e in run(board, ACK_TIMEOUT + 1.5) if isinstance(e, CommandFailed)]


def test_a_stacks_board_is_told_the_order_it_cannot_sense(board_of: Make) -> None:
    mixed = ("wb",) + ("",) * 27  # a black checker trapping a white one, set down by hand
    emulator, board = board_of(mixed)
    snapshot = board.latest
    assert snapshot is not None and snapshot.zone(1).stack == "bw"  # whites above blacks at power-up
    assert board.set_stacks(mixed)
    changes = [e for e in run(board, 0.2) if isinstance(e, ZoneChanged)]
    assert [(c.zone, c.reading.stack) for c in changes] == [(1, "wb")]
    assert not board.failed
    assert board.set_stacks(("ww",) + ("",) * 27)  # colours the board does not sense there
    [conflict] = [e for e in run(board, 0.2) if isinstance(e, CommandFailed)]
    assert (conflict.command, conflict.outcome) == ("SET_STACKS", "CONFLICT")


def test_a_board_without_stack_order_is_not_sent_set_stacks(board_of: Make) -> None:
    _, old = board_of(stack_order=False)
    assert not old.set_stacks(("",) * 28)
    _, counts = board_of(capability=Capability.COUNTS)
    assert not counts.set_stacks(("",) * 28)


def test_link_events_carry_the_counts(clock: ManualClock) -> None:
    name = f"health-{next(_names)}"
    emulator = BoardEmulator(clock=clock, name=name)
    link = SerialLink(f"emulator://{name}", clock=clock)
    link.connect(1.0)
    emulator.unplug()
    events: list[Event] = []
    while not any(isinstance(e, LinkDown) for e in events):
        link.poll(0.1)
        events += drain(link.events)
    up, down = events[0], events[-1]
    assert isinstance(up, LinkUp) and up.stats is not None and up.stats.connects == 1
    assert isinstance(down, LinkDown) and down.stats is not None and down.stats.frames >= 1
    link.close()
    emulator.close()
