"""Match equity tables: the chance to win the match from each score, and equity in match play.

`MatchEquityTable.computed(variant)` builds a table by the cubeless-game recursion: each game is
won by either side with even chances; a won game scores single, gammon or triple in the
proportions the variant's self-play games showed (`GAMES`); after a player reaches one point from
the match, the next game is the Crawford game (no cube), and in every later game the trailer
doubles at once, so each game is worth two points to the trailer. That is the method of the
first published tables (Jacobs & Trice's era); it leaves out the cube's leverage before the
Crawford game, which a rollout-based table (Kazaross-XG2, GNU Backgammon's default) includes.
The Backgammon bot reads GNU Backgammon's own table instead (`MatchEquityTable.from_gnubg`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from game.board import Variant

SIZE = 25  # scores up to 25-away; longer matches read the 25-away row (their equities barely differ)

# Shares of single, gammon and triple among the games won. Catchgammon: 300 games of the shipped
# network against itself at 0-ply (193 single, 76 gammons, 31 catchgammons); Rungammon: its whole
# training run (6,458, 721, 821); Backgammon: about GNU Backgammon's estimate at the opening position.
GAMES: dict[Variant, tuple[float, float, float]] = {
    Variant.BACKGAMMON: (0.72, 0.27, 0.01),
    Variant.CATCHGAMMON: (0.64, 0.25, 0.11),
    Variant.RUNGAMMON: (0.81, 0.09, 0.10),
}


@dataclass(frozen=True)
class MatchEquityTable:
    """`pre[i][j]`: the chance that a player i + 1 away wins against one j + 1 away (before or in
    the Crawford game); `post[n]`: the chance of the trailer n + 1 away against a leader one away,
    after the Crawford game."""

    pre: tuple[tuple[float, ...], ...]
    post: tuple[float, ...]
    name: str

    def mwc(self, away: int, their_away: int, post_crawford: bool) -> float:
        """The chance to win the match needing `away` points against `their_away`.

        `post_crawford`: the Crawford game has been played (a player one away then faces the
        trailer's cube in every game)."""
        if away <= 0:
            return 1.0
        if their_away <= 0:
            return 0.0
        a, b = min(away, SIZE), min(their_away, SIZE)
        if post_crawford and (a == 1) != (b == 1):
            return 1.0 - self.post[b - 1] if a == 1 else self.post[a - 1]
        return self.pre[a - 1][b - 1]

    @classmethod
    def computed(cls, variant: Variant) -> MatchEquityTable:
        """The table of the cubeless-game recursion for `variant` (see the module's text)."""
        pre, post = _recursion(GAMES[variant])
        return cls(pre, post, f"computed ({variant.value}: cubeless games, trailer doubles after Crawford)")

    @classmethod
    def from_gnubg(cls, met: Callable[[int], Any] | None = None) -> MatchEquityTable:
        """GNU Backgammon's table (its default is Kazaross-XG2), from its bindings' `met` (by default
        imported here; the Backgammon bot passes its worker's)."""
        if met is None:
            import gnubg

            met = gnubg.met
        pre, post, _ = met(SIZE)
        return cls(tuple(tuple(float(x) for x in row) for row in pre), tuple(float(x) for x in post),
                   "GNU Backgammon's")


@cache
def _recursion(shares: tuple[float, float, float]) -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    post = [0.0] * (SIZE + 1)  # post[n]: trailer n away, after Crawford

    def post_at(n: int) -> float:
        return 1.0 if n <= 0 else post[n]

    post[1] = 0.5
    for n in range(2, SIZE + 1):
        # The trailer doubles at once: a won game is worth 2, 4 or 6 points; a lost one ends the match.
        post[n] = 0.5 * sum(share * post_at(n - 2 * k) for k, share in enumerate(shares, start=1))

    table = [[0.0] * (SIZE + 1) for _ in range(SIZE + 1)]

    def at(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return table[a][b]

    def crawford(trailer: int) -> float:
        """The trailer's chance in the Crawford game (no cube), leader one away."""
        return 0.5 * sum(share * post_at(trailer - k) for k, share in enumerate(shares, start=1))

    for total in range(2, 2 * SIZE + 1):
        for a in range(max(1, total - SIZE), min(SIZE, total - 1) + 1):
            b = total - a
            if a == 1 and b == 1:
                table[a][b] = 0.5
            elif b == 1:
                table[a][b] = crawford(a)
            elif a == 1:
                table[a][b] = 1.0 - crawford(b)
            else:
                table[a][b] = 0.5 * sum(share * (at(a - k, b) + at(a, b - k))
                                        for k, share in enumerate(shares, start=1))
    pre = tuple(tuple(table[a][b] for b in range(1, SIZE + 1)) for a in range(1, SIZE + 1))
    return pre, tuple(post[n] for n in range(1, SIZE + 1))
