"""Hypothesis strategies: arbitrary legal-looking positions of every variant."""

from __future__ import annotations

from hypothesis import strategies as st

from game.board import CHECKERS, Color, Variant
from game.position import Position


@st.composite
def positions(draw: st.DrawFn, variant: Variant) -> Position:
    """15 checkers a side spread over points, bar (Backgammon) and off, with traps in Catchgammon.

    Checkers crowd into a few points so that blocks, primes and bear-offs are common.
    """
    points = [""] * 24
    bar = [0, 0]
    off = [0, 0]
    for color in Color:
        home_only = draw(st.booleans())
        spots = st.integers(1, 6) if home_only else st.integers(1, 24)
        if color is Color.BLACK and home_only:
            spots = spots.map(lambda p: 25 - p if variant is not Variant.RUNGAMMON else ((p + 11) % 24) + 1)
        left = CHECKERS
        off[color.index] = draw(st.integers(0, 3 if not home_only else 12))
        left -= off[color.index]
        if variant is Variant.BACKGAMMON and not home_only:
            bar[color.index] = draw(st.integers(0, min(2, left)))
            left -= bar[color.index]
        for _ in range(left):
            for _attempt in range(30):
                p = draw(spots) - 1
                stack = points[p]
                if not stack or stack[-1] == color.char:
                    points[p] = stack + color.char
                    break
                if variant is Variant.CATCHGAMMON and len(stack) == 1:
                    points[p] = stack + color.char  # traps the lone checker
                    break
            else:
                off[color.index] += 1
    turn = draw(st.sampled_from(Color))
    return Position(variant, turn, tuple(points), (bar[0], bar[1]), (off[0], off[1]))


dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
variants = st.sampled_from(Variant)
