"""The bot as one of the simulated people: its hands carry out what it decides, at the emulated table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bot_fixtures import shipped

from firmware_host.emulator.people import Habits
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import Settings
from game.board import Color, Variant
from game.bot.context import MatchContext
from game.match import Phase
from game.position import Position
from game.replay import Replayer


@pytest.mark.slow
def test_a_bot_decides_every_play_of_its_side_at_the_emulated_table(tmp_path: Path) -> None:
    variant = Variant.RUNGAMMON
    bot = shipped(variant)
    habits = Habits(mistake_rate=0.0)
    with EmulatedTable(Settings(variant=variant, length=1), tmp_path / "t", seed=6, habits=habits,
                       line_noise=0.0, flicker_rate=0.0) as table:
        table.people.bots = {Color.BLACK: bot}
        assert table.run(max_seconds=7200)
    events = [json.loads(line) for line in (tmp_path / "t" / "journal.jsonl").read_text().splitlines()]
    replayer = Replayer()
    compared = 0
    for number, event in enumerate(events, 1):
        match = replayer.match
        if (event.get("type") == "play" and event.get("player") == "black" and match is not None
                and match.phase is Phase.MOVE and match.dice is not None):
            chosen = bot.choose_play(match.position, match.dice, MatchContext.of(match))  # the prompt tells the score
            made = Position.from_document(event["position"])
            assert chosen is None or chosen.after_moves == made, (number, match.position.to_json(), match.dice)
            compared += 1
        replayer.feed(event, number)
    assert compared > 10
