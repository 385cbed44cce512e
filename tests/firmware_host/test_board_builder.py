"""What a board builder met on a first night (issue 12), at an emulated table scripted action by
action: the display shows every code the referee document lists and for how long, the zone
LEDs light and go dark when they should, a STACKS board is told its stacks, the opening roll
says whose die is whose, a roll that cannot be played passes the turn, every useless press gets
NO, and the links' troubles are in the log, the view and the journal."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from builders import precondition
from tables import ScriptedTables, hand, journal, opening, waiting
from tables import press as press_and_settle

from drivers.events import ButtonKind, Player
from drivers.protocol import AckStatus
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.table import EmulatedTable
from firmware_host.record.journal import Journal
from firmware_host.settings import Profile, Settings
from firmware_host.terminal import render
from game.board import Color, Variant
from game.codes import FLASH_SECONDS
from game.match import Match, Phase
from game.zones import Capability, layout

Make = Callable[..., EmulatedTable]
press = partial(press_and_settle, settle=0.3)


@pytest.fixture
def make(scripted: ScriptedTables) -> Make:
    def build(variant: Variant = Variant.BACKGAMMON, capability: Capability = Capability.STACKS,
              profile: Profile = Profile.TOURNAMENT, record: Path | None = None, settle: bool = True,
              **options: Any) -> EmulatedTable:
        return scripted(Settings(variant=variant, length=1, profile=profile), record=record, settle=settle,
                        capability=capability, **options)

    return build


def display(table: EmulatedTable) -> str:
    assert table.table.display is not None
    return "".join(table.table.display.text)


def log_since(table: EmulatedTable, mark: int) -> list[str]:
    return list(table.controller.log)[mark:]


# -- 1. a STACKS board learns its stacks ---------------------------------------------------

def test_a_stacks_board_is_told_the_start_of_a_new_game_and_a_counts_board_is_not(make: Make) -> None:
    stacks = make()
    assert stacks.controller.prompt.waiting is Waiting.OPENING_ROLL
    assert stacks.emulator.port().received["SetStacks"] == 1
    counts = make(capability=Capability.COUNTS)
    assert counts.controller.prompt.waiting is Waiting.OPENING_ROLL
    assert counts.emulator.port().received["SetStacks"] == 0


def catchgammon_with_a_trapped_white(seed: int = 0) -> Match:
    """A Catchgammon match played at random until a black checker traps a white one (a stack
    "w...b" that a STACKS board powered up, or given the stack all at once, reads in another order),
    White then to roll."""
    for attempt in range(seed, seed + 200):
        rng = random.Random(attempt)
        match = Match(Variant.CATCHGAMMON, 1)
        while not match.is_over and match.move_number < 60:
            if match.phase is Phase.OPENING:
                match.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
            elif match.phase is Phase.ROLL:
                if match.position.turn is Color.WHITE and any(
                        s.startswith("w") and s.endswith("b") for s in match.position.points):
                    return match
                match.roll(rng.randint(1, 6), rng.randint(1, 6))
            else:
                plays = match.legal_plays()
                match.play(rng.choice(plays) if plays else ())
    raise AssertionError("no trapped white checker in 200 random matches")


def journal_of(match: Match, directory: Path) -> Path:
    with Journal(directory, fsync=False) as written:
        for event in match.events_from(0):
            written.write(event)
    return directory


def test_a_resumed_match_tells_a_stacks_board_the_order_of_a_stack_set_by_hand(make: Make, tmp_path: Path) -> None:
    match = catchgammon_with_a_trapped_white()
    table = make(Variant.CATCHGAMMON, record=journal_of(match, tmp_path / "resumed"), settle=False)
    assert table.controller.resumed and table.controller.prompt.waiting is Waiting.SET_BOARD
    table.emulator.set_zones(layout(match.position))  # the players set the board up, each stack whole
    with precondition():
        table.emulator.scan()
        misordered = [z for z, (sensed, true) in enumerate(zip(table.emulator.sensed(), layout(match.position),
                                                               strict=True), 1) if sensed.stack != true]
        assert misordered, "the board reads every stack in its true order: nothing to tell"
    table.wait(1.5)
    prompt = table.controller.prompt
    assert (prompt.waiting, prompt.player) == (Waiting.ROLL_OR_DOUBLE, Color.WHITE), prompt.describe()
    assert [r.stack for r in table.emulator.sensed()] == list(layout(match.position))
    assert any(line.startswith("told the board the order of its stacks") for line in table.controller.log)
    assert journal(table, "flag") == []


# -- 2. whose die is whose at the opening roll ---------------------------------------------

def test_the_opening_roll_shows_whose_die_is_whose_as_each_lands(make: Make) -> None:
    table = make()
    assert display(table) == "--"
    assert "White's die 0xd1ce0001 -, Black's die 0xd1ce0002 -" in table.controller.prompt.message
    table.emulator.roll(2, 5, rolling_scans=(40, 5))  # Black's die (the higher id) lands first
    table.wait(0.3)
    assert display(table) == "-5"
    assert "Black's die 0xd1ce0002 5" in render(table.controller, table.clock.now(), 200, 60)
    table.wait(1.0)
    assert (table.controller.prompt.waiting, table.controller.prompt.player) == (Waiting.PLAY, Color.BLACK)
    assert display(table) == "25"  # both faces, White's on the left, for a moment
    table.wait(FLASH_SECONDS)
    assert display(table) == "64"  # then the cube
    shown = [e["text"] for e in journal(table, "display")]
    assert shown[-4:] == ["--", "-5", "25", "64"]


# -- 4. a roll that cannot be played -------------------------------------------------------

def white_cannot_play() -> tuple[Match, tuple[int, int]]:
    """A Backgammon match at White's roll, and a roll White could not play."""
    for seed in range(200):
        rng = random.Random(seed)
        match = Match(Variant.BACKGAMMON, 1)
        while not match.is_over and match.move_number < 80:
            if match.phase is Phase.OPENING:
                match.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
            elif match.phase is Phase.ROLL:
                blocked = [(a, b) for a in range(1, 7) for b in range(a, 7)
                           if not match.position.legal_plays((a, b))]
                if blocked and match.position.turn is Color.WHITE:
                    return match, blocked[0]
                match.roll(rng.randint(1, 6), rng.randint(1, 6))
            else:
                plays = match.legal_plays()
                match.play(rng.choice(plays) if plays else ())
    raise AssertionError("no unplayable roll in 200 random matches")


@pytest.mark.parametrize("profile", [Profile.TOURNAMENT, Profile.CASUAL])
def test_a_roll_that_cannot_be_played_passes_the_turn_at_once(make: Make, tmp_path: Path,
                                                              profile: Profile) -> None:
    match, dice = white_cannot_play()
    table = make(profile=profile, record=journal_of(match, tmp_path / "blocked"), settle=False)
    table.emulator.set_zones(layout(match.position))
    table.wait(1.0)
    assert table.controller.prompt.waiting is Waiting.ROLL_OR_DOUBLE
    table.emulator.roll(*dice)
    table.wait(0.6)
    [passed] = journal(table, "play")[-1:]
    assert (passed["player"], passed["moves"], passed["dice"]) == ("white", [], list(dice))
    prompt = table.controller.prompt
    assert (prompt.waiting, prompt.player) == (Waiting.ROLL_OR_DOUBLE, Color.BLACK)  # no done press
    assert display(table) == "NP"
    assert any(f"white cannot play {max(dice)}{min(dice)}: the turn passes" in line for line in table.controller.log)
    table.wait(FLASH_SECONDS)
    assert display(table) == "64"


def test_under_the_traditional_profile_a_player_who_cannot_play_presses_done(make: Make, tmp_path: Path) -> None:
    match, dice = white_cannot_play()
    table = make(profile=Profile.TRADITIONAL, record=journal_of(match, tmp_path / "blocked"), settle=False)
    table.emulator.set_zones(layout(match.position))
    table.wait(1.0)
    table.emulator.roll(*dice)
    table.wait(0.6)
    prompt = table.controller.prompt
    assert (prompt.waiting, prompt.player, prompt.code) == (Waiting.PLAY, Color.WHITE, "NP")
    assert display(table) == "NP" and "press done to pass the turn" in prompt.message
    table.wait(FLASH_SECONDS + 1)
    assert display(table) == "NP"  # it stands with the prompt
    press(table, "white", ButtonKind.DONE)
    assert journal(table, "play")[-1]["moves"] == []
    assert table.controller.prompt.player is Color.BLACK


# -- 6. flag codes on the display, for as long as referee.md says ----------------------------

def test_an_early_roll_and_a_cocked_die_show_their_codes_then_the_cube(make: Make) -> None:
    table = make()
    opening(table)
    table.emulator.roll(5, 5)  # Black throws while White is still to play
    table.wait(0.6)
    assert display(table) == "ER" and journal(table, "flag")[-1]["code"] == "ER"
    table.wait(FLASH_SECONDS)
    assert display(table) == "64"
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    table.emulator.roll(4, 2, cocked=[1])
    table.wait(0.6)
    assert display(table) == "CO" and "roll both dice again" in table.controller.prompt.message
    table.wait(FLASH_SECONDS)
    assert display(table) == "64"
    texts = [e["text"] for e in journal(table, "display")]
    assert "ER" in texts and "CO" in texts


# -- 7. the zones concerned light for the between-turns flag --------------------------------

def test_checkers_moved_between_turns_light_the_zones_concerned(make: Make) -> None:
    table = make()
    opening(table)
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE
    hand(table, (13, 10))  # a checker moved before Black rolls
    assert waiting(table) is Waiting.SET_BOARD and display(table) == "SC"
    assert table.emulator.port().lit_zones == {10, 13}
    assert journal(table, "zone_leds")[-1]["zones"] == [10, 13]
    hand(table, (10, 13))
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE
    assert table.emulator.port().lit_zones == frozenset()


# -- 8. a misplaced checker put back clears SC and the LEDs at once --------------------------

def test_set_checkers_clears_as_soon_as_the_board_is_right_again(make: Make) -> None:
    table = make()
    opening(table)
    hand(table, (8, 5), (6, 4))  # 6/4 is no move of 3-1
    press(table, "white", ButtonKind.DONE)
    prompt = table.controller.prompt
    assert (prompt.waiting, display(table)) == (Waiting.CORRECT, "SC")
    assert table.emulator.port().lit_zones
    hand(table, (4, 5))  # put right: no done press yet
    assert table.controller.prompt.waiting is Waiting.CORRECT
    assert display(table) == "64" and table.emulator.port().lit_zones == frozenset()
    hand(table, (5, 3))  # wrong again: shown again
    assert display(table) == "SC" and table.emulator.port().lit_zones
    hand(table, (3, 5))
    press(table, "white", ButtonKind.DONE)
    assert journal(table, "play")[-1]["moves"] == [[8, 5], [6, 5]]


# -- 9. every press the table cannot use gets NO and a reason -------------------------------

@pytest.mark.parametrize(("player", "button", "why"), [
    ("white", ButtonKind.PASS, "pass does nothing while the table waits for: play (done, double, take do)"),
    ("black", ButtonKind.DONE, "it is white's to press now (play)"),
])
def test_a_press_the_table_cannot_use_shows_no_and_says_why(make: Make, player: Player, button: ButtonKind,
                                                             why: str) -> None:
    table = make()
    opening(table)
    mark = len(table.controller.log)
    table.press(player, button)
    table.wait(0.1)
    assert display(table) == "NO"
    assert f"{player} pressed {button.value}: NO, {why}" in log_since(table, mark)
    table.wait(FLASH_SECONDS)
    assert display(table) == "64"
    assert table.controller.prompt.waiting is Waiting.PLAY


def test_a_refused_double_shows_no_for_a_moment_only(make: Make) -> None:
    table = make()
    opening(table)
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    press(table, "black", ButtonKind.DOUBLE)
    press(table, "white", ButtonKind.TAKE)
    press(table, "black", ButtonKind.DOUBLE)  # the cube is White's now
    assert display(table) == "NO"
    table.wait(FLASH_SECONDS)
    assert display(table) == " 2"


# -- 10. a board that lacks what the configuration needs -------------------------------------

def test_a_board_without_dice_on_a_table_reading_dice_from_the_board_says_so(make: Make) -> None:
    from drivers.protocol import Features

    table = make(settle=False)
    port = table.emulator.port()
    port.features &= ~Features.DICE  # a builder's board: no dice (yet)
    table.wait(1.0)
    unfit = table.controller.links.unfit
    assert unfit is not None and "announced no DICE, but [dice] source = \"board\"" in unfit
    assert any(line.startswith("does not fit: ") for line in table.controller.log)
    [up] = journal(table, "link")
    assert up["misfits"] == [unfit] and "DICE" not in up["features"]


# -- 11. a missing or refusing ACK for the zone LEDs -----------------------------------------

def test_zone_leds_refused_or_unacknowledged_are_logged_once_and_counted(make: Make) -> None:
    table = make()
    table.emulator.led_ack = AckStatus.UNSUPPORTED
    opening(table)
    hand(table, (8, 5), (6, 4))
    press(table, "white", ButtonKind.DONE)  # flagged: zones lit
    hand(table, (4, 5))  # put right: zones dark
    hand(table, (5, 4))  # wrong again: lit again
    refusals = [line for line in table.controller.log if "SET_ZONE_LEDS not done (UNSUPPORTED)" in line]
    assert len(refusals) == 1
    source = f"emulator://{table.emulator.name}"
    assert table.controller.links.failed[source, "SET_ZONE_LEDS", "UNSUPPORTED"] >= 3
    assert "SET_ZONE_LEDS UNSUPPORTED x" in table.controller.links.status()
    table.emulator.led_ack = None
    hand(table, (4, 5))
    table.wait(3.0)
    assert table.controller.links.failed[source, "SET_ZONE_LEDS", "no ACK"] == 1


# -- 12. the link's counts in the log, the view and the journal ------------------------------

def test_a_noisy_cable_shows_in_the_log_the_view_and_the_journal(make: Make) -> None:
    table = make()
    table.emulator.line_noise = 0.3
    mark = len(table.controller.log)
    table.wait(20.0)
    firsts = [line for line in log_since(table, mark) if line.startswith(f"emulator://{table.emulator.name}: first ")]
    assert firsts and all("garbage bytes" in line for line in firsts)  # each kind of fault said once, as it comes
    said = " ".join(line.split("(")[0] for line in firsts)
    assert len(firsts) == len(set(firsts)) and {"junk", "crc"} <= set(said.replace(",", "").split())
    view = render(table.controller, table.clock.now())
    assert re.search(r"link  up, \d+ frames\n.*  faults junk \d+B, crc \d+", view), view
    table.emulator.unplug()
    table.wait(5.0)
    table.emulator.line_noise = 0.0
    table.emulator.replug()
    table.wait(3.0)
    down, up = journal(table, "link")[-2:]
    assert (down["state"], up["state"]) == ("down", "up")
    assert down["stats"]["garbage_bytes"] + down["stats"]["bad_crc"] + down["stats"]["cut_frames"] > 0
    assert up["stats"]["connects"] == 2


def test_the_display_and_zone_leds_are_in_the_log_and_the_journal(make: Make) -> None:
    table = make()
    log = table.controller.log
    assert "display: [SC] set checkers; LEDs centre" in log
    assert "display: [--] opening roll: White's die not landed, Black's die not landed; LEDs centre" in log
    opening(table)
    hand(table, (8, 5), (6, 4))
    press(table, "white", ButtonKind.DONE)
    assert any(line.startswith("zone LEDs: ") for line in table.controller.log)
    shown = journal(table, "display")
    assert shown[0] == {**shown[0], "text": "SC", "leds": ["centre"]}
    assert journal(table, "zone_leds")[-1]["zones"]
