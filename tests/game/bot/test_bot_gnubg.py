"""The Backgammon bot is GNU Backgammon: its choice is gnubg's own best move at the same settings."""

from __future__ import annotations

import gnubg
import pytest

from game.board import Color, Variant
from game.bot.base import Level
from game.bot.context import MatchContext
from game.bot.gnubg_bot import SETTINGS, GnubgBot, _apply, gnubg_steps
from game.cube import Cube
from game.gnubg_ids import gnubg_board
from game.match_id import player
from game.plays import Play
from game.position import Position
from game.selfplay import random_positions

pytestmark = pytest.mark.gnubg


@pytest.mark.parametrize("level,count", [(Level.EXPERT, 400), (Level.WORLD_CLASS, 25), (Level.BEGINNER, 200)])
def test_the_bot_plays_gnubgs_best_move(level: Level, count: int) -> None:
    bot = GnubgBot(level)
    plies, noise = SETTINGS[level]
    context = MatchContext(7, (4, 2), Cube(2, None))  # White 4, Black 2: gnubg's (player 0 = Black, 1 = White)
    compared = 0
    for position, dice in random_positions(Variant.BACKGAMMON, count, 11):
        cube = gnubg.cubeinfo(2, -1, player(position.turn), 7, (2, 4), 0, 0)
        found = gnubg.findbestmoves(gnubg_board(position), cube, gnubg.evalcontext(0, plies, 1, 1, noise), dice)
        play = bot.choose_play(position, dice, context)
        if not found or not found[0]["move"]:
            assert play is None or len(position.legal_plays(dice)) <= 1
            continue
        steps, whole = gnubg_steps(found[0]["move"])
        if not whole:
            continue  # gnubg cut the move at a bear-off: compared by equity below
        assert play is not None
        assert sorted((m.source, m.target) for m in play.moves) == sorted(steps) or \
            _same_after(position, found[0]["move"], play), (position.to_json(), dice)
        compared += 1
    assert compared > count // 2


def _same_after(position: Position, move: tuple[int, ...], play: Play | None) -> bool:
    """The same resulting position reached by another order of the same dice."""
    steps, _ = gnubg_steps(move)
    return play is not None and _apply(position, steps) == play.after_moves


def test_rankings_keep_gnubgs_scores_and_order() -> None:
    bot = GnubgBot(Level.EXPERT)
    for position, dice in random_positions(Variant.BACKGAMMON, 300, 12):
        ranked = bot.rank_plays(position, dice)
        assert len(ranked) == len(position.legal_plays(dice))
        found = gnubg.findbestmoves(gnubg_board(position), gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 1, 0), dice)
        if ranked and found and found[0]["move"]:
            assert ranked[0].equity == pytest.approx(found[0]["score"], abs=1e-6)


def test_textbook_cube_decisions_with_gnubgs_estimates() -> None:
    bot = GnubgBot(Level.EXPERT)
    start = Position.initial()
    assert not bot.cube_decision(start).double and bot.cube_decision(start).take
    # A race: White on roll with 45 pips against Black's 86, no gammon left: double, and Black passes.
    points = [""] * 24
    for point, n in ((1, 3), (2, 3), (3, 3), (4, 3), (5, 3)):
        points[point - 1] = "w" * n
    for point, n in ((20, 3), (19, 3), (18, 3), (17, 3), (21, 2)):  # Black's own 5, 6, 7, 8 and 4
        points[point - 1] = "b" * n
    race = Position(Variant.BACKGAMMON, Color.WHITE, tuple(points), (0, 0), (0, 1))
    probs = bot.estimate(race)
    assert probs[0] > 0.85 and probs[1] < 0.01, probs
    decision = bot.cube_decision(race)
    assert decision.double and not decision.take, decision.describe()
    from game.bot.context import CubeAction

    assert bot.cube_action(race, MatchContext()) is CubeAction.DOUBLE
    assert bot.cube_action(race, MatchContext(cube=Cube(1, None, Color.WHITE))) is CubeAction.PASS
