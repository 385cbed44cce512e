"""Helpers for tests: positions written in board points (White's numbering), and set-ups."""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from game.board import CHECKERS, Color, Variant
from game.match import Match
from game.position import Position
from game.zones import ZoneReading


def board(variant: Variant, turn: Color, white: dict[int, int], black: dict[int, int],
          trapped: dict[int, str] | None = None, bar: tuple[int, int] = (0, 0),
          off: tuple[int, int] | None = None) -> Position:
    """Checkers by board point; `trapped[p]` = "w"/"b" names the colour of the one checker
    trapped at the bottom of p (counted in that colour's mapping, as 1).

    Off counts default to whatever makes 15 checkers a side.
    """
    trapped = trapped or {}
    points = []
    for p in range(1, 25):
        w, b = white.get(p, 0), black.get(p, 0)
        under = trapped.get(p)
        if under == "w":
            assert w == 1, f"trapped white on {p} must be counted as 1 white checker"
            points.append("w" + "b" * b)
        elif under == "b":
            assert b == 1, f"trapped black on {p} must be counted as 1 black checker"
            points.append("b" + "w" * w)
        else:
            points.append("w" * w + "b" * b)
    if off is None:
        off = (CHECKERS - sum(white.values()) - bar[0], CHECKERS - sum(black.values()) - bar[1])
    return Position(variant, turn, tuple(points), bar, off)


def notations(position: Position, dice: tuple[int, int]) -> set[str]:
    return {play.notation() for play in position.legal_plays(dice)}


@contextmanager
def precondition() -> Iterator[None]:
    """The set-up of a test, said apart: a failure there means the scene was not reached."""
    try:
        yield
    except AssertionError as exc:
        pytest.fail(f"precondition failed: {exc}")


def reading(short: str | tuple[int, int] | int) -> ZoneReading:
    """A zone reading from a short form: a stack "bww", colour counts (white, black), or a count."""
    if isinstance(short, str):
        return ZoneReading.of_stack(short)
    if isinstance(short, tuple):
        return ZoneReading.of_colours(*short)
    return ZoneReading.of_count(short)


def readings(shorts: dict[int, str | tuple[int, int] | int]) -> dict[int, ZoneReading]:
    """Zone readings by zone id, from short forms."""
    return {zone: reading(short) for zone, short in shorts.items()}


def records(match: Match) -> Sequence[Mapping[str, Any]]:
    """A match's events read as the plain records a file holds (any field, no narrowing by type)."""
    return match.events


def legal_so_far(journal: Path) -> bool:
    """The journal of a match (in play or over) replays legally, its chain and signatures intact;
    `validate` exits 0 for it once the match is finished, 1 while it is not."""
    from game.cli import main as game_main
    from game.validate import validate_file

    verdict = validate_file(str(journal))
    assert verdict.integrity is not None
    return not verdict.problems and not verdict.integrity.tampered and game_main(
        ["validate", str(journal)], io.StringIO()) == (0 if verdict.complete else 1)
