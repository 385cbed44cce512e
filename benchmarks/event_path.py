"""The path of a driver event through the controller: which of the project's modules it passes
through, and how many times the path comes back into `controller.py` from another module (a part
calling back into the controller, rather than handing back what should happen).

Run from the repository root:  python3 -m benchmarks.event_path

An emulated table with nobody playing (as the tests script one) is driven to five moments, and
every Python call made while the controller handles the moment's events (and lets time pass, for
a board to settle and be judged) is recorded with `sys.setprofile`:

- a ZoneChanged during a play, from the checker lifted until its board is judged;
- a ZoneChanged between turns (a checker moved before the roll): the board flagged;
- a ButtonPressed done: the play committed, the next prompt published;
- a ButtonPressed double at a match's roll: the cube offered;
- a ButtonPressed the moment gives no meaning: refused (NO).

For each: the project's modules called (firmware_host's, and all of them with game's and
drivers'), and the calls into `controller.py` made from another module of firmware_host (a
property read counts: it is a call).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from drivers.events import ButtonKind, ButtonPressed, Event, ZoneChanged
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
CONTROLLER = "firmware_host/controller/controller.py"
PACKAGES = ("firmware_host/", "game/", "drivers/")


def _module(filename: str) -> str | None:
    """The project module a code object comes from (None: the standard library, a dependency)."""
    path = Path(filename)
    if not path.is_absolute():
        return None
    try:
        relative = path.relative_to(ROOT).as_posix()
    except ValueError:
        return None
    return relative if relative.startswith(PACKAGES) else None


@dataclass
class EventPath:
    """What the calls of one moment touched."""

    modules: list[str] = field(default_factory=list)
    returns: list[str] = field(default_factory=list)
    """Each call into controller.py from another firmware_host module: 'caller -> function'."""

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        callee = _module(frame.f_code.co_filename)
        if callee is None:
            return
        if callee not in self.modules:
            self.modules.append(callee)
        caller = _module(frame.f_back.f_code.co_filename) if frame.f_back is not None else None
        if callee == CONTROLLER and caller is not None and caller != CONTROLLER and caller.startswith("firmware_host/"):
            self.returns.append(f"{caller} -> {frame.f_code.co_name}")


@contextmanager
def traced(table: EmulatedTable, kinds: tuple[type[Event], ...], *, ticks: bool) -> Iterator[EventPath]:
    """Record the calls the controller makes while it handles events of `kinds` (and, with `ticks`,
    while it lets time pass)."""
    controller, path = table.controller, EventPath()
    handle, tick = controller.handle, controller.tick

    def run(call: Callable[[], None]) -> None:
        sys.setprofile(path.profile)
        try:
            call()
        finally:
            sys.setprofile(None)

    def traced_handle(event: Event) -> None:
        if isinstance(event, kinds):
            run(lambda: handle(event))
        else:
            handle(event)

    def traced_tick(now: float) -> None:
        run(lambda: tick(now)) if ticks else tick(now)

    controller.handle, controller.tick = traced_handle, traced_tick  # type: ignore[method-assign]
    try:
        yield path
    finally:
        del controller.handle, controller.tick


def report(name: str, path: EventPath) -> None:
    ours = [m for m in path.modules if m.startswith("firmware_host/")]
    print(f"{name}:")
    print(f"  firmware_host modules ({len(ours)}): {', '.join(m.removeprefix('firmware_host/') for m in ours)}")
    print(f"  project modules (firmware_host, game, drivers): {len(path.modules)}")
    print(f"  calls back into controller.py from another module: {len(path.returns)}")
    for line in sorted(set(path.returns)):
        print(f"    {path.returns.count(line)} x {line}")


def wait_settled(table: EmulatedTable) -> None:
    table.wait(0.6)


def expect(table: EmulatedTable, waiting: Waiting) -> None:
    prompt = table.controller.prompt
    assert prompt.waiting is waiting, prompt.describe()


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        table = EmulatedTable(Settings(length=3, timed=True), Path(directory) / "t", seed=1, players=False,
                              line_noise=0.0, flicker_rate=0.0)
        try:
            table.wait(1.0)
            table.emulator.roll(3, 1)
            table.wait(0.6)
            expect(table, Waiting.PLAY)
            with traced(table, (ZoneChanged,), ticks=True) as path:
                table.emulator.move(8, 5)
                wait_settled(table)
            report("ZoneChanged during a play, until its board is judged", path)
            table.emulator.move(6, 5)
            wait_settled(table)
            with traced(table, (ButtonPressed,), ticks=False) as path:
                table.press("white", ButtonKind.DONE)
                wait_settled(table)
            report("ButtonPressed done: the play committed", path)
            expect(table, Waiting.ROLL_OR_DOUBLE)
            with traced(table, (ButtonPressed,), ticks=False) as path:
                table.press("white", ButtonKind.TAKE)
                wait_settled(table)
            report("ButtonPressed take by the player not asked: refused (NO)", path)
            with traced(table, (ButtonPressed,), ticks=False) as path:
                table.press("black", ButtonKind.DOUBLE)
                wait_settled(table)
            report("ButtonPressed double at a match's roll: the cube offered", path)
            table.press("white", ButtonKind.TAKE)
            wait_settled(table)
            expect(table, Waiting.ROLL_OR_DOUBLE)
            with traced(table, (ZoneChanged,), ticks=True) as path:
                table.emulator.move(1, 2)
                wait_settled(table)
            report("ZoneChanged between turns (a checker moved): the board flagged", path)
            expect(table, Waiting.SET_BOARD)
        finally:
            table.close()


if __name__ == "__main__":
    main()
