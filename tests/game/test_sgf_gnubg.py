"""Differential tests of GNU Backgammon's own match file, `.sgf`, against Debian's gnubg.

Matches gnubg plays against itself and saves as `.sgf` read here to the positions it played, its cube
actions and its results; `.mat` transcripts gnubg imports and saves as `.sgf` read here to the match
the `.mat` gives; and the `.sgf` files written here gnubg loads (`load match`) to the same positions,
cube actions and results. Skipped (with the reason) where gnubg is not installed; required under CI=true.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from gnubg_reader import (
    INSTALL_HINT,
    compare,
    gnubg_found,
    gnubg_import,
    gnubg_self_play,
    our_boards,
    our_cube_actions,
    our_results,
)
from needs import require
from test_transcripts_gnubg import written_transcripts

from game.board import Variant
from game.match import MatchOptions
from game.match_sim import random_match
from game.transcripts import replay_sgf, replay_transcript
from game.transcripts.sgf import export_sgf


@pytest.fixture(scope="module")
def gnubg_here() -> Iterator[None]:
    require("GNU Backgammon (/usr/games/gnubg)", gnubg_found(), INSTALL_HINT)
    yield

pytestmark = [pytest.mark.gnubg, pytest.mark.subprocess]


def test_matches_gnubg_saves_as_sgf_read_to_its_positions_cube_actions_and_results(
        gnubg_here: None, tmp_path: Path) -> None:
    played = gnubg_self_play(range(11, 14), 5, tmp_path)
    loaded = gnubg_import([path.with_suffix(".sgf") for path, _ in played], command="load match")
    cube_actions = 0
    for (path, boards), theirs in zip(played, loaded, strict=True):
        replay = replay_sgf(path.with_suffix(".sgf").read_text())
        match = replay.replayer.match
        assert match is not None and not replay.replayer.problems and match.is_over, path.name
        plays, differences = compare(our_boards(match), boards)
        assert not differences and plays == sum(len(game) for game in boards) > 20
        assert our_cube_actions(match) == theirs.cube_actions
        assert our_results(match) == theirs.results
        cube_actions += sum(len(game) for game in theirs.cube_actions)
    assert cube_actions > 0


def test_transcripts_gnubg_imports_and_saves_as_sgf_read_to_the_match_the_mat_gives(
        gnubg_here: None, tmp_path: Path) -> None:
    # gnubg reads one written play the other way (the lookahead scenario) and Backgammon Studio's
    # `Wins 4016 point` as a backgammon resigned, where the project reads the match conceded
    mats = [path for path in written_transcripts(tmp_path) if "lookahead-hit" not in path.name
            and "conceded" not in path.name]
    script = tmp_path / "save.py"
    script.write_text("import gnubg, json, os\ngnubg.command('set display off')\n"
                      "for path in json.load(open(os.environ['MATS'])):\n"
                      "    gnubg.command('import mat \"%s\"' % path)\n"
                      "    gnubg.command('save match \"%s\"' % (path[:-4] + '.sgf'))\n")
    (tmp_path / "mats.json").write_text(json.dumps([str(p) for p in mats]))
    program = gnubg_found()
    assert program is not None
    subprocess.run([program, "-t", "-q", "-r", "-p", str(script)], cwd=tmp_path, stdin=subprocess.DEVNULL,
                   env=dict(os.environ, HOME=str(tmp_path), MATS=str(tmp_path / "mats.json")),
                   capture_output=True, timeout=600, check=True)
    for mat in mats:
        from_mat = replay_transcript(mat.read_text()).replayer.match
        replay = replay_sgf(mat.with_suffix(".sgf").read_text())
        from_sgf = replay.replayer.match
        assert from_mat is not None and from_sgf is not None and not replay.replayer.problems, mat.name
        plays, differences = compare(our_boards(from_sgf), our_boards(from_mat))  # the dice in either order
        assert not differences and plays == sum(1 for e in from_mat.events if e["type"] == "play"), mat.name
        assert our_cube_actions(from_sgf) == our_cube_actions(from_mat), mat.name
        assert our_results(from_sgf) == our_results(from_mat) and from_sgf.score == from_mat.score, mat.name


@pytest.mark.parametrize(("length", "options"), [(5, MatchOptions()), (7, MatchOptions()),
                                                 (None, MatchOptions(jacoby=True))], ids=["5", "7", "money"])
def test_sgf_written_here_gnubg_loads_to_the_same_match(gnubg_here: None, tmp_path: Path, length: int | None,
                                                        options: MatchOptions) -> None:
    matches, paths = [], []
    for seed in range(4):
        match = random_match(Variant.BACKGAMMON, length, options, rng=random.Random(500 + seed), cube_rate=0.08,
                             resign_rate=0.01)
        matches.append(match)
        paths.append(tmp_path / f"ours-{seed}.sgf")
        paths[-1].write_text(export_sgf(match))
    for match, theirs in zip(matches, gnubg_import(paths, command="load match"), strict=True):
        plays, differences = compare(our_boards(match), theirs.games)
        assert not differences and plays == sum(1 for e in match.events if e["type"] == "play"), theirs.printed
        assert our_cube_actions(match) == theirs.cube_actions[:len(our_cube_actions(match))]
        # gnubg begins the next game of a money session on loading one that ended between games
        assert our_results(match) == theirs.results[:len(match.games)]
        assert all(result == (None, 0, False) for result in theirs.results[len(match.games):])
        assert [(g.score[0] - (g.points if g.winner and g.winner.value == "white" else 0),
                 g.score[1] - (g.points if g.winner and g.winner.value == "black" else 0))
                for g in match.games] == theirs.scores[:len(match.games)]
