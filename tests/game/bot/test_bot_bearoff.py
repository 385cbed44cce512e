"""The one-sided bear-off database (game/bot/bearoff.py): built here, equal to GNU Backgammon's own,
and the bots' judge of races in every variant."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import gnubg
import numpy as np
import pytest
from bot_fixtures import shipped
from repo import ROOT

from game.board import CHECKERS, OWN_TO_BOARD, Color, Variant
from game.bot import bearoff
from game.bot.base import Level
from game.bot.network_bot import NetworkBot
from game.errors import BearoffError
from game.position import Position

GNUBG_DATABASE = Path("/usr/share/gnubg/gnubg_os0.bd")  # Debian's gnubg-data


@pytest.fixture(scope="module")
def command_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """`python -m game.bot bearoff --out FILE --check gnubg_os0.bd`, once for the module (one build)."""
    out = tmp_path_factory.mktemp("bearoff") / "bearoff.npz"
    done = subprocess.run([sys.executable, "-m", "game.bot", "bearoff", "--out", str(out), "--check",
                           str(GNUBG_DATABASE)], capture_output=True, text=True, timeout=600, cwd=ROOT)
    return done, out


def race(variant: Variant, mine: tuple[int, ...], theirs: tuple[int, ...], turn: Color = Color.WHITE) -> Position:
    """A position of `variant` with `turn`'s home board `mine` and the opponent's `theirs`."""
    points = [""] * 24
    for color, home in ((turn, mine), (turn.opponent, theirs)):
        for own, count in enumerate(home, start=1):
            points[OWN_TO_BOARD[variant, color][own] - 1] = color.char * count
    off = {turn: CHECKERS - sum(mine), turn.opponent: CHECKERS - sum(theirs)}
    return Position(variant, turn, tuple(points), (0, 0), (off[Color.WHITE], off[Color.BLACK]))


def random_home(rng: random.Random, checkers: int) -> tuple[int, ...]:
    home = [0] * 6
    for _ in range(checkers):
        home[rng.randrange(6)] += 1
    return tuple(home)


@pytest.mark.slow
def test_the_built_database_equals_gnubgs_own_in_every_entry(
        command_run: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    done, out = command_run
    assert done.returncode == 0, done.stderr
    assert "54264 of 54264 positions equal" in done.stdout and out.stat().st_size < 1_000_000
    off, first = bearoff.read(out)
    theirs_off, theirs_first = bearoff.read_gnubg(GNUBG_DATABASE)
    assert off.shape == (54_264, 32) == theirs_off.shape
    assert np.array_equal(off, theirs_off) and np.array_equal(first, theirs_first)


def test_the_shipped_database_is_the_built_one(command_run: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    off, first = bearoff.read(command_run[1])
    shipped_off, shipped_first = bearoff.read(bearoff.shipped_path())
    assert np.array_equal(off, shipped_off) and np.array_equal(first, shipped_first)


def test_race_estimates_equal_gnubgs_evaluation_of_the_race() -> None:
    rng = random.Random(4)
    database = bearoff.load()
    for _ in range(60):  # one side above 6 checkers: GNU Backgammon's exact two-sided database stops at 6
        mine, theirs = random_home(rng, rng.randint(7, 15)), random_home(rng, rng.choice([15, rng.randint(1, 15)]))
        mine, theirs = (mine, theirs) if rng.random() < 0.5 else (theirs, mine)
        board = (theirs + (0,) * 19, mine + (0,) * 19)  # GNU Backgammon's: the opponent's, then the side on roll's
        expected = gnubg.evaluate(board, gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 1, 0))[:5]
        assert database.estimate(mine, theirs) == pytest.approx(np.array(expected), abs=1e-5), (mine, theirs)


def test_two_checkers_on_the_six_point_come_off_in_one_roll_only_with_big_doubles() -> None:
    # 33, 44, 55 and 66 bear both off; the opponent's last checker then never rolls.
    assert bearoff.load().estimate((0, 0, 0, 0, 0, 2), (1, 0, 0, 0, 0, 0))[0] == pytest.approx(4 / 36, abs=1e-4)


@pytest.mark.parametrize("variant", list(Variant))
def test_every_variant_is_a_race_only_once_every_checker_is_home_and_free(variant: Variant) -> None:
    assert bearoff.race_boards(race(variant, (2, 3, 0, 0, 0, 1), (0, 0, 5, 0, 0, 0))) == (
        (2, 3, 0, 0, 0, 1), (0, 0, 5, 0, 0, 0))
    assert not bearoff.is_race(Position.initial(variant))
    with pytest.raises(BearoffError, match="not a bear-off race"):
        bearoff.load().estimate_position(Position.initial(variant))


def test_a_trapped_checker_in_catchgammon_is_no_race() -> None:
    position = race(Variant.CATCHGAMMON, (1, 3, 0, 0, 0, 1), (0, 0, 5, 0, 0, 0))
    points = list(position.points)
    own_one = OWN_TO_BOARD[Variant.CATCHGAMMON, Color.WHITE][1] - 1
    points[own_one] = "wb"  # White's checker on its 1-point trapped under a black one
    trapped = Position(Variant.CATCHGAMMON, Color.WHITE, tuple(points), (0, 0), (position.off[0], position.off[1] - 1))
    assert not bearoff.is_race(trapped)


@pytest.mark.parametrize("variant", [Variant.CATCHGAMMON, Variant.RUNGAMMON])
def test_the_variant_bots_play_races_by_the_database(variant: Variant) -> None:
    rng = random.Random(variant.value)
    bot = shipped(variant, Level.EXPERT)
    assert isinstance(bot, NetworkBot)
    database = bearoff.load()
    for _ in range(10):
        position = race(variant, random_home(rng, rng.randint(2, 15)), random_home(rng, rng.randint(2, 15)))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        ranked = bot.rank_plays(position, dice)
        # Every legal play of the move generator, ranked by the chances the database gives.
        assert {r.play.after_moves for r in ranked} == {p.after_moves for p in position.legal_plays(dice)}
        for entry in ranked:
            after = entry.play.next_position
            if entry.play.after_moves.result() is None:
                theirs = database.estimate_position(after)
                assert entry.probs[0] == pytest.approx(1.0 - float(theirs[0]), abs=1e-6)
        best_win = max(r.probs[0] for r in ranked)
        assert ranked[0].probs[0] == pytest.approx(best_win, abs=1e-6)  # no gammons: most wins is best
        assert bot.estimate(position) == pytest.approx(database.estimate_position(position))


def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.npz"
    bad.write_bytes(b"nothing")
    with pytest.raises(BearoffError, match="is not a bear-off database"):
        bearoff.read(bad)
    with pytest.raises(BearoffError, match="is not GNU Backgammon's"):
        bearoff.read_gnubg(bad)
