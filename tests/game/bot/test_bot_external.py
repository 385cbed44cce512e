"""The translations that benchmarks/bench_external.py hands to engines written elsewhere: a
Catchgammon position as the Plakoto program (johannesnorbertwolf/tavli) holds its board, a
Rungammon position as the Fevga program (mvichosfm/fevga) holds its game. Checked on hand-built
positions; where an engine's folder is there (beside this project, /work/external/NAME, or
SMARTGAMMON_TAVLI_DIR / SMARTGAMMON_FEVGA_DIR), also against the engine's own move generator:
from the translated position it must reach the same positions as this project's legal plays
translated (where the two sets of rules agree)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from repo import ROOT

from game.board import Color, Variant, board_point, own_point
from game.position import Position
from game.selfplay import random_positions


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_external", ROOT / "benchmarks" / "bench_external.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = load_bench()


def catchgammon(points: dict[int, str], turn: Color = Color.WHITE, off: tuple[int, int] = (0, 0)) -> Position:
    board = [""] * 24
    for point, stack in points.items():
        board[point - 1] = stack
    return Position(Variant.CATCHGAMMON, turn, tuple(board), off=off)


def test_the_plakoto_start_puts_each_side_on_the_programs_own_start() -> None:
    board = bench.plakoto_board(Position.initial(Variant.CATCHGAMMON))
    # its Black starts on its 24 and runs down (this project's White), its White on its 1
    assert (board["n"][24], board["color"][24]) == (15, bench.TAVLI_BLACK)
    assert (board["n"][1], board["color"][1]) == (15, bench.TAVLI_WHITE)
    assert sum(board["n"]) == 30 and not any(board["pinned"])
    assert board["off"] == {"-1": 0, "1": 0}


def test_a_trapped_checker_is_the_programs_pin_under_the_owners_stack() -> None:
    position = catchgammon({24: "w" * 9, 5: "bww", 19: "wb", 1: "b" * 11, 6: "b"}, off=(3, 1))
    board = bench.plakoto_board(position)
    assert (board["n"][5], board["color"][5], board["pinned"][5]) == (2, bench.TAVLI_BLACK, True)
    assert (board["n"][19], board["color"][19], board["pinned"][19]) == (1, bench.TAVLI_WHITE, True)
    assert (board["n"][6], board["color"][6], board["pinned"][6]) == (1, bench.TAVLI_WHITE, False)
    # borne off: this project's White into the program's slot 0 (its Black's), Black into slot 25
    assert (board["n"][0], board["color"][0], board["n"][25], board["color"][25]) == (3, -1, 1, 1)
    assert board["off"] == {"-1": 3, "1": 1}
    checkers = sum(board["n"][1:25]) + sum(board["pinned"]) + board["n"][0] + board["n"][25]
    assert checkers == 30


def test_the_plakoto_colours_follow_the_direction_of_play() -> None:
    assert bench.tavli_color(Color.WHITE) == bench.TAVLI_BLACK  # runs 24 -> 1 in both
    assert bench.tavli_color(Color.BLACK) == bench.TAVLI_WHITE
    with pytest.raises(ValueError, match="Catchgammon"):
        bench.plakoto_board(Position.initial(Variant.RUNGAMMON))


def test_the_fevga_game_counts_each_side_on_its_own_points() -> None:
    start = bench.fevga_game(Position.initial(Variant.RUNGAMMON))
    assert start["pos"][0][24] == 15 and start["pos"][1][24] == 15 and start["off"] == [0, 0]
    board = [""] * 24
    board[12 - 1] = "b" * 13  # Black's own 24
    board[1 - 1] = "b"  # Black's own 13, past White's start
    board[24 - 1] = "w" * 14
    board[20 - 1] = "w"
    game = bench.fevga_game(Position(Variant.RUNGAMMON, Color.BLACK, tuple(board), off=(0, 1)))
    assert game["pos"][1][24] == 13 and game["pos"][1][13] == 1 and game["pos"][0][20] == 1
    assert sum(game["pos"][1]) == 14 and game["off"] == [0, 1]
    assert bench.fevga_side(Color.WHITE) == 0 and bench.fevga_side(Color.BLACK) == 1


def test_the_fevga_programs_map_between_the_sides_points_is_rungammons() -> None:
    # the program: one player's point r is the other's S(r) = ((r + 11) % 24) + 1
    for own in range(1, 25):
        where = board_point(Variant.RUNGAMMON, Color.BLACK, own)
        assert own_point(Variant.RUNGAMMON, Color.WHITE, where) == ((own + 11) % 24) + 1


def engine_dir(name: str, variable: str) -> Path:
    folder = Path(os.environ.get(variable, ROOT.parent / "external" / name))
    if not folder.is_dir():
        pytest.skip(f"{name}'s folder is not here ({folder}; {variable} names it): the pure translations above "
                    "are checked without it")
    return folder


@pytest.mark.slow
def test_the_fevga_program_reaches_the_same_positions_as_our_legal_plays() -> None:
    folder = engine_dir("fevga", "SMARTGAMMON_FEVGA_DIR")
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the Fevga program is JavaScript")
    engine = (folder / "src" / "engine.js").as_uri()
    script = f"""
import * as E from '{engine}';
import {{ readFileSync }} from 'node:fs';
const cases = JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify(cases.map((c) => {{
  const g = {{ pos: [Int8Array.from(c.game.pos[0]), Int8Array.from(c.game.pos[1])], off: c.game.off }};
  return E.finalPositions(E.viewOf(g, c.p), E.expandDice(c.dice))
    .map((f) => Array.from(f.mine).join(',') + '|' + f.myOff).sort();
}})));
"""
    cases, ours = [], []
    for position, dice in random_positions(Variant.RUNGAMMON, 300, 5):
        side = bench.fevga_side(position.turn)
        cases.append({"game": bench.fevga_game(position), "p": side, "dice": list(dice)})
        keys = set()
        for play in position.legal_plays(dice):
            after = bench.fevga_game(play.after_moves)
            keys.add(",".join(map(str, after["pos"][side])) + "|" + str(after["off"][side]))
        ours.append(sorted(keys))
    done = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=300, check=True)
    theirs = json.loads(done.stdout)
    assert theirs == ours  # Rungammon's rules and the program's agree on every one of these


@pytest.mark.slow
def test_the_plakoto_program_reaches_the_same_positions_as_our_legal_plays_outside_bear_offs() -> None:
    folder = engine_dir("tavli", "SMARTGAMMON_TAVLI_DIR")
    python = os.environ.get("SMARTGAMMON_TAVLI_PYTHON", str(ROOT.parent / "external" / "venv-tavli" / "bin" / "python"))
    if not Path(python).is_file():
        pytest.skip(f"the Plakoto program's Python ({python}; SMARTGAMMON_TAVLI_PYTHON names it) is not here")
    script = """
import json, sys
sys.path.insert(0, sys.argv[1])
from domain.board import Board
from domain.dice import Dice
from domain.move_generation import legal_moves
out = []
for case in json.load(sys.stdin):
    doc = case["board"]
    board = Board()
    board.n, board.color, board.pinned = list(doc["n"]), list(doc["color"]), list(doc["pinned"])
    board.borne_off = {int(c): k for c, k in doc["off"].items()}
    dice = Dice()
    dice.set(*case["dice"])
    afters = set()
    for move in legal_moves(board, case["color"], dice):
        token = board.apply(move, case["color"])
        afters.add(json.dumps({"n": board.n, "color": board.color, "pinned": board.pinned,
                               "off": {str(c): k for c, k in board.borne_off.items()}}, sort_keys=True))
        board.undo(token)
    out.append(sorted(afters))
print(json.dumps(out))
"""
    cases, ours = [], []
    for position, dice in random_positions(Variant.CATCHGAMMON, 300, 5):
        plays = list(position.legal_plays(dice))
        if any(play.after_moves.off != position.off for play in plays):
            continue  # bear-offs: the program bears off only with the exact number
        cases.append({"board": bench.plakoto_board(position), "color": bench.tavli_color(position.turn),
                      "dice": list(dice)})
        ours.append(sorted({json.dumps(bench.plakoto_board(play.after_moves), sort_keys=True) for play in plays}))
    done = subprocess.run([python, "-c", script, str(folder)], input=json.dumps(cases), capture_output=True,
                          text=True, timeout=300, check=True)
    theirs = json.loads(done.stdout)
    agree = sum(a == b for a, b in zip(ours, theirs, strict=True))
    # The program also ends a turn after one die when the first die played leaves the second
    # unplayable (its rules.md), which Catchgammon forbids: a few positions differ by that alone.
    assert agree >= 0.95 * len(cases), f"{agree} of {len(cases)}"
