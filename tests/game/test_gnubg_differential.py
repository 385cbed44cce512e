"""Legal plays compared with GNU Backgammon's own move generator on random-play positions.

GNU Backgammon's `findbestmoves` lists a play only up to its first bear-off, so where any
play bears off the plays are compared by count; elsewhere the sets of resulting positions
must be equal.
"""

import gnubg
import pytest

from game.board import BAR, OWN_TO_BOARD, Variant
from game.gnubg_ids import gnubg_board
from game.position import Position
from game.selfplay import random_positions

pytestmark = [pytest.mark.usefixtures("each_kernel"), pytest.mark.gnubg]  # the rules, by each kernel

CONTEXT = gnubg.evalcontext(0, 0, 0, 0, 0)  # 0-ply: listing, no look-ahead


def gnubg_plays(position: Position, dice: tuple[int, int]) -> list[tuple[int, ...]]:
    found = gnubg.findbestmoves(gnubg_board(position), gnubg.cubeinfo(), CONTEXT, dice)
    return [entry["move"] for entry in found if entry["move"]]


def apply_pairs(position: Position, flat: tuple[int, ...]) -> Position:
    """Apply GNU Backgammon's (from, to, from, to, ...) in the mover's numbering."""
    me, them = position.turn, position.turn.opponent
    table = OWN_TO_BOARD[Variant.BACKGAMMON, me]
    points, bar, off = list(position.points), list(position.bar), list(position.off)
    for source, target in zip(flat[::2], flat[1::2], strict=True):
        if source == BAR:
            bar[me.index] -= 1
        else:
            points[table[source] - 1] = points[table[source] - 1][:-1]
        if target <= 0:
            off[me.index] += 1
            continue
        if points[table[target] - 1] == them.char:
            bar[them.index] += 1
            points[table[target] - 1] = ""
        points[table[target] - 1] += me.char
    return Position(position.variant, me, tuple(points), (bar[0], bar[1]), (off[0], off[1]))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_plays_agree_with_gnu_backgammon(seed: int) -> None:
    compared_sets = compared_counts = 0
    for position, dice in random_positions(Variant.BACKGAMMON, 700, seed):
        ours = position.legal_plays(dice)
        theirs = gnubg_plays(position, dice)
        context = f"{position.to_json()} dice {dice}"
        assert len(ours) == len(theirs), context
        if any(m.target == 0 for play in ours for m in play.moves):
            compared_counts += 1
            continue
        assert {p.after_moves for p in ours} == {apply_pairs(position, t) for t in theirs}, context
        compared_sets += 1
    assert compared_sets > 400 and compared_counts > 20  # both kinds were really exercised
