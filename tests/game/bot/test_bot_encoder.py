"""The compiled encoder (game/bot/_encoder.c) gives the numpy encoder's inputs to the bit, in every
variant (Backgammon's contact inputs and Rungammon's blocking with the rest), on positions of every
kind; `features` uses it where it is built (under CI=true it must be); a bad call to it is a Python
exception."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from needs import examples, require
from strategies import positions

from game.board import Variant
from game.bot import encoding
from game.bot.encoding import compiled_features, features, flip, input_size, numpy_features, states_array
from game.errors import EngineUnavailable
from game.movegen import encode
from game.position import Position
from game.selfplay import many_stacks, random_positions

HINT = "a C compiler and Python's headers, then pip install -e . (setup.py builds game/bot/_encoder.c)"


@pytest.fixture(autouse=True)
def built() -> None:
    require("the compiled encoder", encoding.describe_encoder().startswith("compiled encoder"), HINT)


def assert_same(variant: Variant, states: np.ndarray) -> None:
    expected, got = numpy_features(variant, states), compiled_features(variant, states)
    assert got.dtype == np.float32 and got.shape == expected.shape
    differ = np.argwhere(got != expected)
    if len(differ):
        row, column = differ[0]
        pytest.fail(f"{variant.value}: input {column} of state {states[row].tolist()}: {got[row, column]}, "
                    f"not {expected[row, column]}")


@pytest.mark.parametrize("variant", list(Variant))
def test_the_compiled_features_is_the_numpy_features_on_every_play_of_random_games(variant: Variant) -> None:
    states = []
    for position, dice in random_positions(variant, 300, 11):
        states.append(encode(position))
        states.extend(encode(play.after_moves) for play in position.legal_plays(dice))
    rows = states_array(states)
    assert_same(variant, rows)
    assert_same(variant, flip(variant, rows))


@pytest.mark.parametrize("variant", list(Variant))
def test_the_compiled_features_is_the_numpy_features_on_the_heaviest_boards(variant: Variant) -> None:
    start = many_stacks(variant)
    rows = states_array([encode(start)] + [encode(p.after_moves) for p in start.legal_plays((3, 3))])
    assert_same(variant, rows)


@pytest.mark.parametrize("variant", list(Variant))
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_compiled_features_is_the_numpy_features_on_any_position(variant: Variant, data: st.DataObject) -> None:
    position: Position = data.draw(positions(variant))
    assert_same(variant, states_array([encode(position), encode(position.pass_turn())]))


@pytest.mark.parametrize("variant", list(Variant))
def test_features_are_the_compiled_encoders(variant: Variant) -> None:
    assert encoding.describe_encoder().startswith("compiled encoder")
    rows = states_array([encode(p.after_moves) for p in Position.initial(variant).legal_plays((6, 4))])
    x = features(variant, rows)
    assert x.shape == (len(rows), input_size(variant))
    assert np.array_equal(x, compiled_features(variant, rows))


def test_without_the_compiled_encoder_features_are_numpys_and_asking_for_it_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rows = states_array([encode(p.after_moves) for p in Position.initial(Variant.BACKGAMMON).legal_plays((6, 4))])
    compiled = features(Variant.BACKGAMMON, rows)
    monkeypatch.setattr(encoding, "_ENCODER", None)
    monkeypatch.setattr(encoding, "_WHY_NOT", "the compiled encoder is not built: no module")
    assert encoding.describe_encoder() == "numpy encoder (the compiled encoder is not built: no module)"
    assert np.array_equal(features(Variant.BACKGAMMON, rows), compiled)
    with pytest.raises(EngineUnavailable, match="not built: no module .a C compiler"):
        compiled_features(Variant.BACKGAMMON, rows)


def test_a_bad_call_to_the_compiled_encoder_is_a_python_exception() -> None:
    from game.bot import _encoder as compiled

    rows = states_array([encode(Position.initial(Variant.CATCHGAMMON))])
    order = encoding._FLIP_BYTES[Variant.CATCHGAMMON]
    with pytest.raises(ValueError, match="an output of 4 bytes for 1 rows of 281 float32 columns"):
        compiled.features(rows, np.empty(1, dtype=np.float32), 1, order)
    with pytest.raises(ValueError, match="no variant 7"):
        compiled.features(rows, np.empty((1, 281), dtype=np.float32), 7, order)
    with pytest.raises(ValueError, match="states of 27 bytes"):
        compiled.features(bytes(27), np.empty((1, 281), dtype=np.float32), 1, order)
    with pytest.raises(TypeError):
        compiled.features(rows, bytes(281 * 4), 1, order)  # not writable
