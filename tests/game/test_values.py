"""The engine's immutable values (game.values): plain classes that behave as the frozen dataclasses
they were, and the one-shot `python -m game validate` process that no longer imports dataclasses."""

import copy
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

from game.board import Color, Variant
from game.cube import Cube
from game.mat import export_mat
from game.match import NO_OPTIONS, MatchOptions
from game.match_sim import random_match
from game.plays import Chain, Move, Play, WrittenPlay
from game.position import Position
from game.rules import STANDARD, RuleOptions


def _values() -> list[object]:
    start = Position.initial()
    play = start.legal_plays((3, 1))[0]
    return [start, play, play.moves[0], Cube(2, Color.WHITE), MatchOptions(jacoby=True),
            RuleOptions(nackgammon=True)]


@pytest.mark.parametrize("value", _values(), ids=lambda v: type(v).__name__)
def test_a_value_compares_hashes_copies_and_pickles_by_its_fields(value: object) -> None:
    for same in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert same == value and hash(same) == hash(value) and same is not value
    assert value != object() and value != 1


@pytest.mark.parametrize("value", _values(), ids=lambda v: type(v).__name__)
def test_a_value_refuses_assignment_and_deletion(value: object) -> None:
    name = next(iter(value._fields))  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="immutable"):
        setattr(value, name, None)
    with pytest.raises(AttributeError, match="immutable"):
        delattr(value, name)


def test_replace_makes_a_checked_copy_and_names_an_unknown_field() -> None:
    start = Position.initial()
    assert start.replace(turn=Color.BLACK) == start.pass_turn()
    assert Cube().replace(value=4) == Cube(4) and NO_OPTIONS.replace(rules=STANDARD) is not NO_OPTIONS
    with pytest.raises(TypeError, match="no field 'colour'"):
        start.replace(colour=Color.BLACK)
    with pytest.raises(Exception, match="Variant"):
        start.replace(variant="chess")


def test_reprs_name_every_field_as_the_dataclasses_did() -> None:
    assert repr(Move(24, 18)) == "Move(source=24, target=18, hit=False)"
    assert repr(Cube()) == "Cube(value=1, owner=None, offered_by=None, beavered=False, max_value=None)"
    assert repr(RuleOptions()) == "RuleOptions(nackgammon=False, mother_checker=False)"
    assert repr(Position.initial(Variant.BACKGAMMON)).startswith("Position('XGID=")


def test_a_play_found_legal_equals_one_built_by_hand_and_only_it_carries_where() -> None:
    start = Position.initial()
    found = start.legal_plays((3, 1))[0]
    built = Play(found.moves, found.after_moves)
    assert found == built and hash(found) == hash(built) and found.found_in is not None
    assert built.found_in is None and found.replace(after_moves=found.after_moves).found_in is None
    assert "found_in" not in repr(found)


def test_records_are_named_tuples_with_defaults_and_methods() -> None:
    chain = Chain((13, 10, 9), frozenset({10}))
    assert chain == ((13, 10, 9), frozenset({10})) and Chain((6, 0)).stars == frozenset()
    written = WrittenPlay.parse("13/10*/9 6/off")
    assert written.chains[0] == chain and written.stars == frozenset({10}) and written.marks_hits
    assert written._replace(marks_hits=False).marks_hits is False
    assert pickle.loads(pickle.dumps(written)) == written


def test_a_validate_process_imports_no_dataclasses_argparse_or_inspect(tmp_path: Path) -> None:
    path = tmp_path / "match.mat"
    path.write_text(export_mat(random_match(length=7, rng=random.Random(5))))
    script = ("import io, sys; from game.cli import main; code = main(['validate', sys.argv[1]], io.StringIO()); "
              "print(code, *sorted(m for m in ('dataclasses', 'inspect', 'argparse', 'ast') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0"]
    shown = subprocess.run([sys.executable, "-m", "game", "validate", str(path)], capture_output=True, text=True)
    assert shown.returncode == 0 and shown.stdout.rstrip().endswith("verdict: LEGAL")
