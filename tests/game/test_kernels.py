"""The two move-generator kernels give the same plays in the same order on every variant; the
compiled one is in use where it was built (under CI=true it must be); a bad call to it is a
Python exception; the way plays and states are handed out (LegalPlays, the state functions)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from needs import IN_CI, examples, require
from repo import ROOT
from strategies import dice, positions

from game.board import Variant
from game.errors import KernelError
from game.explain import Explainer
from game.movegen import (
    ENV,
    LegalPlays,
    available_kernels,
    count_plays,
    decode,
    encode,
    kernel,
    legal_plays,
    moves_of,
    opponent_view,
    pure,
    single_moves,
    state_count,
    state_plays,
    state_steps,
    use_kernel,
)
from game.movegen.state import MOTHER_CHECKER, VARIANT_INDEX
from game.position import Position
from game.reconcile.boards_on_the_way import hits_seen, zone_key
from game.selfplay import many_stacks, random_positions
from game.zones import Capability, state_view_tables

STACKS = tuple(str(code) for code in range(64))
BOARD_ORDER = bytes(range(1, 25))
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
HINT = "a C compiler and Python's headers, then pip install -e . (setup.py builds game/movegen/_kernel.c)"


@pytest.fixture(scope="module")
def compiled() -> Iterator[Any]:
    require("the compiled move-generator kernel", "compiled" in available_kernels(), HINT)
    from game.movegen import _kernel

    yield _kernel


def in_order(walked: pure.Walked) -> tuple[list[Any], list[Any], list[list[bytes]]]:
    """What a walk found, with the order its dicts keep (which the boards on the way rely on)."""
    moves, first, levels = walked
    return list(moves.items()), list(first.items()), [list(level) for level in levels]


def assert_same(position: Position, roll: tuple[int, int], compiled: Any) -> None:
    """Both kernels: the same state, plays (states and moves, in order), count, single moves, walk
    (every single move of the roll, in order) and gathers."""
    state = pure.encode(position)
    variant = VARIANT_INDEX[position.variant]
    where = f"{position!r} dice {roll}"
    assert compiled.encode(position) == state, where
    plays = pure.plays(state, variant, *roll)
    assert compiled.plays(state, variant, *roll) == plays, where
    assert compiled.count(state, variant, *roll) == pure.count(state, variant, *roll) == len(plays[0]), where
    for die in set(roll):
        assert compiled.steps(state, variant, die) == pure.steps(state, variant, die), f"{where} die {die}"
    high, low = max(roll), min(roll)
    root = state + bytes((high,) * 4 if high == low else (high, low))
    most = len(plays[1][0]) // 3 if plays[1] else 0
    assert in_order(compiled.walk(root, variant, most)) == in_order(pure.walk(root, variant, most)), where
    for capability in Capability:  # the reconciler's index of the results and the boards on the way
        zone = zone_key(capability)
        tables, order = state_view_tables(position.variant, position.turn, zone)
        args = (root, variant, most, plays[0], tables, order, hits_seen(position.variant, position.turn, zone))
        assert [list(found.items()) for found in compiled.index(*args)] == \
            [list(found.items()) for found in pure.index(*args)], f"{where} {capability.name}"
    assert_same_turn(position, roll, compiled)
    for result in plays[0][:5]:  # positions and what sensors see of them are made by gathering
        for order in (BOARD_ORDER, bytes(range(27, -1, -1))):
            tables = (STACKS, tuple(reversed(STACKS))) * (len(order) // 2)
            assert compiled.gather(result, tables, order) == pure.gather(result, tables, order), where


def assert_same_turn(position: Position, roll: tuple[int, int], compiled: Any) -> None:
    """Both kernels' `turn` (the compiled one finds the plays by the index's walk, not by its
    search): the plays of `plays` and the index of `index`, items in the same order, at every
    capability, with and without the mother-checker rule (which the compiled turn leaves to the
    search) where the variant has it."""
    state = pure.encode(position)
    variant = VARIANT_INDEX[position.variant]
    high, low = max(roll), min(roll)
    root = state + bytes((high,) * 4 if high == low else (high, low))
    for rules in (variant, variant | MOTHER_CHECKER) if position.variant is Variant.CATCHGAMMON else (variant,):
        plays = compiled.plays(state, rules, *roll)
        most = len(plays[1][0]) // 3 if plays[1] else 0
        for capability in Capability:
            zone = zone_key(capability)
            tables, order = state_view_tables(position.variant, position.turn, zone)
            hits = hits_seen(position.variant, position.turn, zone)
            index = compiled.index(root, rules, most, plays[0], tables, order, hits)
            expected = (*plays, *(list(found.items()) for found in index))
            for one in (compiled, pure):
                states, moves, legal, partial = one.turn(state, rules, *roll, tables, order, hits)
                assert (states, moves, list(legal.items()), list(partial.items())) == expected, \
                    f"{position!r} dice {roll} rules {rules} {capability.name} {one.__name__}"


@pytest.mark.parametrize("variant", list(Variant))
def test_kernels_agree_on_random_play_positions(variant: Variant, compiled: Any) -> None:
    corpus = random_positions(variant, 2500, 13)
    for position, roll in corpus:
        assert_same(position, roll, compiled)
    for position, _ in corpus[::25]:  # every roll, doubles above all, on a hundred of them
        for roll in ROLLS:
            assert_same(position, roll, compiled)
    assert sum(len(position.legal_plays(roll)) for position, roll in corpus) > 10 * len(corpus)


@pytest.mark.slow
@settings(max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(Variant).flatmap(positions), dice)
def test_kernels_agree_on_arbitrary_positions(compiled: Any, position: Position, roll: tuple[int, int]) -> None:
    assert_same(position, roll, compiled)


@pytest.mark.parametrize("variant", list(Variant))
def test_kernels_agree_on_the_heaviest_rolls(variant: Variant, compiled: Any) -> None:
    for position in (Position.initial(variant), many_stacks(variant)):
        for roll in ROLLS:
            assert_same(position, roll, compiled)
    assert max(len(many_stacks(variant).legal_plays(roll)) for roll in ROLLS) > 100


def test_the_compiled_kernel_is_in_use_where_it_was_built() -> None:
    require("the compiled move-generator kernel", "compiled" in available_kernels(), HINT)
    if os.environ.get(ENV, "").strip().lower() == "pure":
        assert not IN_CI, f"{ENV}=pure under CI=true: CI tests the compiled kernel"
        pytest.skip(f"{ENV}=pure forces the pure kernel")
    assert kernel() == "compiled"


def game_command(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=60, check=False)


def test_version_names_the_kernel_and_the_setting_forces_the_pure_one() -> None:
    pure_run = game_command("--version", env={ENV: "pure"})
    assert pure_run.returncode == 0
    assert pure_run.stdout.strip().endswith(f"legal plays: pure-Python kernel ({ENV}=pure)")
    if "compiled" in available_kernels():
        auto = game_command("--version", env={ENV: ""})
        assert auto.stdout.strip().endswith("legal plays: compiled kernel (game/movegen/_kernel.c)")
    bad = game_command("plays", "--position", "4HPwATDgc/ABMA", "--dice", "31", env={ENV: "fast"})
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == f"error: {ENV}='fast': expected pure, compiled or auto\n"


def test_without_the_compiled_module_the_pure_kernel_is_used_and_says_why() -> None:
    hide = ("import sys, importlib.abc\n"
            "class Hide(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name == 'game.movegen._kernel': raise ImportError('hidden for the test')\n"
            "sys.meta_path.insert(0, Hide())\n"
            "from game.movegen import describe_kernel, kernel, legal_plays\n"
            "from game import Position\n"
            "print(kernel(), len(legal_plays(Position.initial(), (3, 1))), describe_kernel())\n")
    done = subprocess.run([sys.executable, "-c", hide], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, ENV: ""}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "pure 16 pure-Python kernel (the compiled kernel is not built (hidden for the test))\n"


def test_a_build_without_a_compiler_goes_on_and_says_so_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(tmp_path / "lib"),
                           "--build-temp", str(tmp_path / "tmp")], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "CC": "/bin/false", "LDSHARED": "/bin/false"}, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("smartgammon:")]
    assert len(said) == 4, said  # a line for each compiled part: move kernel, frame path, encoder, traces
    assert "the compiled move-generator kernel is not built" in said[0]
    assert said[0].endswith("the pure-Python kernel will be used")
    assert "the compiled frame path is not built" in said[1]
    assert said[1].endswith("the pure-Python frame path will be used")
    assert "the compiled encoder is not built" in said[2]
    assert said[2].endswith("the bot's numpy encoder will be used")
    assert "the compiled training traces are not built" in said[3]
    assert said[3].endswith("the bot's numpy training traces will be used")
    assert not [path.name for path in (tmp_path / "lib").rglob("_*.*") if path.suffix in (".so", ".pyd")]


def _unusual(doc: dict[str, Any]) -> list[object]:
    """A document in its usual form, and forms beside it that each kernel leaves to `Position.from_document`
    (valid ones, read the long way, and invalid ones, which it refuses saying why)."""
    points = doc["points"]
    first = next(i for i, stack in enumerate(points) if stack)
    checker = points[first][0]

    def first_stack(stack: object) -> dict[str, Any]:
        return {**doc, "points": [*points[:first], stack, *points[first + 1:]]}

    return [
        {**doc, "rules": {}}, {**doc, "rules": {"nackgammon": True}}, {**doc, "variant": "catchgammon"},
        {**doc, "variant": b"backgammon"}, {**doc, "turn": "White"}, {**doc, "turn": None}, {**doc, "extra": 1},
        {k: v for k, v in doc.items() if k != "turn"}, {**doc, "bar": {"white": 0}},
        {**doc, "bar": {"white": 0, "black": False}}, {**doc, "off": {"white": 0, "black": 0, "grey": 0}},
        {**doc, "off": {"white": -1, "black": 0}}, {**doc, "off": {"white": 2**70, "black": 0}},
        {**doc, "bar": [0, 0]}, {**doc, "points": points[:23]}, {**doc, "points": tuple(points)},
        first_stack("".join(points[first])), first_stack([*points[first], "wb"[checker == "w"]]),
        first_stack([*points[first][1:], checker.upper()]), first_stack([*points[first][1:], checker * 2]),
        first_stack(points[first][1:]), first_stack([*points[first], checker]), first_stack([checker] * 16),
        [doc], None, "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    ]


@pytest.mark.parametrize("variant", list(Variant))
def test_kernels_read_a_position_document_alike(variant: Variant, compiled: Any) -> None:
    """A document in its usual form is the state of the position `Position.from_document` reads from it
    (Backgammon, standard rules); any other is None from both kernels, left to `from_document`."""
    for position, _ in random_positions(variant, 150, seed=7):
        doc = position.to_document()
        state = pure.encode_document(doc)
        assert compiled.encode_document(doc) == state
        assert state == (pure.encode(position) if variant is Variant.BACKGAMMON else None)
        assert pure.encode_document(json_copy(doc)) == state  # as a batch line decodes it
        for other in _unusual(doc):
            assert pure.encode_document(other) is None and compiled.encode_document(other) is None, other


def json_copy(doc: dict[str, Any]) -> Any:
    import json

    return json.loads(json.dumps(doc))


def test_a_compiled_kernel_built_from_an_older_source_is_not_used_and_says_why() -> None:
    stale = ("import sys, types\n"
             "old = types.ModuleType('game.movegen._kernel')\n"
             "old.configure = lambda *args: None\n"
             "sys.modules['game.movegen._kernel'] = old\n"
             "from game.movegen import describe_kernel, kernel\n"
             "print(kernel(), describe_kernel())\n")
    done = subprocess.run([sys.executable, "-c", stale], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, ENV: ""}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("pure pure-Python kernel (the compiled kernel was built from an older _kernel.c "
                                  "(it has no encode_document, walk, index): build it again (pip install -e .))")


def test_bad_calls_to_the_compiled_kernel_raise(compiled: Any) -> None:
    start = pure.encode(Position.initial())
    calls: list[tuple[Callable[[], object], type[Exception]]] = [
        (lambda: compiled.plays(start[:27], 0, 3, 1), ValueError),
        (lambda: compiled.plays(bytearray(start), 0, 3, 1), TypeError),
        (lambda: compiled.plays(start[:5] + b"\x40" + start[6:], 0, 3, 1), ValueError),
        (lambda: compiled.plays(start, 3, 3, 1), ValueError),
        (lambda: compiled.plays(start, 0, 7, 1), ValueError),
        (lambda: compiled.count(start, 0, 0, 1), ValueError),
        (lambda: compiled.steps(start, 0, "3"), TypeError),
        (lambda: compiled.steps(start, 0, 2**70), OverflowError),
        (lambda: compiled.plays(start, 0, 3), TypeError),
        (lambda: compiled.encode("not a position"), AttributeError),
        (lambda: compiled.encode(object.__new__(Position)), AttributeError),
        (lambda: compiled.encode_document(), TypeError),
        (lambda: compiled.configure(b"", b"", b"", b"", b"", b"", b"", b"", (), (), b""), ValueError),
        (lambda: compiled.gather(start, (STACKS[:10],) * 24, BOARD_ORDER), IndexError),
        (lambda: compiled.gather(start, (STACKS,), b"\x1c"), IndexError),
        (lambda: compiled.gather(start, (STACKS,) * 23 + (list(STACKS),), BOARD_ORDER), IndexError),
        (lambda: compiled.gather(start, (STACKS,) * 23, BOARD_ORDER), TypeError),
        (lambda: compiled.gather(start, list((STACKS,) * 24), BOARD_ORDER), TypeError),
        (lambda: compiled.gather(start, (STACKS,) * 24), TypeError),
        (lambda: compiled.walk(start[:27], 0, 2), TypeError),
        (lambda: compiled.walk(start + b"\x03\x01\x01\x01\x01", 0, 2), TypeError),
        (lambda: compiled.walk(start + b"\x03\x07", 0, 2), ValueError),
        (lambda: compiled.walk(start + b"\x03\x01", 0, 5), ValueError),
        (lambda: compiled.walk(start[:5] + b"\x40" + start[6:] + b"\x03\x01", 0, 2), ValueError),
        (lambda: compiled.walk(start + b"\x03\x01", 3, 2), ValueError),
        (lambda: compiled.index(start + b"\x03\x01", 0, 2, (), (STACKS,) * 24, BOARD_ORDER), TypeError),
        (lambda: compiled.index(start + b"\x03\x07", 0, 2, (), (STACKS,) * 24, BOARD_ORDER, None), ValueError),
        (lambda: compiled.index(start + b"\x03\x01", 0, 2, (start[:27],), (STACKS,) * 24, BOARD_ORDER, None),
         TypeError),
        (lambda: compiled.index(start + b"\x03\x01", 0, 2, (), (STACKS,) * 24, BOARD_ORDER, (b"", 0, "", "")),
         TypeError),
        (lambda: compiled.index(start + b"\x03\x01", 0, 2, (), (STACKS,) * 24, BOARD_ORDER, (bytes(25), 24, "", "")),
         IndexError),
        (lambda: compiled.index(start + b"\x03\x01", 0, 2, pure.plays(start, 0, 3, 1)[0], (STACKS[:10],) * 24,
                                BOARD_ORDER, None), IndexError),
    ]
    for call, error in calls:
        with pytest.raises(error):
            call()
    assert compiled.plays(start, 0, 3, 1) == pure.plays(start, 0, 3, 1)  # still configured


def test_bad_calls_to_the_compiled_turn_raise(compiled: Any) -> None:
    start = pure.encode(Position.initial())
    seen = ((STACKS,) * 24, BOARD_ORDER, None)
    calls: list[tuple[Callable[[], object], type[Exception]]] = [
        (lambda: compiled.turn(start, 0, 3, 1, (STACKS,) * 24, BOARD_ORDER), TypeError),
        (lambda: compiled.turn(start[:27], 0, 3, 1, *seen), ValueError),
        (lambda: compiled.turn(start, 0, 3, 7, *seen), ValueError),
        (lambda: compiled.turn(start, 3, 3, 1, *seen), ValueError),
        (lambda: compiled.turn(start, 0, 3, 1, (STACKS,) * 23, BOARD_ORDER, None), TypeError),
        (lambda: compiled.turn(start, 0, 3, 1, (STACKS,) * 24, BOARD_ORDER, (b"", 0, "", "")), TypeError),
        (lambda: compiled.turn(start, 0, 3, 1, (STACKS,) * 24, BOARD_ORDER, (bytes(25), 24, "", "")), IndexError),
        (lambda: compiled.turn(start, 0, 3, 1, (STACKS[:10],) * 24, BOARD_ORDER, None), IndexError),
        (lambda: compiled.turn(start, 4, 3, 1, (STACKS[:10],) * 24, BOARD_ORDER, None), IndexError),  # searched
    ]
    for call, error in calls:
        with pytest.raises(error):
            call()
    assert compiled.turn(start, 0, 3, 1, *seen)[:2] == pure.plays(start, 0, 3, 1)  # still configured


def test_the_compiled_encoder_refuses_what_is_not_a_position(compiled: Any) -> None:
    start = Position.initial()
    for points, bar, error in [(start.points[:23], (0, 0), TypeError), ((1,) + start.points[1:], (0, 0), TypeError),
                               (("wbw",) + start.points[1:], (0, 0), ValueError),
                               (("x",) + start.points[1:], (0, 0), ValueError),
                               (("w" * 16,) + start.points[1:], (0, 0), ValueError),
                               (start.points, (0, 16), ValueError), (start.points, (0,), TypeError)]:
        broken = object.__new__(Position)
        for name, value in (("variant", start.variant), ("turn", start.turn), ("points", points), ("bar", bar),
                            ("off", (0, 0))):
            object.__setattr__(broken, name, value)
        with pytest.raises(error):
            compiled.encode(broken)


# -- the plays and states as callers get them ------------------------------------------------

def test_legal_plays_is_a_sequence_equal_to_the_tuple_of_its_plays() -> None:
    start = Position.initial()
    plays = legal_plays(start, (3, 1))
    built = tuple(plays)
    assert isinstance(plays, LegalPlays) and len(plays) == 16 and bool(plays) and plays.dice_played == 2
    assert plays == built and built == plays and hash(plays) == hash(built) and plays == legal_plays(start, [3, 1])
    assert plays[-1] is plays[15] is built[15] and plays[2:5] == built[2:5] and plays[::-1] == built[::-1]
    with pytest.raises(IndexError):
        plays[16]
    assert all(plays.find(play.after_moves) is play and play in plays for play in built)
    assert plays.find(start) is None and plays.find(built[0].after_moves.pass_turn()) is None
    assert plays.index_of(plays.states[7]) == 7 and plays.index_of(b"") is None
    assert [play.notation() for play in built] == [format_raw(raw) for raw in plays.raw_moves]
    assert "16 [" in repr(plays) and "24/23 24/21" in repr(plays)
    closed = Position.from_document({"variant": "backgammon", "turn": "white", "points": [[]] * 18 + [["b", "b"]] * 6,
                                     "bar": {"white": 15, "black": 3}, "off": {"white": 0, "black": 0}})
    none = closed.legal_plays((6, 1))
    assert none == () and not none and none.dice_played == 0 and none.states == () and count_plays(closed, (6, 1)) == 0


def format_raw(raw: bytes) -> str:
    from game.plays import format_moves

    return format_moves(moves_of(raw))


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(Variant).flatmap(positions), dice)
def test_the_state_functions_agree_with_the_positions(position: Position, roll: tuple[int, int]) -> None:
    state = encode(position)
    plays = position.legal_plays(roll)
    assert state_plays(state, position.variant, roll) == (plays.states, plays.raw_moves)
    assert state_count(state, position.variant, roll) == len(plays)
    for play, result, raw in zip(plays, plays.states, plays.raw_moves, strict=True):
        assert decode(result, position) == play.after_moves and moves_of(raw) == play.moves
        assert opponent_view(result, position.variant) == encode(play.next_position)
    assert opponent_view(opponent_view(state, position.variant), position.variant) == state
    for die in set(roll):
        assert [(decode(new, position), moves_of(raw)) for new, raw in state_steps(state, position.variant, die)] \
            == [(p.after_moves, p.moves) for p in single_moves(position, die)]


def test_use_kernel_switches_and_refuses_what_is_not_here() -> None:
    before = kernel()
    with use_kernel("pure"):
        assert kernel() == "pure"
        by_pure = Position.initial(Variant.RUNGAMMON).legal_plays((1, 1))
    assert kernel() == before
    assert by_pure == Position.initial(Variant.RUNGAMMON).legal_plays((1, 1)) and by_pure
    with pytest.raises(KernelError), use_kernel("fortran"):
        pass


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(Variant).flatmap(positions), dice, st.data())
def test_the_relaxed_search_is_the_same_in_c_as_in_python(position: Position, roll: tuple[int, int],
                                                          data: st.DataObject) -> None:
    """game.explain's search of a hand's moves: the same nodes, costs and steps in the same order,
    whole or pruned toward a board the search finds or one with a checker set elsewhere."""
    require("the compiled move-generator kernel", "compiled" in available_kernels(), HINT)
    explainer = Explainer(position, roll)
    with use_kernel("pure"):
        whole = explainer._explore(None)
    board = list(data.draw(st.sampled_from([board for board, _ in whole])))
    if data.draw(st.booleans(), label="a checker set elsewhere"):
        source = data.draw(st.sampled_from([z for z, stack in enumerate(board) if stack]))
        target = data.draw(st.integers(0, len(board) - 1))
        board[target] += board[source][-1]
        board[source] = board[source][:-1]
    admit = explainer.toward_counts(tuple(map(len, board)))
    for prune in (None, admit, explainer._toward(tuple(board))):
        with use_kernel("pure"):
            in_python = explainer._explore(prune)
        with use_kernel("compiled"):
            in_c = explainer._explore(prune)
        assert list(in_c.items()) == list(in_python.items())
