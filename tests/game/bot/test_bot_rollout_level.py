"""The rollout level (game/bot/rollout_bot.py): the expert's candidates rolled out, truncated,
within a budget counted in rounds by a clock the test moves; legal plays; the truncation's
judgement; the command line."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from repo import ROOT, benchmark

from game.board import Color, Variant
from game.bot.base import Level
from game.bot.context import MONEY
from game.bot.factory import make_bot
from game.bot.network_bot import NetworkBot
from game.bot.rollout import GameDice, Rollout
from game.bot.rollout_bot import RolloutBot, Tally, overruling
from game.errors import UsageError
from game.position import Position

VARIANTS = [Variant.CATCHGAMMON, Variant.RUNGAMMON]


def stepping_clock(step: float) -> Callable[[], float]:
    """A clock that moves `step` seconds at each reading, from 0."""
    readings = itertools.count()
    return lambda: next(readings) * step


def contested(variant: Variant, seed: int) -> tuple[Position, tuple[int, int]]:
    """A position met in a game of the expert bot against itself where the rollout level has at
    least two candidates to roll out."""
    expert = make_bot(variant, Level.EXPERT, seed=1)
    rng = random.Random(seed)
    position = Position.initial(variant, Color.WHITE)
    position = position.play(expert.rank_plays(position, (3, 1))[0].play.notation(), (3, 1))  # past the book
    probe = RolloutBot(expert, 1.0, seed=1, clock=stepping_clock(10.0))
    for _ in range(200):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if position.legal_plays(dice) and len(probe.rank_plays(position, dice)) > 1 and probe.rounds:
            return position, dice
        play = expert.choose_play(position, dice)
        position = play.next_position if play else position.pass_turn()
    raise AssertionError("no contested position in 200 plays")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_budget_buys_rounds_as_the_clock_says(variant: Variant) -> None:
    position, dice = contested(variant, 3)
    expert = make_bot(variant, Level.EXPERT, seed=1)
    # the clock moves 1 s a reading, read once before the rounds and once after each round from
    # the second on: a 5 s budget buys the two rounds every play gets and four more
    bot = RolloutBot(expert, 5.0, seed=1, clock=stepping_clock(1.0))
    play = bot.choose_play(position, dice)
    assert bot.rounds == 6 and all(judged.games == 6 for judged in bot.last)
    assert 2 <= len(bot.last) <= 4
    assert play is not None and play.notation() == bot.last[0].notation  # the best mean is played
    assert [j.equity for j in bot.last] == sorted((j.equity for j in bot.last), reverse=True)
    spent = RolloutBot(expert, 5.0, seed=1, clock=stepping_clock(100.0))
    spent.choose_play(position, dice)
    assert spent.rounds == 2  # the budget gone at the first reading: the least a play gets
    stopped = RolloutBot(expert, 5.0, seed=1, clock=lambda: 0.0, max_rounds=7)
    stopped.choose_play(position, dice)
    assert stopped.rounds == 7  # a clock that never moves: the most a play gets
    again = RolloutBot(expert, 5.0, seed=1, clock=stepping_clock(1.0))
    again.choose_play(position, dice)
    assert again.last == bot.last  # the dice come from the bot's seed


def test_a_rollout_overrules_the_expert_only_by_the_confidence_asked() -> None:
    # the expert's first play (index 0) and a second whose games lead it by 0.1 each, but for one
    # game of 0.4: a mean lead of 0.16, the paired differences' standard error 0.06
    first = [0.0, 0.0, 0.0, 0.0, 0.0]
    second = [0.1, 0.1, 0.1, 0.1, 0.4]
    third = [-0.5] * 5
    assert overruling([first, second, third], 0.0) == 1  # the best mean
    assert overruling([first, second, third], 2.0) == 1  # 0.16 > 2 x 0.06
    assert overruling([first, second, third], 3.0) == 0  # 0.16 < 3 x 0.06: the expert's first stands
    assert overruling([second, first, third], 9.0) == 0  # the expert's first is the best mean
    assert overruling([first, [0.1]], 0.0) == 1 and overruling([first[:1], [0.1]], 1.0) == 0  # one game: no error


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rollout_level_plays_the_expert_unless_it_is_overruled(variant: Variant) -> None:
    position, dice = contested(variant, 3)
    expert = make_bot(variant, Level.EXPERT, seed=1)
    first = expert.rank_plays(position, dice)[0].play.notation()
    free = RolloutBot(expert, 5.0, seed=1, clock=stepping_clock(1.0))
    free.choose_play(position, dice)
    stubborn = RolloutBot(expert, 5.0, seed=1, clock=stepping_clock(1.0), confidence=1e9)
    play = stubborn.choose_play(position, dice)
    assert stubborn.games == free.games and len(stubborn.games) == len(stubborn.last)  # the same games
    assert play is not None and play.notation() == first == stubborn.last[0].notation
    assert sorted(stubborn.last[1:], key=lambda j: -j.equity) == stubborn.last[1:]
    assert {j.notation for j in stubborn.last} == {j.notation for j in free.last}
    with pytest.raises(UsageError, match="confidence of 0 or more standard errors, not -1"):
        RolloutBot(expert, 5.0, confidence=-1.0)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rollout_level_plays_legal_plays_through_a_game(variant: Variant) -> None:
    bot = RolloutBot(make_bot(variant, Level.EXPERT, seed=1), 1.0, seed=2, clock=stepping_clock(10.0), min_rounds=1)
    rng = random.Random(11)
    position = Position.initial(variant, Color.WHITE)
    rolled_out = 0
    for _ in range(24):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        legal = {p.after_moves for p in position.legal_plays(dice)}
        ranked = bot.rank_plays(position, dice)
        assert {r.play.after_moves for r in ranked} == legal and len(ranked) == len(legal)
        play = bot.choose_play(position, dice)
        if not legal:
            assert play is None
            position = position.pass_turn()
            continue
        assert play is not None and play.after_moves in legal
        rolled_out += bot.rounds > 0
        booked = bot.opening_play(position, dice)
        if booked is not None:  # the game's first play: the book's, nothing rolled out
            assert bot.rounds == 0 and play.after_moves == booked.after_moves
        elif bot.rounds == 0:  # one candidate within the filter: the expert's play, no game played
            assert bot.last == [] and play.after_moves == ranked[0].play.after_moves
        if play.after_moves.result() is not None:
            break
        position = play.next_position
    assert rolled_out >= 3


def test_a_truncated_rollout_of_no_plies_is_the_estimate_of_the_position_left() -> None:
    variant = Variant.CATCHGAMMON
    bot = make_bot(variant, Level.EXPERT, seed=1)
    assert isinstance(bot, NetworkBot)
    position = Position.initial(variant).play("24/21 24/20", (4, 3))
    ranked = bot.rank_plays(position, (6, 5))
    rollout = Rollout(bot, MONEY, plies=0)
    for entry in ranked[:3]:
        value, luck = rollout.play_out(entry, position.turn, GameDice(1, 0))
        theirs = bot.estimate(entry.play.next_position)  # the opponent on roll, before it rolls
        assert luck == 0.0
        assert value == pytest.approx(-float(bot.equity_of(theirs[None, :], MONEY, position.turn.opponent)[0]),
                                      abs=1e-6)
    deeper = Rollout(bot, MONEY, plies=2)
    values = {deeper.play_out(ranked[0], position.turn, GameDice(1, game))[0] for game in range(6)}
    assert len(values) > 1  # two plays on, the dice make the difference


def test_the_rollout_level_is_made_by_name_with_its_budget() -> None:
    bot = make_bot(Variant.RUNGAMMON, "rollout", seed=1, seconds=0.5)
    assert isinstance(bot, RolloutBot) and bot.seconds == 0.5 and bot.level is Level.ROLLOUT
    assert bot.luck and bot.name.endswith("(rollout, 0.5 s a play)")
    with pytest.raises(UsageError, match="for the rollout level only, not expert"):
        make_bot(Variant.RUNGAMMON, "expert", seconds=1.0)
    with pytest.raises(UsageError, match="budget above 0 seconds a play, not 0"):
        make_bot(Variant.RUNGAMMON, "rollout", seconds=0)
    start = Position.initial(Variant.CATCHGAMMON)
    book = make_bot(Variant.CATCHGAMMON, "rollout", seed=1, seconds=0.5)
    play = book.choose_play(start, (4, 2))
    assert play is not None and play.notation() == book.opening_play(start, (4, 2)).notation()  # type: ignore[union-attr]


@pytest.mark.slow
def test_play_bot_at_the_rollout_level() -> None:
    position = Position.initial(Variant.RUNGAMMON).play("24/14", (6, 4)).to_json()
    done = subprocess.run([sys.executable, "-m", "game", "play-bot", "--position", position, "--dice", "65",
                           "--level", "rollout", "--seconds", "0.3", "--seed", "1", "--json"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert '"notation"' in done.stdout
    bad = subprocess.run([sys.executable, "-m", "game", "play-bot", "--position", position, "--dice", "65",
                          "--seconds", "0.3"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert bad.returncode == 2 and "for the rollout level only" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_a_tally_counts_the_rounds_and_seconds_of_every_play_rolled_out() -> None:
    variant = Variant.CATCHGAMMON
    position, dice = contested(variant, 3)
    # 1 s a reading: the reading before the rounds (0 s), one after each round from the second on
    # (the sixth's, at 5 s, ends them) and the tally's own after them (6 s): 6 rounds in 6 s
    bot = RolloutBot(make_bot(variant, Level.EXPERT, seed=1), 5.0, seed=1, clock=stepping_clock(1.0))
    assert bot.tally is None
    bot.tally = tally = Tally()
    assert tally.describe() == "no play rolled out"
    bot.choose_play(position, dice)
    assert bot.rounds == 6 and tally.rounds == [6] and tally.seconds == [6.0]
    bot.choose_play(Position.initial(variant, Color.WHITE), (3, 1))  # the book's play: nothing rolled out
    bot.choose_play(position, dice)
    assert tally.rounds == [6, 6] and len(tally.seconds) == 2
    assert tally.describe() == "2 plays rolled out: rounds median 6 (least 6), seconds median 6.00, worst 6.00"


# -- benchmarks/bench_rollout_settings.py: which truncation the level should play by ---------------

def load_settings_bench() -> object:
    return benchmark("bench_rollout_settings")


def test_a_decisions_loss_is_what_its_play_gives_up_by_the_reference() -> None:
    import argparse

    from game.bot.rollout_bot import split_candidates

    bench: Any = load_settings_bench()
    expert = make_bot(Variant.CATCHGAMMON, Level.EXPERT, seed=1)
    position, dice = contested(Variant.CATCHGAMMON, 3)
    head, _ = split_candidates(expert.rank_plays(position, dice), 4)
    assert len(head) >= 2
    values = tuple(0.1 * i for i in range(len(head)))  # the reference likes the expert's last play best
    decision = bench.Decision(position, dice, tuple(head), values, 0.0)
    for entry, value in zip(head, values, strict=True):
        assert decision.loss(entry.play.notation()) == pytest.approx(max(values) - value)
    with pytest.raises(ValueError, match="is not one of the plays rolled out"):
        decision.loss("24/1")
    assert bench.plies_setting("1, 3,none") == [1, 3, None]
    with pytest.raises(argparse.ArgumentTypeError, match="'0': a number of plays of 1 or more, or none"):
        bench.plies_setting("2,0")
    assert bench.confidences("0, 1.5") == [0.0, 1.5]
    for bad in ("nan", "inf", "x"):
        with pytest.raises(argparse.ArgumentTypeError, match=f"'{bad}': a number of standard errors, 0 or more"):
            bench.confidences(f"1,{bad}")
    assert bench.luck_settings("on, OFF") == [True, False]
    with pytest.raises(argparse.ArgumentTypeError, match="'on,maybe': on, off or both"):
        bench.luck_settings("on,maybe")
    games = [[0.0, 0.1, 0.2], [0.5, 0.5, 0.8], [0.3, 0.2, 0.4]]  # the second leads, the third is next
    assert bench.lead_error(games) == pytest.approx(bench.mean_error([0.2, 0.3, 0.4])[1])


def test_the_settings_study_runs_every_setting_on_the_same_decisions(capsys: pytest.CaptureFixture[str]) -> None:
    bench: Any = load_settings_bench()
    assert bench.main(["--variant", "rungammon", "--positions", "1", "--reference-rounds", "2", "--seconds",
                       "0.001", "--repeats", "2", "--plies", "1,none"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()
            if line.split() and line.split()[0] in ("expert", "1", "to")}
    assert set(rows) == {"expert", "1", "to"}  # the expert alone, 1 ply, to the end
    for row in rows.values():
        best = float(next(word for word in row if word.endswith("%"))[:-1])
        assert 0 <= best <= 100
    assert rows["1"][-2] == rows["to"][-2] == "2"  # a budget this short buys the two rounds a level needs
    assert rows["expert"][-1] == "-" and float(rows["1"][-1]) >= 0  # how sure: a rollout's choice only


def test_the_settings_study_sets_luck_adjusted_games_beside_plain_ones(capsys: pytest.CaptureFixture[str]) -> None:
    bench: Any = load_settings_bench()
    assert bench.main(["--variant", "rungammon", "--positions", "1", "--reference-rounds", "2", "--seconds",
                       "0.2", "--repeats", "1", "--plies", "2", "--luck", "on,off"]) == 0
    rows = {line.rsplit(None, 5)[0]: line.split() for line in capsys.readouterr().out.splitlines()
            if line.startswith("2 plies")}
    assert set(rows) == {"2 plies, luck on", "2 plies, luck off"}
    # a plain game skips the 21 rolls' batch that the luck needs: the same CPU buys several times the
    # rounds (0.02 s bought the two rounds a level needs either way, too few to tell them apart)
    assert int(rows["2 plies, luck off"][-2]) > 2 * int(rows["2 plies, luck on"][-2])


def test_the_settings_study_keeps_its_references_and_goes_on_from_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench: Any = load_settings_bench()
    kept = tmp_path / "references.jsonl"
    common = ["--variant", "rungammon", "--reference-rounds", "2", "--seconds", "0.001", "--repeats", "1",
              "--plies", "1", "--references", str(kept)]
    assert bench.main([*common, "--positions", "1"]) == 0
    capsys.readouterr()
    first = kept.read_text().splitlines()
    assert len(first) == 2 and json.loads(first[0])["reference_rounds"] == 2
    assert bench.main([*common, "--positions", "2", "--confidence", "0,1.5"]) == 0
    out, err = capsys.readouterr()
    assert kept.read_text().splitlines()[:2] == first and len(kept.read_text().splitlines()) == 3
    assert "reference 1 of 2" not in err and "reference 2 of 2" in err  # the first read back, not made again
    assert [line.split(",")[0] for line in out.splitlines() if line.startswith("1 plies")] == ["1 plies"] * 2
    assert any(line.startswith("1 plies, 1.5 se") for line in out.splitlines())
    assert bench.main([*common, "--positions", "2", "--seed", "2"]) == 1  # made with another seed
    assert f"{kept}:1: made with" in capsys.readouterr().err
    lines = kept.read_text().splitlines()
    kept.write_text("\n".join([*lines, "{not json"]) + "\n")
    assert bench.main([*common, "--positions", "2"]) == 1
    assert f"{kept}:4: not a references file's line" in capsys.readouterr().err
    other = json.loads(lines[1]) | {"plays": ["24/1"]}  # a decision of another network's choosing
    kept.write_text("\n".join([lines[0], json.dumps(other), lines[2]]) + "\n")
    assert bench.main([*common, "--positions", "2"]) == 1
    assert f"{kept}:2: not the decision this run meets there" in capsys.readouterr().err
