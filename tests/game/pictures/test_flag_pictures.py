"""Every referee flag's picture agrees with the flag's words: simulated matches of each variant,
each flag's message parsed and its picture's words (the PNG's text chunks, written from the very
list drawn under the boards) parsed, and both checked against the sensed board and the rules."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from played import played_once

from game.board import OWN_TO_BOARD, Color
from game.pictures.flag import BOARD_FLAGS, flag_title
from game.position import Position
from game.zones import BLACK_BAR, BLACK_OFF, WHITE_BAR, WHITE_OFF, ZoneReading, layout

RUNS = {"backgammon": 11, "rungammon": 7, "catchgammon": 3}
"""A seed for each variant whose match flags both illegal and misplaced plays."""

DIFF = re.compile(r"(point (\d+)|White's bar|Black's bar|White's tray|Black's tray) has (.+?), expected (.+?)")
NAMED = {"White's bar": WHITE_BAR, "Black's bar": BLACK_BAR, "White's tray": WHITE_OFF, "Black's tray": BLACK_OFF}


@pytest.fixture(scope="module", params=sorted(RUNS))
def record(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    variant = str(request.param)

    def play(folder: Path) -> None:
        subprocess.run([sys.executable, "-m", "firmware_host", "simulate", "--variant", variant, "--seed",
                        str(RUNS[variant]), "--match-to", "3", "--record", str(folder / "m")],
                       check=True, capture_output=True, timeout=300)
    return variant, played_once(tmp_path_factory, f"flags-{variant}", play) / "m"


def flags(directory: Path) -> list[dict[str, Any]]:
    events = [json.loads(line) for line in (directory / "journal.jsonl").read_text().splitlines()]
    return [e for e in events if e.get("type") == "flag"]


def clauses(message: str) -> list[str]:
    """The differences a flag's message lists: "point 6 has 2 white, expected 3 white", ..."""
    return [m.group(0) for m in re.finditer(DIFF.pattern + r"(?=; | \(nearest| \.\.\.|\)$|$)", message)]


def check_clause(clause: str, sensed: list[str], board: tuple[str, ...], own: tuple[int, ...]) -> None:
    """A clause's point is the flagged player's own number: its words are what that zone read
    and what the expected board holds there."""
    match = DIFF.fullmatch(clause)
    assert match, clause
    zone = own[int(match.group(2))] if match.group(2) else NAMED[match.group(1)]
    reading = ZoneReading.parse(sensed[zone - 1])
    assert match.group(3) == reading.words(), clause
    assert match.group(4) == ZoneReading.of_stack(board[zone - 1]).at(reading.capability).words(), clause


@pytest.mark.slow
def test_every_board_flag_has_a_picture_that_says_what_its_words_say(record: tuple[str, Path]) -> None:
    variant, directory = record
    raised = flags(directory)
    board_flags = [(n, f) for n, f in enumerate(raised, start=1) if f["kind"] in BOARD_FLAGS]
    assert {f["kind"] for _, f in board_flags} >= {"illegal", "misplaced"}
    for number, flag in enumerate(raised, start=1):
        if flag["kind"] not in BOARD_FLAGS:
            assert "image" not in flag, flag  # a die's flag: the board is not in question
            continue
        assert flag["image"] == f"flags/flag-{number:04d}.png"
        with Image.open(directory / flag["image"]) as picture:
            title, listed = picture.info["Title"], picture.info["Description"].splitlines()
        assert title == flag_title(flag, number)
        first = title.splitlines()[0]
        dice = flag["dice"]
        assert f"Flag {number}: {flag['code']} ({flag['kind']}), {flag['player'].capitalize()} to play " \
               f"{dice[0]}-{dice[1]}, game {flag['game']}, move {flag['move']}" == first
        pictured = [re.sub(r"^\d+\. ", "", line) for line in listed]
        worded = clauses(flag["message"])
        assert worded and worded == pictured[:len(worded)], (flag["message"], pictured)
        if not flag["message"].endswith("..."):
            assert worded == pictured
        expected = Position.from_document(flag["expected"])
        board = tuple(flag.get("expected_board") or layout(expected))
        own = OWN_TO_BOARD[expected.variant, Color(flag["player"])]
        for clause in pictured:
            check_clause(clause, flag["sensed"], board, own)
        because = flag["expected_play"]
        assert f"nearest: {because}" in flag["message"] and title.splitlines()[1] == f"expected: {because}"
        if because.startswith("legal play "):
            results = {p.notation(): layout(p.after_moves) for p in expected.legal_plays(tuple(dice))}
            assert results[because.removeprefix("legal play ")] == board, "Expected: the nearest legal play's result"
        assert expected.variant.value == variant
