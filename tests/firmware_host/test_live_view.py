"""The live view (`python -m firmware_host`) as a person meets it: laid out for the terminal it has
(80x24 at the least: the header, the score and all 24 points), the log saying every play in
GNU Backgammon's notation and every cube action, the link as one short field, the display's codes
with their words, the clock saying what it counts. Drawn in a real terminal emulator (tmux) too,
with Ctrl-C stopping it in one line.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from needs import require
from repo import ROOT
from tables import ScriptedTables, hand
from tables import press as press_and_settle

from drivers.events import ButtonKind
from firmware_host.emulator.table import EmulatedTable
from firmware_host.room.table_link import table_state
from firmware_host.settings import ChouetteSettings, Settings
from firmware_host.terminal import MIN_SIZE, view_lines
from game.board import Color
from game.bot.levels import Level
from game.chouette import ChouetteOptions, ChouetteSession, Phase
from game.plays import format_roll
from game.position import Position

HANG_GUARD = 60.0
"""Seconds: only to fail instead of hanging on a loaded machine; nothing is timed."""
POINTS = re.compile(r"^ 13 14 15 16 17 18 +19 20 21 22 23 24\b.*\n(?:.*\n){13}^ 12 11 10  9  8  7 +6  5  4  3  2  1\b",
                    re.MULTILINE)
"""Both rows of point numbers, 13-24 above 12-1, with the board's 13 lines between them."""

Make = Callable[..., EmulatedTable]
press = partial(press_and_settle, settle=0.3)


@pytest.fixture
def make(scripted: ScriptedTables) -> Make:
    def build(players: bool = False, **options: Any) -> EmulatedTable:
        return scripted(Settings(length=5), first_seed=3, quiet=False, players=players, **options)

    return build


def throw(table: EmulatedTable, first: int, second: int) -> None:
    table.emulator.roll(first, second)
    table.wait(0.6)


# -- the layout ------------------------------------------------------------------------------

def test_at_80x24_the_view_shows_the_header_the_score_and_every_point(make: Make) -> None:
    table = make(players=True, line_noise=0.05)
    table.wait(120.0)  # well into the game: plays in the log, faults on the link
    lines = view_lines(table.controller, table.clock.now(), *MIN_SIZE, hint="Ctrl-C stops")
    text = "\n".join(lines)
    assert len(lines) == MIN_SIZE[1] and all(len(line) <= MIN_SIZE[0] for line in lines), text
    assert lines[0].startswith("backgammon, match to 5, game 1 | White 0 - 0 Black") and "Ctrl-C stops" in lines[0]
    assert POINTS.search(text), text
    assert re.search(r"dice  (white|black) \d\d", text), text
    assert re.search(r"cube  \d+, (centred|white's|black's)", text), text
    assert re.search(r"display \[[ \d]\d\] the cube|display \[[A-Z]{2}\] [a-z]", text), text
    assert "clock: reserve, 12 s a turn free" in text and re.search(r"white \d+:\d\d.*black \d+:\d\d", text), text
    assert re.search(r"link  up, \d+ frames\n.*  faults [a-z]+ \d+", text), text
    assert re.search(r"^>> (white|black): ", text, re.MULTILINE), text
    newest = table.controller.log[-1]
    assert newest.startswith(lines[-1].strip()) or newest.endswith(lines[-1].strip()), text  # the log, below


def test_a_larger_terminal_shows_more_of_the_log_and_a_small_one_says_what_it_needs(make: Make) -> None:
    table = make(players=True)
    table.wait(120.0)
    small = view_lines(table.controller, table.clock.now(), 80, 24)
    tall = view_lines(table.controller, table.clock.now(), 120, 50)
    assert len(tall) == 50 and all(len(line) <= 120 for line in tall)
    assert tall[-1] == small[-1] and len(tall) - len(small) == 26  # every added line is the log's
    narrow = view_lines(table.controller, table.clock.now(), 60, 40)
    assert narrow[0].startswith("[60x40: the view needs 80x24]") and all(len(line) <= 60 for line in narrow)
    assert any(line.startswith("dice  ") for line in narrow)  # the side panel, below the board
    short = view_lines(table.controller, table.clock.now(), 100, 20)
    assert short[0].startswith("[100x20: the view needs 80x24]") and len(short) == 20


@pytest.mark.slow
def test_a_chouette_of_nine_fits_80x24_with_its_prompt(tmp_path: Path) -> None:
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
    settings = Settings(timed=False, chouette=ChouetteSettings(names, ChouetteOptions(), 1))
    with EmulatedTable(settings, tmp_path / "c", seed=5) as table:
        table.wait(200.0)
        lines = view_lines(table.controller, table.clock.now(), *MIN_SIZE)
    text = "\n".join(lines)
    assert len(lines) == MIN_SIZE[1] and all(len(line) <= MIN_SIZE[0] for line in lines), text
    assert lines[0].startswith("chouette, backgammon") and POINTS.search(text), text
    assert re.search(r"^>> (white|black)", text, re.MULTILINE) and re.search(r"  P1 \w+ \d", text), text


@pytest.mark.parametrize(("bot", "seat"), [
    ("Cy", "box Cy (bot, expert) (black) v captain Ann (white)"),
    ("Ann", "box Cy (black) v captain Ann (bot, expert) (white)"),
    ("Bob", "box Cy (black) v captain Ann (white) | member Bob (bot, expert)"),
])
def test_a_chouettes_header_names_its_bot_as_a_bot_in_the_seat_it_has(tmp_path: Path, bot: str, seat: str) -> None:
    settings = Settings(timed=False, images=False,
                        chouette=ChouetteSettings(("Ann", "Bob", "Cy"), ChouetteOptions(), 1, {bot: Level.EXPERT}))
    with EmulatedTable(settings, tmp_path / "c", seed=3) as table:  # the order at this seed: Cy, Ann, Bob
        seating = view_lines(table.controller, table.clock.now(), *MIN_SIZE)
        session = table.controller.played
        assert isinstance(session, ChouetteSession)
        for _ in range(100_000):  # a guard, not a timing: the order is thrown within seconds of table time
            if session.phase is not Phase.SEATING:
                break
            table.step()
        lines = view_lines(table.controller, table.clock.now(), *MIN_SIZE)
    def header(view: list[str]) -> str:  # its one to three lines, before the board's point numbers
        return " ".join(line.strip() for line in view[:view.index(next(v for v in view if v.startswith(" 13 14")))])

    assert header(lines) == f"chouette, backgammon, members' own cubes | game 1 | {seat}", lines
    assert header(seating) == f"chouette, backgammon, members' own cubes | seating (Ann ? Bob ? Cy ?) | {bot} (bot, " \
                              "expert)", seating
    assert all(len(line) <= MIN_SIZE[0] for line in lines) and POINTS.search("\n".join(lines))


# -- the log ----------------------------------------------------------------------------------

def test_the_log_says_each_play_in_notation_and_each_cube_action(make: Make) -> None:
    table = make()
    throw(table, 3, 1)  # the opening roll: White's die 3, Black's 1
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    log = list(table.controller.log)
    assert "white moves 8/5 6/5 (31)" in log
    assert table.controller.prompt.describe() == "black: roll or double"
    press(table, "black", ButtonKind.DOUBLE)
    press(table, "white", ButtonKind.TAKE)
    assert table.controller.prompt.describe() == "black: roll"  # the cube is White's: no double to offer
    assert table_state(table.controller, 0.0)["waiting"] == "roll"  # and so the room's page says
    throw(table, 5, 6)  # written higher first, however the dice fell
    assert table.controller.prompt.describe() == "black: play 65"
    hand(table, (1, 12))  # Black's back checker runs 24/13 (Black's numbering)
    press(table, "black", ButtonKind.DONE)
    assert table.controller.prompt.describe() == "white: roll or double"
    press(table, "white", ButtonKind.DOUBLE)
    press(table, "black", ButtonKind.PASS)
    log = list(table.controller.log)
    said = [line for line in log if re.match(r"(white|black) (moves|doubles|takes|passes)", line)]
    assert said == ["white moves 8/5 6/5 (31)", "black doubles to 2", "white takes: the cube is 2",
                    "black moves 24/13 (65)", "white doubles to 4", "black passes the cube"]
    assert "game 1 over: white wins 2 (single), score 2-0 (white-black)" in log


@pytest.mark.slow
def test_every_play_of_a_match_is_in_the_log_as_notation_that_reads_back_to_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="firmware_host.controller")  # the whole log (the view keeps its end)
    with EmulatedTable(Settings(length=3), tmp_path / "m", seed=11) as table:
        assert table.run()
        events = table.journal.history()
    said = [r.getMessage() for r in caplog.records if re.match(r"(white|black) (moves|cannot move) ", r.getMessage())]
    plays = [e for e in events if e["type"] == "play"]
    assert len(said) == len(plays) > 40
    position = None
    for event in events:
        if event["type"] == "game_start":
            position = Position.from_document(event["position"])
        elif event["type"] == "opening_roll" and event["white"] != event["black"] and position is not None:
            position = position.with_turn(Color.WHITE if event["white"] > event["black"] else Color.BLACK)
        elif event["type"] == "play" and position is not None:
            line = said[plays.index(event)]
            found = re.fullmatch(r"(white|black) moves (.+) \((\d)(\d)\)", line)
            after = Position.from_document(event["position"])
            if found is None:  # no move: the position stands
                assert line == f"{event['player']} cannot move ({format_roll(event['dice'])})" and after == position
            else:  # GNU Backgammon's notation, its stars too, reads back to the very play journaled
                assert found[1] == event["player"] and sorted(map(int, found.group(3, 4))) == sorted(event["dice"])
                play = position.parse_play(found[2], event["dice"])
                assert play is not None and play.after_moves == after, (line, position)
            position = after.pass_turn()
    assert any("*" in line for line in said)  # hits were made, and starred


# -- the link and the emulated board's faults ---------------------------------------------------

def test_the_emulated_boards_faults_are_said_once_and_counted_in_one_short_field(make: Make) -> None:
    table = make(players=True, line_noise=0.2)
    table.wait(60.0)
    log = list(table.controller.log)
    assert sum("injects faults on purpose" in line for line in log) == 1
    assert not any(line.startswith("counts on ") or " first " in line for line in log)
    status = table.controller.links.status()
    assert re.fullmatch(r"\d+ frames; faults [a-z]+ \d+B?(, [a-z]+ \d+B?)*", status), status
    assert len(status) < 60


# -- in a terminal ------------------------------------------------------------------------------

class Tmux:
    """A tmux server of its own (its own socket), one window of a given size, read as a person sees it."""

    def __init__(self, columns: int, lines: int, command: str, cwd: Path) -> None:
        self.socket = f"view-test-{uuid.uuid4().hex[:8]}"
        self._tmux("new-session", "-d", "-s", "v", "-x", str(columns), "-y", str(lines), "-c", str(cwd), command)

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True,
                              text=True, timeout=30).stdout

    def screen(self) -> list[str]:
        return self._tmux("capture-pane", "-p", "-t", "v").split("\n")[:-1]

    def wait_for(self, pattern: str) -> list[str]:
        give_up = time.monotonic() + HANG_GUARD
        while time.monotonic() < give_up:
            screen = self.screen()
            if re.search(pattern, "\n".join(screen), re.MULTILINE):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"no {pattern!r} on the screen:\n" + "\n".join(self.screen()))

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "v", *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


@pytest.mark.subprocess
def test_the_live_view_in_an_80x24_terminal_and_ctrl_c(tmp_path: Path) -> None:
    require("tmux", shutil.which("tmux"), "sudo apt-get install tmux (it draws the view as a terminal would)")
    record = tmp_path / "record"
    command = (f"{sys.executable} -m firmware_host --seed 7 --match-to 1 --speed 20 --record {record}; "
               "echo exit status $?; sleep 60")
    tmux = Tmux(*MIN_SIZE, command, ROOT)
    try:
        screen = tmux.wait_for(r"^(white|black) moves ")  # a play made: the board drawn more than once
        text = "\n".join(screen)
        assert len(screen) == MIN_SIZE[1] and all(len(line) <= MIN_SIZE[0] for line in screen)
        assert screen[0].startswith("backgammon, match to 1, game 1 | White 0 - 0 Black"), text
        assert screen[0].rstrip().endswith("Ctrl-C stops"), text
        assert POINTS.search(text), text
        assert re.search(r"^>> ", text, re.MULTILINE) and "referee flags " in text, text
        tmux.keys("C-c")
        stopped = tmux.wait_for(r"^exit status \d+")
        said = "".join(stopped)  # the terminal wraps a long line: read it whole
        assert f"stopped; the journal in {record} resumes the match" in said and "exit status 130" in said, said
        assert "Traceback" not in said and (record / "journal.jsonl").stat().st_size > 0
    finally:
        tmux.close()
