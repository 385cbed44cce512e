"""The one-sided bear-off database: for every way of standing up to 15 checkers on the six home
points (54,264 positions), the distribution of the number of rolls it takes to bear them all off,
and of the rolls before the first checker comes off (what saves a gammon).

Once contact is over and both sides have every checker home, a game of any variant is two
independent bear-offs (the three variants bear off alike: game/RULES.md), and two such
distributions give the side on roll its chances exactly as GNU Backgammon's one-sided database
gives them: it wins when it needs no more rolls than the opponent. Each side plays to bear off in
the fewest rolls on average (to bring its first checker off soonest, for the gammon distribution).

Built by `build()` in numpy, position by position in order of pips (a play only ever leaves fewer),
the way GNU Backgammon's `makebearoff` builds `gnubg_os0.bd`: probabilities in units of 1/65535,
each roll's best play the one with the least mean, rounded as it rounds. Positions are numbered as
GNU Backgammon numbers them (`index_of`), so the two databases compare entry by entry
(tests/test_bot_bearoff.py: equal to GNU Backgammon's `gnubg_os0.bd` in every entry). It ships
as `weights/bearoff.npz` (860 KB; `python -m game.bot bearoff --out FILE` remakes it in about ten
seconds); without that file `load()` builds it at its first use (progress on stderr) and keeps it
in the user's cache directory.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from math import comb
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import numpy.typing as npt

from game.arguments import output_file
from game.board import CHECKERS
from game.errors import BearoffError
from game.position import Position

POINTS = 6
ROLLS_KEPT = 32  # rolls 0 to 31: no position of 15 checkers needs more
POSITIONS = comb(CHECKERS + POINTS, POINTS)  # 54,264
ONE = 0xFFFF  # probability 1 in the database's units
I64 = npt.NDArray[np.int64]
U16 = npt.NDArray[np.uint16]
F64 = npt.NDArray[np.float64]
FORMAT = 1  # bumped when the cached file's layout changes

Progress = Callable[[int, int], None]


def index_of(board: tuple[int, ...] | list[int]) -> int:
    """GNU Backgammon's number of a one-sided position (`PositionBearoff`): `board[i]` checkers on
    point i + 1. The checkers and the gaps between points read as a bit pattern of 21 bits with six
    set, numbered in the combinatorial order."""
    j = POINTS - 1 + sum(board)
    bits = 1 << j
    for count in board[:POINTS - 1]:
        j -= count + 1
        bits |= 1 << j
    index, r = 0, POINTS
    for n in range(CHECKERS + POINTS, 0, -1):
        if n == r:
            break
        if bits & (1 << (n - 1)):
            index += comb(n - 1, r)
            r -= 1
    return index


def boards() -> npt.NDArray[np.int8]:
    """Every one-sided position, row `index_of(row)`: checkers on points 1 to 6."""
    rows = [(a, b, c, d, e, f)
            for a in range(16) for b in range(16 - a) for c in range(16 - a - b) for d in range(16 - a - b - c)
            for e in range(16 - a - b - c - d) for f in range(16 - a - b - c - d - e)]
    out = np.zeros((POSITIONS, POINTS), dtype=np.int8)
    for row in rows:
        out[index_of(row)] = row
    return out


def _keys(rows: npt.NDArray[np.integer]) -> I64:
    weights = 16 ** np.arange(POINTS, dtype=np.int64)
    keys: I64 = rows.astype(np.int64) @ weights
    return keys


def _successors(table: npt.NDArray[np.int8]) -> I64:
    """(7, POSITIONS + 1, 6): the position each checker's move with die d leaves (d = 1 to 6), by the
    point it leaves; the extra last row is a sentinel for "no such move" and leads only to itself.
    All borne off (0) stays 0, so a roll's second die after the last checker changes nothing."""
    keys = _keys(table)
    order = np.argsort(keys)
    sorted_keys = keys[order]
    none = POSITIONS
    out = np.full((7, POSITIONS + 1, POINTS), none, dtype=np.int64)
    higher = np.zeros((POSITIONS, POINTS), dtype=bool)  # a checker stands above point p + 1
    for p in range(POINTS - 2, -1, -1):
        higher[:, p] = higher[:, p + 1] | (table[:, p + 1] > 0)
    for die in range(1, 7):
        for p in range(POINTS):  # the checker on point p + 1
            point = p + 1
            legal = table[:, p] > 0
            if point < die:
                legal &= ~higher[:, p]  # a larger die bears off only the highest checker
            after = table.astype(np.int64)
            after[:, p] -= 1
            if point > die:
                after[:, p - die] += 1
            found = order[np.searchsorted(sorted_keys, _keys(np.where(legal[:, None], after, 0)))]
            out[die, :POSITIONS, p] = np.where(legal, found, none)
        out[die, 0, :] = 0
    return out


def _apply(successor: I64, positions: I64) -> I64:
    """Every position one die further from each of `positions` (n, k) -> (n, 6k)."""
    return successor[positions].reshape(len(positions), -1)


def build(progress: Progress | None = None) -> tuple[U16, U16]:
    """The database: (POSITIONS, 32) distributions of the rolls to bear off all checkers and of the
    rolls to bear off the first, in units of 1/65535, as GNU Backgammon's `makebearoff` makes them
    (with gammon distributions)."""
    table = boards()
    # GNU Backgammon lists a roll's plays from its highest point down, the larger die first, and
    # keeps the first of equally good plays: the same order here makes the same choices.
    successor = _successors(table)[:, :, ::-1]
    ascending = np.indices((POINTS,) * 4).reshape(4, -1)
    monotone = np.all(ascending[:-1] <= ascending[1:], axis=0)  # a double's checkers, highest first
    pips = table.astype(np.int64) @ np.arange(1, POINTS + 1)
    checkers = table.sum(axis=1)
    off = np.zeros((POSITIONS + 1, ROLLS_KEPT), dtype=np.int64)
    first = np.zeros((POSITIONS + 1, ROLLS_KEPT), dtype=np.int64)
    off[0, 0] = first[0, 0] = ONE
    rolls = np.arange(ROLLS_KEPT, dtype=np.int64)
    mean = np.full(POSITIONS + 1, np.iinfo(np.int64).max, dtype=np.int64)  # the sentinel is never best
    mean_first = mean.copy()
    mean[0] = mean_first[0] = 0
    top = int(pips.max())
    for level in range(1, top + 1):
        ids = np.flatnonzero(pips == level)
        if not len(ids):
            continue
        full = checkers[ids] == CHECKERS
        total = np.zeros((len(ids), ROLLS_KEPT), dtype=np.int64)
        total_first = np.zeros((len(ids), ROLLS_KEPT), dtype=np.int64)
        total_first[~full, 0] = ONE * 36
        for a in range(1, 7):
            for b in range(1, a + 1):
                start = ids[:, None]
                if a == b:
                    reached = start
                    for _ in range(4):
                        reached = _apply(successor[a], reached)
                    reached = np.where(monotone, reached, POSITIONS)
                    weight = 1
                else:
                    reached = np.concatenate([_apply(successor[b], _apply(successor[a], start)),
                                              _apply(successor[a], _apply(successor[b], start))], axis=1)
                    weight = 2
                rows = np.arange(len(ids))
                best = reached[rows, np.argmin(mean[reached], axis=1)]
                total[:, 1:] += weight * off[best, :-1]
                best_first = reached[rows, np.argmin(mean_first[reached], axis=1)]
                total_first[full, 1:] += weight * first[best_first[full], :-1]
        off[ids] = _rounded(total)
        first[ids] = _rounded(total_first)
        mean[ids] = off[ids] @ rolls
        mean_first[ids] = first[ids] @ rolls
        if progress is not None:
            progress(level, top)
    return off[:POSITIONS].astype(np.uint16), first[:POSITIONS].astype(np.uint16)


def _rounded(total: I64) -> I64:
    """Sums over the 36 rolls as probabilities in 1/65535: rounded to nearest, the rounding error
    taken from the likeliest entry so that each row sums to exactly 65535 (as `makebearoff` does)."""
    out: I64 = (total + 18) // 36
    mode = np.argmax(out, axis=1)
    rows = np.arange(len(out))
    out[rows, mode] -= out.sum(axis=1) - ONE
    return out


def cache_path() -> Path:
    """Where the built database is kept: $XDG_CACHE_HOME (or ~/.cache)/smartgammon/."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "smartgammon" / f"bearoff-os-6-15-v{FORMAT}.npz"


def _report(level: int, top: int) -> None:
    if level < top and 10 * level // top == 10 * (level - 1) // top:
        return  # every tenth of the way
    sys.stderr.write(f"\rbuilding the bear-off database: {100 * level // top}%")
    if level == top:
        sys.stderr.write("\n")
    sys.stderr.flush()


class BearoffDatabase:
    """The one-sided database in memory (as probabilities), and races judged with it."""

    def __init__(self, off: U16, first: U16) -> None:
        # Kept in the database's own 16-bit units (7 MB for both), made probabilities row by row.
        self.off, self.first = off, first

    def distribution(self, board: tuple[int, ...] | list[int]) -> tuple[F64, F64]:
        """(rolls to bear off all, rolls to bear off the first) of a side's home board, as probabilities."""
        index = index_of(board)
        return self.off[index].astype(np.float64) / ONE, self.first[index].astype(np.float64) / ONE

    def mean_rolls(self, board: tuple[int, ...] | list[int]) -> float:
        """The expected number of rolls to bear off every checker of `board`."""
        return float(self.distribution(board)[0] @ np.arange(ROLLS_KEPT))

    def estimate(self, mine: tuple[int, ...], theirs: tuple[int, ...]) -> npt.NDArray[np.float32]:
        """Outcome estimates (win, win gammon, win triple, lose gammon, lose triple) for the side on
        roll, its home board `mine`, the opponent's `theirs` (checkers on points 1 to 6 each)."""
        my_off, my_first = self.distribution(mine)
        their_off, their_first = self.distribution(theirs)
        # The side on roll wins when it needs no more rolls than the opponent: P(mine = i) P(theirs >= i).
        their_at_least = np.cumsum(their_off[::-1])[::-1]
        win = float(my_off @ their_at_least)
        gammon = float(my_off @ np.cumsum(their_first[::-1])[::-1]) if sum(theirs) == CHECKERS else 0.0
        my_after = np.concatenate([np.cumsum(my_first[::-1])[::-1][1:], [0.0]])  # P(first off > i)
        lose_gammon = float(their_off @ my_after) if sum(mine) == CHECKERS else 0.0
        return np.array([win, gammon, 0.0, lose_gammon, 0.0], dtype=np.float32)

    def estimate_position(self, position: Position) -> npt.NDArray[np.float32]:
        """`estimate` for the side on roll in a race position (`race_boards` not None)."""
        boards_ = race_boards(position)
        if boards_ is None:
            raise BearoffError(f"not a bear-off race ({position.to_json()}): "
                               "a checker is outside its home board or in contact")
        return self.estimate(*boards_)


def race_boards(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Both sides' home boards (side on roll first) when contact is over and every checker still on
    the board is home and free (in any variant); None otherwise."""
    out = []
    for color in (position.turn, position.turn.opponent):
        if position.bar[color.index]:
            return None
        home = []
        for own in range(1, POINTS + 1):
            stack = position.own_stack(color, own)
            if stack and set(stack) != {color.char}:
                return None  # a trapped checker, or an opponent's, in the home board
            home.append(len(stack))
        if sum(home) + position.off[color.index] != CHECKERS:
            return None
        out.append(tuple(home))
    return out[0], out[1]


def is_race(position: Position) -> bool:
    """Whether the database judges `position` (see `race_boards`)."""
    return race_boards(position) is not None


def shipped_path() -> Path:
    """The database as it ships inside the package."""
    return Path(str(resources.files("game.bot") / "weights" / "bearoff.npz"))


def save(path: Path, off: U16, first: U16) -> None:
    """Write the database (compressed numpy arrays `off` and `first`), atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez_compressed(partial, off=off, first=first)
    partial.replace(path)


def read(path: Path) -> tuple[U16, U16]:
    """The arrays of a saved database; `BearoffError` when the file is not one."""
    try:
        with np.load(path) as saved:
            off, first = saved["off"], saved["first"]
    except (OSError, ValueError, KeyError) as exc:
        raise BearoffError(f"{path} is not a bear-off database: {exc}") from None
    if off.shape != (POSITIONS, ROLLS_KEPT) or first.shape != off.shape:
        raise BearoffError(f"{path} is not a bear-off database: shape {off.shape}, not {(POSITIONS, ROLLS_KEPT)}")
    return off, first


@lru_cache(maxsize=1)
def load(progress: Progress | None = _report) -> BearoffDatabase:
    """The database: the shipped file, else the user's cached copy, else built now (progress on
    stderr) and cached."""
    for path in (shipped_path(), cache_path()):
        if path.exists():
            try:
                return BearoffDatabase(*read(path))
            except BearoffError:
                continue  # a damaged copy is built again
    off, first = build(progress)
    try:
        save(cache_path(), off, first)
    except OSError:
        pass  # a read-only home: built again next time
    return BearoffDatabase(off, first)


GNUBG_HEADER = b"gnubg-OS-06-15-1-1-0"  # one-sided, 6 points, 15 checkers, gammons, compressed, exact


def read_gnubg(path: Path) -> tuple[U16, U16]:
    """GNU Backgammon's own one-sided database (Debian's /usr/share/gnubg/gnubg_os0.bd) as arrays
    like `build`'s. Its layout (GNU Backgammon's bearoff.c): a 40-byte header; for each position 8
    bytes, the offset of its data in 16-bit units (4 bytes), then the count and first roll of the
    nonzero entries of its bear-off distribution and of its gammon distribution (a byte each); then
    the data, little-endian 16-bit probabilities in units of 1/65535."""
    data = path.read_bytes()
    if not data.startswith(GNUBG_HEADER):
        raise BearoffError(f"{path} is not GNU Backgammon's compressed one-sided database of 15 checkers "
                           f"on 6 points with gammons (header {data[:20]!r})")
    index = np.frombuffer(data, dtype=np.uint8, count=POSITIONS * 8, offset=40).reshape(POSITIONS, 8)
    offsets = index[:, :4].copy().view("<u4")[:, 0].astype(np.int64)
    values = np.frombuffer(data, dtype="<u2", offset=40 + POSITIONS * 8)
    off = np.zeros((POSITIONS, ROLLS_KEPT), dtype=np.uint16)
    first = np.zeros((POSITIONS, ROLLS_KEPT), dtype=np.uint16)
    for row in range(POSITIONS):
        start, count, low, count_first, low_first = (int(offsets[row]), *(int(v) for v in index[row, 4:]))
        off[row, low:low + count] = values[start:start + count]
        first[row, low_first:low_first + count_first] = values[start + count:start + count + count_first]
    return off, first


def add_parser(commands: Any) -> None:
    """`python -m game.bot bearoff`: build the database, optionally check it against GNU Backgammon's."""
    parser = commands.add_parser("bearoff", help="build the one-sided bear-off database")
    parser.add_argument("--out", required=True, type=output_file,
                        help="the .npz to write (shipped: game/bot/weights/bearoff.npz)")
    parser.add_argument("--check", metavar="GNUBG_OS_DB", help="compare with GNU Backgammon's gnubg_os0.bd")
    parser.set_defaults(run=run_command)


def run_command(args: Any, out: TextIO, err: TextIO) -> int:
    """Build, write, and (--check) count the positions that differ from GNU Backgammon's database."""
    started = time.perf_counter()
    off, first = build(_report)
    seconds = time.perf_counter() - started
    path = Path(args.out)
    save(path, off, first)
    out.write(f"{POSITIONS} positions built in {seconds:.1f} s; wrote {path} ({path.stat().st_size:,} bytes)\n")
    if args.check:
        theirs_off, theirs_first = read_gnubg(Path(args.check))
        differ = int(np.count_nonzero(np.any(theirs_off != off, axis=1) | np.any(theirs_first != first, axis=1)))
        out.write(f"against {args.check}: {POSITIONS - differ} of {POSITIONS} positions equal in both distributions\n")
        return 0 if differ == 0 else 1
    return 0


def timed_build() -> tuple[float, U16, U16]:
    """Seconds to build the database, and the database (for the benchmark)."""
    started = time.perf_counter()
    off, first = build()
    return time.perf_counter() - started, off, first


__all__ = ["POSITIONS", "BearoffDatabase", "BearoffError", "build", "index_of", "is_race", "load", "race_boards",
           "read", "save"]
