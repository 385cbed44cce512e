"""End to end over a pseudo-terminal: emulator -> tty -> driver thread -> events."""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable

import pytest

from drivers.board import BoardSensor
from drivers.dice import Dice
from drivers.events import DieState, Event, EventQueue, LinkDown, LinkUp, SensorSnapshot, ZoneChanged
from drivers.link import Backoff
from drivers.protocol import DieStatus
from firmware_host.emulator.board import BoardEmulator
from game.zones import ZONES, Capability, ZoneReading

pytestmark = pytest.mark.pty

HANG_GUARD = 60.0  # seconds: only to fail instead of hanging on a loaded machine; nothing is timed


def wait_for(events: EventQueue, wanted: Callable[[Event], bool]) -> list[Event]:
    """Events up to and including the first one `wanted`."""
    seen: list[Event] = []
    give_up = time.monotonic() + HANG_GUARD
    while time.monotonic() < give_up:
        try:
            seen.append(events.get(timeout=0.1))
        except queue.Empty:
            continue
        if wanted(seen[-1]):
            return seen
    raise AssertionError(f"no wanted event within {HANG_GUARD} s; saw {seen}")


def host_view(events: list[Event], view: dict[int, ZoneReading]) -> bool:
    """What a controller knows after these events: snapshots replace, changes patch."""
    for event in events:
        if isinstance(event, SensorSnapshot):
            view.update(zip(ZONES, event.zones, strict=True))
        elif isinstance(event, ZoneChanged):
            view[event.zone] = event.reading
    return False


@pytest.mark.parametrize("capability", list(Capability))
def test_noisy_board_over_a_pty_with_the_cable_pulled_and_replugged(
        capability: Capability) -> None:
    emu = BoardEmulator(capability=capability, heartbeat_ms=100, line_noise=0.05,
                        flicker_rate=0.02, rng=random.Random(capability))
    path = emu.open_pty()
    assert path.startswith("/dev/")
    view: dict[int, ZoneReading] = {}
    with BoardSensor(path, backoff=Backoff(0.02, 2, 0.2), reply_timeout=0.3) as board:
        dice = Dice(board.link)
        board.start()
        seen = wait_for(board.events, lambda e: isinstance(e, SensorSnapshot))
        assert isinstance(seen[0], LinkUp) and seen[0].hello.capability is capability
        host_view(seen, view)

        emu.slide(13, 8)
        emu.move(1, 5)
        emu.roll(5, 2)
        seen = wait_for(board.events, lambda e: isinstance(e, DieState) and e.face == 2)
        host_view(seen, view)

        emu.unplug()
        seen = wait_for(board.events, lambda e: isinstance(e, LinkDown))
        host_view(seen, view)
        emu.move(24, 20)  # moved while the cable is out
        emu.replug()
        seen = wait_for(board.events, lambda e: isinstance(e, SensorSnapshot))
        assert any(isinstance(e, LinkUp) for e in seen)
        host_view(seen, view)

        emu.line_noise = emu.flicker_rate = 0.0
        truth = {zone: ZoneReading.of_stack(s).at(capability)
                 for zone, s in zip(ZONES, emu.zones(), strict=True)}
        # changes lost to noise are made good by the next heartbeat snapshot that differs
        wait_for(board.events, lambda e: host_view([e], view) or view == truth)
        snapshot = board.request_snapshot(timeout=2.0)
        states = [(s.status, s.face) for s in dice.states()]
        stats = board.link.stats()
    emu.close()
    assert dict(zip(ZONES, snapshot.zones, strict=True)) == truth
    assert states == [(DieStatus.SETTLED, 5), (DieStatus.SETTLED, 2)]
    assert stats.connects >= 2


def test_a_dead_board_is_reported_and_retried_without_crashing() -> None:
    emu = BoardEmulator(heartbeat_ms=100)
    path = emu.open_pty()
    emu.unplug()  # powered off before the host starts
    with BoardSensor(path, backoff=Backoff(0.02, 2, 0.1), reply_timeout=0.1) as board:
        board.start()
        [down] = wait_for(board.events, lambda e: isinstance(e, LinkDown))
        assert isinstance(down, LinkDown)
        assert down.reason == "no HELLO within 0.1 s of HELLO_REQUEST"
        while board.link.stats().failures < 3:
            time.sleep(0.02)
        emu.replug()
        seen = wait_for(board.events, lambda e: isinstance(e, SensorSnapshot))
    emu.close()
    assert [type(e) for e in seen] == [LinkUp, SensorSnapshot]


def test_dice_on_their_own_pty() -> None:
    emu = BoardEmulator(dice="own port", heartbeat_ms=100)
    with Dice(emu.open_pty("dice")) as dice:
        dice.start()
        first = wait_for(dice.events, lambda e: isinstance(e, DieState))
        emu.roll(4, 3)
        seen = wait_for(dice.events, lambda e: isinstance(e, DieState) and e.face == 3)
        emu.cock(0)
        seen += wait_for(dice.events, lambda e: isinstance(e, DieState))
    emu.close()
    assert isinstance(first[0], LinkUp) and first[0].hello.capability is None
    die0 = [(e.status, e.face) for e in seen
            if isinstance(e, DieState) and e.die_id == 0xD1CE0001]
    assert die0 == [(DieStatus.ROLLING, None), (DieStatus.SETTLED, 4), (DieStatus.COCKED, None)]
