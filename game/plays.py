"""Moves and plays, and their standard notation (`24/18 13/11*`, `bar/22`, `6/off`)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.board import BAR, OFF
from game.errors import NotationError

if TYPE_CHECKING:
    from game.position import Position


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die, in the mover's own numbering (25 = bar, 0 = off)."""

    source: int
    target: int
    hit: bool = False  # a hit (Backgammon) or a trap (Catchgammon)

    def __str__(self) -> str:
        return f"{_point_name(self.source)}/{_point_name(self.target)}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Play:
    """A legal play: its moves in the order played, and the position it produces.

    `position` is the board after the play with the mover still to play (as the play is made);
    `next_position` is the same with the turn passed, the position the opponent rolls in.
    """

    moves: tuple[Move, ...]
    position: Position

    @property
    def next_position(self) -> Position:
        """The position after the play, the opponent on roll."""
        return self.position.pass_turn()

    def notation(self) -> str:
        """The play in standard notation."""
        return format_moves(self.moves)

    def to_document(self) -> dict[str, Any]:
        """The play as `plays --json` prints it: notation, moves, the position after it."""
        return {
            "notation": self.notation(),
            "moves": [[m.source, m.target] for m in self.moves],
            "position": self.position.to_document(),
        }

    def __str__(self) -> str:
        return self.notation()


def _point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def format_moves(moves: tuple[Move, ...] | list[Move]) -> str:
    """Standard notation: moves sorted from the back, repeats folded as `13/11(2)`."""
    if not moves:
        return "(no play)"
    counts = Counter(moves)
    ordered = sorted(counts, key=lambda m: (-m.source, -m.target, not m.hit))
    return " ".join(str(m) + (f"({counts[m]})" if counts[m] > 1 else "") for m in ordered)


_TOKEN = re.compile(r"^(?P<chain>[a-z0-9*/]+?)(?:\((?P<times>[1-4])\))?$")


def parse_moves(text: str) -> list[tuple[int, int]]:
    """Read notation into (source, target) steps: `24/18/12*`, `13/11(2)`, `bar/22`, `6/off`.

    A chain such as `24/14` stays one step: which dice it used is for the caller to
    resolve against the legal plays.
    """
    steps: list[tuple[int, int]] = []
    for token in text.lower().replace(",", " ").split():
        match = _TOKEN.match(token)
        if not match:
            raise NotationError(f"cannot read move {token!r} in {text!r}")
        points = [_parse_point(p, text) for p in match["chain"].replace("*", "").split("/")]
        if len(points) < 2:
            raise NotationError(f"move {token!r} in {text!r} needs a source and a target")
        chain = list(zip(points, points[1:], strict=False))
        steps.extend(chain * int(match["times"] or 1))
    return steps


def _parse_point(word: str, text: str) -> int:
    if word == "bar":
        return BAR
    if word == "off":
        return OFF
    if word.isdigit() and 0 <= int(word) <= BAR:
        return int(word)
    raise NotationError(f"{word!r} in {text!r} is not a point (1-24, bar, off)")
