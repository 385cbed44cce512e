"""A roll's plays ranked with their equities, as GNU Backgammon's `hint` lists them.

Every bot ranks a roll's legal plays (`Bot.rank_plays`); this module turns a ranking into what a
person reads (`render`: rank, play, equity, its distance from the best, the outcome estimates)
and what a program reads (`entries`: the same as JSON-ready dicts). Equities are those of the
ranking's context: money equity, or GNU Backgammon's normalised match equity at a score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.bot.base import RankedPlay

DEFAULT_ALTERNATIVES = 5  # GNU Backgammon's hint shows as many by default on a narrow screen
OUTCOMES = ("win", "win_gammon", "win_triple", "lose_gammon", "lose_triple")


def entries(ranked: Sequence[RankedPlay], limit: int = DEFAULT_ALTERNATIVES) -> list[dict[str, Any]]:
    """The best `limit` plays, best first: rank, notation, moves, equity, difference from the best
    (0 for the best, negative below it), and the outcome estimates after the play."""
    if not ranked:
        return []
    best = ranked[0].equity
    return [{"rank": rank, "notation": entry.play.notation(),
             "moves": [[m.source, m.target] for m in entry.play.moves],
             "equity": round(entry.equity, 4), "difference": round(entry.equity - best, 4),
             **{name: round(p, 4) for name, p in zip(OUTCOMES, entry.probs, strict=True)}}
            for rank, entry in enumerate(ranked[:limit], start=1)]


def render(ranked: Sequence[RankedPlay], limit: int = DEFAULT_ALTERNATIVES) -> str:
    """The ranking as GNU Backgammon's `hint` prints it: each play on a line with its equity (and
    its distance from the best), its outcome estimates beneath (win, gammon, triple - lose,
    gammon, triple)."""
    if not ranked:
        return "(no play)\n"
    rows = entries(ranked, limit)
    width = max(len(row["notation"]) for row in rows)
    lines: list[str] = []
    for row in rows:
        behind = "" if row["rank"] == 1 else f" ({row['difference']:+.3f})"
        lines.append(f"{row['rank']:>5}. {row['notation']:<{width}}  Eq.: {row['equity']:+.3f}{behind}")
        lose = 1.0 - row["win"]
        lines.append(f"       {row['win']:.3f} {row['win_gammon']:.3f} {row['win_triple']:.3f} - "
                     f"{lose:.3f} {row['lose_gammon']:.3f} {row['lose_triple']:.3f}")
    return "\n".join(lines) + "\n"
