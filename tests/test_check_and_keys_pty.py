"""A board builder's first night, end to end: `python -m firmware_host check --config FILE` and
`python -m firmware_host run --config FILE` with the buttons on the keyboard, each run as a user
runs it, in a terminal (a pseudo-terminal the test types into and reads), against the emulated
board served on a pty of its own, as real firmware on /dev/ttyACM0 would be.

Nothing is timed: each wait is for a line of output, with a guard that fails instead of hanging.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.emulator import BoardEmulator
from firmware_host.prompts import Waiting

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
                                        env=env)
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


def test_the_self_test_passes_on_a_good_board(tmp_path: Path, terminals: list[Terminal],
                                              boards: list[BoardEmulator]) -> None:
    board = BoardEmulator(heartbeat_ms=200)
    boards.append(board)
    path = config(tmp_path, board.open_pty())
    terminal = Terminal("check", "--config", str(path), "--seconds", "1", "--dwell", "0.01",
                        "--button-seconds", "20", cwd=tmp_path)
    terminals.append(terminal)
    handshake = terminal.read_until(r"handshake +pass")
    assert "protocol version 1, board 0x5a0001, firmware 1.0.0, capability STACKS" in handshake
    assert "features ZONES DICE ZONE_LEDS STACK_ORDER" in handshake and "460800 baud 8N1" in handshake
    answer_buttons(terminal)
    assert terminal.finish() == 0, terminal.output[-2000:]
    summary = terminal.output[terminal.output.index("summary:"):]
    for part in ("handshake", "fits the configuration", "dice", "link counts", "board at the start", "zone LEDs",
                 "display", "buttons"):
        assert re.search(rf"{part} +pass", summary), summary
    assert "all passed" in summary
    assert board.port().received["SetZoneLeds"] == 29  # each of the 28 in turn, then all off


def test_the_self_test_names_a_missing_feature_a_stuck_zone_and_a_button_not_pressed(
        tmp_path: Path, terminals: list[Terminal], boards: list[BoardEmulator]) -> None:
    board = BoardEmulator(heartbeat_ms=200, dice="none", zone_leds=False)  # a first board: no dice, no LEDs yet
    board.stick(5, "ww")  # a jammed plate: zone 5 reads two checkers, whatever is on it
    boards.append(board)
    path = config(tmp_path, board.open_pty())
    terminal = Terminal("check", "--config", str(path), "--seconds", "1", "--dwell", "0.01",
                        "--button-seconds", "1", cwd=tmp_path)
    terminals.append(terminal)
    answer_buttons(terminal, skip="black pass")
    assert terminal.finish() == 1
    out = terminal.output
    summary = out[out.index("summary:"):]
    assert re.search(r"fits the configuration +FAIL +\S+ \(board 0x5a0001, firmware 1.0.0\) announced no DICE, "
                     r'but \[dice\] source = "board"', summary), summary
    assert re.search(r"board at the start +FAIL +1 zones differ from the backgammon start", summary)
    assert "zone 5: point 5 has 2 white, expected none" in out
    assert re.search(r"zone LEDs +skipped +the board has no zone LEDs", summary)
    assert re.search(r"buttons +FAIL +not seen: black pass", summary)
    assert "black pass: not seen within 1 s" in out
    assert re.search(r"handshake +pass", summary) and re.search(r"display +pass", summary)
    assert "failed: fits the configuration, dice, board at the start, buttons" in summary


def test_a_board_without_dice_set_up_for_a_roll_button_passes_with_the_space_bar(
        tmp_path: Path, terminals: list[Terminal], boards: list[BoardEmulator]) -> None:
    board = BoardEmulator(heartbeat_ms=200, dice="none")
    boards.append(board)
    path = config(tmp_path, board.open_pty(), dice={"source": "roll button"})
    terminal = Terminal("check", "--config", str(path), "--seconds", "1", "--dwell", "0.01",
                        "--button-seconds", "20", cwd=tmp_path)
    terminals.append(terminal)
    answer_buttons(terminal)
    terminal.read_until("press the roll button ")
    terminal.type(" ")
    terminal.read_until("the roll button: seen")
    assert terminal.finish() == 0, terminal.output[-2000:]
    summary = terminal.output[terminal.output.index("summary:"):]
    assert re.search(r"dice +skipped +the host's dice \(a roll button\)", summary)
    assert re.search(r"buttons +pass +all 9 seen", summary) and "all passed" in summary


def test_the_self_test_runs_on_the_emulator_without_a_config(tmp_path: Path, terminals: list[Terminal]) -> None:
    terminal = Terminal("check", "--capability", "counts", "--seconds", "1", "--dwell", "0.01", cwd=tmp_path)
    terminals.append(terminal)
    assert terminal.finish() == 0, terminal.output[-2000:]
    assert "capability COUNTS" in terminal.output and "all passed" in terminal.output


def test_a_match_played_with_the_buttons_on_the_keyboard(tmp_path: Path, terminals: list[Terminal],
                                                         boards: list[BoardEmulator]) -> None:
    board = BoardEmulator(heartbeat_ms=200)
    boards.append(board)
    path = config(tmp_path, board.open_pty())
    terminal = Terminal("run", "--config", str(path), cwd=tmp_path)
    terminals.append(terminal)
    terminal.read_until("keys: white a done s double d take f pass | black j done k double l take ; pass")
    terminal.read_until(re.escape(f">> {Waiting.OPENING_ROLL.value}"))
    echo = termios.tcgetattr(terminal.slave)[3] & termios.ECHO
    assert not echo, "the keys typed are not echoed over the view"
    board.roll(3, 1)
    terminal.read_until(r">> white: play 31")
    board.move(8, 5)
    board.move(6, 5)
    terminal.type("j")  # Black presses done: not Black's turn
    terminal.read_until(r"black pressed done: NO, it is white's to press now \(play\)")
    terminal.read_until(r"display \[NO\] the button pressed")
    terminal.type("a")  # White's done
    terminal.read_until(r">> black: roll or double")
    terminal.process.send_signal(signal.SIGINT)
    assert terminal.finish() == 130
    assert termios.tcgetattr(terminal.slave)[3] & termios.ECHO, "the terminal is given back as it was"
    events = [json.loads(line) for line in (tmp_path / "record" / "journal.jsonl").read_text().splitlines()]
    [play] = [e for e in events if e["type"] == "play"]
    assert (play["player"], play["moves"]) == ("white", [[8, 5], [6, 5]])
    assert [e["text"] for e in events if e["type"] == "display"][:2] == ["SC", "--"]
    assert "NO" in [e["text"] for e in events if e["type"] == "display"]


def test_the_quiet_log_says_what_the_display_and_the_zone_leds_show(tmp_path: Path, terminals: list[Terminal],
                                                                     boards: list[BoardEmulator]) -> None:
    board = BoardEmulator(heartbeat_ms=200)
    board.move(13, 10)  # the board is not set as a game begins
    boards.append(board)
    path = config(tmp_path, board.open_pty())
    terminal = Terminal("run", "--config", str(path), "--quiet", cwd=tmp_path)
    terminals.append(terminal)
    terminal.read_until(r"display: \[SC\] set checkers; LEDs centre")
    terminal.read_until(r"zone LEDs: 10, 13")
    board.move(10, 13)
    terminal.read_until(r"display: \[--\] opening roll: [^;]*; LEDs centre")
    terminal.read_until(r"zone LEDs: off")
    terminal.process.send_signal(signal.SIGINT)
    assert terminal.finish() == 130
