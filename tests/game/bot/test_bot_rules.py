"""The bot chooses only legal plays and legal cube actions, in every variant and at every score."""

from __future__ import annotations

import pytest
from bot_fixtures import shipped, untrained
from hypothesis import given, settings
from hypothesis import strategies as st
from needs import examples
from strategies import dice, positions

from game.board import Color, Variant
from game.bot.base import Level
from game.bot.context import CubeAction, MatchContext
from game.bot.driver import bot_match
from game.cube import Cube
from game.match import MatchOptions
from game.position import Position, ResultKind


@st.composite
def contexts(draw: st.DrawFn) -> MatchContext:
    """Money or a match to 1-15 at any score, any cube, Crawford where the score allows it, an offer
    pending or not."""
    length = draw(st.one_of(st.none(), st.integers(1, 15)))
    owner = draw(st.sampled_from([None, Color.WHITE, Color.BLACK]))
    value = draw(st.sampled_from([1, 2, 4, 8]))
    offered = draw(st.sampled_from([None, Color.WHITE, Color.BLACK]))
    if offered is not None and owner not in (None, offered):
        offered = None
    if length is None:
        options = MatchOptions(jacoby=draw(st.booleans()), beavers=draw(st.booleans()))
        return MatchContext(None, (0, 0), Cube(value, owner, offered), False, False, options)
    score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    one_away = length - 1 in score
    crawford = one_away and draw(st.booleans())
    cube = Cube(1, None, None) if crawford else Cube(value, owner, offered)
    return MatchContext(length, score, cube, crawford, one_away and not crawford)


def check_play(variant: Variant, level: Level, position: Position, roll: tuple[int, int],
               context: MatchContext) -> None:
    bot = shipped(variant, level)
    play = bot.choose_play(position, roll, context)
    legal = position.legal_plays(roll)
    if not legal:
        assert play is None
    else:
        assert play is not None and play.after_moves in {p.after_moves for p in legal}, (position, roll, play)


def check_cube(variant: Variant, position: Position, context: MatchContext) -> None:
    bot = shipped(variant)
    action = bot.cube_action(position, context)
    if context.cube.offered_by is None:
        assert action in (CubeAction.DOUBLE, CubeAction.NO_DOUBLE)
        if action is CubeAction.DOUBLE:
            assert context.may_double(position.turn) and not context.crawford
    else:
        allowed = {CubeAction.TAKE, CubeAction.PASS}
        if context.options.beavers and not context.cube.beavered:
            allowed.add(CubeAction.BEAVER)
        assert action in allowed


@pytest.mark.slow
@given(st.data(), dice, contexts())
@settings(max_examples=examples(60), deadline=None)
def test_plays_and_cube_actions_are_legal_in_every_variant(data: st.DataObject, roll: tuple[int, int],
                                                           context: MatchContext) -> None:
    variant = data.draw(st.sampled_from(Variant))
    position = data.draw(positions(variant))
    check_play(variant, Level.ADVANCED, position, roll, context)
    check_cube(variant, position, context)
    resign = shipped(variant).offer_resignation(position, context)
    assert resign is None or resign in ResultKind
    accept = shipped(variant).accept_resignation(position, context, position.turn,
                                                 data.draw(st.sampled_from(ResultKind)))
    assert isinstance(accept, bool)


@given(st.data(), dice)
@settings(max_examples=examples(12), deadline=None)
def test_the_looking_ahead_levels_choose_legal_plays(data: st.DataObject, roll: tuple[int, int]) -> None:
    variant = data.draw(st.sampled_from([Variant.CATCHGAMMON, Variant.RUNGAMMON]))
    check_play(variant, Level.EXPERT, data.draw(positions(variant)), roll, MatchContext())


def test_bot_matches_pass_through_the_rules_of_the_match() -> None:
    """Whole matches, bot against bot: every action the bots choose is applied by `Match`, which
    refuses anything illegal (a double in the Crawford game, a play not legal for the roll...)."""
    for variant in Variant:
        for length, seed in ((3, 1), (None, 2)):
            match = bot_match(shipped(variant), untrained(variant), variant, length, seed)
            assert match.games, (variant, length)
            if length is not None:
                assert match.is_over and max(match.score) >= length


def test_a_remi_in_a_measured_game_is_played_again_as_the_rules_say(monkeypatch: pytest.MonkeyPatch) -> None:
    """The strength figures count a game as the rules do: a Catchgammon Remi scores nothing and the
    game is played again, so every game counted ends with a winner and the Remis are counted apart."""
    import random

    from game.bot.arena import match_up, play_game
    from game.bot.baselines import RandomBot

    calls = {"n": 0}
    real = Position.is_remi

    def first_position_is_a_remi(self: Position) -> bool:
        calls["n"] += 1
        return True if calls["n"] == 1 else real(self)

    monkeypatch.setattr(Position, "is_remi", first_position_is_a_remi)
    first, second = RandomBot(Variant.CATCHGAMMON, 1), RandomBot(Variant.CATCHGAMMON, 2)
    outcome = play_game(first, second, Variant.CATCHGAMMON, random.Random(5))
    assert outcome.remis == 1 and outcome.points != 0
    calls["n"] = 0
    score = match_up(first, second, Variant.CATCHGAMMON, 2, 5)
    assert score.games == 2 and score.remis >= 1 and f"({score.remis} Remis played again)" in score.describe()
