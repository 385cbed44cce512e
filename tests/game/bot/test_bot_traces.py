"""The compiled training traces (game/bot/_traces.c) give numpy's numbers to the bit: a parallel run
learns the same weights either way, in every variant, with one hidden layer or two, through the
last games of a block (fewer games than slots); training uses them where they are built (under
CI=true they must be); a bad call to them is a Python exception."""

from __future__ import annotations

import numpy as np
import pytest
from needs import require

from game.board import Variant
from game.bot import lockstep
from game.bot.network import Network
from game.bot.network_bot import shipped_weights
from game.bot.td import Settings, Trainer

HINT = "a C compiler and Python's headers, then pip install -e . (setup.py builds game/bot/_traces.c)"


@pytest.fixture(autouse=True)
def built() -> None:
    require("the compiled traces", lockstep.describe_traces().startswith("compiled traces"), HINT)


def trained(variant: Variant, start: Network | None, compiled: bool) -> list[np.ndarray]:
    """The weights after 10 games, 4 at a time (the last block's games end one by one), from `start`
    (None: an untrained network of 8 units)."""
    hidden = start.hidden if start is not None else 8
    trainer = Trainer(Settings(variant, 10, seed=3, hidden=hidden, parallel=4), start)
    run = lockstep.Lockstep(trainer, compiled)
    assert (run._buffer is None) is compiled  # the compiled path never holds the gradients
    run.run()
    return trainer.network.arrays()


@pytest.mark.parametrize("variant", list(Variant), ids=lambda v: v.value)
@pytest.mark.parametrize("shipped", [False, True], ids=["untrained", "shipped"])
def test_a_run_learns_the_same_weights_to_the_bit_with_the_compiled_traces(
        variant: Variant, shipped: bool) -> None:
    start = Network.load(shipped_weights(variant)) if shipped else None
    if shipped:
        assert start is not None and start.second is not None  # every shipped network has two layers
    before = None if start is None else [array.copy() for array in start.arrays()]
    compiled = trained(variant, start, True)
    again = None if start is None else Network.load(shipped_weights(variant))
    with_numpy = trained(variant, again, False)
    assert len(compiled) == len(with_numpy) == (7 if shipped else 4)
    for index, (mine, theirs) in enumerate(zip(compiled, with_numpy, strict=True)):
        assert np.array_equal(mine, theirs), f"{variant.value}: weight array {index} differs"
    if before is not None:
        assert not all(np.array_equal(a, b) for a, b in zip(before, compiled, strict=True))  # it learnt


def test_the_kernel_fades_and_adds_only_the_slots_it_is_given() -> None:
    from game.bot import _traces as compiled

    rng = np.random.default_rng(5)
    trace = rng.standard_normal((3, 2, 4, 5)).astype(np.float32)
    back = rng.standard_normal((2, 2, 4)).astype(np.float32)
    x = rng.standard_normal((2, 5)).astype(np.float32)
    expected = trace.copy()
    expected[[2, 0]] = expected[[2, 0]] * np.float32(0.7) + back[:, :, :, None] * x[:, None, None, :]
    compiled.fade_and_add(trace, back, x, np.array([2, 0], dtype=np.int64), 2, 4, 5, 0.7)
    assert np.array_equal(trace, expected)


def test_a_bad_call_to_the_compiled_traces_is_a_python_exception() -> None:
    from game.bot import _traces as compiled

    trace = np.zeros((2, 5, 3, 4), dtype=np.float32)
    back, x = np.zeros((1, 5, 3), dtype=np.float32), np.zeros((1, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="game 0's slot 2 is not one of the 2 slots"):
        compiled.fade_and_add(trace, back, x, np.array([2], dtype=np.int64), 5, 3, 4, 0.7)
    with pytest.raises(ValueError, match="buffers of 480, 60, 16 and 8 bytes for 1 games of 5 x 3 x 5"):
        compiled.fade_and_add(trace, back, x, np.array([0], dtype=np.int64), 5, 3, 5, 0.7)
    with pytest.raises(ValueError, match="each must be above 0"):
        compiled.fade_and_add(trace, back, x, np.array([0], dtype=np.int64), 5, 0, 4, 0.7)
    with pytest.raises(TypeError):
        compiled.fade_and_add(trace.tobytes(), back, x, np.array([0], dtype=np.int64), 5, 3, 4,  # type: ignore[arg-type]
                              0.7)  # not writable


def test_without_the_compiled_traces_training_uses_numpys_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lockstep, "_TRACES", None)
    assert lockstep.Lockstep(Trainer(Settings(Variant.RUNGAMMON, 2, seed=1, hidden=8, parallel=2)))._kernel is None
    monkeypatch.setattr(lockstep, "_WHY_NOT", "the compiled traces are not built: no module")
    assert lockstep.describe_traces() == "numpy traces (the compiled traces are not built: no module)"
