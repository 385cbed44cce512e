"""The dice's luck as a network judges it (game/bot/luck.py): zero on average over the rolls that
might have come, read for one side, and subtracted from results without moving their mean."""

from __future__ import annotations

import json
import random
import statistics

import numpy as np
import pytest
from repo import benchmark

from game.board import Color, Variant
from game.bot.arena import match_up, play_game
from game.bot.base import Level
from game.bot.baselines import HeuristicBot
from game.bot.bearoff import is_race
from game.bot.factory import make_bot
from game.bot.luck import OPENING_ROLLS, Adjusted, Luck, LuckMeter, best_after_each_roll, describe_adjusted
from game.bot.network_bot import NetworkBot, shipped_weights
from game.bot.search import ROLL_WEIGHTS, ROLLS
from game.position import Position


def positions_of_a_game(variant: Variant, seed: int) -> list[Position]:
    """Every position a roll was thrown in, in one game of the heuristic against itself."""
    seen: list[Position] = []
    bot = HeuristicBot(variant)
    play_game(bot, bot, variant, random.Random(seed), watch=lambda position, dice, opening: seen.append(position))
    return seen


def race(variant: Variant = Variant.BACKGAMMON) -> Position:
    """A race: each side's last checkers home, White's 4 on its 6-point against Black's 2 on its 1-point."""
    points: list[list[str]] = [[] for _ in range(24)]
    points[5] = ["w"] * 4
    points[23] = ["b"] * 2
    return position_of(variant, points, white_off=11, black_off=13)


def position_of(variant: Variant, points: list[list[str]], white_off: int, black_off: int) -> Position:
    """White on roll in this position."""
    return Position.from_json(json.dumps({"variant": variant.value, "turn": "white", "points": points,
                                          "bar": {"white": 0, "black": 0},
                                          "off": {"white": white_off, "black": black_off}}))


@pytest.mark.parametrize("variant", list(Variant))
def test_a_rolls_luck_is_nothing_on_average_over_the_rolls_that_might_have_come(variant: Variant) -> None:
    meter = LuckMeter.shipped(variant)
    positions = positions_of_a_game(variant, 3)
    sampled = positions[5::9] + positions[-3:]
    assert any(is_race(position) for position in sampled)  # the bear-off database's rolls are among them
    largest = 0.0
    for position in sampled:
        for me in Color:
            meter.start(me)
            lucks = [meter.luck(position, roll) for roll in ROLLS]
            assert float(ROLL_WEIGHTS @ np.array([luck.wins for luck in lucks])) == pytest.approx(0, abs=1e-6)
            assert float(ROLL_WEIGHTS @ np.array([luck.points for luck in lucks])) == pytest.approx(0, abs=1e-6)
            largest = max(largest, *(abs(luck.wins) for luck in lucks))
    assert largest > 0.05  # the dice do matter in these positions


@pytest.mark.parametrize("variant", list(Variant))
def test_the_opening_rolls_luck_counts_who_starts_and_is_nothing_on_average(variant: Variant) -> None:
    meter = LuckMeter.shipped(variant)
    meter.start(Color.WHITE)
    outcomes = {(index, starter): meter.luck(Position.initial(variant, starter), ROLLS[index], opening=True)
                for index in OPENING_ROLLS for starter in Color}
    assert len(outcomes) == 30
    assert sum(luck.wins for luck in outcomes.values()) / 30 == pytest.approx(0, abs=1e-6)
    assert sum(luck.points for luck in outcomes.values()) / 30 == pytest.approx(0, abs=1e-6)
    # starting is an advantage, which White's luck counts when it starts
    assert sum(luck.wins for (_, starter), luck in outcomes.items() if starter is Color.WHITE) > 0


def test_luck_is_read_for_one_side_and_is_the_others_bad_luck() -> None:
    variant = Variant.CATCHGAMMON
    meter = LuckMeter.shipped(variant)
    position = positions_of_a_game(variant, 4)[20]
    for roll in ((6, 6), (2, 1), (5, 3)):
        meter.start(position.turn)
        roller = meter.luck(position, roll)
        meter.start(position.turn.opponent)
        other = meter.luck(position, roll)
        assert other.wins == pytest.approx(-roller.wins, abs=1e-6)
        assert other.points == pytest.approx(-roller.points, abs=1e-5)


def test_a_roll_that_bears_the_last_checkers_off_is_as_lucky_as_the_others_are_not() -> None:
    position = race()
    probs = best_after_each_roll(NetworkBot.shipped(Variant.BACKGAMMON, Level.ADVANCED), position)
    for index, roll in enumerate(ROLLS):
        # 66 bears the four off the 6-point; any other roll leaves Black to bear its two off
        assert probs[index, 0] == (1.0 if roll == (6, 6) else 0.0)
    meter = LuckMeter.shipped(Variant.BACKGAMMON)
    meter.start(Color.WHITE)
    lucky = meter.luck(position, (6, 6))
    assert lucky.wins == pytest.approx(1.0 - float(ROLL_WEIGHTS @ probs[:, 0]), abs=1e-6) and lucky.wins > 0.05


def test_a_roll_that_cannot_be_played_leaves_the_opponent_to_roll_in_the_same_position() -> None:
    # White's last checker on its 24-point behind Black's five points 23 to 19: only a 6 moves it
    variant = Variant.BACKGAMMON
    points: list[list[str]] = [[] for _ in range(24)]
    points[23] = ["w"]
    for index in range(18, 23):
        points[index] = ["b", "b"]
    points[0] = ["b", "b", "b"]
    position = position_of(variant, points, white_off=14, black_off=2)
    bot = NetworkBot.shipped(variant, Level.ADVANCED)
    assert not position.legal_plays((1, 1)) and position.legal_plays((6, 1))
    probs = best_after_each_roll(bot, position)
    theirs = bot.estimate(position.with_turn(Color.BLACK))
    assert probs[ROLLS.index((1, 1)), 0] == pytest.approx(1.0 - theirs[0], abs=1e-6)


def test_watching_the_luck_changes_no_game() -> None:
    variant = Variant.CATCHGAMMON
    ours, theirs = make_bot(variant, Level.ADVANCED, seed=1), HeuristicBot(variant)
    meter = LuckMeter.shipped(variant)
    for seed in range(6):
        plain = play_game(ours, theirs, variant, random.Random(seed), Color.BLACK)
        meter.start(Color.BLACK)
        watched = play_game(ours, theirs, variant, random.Random(seed), Color.BLACK, meter)
        assert watched == plain and meter.rolls > 20
        assert meter.finish(watched.points) == Adjusted(watched.won, watched.points, meter.total)
    assert len(meter.games) == 6


def test_the_luck_adjusted_figure_narrows_the_spread_around_the_same_mean() -> None:
    variant = Variant.CATCHGAMMON
    ours, theirs = make_bot(variant, Level.ADVANCED, seed=1), HeuristicBot(variant)
    meter = LuckMeter.shipped(variant)
    for seed in range(40):
        color = Color.WHITE if seed % 2 else Color.BLACK
        meter.start(color)
        meter.finish(play_game(ours, theirs, variant, random.Random(seed // 2), color, meter).points)
    plain = [float(game.won) for game in meter.games]
    adjusted = [game.wins for game in meter.games]
    assert statistics.stdev(adjusted) < 0.8 * statistics.stdev(plain)
    # the same mean, within the plain figure's own 95% interval
    assert abs(statistics.mean(adjusted) - statistics.mean(plain)) < 1.96 * statistics.stdev(plain) / 40 ** 0.5
    said = describe_adjusted(meter.games)
    assert said.startswith(f"luck-adjusted: win rate {100 * statistics.mean(adjusted):.1f}% +- ")
    assert "worth " in said and "times the games" in said


def test_a_figure_of_one_game_has_no_interval_and_says_so() -> None:
    assert "no spread to compare" in describe_adjusted([Adjusted(True, 1, Luck(0.2, 0.3))])


def test_a_match_up_read_for_its_first_bot_plays_the_same_games() -> None:
    variant = Variant.RUNGAMMON
    first, second = make_bot(variant, Level.ADVANCED, seed=1), HeuristicBot(variant)
    meter = LuckMeter.shipped(variant)
    assert match_up(first, second, variant, 6, 11, meter) == match_up(first, second, variant, 6, 11)
    assert len(meter.games) == 6
    adjusted = [game.wins for game in meter.games]
    assert adjusted != [float(game.won) for game in meter.games]


def test_the_bot_benchmarks_network_figures_say_their_luck_adjusted_figure_when_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    bench = benchmark("bench_bot")
    weights = shipped_weights(Variant.RUNGAMMON)
    bench.against_shipped(4, [weights], 3, luck=True)
    lines = capsys.readouterr().out.splitlines()
    assert "vs shipped (advanced):" in lines[1] and "of 4 games" in lines[1]
    assert lines[2].startswith("    luck-adjusted: win rate ")
    bench.against_shipped(4, [weights], 3)
    assert "luck-adjusted" not in capsys.readouterr().out
