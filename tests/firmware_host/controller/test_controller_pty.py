"""The controller end to end over a real pseudo-terminal.

The emulator's firmware serves its board port on a /dev/pts/N (`BoardEmulator.open_pty`);
the controller's `Table` opens that path with pyserial as it opens a real board, its reader
thread decodes the frames, and the test plays by hand on the emulator (lift, place, slide,
roll) and presses the buttons on gpiozero's mock pins. Threads and time are real (the
system clock). Nothing is timed: every wait is for a state of the controller, with a guard
that fails the test instead of hanging.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from builders import precondition
from gpiozero.pins.mock import MockFactory
from pty_tables import pump

from drivers.events import ButtonKind, DieState, Event, LinkUp, Player
from drivers.pinmap import DEFAULT_BUTTON_PINS
from drivers.protocol import DieStatus
from firmware_host.controller import Controller
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.board import BoardEmulator
from firmware_host.record.journal import Journal
from firmware_host.settings import Settings
from firmware_host.table import Table
from game.board import Color, Variant
from game.hands import hand_moves
from game.plays import Play
from game.position import Position
from game.zones import Capability, layout, sensed_view, view_of

pytestmark = pytest.mark.pty

HANG_GUARD = 60.0  # seconds: only to fail instead of hanging on a loaded machine; nothing is timed
"""Seconds: only to fail instead of hanging; nothing is timed."""
HEARTBEAT_MS = 100
"""The emulator's heartbeat: a pulled cable is noticed after 3 silent heartbeats."""
QUICK_SETTLE = 0.05
"""Settle time for clean boards (no flicker, no slide): a board is judged soon after it stops."""

OPENING = (3, 1)
REPLY = (6, 4)
PLAYS = {  # (White's opening play, Black's reply), each in the mover's own numbering
    Variant.BACKGAMMON: ("8/5 6/5", "24/18 13/9"),
    Variant.CATCHGAMMON: ("24/23 24/21", "24/20 24/18"),
    Variant.RUNGAMMON: ("24/21 21/20", "24/18 18/14"),
}


@dataclass
class PtyTable:
    """An emulated board on a pty, and the controller reading it through a real Table."""

    emulator: BoardEmulator
    pins: MockFactory
    table: Table
    controller: Controller
    handled: list[Event] = field(default_factory=list)

    @property
    def capability(self) -> Capability:
        return self.emulator.capability

    def pump(self, done: Callable[[], bool], what: str) -> None:
        """Feed the controller what the reader thread delivers, and let time pass, until `done()`."""
        pump(self.table, self.controller, self.handled, done, what)

    def waiting(self, waiting: Waiting, player: Color | None = None) -> None:
        self.pump(lambda: self.controller.prompt.waiting is waiting
                  and (player is None or self.controller.prompt.player is player), f"{waiting.value}")

    def settled_on(self, position: Position | None = None) -> None:
        """Until the controller's stable board is `position` (by default the checkers as they
        stand on the emulator) as the sensors read it."""
        view = (sensed_view(position, self.capability) if position is not None
                else view_of(self.emulator.zones(), self.capability))
        self.pump(lambda: self.controller.stable == view, "settled on the board as it stands")

    def press(self, player: Player, button: ButtonKind) -> None:
        pin = self.pins.pin(DEFAULT_BUTTON_PINS[player, button])
        pin.drive_low()
        pin.drive_high()

    def journal(self, kind: str | None = None) -> list[dict[str, Any]]:
        lines = self.controller.journal.path.read_text(encoding="utf-8").splitlines()
        events = [json.loads(line) for line in lines]
        return [e for e in events if kind is None or e["type"] == kind]

    def close(self) -> None:
        self.table.close()
        self.controller.journal.close()
        self.emulator.close()


def start_table(emulator: BoardEmulator, settings: Settings, record: Path, *, reply_timeout: float = 1.0,
                board_outputs: bool = False) -> PtyTable:
    """A table on the emulator's pty with its controller, started; `board_outputs`: the controller lights
    the board's zone LEDs and sets its stacks (a bot seat shows its play there)."""
    path = emulator.open_pty("board")
    assert path.startswith("/dev/")
    pins = MockFactory()
    table = Table.open(path, pin_factory=pins, reply_timeout=reply_timeout)
    controller = Controller.new(settings, Journal(record), display=table.display,
                                zone_leds=table.board.light_zones if board_outputs else None,
                                stacks=table.board.set_stacks if board_outputs else None)
    pty = PtyTable(emulator, pins, table, controller)
    table.start()
    return pty


@pytest.fixture
def open_table(tmp_path: Path) -> Iterator[Callable[..., PtyTable]]:
    opened: list[PtyTable] = []

    def open_(variant: Variant = Variant.BACKGAMMON, capability: Capability = Capability.STACKS, *,
              settle: float = QUICK_SETTLE, flicker_rate: float = 0.0, line_noise: float = 0.0,
              length: int = 1) -> PtyTable:
        emulator = BoardEmulator(layout(Position.initial(variant)), capability=capability, heartbeat_ms=HEARTBEAT_MS,
                                 flicker_rate=flicker_rate, line_noise=line_noise, rng=random.Random(7))
        pty = start_table(emulator, Settings(variant=variant, length=length, settle_seconds=settle),
                          tmp_path / f"record-{len(opened)}")
        opened.append(pty)
        return pty

    yield open_
    for pty in opened:
        pty.close()


def legal(position: Position, dice: tuple[int, int], notation: str) -> Play:
    named = position.parse_play(notation, dice)
    assert named is not None, f"{notation} is no play for {dice}"
    (play,) = [p for p in position.legal_plays(dice) if p.after_moves == named.after_moves]
    return play


def name(color: Color) -> Player:
    return "white" if color is Color.WHITE else "black"


def by_hand(pty: PtyTable, before: Position, play: Play, *, slide: bool = False) -> None:
    for step in hand_moves(before, play.moves):
        if slide and step.source <= 24 and step.target <= 24:
            pty.emulator.slide(step.source, step.target)
        else:
            pty.emulator.move(step.source, step.target)


def opening_roll(pty: PtyTable, white: int, black: int) -> None:
    """The board is set, each player throws a die: the winner's prompt to play."""
    pty.waiting(Waiting.OPENING_ROLL)
    pty.emulator.roll(white, black)
    pty.waiting(Waiting.PLAY)
    starter, dice = (Color.WHITE if white > black else Color.BLACK), (max(white, black), min(white, black))
    assert (pty.controller.prompt.player, pty.controller.prompt.dice) == (starter, dice)
    last = pty.journal("opening_roll")[-1]
    assert (last["white"], last["black"]) == (white, black)


def roll(pty: PtyTable, player: Color, dice: tuple[int, int]) -> None:
    pty.waiting(Waiting.ROLL_OR_DOUBLE, player)
    pty.emulator.roll(*dice)
    pty.waiting(Waiting.PLAY, player)
    assert pty.controller.prompt.dice == dice
    last = pty.journal("roll")[-1]
    assert (last["player"], last["dice"]) == (player.value, list(dice))


def done_and_committed(pty: PtyTable, play: Play) -> None:
    """Once the controller sees the play's board, done; the play must be committed as it is."""
    mover = play.after_moves.turn
    pty.settled_on(play.after_moves)
    plays_before = len(pty.journal("play"))
    pty.press(name(mover), ButtonKind.DONE)
    pty.pump(lambda: pty.controller.prompt.waiting is not Waiting.PLAY, "judged after done")
    assert pty.controller.prompt.waiting in (Waiting.ROLL_OR_DOUBLE, Waiting.MATCH_OVER), pty.controller.prompt
    plays = pty.journal("play")
    assert len(plays) == plays_before + 1
    assert plays[-1]["player"] == mover.value
    assert sorted(plays[-1]["moves"]) == sorted([m.source, m.target] for m in play.moves)
    assert plays[-1]["position"] == play.after_moves.to_document()
    assert pty.controller.match.position == play.after_moves.pass_turn()


def play_turn(pty: PtyTable, dice: tuple[int, int], notation: str, *, slide: bool = False) -> Play:
    before = pty.controller.match.position
    play = legal(before, dice, notation)
    by_hand(pty, before, play, slide=slide)
    done_and_committed(pty, play)
    return play


@pytest.mark.parametrize("capability", list(Capability), ids=lambda c: c.name.lower())
@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.value)
def test_two_turns_played_by_hand_are_committed_as_played(open_table: Callable[..., PtyTable],
                                                          variant: Variant, capability: Capability) -> None:
    pty = open_table(variant, capability)
    opening_roll(pty, *OPENING)
    first, reply = PLAYS[variant]
    play_turn(pty, OPENING, first)
    roll(pty, Color.BLACK, REPLY)
    play_turn(pty, REPLY, reply)
    assert pty.controller.flags == 0 and pty.journal("flag") == []
    assert isinstance(pty.handled[0], LinkUp) and pty.handled[0].hello.capability is capability


@pytest.mark.parametrize("capability", list(Capability), ids=lambda c: c.name.lower())
def test_a_noisy_line_flickering_sensors_and_slid_checkers_still_commit_the_play_without_a_flag(
        open_table: Callable[..., PtyTable], capability: Capability) -> None:
    # the default settle time: a flicker lasts up to 3 scans, a slide shows on each point for one
    pty = open_table(Variant.BACKGAMMON, capability, settle=Settings().settle_seconds,
                     flicker_rate=0.02, line_noise=0.05)

    def corrupted() -> int:
        stats = pty.table.links[0].stats()
        return stats.bad_crc + stats.cut_frames + stats.garbage_bytes + stats.seq_gaps

    pty.pump(lambda: corrupted() > 0, "a frame corrupted on the line")  # the line is noisy: go on
    opening_roll(pty, 6, 4)
    before = pty.controller.match.position
    play = legal(before, (6, 4), "24/18 13/9")
    pty.emulator.straighten(13)  # a hand squares up the stack it takes from
    by_hand(pty, before, play, slide=True)  # 24/18 slides across Black's 19-point
    pty.emulator.flicker(18, scans=3)  # the sensor under the sliding checker misreads
    done_and_committed(pty, play)
    roll(pty, Color.BLACK, (5, 3))
    play_turn(pty, (5, 3), "13/10 13/8", slide=True)
    assert pty.controller.flags == 0 and pty.journal("flag") == []


def test_a_cable_pulled_mid_play_and_replugged(open_table: Callable[..., PtyTable]) -> None:
    pty = open_table()
    opening_roll(pty, *OPENING)
    before = pty.controller.match.position
    play = legal(before, OPENING, "8/5 6/5")
    first, *rest = hand_moves(before, play.moves)
    pty.emulator.lift(first.source)
    pty.emulator.unplug("board")
    pty.pump(lambda: not pty.controller.link_up, "link down")
    pty.emulator.place(first.target)  # the play goes on while the cable is out
    for step in rest:
        pty.emulator.move(step.source, step.target)
    pty.emulator.replug("board")
    pty.pump(lambda: pty.controller.link_up, "link up again")
    done_and_committed(pty, play)  # the board as it now stands comes with the snapshot after the handshake
    roll(pty, Color.BLACK, REPLY)
    play_turn(pty, REPLY, "24/18 13/9")
    links = [(e["state"], e["source"]) for e in pty.journal("link")]
    assert links == [("up", pty.table.links[0].source), ("down", pty.table.links[0].source),
                     ("up", pty.table.links[0].source)]
    kinds = [e["type"] for e in pty.journal() if e["type"] in ("link", "opening_roll", "play")]
    assert kinds == ["link", "opening_roll", "link", "link", "play", "play"]
    notes = [line.split(":")[0] for line in pty.controller.log if line.startswith("link ")]
    assert notes == ["link up", "link down", "link up"]
    assert pty.controller.flags == 0


def test_dice_re_reported_after_a_replug_are_not_a_new_roll(open_table: Callable[..., PtyTable]) -> None:
    with precondition():
        pty = open_table()
        opening_roll(pty, *OPENING)
        play_turn(pty, OPENING, "8/5 6/5")
        pty.waiting(Waiting.ROLL_OR_DOUBLE, Color.BLACK)  # the dice still lie on the board showing 3 and 1
        pty.emulator.unplug("board")
        pty.pump(lambda: not pty.controller.link_up, "link down")
        pty.emulator.replug("board")
        up = len(pty.handled)
        pty.pump(lambda: any(isinstance(e, LinkUp) for e in pty.handled[up:]), "link up again")
        # after the handshake the driver reports both dice afresh: same faces, same throw counts
        pty.pump(lambda: sum(isinstance(e, DieState) and e.status is DieStatus.SETTLED
                             for e in pty.handled[up:]) == 2, "both dice reported after the handshake")
    assert pty.journal("roll") == []
    assert pty.controller.prompt.waiting is Waiting.ROLL_OR_DOUBLE
    roll(pty, Color.BLACK, REPLY)  # black throws: that is the roll


def test_an_illegal_play_then_a_misplaced_checker_are_flagged_until_corrected(
        open_table: Callable[..., PtyTable]) -> None:
    pty = open_table()
    opening_roll(pty, 5, 2)
    before = pty.controller.match.position
    directory = pty.controller.journal.directory

    def flagged(kind: str, code: str) -> dict[str, Any]:
        count = len(pty.journal("flag"))
        pty.press("white", ButtonKind.DONE)
        pty.waiting(Waiting.CORRECT, Color.WHITE)
        flags = pty.journal("flag")
        assert len(flags) == count + 1
        flag = flags[-1]
        assert (flag["kind"], flag["code"], flag["player"]) == (kind, code, "white")
        assert flag["expected"] == before.to_document()
        assert (directory / flag["image"]).is_file()
        assert pty.journal("play") == [] and pty.controller.match.position == before
        return flag

    pty.emulator.move(24, 19)  # onto Black's 19-point: a blocked point
    pty.emulator.move(13, 11)
    pty.settled_on()
    illegal = flagged("illegal", "BP")
    pty.emulator.move(19, 24)  # the checker on top of Black's stack goes back
    pty.emulator.move(11, 4)  # 13 to 4 is 9 pips: no sequence of 5-2 puts a checker there
    pty.settled_on()
    misplaced = flagged("misplaced", "SC")
    assert illegal["image"] != misplaced["image"]
    pty.emulator.move(4, 11)
    pty.emulator.move(13, 8)
    done_and_committed(pty, legal(before, (5, 2), "13/11 13/8"))
    assert pty.controller.flags == 2


def resign_single_accepted(pty: PtyTable, player: Color) -> None:
    """`player` resigns a single game on the display (pass, done) and the opponent accepts (take)."""
    pty.press(name(player), ButtonKind.PASS)
    pty.waiting(Waiting.RESIGN_KIND, player)
    pty.press(name(player), ButtonKind.DONE)
    pty.waiting(Waiting.RESIGN_RESPONSE, player.opponent)
    pty.press(name(player.opponent), ButtonKind.TAKE)


def test_a_takeback_and_cube_actions_through_the_crawford_game_to_the_end_of_the_match(
        open_table: Callable[..., PtyTable]) -> None:
    from drivers.pinmap import DEFAULT_CUBE_PINS
    from game.validate import validate_file

    pty = open_table(length=3)
    opening_roll(pty, *OPENING)
    play_turn(pty, OPENING, "8/5 6/5")
    # White puts the checkers back before Black rolls: a takeback, if both agree
    pty.emulator.move(5, 8)
    pty.emulator.move(5, 6)
    pty.waiting(Waiting.TAKEBACK)
    pty.press("white", ButtonKind.TAKE)
    pty.press("black", ButtonKind.TAKE)
    pty.waiting(Waiting.PLAY, Color.WHITE)
    assert pty.controller.prompt.dice == OPENING and len(pty.journal("takeback")) == 1
    play_turn(pty, OPENING, "24/21 21/20")
    # Black doubles, White takes; White resigns a single game at 2
    pty.waiting(Waiting.ROLL_OR_DOUBLE, Color.BLACK)
    pty.press("black", ButtonKind.DOUBLE)
    pty.waiting(Waiting.CUBE_RESPONSE, Color.WHITE)
    pty.press("white", ButtonKind.TAKE)
    pty.waiting(Waiting.ROLL_OR_DOUBLE, Color.BLACK)
    assert pty.pins.pin(DEFAULT_CUBE_PINS.white).state  # the cube on White's side
    roll(pty, Color.BLACK, REPLY)
    before = pty.controller.match.position
    reply = legal(before, REPLY, "24/18 13/9")
    by_hand(pty, before, reply)
    pty.settled_on()
    pty.press("black", ButtonKind.DONE)
    pty.waiting(Waiting.ROLL_OR_DOUBLE, Color.WHITE)
    resign_single_accepted(pty, Color.WHITE)
    pty.waiting(Waiting.SET_BOARD)
    assert pty.controller.match.score == (0, 2) and pty.controller.match.crawford
    # the Crawford game: set up, its LED lit, and nobody may double
    pty.emulator.set_zones(layout(pty.controller.match.position))
    opening_roll(pty, 1, 2)
    assert pty.pins.pin(DEFAULT_CUBE_PINS.crawford).state
    before = pty.controller.match.position
    by_hand(pty, before, legal(before, (2, 1), "13/11 6/5"))
    pty.settled_on()
    pty.press("black", ButtonKind.DONE)
    pty.waiting(Waiting.ROLL_OR_DOUBLE, Color.WHITE)
    assert not pty.controller.prompt.can_double
    pty.press("white", ButtonKind.DOUBLE)
    pty.pump(lambda: any("refused" in line for line in pty.controller.log), "the double refused")
    assert pty.controller.prompt.waiting is Waiting.ROLL_OR_DOUBLE
    resign_single_accepted(pty, Color.WHITE)
    pty.waiting(Waiting.MATCH_OVER)
    match = pty.controller.match
    assert match.is_over and match.winner is Color.BLACK and match.score == (0, 3)
    verdict = validate_file(str(pty.controller.journal.path))
    assert verdict.exit_code == 0, verdict.render()
