"""Random games: positions for tests, benchmarks and simulated players."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from game.board import Color, Variant
from game.plays import Play
from game.position import Position


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a random game: the position before, the roll, and the play chosen."""

    position: Position
    dice: tuple[int, int]
    play: Play | None  # None when the roll cannot be played


def random_game(variant: Variant, rng: random.Random, max_turns: int = 1000) -> Iterator[Turn]:
    """Plays uniformly random legal plays until the game ends (or a Catchgammon Remi)."""
    position = Position.initial(variant)
    for _ in range(max_turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = position.legal_plays(dice)
        play = rng.choice(plays) if plays else None
        yield Turn(position, dice, play)
        after = play.after_moves if play else position
        if after.result() or after.is_remi():
            return
        position = after.pass_turn()


def random_positions(variant: Variant, count: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """`count` (position, dice) pairs met in random games, in order, reproducibly."""
    rng = random.Random(seed)
    found: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        for turn in random_game(variant, rng):
            found.append((turn.position, turn.dice))
            if len(found) == count:
                break
    return found


def many_stacks(variant: Variant) -> Position:
    """A position for the heaviest rolls: White (on roll) with its fifteen checkers over its
    points 13-24, Black's on free points of White's home board (Rungammon: on any free point)."""
    points = [""] * 24
    for own, n in zip(range(24, 12, -1), (3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), strict=True):
        points[own - 1] = "w" * n  # White's own points are the board's
    free = [p for p in range(1, 25) if not points[p - 1] and (variant is Variant.RUNGAMMON or p <= 6)]
    for i in range(15):
        points[free[i % len(free)] - 1] += "b"
    return Position(variant, Color.WHITE, tuple(points))
