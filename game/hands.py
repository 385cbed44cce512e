"""Positions as checkers in the board's 28 zones, and plays as a hand would make them.

The zones of a position are `game.explain.layout`; here the simulated players turn a play
into lifts and placements (`hand_moves`) or set a whole board right (`rearrangement`), and
the terminal view reads a sensed board back as a position (`zones_position`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.board import BAR, OFF, OWN_TO_BOARD, Color, Variant
from game.plays import Move
from game.position import Position
from game.zones import BAR_ZONE, BLACK_BAR, BLACK_OFF, OFF_ZONE, WHITE_BAR, WHITE_OFF, ZONE_COUNT


def zones_position(zones: Sequence[str], variant: Variant, turn: Color) -> Position:
    """The position 28 zone stacks show (raises PositionError when they show none)."""
    if len(zones) != ZONE_COUNT:
        raise ValueError(f"expected {ZONE_COUNT} zones, got {len(zones)}")
    bar = (zones[WHITE_BAR - 1].count("w"), zones[BLACK_BAR - 1].count("b"))
    off = (zones[WHITE_OFF - 1].count("w"), zones[BLACK_OFF - 1].count("b"))
    strays = [z for z, colour in ((WHITE_BAR, "b"), (BLACK_BAR, "w"), (WHITE_OFF, "b"), (BLACK_OFF, "w"))
              if colour in zones[z - 1]]
    if strays:
        from game.errors import PositionError

        raise PositionError(f"checkers of the wrong colour in zones {strays}")
    return Position(variant, turn, tuple(zones[:24]), bar, off)


def move_zones(variant: Variant, mover: Color, move: Move) -> tuple[int, int]:
    """(source zone, target zone) of one move in the mover's own numbering."""
    table = OWN_TO_BOARD[variant, mover]
    source = BAR_ZONE[mover] if move.source == BAR else table[move.source]
    target = OFF_ZONE[mover] if move.target == OFF else table[move.target]
    return source, target


@dataclass(frozen=True, slots=True)
class HandMove:
    """Take the top checker of `source` and put it on `target`."""

    source: int
    target: int


def hand_moves(before: Position, moves: Sequence[Move]) -> list[HandMove]:
    """The checker movements that make `moves` on the board, hits sent to the bar first."""
    mover = before.turn
    out: list[HandMove] = []
    for move in moves:
        source, target = move_zones(before.variant, mover, move)
        if move.hit and before.variant is Variant.BACKGAMMON:
            out.append(HandMove(target, BAR_ZONE[mover.opponent]))
        out.append(HandMove(source, target))
    return out


@dataclass(frozen=True, slots=True)
class Lift:
    """Take the top checker of `zone` into the hand."""

    zone: int


@dataclass(frozen=True, slots=True)
class Place:
    """Put a checker of `colour` from the hand on top of `zone`."""

    zone: int
    colour: str


def rearrangement(current: Sequence[str], wanted: Sequence[str], hand: str = "") -> list[Lift | Place]:
    """Lifts, then placements, that turn the `current` zones (and the checkers in `hand`)
    into the `wanted` ones.

    Each zone is lifted down to what it shares with the wanted stack at its bottom, then the
    missing checkers are placed in order (a trapped checker must go in first). Both must
    hold the same checkers.
    """
    if sorted("".join(current) + hand) != sorted("".join(wanted)):
        raise ValueError("the two boards do not hold the same checkers")
    lifts: list[Lift | Place] = []
    places: list[Lift | Place] = []
    for zone, (have, want) in enumerate(zip(current, wanted, strict=True), start=1):
        common = 0
        while common < min(len(have), len(want)) and have[common] == want[common]:
            common += 1
        lifts.extend(Lift(zone) for _ in have[common:])
        places.extend(Place(zone, colour) for colour in want[common:])
    return lifts + places
