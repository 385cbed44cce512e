"""Commands run as a user runs them, in a terminal (a pseudo-terminal the test types into and reads),
against the emulated board served on a pty of its own, as real firmware on /dev/ttyACM0 would be;
the config such a table reads, and the keys of the players' buttons.

Nothing is timed: each wait is for a line of output, with a guard that fails instead of hanging.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from needs import ctrl_c_reaches

from drivers.clock import SYSTEM_CLOCK
from drivers.events import Event
from firmware_host.controller import Controller
from firmware_host.emulator.board import BoardEmulator
from firmware_host.table import Table

HANG_GUARD = 60.0
"""Seconds: only to fail instead of hanging on a loaded machine; nothing is timed."""


class Terminal:
    """A command run in a pseudo-terminal: its output read as it comes, keys typed into it."""

    def __init__(self, *args: str, cwd: Path, size: tuple[int, int] = (200, 50)) -> None:
        self.master, self.slave = os.openpty()
        # a terminal wide enough that the view's lines (a bot's play, the key map) are read unwrapped
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        env = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "LINES")}
        self.process = subprocess.Popen([sys.executable, "-m", "firmware_host", *args], stdin=self.slave,
                                        stdout=self.slave, stderr=self.slave, cwd=cwd, start_new_session=True,
                                        env=env, preexec_fn=ctrl_c_reaches)
        self.output = ""
        self._cursor = 0
        """Where the last match ended: the next search starts there."""

    def read_until(self, pattern: str, guard: float = HANG_GUARD) -> str:
        """Output up to and including the first match of `pattern` (a regular expression) after
        the last match; fails with what was seen when it does not come."""
        give_up = time.monotonic() + guard
        start = self._cursor
        while True:
            found = re.search(pattern, self.output[start:])
            if found:
                self._cursor = start + found.end()
                return self.output[start:self._cursor]
            if time.monotonic() > give_up or (self.process.poll() is not None and not self._pending()):
                raise AssertionError(f"no {pattern!r} in the output; it ends:\n{self.output[-3000:]}")
            self._read(0.05)

    def _pending(self) -> bool:
        return bool(select.select([self.master], [], [], 0)[0])

    def _read(self, wait: float) -> None:
        if select.select([self.master], [], [], wait)[0]:
            try:
                self.output += os.read(self.master, 65536).decode("utf-8", errors="replace")
            except OSError:
                pass

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def finish(self) -> int:
        """Wait for the command to end, reading what is left; its exit status."""
        give_up = time.monotonic() + HANG_GUARD
        while self.process.poll() is None and time.monotonic() < give_up:
            self._read(0.05)
        while self._pending():
            self._read(0)
        return self.process.wait(timeout=5)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


@pytest.fixture
def boards() -> Iterator[list[BoardEmulator]]:
    made: list[BoardEmulator] = []
    yield made
    for board in made:
        board.close()


def config(tmp_path: Path, port: str, **sections: dict[str, Any]) -> Path:
    """A table's config for the emulated board on `port`: keyboard buttons, mock pins for the display."""
    values: dict[str, dict[str, Any]] = {
        # the emulator answers from a thread of the test's process: on a loaded machine it may be slow to
        "board": {"port": port, "settle_seconds": 0.1, "reply_seconds": 10}, "buttons": {"source": "keyboard"},
        "gpio": {"pin_factory": "mock"}, "match": {"length": 1}, "clock": {"enabled": False},
        "record": {"dir": str(tmp_path / "record")}}
    for name, keys in sections.items():
        values.setdefault(name, {}).update(keys)
    text = "".join(f"[{name}]\n" + "".join(f"{key} = {json.dumps(value)}\n" for key, value in keys.items())
                   for name, keys in values.items())
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


KEYS = {"white done": "a", "white double": "s", "white take": "d", "white pass": "f",
        "black done": "j", "black double": "k", "black take": "l", "black pass": ";"}


def answer_buttons(terminal: Terminal, skip: str | None = None) -> None:
    """Press each button the check asks for with its key (all but `skip`)."""
    for name, key in KEYS.items():
        terminal.read_until(f"press {name} ")
        if name != skip:
            terminal.type(key)
        terminal.read_until(f"{name}: (seen|not seen)")


def pump(table: Table, controller: Controller, handled: list[Event], done: Callable[[], bool], what: str,
         pause: float = 0.002) -> None:
    """Feed `controller` what `table`'s reader threads deliver (kept in `handled`), and let time pass,
    until `done()`; fails saying what the controller waits for, instead of hanging."""
    give_up = time.monotonic() + HANG_GUARD
    while True:
        for event in table.drain():
            controller.handle(event)
            handled.append(event)
        controller.tick(SYSTEM_CLOCK.now())
        if done():
            return
        if time.monotonic() > give_up:
            raise AssertionError(f"not {what} within {HANG_GUARD} s; waiting for "
                                 f"{controller.prompt.describe()}; log: {list(controller.log)[-8:]}")
        time.sleep(pause)
