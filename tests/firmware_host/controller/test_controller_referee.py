"""A referee's ruling at the table (`Controller.referee`): applied where the state allows it,
shown on the cube display, journaled with the referee's name; refused (and journaled) otherwise."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import legal_so_far
from tables import ScriptedTables, of_type, waiting

from drivers.events import ButtonKind
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import Profile, Settings
from game.board import Color


@pytest.fixture
def make(scripted: ScriptedTables, tmp_path: Path) -> Callable[..., EmulatedTable]:
    def build(profile: Profile = Profile.TOURNAMENT, record: str = "t", **settings: Any) -> EmulatedTable:
        return scripted(Settings(length=3, profile=profile, **settings), record=tmp_path / record, seed=1)

    return build


def display(table: EmulatedTable) -> str:
    assert table.table.display is not None
    return "".join(table.table.display.text)


def illegal_opening(table: EmulatedTable) -> None:
    table.emulator.roll(6, 1)
    table.wait(0.6)
    table.emulator.move(13, 7)  # the 1 left unused
    table.wait(0.6)
    table.press("white", ButtonKind.DONE)
    table.wait(0.6)


def test_acknowledging_a_flag_is_shown_and_journaled_with_the_referees_name(
        make: Callable[..., EmulatedTable]) -> None:
    table = make()
    illegal_opening(table)
    assert waiting(table) is Waiting.CORRECT and table.controller.flags == 1
    event = table.controller.referee("Anna Berg", "acknowledge", flag=1, ruling="r1")
    assert (event["applied"], event["outcome"], display(table)) == (True, "applied", "RF")
    [journaled] = of_type(table, "referee")
    assert {k: journaled[k] for k in ("referee", "action", "flag", "ruling", "applied")} == {
        "referee": "Anna Berg", "action": "acknowledge", "flag": 1, "ruling": "r1", "applied": True}
    assert waiting(table) is Waiting.CORRECT  # an acknowledgement changes nothing else
    assert legal_so_far(table.journal.path)


@pytest.mark.parametrize(("action", "fields", "why"), [
    ("acknowledge", {"flag": 2}, "there is no flag 2"),
    ("acknowledge", {}, "needs a flag number"),
    ("accept", {"flag": 1}, "accept applies only"),
    ("time_penalty", {"player": Color.WHITE, "seconds": 0.0}, "seconds > 0"),
    ("overrule", {}, "unknown action"),
])
def test_a_ruling_that_does_not_apply_now_is_refused_and_journaled(
        make: Callable[..., EmulatedTable], action: str, fields: dict[str, Any], why: str) -> None:
    table = make()
    illegal_opening(table)
    event = table.controller.referee("Anna", action, **fields)
    assert not event["applied"] and why in event["outcome"] and display(table) == "NO"
    assert of_type(table, "referee")[0]["outcome"] == event["outcome"]
    assert waiting(table) is Waiting.CORRECT


def test_under_the_traditional_rule_the_referee_accepts_an_illegal_play(make: Callable[..., EmulatedTable]) -> None:
    table = make(Profile.TRADITIONAL)
    illegal_opening(table)
    assert waiting(table) is Waiting.ACCEPT_ILLEGAL
    assert table.controller.referee("Anna", "accept", flag=1)["applied"]
    [play] = of_type(table, "play")
    assert play["moves"] == [[13, 7]] and "accepted_illegal" in play
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE
    assert legal_so_far(table.journal.path)


def test_the_referee_requires_the_correction(make: Callable[..., EmulatedTable]) -> None:
    table = make(Profile.TRADITIONAL)
    illegal_opening(table)
    assert table.controller.referee("Anna", "correct", flag=1)["applied"]
    assert waiting(table) is Waiting.CORRECT and of_type(table, "correction_required")
    table.emulator.move(8, 7)
    table.wait(0.6)
    table.press("white", ButtonKind.DONE)
    table.wait(0.6)
    assert len(of_type(table, "play")) == 1


def test_a_time_penalty_comes_off_the_reserve_and_survives_a_restart(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    before = table.controller.clock.reserve[Color.BLACK]  # type: ignore[union-attr]
    assert table.controller.referee("Anna", "time_penalty", player=Color.BLACK, seconds=60)["applied"]
    assert table.controller.clock.reserve[Color.BLACK] == before - 60  # type: ignore[union-attr]
    assert of_type(table, "clock")[-1]["black"] == before - 60
    table.close()
    again = make(record="t")
    assert again.controller.clock.reserve[Color.BLACK] == before - 60  # type: ignore[union-attr]


def test_a_penalty_beyond_the_reserve_loses_the_match_on_time(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    table.emulator.roll(3, 1)
    table.wait(0.6)  # White's clock runs
    table.controller.referee("Anna", "time_penalty", player=Color.WHITE, seconds=3600)
    table.wait(0.2)
    assert table.controller.match.is_over and table.controller.match.winner is Color.BLACK
    assert of_type(table, "time_loss")[0]["player"] == "white"


def test_no_play_is_ruled_on_while_the_board_is_out_of_reach(make: Callable[..., EmulatedTable]) -> None:
    table = make(Profile.TRADITIONAL)
    illegal_opening(table)
    table.emulator.unplug()
    table.wait(3.0)
    assert table.controller.links_down
    refused = table.controller.referee("Anna", "accept", flag=1)
    assert not refused["applied"] and "out of reach" in refused["outcome"] and display(table) == "CA"
    assert table.controller.referee("Anna", "acknowledge", flag=1)["applied"]  # seeing a flag needs no board
    assert of_type(table, "play") == []
