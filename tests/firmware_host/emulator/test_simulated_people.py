"""The simulated people at the emulated table: a hand that finds the board not as it expected
looks again and sets it right, so the embedded default and `simulate` always finish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_host.emulator.table import EmulatedTable
from firmware_host.errors import ImpossibleAction
from firmware_host.settings import Settings


@pytest.mark.slow
def test_a_hand_that_finds_the_board_not_as_expected_sets_it_right_and_the_match_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with EmulatedTable(Settings(length=1), tmp_path / "t", seed=4, line_noise=0.0, flicker_rate=0.0) as table:
        lift = table.emulator.lift
        missed: list[int] = []

        def first_lift_finds_nothing(zone: int) -> str:
            if not missed:
                missed.append(zone)
                raise ImpossibleAction(f"cannot lift from empty zone {zone}")
            return lift(zone)

        monkeypatch.setattr(table.emulator, "lift", first_lift_finds_nothing)
        assert table.run(max_seconds=3600)
        assert missed and table.people.recoveries == 1 and table.loop.errors == 0
    events = [json.loads(line) for line in (tmp_path / "t" / "journal.jsonl").read_text().splitlines()]
    assert events[-1]["type"] == "signature" and any(e["type"] == "match_end" for e in events)
