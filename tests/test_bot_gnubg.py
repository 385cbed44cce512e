"""The Backgammon bot is GNU Backgammon: its choice is gnubg's own best move at the same settings."""

from __future__ import annotations

import gnubg
import pytest

from game.board import Variant
from game.bot.base import Level
from game.bot.context import MatchContext
from game.bot.gnubg_bot import SETTINGS, GnubgBot, _apply, gnubg_steps
from game.cube import Cube
from game.gnubg_ids import gnubg_board
from game.match_id import player
from game.plays import Play
from game.position import Position
from game.selfplay import random_positions


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
    return play is not None and _apply(position, steps) == play.position


def test_rankings_keep_gnubgs_scores_and_order() -> None:
    bot = GnubgBot(Level.EXPERT)
    for position, dice in random_positions(Variant.BACKGAMMON, 300, 12):
        ranked = bot.rank_plays(position, dice)
        assert len(ranked) == len(position.legal_plays(dice))
        found = gnubg.findbestmoves(gnubg_board(position), gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 1, 0), dice)
        if ranked and found and found[0]["move"]:
            assert ranked[0].equity == pytest.approx(found[0]["score"], abs=1e-6)
