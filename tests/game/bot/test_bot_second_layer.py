"""A second hidden layer: its gradients, its learning in lockstep as one game after another, a
network deepened at no say estimating as before, its files, and the train command's `--second`."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from repo import ROOT

from game.board import Variant
from game.bot import lockstep
from game.bot.errors import WeightsError
from game.bot.network import OUTPUTS, Network
from game.bot.network_bot import shipped_weights
from game.bot.td import Settings, Trainer
from game.movegen import encode
from game.selfplay import random_positions


def _deep(variant: Variant, hidden: int, second: int, seed: int) -> Network:
    """An untrained network with a second layer whose output weights are not zero (every path counts)."""
    network = Network.untrained(variant, hidden, seed).deepened(second, seed)
    assert network.second is not None
    network.second.out = np.random.default_rng(seed).normal(0.0, 0.5, (OUTPUTS, second)).astype(np.float32)
    network.second.b += 0.3
    return network


def _states(variant: Variant, count: int, seed: int) -> np.ndarray:
    return np.stack([np.frombuffer(encode(position), dtype=np.uint8)
                     for position, _dice in random_positions(variant, count, seed=seed)])


def test_the_gradients_of_a_two_layer_network_are_its_outputs_finite_differences() -> None:
    network = _deep(Variant.CATCHGAMMON, 6, 5, seed=1)
    x = np.asarray(np.random.default_rng(2).random((network.w1.shape[1],)), dtype=np.float32)
    y, grads = network.gradients(x)
    assert len(grads) == 7 and np.allclose(y, network.activations(x[None, :])[2][0])
    rng = np.random.default_rng(3)
    step = 1e-2
    for array, grad in zip(network.arrays(), grads, strict=True):
        for _ in range(4):
            index = tuple(int(rng.integers(n)) for n in array.shape)
            kept = array[index]
            array[index] = kept + step
            above = network.activations(x[None, :])[2][0]
            array[index] = kept - step
            below = network.activations(x[None, :])[2][0]
            array[index] = kept
            numeric = (above.astype(np.float64) - below) / (2 * step)
            analytic = grad.reshape(OUTPUTS, -1)[:, int(np.ravel_multi_index(index, array.shape))]
            assert np.allclose(analytic, numeric, atol=2e-4), (array.shape, index)


def test_a_deepened_network_estimates_as_before_and_so_does_it_widened() -> None:
    # a trained first layer: the shipped network's, its own second layer taken away
    trained = dataclasses.replace(Network.load(shipped_weights(Variant.CATCHGAMMON)), second=None)
    states = _states(Variant.CATCHGAMMON, 40, seed=2)
    deep = trained.deepened(12, seed=3)
    assert deep.shape == (trained.w1.shape[1], trained.hidden, 12)
    assert deep.describe_shape() == f"{trained.hidden} + 12 hidden units"
    assert np.array_equal(deep.evaluate(states), trained.evaluate(states))
    wide = _deep(Variant.CATCHGAMMON, 8, 4, seed=5)
    assert np.allclose(wide.widened(11, seed=6).evaluate(states), wide.evaluate(states), atol=1e-6)
    with pytest.raises(WeightsError, match="already has a second hidden layer"):
        deep.deepened(4, seed=1)


def test_a_two_layer_network_is_saved_read_and_averaged_whole(tmp_path: Path) -> None:
    one, two = _deep(Variant.RUNGAMMON, 8, 4, seed=1), _deep(Variant.RUNGAMMON, 8, 4, seed=2)
    one.save(tmp_path / "one.npz")
    read = Network.load(tmp_path / "one.npz")
    assert read.second is not None and read.shape == one.shape
    states = _states(Variant.RUNGAMMON, 20, seed=4)
    assert np.allclose(read.evaluate(states), one.evaluate(states), atol=2e-3)  # saved as float16
    mean = Network.averaged([one, two])
    assert mean.second is not None and two.second is not None and one.second is not None
    assert np.allclose(mean.second.w, (one.second.w + two.second.w) / 2)
    with pytest.raises(WeightsError, match="8 \\+ 4 hidden units"):
        Network.averaged([one, Network.untrained(Variant.RUNGAMMON, 8, 1)])
    one.second = type(one.second)(one.second.w[:, :-1], one.second.b, one.second.out)  # fits no first layer
    one.save(tmp_path / "bad.npz")
    with pytest.raises(WeightsError, match="does not fit its first"):
        Network.load(tmp_path / "bad.npz")
    one.second = type(one.second)(one.second.b, one.second.b, one.second.out)  # a row where a matrix goes
    one.save(tmp_path / "flat.npz")
    with pytest.raises(WeightsError, match="does not fit its first"):
        Network.load(tmp_path / "flat.npz")


def test_a_two_layer_network_learns_in_lockstep_as_in_games_one_after_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """The batched gradients through both layers are the sequential ones (Black's read as White's)."""
    for variant in (Variant.CATCHGAMMON, Variant.BACKGAMMON):
        initial = _deep(variant, 10, 6, seed=7)
        sequential = Trainer(Settings(variant, 2, seed=7, hidden=10), initial)
        sequential.run()
        shared = random.Random(7)
        monkeypatch.setattr(lockstep, "game_dice", lambda seed, game, dice=shared: dice)
        batched = Trainer(Settings(variant, 2, seed=7, hidden=10, parallel=1), initial)
        lockstep.Lockstep(batched).run()
        monkeypatch.undo()
        assert batched.plies == sequential.plies and batched.results == sequential.results
        assert len(batched.network.arrays()) == 7
        for mine, theirs, before in zip(batched.network.arrays(), sequential.network.arrays(), initial.arrays(),
                                        strict=True):
            assert np.allclose(mine, theirs, atol=1e-5), variant
            assert not np.array_equal(mine, before), variant  # every array learnt


def test_the_train_command_deepens_a_network_and_records_it(tmp_path: Path) -> None:
    base = [sys.executable, "-m", "game.bot", "train", "--variant", "rungammon", "--games", "2", "--every", "2",
            "--eval-games", "0", "--no-progress", "--seed", "4", "--parallel", "2"]
    first = tmp_path / "first.npz"
    Network.untrained(Variant.RUNGAMMON, 8, 1).save(first)
    out = tmp_path / "deep.npz"
    done = subprocess.run([*base, "--init", str(first), "--second", "6", "--out", str(out)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    deep = Network.load(out)
    assert deep.shape[1:] == (8, 6) and deep.record["second"] == 6 and "--second 6" in deep.record["command"]
    # The record's command, run again beside the file it continues, remakes the same weights.
    command = deep.record["command"].split()[3:]
    command[command.index("--out") + 1] = str(tmp_path / "again.npz")
    remade = subprocess.run([sys.executable, "-m", "game.bot", *command, "--no-progress"], capture_output=True,
                            text=True, timeout=300, cwd=tmp_path)
    assert remade.returncode == 0, remade.stderr
    assert all(np.array_equal(a, b) for a, b in zip(Network.load(tmp_path / "again.npz").arrays(), deep.arrays(),
                                                    strict=True))
    again = subprocess.run([*base, "--init", str(out), "--second", "6", "--out", str(tmp_path / "x.npz")],
                           capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert again.returncode == 2 and "already has a second hidden layer" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1
