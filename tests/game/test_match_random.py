"""Whole random matches of every variant: invariants of the score, the cube and the Crawford rule."""

import random
from collections.abc import Mapping
from typing import Any

import pytest
from builders import records

from game.board import Variant
from game.match import Match, MatchOptions
from game.match_sim import random_match


def games_of(match: Match) -> list[list[Mapping[str, Any]]]:
    games: list[list[Mapping[str, Any]]] = []
    for event in match.events:
        if event["type"] == "game_start":
            games.append([])
        if games:
            games[-1].append(event)
    return games


@pytest.mark.parametrize("variant", list(Variant))
def test_match_play_invariants(variant: Variant) -> None:
    for seed in range(3):
        match = random_match(variant, 5, rng=random.Random(seed), cube_rate=0.04, resign_rate=0.003)
        score = [0, 0]
        for game in games_of(match):
            start = game[0]
            assert start["score"] == {"white": score[0], "black": score[1]}
            assert max(score) < 5
            if start["crawford"]:
                assert not any(e["type"] == "double" for e in game)
            for end in (e for e in game if e["type"] == "game_end"):
                if end["winner"]:
                    score[0 if end["winner"] == "white" else 1] += end["points"]
                cube = max([1] + [e["value"] for e in game if e["type"] == "take"])
                if end["reason"] == "bearoff":
                    assert end["points"] == cube * {"single": 1, "gammon": 2}.get(end["kind"], 3)
        assert match.is_over and tuple(score) == match.score and max(score) >= 5
        assert records(match)[-1]["type"] == "match_end" and match.winner is not None
        assert match.score[match.winner.index] >= 5


def test_jacoby_gammons_count_single_while_the_cube_is_centred() -> None:
    options = MatchOptions(jacoby=True, automatic_doubles=True)
    seen = 0
    for seed in range(6):
        match = random_match(Variant.BACKGAMMON, None, options, random.Random(seed), cube_rate=0.01,
                             resign_rate=0.0, money_games=3)
        for game in games_of(match):
            end = next((e for e in game if e["type"] == "game_end"), None)
            if end is None or end["reason"] != "bearoff" or any(e["type"] == "take" for e in game):
                continue
            ties = sum(1 for e in game if e["type"] == "opening_roll" and e["white"] == e["black"])
            assert end["points"] == (2 if ties else 1)  # one automatic double at most
            seen += end["kind"] != "single"
    assert seen, "no gammon without a turned cube in these sessions"
