"""The Backgammon bot: GNU Backgammon's neural networks through its Python bindings (`gnubg`).

Levels are GNU Backgammon's own players: beginner, casual and intermediate at 0-ply with its
deterministic noise (0.060, 0.050, 0.040), advanced at 0-ply with noise 0.015, expert at 0-ply,
world-class at 2-ply and grandmaster at 3-ply, both with GNU Backgammon's default move filters
(plies counted as the bindings count them: 0 is the network alone). Checker plays are GNU
Backgammon's `findbestmoves` at those settings, with the match score in its cube information, so
gammons are valued as the score makes them. The bindings give no cube hint ("not yet
implemented"), so cube decisions are GNU Backgammon's own from its program's `hint` (`gnubg -t`,
game.bot.gnubg_cli, run by the worker) at the level's plies; without the program, and for
resignations, its outcome estimates go through this package's cube model (game.bot.equity) with
GNU Backgammon's match equity table.

GNU Backgammon itself runs in a worker process (`game.bot.gnubg_worker`), started at the bot's
first question and stopped by `close` (or `with make_bot(...) as bot:`): its networks and
databases stay out of the memory of the process that holds the bot.
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Sequence
from typing import Any

import numpy as np

from game.board import BAR, OWN_TO_BOARD, Variant
from game.bot.base import Bot, Level, RankedPlay
from game.bot.context import MONEY, MatchContext
from game.bot.encoding import F32
from game.bot.equity import CubeDecision
from game.bot.gnubg_cli import PROGRAM
from game.bot.gnubg_worker import GnubgWorker
from game.bot.met import MatchEquityTable
from game.errors import EngineError, EngineUnavailable
from game.gnubg_ids import gnubg_board, position_id
from game.match_id import MatchIdState, player
from game.plays import Play
from game.position import Position

# (plies, noise) of GNU Backgammon's predefined players.
SETTINGS: dict[Level, tuple[int, float]] = {
    Level.BEGINNER: (0, 0.060), Level.CASUAL: (0, 0.050), Level.INTERMEDIATE: (0, 0.040),
    Level.ADVANCED: (0, 0.015), Level.EXPERT: (0, 0.0), Level.WORLD_CLASS: (2, 0.0), Level.GRANDMASTER: (3, 0.0),
}


ZERO_PLY = [0, 0, 1, 1, 0.0]  # gnubg.evalcontext's arguments: cubeless, 0-ply, deterministic, pruning, no noise
MONEY_CUBE = [1, -1, 0, 0, [0, 0], 0, 0]  # gnubg.cubeinfo()'s defaults: centred cube, money, standard backgammon


def require_gnubg() -> None:
    """Check that GNU Backgammon's bindings are installed (without importing them here)."""
    if importlib.util.find_spec("gnubg") is None:
        raise EngineUnavailable("the Backgammon bot needs GNU Backgammon's Python bindings: "
                                "pip install -e '.[bot]'")


def bindings_version() -> str:
    """The installed version of GNU Backgammon's bindings (its package's, read without importing them)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gnubg")
    except PackageNotFoundError:
        return "(version unknown)"


class GnubgBot(Bot):
    """GNU Backgammon at one of its predefined levels, running in a worker process."""

    def __init__(self, level: Level, seed: int | None = None) -> None:
        require_gnubg()
        super().__init__(Variant.BACKGAMMON, level, None, seed)
        self.plies, self.noise = SETTINGS[level]
        self.worker = GnubgWorker()
        # Cube decisions from GNU Backgammon's own program when it is installed (see cube_decision).
        self.own_cube = any(shutil.which(name) for name in PROGRAM)

    @property
    def engine(self) -> str:
        return f"GNU Backgammon {bindings_version()}"

    def warm_up(self) -> None:
        """Start GNU Backgammon's worker process now, in the background."""
        self.worker.start()

    def close(self) -> None:
        """Stop GNU Backgammon's worker process (a later question starts a new one)."""
        self.worker.close()

    def _load_met(self) -> MatchEquityTable:
        return MatchEquityTable.from_gnubg(lambda size: self.worker.call("met", size))

    def eval_context(self, noise: bool = True) -> list[Any]:
        """The arguments of GNU Backgammon's evaluation context of this level (`gnubg.evalcontext`:
        cubeless, plies, deterministic noise, pruning on, noise)."""
        return [0, self.plies, 1, 1, self.noise if noise else 0.0]

    def cube_info(self, position: Position, context: MatchContext) -> list[Any]:
        """The arguments of GNU Backgammon's cube information (`gnubg.cubeinfo`): cube, owner, player
        on move, match length, score, Crawford, variation (0: backgammon)."""
        owner = -1 if context.cube.owner is None else player(context.cube.owner)
        me = player(position.turn)
        if context.length is None:
            return [context.cube.value, owner, me, 0, [0, 0], 0, 0]
        score = [context.score[1], context.score[0]]  # GNU Backgammon's player 0 is Black
        return [context.cube.value, owner, me, context.length, score, int(context.crawford), 0]

    def best_moves(self, position: Position, dice: tuple[int, int], context: MatchContext = MONEY,
                   noise: bool = True) -> list[dict[str, Any]]:
        """GNU Backgammon's own ranking (`findbestmoves`), best first: {"move": (from, to, ...), "score"}."""
        self._check_variant(position)
        found = self.worker.call("findbestmoves", _board(position), self.cube_info(position, context),
                                 self.eval_context(noise), list(dice))
        return [{**entry, "move": tuple(entry["move"])} for entry in found]

    def choose_play(self, position: Position, dice: tuple[int, int],
                    context: MatchContext = MONEY) -> Play | None:
        """GNU Backgammon's choice at this level (its own noise for the weaker levels); the opening
        book's play where the level plays from it."""
        booked = self.opening_play(position, dice, context)
        if booked is not None:
            return booked
        plays = position.legal_plays(dice)
        if not plays:
            return None
        return self._ranking(position, plays, self.best_moves(position, dice, context))[0][0]

    def rank_plays(self, position: Position, dice: tuple[int, int],
                   context: MatchContext = MONEY) -> list[RankedPlay]:
        """Every legal play with GNU Backgammon's equity at this level's plies, without noise
        (the outcome estimates beside each are its 0-ply ones)."""
        plays = position.legal_plays(dice)
        if not plays:
            return []
        ranking = self._ranking(position, plays, self.best_moves(position, dice, context, noise=False))
        after = self._after([play for play, _ in ranking], context)
        return [RankedPlay(play, score, probs) for (play, score), probs in zip(ranking, after, strict=True)]

    def _ranking(self, position: Position, plays: Sequence[Play],
                 found: list[dict[str, Any]]) -> list[tuple[Play, float]]:
        """GNU Backgammon's entries as our plays, best first.

        An entry's move stops at its first bear-off (the bindings end the tuple there), so one
        entry may fit several plays: such entries and plays are paired in order, the plays ranked
        by GNU Backgammon's 0-ply equity of the position each leaves."""
        groups: dict[tuple[int, ...], list[float]] = {}
        index_of = {play.after_moves: i for i, play in enumerate(plays)}
        for entry in found:
            steps, whole = gnubg_steps(entry["move"])
            if whole:
                reached = _apply(position, steps)
                after = None if reached is None else index_of.get(reached)
                fits: tuple[int, ...] = () if after is None else (after,)
            else:
                fits = tuple(i for i, play in enumerate(plays) if starts_with(play, steps))
            groups.setdefault(fits, []).append(float(entry["score"]))
        scored: list[tuple[Play, float]] = []
        taken: set[int] = set()
        for fits, scores in groups.items():
            candidates = [i for i in fits if i not in taken]
            if len(candidates) > 1:
                candidates.sort(key=lambda i: -self._zero_ply_equity(plays[i]))
            for index, score in zip(candidates, sorted(scores, reverse=True), strict=False):
                taken.add(index)
                scored.append((plays[index], score))
        unlisted = [index for index in range(len(plays)) if index not in taken]
        for index, equity in zip(unlisted, self._zero_ply_equities([plays[i] for i in unlisted]), strict=True):
            scored.append((plays[index], equity))  # anything GNU Backgammon did not list: judged at 0-ply
        scored.sort(key=lambda item: -item[1])
        return scored

    def _zero_ply_equity(self, play: Play) -> float:
        return self._zero_ply_equities([play])[0]

    def _zero_ply_equities(self, plays: Sequence[Play]) -> list[float]:
        """The mover's money equity after each play, GNU Backgammon at 0-ply (one round trip)."""
        equities: list[float | None] = []
        asked: list[list[Any]] = []
        for play in plays:
            final = play.after_moves.result()
            equities.append(None if final is None else float(int(final.kind)))
            if final is None:
                asked.append([_board(play.next_position), MONEY_CUBE, ZERO_PLY])
        theirs = iter(self.worker.call("evaluate_many", asked) if asked else [])
        return [-float(next(theirs)[5]) if equity is None else equity for equity in equities]

    def cube_decision(self, position: Position, context: MatchContext = MONEY) -> CubeDecision:
        """GNU Backgammon's own cube analysis at this level's plies (its program's `hint`, through
        the worker): its three cubeful equities and its proper action. Without the program
        (`gnubg` not installed), this package's cube model on GNU Backgammon's estimates."""
        self._check_variant(position)
        doubler = position.turn
        if not self.own_cube or not context.may_double(doubler):
            # The program answers "You cannot double" where the cube is dead (the doubler already
            # wins the match with it as it is); a double made there all the same is still answered,
            # and judged, by this package's cube model on GNU Backgammon's estimates.
            return super().cube_decision(position, context)
        state = MatchIdState(cube_value=context.cube.value, cube_owner=context.cube.owner, on_roll=doubler,
                             crawford=context.crawford, turn=doubler, length=context.length or 0,
                             score=context.score if context.length else (0, 0), jacoby=context.options.jacoby)
        try:
            found = self.worker.call("cube", position_id(position), state.encode(), self.plies,
                                     context.options.jacoby, context.money and context.options.beavers)
        except EngineError as refused:
            if "You cannot double" not in str(refused):  # a dead cube, by GNU Backgammon's own reckoning
                raise
            return super().cube_decision(position, context)
        answer = found["answer"]
        return CubeDecision(found["no_double"], found["double_take"], found["double_pass"],
                            found["double"] and context.may_double(doubler), answer != "pass", answer == "beaver")

    def estimate(self, position: Position, context: MatchContext = MONEY) -> F32:
        self._check_variant(position)
        result = self.worker.call("evaluate", _board(position), self.cube_info(position, context),
                                  self.eval_context(False))
        return np.array(result[:5], dtype=np.float32)

    def _after(self, plays: Sequence[Play],
               context: MatchContext) -> list[tuple[float, float, float, float, float]]:
        """The mover's outcome estimates after each play, GNU Backgammon at 0-ply (one round trip)."""
        asked = [[_board(play.next_position), self.cube_info(play.next_position, context), ZERO_PLY]
                 for play in plays if play.after_moves.result() is None]
        theirs = iter(self.worker.call("evaluate_many", asked) if asked else [])
        out: list[tuple[float, float, float, float, float]] = []
        for play in plays:
            final = play.after_moves.result()
            if final is not None:
                kind = int(final.kind)
                out.append((1.0, float(kind >= 2), float(kind == 3), 0.0, 0.0))
                continue
            win, wg, wt, lg, lt = (float(v) for v in next(theirs)[:5])
            out.append((1.0 - win, lg, lt, wg, wt))
        return out


def _board(position: Position) -> list[list[int]]:
    """GNU Backgammon's board of the position as the worker reads it (JSON lists)."""
    return [list(side) for side in gnubg_board(position)]


def gnubg_steps(move: tuple[int, ...]) -> tuple[list[tuple[int, int]], bool]:
    """GNU Backgammon's (from, to, ...) as steps, and whether the tuple is whole: the bindings end a
    move at its first bear-off (a "to" of 0), so an odd tuple's last step is a bear-off and any
    steps after it are missing."""
    steps = [(move[i], max(move[i + 1], 0) if i + 1 < len(move) else 0) for i in range(0, len(move), 2)]
    return steps, len(move) % 2 == 0 and all(t > 0 for t in move[1::2])


def starts_with(play: Play, steps: list[tuple[int, int]]) -> bool:
    """Whether our play makes every one of these steps (a move GNU Backgammon cut off at a bear-off)."""
    own = [(m.source, m.target) for m in play.moves]
    return all(own.count(step) >= steps.count(step) for step in steps)


def _apply(position: Position, steps: list[tuple[int, int]]) -> Position | None:
    """The position after GNU Backgammon's whole move (mover's numbering), None if it is not one."""
    me, them = position.turn, position.turn.opponent
    table = OWN_TO_BOARD[Variant.BACKGAMMON, me]
    points, bar, off = list(position.points), list(position.bar), list(position.off)
    for source, target in steps:
        if source == BAR:
            bar[me.index] -= 1
        else:
            points[table[source] - 1] = points[table[source] - 1][:-1]
        if points[table[target] - 1] == them.char:
            bar[them.index] += 1
            points[table[target] - 1] = ""
        points[table[target] - 1] += me.char
    try:
        return Position(position.variant, me, tuple(points), (bar[0], bar[1]), (off[0], off[1]))
    except ValueError:
        return None
