"""A board builder's first night, end to end: `python -m firmware_host check --config FILE` and
`python -m firmware_host run --config FILE` with the buttons on the keyboard, each run as a user
runs it, in a terminal (a pseudo-terminal the test types into and reads), against the emulated
board served on a pty of its own, as real firmware on /dev/ttyACM0 would be.

Nothing is timed: each wait is for a line of output, with a guard that fails instead of hanging.
"""

from __future__ import annotations

import json
import re
import signal
import termios
from pathlib import Path

import pytest
from pty_tables import Terminal, answer_buttons, config

from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.board import BoardEmulator

pytestmark = [pytest.mark.pty, pytest.mark.subprocess]


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
