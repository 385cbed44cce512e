"""A controller killed at any moment, and resumed from its journal.

The subprocess tests run the CLI as a user does (`python -m firmware_host simulate ... --record
DIR`), stop it with SIGSTOP once its journal shows the chosen moment (so the journal is read
while nothing writes to it), kill it with SIGKILL, and run the same command again on the same
DIR (through runpy, with logging switched on, where the test reads the controller's log). The
in-process tests crash a controller by dropping it (its journal left open, its serial
port and pins released as the OS would) and start a new one on the same journal directory, at
the same emulated board with its checkers as they stand.

Each match is a reproducible one-point match (a fixed seed): the moments are chosen in it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import precondition
from gpiozero.pins.mock import MockFactory
from repo import ROOT

from drivers.clock import SYSTEM_CLOCK
from drivers.events import ButtonKind, Player
from drivers.pinmap import DEFAULT_BUTTON_PINS
from firmware_host.controller import Controller
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.board import BoardEmulator
from firmware_host.emulator.people import Habits, SimulatedTable
from firmware_host.emulator.table import TICK, EmulatedTable
from firmware_host.record.journal import Journal
from firmware_host.record.signing import TableKey
from firmware_host.settings import Settings
from firmware_host.table import Table
from game.board import Color, Variant
from game.hands import Lift, Place, rearrangement
from game.position import Position
from game.reconcile import Partial, TurnReconciler
from game.validate import validate_file
from game.zones import Capability, layout, view_of

pytestmark = pytest.mark.subprocess

REPO = ROOT
HANG_GUARD = 120.0
"""Seconds: only to fail instead of hanging; nothing is timed."""
Events = list[dict[str, Any]]


def simulate(variant: Variant, seed: int, record: Path) -> list[str]:
    return [sys.executable, "-m", "firmware_host", "simulate", "--variant", variant.value, "--seed", str(seed),
            "--match-to", "1", "--record", str(record)]


def with_log(command: list[str]) -> list[str]:
    """The same `python -m firmware_host ...` command, with the controller's log on stderr."""
    assert command[1:3] == ["-m", "firmware_host"]
    return [command[0], "-c", "import logging, runpy; logging.basicConfig(level=logging.INFO, format='%(name)s: "
            "%(message)s'); runpy.run_module('firmware_host', run_name='__main__', alter_sys=True)", *command[3:]]


def events_of(data: bytes) -> Events:
    """The events of a journal's complete lines."""
    return [json.loads(line) for line in data[:data.rfind(b"\n") + 1].splitlines()]


def journal_events(record: Path) -> Events:
    return events_of((record / "journal.jsonl").read_bytes())


def kill_at(command: list[str], record: Path, moment: Callable[[Events], bool]) -> bytes:
    """Run `command` until its journal shows `moment`, then SIGKILL it: the journal's bytes then."""
    journal = record / "journal.jsonl"
    with open(record.parent / f"{record.name}.out", "wb") as out:
        process = subprocess.Popen(command, cwd=REPO, stdout=out, stderr=subprocess.STDOUT)
    give_up = time.monotonic() + HANG_GUARD
    try:
        while True:
            if journal.exists() and moment(events_of(journal.read_bytes())):
                os.kill(process.pid, signal.SIGSTOP)
                _, status = os.waitpid(process.pid, os.WUNTRACED)
                assert os.WIFSTOPPED(status), "the simulation ended before the moment to kill it"
                data = journal.read_bytes()  # nothing writes now
                if moment(events_of(data)):
                    assert data.endswith(b"\n")
                    os.kill(process.pid, signal.SIGKILL)
                    assert process.wait() == -signal.SIGKILL
                    return data
                os.kill(process.pid, signal.SIGCONT)  # moved past the moment meanwhile: wait for the next
            assert process.poll() is None, "the simulation ended before the moment to kill it"
            assert time.monotonic() < give_up, "the moment to kill never came"
            time.sleep(0.001)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=HANG_GUARD, check=False)


def assert_valid_and_finished(record: Path) -> None:
    done = run([sys.executable, "-m", "game", "validate", str(record / "journal.jsonl")])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verdict: LEGAL" in done.stdout and "not finished" not in done.stdout
    assert [e["type"] for e in journal_events(record)].count("match_end") == 1


def after_lines(count: int) -> Callable[[Events], bool]:
    return lambda events: len(events) >= count


def mid_turn(rolls: int) -> Callable[[Events], bool]:
    """The `rolls`-th roll is journaled and not yet played."""
    return lambda events: sum(e["type"] == "roll" for e in events) >= rolls and events[-1]["type"] == "roll"


def between_turns(plays: int) -> Callable[[Events], bool]:
    """At least `plays` plays are journaled, the last with its clock line: the next roll not yet thrown."""
    return lambda events: sum(e["type"] == "play" for e in events) >= plays and events[-1]["type"] == "clock"


@pytest.mark.parametrize(("variant", "seed", "moment"), [
    (Variant.RUNGAMMON, 14, after_lines(4)),
    (Variant.CATCHGAMMON, 3, between_turns(12)),
    (Variant.BACKGAMMON, 7, mid_turn(2)),
], ids=["rungammon-after-4-lines", "catchgammon-between-turns", "backgammon-mid-turn"])
def test_killed_then_the_same_command_resumes_and_finishes(tmp_path: Path, variant: Variant, seed: int,
                                                           moment: Callable[[Events], bool]) -> None:
    record = tmp_path / "record"
    command = simulate(variant, seed, record)
    before = kill_at(command, record, moment)
    done = run(with_log(command))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "finished: score" in done.stdout and "NOT finished" not in done.stdout
    assert_valid_and_finished(record)
    after = (record / "journal.jsonl").read_bytes()
    assert after.startswith(before)  # not a byte lost or changed
    new = events_of(after[len(before):])
    assert new[0]["type"] == "resume"
    # first the physical board is checked against the match (the emulator starts at a new board)
    log = [line.removeprefix("firmware_host.controller: ") for line in done.stderr.splitlines()
           if line.startswith("firmware_host.controller: ")]
    assert log[0].startswith(f"resumed from {record / 'journal.jsonl'}")
    assert log[1] == "set the board (checking the board)"
    killed = events_of(before)[-1]
    if killed["type"] == "roll":  # killed mid-turn: the roll stands and is played after the board is set
        first = next(e for e in new if e["type"] in ("roll", "opening_roll", "play"))
        assert (first["type"], first["player"], first["dice"]) == ("play", killed["player"], killed["dice"])
        prompts = [line for line in log[2:] if ": " in line
                   and not line.startswith(("link", "resumed", "display:", "zone LEDs:", "told the board",
                                            "the emulated board injects"))]
        dice = "".join(sorted(map(str, killed["dice"]), reverse=True))  # the higher die first
        assert prompts[0] == f"{killed['player']}: play {dice}", log[:6]


def test_a_line_cut_by_a_kill_mid_write_is_moved_aside_by_the_same_command(tmp_path: Path) -> None:
    record = tmp_path / "record"
    command = simulate(Variant.BACKGAMMON, 7, record)
    with precondition():
        before = kill_at(command, record, after_lines(8))
    last = before.rstrip(b"\n").rfind(b"\n") + 1
    kept, cut = before[:last], before[last:-1][:-7]  # the kill came 8 bytes before the end of the last line
    (record / "journal.jsonl").write_bytes(kept + cut)
    done = run(command)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (record / "journal.cut").read_bytes() == cut + b"\n"
    assert_valid_and_finished(record)
    after = (record / "journal.jsonl").read_bytes()
    assert after.startswith(kept) and events_of(after[len(kept):])[0]["type"] == "resume"


def step_until(table: EmulatedTable, until: Callable[[], bool], *, people: bool = True) -> None:
    """Step the emulated table (with or without its simulated people acting) until `until()`."""
    for _ in range(int(3600 / TICK)):  # an hour of table time: only to fail instead of hanging
        if until():
            return
        if people:
            table.step()
        else:
            table.clock.advance(TICK)
            table.table.poll()
            for event in table.table.drain():
                table.controller.handle(event)
            table.controller.tick(table.clock.now())
    raise AssertionError(f"not reached in an hour of table time; {table.controller.prompt.describe()}")


class Tables:
    """Emulated tables for one test; `close()` closes them and the journals their crashed
    controllers left open."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.opened: list[EmulatedTable] = []
        self.dropped: list[Journal] = []

    def open(self, variant: Variant, seed: int, habits: Habits | None = None) -> EmulatedTable:
        table = EmulatedTable(Settings(variant=variant, length=1), self.directory / f"record-{len(self.opened)}",
                              seed, habits=habits or Habits())
        self.opened.append(table)
        return table

    def crash(self, table: EmulatedTable) -> Controller:
        """The controller's process dies (its journal is left as it is; the OS closes its serial
        port and releases its pins) and a new one starts on the same record directory, at the
        same board with its checkers as they stand; the people read the new prompts afresh."""
        self.dropped.append(table.journal)
        table.table.close()
        table.table = Table.open(f"emulator://{table.emulator.name}", pin_factory=table.pins, clock=table.clock,
                                 bounce_time=None)
        table.journal = Journal(table.record, key=TableKey.load_or_create())
        table.controller = Controller.resume(table.settings, table.journal, display=table.table.display,
                                             wall_time=table.clock.now)
        table.people = SimulatedTable(table.emulator, table.press, random.Random(table.seed), table.habits)
        return table.controller

    def close(self) -> None:
        for table in self.opened:
            table.close()
        for journal in self.dropped:
            journal.close()


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Tables]:
    opened = Tables(tmp_path)
    yield opened
    opened.close()


def player(color: Color) -> Player:
    return "white" if color is Color.WHITE else "black"


def test_a_controller_dropped_mid_play_is_replaced_on_the_board_as_it_stands(tables: Tables) -> None:
    table = tables.open(Variant.BACKGAMMON, 7)

    def partial_play_on_the_board() -> bool:
        match, zones = table.controller.match, table.emulator.zones()
        if (match.move_number < 3 or match.dice is None or table.controller.prompt.waiting is not Waiting.PLAY
                or table.emulator.hand() or zones == layout(match.position)):
            return False
        judged = TurnReconciler(match.position, match.dice, Capability.STACKS).judge(view_of(zones, Capability.STACKS))
        return isinstance(judged, Partial)

    step_until(table, partial_play_on_the_board)
    before, dice, mover = table.controller.match.position, table.controller.match.dice, table.controller.prompt.player
    assert dice is not None and mover is not None
    written = table.journal.path.read_bytes()
    resumed = tables.crash(table)
    assert resumed.resumed and resumed.match.position == before and resumed.match.dice == dice
    assert (resumed.prompt.waiting, resumed.prompt.code, resumed.prompt.message) == (
        Waiting.SET_BOARD, "SC", "checking the board")
    assert resumed.prompt.position == before
    # the partial play on the board stands: the same roll is to be played on, nothing flagged
    step_until(table, lambda: resumed.prompt.waiting is not Waiting.SET_BOARD, people=False)
    assert (resumed.prompt.waiting, resumed.prompt.player, resumed.prompt.dice) == (Waiting.PLAY, mover, dice)
    assert resumed.flags == 0

    # the mover finishes the play by hand, from the checkers as they stand, and presses done
    zones = table.emulator.zones()
    play = min(before.legal_plays(dice),
               key=lambda p: (len(rearrangement(zones, layout(p.after_moves))), p.notation()))
    for step in rearrangement(zones, layout(play.after_moves)):
        if isinstance(step, Lift):
            table.emulator.lift(step.zone)
        elif isinstance(step, Place):
            table.emulator.place_from_hand(step.zone, step.colour)
    view = view_of(layout(play.after_moves), Capability.STACKS)
    step_until(table, lambda: resumed.stable == view, people=False)
    table.press(player(mover), ButtonKind.DONE)
    step_until(table, lambda: resumed.prompt.waiting is not Waiting.PLAY, people=False)
    after = table.journal.path.read_bytes()
    assert after.startswith(written)
    new = events_of(after[len(written):])
    assert new[0]["type"] == "resume" and [e["type"] for e in new].count("flag") == 0
    [played] = [e for e in new if e["type"] == "play"]
    assert (played["player"], played["dice"]) == (mover.value, list(dice))
    assert played["position"] == play.after_moves.to_document()

    assert table.run()  # and the simulated players play the match out
    verdict = validate_file(str(table.journal.path))
    assert verdict.exit_code == 0 and verdict.complete, verdict.render()


def test_flag_pictures_from_before_a_crash_are_kept(tables: Tables) -> None:
    with precondition():
        table = tables.open(Variant.BACKGAMMON, 3, Habits(mistake_rate=0.5, cocked_rate=0.0))

        def flagged_and_set_for_the_next_roll() -> bool:
            controller = table.controller
            return (controller.flags >= 1 and controller.prompt.waiting is Waiting.ROLL_OR_DOUBLE
                    and not table.emulator.hand() and table.emulator.zones() == layout(controller.match.position))

        step_until(table, flagged_and_set_for_the_next_roll)
        pictures = {e["image"]: sha256(table.record / e["image"]) for e in journal_events(table.record)
                    if e["type"] == "flag"}
        assert "flags/flag-0001.png" in pictures
        resumed = tables.crash(table)
        earlier = resumed.flags
        assert earlier == len(pictures)  # the count goes on from the journal
        step_until(table, lambda: resumed.flags > earlier)
        assert "image" in [e for e in journal_events(table.record) if e["type"] == "flag"][-1]
    names = [e["image"] for e in journal_events(table.record) if e["type"] == "flag"]
    assert len(set(names)) == len(names), names
    assert {name: sha256(table.record / name) for name in pictures} == pictures


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_time_stamps_go_on_after_a_resume(tables: Tables) -> None:
    with precondition():
        table = tables.open(Variant.BACKGAMMON, 7)
        step_until(table, lambda: table.controller.match.move_number >= 2
                   and table.controller.prompt.waiting is Waiting.ROLL_OR_DOUBLE)
        resumed = tables.crash(table)
        step_until(table, lambda: resumed.match.move_number >= 4)
    events = journal_events(table.record)
    stamps = [(e["type"], e["t"]) for e in events]
    # (the controller's own events are rounded to the millisecond)
    backwards = [(a, b) for a, b in zip(stamps, stamps[1:], strict=False) if b[1] < a[1] - 0.001]
    assert backwards == []


def test_a_line_cut_mid_write_is_moved_aside_and_a_real_table_goes_on(tmp_path: Path) -> None:
    """The hardware path's order (`run_hardware`, firmware_host/config.py:105-108): the journal is
    opened (moving a cut line aside) before the controller reads it; the board is on a pty."""
    record = tmp_path / "record"
    emulated = EmulatedTable(Settings(variant=Variant.BACKGAMMON, length=1), record, 7)
    try:
        step_until(emulated, lambda: emulated.controller.match.move_number >= 3)
    finally:
        emulated.close()
    data = (record / "journal.jsonl").read_bytes()
    at = data.rfind(b'{"type":"play"')
    kept, line = data[:at], data[at:data.index(b"\n", at)]
    cut = line[:-9]  # the kill came 10 bytes before the end of the third play's line
    (record / "journal.jsonl").write_bytes(kept + cut)
    lost = json.loads(line)  # the play made on the board, whose record the kill cut
    roll = events_of(kept)[-1]
    assert (roll["type"], roll["player"], roll["dice"]) == ("roll", lost["player"], lost["dice"])

    emulator = BoardEmulator(layout(Position.from_document(lost["position"])), heartbeat_ms=100)
    journal = Journal(record, key=TableKey.load_or_create())
    table = Table.open(emulator.open_pty("board"), pin_factory=(pins := MockFactory()))
    try:
        controller = Controller.resume(Settings(variant=Variant.BACKGAMMON, length=1, settle_seconds=0.05),
                                       journal, display=table.display)
        table.start()
        assert journal.recovered == cut and (record / "journal.cut").read_bytes() == cut + b"\n"
        assert controller.resumed and controller.prompt.waiting is Waiting.SET_BOARD
        give_up = time.monotonic() + HANG_GUARD

        def pump(until: Callable[[], bool]) -> None:
            while not until():
                for event in table.drain():
                    controller.handle(event)
                controller.tick(SYSTEM_CLOCK.now())
                if time.monotonic() > give_up:
                    pytest.fail(f"stuck at {controller.prompt.describe()}")
                time.sleep(0.002)

        # the roll stands; the board shows the play made on it: done commits it
        pump(lambda: controller.prompt.waiting is not Waiting.SET_BOARD)
        assert (controller.prompt.waiting, controller.prompt.player, controller.prompt.dice) == (
            Waiting.PLAY, Color(lost["player"]), tuple(lost["dice"]))
        pin = pins.pin(DEFAULT_BUTTON_PINS[lost["player"], ButtonKind.DONE])
        pin.drive_low()
        pin.drive_high()
        pump(lambda: controller.prompt.waiting is not Waiting.PLAY)
    finally:
        table.close()
        journal.close()
        emulator.close()
    after = (record / "journal.jsonl").read_bytes()
    assert after.startswith(kept)
    new = events_of(after[len(kept):])
    seen = [e for e in new if e["type"] not in ("display", "zone_leds")]  # what the table showed, between
    assert [e["type"] for e in seen[:2]] == ["resume", "link"] and new[0]["phase"] == "move"
    [play] = [e for e in new if e["type"] == "play"]
    assert {k: play[k] for k in ("player", "dice", "position")} == {k: lost[k] for k in ("player", "dice", "position")}
    verdict = validate_file(str(record / "journal.jsonl"))  # legal so far, and intact: the match goes on
    assert verdict.integrity is not None and not verdict.integrity.tampered
    assert verdict.exit_code == 1 and not verdict.problems and not verdict.complete, verdict.render()
