"""Rollouts (game/bot/rollout.py, `python -m game.bot rollout`): games played out from each
candidate, their means unbiased against exact values, their errors, every variant."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from bot_fixtures import shipped
from repo import ROOT
from test_bot_bearoff import race

from game.board import Color, Variant
from game.bot import bearoff
from game.bot.base import Level
from game.bot.rollout import GameDice, Rollout
from game.position import Position


def rollout_command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game.bot", "rollout", *args], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


def test_in_every_36_games_each_roll_comes_first_once_and_second_once() -> None:
    for block in (0, 5):
        games = [GameDice(1, 36 * block + i) for i in range(36)]
        pairs = [(d.roll(), d.roll()) for d in games]
        assert len({first for first, _ in pairs}) == 36 and len({second for _, second in pairs}) == 36
    everything = [GameDice(1, game) for game in range(36 * 36)]
    assert len({(d.roll(), d.roll()) for d in everything}) == 36 * 36
    later = [GameDice(5, 7) for _ in range(2)]
    assert [later[0].roll() for _ in range(8)] == [later[1].roll() for _ in range(8)]  # the seed's dice


@pytest.mark.slow
@pytest.mark.parametrize("variant", [Variant.CATCHGAMMON, Variant.RUNGAMMON])
@pytest.mark.parametrize("luck", [False, True])
def test_a_race_played_to_the_end_matches_the_databases_exact_equity(variant: Variant, luck: bool) -> None:
    # A race played out (not cut off at the database) by the network; the mean must find the
    # database's exact equity of each candidate within its error.
    position = race(variant, (0, 2, 1, 0, 1, 0), (1, 1, 0, 2, 0, 0))
    bot = shipped(variant, Level.EXPERT)
    results = Rollout(bot, luck=luck, races=False).run(position, (5, 2), games=144, candidates=2, seed=3)
    database = bearoff.load()
    for result in results:
        theirs = database.estimate_position(result.play.play.next_position)
        exact = 1.0 - 2.0 * float(theirs[0])  # no gammons: the mover wins unless they do
        assert abs(result.equity - exact) < 3.5 * result.error + 0.01, (result, exact)
    if luck:  # the network knows races well: its luck takes most of the noise out
        assert all(r.error < 0.6 * r.raw_error for r in results), results


@pytest.mark.slow
def test_paired_dice_make_the_differences_surer_than_the_equities() -> None:
    position = race(Variant.CATCHGAMMON, (0, 3, 2, 0, 1, 2), (2, 1, 0, 2, 2, 1))
    results = Rollout(shipped(Variant.CATCHGAMMON, Level.EXPERT), races=False).run(
        position, (6, 4), games=72, candidates=3, seed=1)
    assert results[0].difference == 0.0 and [r.equity for r in results] == sorted(
        (r.equity for r in results), reverse=True)
    assert all(r.difference_error < r.error for r in results[1:]), results


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_the_command_rolls_out_in_every_variant(variant: Variant) -> None:
    start = Position.initial(variant, Color.WHITE)
    position = "4HPwATDgc/ABMA" if variant is Variant.BACKGAMMON else json.dumps(start.to_document())
    done = rollout_command("--position", position, "--dice", "31", "--games", "12", "--candidates", "2", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # not a terminal: no progress line in the log
    answer = json.loads(done.stdout)
    candidates = answer["candidates"]
    assert answer["games"] == 12 and 1 <= len(candidates) <= 2
    legal = {p.notation() for p in start.legal_plays((3, 1))}
    assert all(c["notation"] in legal and c["error"] > 0 and c["games"] == 12 for c in candidates)
    assert candidates[0]["difference"] == 0 and all(-3 <= c["equity"] <= 3 for c in candidates)
    again = rollout_command("--position", position, "--dice", "31", "--games", "12", "--candidates", "2", "--json")
    assert json.loads(again.stdout) == answer  # the dice come from the seed
    named = rollout_command("--position", "start", "--variant", variant.value, "--dice", "31", "--games", "12",
                            "--candidates", "2", "--json")
    assert json.loads(named.stdout) == answer  # `start`: the variant's starting position, White on roll


def test_bad_rollout_input_is_one_line() -> None:
    done = rollout_command("--position", "4HPwATDgc/ABMA", "--dice", "31", "--games", "0")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "at least one game" in done.stderr
