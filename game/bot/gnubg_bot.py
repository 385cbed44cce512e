"""The Backgammon bot: GNU Backgammon's neural networks through its Python bindings (`gnubg`).

Levels are GNU Backgammon's own players: beginner, casual and intermediate at 0-ply with its
deterministic noise (0.060, 0.050, 0.040), advanced at 0-ply with noise 0.015, expert at 0-ply,
world-class at 2-ply and grandmaster at 3-ply, both with GNU Backgammon's default move filters
(plies counted as the bindings count them: 0 is the network alone). Checker plays are GNU
Backgammon's `findbestmoves` at those settings, with the match score in its cube information, so
gammons are valued as the score makes them. The bindings give no cube hint ("not yet
implemented"), so cube and resignation decisions use GNU Backgammon's outcome estimates at the
level's plies in this package's cube model (game.bot.equity) and GNU Backgammon's match equity
table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from game.board import BAR, OWN_TO_BOARD, Variant
from game.bot.base import Bot, Level, RankedPlay
from game.bot.context import MONEY, MatchContext
from game.bot.encoding import F32
from game.bot.met import MatchEquityTable
from game.errors import EngineUnavailable
from game.gnubg_ids import gnubg_board
from game.match_id import player
from game.plays import Play
from game.position import Position

try:
    import gnubg
except ImportError:  # pragma: no cover - the bot extra is missing
    gnubg = None

# (plies, noise) of GNU Backgammon's predefined players.
SETTINGS: dict[Level, tuple[int, float]] = {
    Level.BEGINNER: (0, 0.060), Level.CASUAL: (0, 0.050), Level.INTERMEDIATE: (0, 0.040),
    Level.ADVANCED: (0, 0.015), Level.EXPERT: (0, 0.0), Level.WORLD_CLASS: (2, 0.0), Level.GRANDMASTER: (3, 0.0),
}


def require_gnubg() -> Any:
    """The `gnubg` module, or an error saying how to install it."""
    if gnubg is None:
        raise EngineUnavailable("the Backgammon bot needs GNU Backgammon's Python bindings: "
                                "pip install -e '.[bot]'")
    return gnubg


class GnubgBot(Bot):
    """GNU Backgammon at one of its predefined levels."""

    def __init__(self, level: Level, seed: int | None = None) -> None:
        require_gnubg()
        super().__init__(Variant.BACKGAMMON, level, MatchEquityTable.from_gnubg(), seed)
        self.plies, self.noise = SETTINGS[level]

    @property
    def engine(self) -> str:
        return f"GNU Backgammon {gnubg.version}"

    def eval_context(self, noise: bool = True) -> Any:
        """GNU Backgammon's evaluation context of this level (deterministic noise, pruning on)."""
        return gnubg.evalcontext(0, self.plies, 1, 1, self.noise if noise else 0.0)

    def cube_info(self, position: Position, context: MatchContext) -> Any:
        """GNU Backgammon's cube information: cube, owner, player on move, match length, score, Crawford."""
        owner = -1 if context.cube.owner is None else player(context.cube.owner)
        me = player(position.turn)
        if context.length is None:
            return gnubg.cubeinfo(context.cube.value, owner, me, 0, (0, 0), 0, 0)
        score = (context.score[0], context.score[1])
        return gnubg.cubeinfo(context.cube.value, owner, me, context.length, score, int(context.crawford), 0)

    def best_moves(self, position: Position, dice: tuple[int, int], context: MatchContext = MONEY,
                   noise: bool = True) -> list[dict[str, Any]]:
        """GNU Backgammon's own ranking (`findbestmoves`), best first: {"move": (from, to, ...), "score"}."""
        self._check_variant(position)
        return list(gnubg.findbestmoves(gnubg_board(position), self.cube_info(position, context),
                                        self.eval_context(noise), dice))

    def choose_play(self, position: Position, dice: tuple[int, int],
                    context: MatchContext = MONEY) -> Play | None:
        """GNU Backgammon's choice at this level (its own noise for the weaker levels)."""
        plays = position.legal_plays(dice)
        if not plays:
            return None
        found = self.best_moves(position, dice, context)
        return match_move(position, plays, found[0]["move"]) if found else plays[0]

    def rank_plays(self, position: Position, dice: tuple[int, int],
                   context: MatchContext = MONEY) -> list[RankedPlay]:
        """Every legal play with GNU Backgammon's equity at this level's plies, without noise."""
        plays = position.legal_plays(dice)
        if not plays:
            return []
        ranked: list[RankedPlay] = []
        seen: set[int] = set()
        for entry in self.best_moves(position, dice, context, noise=False):
            play = match_move(position, plays, entry["move"])
            index = plays.index(play)
            if index in seen:
                continue
            seen.add(index)
            ranked.append(RankedPlay(play, float(entry["score"]), self._after(play, context)))
        # findbestmoves may stop a play at its first bear-off: such plays are judged here directly.
        for index, play in enumerate(plays):
            if index not in seen:
                probs = self._after(play, context)
                ranked.append(RankedPlay(play, float(self.equity_of(np.array([probs], np.float32), context,
                                                                      position.turn)[0]), probs))
        ranked.sort(key=lambda r: -r.equity)
        return ranked

    def estimate(self, position: Position, context: MatchContext = MONEY) -> F32:
        self._check_variant(position)
        result = gnubg.evaluate(gnubg_board(position), self.cube_info(position, context), self.eval_context(False))
        return np.array(result[:5], dtype=np.float32)

    def _after(self, play: Play, context: MatchContext) -> tuple[float, float, float, float, float]:
        final = play.position.result()
        if final is not None:
            kind = int(final.kind)
            return 1.0, float(kind >= 2), float(kind == 3), 0.0, 0.0
        theirs = self.estimate(play.next_position, context)
        win, wg, wt, lg, lt = (float(v) for v in theirs)
        return 1.0 - win, lg, lt, wg, wt


def match_move(position: Position, plays: tuple[Play, ...], move: tuple[int, ...]) -> Play:
    """Our legal play for GNU Backgammon's (from, to, from, to, ...) in the mover's numbering.

    GNU Backgammon may write a bear-off as a step to 0 or below and may stop listing a play's
    steps at its first bear-off: the play is the legal one that starts with those steps and
    leaves the same checkers, else the one whose steps contain them."""
    steps = [(s, max(t, 0)) for s, t in zip(move[::2], move[1::2], strict=True) if s > 0]
    after = _apply(position, steps)
    for play in plays:
        if play.position == after:
            return play
    wanted = sorted(steps)
    for play in plays:
        own = [(m.source, m.target) for m in play.moves]
        if all(own.count(step) >= wanted.count(step) for step in wanted):
            return play
    raise LookupError(f"GNU Backgammon's move {move} is not a legal play of {position.to_json()}")


def _apply(position: Position, steps: list[tuple[int, int]]) -> Position:
    me, them = position.turn, position.turn.opponent
    table = OWN_TO_BOARD[Variant.BACKGAMMON, me]
    points, bar, off = list(position.points), list(position.bar), list(position.off)
    for source, target in steps:
        if source == BAR:
            bar[me.index] -= 1
        else:
            points[table[source] - 1] = points[table[source] - 1][:-1]
        if target == 0:
            off[me.index] += 1
            continue
        if points[table[target] - 1] == them.char:
            bar[them.index] += 1
            points[table[target] - 1] = ""
        points[table[target] - 1] += me.char
    try:
        return Position(position.variant, me, tuple(points), (bar[0], bar[1]), (off[0], off[1]))
    except ValueError:
        return position
