"""The evaluator: a small numpy network estimating a position's outcome for the side on roll.

One hidden layer of sigmoid units (as TD-Gammon and GNU Backgammon's networks), five sigmoid
outputs in GNU Backgammon's order: win, win a gammon or more, win a triple, lose a gammon or more,
lose a triple (each "or more" includes the larger result). A network may have a second hidden
layer on the first (`SecondLayer`, `deepened`), feeding the outputs beside the first layer's own
connection to them:

    h1 = sigmoid(w1 x + b1)    h2 = sigmoid(second.w h1 + second.b)    y = sigmoid(w2 h1 + second.out h2 + b2)

so that a network deepened with `second.out` at zero estimates exactly as before and training goes
on from what it knows. Weights are saved with their variant, input size and training record in one
compressed `.npz` file.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from game.board import Variant
from game.bot.encoding import F32, U8, features, flip, input_size
from game.bot.errors import WeightsError

OUTPUTS = 5
WIN, WIN_GAMMON, WIN_TRIPLE, LOSE_GAMMON, LOSE_TRIPLE = range(OUTPUTS)
# The same outcome seen from the other side: lose <-> win, gammons and triples swapped.
_MIRROR = np.array([LOSE_GAMMON, LOSE_TRIPLE, WIN_GAMMON, WIN_TRIPLE])


def mirror(probs: F32) -> F32:
    """Outcome estimates of the other side: (N, 5) for the opponent from (N, 5) for the mover."""
    out = np.empty_like(probs)
    out[:, WIN] = 1.0 - probs[:, WIN]
    out[:, [WIN_GAMMON, WIN_TRIPLE, LOSE_GAMMON, LOSE_TRIPLE]] = probs[:, _MIRROR]
    return out


def consistent(probs: F32) -> F32:
    """Clip estimates to a possible outcome distribution: triples within gammons within wins."""
    out = np.clip(probs, 0.0, 1.0)
    out[:, WIN_GAMMON] = np.minimum(out[:, WIN_GAMMON], out[:, WIN])
    out[:, WIN_TRIPLE] = np.minimum(out[:, WIN_TRIPLE], out[:, WIN_GAMMON])
    out[:, LOSE_GAMMON] = np.minimum(out[:, LOSE_GAMMON], 1.0 - out[:, WIN])
    out[:, LOSE_TRIPLE] = np.minimum(out[:, LOSE_TRIPLE], out[:, LOSE_GAMMON])
    return out


def _sigmoid(x: F32) -> F32:
    return (1.0 / (1.0 + np.exp(-np.clip(x, -30.0, 30.0)))).astype(np.float32)


@dataclass
class SecondLayer:
    """A second hidden layer: its weights from the first layer's units, its biases, and its weights
    into the five outputs."""

    w: F32  # (second, hidden)
    b: F32  # (second,)
    out: F32  # (5, second)

    @property
    def units(self) -> int:
        """The number of its units."""
        return int(self.w.shape[0])


_SECOND_NAMES = ("second_w", "second_b", "second_out")


@dataclass
class Network:
    """Weights of one variant's evaluator and what is known of how they were made."""

    variant: Variant
    w1: F32  # (hidden, inputs)
    b1: F32
    w2: F32  # (5, hidden)
    b2: F32
    record: dict[str, Any] = field(default_factory=dict)  # the training run: command, games, time, curve
    second: SecondLayer | None = None

    @classmethod
    def untrained(cls, variant: Variant, hidden: int = 64, seed: int = 0) -> Network:
        """Small random weights (the untrained network, TD-Gammon's starting point)."""
        rng = np.random.default_rng(seed)
        inputs = input_size(variant)
        w1 = rng.normal(0.0, 1.0 / np.sqrt(inputs), (hidden, inputs)).astype(np.float32)
        w2 = rng.normal(0.0, 1.0 / np.sqrt(hidden), (OUTPUTS, hidden)).astype(np.float32)
        return cls(variant, w1, np.zeros(hidden, np.float32), w2, np.zeros(OUTPUTS, np.float32))

    def copy(self) -> Network:
        """The same weights in new arrays (the record copied too)."""
        return self._with([array.copy() for array in self.arrays()], json.loads(json.dumps(self.record)))

    def _with(self, arrays: list[F32], record: dict[str, Any] | None = None) -> Network:
        """A network of this variant from arrays in `arrays()`'s order (three more: a second layer)."""
        w1, b1, w2, b2, *deep = arrays
        second = SecondLayer(*deep) if deep else None
        return Network(self.variant, w1, b1, w2, b2, record={} if record is None else record, second=second)

    def widened(self, hidden: int, seed: int) -> Network:
        """The same estimates from `hidden` units: the new units' input weights small and random (from
        `seed`), their output weights zero, so that training goes on from what the network knows."""
        if hidden < self.hidden:
            raise WeightsError(f"cannot narrow a network of {self.hidden} hidden units to {hidden}")
        rng = np.random.default_rng(seed)
        extra, inputs = hidden - self.hidden, self.w1.shape[1]
        w1 = np.concatenate([self.w1, rng.normal(0.0, 1.0 / np.sqrt(inputs), (extra, inputs)).astype(np.float32)])
        w2 = np.concatenate([self.w2, np.zeros((OUTPUTS, extra), np.float32)], axis=1)
        deep: list[F32] = []
        if self.second is not None:  # the new units feed the second layer nothing either
            second = self.second
            deep = [np.concatenate([second.w, np.zeros((second.units, extra), np.float32)], axis=1),
                    second.b.copy(), second.out.copy()]
        b1 = np.concatenate([self.b1, np.zeros(extra, np.float32)])
        return self._with([w1, b1, w2, self.b2.copy(), *deep], json.loads(json.dumps(self.record)))

    def deepened(self, units: int, seed: int) -> Network:
        """The same estimates with a second hidden layer of `units` on the first: its input weights
        small and random (from `seed`), its output weights zero (see the module's docstring)."""
        if self.second is not None:
            raise WeightsError(f"the network already has a second hidden layer ({self.second.units} units)")
        if units < 1:
            raise WeightsError(f"a second hidden layer of {units} units")
        rng = np.random.default_rng(seed)
        w = rng.normal(0.0, 1.0 / np.sqrt(self.hidden), (units, self.hidden)).astype(np.float32)
        copy = self.copy()
        copy.second = SecondLayer(w, np.zeros(units, np.float32), np.zeros((OUTPUTS, units), np.float32))
        return copy

    @classmethod
    def averaged(cls, networks: list[Network]) -> Network:
        """The mean of the weights of networks of one variant and shape (checkpoints of one run: the
        average of points along a trajectory is steadier than its last point, as in Polyak averaging).
        The record is the caller's to write."""
        if not networks:
            raise WeightsError("no networks to average")
        first = networks[0]
        for other in networks[1:]:
            if other.variant is not first.variant or other.shape != first.shape:
                raise WeightsError(f"cannot average a {other.variant.value} network of {other.describe_shape()} "
                                   f"with a {first.variant.value} network of {first.describe_shape()}")
        count = len(first.arrays())
        return first._with([np.mean([net.arrays()[i] for net in networks], axis=0).astype(np.float32)
                            for i in range(count)])

    @property
    def hidden(self) -> int:
        """The number of hidden units (of the first hidden layer)."""
        return int(self.w1.shape[0])

    @property
    def shape(self) -> tuple[int, ...]:
        """Inputs, hidden units, and the second layer's units when there is one."""
        units = () if self.second is None else (self.second.units,)
        return (int(self.w1.shape[1]), self.hidden, *units)

    def describe_shape(self) -> str:
        """The hidden layers in words: '80 hidden units', '80 + 40 hidden units'."""
        second = "" if self.second is None else f" + {self.second.units}"
        return f"{self.hidden}{second} hidden units"

    def forward(self, x: F32) -> tuple[F32, F32]:
        """The first hidden layer's activations and the outputs for inputs x (N, inputs)."""
        h1, _h2, y = self.activations(x)
        return h1, y

    def activations(self, x: F32) -> tuple[F32, F32 | None, F32]:
        """Both hidden layers' activations (None: no second layer) and the outputs for inputs x (N, inputs)."""
        h1 = _sigmoid(x @ self.w1.T + self.b1)
        z = h1 @ self.w2.T + self.b2
        if self.second is None:
            return h1, None, _sigmoid(z)
        h2 = _sigmoid(h1 @ self.second.w.T + self.second.b)
        return h1, h2, _sigmoid(z + h2 @ self.second.out.T)

    def evaluate(self, states: U8) -> F32:
        """Outcome estimates (N, 5) for the side on roll in each state."""
        return consistent(self.forward(features(self.variant, states))[1])

    def evaluate_after(self, states: U8) -> F32:
        """Outcome estimates (N, 5) for the side that just moved, the opponent now to roll.

        `states` are read from the mover's side, as the move generator leaves them.
        """
        return mirror(self.evaluate(flip(self.variant, states)))

    def gradients(self, x: F32) -> tuple[F32, list[F32]]:
        """Outputs (5,) for one input (inputs,), and d output_k / d each weight array, stacked by k."""
        h1s, h2s, ys = self.activations(x[None, :])
        h, y = h1s[0], ys[0]
        dy = y * (1.0 - y)  # (5,)
        dh = h * (1.0 - h)  # (hidden,)
        unit = dy[:, None] * np.eye(OUTPUTS, dtype=np.float32)  # (5, 5): d output_k / d b2
        g_w2 = unit[:, :, None] * h[None, None, :]
        into_first = dy[:, None] * self.w2  # (5, hidden): d output_k / d h1, through w2 ...
        deep: list[F32] = []
        if self.second is not None and h2s is not None:
            h2 = h2s[0]
            back2 = dy[:, None] * self.second.out * (h2 * (1.0 - h2))[None, :]  # (5, second): d output_k / d b
            into_first = into_first + back2 @ self.second.w  # ... and through the second layer
            deep = [back2[:, :, None] * h[None, None, :], back2, unit[:, :, None] * h2[None, None, :]]
        back = into_first * dh[None, :]  # (5, hidden): d output_k / d b1
        g_w1 = back[:, :, None] * x[None, None, :]
        return y, [g_w1, back, g_w2, unit, *deep]

    def arrays(self) -> list[F32]:
        """The weight arrays in the order `gradients` gives them: w1, b1, w2, b2, then the second
        layer's w, b and out when there is one."""
        second = [] if self.second is None else [self.second.w, self.second.b, self.second.out]
        return [self.w1, self.b1, self.w2, self.b2, *second]

    # -- files ------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the weights (float16: the network is tens of kilobytes) and the training record."""
        meta = json.dumps({"variant": self.variant.value, "inputs": int(self.w1.shape[1]), "record": self.record})
        buffer = io.BytesIO()
        names = ("w1", "b1", "w2", "b2") + (_SECOND_NAMES if self.second is not None else ())
        arrays = {name: array.astype(np.float16) for name, array in zip(names, self.arrays(), strict=True)}
        np.savez_compressed(buffer, meta=np.array(meta), **arrays)  # type: ignore[arg-type]
        Path(path).write_bytes(buffer.getvalue())

    @classmethod
    def load(cls, path: str | Path, *, widen: bool = False) -> Network:
        """Read weights written by `save`, checking they fit this version's encoding. `widen`: weights
        made for an encoding that has since grown by inputs appended at its end (as Backgammon's did,
        gaining `_tactics`) are taken, the new inputs starting with no say in the output."""
        try:
            with open(path, "rb") as file:
                if file.read(4) != b"PK\x03\x04":  # np.load would read anything else as a pickle it refuses
                    raise WeightsError(f"{str(path)!r} is not a network's weights (the .npz that train, average "
                                       "or distill writes)")
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = [data[name].astype(np.float32) for name in ("w1", "b1", "w2", "b2")]
                deep = [data[name].astype(np.float32) for name in _SECOND_NAMES if name in data]
        except WeightsError:
            raise
        except OSError as exc:
            raise WeightsError(f"cannot read network weights {str(path)!r}: {exc.strerror or exc}") from None
        except (ValueError, KeyError) as exc:
            raise WeightsError(f"cannot read network weights {str(path)!r}: {exc}") from None
        try:
            variant = Variant(meta["variant"])
        except (KeyError, ValueError):
            raise WeightsError(f"{str(path)!r} names no known variant: {meta.get('variant')!r}") from None
        expected = input_size(variant)
        record = meta.get("record", {})
        grown = expected - arrays[0].shape[1]
        if widen and grown > 0 and meta.get("inputs") == arrays[0].shape[1]:
            arrays[0] = np.concatenate([arrays[0], np.zeros((arrays[0].shape[0], grown), np.float32)], axis=1)
            meta["inputs"] = expected
            record = {**record, "inputs_widened": [expected - grown, expected]}
        if arrays[0].shape[1] != expected or meta.get("inputs") != expected:
            raise WeightsError(f"{str(path)!r} has {arrays[0].shape[1]} inputs; the {variant.value} "
                               f"encoding has {expected}: retrain with `python -m game.bot train`")
        if deep and (len(deep) != len(_SECOND_NAMES) or deep[0].ndim != 2 or deep[0].shape[1] != arrays[0].shape[0]
                     or deep[2].shape != (OUTPUTS, deep[0].shape[0]) or deep[1].shape != deep[0].shape[:1]):
            raise WeightsError(f"{str(path)!r}: its second hidden layer does not fit its first "
                               f"({arrays[0].shape[0]} units): {[a.shape for a in deep]}")
        w1, b1, w2, b2 = arrays
        return cls(variant, w1, b1, w2, b2, record=record, second=SecondLayer(*deep) if deep else None)


def as_states(array: npt.ArrayLike) -> U8:
    """An (N, 28) uint8 array of states from anything array-like."""
    return np.asarray(array, dtype=np.uint8).reshape(-1, 28)
