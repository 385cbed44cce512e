"""What the evaluator sees: a position as numbers, one encoder per variant, batched in numpy.

The input is movegen's compact 28-byte state (`game.movegen.encode`), read from the side of the
player on roll: [0] my checkers off, [1..24] one code per own point, [25] mine on the bar,
[26] theirs on the bar, [27] theirs off. A batch of states is one uint8 array (N, 28), so the
features of every candidate play are computed at once.

Every variant gets the raw board as TD-Gammon 0.0 had it (per point and side: one, two, three
checkers and the rest) and, for each side, a few numbers a player counts: pips, checkers off and
home, points held in the home board, the longest run of held points and how many opposing
checkers are caught behind it. Each variant then adds what decides its games:
- Catchgammon: which checkers are trapped and who traps them (per point), how many each side
  has trapped, the mother checker (a side's checker trapped on its own 24-point, the Remi), and
  how many checkers each side still has on its starting point;
- Rungammon: the first-checker rule (whether a side may yet bring a second checker off its
  start), the checkers left on each start, the primes (a run of six points with opposing
  checkers behind it), and how the opponent's points block each side's checkers (`_blocking`:
  escapes, the run ahead of the rearmost checker, free pips, timing, checkers walled in);
- Backgammon: the bar.
Every variant also gets the counts the variants' heuristic player judges by (`_tactics`): mobility,
the wall in front of the rearmost checker, points held, and the shots at blots (Catchgammon: apart
those at the mother checker; Backgammon: the opponent's checkers on the bar hitting too). Without
them the network had to find those in the raw counts, and after 14,000 games of self-play it still
lost to the heuristic more often than the targets allow. (Backgammon, the learner check, had them
from issue 27's second session on: with the raw board alone its network stopped near 37% against
GNU Backgammon 0-ply.)
The opponent's side numbers are computed by the same function on the flipped state, so both
sides are described alike.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from game.board import BOARD_TO_OWN, OWN_TO_BOARD, Color, Variant
from game.errors import EngineUnavailable

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

THEIRS, TRAPPING, TRAPPED = 16, 32, 48  # the codes of game.movegen


def _swap_table() -> U8:
    table = np.zeros(256, dtype=np.uint8)
    for n in range(1, 16):
        table[n], table[THEIRS + n] = THEIRS + n, n
        table[TRAPPING + n], table[TRAPPED + n] = TRAPPED + n, TRAPPING + n
    return table


_SWAP = _swap_table()


def _flip_order(variant: Variant) -> npt.NDArray[np.intp]:
    """Index i (own point i + 1 of the opponent) takes the mover's own point order[i] + 1."""
    me, them = Color.WHITE, Color.BLACK
    order = [BOARD_TO_OWN[variant, me][OWN_TO_BOARD[variant, them][q]] for q in range(1, 25)]
    back = [BOARD_TO_OWN[variant, them][OWN_TO_BOARD[variant, me][q]] for q in range(1, 25)]
    assert order == back, "the flip must be the same from either side"
    return np.array([p - 1 for p in order], dtype=np.intp)


_FLIP = {v: _flip_order(v) for v in Variant}


def states_array(states: list[bytes]) -> U8:
    """Stack 28-byte states into one (N, 28) array."""
    return np.frombuffer(b"".join(states), dtype=np.uint8).reshape(len(states), 28)


def flip(variant: Variant, states: U8) -> U8:
    """The same positions read from the other side (the opponent on roll)."""
    out = np.empty_like(states)
    out[:, 0], out[:, 27] = states[:, 27], states[:, 0]
    out[:, 25], out[:, 26] = states[:, 26], states[:, 25]
    out[:, 1:25] = _SWAP[states[:, 1:25][:, _FLIP[variant]]]
    return out


class Board:
    """The counts a feature function reads, decoded once from a batch of states."""

    def __init__(self, states: U8) -> None:
        codes = states[:, 1:25].astype(np.int16)
        kind, n = codes & 48, codes & 15
        self.mine = np.where((kind == 0) | (kind == TRAPPING), n, 0)  # my free checkers per own point
        self.theirs = np.where((kind == THEIRS) | (kind == TRAPPED), n, 0)
        self.my_trapped = (kind == TRAPPED) & (n > 0)  # mine held under theirs
        self.their_trapped = (kind == TRAPPING) & (n > 0)
        self.my_bar, self.their_bar = states[:, 25].astype(np.int16), states[:, 26].astype(np.int16)
        self.my_off, self.their_off = states[:, 0].astype(np.int16), states[:, 27].astype(np.int16)


_POINTS = np.arange(1, 25, dtype=np.float32)


def _unary(counts: npt.NDArray[np.int16]) -> F32:
    """TD-Gammon's units per point: at least one, two, three checkers, and half the rest."""
    c = counts.astype(np.float32)
    return np.concatenate([c >= 1, c >= 2, c >= 3, np.maximum(c - 3, 0) / 2], axis=1).astype(np.float32)


def _run_tables() -> tuple[npt.NDArray[np.int16], ...]:
    """For each 12-bit set of held points: the run at its bottom, at its top, its longest and where
    that starts (the lowest such run)."""
    lead, trail, best, start = (np.zeros(4096, dtype=np.int16) for _ in range(4))
    for mask in range(4096):
        bits = [(mask >> i) & 1 for i in range(12)]
        run = 0
        for i, bit in enumerate(bits):
            run = run + 1 if bit else 0
            if run > best[mask]:
                best[mask], start[mask] = run, i - run + 1
        lead[mask] = next((i for i, bit in enumerate(bits) if not bit), 12)
        trail[mask] = next((i for i, bit in enumerate(reversed(bits)) if not bit), 12)
    return lead, trail, best, start


_LEAD, _TRAIL, _BEST, _START = _run_tables()
_BITS = (1 << np.arange(24, dtype=np.int64))


def _longest_run(held: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The longest run of consecutive held points (own numbering) and its lowest point index,
    from two 12-point tables rather than a walk over the points."""
    mask = held.astype(np.int64) @ _BITS
    lo, hi = mask & 4095, mask >> 12
    across = _TRAIL[lo] + _LEAD[hi]
    run, low = _BEST[lo], _START[lo]
    better = across > run
    run, low = np.where(better, across, run), np.where(better, 12 - _TRAIL[lo], low)
    better = _BEST[hi] > run
    run, low = np.where(better, _BEST[hi], run), np.where(better, 12 + _START[hi], low)
    return run.astype(np.int16), low.astype(np.int16)


def _holds(variant: Variant, checkers: npt.NDArray[np.int16],
           trapping: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Points a side holds, so that the other cannot land there: two checkers (one in Rungammon), or
    in Catchgammon one on top of a trapped opposing checker (`trapping`)."""
    if variant is Variant.RUNGAMMON:
        held: npt.NDArray[np.bool_] = checkers >= 1
    elif variant is Variant.CATCHGAMMON:
        held = (checkers >= 2) | trapping
    else:
        held = checkers >= 2
    return held


def _held(variant: Variant, b: Board) -> npt.NDArray[np.bool_]:
    """Points the mover holds: the opponent cannot land there."""
    return _holds(variant, b.mine, b.their_trapped)


def _side(variant: Variant, b: Board, other: Board) -> F32:
    """The numbers a player counts for the side on roll in `b` (`other`: the same positions from
    the opponent's side)."""
    mine_all = b.mine + b.my_trapped  # a trapped checker still has to travel
    pips = (mine_all * _POINTS).sum(axis=1) + 25 * b.my_bar
    held = _held(variant, b)
    if variant is Variant.RUNGAMMON:
        # Both sides run the same way: judge my run along the opponent's path, in their numbering.
        run, low = _longest_run(other.theirs >= 1)
        past = np.arange(24)[None, :] > (low + run - 1)[:, None]
        behind = (past * other.mine).sum(axis=1)
    else:
        # Their checkers move up my numbering: those below my run have yet to pass it.
        run, low = _longest_run(held)
        behind = ((np.arange(24)[None, :] < low[:, None]) * b.theirs).sum(axis=1) + b.their_bar
    home = mine_all[:, :6].sum(axis=1)
    columns: list[npt.NDArray[np.floating] | npt.NDArray[np.integer] | npt.NDArray[np.bool_]] = [
        pips / 167.0, b.my_off / 15.0, home / 15.0, held[:, :6].sum(axis=1) / 6.0,
        run / 6.0, (run >= 6) * behind / 15.0, (run >= 4) * behind / 15.0,
        ((b.mine == 1) & (b.theirs == 0)).sum(axis=1) / 5.0,  # blots
        (mine_all[:, 6:].sum(axis=1) + b.my_bar == 0),  # all home
    ]
    columns.extend(_VARIANT_SIDE[variant](b))
    return np.stack([np.asarray(c, dtype=np.float32) for c in columns], axis=1)


def _backgammon_side(b: Board) -> list[npt.NDArray[np.floating] | npt.NDArray[np.bool_]]:
    return [b.my_bar >= 1, np.maximum(b.my_bar - 1, 0) / 2.0]


def _catchgammon_side(b: Board) -> list[npt.NDArray[np.floating] | npt.NDArray[np.bool_]]:
    trapped = b.my_trapped.sum(axis=1)
    trapping = b.their_trapped.sum(axis=1)
    mother = b.my_trapped[:, 23]  # my checker trapped on my own 24-point: half of a Remi
    on_start = b.mine[:, 23] / 15.0
    may_bear_off = (b.mine[:, 6:].sum(axis=1) == 0) & (trapped == 0)
    return [trapped / 3.0, trapping / 3.0, mother, on_start, may_bear_off,
            b.my_trapped[:, 18:].sum(axis=1) / 2.0]  # trapped in the opponent's home: far from home


def _rungammon_side(b: Board) -> list[npt.NDArray[np.floating] | npt.NDArray[np.bool_]]:
    passed = (b.my_off > 0) | (b.mine[:, :11].sum(axis=1) > 0)
    on_start = b.mine[:, 23]
    start_closed = ~passed & (on_start + b.my_off < 15)
    not_passed = b.mine[:, 11:].sum(axis=1)  # checkers still before the opponent's start
    return [start_closed, on_start / 15.0, not_passed / 15.0, b.mine[:, 18:].astype(bool).sum(axis=1) / 6.0]


_VARIANT_SIDE: dict[Variant, Callable[[Board], list[npt.NDArray[np.floating] | npt.NDArray[np.bool_]]]] = {
    Variant.BACKGAMMON: _backgammon_side,
    Variant.CATCHGAMMON: _catchgammon_side,
    Variant.RUNGAMMON: _rungammon_side,
}


def features(variant: Variant, states: U8) -> F32:
    """The network's input for each state (the side on roll first), shape (N, input_size(variant)),
    by the compiled encoder where it is built (the same numbers), else in numpy."""
    return numpy_features(variant, states) if _ENCODER is None else compiled_features(variant, states)


def numpy_features(variant: Variant, states: U8) -> F32:
    """`features` in numpy, the encoder's reference: the raw board, Catchgammon's trapped checkers,
    each side's counts, contact, each side's tactics, then Backgammon's contact inputs or Rungammon's
    blocking."""
    b, other = Board(states), Board(flip(variant, states))
    parts = [_unary(b.mine), _unary(b.theirs)]
    if variant is Variant.CATCHGAMMON:
        parts += [b.my_trapped.astype(np.float32), b.their_trapped.astype(np.float32)]
    parts += [_side(variant, b, other), _side(variant, other, b)]
    race = _race_free(b) & _race_free(other) if variant is Variant.RUNGAMMON else ~_contact(b)
    parts.append(race[:, None].astype(np.float32))
    parts += [_tactics(variant, b), _tactics(variant, other)]
    if variant is Variant.BACKGAMMON:
        parts.append(_containment(b, other))
    elif variant is Variant.RUNGAMMON:
        parts.append(_blocking(b, other))
    return np.concatenate(parts, axis=1)


def compiled_features(variant: Variant, states: U8) -> F32:
    """`numpy_features` by the compiled encoder (game/bot/_encoder.c): the same numbers to the bit."""
    if _ENCODER is None:
        raise EngineUnavailable(f"{_WHY_NOT} (a C compiler and Python's headers, then pip install -e .)")
    rows = np.ascontiguousarray(states, dtype=np.uint8)
    code = _VARIANT_CODE[variant]
    out = np.empty((len(rows), _ENCODER.columns(code)), dtype=np.float32)
    _ENCODER.features(rows, out, code, _FLIP_BYTES[variant])
    return out


def describe_encoder() -> str:
    """Which encoder `features` uses, in words (benchmarks print it)."""
    return "compiled encoder (game/bot/_encoder.c)" if _ENCODER is not None else f"numpy encoder ({_WHY_NOT})"


try:
    from game.bot import _encoder as _ENCODER

    _WHY_NOT = ""
except ImportError as exc:  # no C compiler where it was installed: numpy, the same numbers
    _ENCODER = None  # type: ignore[assignment]
    _WHY_NOT = f"the compiled encoder is not built: {exc}"
_VARIANT_CODE = {Variant.BACKGAMMON: 0, Variant.CATCHGAMMON: 1, Variant.RUNGAMMON: 2}
_FLIP_BYTES = {variant: bytes(order.tolist()) for variant, order in _FLIP.items()}


# The distances one roll can carry a checker (blocks left aside): a, b and a + b; a double's four steps.
_ROLL_REACH = np.array([[a, b, a + b, 0] if a != b else [a, 2 * a, 3 * a, 4 * a]
                        for a in range(1, 7) for b in range(a, 7)], dtype=np.intp)
_ROLL_REACH_BITS = np.array([sum(1 << int(d) for d in set(reach) if d) for reach in _ROLL_REACH], dtype=np.int64)
"""Each roll's distances as the bits of one integer."""
_ROLL_COUNT = np.array([1 if a == b else 2 for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
"""Each roll's count of 36."""


def _shots(targets: npt.NDArray[np.bool_], hitters: npt.NDArray[np.bool_]) -> F32:
    """The share of the 36 rolls on which a hitter (moving up the own numbering) reaches a target,
    counting a, b, a + b and a double's multiples, blocks left aside: the shots a player counts."""
    # Each row's points as the bits of one integer: a distance is then one shift and one `and` for
    # all rows, not a pass over every point of every row (a training step encodes thousands of rows).
    target_bits, hitter_bits = _bits(targets), _bits(hitters)
    at = np.zeros(len(targets), dtype=np.int64)  # bit d: some target stands d pips ahead of some hitter
    for d in range(1, min(targets.shape[1], 25)):
        at |= ((target_bits >> d) & hitter_bits != 0).astype(np.int64) << d
    # Counted as integers, then divided: one correctly rounded share, as the compiled encoder has it.
    shares: F32 = (((at[:, None] & _ROLL_REACH_BITS[None, :] != 0) @ _ROLL_COUNT) / 36.0).astype(np.float32)
    return shares


def _bits(points: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each row of booleans as one integer, column i its bit i."""
    bits: npt.NDArray[np.int64] = points.astype(np.int64) @ (np.int64(1) << np.arange(points.shape[1], dtype=np.int64))
    return bits


def _blocked(variant: Variant, b: Board) -> npt.NDArray[np.bool_]:
    """Points the side on roll cannot land on: the opponent holds them."""
    return _holds(variant, b.theirs, b.my_trapped)


def _tactics(variant: Variant, b: Board) -> F32:
    """What the variants' heuristic player counts and the network would otherwise have to find in the
    raw counts, for the side on roll in `b`: the shots at its blots (Catchgammon: the rolls that trap
    one next, and apart those at its last checker on the starting point, the mother checker), how
    freely its checkers move (open landing points a die away), how walled in its rearmost checker is,
    and how many points it holds."""
    n = b.mine.shape[0]
    blocked = _blocked(variant, b)
    free = b.mine > 0
    # Mobility: each point with a free checker, each die 1-6 that lands on an open point.
    open_moves = np.zeros(n, dtype=np.float32)
    for d in range(1, 7):
        open_moves += (free[:, d:] & ~blocked[:, :-d]).sum(axis=1)
    rows = np.arange(n)
    rear = np.where(free, np.arange(24)[None, :], -1).max(axis=1)
    walled = np.zeros(n, dtype=np.float32)
    for d in range(1, 7):
        ahead = rear - d
        walled += (ahead >= 0) & blocked[rows, np.maximum(ahead, 0)]
    columns = [open_moves / 30.0, walled / 6.0, _held(variant, b).sum(axis=1) / 12.0]
    if variant is Variant.CATCHGAMMON:
        blots = (b.mine == 1) & ~b.their_trapped
        hitters = b.theirs > 0
        mother = np.zeros_like(blots)
        mother[:, 23] = blots[:, 23]
        columns += [_shots(blots, hitters), _shots(mother, hitters)]
    elif variant is Variant.BACKGAMMON:
        # Their checkers on the bar hit too, entering from the point below my 1-point.
        blots = np.concatenate([np.zeros((n, 1), dtype=np.bool_), b.mine == 1], axis=1)
        hitters = np.concatenate([(b.their_bar > 0)[:, None], b.theirs > 0], axis=1)
        columns.append(_shots(blots, hitters))
    return np.stack(columns, axis=1).astype(np.float32)


def _contact(b: Board) -> npt.NDArray[np.bool_]:
    """Whether one of my checkers still has an opposing one ahead of it (not yet a pure race)."""
    idx = np.arange(1, 25)[None, :]
    my_back = np.where((b.mine + b.my_trapped) > 0, idx, 0).max(axis=1) + 25 * (b.my_bar > 0)
    their_back = np.where((b.theirs + b.their_trapped) > 0, idx, 25).min(axis=1) - 25 * (b.their_bar > 0)
    behind: npt.NDArray[np.bool_] = my_back > their_back
    return behind


def _race_free(b: Board) -> npt.NDArray[np.bool_]:
    """Rungammon: every checker of the side on roll is past the opponent's start (own points 1-11)."""
    free: npt.NDArray[np.bool_] = b.mine[:, 11:].sum(axis=1) == 0
    return free


def input_size(variant: Variant) -> int:
    """How many inputs the network of `variant` has."""
    return int(features(variant, np.zeros((1, 28), dtype=np.uint8)).shape[1])


def _escape_tables() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """For each 12-bit set of blocked points ahead of a checker (bit k: the point k + 1 pips ahead), the
    rolls of 36 that carry it to the point a + b pips ahead, open, by either order of the dice (a double
    a-a by way of a), as GNU Backgammon counts escapes; and of those, the ones that land beyond the
    first blocked point (none when nothing is blocked). All 4,096 sets at once: made at import."""
    masks = np.arange(4096, dtype=np.int64)
    blocked = ((masks[:, None] >> np.arange(12)) & 1).astype(bool)  # (4096, 12)
    first = np.where(blocked.any(axis=1), blocked.argmax(axis=1), 12)  # 12: nothing blocked
    escapes, beyond = np.zeros(4096, dtype=np.int16), np.zeros(4096, dtype=np.int16)
    for a in range(1, 7):
        for b in range(1, a + 1):
            open_way = ~blocked[:, a + b - 1] & ~(blocked[:, a - 1] & blocked[:, b - 1])
            ways = 1 if a == b else 2
            escapes += ways * open_way
            beyond += ways * (open_way & (a + b - 1 > first))
    return escapes, beyond


_ESCAPES, _ESCAPES_BEYOND = _escape_tables()
# A checker on own point p (25: the bar) sees the points p - 1 down to p - 12 that are on the board.
_WINDOW_SHIFT = np.array([max(25 - p, 0) for p in range(26)], dtype=np.int64)
_WINDOW_MASK = np.array([(1 << min(max(p - 1, 0), 12)) - 1 for p in range(26)], dtype=np.int64)


def _escape_windows(blocked: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The escape tables' index for a checker on each own point 0-25 (25: the bar; 0: off the board,
    nothing ahead) of the side whose blocked points (own numbering) are `blocked`; shape (N, 26)."""
    reversed_mask = blocked[:, ::-1].astype(np.int64) @ _BITS  # bit 23 - j: own point j + 1 blocked
    windows: npt.NDArray[np.int64] = (reversed_mask[:, None] >> _WINDOW_SHIFT[None, :]) & _WINDOW_MASK[None, :]
    return windows


_INDEX = np.arange(25, dtype=np.int32)


def _containment(b: Board, other: Board) -> F32:
    """Backgammon only: GNU Backgammon's contact inputs (Berliner's; eval.c's CalculateHalfInputs), which
    its 0-ply evaluation sees and the learner check's network otherwise had to find, for the side on
    roll in `b` and then for the other: how its points contain the opponent's rearmost checker
    (escapes, the fewest escapes from any point of its outfield and home), how freely its own checkers
    escape, the pips it needs to break contact, its checkers already past the opponent's (free pips),
    its timing, where its back checker and anchors stand, the spread of its checkers beyond their
    mean, and back games. Both sides in one batch of twice the rows: numpy's cost here is per call."""
    n = b.mine.shape[0]
    mine = np.concatenate([np.concatenate([b.mine, b.my_bar[:, None]], axis=1),
                           np.concatenate([other.mine, other.my_bar[:, None]], axis=1)])  # index 24: the bar
    theirs = np.concatenate([mine[n:], mine[:n]])  # in their own numbering
    blocking_them = np.concatenate([other.theirs >= 2, b.theirs >= 2])  # my points, in their numbering
    blocking_me = np.concatenate([b.theirs >= 2, other.theirs >= 2])
    halves = _contact_half(mine.astype(np.int32), theirs, blocking_me, blocking_them)
    return np.concatenate([halves[:n], halves[n:]], axis=1)


def _contact_half(mine: npt.NDArray[np.int32], theirs: npt.NDArray[np.int16], blocking_me: npt.NDArray[np.bool_],
                  blocking_them: npt.NDArray[np.bool_]) -> F32:
    """The inputs of `_containment` for one side: `mine` and `theirs` 25 counts a row in each side's own
    numbering (index 24: the bar), `blocking_me` their points in mine, `blocking_them` mine in theirs."""
    rows = np.arange(mine.shape[0])
    index = _INDEX[None, :]
    their_rear = np.where(theirs > 0, index, -1).max(axis=1)  # -1: none left
    their_back = (23 - their_rear)[:, None]  # my index of their rearmost checker (-1: on the bar)
    their_point = their_rear + 1
    windows = _escape_windows(blocking_them)
    their_escapes = _ESCAPES[windows]
    back_escapes = their_escapes[rows, their_point]
    back_escapes_beyond = _ESCAPES_BEYOND[windows[rows, their_point]]
    points = np.arange(26)[None, :]
    outfield = points >= 16
    contain_rear = 36 - np.where(outfield & (points <= their_point[:, None]), their_escapes, 36).min(axis=1)
    contain = 36 - np.where(outfield & (points <= 24), their_escapes, 36).min(axis=1)
    # My checkers outside home against their points, weighted by the distance to my home.
    my_escapes = _ESCAPES[_escape_windows(blocking_me)[:, 1:]]  # (N, 25), index 24: the bar
    mobility = (np.maximum(index - 5, 0) * mine * my_escapes).sum(axis=1)
    break_contact = ((index > their_back) * mine * (index + 1 - their_back)).sum(axis=1)
    free_pips = ((index < their_back) * mine * (index + 1)).sum(axis=1)
    back = np.where(mine > 0, index, -1).max(axis=1)
    anchors = mine[:, :24] >= 2  # none above `back`, so the back anchor is the highest
    back_anchor = np.where(anchors, index[:, :24], -1).max(axis=1)
    in_their_home = np.where(anchors[:, 18:], index[:, 18:24], 99).min(axis=1)
    in_their_outfield = np.where(anchors[:, 12:18], index[:, 12:18], -1).max(axis=1)
    forward = np.where(in_their_home < 99, 24 - in_their_home,
                       np.where(in_their_outfield >= 0, 24 - in_their_outfield, 0))
    forward_anchor = np.where(forward == 0, 2.0, forward / 6.0)
    total = mine.sum(axis=1)
    mean = np.where(total > 0, ((mine * index).sum(axis=1) + total - 1) // np.maximum(total, 1), 0)  # rounded up
    ahead_of_mean = mine * (index > mean[:, None])
    spread_count = ahead_of_mean.sum(axis=1)
    spread = (ahead_of_mean * (index - mean[:, None]) ** 2).sum(axis=1)
    moment = np.where(spread_count > 0, (spread + spread_count - 1) // np.maximum(spread_count, 1), 0)
    back_anchors = anchors[:, 18:].sum(axis=1)
    back_game_checkers = mine[:, 18:].sum(axis=1)
    columns = [back_escapes / 36.0, back_escapes_beyond / 36.0, contain_rear / 36.0, (contain_rear / 36.0) ** 2,
               contain / 36.0, (contain / 36.0) ** 2, mobility / 3600.0, break_contact / 167.0, free_pips / 100.0,
               _timing(mine, their_back[:, 0]) / 100.0, back / 24.0, back_anchor / 24.0, forward_anchor,
               moment / 400.0, np.where(back_anchors > 1, (back_game_checkers - 3) / 4.0, 0.0),
               np.where(back_anchors == 1, back_game_checkers / 8.0, 0.0)]
    return np.stack(columns, axis=1).astype(np.float32)


def _timing(mine: npt.NDArray[np.int32], their_back: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """GNU Backgammon's timing: the pips a side can play before it must break its points, counting
    checkers in front of the opponent's rearmost (or beyond my 12-point) as spares only above two, and
    then filling the gaps of its home board, highest point first, while spares remain."""
    limit = np.maximum(their_back, 11)[:, None]
    points = _INDEX[None, :24]
    on_point = mine[:, :24]
    spares = np.where(on_point > 2, on_point - 2, np.where(on_point == 1, 1, 0))
    counted = np.where(points > limit, spares, 0) + np.where((points >= 6) & (points <= limit), on_point, 0)
    bar = mine[:, 24] * (1 + (their_back >= 24))  # counted twice when the opponent has nothing left
    checkers = bar + counted.sum(axis=1)
    pips = 24 * bar + (counted * points).sum(axis=1)
    for i in range(5, -1, -1):
        here = mine[:, i]
        over = np.maximum(here - 2, 0)
        pips, checkers = pips + i * over, checkers + over
        gap = 2 - here
        filled = (here < 2) & (checkers >= gap)
        pips, checkers = pips - np.where(filled, i * gap, 0), checkers - np.where(filled, gap, 0)
    timing: npt.NDArray[np.int32] = np.maximum(pips, 0)
    return timing


def _blocking(b: Board, other: Board) -> F32:
    """Rungammon only: how the opponent's points block the checkers of the side on roll in `b`, and then
    the same for the other side. Both sides move the same way, so a point the opponent holds anywhere
    ahead of my checker (lower in my numbering) blocks it, and GNU Backgammon's escapes count the same
    thing as in Backgammon, with one checker holding a point: the rolls that carry my rearmost checker
    past their points (all, and those landing beyond the first block), the fewest escapes of any of my
    checkers still behind one of theirs, the checkers' share of rolls that fail, the opponent's longest
    run of points ahead of my rearmost checker with its distance and my checkers behind it, the pips of
    my checkers already past all of theirs, the pips I can play without leaving a point (checkers beyond
    the first on a point), and my checkers walled in (all six points ahead held)."""
    n = b.mine.shape[0]
    mine = np.concatenate([b.mine, other.mine]).astype(np.int32)
    blocked = np.concatenate([b.theirs, other.theirs]) >= 1  # their points, in the mover's numbering
    rows = np.arange(2 * n)
    index = _INDEX[None, :24]
    windows = _escape_windows(blocked)[:, 1:25]  # a checker on each own point 1-24
    escapes = _ESCAPES[windows]
    their_low = np.where(blocked, index, 24).min(axis=1)  # 24: none of theirs left
    behind = (index > their_low[:, None]) & (mine > 0)  # mine with one of theirs still ahead
    rear = np.where(mine > 0, index, -1).max(axis=1)
    in_contact = behind[rows, np.maximum(rear, 0)]
    rear_escapes = np.where(in_contact, escapes[rows, np.maximum(rear, 0)], 36)
    rear_beyond = np.where(in_contact, _ESCAPES_BEYOND[windows[rows, np.maximum(rear, 0)]], 36)
    fewest = np.where(behind, escapes, 36).min(axis=1)
    failing = (np.where(behind, mine, 0) * (36 - escapes)).sum(axis=1)
    run, low = _longest_run(blocked & (index < rear[:, None]))
    top = low + run - 1
    gap = np.where(run > 0, rear - top, 0)
    caught = np.where(run >= 3, (mine * (index > top[:, None])).sum(axis=1), 0)
    free_pips = (np.where(behind, 0, mine) * (index + 1)).sum(axis=1)
    spare_pips = (np.where(behind, np.maximum(mine - 1, 0), 0) * (index + 1)).sum(axis=1)
    walled = np.ones_like(behind)
    for d in range(1, 7):
        walled &= np.concatenate([np.zeros((2 * n, d), dtype=np.bool_), blocked[:, :-d]], axis=1)
    walled_in = (np.where(behind & walled, mine, 0)).sum(axis=1)
    columns = [rear_escapes / 36.0, rear_beyond / 36.0, fewest / 36.0, failing / 540.0, run / 6.0,
               np.minimum(gap, 12) / 12.0, caught / 15.0, free_pips / 360.0, spare_pips / 360.0, walled_in / 15.0]
    halves = np.stack(columns, axis=1).astype(np.float32)
    return np.concatenate([halves[:n], halves[n:]], axis=1)
