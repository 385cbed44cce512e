"""Differential tests against GNU Backgammon's own `.mat` reader and writer (Debian's gnubg).

On every transcript written here (each dialect, each scenario of test_transcripts.py) and on every
`.mat` GNU Backgammon exports from matches it plays against itself, the position before each play
must agree with gnubg's, play by play. Where a transcript leaves a play open (a joined step past a
blot, hits never marked), GNU Backgammon takes the reading without the hit and stops at the first
play that reading makes impossible: there, and only there, the two may differ, and gnubg must
have said so. Skipped (with the reason) where gnubg is not installed; required under CI=true.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import gnubg as gnubg_module
import pytest
import test_transcripts as scenarios
from gnubg_reader import INSTALL_HINT, compare, gnubg_found, gnubg_import, gnubg_self_play, our_boards
from mat_dialects import DIALECTS, Dialect, write
from needs import require

from game.board import Variant
from game.gnubg_ids import gnubg_board
from game.mat import export_mat
from game.match_sim import random_match
from game.plays import format_moves
from game.selfplay import random_positions
from game.transcripts import replay_transcript

pytestmark = [pytest.mark.gnubg, pytest.mark.subprocess]


@pytest.fixture(scope="module")
def gnubg_here() -> Iterator[None]:
    require("GNU Backgammon (/usr/games/gnubg)", gnubg_found(), INSTALL_HINT)
    yield


def written_transcripts(folder: Path) -> list[Path]:
    """Every transcript the tests write: each dialect over a few matches, and the scenarios."""
    paths = []
    for dialect in DIALECTS:
        for seed in range(3):
            match = random_match(Variant.BACKGAMMON, 5, rng=random.Random(40 + seed), cube_rate=0.05,
                                 resign_rate=0.01)
            paths.append(folder / f"{dialect.name}-{seed}.mat")
            paths[-1].write_text(write(match, dialect))
    for seed in range(4):
        match = random_match(Variant.BACKGAMMON, 7, rng=random.Random(200 + seed), cube_rate=0.05, resign_rate=0.01)
        paths.append(folder / f"export-{seed}.mat")
        paths[-1].write_text(export_mat(match))
    texts = {name: scenarios.HEAD + tail for name, tail in (
        ("unmarked-lookahead-hit", "  2) 64: 24/14                    31: bar/22 bar/24\n"),
        ("unmarked-lookahead-quiet", "  2) 64: 24/14                    31: bar/22 8/7\n"),
        ("marked-quiet", "  2) 64: 24/14*\n"),
        ("marked-hit", "  2) 64: 24/20*/14*\n"),
        ("unmarked-steps", "  2) 64: 24/20 20/14\n"))}
    texts["conceded-at-cube-4"] = scenarios.CONCEDED_AT_CUBE_4 + "                                  Wins 4016 point\n"
    for name, text in texts.items():
        paths.append(folder / f"scenario-{name}.mat")
        paths[-1].write_text(text)
    return paths


def test_every_transcript_written_here_replays_to_gnubgs_positions(gnubg_here: None, tmp_path: Path) -> None:
    paths = written_transcripts(tmp_path)
    compared = 0
    gnubg_stopped = []
    for path, theirs in zip(paths, gnubg_import(paths), strict=True):
        replay = replay_transcript(path.read_text())
        assert not replay.replayer.problems, path.name
        assert replay.replayer.match is not None
        ours = our_boards(replay.replayer.match)
        plays, differences = compare(ours, theirs.games)
        assert not differences, (path.name, differences)
        compared += plays
        if plays < sum(len(game) for game in ours):  # gnubg gave up on a play it read the other way
            assert theirs.warned and replay.replayer.notes, (path.name, theirs.printed[-400:])
            gnubg_stopped.append(path.name)
    assert compared > 2000
    assert gnubg_stopped == ["scenario-unmarked-lookahead-hit.mat"]  # the one gnubg cannot read right


@pytest.mark.parametrize("length", [3, 5])
def test_gnubgs_own_matches_against_itself_read_back_to_the_positions_it_played(
        gnubg_here: None, tmp_path: Path, length: int) -> None:
    played = gnubg_self_play(range(1, 4), length, tmp_path)
    theirs = gnubg_import([path for path, _ in played])
    for (path, boards), imported in zip(played, theirs, strict=True):
        replay = replay_transcript(path.read_text())
        match = replay.replayer.match
        assert match is not None and not replay.replayer.problems and match.is_over, path.name
        dialect = replay.transcript.dialect
        assert dialect.producer == "GNU Backgammon (its export header)"
        plays, differences = compare(our_boards(match), boards)
        assert not differences and plays == sum(len(game) for game in boards) > 20
        assert compare(our_boards(match), imported.games) == (plays, [])


def test_the_formatter_writes_every_play_as_gnu_backgammon_does() -> None:
    checked = 0
    for position, dice in random_positions(Variant.BACKGAMMON, 400, 11):
        board = gnubg_board(position)
        for play in position.legal_plays(dice):
            flat = tuple(x for move in play.moves for x in (move.source, move.target))
            assert format_moves(play.moves) == gnubg_module.movetupletostring(flat, board), position.xgid()
            checked += 1
    assert checked > 5000


@pytest.mark.parametrize("dialect", DIALECTS[:2], ids=lambda d: d.name)
def test_what_we_export_gnubg_reads_to_the_same_positions(gnubg_here: None, tmp_path: Path, dialect: Dialect) -> None:
    paths = []
    matches = []
    for seed in range(3):
        match = random_match(Variant.BACKGAMMON, 5, rng=random.Random(300 + seed), cube_rate=0.05, resign_rate=0.01)
        matches.append(match)
        paths.append(tmp_path / f"ours-{seed}.mat")
        paths[-1].write_text(export_mat(match) if dialect.name == "joined" else write(match, dialect))
    for match, imported in zip(matches, gnubg_import(paths), strict=True):
        plays, differences = compare(our_boards(match), imported.games)
        assert not differences and plays == sum(1 for e in match.events if e["type"] == "play") and not imported.warned
