"""Distilling a network's two-ply judgement into it (`python -m game.bot distill`): the labels are
the search's own estimates of the best plays, the fit's gradients are the error's, the fit moves the
outputs toward the labels, and the command writes a network whose record remakes it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game.board import Color, Variant
from game.bot.base import Level
from game.bot.cli import main
from game.bot.context import MONEY
from game.bot.distill import CANDIDATES, Labels, fit, gradients, label_games, label_position
from game.bot.encoding import F32, features, flip
from game.bot.network import OUTPUTS, Network, mirror
from game.bot.network_bot import FILTER, NetworkBot
from game.bot.search import after_states, estimate_after, two_ply
from game.movegen import encode
from game.position import Position


def _tiny(second: int = 0, seed: int = 3) -> Network:
    network = Network.untrained(Variant.CATCHGAMMON, 6, seed)
    if second:
        network = network.deepened(second, seed)
        assert network.second is not None
        network.second.out = np.random.default_rng(seed).normal(0.0, 0.5, (OUTPUTS, second)).astype(np.float32)
    return network


def _error64(network: Network, x: np.ndarray, targets: np.ndarray) -> float:
    """`error` in float64 (the network's own sigmoid rounds to float32: too coarse for differences)."""
    def sigmoid(z: np.ndarray) -> np.ndarray:
        return np.asarray(1.0 / (1.0 + np.exp(-z)))

    w1, b1, w2, b2, *deep = (a.astype(np.float64) for a in network.arrays())
    h1 = sigmoid(x @ w1.T + b1)
    z = h1 @ w2.T + b2
    if deep:
        w, b, out = deep
        z = z + sigmoid(h1 @ w.T + b) @ out.T
    return float(np.mean((sigmoid(z) - targets) ** 2))


@pytest.mark.parametrize("second", [0, 4])
def test_the_fits_gradients_are_the_errors_finite_differences(second: int) -> None:
    network = _tiny(second)
    labels = label_games(_tiny(), 1, seed=5, rows=8)
    x = features(network.variant, flip(network.variant, labels.states))
    targets = np.random.default_rng(1).uniform(0.0, 1.0, (len(x), OUTPUTS)).astype(np.float32)
    analytic = gradients(network, x, targets)
    step = 1e-4
    for array, grad in zip(network.arrays(), analytic, strict=True):
        assert grad.shape == array.shape
        for index in list(np.ndindex(array.shape))[:: max(1, array.size // 12)]:
            saved = array[index]
            array[index] = saved + step
            up = _error64(network, x, targets)
            array[index] = saved - step
            down = _error64(network, x, targets)
            array[index] = saved
            assert grad[index] == pytest.approx((up - down) / (2 * step), rel=2e-3, abs=1e-8)


def test_a_rolls_labels_are_the_two_ply_estimates_of_its_best_plays() -> None:
    network = _tiny()
    bot = NetworkBot(network, Level.ADVANCED)
    position, dice = Position.initial(Variant.CATCHGAMMON, Color.WHITE), (6, 4)

    def equity_of(probs: F32, color: Color) -> F32:
        return bot.equity_of(probs, MONEY, color)

    plays = position.legal_plays(dice)
    states, targets, equity = label_position(bot, position, plays)
    probs, _ = estimate_after(network, plays, after_states(plays))
    mine = equity_of(probs, Color.WHITE)
    best = sorted(range(len(plays)), key=lambda i: -float(mine[i]))[:CANDIDATES]
    best = [i for i in best if mine[i] >= mine[best[0]] - FILTER]
    assert len(plays) > 1 and states
    assert states == [encode(plays[i].after_moves) for i in best]
    for index, target in zip(best, targets, strict=True):
        expected = mirror(two_ply(network, plays[index], equity_of)[None, :])[0]
        np.testing.assert_allclose(target, expected, rtol=1e-6)
    np.testing.assert_allclose(equity, mine, rtol=1e-6)


def test_labels_are_reproducible_consistent_and_capped() -> None:
    first = label_games(_tiny(), 3, seed=7, rows=15)
    again = label_games(_tiny(), 3, seed=7, rows=15)
    assert len(first.states) == 15
    np.testing.assert_array_equal(first.states, again.states)
    np.testing.assert_array_equal(first.targets, again.targets)
    wins, gammons, triples = first.targets[:, 0], first.targets[:, 1], first.targets[:, 2]
    assert np.all((0.0 <= triples) & (triples <= gammons + 1e-6) & (gammons <= wins + 1e-6) & (wins <= 1.0))
    other = label_games(_tiny(), 3, seed=8, rows=15)
    assert not np.array_equal(first.states, other.states)


def test_the_fit_moves_the_outputs_toward_the_labels_and_leaves_the_network_given() -> None:
    network = _tiny()
    labels = label_games(network, 2, seed=9, rows=60)
    kept = [array.copy() for array in network.arrays()]
    result = fit(network, labels, rate=0.01, epochs=30, batch=16)
    assert result.held_out == 6 and result.rows == 54
    assert result.after < 0.5 * result.before
    for array, before in zip(network.arrays(), kept, strict=True):
        np.testing.assert_array_equal(array, before)


def test_the_command_writes_a_network_that_names_its_labels_and_reads_them_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    init, labels = tmp_path / "tiny.npz", tmp_path / "labels.npz"
    _tiny().save(init)
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    args = ["distill", "--init", str(init), "--games", "2", "--rows", "30", "--epochs", "3", "--seed", "4",
            "--labels", str(labels)]
    assert main([*args, "--out", str(first)]) == 0
    assert "fitted to 27 rows of two-ply labels" in capsys.readouterr().err
    assert Labels.load(labels).states.shape == (30, len(encode(Position.initial(Variant.CATCHGAMMON))))
    assert main([*args, "--out", str(second)]) == 0
    assert "read 30 labelled rows" in capsys.readouterr().err
    a, b = Network.load(first), Network.load(second)
    for x, y in zip(a.arrays(), b.arrays(), strict=True):
        np.testing.assert_array_equal(x, y)
    assert a.record["command"].startswith("python -m game.bot distill --init tiny.npz --games 2 --seed 4")
    assert a.record["distilled"]["rows"] == 27 and a.record["distilled"]["held_out"] == 3


def test_unreadable_labels_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    init, labels = tmp_path / "tiny.npz", tmp_path / "labels.npz"
    _tiny().save(init)
    labels.write_bytes(b"not a labels file")
    assert main(["distill", "--init", str(init), "--labels", str(labels), "--out", str(tmp_path / "o.npz")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: cannot read distillation labels") and "\n" not in err
