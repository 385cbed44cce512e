"""Training: a short run learns; runs repeat from their seed; the shipped weights give their figures."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from repo import ROOT

from game.board import Variant
from game.bot import lockstep
from game.bot.arena import match_up
from game.bot.base import Level
from game.bot.baselines import HeuristicBot, RandomBot
from game.bot.network import Network
from game.bot.network_bot import NetworkBot, shipped_weights
from game.bot.search import ROLL_WEIGHTS, ROLLS
from game.bot.td import Settings, Trainer
from game.movegen import encode, state_plays
from game.pictures.curve import draw_curve
from game.selfplay import random_positions


# Catchgammon: its untrained network wins 70% against the random player and a few hundred games of
# either kind take it near 100%. Backgammon's, given the variants' counts since issue 27, starts near
# 50% and at this size moves too little in a few hundred games to be told apart in 120.
@pytest.mark.slow
def test_a_few_hundred_games_of_self_play_beat_the_untrained_network() -> None:
    trainer = Trainer(Settings(Variant.CATCHGAMMON, 300, seed=5, hidden=32))
    untrained = NetworkBot(Network.untrained(Variant.CATCHGAMMON, 32, 5), Level.ADVANCED)
    before = match_up(untrained, RandomBot(Variant.CATCHGAMMON, 1), Variant.CATCHGAMMON, 120, seed=9)
    trainer.run()
    after = match_up(NetworkBot(trainer.network, Level.ADVANCED), RandomBot(Variant.CATCHGAMMON, 1),
                     Variant.CATCHGAMMON, 120, seed=9)
    # Separate 95% intervals: the trained network wins clearly more often than the untrained one.
    assert after.interval()[0] > before.interval()[1], (before.describe(), after.describe())


def test_a_run_repeats_from_its_seed_and_its_first_games_are_a_shorter_run() -> None:
    long, short = Trainer(Settings(Variant.RUNGAMMON, 4, seed=3, hidden=8)), Trainer(
        Settings(Variant.RUNGAMMON, 2, seed=3, hidden=8))
    again = Trainer(Settings(Variant.RUNGAMMON, 4, seed=3, hidden=8))
    def keep(done: int) -> None:
        if done == 2:
            _snapshot.append(long.network.w1.copy())

    long.run(checkpoint=keep, every=2)
    short.run()
    again.run()
    assert np.array_equal(long.network.w1, again.network.w1)
    assert np.array_equal(_snapshot[-1], short.network.w1)


_snapshot: list[np.ndarray] = []


@pytest.mark.slow
@pytest.mark.parametrize("extra", [[], ["--parallel", "3"]])
def test_the_train_command_writes_weights_curve_and_record(tmp_path: Path, extra: list[str]) -> None:
    out = tmp_path / "cg.npz"
    done = subprocess.run([sys.executable, "-m", "game.bot", "train", "--variant", "catchgammon", "--games", "4",
                           "--seed", "2", "--out", str(out), "--every", "2", "--eval-games", "2", "--hidden", "8",
                           *extra], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "4/4 games" not in done.stderr and "wrote" in done.stderr  # the summary; a bar only on a terminal
    assert ("warning: --parallel without --init" in done.stderr) == bool(extra)
    network = Network.load(out)
    assert network.variant is Variant.CATCHGAMMON and network.record["games"] == 4
    assert [p["games"] for p in network.record["curve"]] == [0.0, 2.0, 4.0]
    assert Image.open(out.with_suffix(".png")).size == (900, 520)
    # The record's command, run again, remakes the weights: it names every option that shaped them.
    again = tmp_path / "again.npz"
    command = network.record["command"].split()[3:]
    assert command[command.index("--hidden") + 1] == "8" and "--out" in command
    assert network.record["parallel"] == (3 if extra else 1)
    assert ("--parallel 3" in network.record["command"]) == bool(extra)
    command[command.index("--out") + 1] = str(again)
    done = subprocess.run([sys.executable, "-m", "game.bot", *command], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert all(np.array_equal(a, b) for a, b in zip(Network.load(again).arrays(), network.arrays(), strict=True))


def test_games_played_in_lockstep_learn_as_games_played_one_after_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """One slot of the lockstep trainer, given the dice of a sequential run, makes the same updates:
    the batched gradients and traces (Black's read as White's) are the sequential ones."""
    for variant in (Variant.CATCHGAMMON, Variant.RUNGAMMON, Variant.BACKGAMMON):
        sequential = Trainer(Settings(variant, 2, seed=7, hidden=16))
        sequential.run()
        shared = random.Random(7)
        monkeypatch.setattr(lockstep, "game_dice", lambda seed, game, dice=shared: dice)
        batched = Trainer(Settings(variant, 2, seed=7, hidden=16, parallel=1))
        lockstep.Lockstep(batched).run()
        monkeypatch.undo()
        assert batched.plies == sequential.plies and batched.results == sequential.results
        for mine, theirs in zip(batched.network.arrays(), sequential.network.arrays(), strict=True):
            assert np.allclose(mine, theirs, atol=1e-5), variant


def test_a_parallel_run_repeats_from_its_seed_and_its_first_blocks_are_a_shorter_run() -> None:
    def run(games: int) -> tuple[Trainer, list[np.ndarray]]:
        trainer = Trainer(Settings(Variant.CATCHGAMMON, games, seed=3, hidden=8, parallel=3))
        snapshots: list[np.ndarray] = []
        lockstep.Lockstep(trainer).run(checkpoint=lambda done: snapshots.append(trainer.network.w1.copy()), every=4)
        return trainer, snapshots

    (long, at), (again, _), (short, _) = run(8), run(8), run(4)
    assert np.array_equal(long.network.w1, again.network.w1) and sum(long.results) == 8
    assert np.array_equal(at[1], short.network.w1) and not np.array_equal(at[1], at[2])



def test_an_expected_target_is_the_mean_over_the_21_rolls_of_each_rolls_greedy_play() -> None:
    """With `expected`, each game's target is the mean (1/36 a double, 2/36 the others) over the 21
    rolls of the mover's estimate after that roll's greedy play, judged one roll at a time here; the
    play made is still the greedy play for the roll thrown, as without it."""
    for variant in (Variant.CATCHGAMMON, Variant.RUNGAMMON, Variant.BACKGAMMON):
        shipped = Network.load(shipped_weights(variant))
        sampled = lockstep.Lockstep(Trainer(Settings(variant, 3, seed=2, hidden=shipped.hidden, parallel=3), shipped))
        expected = lockstep.Lockstep(Trainer(Settings(variant, 3, seed=2, hidden=shipped.hidden, parallel=3,
                                                      expected=True), shipped))
        games = [expected._start(n) for n in range(3)]
        for game, (position, dice) in zip(games, random_positions(variant, 3, seed=11), strict=True):
            game.state, game.mover, game.dice = encode(position), position.turn, dice
        targets, played, rows = expected._choose(games)
        thrown, thrown_played, thrown_rows = sampled._choose(games)
        assert played == thrown_played and np.array_equal(rows, thrown_rows)
        for game, target in zip(games, targets, strict=True):
            mean = np.zeros(5)
            for roll, weight in zip(ROLLS, ROLL_WEIGHTS, strict=True):
                game.dice = roll
                mean += weight * sampled._choose([game])[0][0]
            assert np.allclose(target, mean, atol=1e-5), variant


def test_an_expected_target_needs_games_in_lockstep() -> None:
    done = subprocess.run([sys.executable, "-m", "game.bot", "train", "--variant", "catchgammon", "--games", "4",
                           "--out", "x.npz", "--expected-target"], capture_output=True, text=True, timeout=60,
                          cwd=ROOT)
    assert done.returncode == 2 and "--parallel" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1

def test_an_explored_play_is_drawn_with_the_weight_of_its_equity_below_the_best() -> None:
    equity = np.array([0.0, -0.1, -0.3, 0.0, -2.0], dtype=np.float32)
    weights = np.exp((equity - equity.max()) / 0.1)
    rng = random.Random(3)
    draws = 40_000
    counts = np.bincount([lockstep.explored(equity, 0.1, rng) for _ in range(draws)], minlength=len(equity))
    assert np.allclose(counts / draws, weights / weights.sum(), atol=0.01), counts
    assert lockstep.explored(np.array([0.5], dtype=np.float32), 0.1, rng) == 0


def test_the_first_plies_of_an_exploring_run_draw_their_play_and_keep_the_greedy_target() -> None:
    """With `explore`, a game's play in its first plies is drawn among the thrown roll's candidates
    (at a high temperature, often not the greedy one); later plies are greedy. The expected target
    is the greedy plays' mean either way."""
    variant = Variant.CATCHGAMMON
    shipped = Network.load(shipped_weights(variant))

    def lockstep_of(explore: int) -> lockstep.Lockstep:
        settings = Settings(variant, 8, seed=2, hidden=shipped.hidden, parallel=8, expected=True, explore=explore,
                            temperature=100.0)
        return lockstep.Lockstep(Trainer(settings, shipped))

    greedy, exploring = lockstep_of(0), lockstep_of(4)
    games = [exploring._start(n) for n in range(8)]
    for game, (position, dice) in zip(games, random_positions(variant, 8, seed=11), strict=True):
        game.state, game.mover, game.dice = encode(position), position.turn, dice
    greedy_targets, greedy_played, _ = greedy._choose(games)
    targets, played, _ = exploring._choose(games)
    assert np.allclose(targets, greedy_targets)
    for game, state in zip(games, played, strict=True):
        assert state in state_plays(game.state, variant, game.dice)[0] or state == game.state
    assert sum(a != b for a, b in zip(played, greedy_played, strict=True)) >= 4
    for game in games:
        game.plies = 4
    assert exploring._choose(games)[1] == greedy_played


def test_an_exploring_run_says_so_in_its_record_and_needs_games_in_lockstep(tmp_path: Path) -> None:
    base = [sys.executable, "-m", "game.bot", "train", "--variant", "rungammon", "--games", "4", "--every", "4",
            "--eval-games", "0", "--no-progress", "--hidden", "8", "--explore", "6", "--out", str(tmp_path / "x.npz")]
    alone = subprocess.run(base, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert alone.returncode == 2 and "--parallel" in alone.stderr and len(alone.stderr.strip().splitlines()) == 1
    no_explore = [arg for arg in base if arg not in ("--explore", "6")] + ["--parallel", "2", "--temperature", "0.3"]
    unused = subprocess.run(no_explore, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert unused.returncode == 2 and "--explore" in unused.stderr and len(unused.stderr.strip().splitlines()) == 1
    done = subprocess.run([*base, "--parallel", "2"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    record = Network.load(tmp_path / "x.npz").record
    assert "--explore 6 --temperature 0.1" in record["command"]
    assert record["explore"] == {"plies": 6, "temperature": 0.1}


@pytest.mark.slow
def test_a_few_hundred_games_in_lockstep_beat_the_untrained_network() -> None:
    trainer = Trainer(Settings(Variant.CATCHGAMMON, 300, seed=5, hidden=32, parallel=16))
    untrained = NetworkBot(Network.untrained(Variant.CATCHGAMMON, 32, 5), Level.ADVANCED)
    before = match_up(untrained, RandomBot(Variant.CATCHGAMMON, 1), Variant.CATCHGAMMON, 120, seed=9)
    lockstep.Lockstep(trainer).run()
    after = match_up(NetworkBot(trainer.network, Level.ADVANCED), RandomBot(Variant.CATCHGAMMON, 1),
                     Variant.CATCHGAMMON, 120, seed=9)
    assert sum(trainer.results) == 300
    assert after.interval()[0] > before.interval()[1], (before.describe(), after.describe())


def test_a_continued_run_may_widen_the_network_which_keeps_its_estimates(tmp_path: Path) -> None:
    shipped = Network.load(shipped_weights(Variant.CATCHGAMMON))
    states = np.stack([np.frombuffer(encode(position), dtype=np.uint8) for position, _dice in random_positions(
        Variant.CATCHGAMMON, 40, seed=2)])
    wide = shipped.widened(shipped.hidden + 16, seed=3)
    assert wide.hidden == shipped.hidden + 16
    assert np.allclose(wide.evaluate(states), shipped.evaluate(states), atol=1e-6)
    base = [sys.executable, "-m", "game.bot", "train", "--variant", "catchgammon", "--games", "2", "--every", "2",
            "--eval-games", "0", "--no-progress", "--seed", "4", "--init", str(shipped_weights(Variant.CATCHGAMMON))]
    out = tmp_path / "wide.npz"
    done = subprocess.run([*base, "--hidden", str(shipped.hidden + 16), "--out", str(out)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    record = Network.load(out).record
    assert record["hidden"] == shipped.hidden + 16 and f"--hidden {shipped.hidden + 16}" in record["command"]
    narrow = subprocess.run([*base, "--hidden", "8", "--out", str(tmp_path / "x.npz")], capture_output=True,
                            text=True, timeout=300, cwd=ROOT)
    assert narrow.returncode == 2 and "only ever widened" in narrow.stderr
    assert len(narrow.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("arguments", "message"), [
    (["--variant", "chess"], "invalid choice: 'chess'"),
    (["--alpha", "-1"], "--alpha: must be a number above 0, got -1"),  # it learnt backwards
    (["--alpha-end", "0"], "--alpha-end: must be a number above 0, got 0"),
    (["--lam", "3"], "--lam: must be from 0 to 1, got 3"),  # its traces overflowed
    (["--temperature", "0"], "--temperature: must be a number above 0, got 0"),
    (["--explore", "-2"], "--explore: must be 0 or more, got -2"),
])
def test_bad_train_arguments_are_one_line(tmp_path: Path, arguments: list[str], message: str) -> None:
    out = tmp_path / "x.npz"
    base = {"--variant": "catchgammon", "--games": "4", "--out": str(out)}
    given = dict(zip(arguments[::2], arguments[1::2], strict=True))
    done = subprocess.run([sys.executable, "-m", "game.bot", "train", *(f for k, v in {**base, **given}.items()
                                                                          for f in (k, v))],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and message in done.stderr
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.parametrize("variant", [Variant.CATCHGAMMON, Variant.RUNGAMMON])
def test_the_shipped_weights_give_their_documented_figure(variant: Variant) -> None:
    """The network's own figures (0-ply against the random player and the heuristic: an averaged
    network's `point`, else the last point of its run's curve) are reproduced on a small sample: each
    sample's 95% interval must reach the documented rate less 10 points."""
    network = Network.load(shipped_weights(variant))
    documented = network.record.get("point", network.record["curve"][-1])
    for name, opponent, floor in (("random", RandomBot(variant, 4), 0.8), ("heuristic", HeuristicBot(variant, 4), 0.5)):
        score = match_up(NetworkBot(network, Level.ADVANCED), opponent, variant, 60, seed=13)
        assert score.interval()[1] >= documented[name] - 0.10, (name, documented[name], score.describe())
        assert score.rate > floor, (name, score.describe())
    assert network.record["total_games"] >= 1000 and json.dumps(network.record)  # a real run, recorded


def test_an_averages_record_keeps_what_all_its_files_continue_once_and_loses_nothing() -> None:
    from game.bot.average import compact_record

    start = {"command": "train --seed 1", "total_games": 10}
    run = {"command": "average a b", "averaged": {name: {"command": "train --seed 2 --keep", "games": games,
                                                          "continues": start} for name, games in (("a", 5), ("b", 10))}}
    further = {"command": "train --seed 3 --init mean", "continues": run}
    mean_of_means = {"command": "average c d", "averaged": {"c": further, "d": {**further, "games": 2}}}
    compact = compact_record(mean_of_means)
    assert compact["all_continue"]["all_continue"] == start  # kept once, at each level
    assert compact["averaged"] == {"c": {"command": "train --seed 3 --init mean"},
                                   "d": {"command": "train --seed 3 --init mean", "games": 2}}
    assert "continues" not in compact["all_continue"]["averaged"]["a"]
    assert json.dumps(compact).count("train --seed 1") == 1 and json.dumps(mean_of_means).count("train --seed 1") == 4

    def whole(record: dict[str, object]) -> dict[str, object]:  # each file's own record, as it was
        shared = record.get("all_continue")
        out = {key: whole(value) if key == "continues" and isinstance(value, dict) else value
               for key, value in record.items() if key != "all_continue"}
        if isinstance(record.get("averaged"), dict):
            averaged: dict[str, dict[str, object]] = record["averaged"]  # type: ignore[assignment]
            out["averaged"] = {name: whole({**entry, **({"continues": shared} if shared else {})})
                               for name, entry in averaged.items()}
        return out

    assert whole(compact) == mean_of_means
    apart = {"averaged": {"a": {"continues": start}, "b": {"continues": further}}}  # files of two runs
    assert compact_record(apart) == {"averaged": {"a": {"continues": start},
                                                  "b": {"continues": compact_record(further)}}}
    shipped = Network.load(shipped_weights(Variant.CATCHGAMMON)).record
    assert compact_record(shipped) == shipped  # the shipped record is compact already


def test_a_run_continues_a_saved_network_with_its_learning_rate_and_curve(tmp_path: Path) -> None:
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    base = [sys.executable, "-m", "game.bot", "train", "--variant", "rungammon", "--games", "2", "--every", "2",
            "--eval-games", "2", "--no-progress"]
    for out, extra in ((first, ["--seed", "3", "--hidden", "8"]), (second, ["--seed", "4", "--init", str(first)])):
        done = subprocess.run([*base, *extra, "--out", str(out)], capture_output=True, text=True, timeout=300,
                              cwd=ROOT)
        assert done.returncode == 0, done.stderr
    before, after = Network.load(first), Network.load(second)
    assert after.hidden == 8 and not np.array_equal(before.w1, after.w1)  # the same network, trained further
    record = after.record
    assert record["games"] == 2 and record["total_games"] == 4 and "--init first.npz" in record["command"]
    assert record["continues"]["command"] == before.record["command"]
    assert [p["games"] for p in record["curve"]] == [0.0, 2.0, 4.0]  # the first run's curve, then this one's
    # The learning rate goes on from the games behind the network: game 0 of a run continuing 6,000
    # games learns as game 6,000 of a run from the same network and dice.
    continued = Trainer(Settings(Variant.RUNGAMMON, 1, 4, start=6000), before)
    continued.play_game(0)
    numbered = Trainer(Settings(Variant.RUNGAMMON, 6001, 4), before)
    numbered.play_game(6000)
    fresh = Trainer(Settings(Variant.RUNGAMMON, 1, 4), before)
    fresh.play_game(0)
    assert np.array_equal(continued.network.w1, numbered.network.w1)
    assert not np.array_equal(continued.network.w1, fresh.network.w1)
    assert np.array_equal(before.w1, Network.load(first).w1)  # the initial network itself is left as it was
    wrong = subprocess.run([*base, "--variant", "catchgammon", "--init", str(first), "--out",
                            str(tmp_path / "x.npz")], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert wrong.returncode == 2 and len(wrong.stderr.strip().splitlines()) == 1, wrong.stderr


@pytest.mark.slow
def test_a_kept_run_averages_into_one_network_that_records_its_parts(tmp_path: Path) -> None:
    out = tmp_path / "run.npz"
    train = [sys.executable, "-m", "game.bot", "train", "--variant", "rungammon", "--games", "4", "--every", "2",
             "--eval-games", "2", "--hidden", "8", "--seed", "5", "--keep", "--no-progress", "--out", str(out)]
    done = subprocess.run(train, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    kept = [tmp_path / "run-2.npz", tmp_path / "run-4.npz"]
    parts = [Network.load(path) for path in kept]
    assert np.array_equal(parts[1].w1, Network.load(out).w1)  # the last point kept is the run's result
    assert not np.array_equal(parts[0].w1, parts[1].w1) and parts[0].record["games"] == 2
    assert parts[1].record["command"].endswith("--keep")  # the command that remakes the files averaged
    averaged = tmp_path / "mean.npz"
    command = [sys.executable, "-m", "game.bot", "average", "--out", str(averaged), "--eval-games", "2",
               *map(str, kept)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0 and "mean of 2 networks" in done.stderr, done.stderr
    network = Network.load(averaged)
    for i, array in enumerate(network.arrays()):
        expected = (parts[0].arrays()[i] + parts[1].arrays()[i]) / 2
        assert np.allclose(array, expected, atol=2e-3), i  # float16 on disk
    record = network.record
    assert sorted(record["averaged"]) == ["run-2.npz", "run-4.npz"] and record["total_games"] == 4
    assert record["averaged"]["run-4.npz"]["command"] == parts[1].record["command"]
    assert record["command"].endswith("run-2.npz run-4.npz") and 0.0 <= record["point"]["random"] <= 1.0
    # The curve beside it is the newest checkpoint's with the average's own point marked.
    title = "rungammon: self-play; the mean of the networks at 2 to 4 games"
    marked = draw_curve(title, record["curve"], ["random", "heuristic"], ("mean of 2", record["point"]))
    assert Image.open(averaged.with_suffix(".png")).convert("RGB").tobytes() == marked.tobytes()
    assert marked.tobytes() != draw_curve(title, record["curve"], ["random", "heuristic"]).tobytes()
    # The record's command, run again where the files are, remakes the weights and the figure.
    again = subprocess.run([sys.executable, *record["command"].split()[1:]], capture_output=True, text=True,
                           timeout=300, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    remade = Network.load(averaged)
    assert all(np.array_equal(a, b) for a, b in zip(remade.arrays(), network.arrays(), strict=True))
    assert remade.record["point"] == record["point"]
    # A run goes on from an average as from any network: from its games, keeping its record.
    further = tmp_path / "further.npz"
    done = subprocess.run([*train[:train.index("--hidden")], "--init", str(averaged), "--out", str(further)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert Network.load(further).record["total_games"] == 8
    assert Network.load(further).record["continues"]["averaged"] == record["averaged"]
    other = tmp_path / "other.npz"
    Network.untrained(Variant.RUNGAMMON, hidden=9).save(other)
    mixed = subprocess.run([*command[:-2], str(kept[0]), str(other)], capture_output=True, text=True, timeout=60,
                           cwd=ROOT)
    assert mixed.returncode == 2 and "cannot average" in mixed.stderr
    assert len(mixed.stderr.strip().splitlines()) == 1
    for bad in (["--eval-games", "-1", str(kept[0])], [str(tmp_path / "missing.npz")]):
        refused = subprocess.run([*command[:4], "--out", str(tmp_path / "x.npz"), *bad], capture_output=True,
                                 text=True, timeout=60, cwd=ROOT)
        assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
