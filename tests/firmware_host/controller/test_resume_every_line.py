"""A controller killed after any line of its journal resumes: every line boundary of whole
matches in every variant, not a sample."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from played import played_once

from firmware_host.controller import Controller
from firmware_host.emulator.table import EmulatedTable
from firmware_host.record.journal import JOURNAL_NAME, Journal, read_journal
from firmware_host.record.signing import TableKey
from firmware_host.settings import Settings
from game.board import Variant
from game.events import MATCH_EVENT_TYPES
from game.validate import validate_file

SEEDS = {Variant.BACKGAMMON: 1, Variant.CATCHGAMMON: 2, Variant.RUNGAMMON: 3}


def settings(variant: Variant) -> Settings:
    return Settings(variant=variant, length=2, images=False)


def whole_match(variant: Variant, factory: pytest.TempPathFactory) -> Path:
    """The journal of a whole 2-point match of `variant`, played once in the test session by the
    simulated people."""
    def play(record: Path) -> None:
        with EmulatedTable(settings(variant), record, SEEDS[variant]) as table:
            assert table.run(), "the simulated match must finish"
    return played_once(factory, f"whole-{variant.value}", play) / JOURNAL_NAME


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def match_types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events if e["type"] in MATCH_EVENT_TYPES]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("resume")


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_the_journal_cut_after_any_line_resumes_to_the_same_match(variant: Variant, root: Path,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    whole = whole_match(variant, tmp_path_factory)
    lines = lines_of(whole)
    full = match_types([json.loads(line) for line in lines])
    for cut in range(1, len(lines)):
        record = root / f"{variant.value}-{cut}"
        record.mkdir()
        (record / JOURNAL_NAME).write_bytes(b"".join(lines[:cut]))
        with Journal(record, key=TableKey.load_or_create()) as journal:
            controller = Controller.open(settings(variant), journal, wall_time=lambda: 5000.0)
        resumed = read_journal(record)  # chain and rules hold after the resume wrote its lines
        played = match_types(resumed)
        assert played == full[:len(played)], f"cut after line {cut}: the resumed record is another match"
        recorded = match_types([json.loads(line) for line in lines[:cut]])
        assert len(played) >= len(recorded), f"cut after line {cut}: events lost"
        assert controller.prompt.waiting is not None
        shutil.rmtree(record)


def _next_match_event(events: list[dict[str, Any]], i: int) -> str:
    return str(next(e["type"] for e in events[i + 1:] if e["type"] in MATCH_EVENT_TYPES))


BOUNDARIES: dict[str, Callable[[list[dict[str, Any]], int], bool]] = {
    "after the play that ends a game": lambda es, i: es[i]["type"] == "play" and _next_match_event(es, i) == "game_end",
    "between game_end and game_start": lambda es, i: es[i]["type"] == "game_end",
    "after the last play": lambda es, i: es[i]["type"] == "play" and all(
        e["type"] != "play" for e in es[i + 1:]),
    "after match_end": lambda es, i: es[i]["type"] == "match_end",
}


@pytest.mark.parametrize("boundary", sorted(BOUNDARIES))
def test_a_match_resumed_between_the_lines_of_one_action_finishes_legal(
        boundary: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Session on to the end (Backgammon; benchmarks/fault_campaign.py plays on from every cut of every variant)."""
    variant = Variant.BACKGAMMON
    lines = lines_of(whole_match(variant, tmp_path_factory))
    events = [json.loads(line) for line in lines]
    cut = next(i for i in range(len(events) - 1) if BOUNDARIES[boundary](events, i)) + 1
    (tmp_path / JOURNAL_NAME).write_bytes(b"".join(lines[:cut]))
    with EmulatedTable(settings(variant), tmp_path, SEEDS[variant] + 100) as table:
        table.emulator.set_zones(_board_of(table))
        assert table.run(), f"{boundary}: the resumed match did not finish"
    verdict = validate_file(str(tmp_path / JOURNAL_NAME))
    assert verdict.exit_code == 0 and verdict.complete, verdict.render()


def _board_of(table: EmulatedTable) -> tuple[str, ...]:
    """The checkers as the match stands: the people set the board up as it was when the host died."""
    from game.zones import layout

    return layout(table.controller.match.position)
