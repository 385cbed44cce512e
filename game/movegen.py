"""Legal play generation for every variant.

A position is encoded, from the side of the player on roll, as 28 bytes indexed by
the mover's own point numbers: [0] my checkers off, [1..24] one code per point,
[25] mine on the bar, [26] theirs on the bar, [27] theirs off. A point's code is
n (1-15) for n of mine, 16 + n for n of theirs, and 32 + n / 48 + n for n of mine /
of theirs on top of one checker of the other colour trapped beneath (Catchgammon).
Each variant differs only in where a checker may land (`_ARRIVE`) and in a few
conditions on leaving; the search over dice orders, the "as many dice as possible,
the larger if only one" rule and the deduplication by resulting position are shared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any

from game.board import BAR, BOARD_TO_OWN, CHECKERS, OWN_TO_BOARD, Color, Variant
from game.errors import DiceError
from game.plays import Move, Play
from game.position import Position

State = bytes
RawMove = tuple[int, int, bool]  # source, target, hit; Move objects are made only for results
Found = dict[State, tuple[RawMove, ...]]

MY_OFF, MY_BAR, THEIR_BAR, THEIR_OFF = 0, 25, 26, 27
THEIRS, TRAPPING, TRAPPED = 16, 32, 48


def _table(rule: Callable[[int], int]) -> tuple[int, ...]:
    return tuple(rule(code) for code in range(64))


def _free(code: int) -> int:
    """How many of my checkers on the point can move."""
    return code if code < THEIRS else code - TRAPPING if TRAPPING < code < TRAPPED else 0


FREE = _table(_free)
# After one of my top checkers leaves; the last trapper leaving frees the trapped checker.
LEAVE = _table(lambda c: c - 1 if _free(c) else -1)
LEAVE = LEAVE[:TRAPPING + 1] + (THEIRS + 1,) + LEAVE[TRAPPING + 2:]
HAS_MINE = bytes(1 if (0 < c < THEIRS or c > TRAPPING) and c != TRAPPED else 0 for c in range(256))
MINE_TRAPPED = bytes(1 if TRAPPED < c < 64 else 0 for c in range(256))
HAS_THEIRS = bytes(1 if THEIRS < c < 64 and c != TRAPPING else 0 for c in range(256))


def _arrive_backgammon(code: int) -> int:
    if code < THEIRS - 1:
        return code + 1
    return 1 if code == THEIRS + 1 else -1  # a blot is hit


def _arrive_catchgammon(code: int) -> int:
    if code < THEIRS - 1:
        return code + 1
    if code == THEIRS + 1:
        return TRAPPING + 1  # the lone checker is trapped beneath
    return code + 1 if TRAPPING < code < TRAPPED - 1 else -1


def _arrive_rungammon(code: int) -> int:
    return code + 1 if code < THEIRS - 1 else -1


_ARRIVE = {
    Variant.BACKGAMMON: _table(_arrive_backgammon),
    Variant.CATCHGAMMON: _table(_arrive_catchgammon),
    Variant.RUNGAMMON: _table(_arrive_rungammon),
}


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    if len(dice) != 2 or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
        raise DiceError(f"dice must be two faces from 1 to 6, got {list(dice)!r}")
    return dice[0], dice[1]


# Moves are immutable: one object per (source, target, hit), shared by every play.
_MOVE = {(p, q, hit): Move(p, q, hit) for p in range(26) for q in range(26) for hit in (False, True)}


def legal_plays(position: Position, dice: Sequence[int]) -> tuple[Play, ...]:
    """Every legal play, one per distinct resulting position; () when none."""
    found = _found(position, dice)
    to_position = _decoder(position)
    move = _MOVE.__getitem__
    return tuple(Play(tuple(map(move, moves)), to_position(state)) for state, moves in found.items())


def single_moves(position: Position, die: int) -> tuple[Play, ...]:
    """Each way one checker can move by `die`, judged alone (not as part of a whole play)."""
    check_dice([die, die])
    to_position = _decoder(position)
    return tuple(Play((_MOVE[move],), to_position(state))
                 for state, move in _STEPS[position.variant](encode(position), die))


Walk = tuple[State, Callable[..., Iterator[tuple[State, Move]]], Callable[[State], Position]]


def single_move_walk(position: Position) -> Walk:
    """For walking many single moves fast: the position as a state, a function giving each legal
    single move of a die from a state (the new state and the Move; `moves(state, die, source)`
    only those from own point `source`), and one turning a state back into a position."""
    step = _STEPS[position.variant]

    def moves(state: State, die: int, source: int = 0) -> Iterator[tuple[State, Move]]:
        for new, raw in step(state, die, source):
            yield new, _MOVE[raw]

    return encode(position), moves, _decoder(position)


def complete_play(position: Position, dice: Sequence[int],
                  moves: Sequence[Move]) -> tuple[State, tuple[Move, ...]] | None:
    """The state `moves` produce, and the moves with their hits, when they are legal single moves, one
    die each, using every die of the roll (and, in Rungammon, breaking no prime rule): such a play is
    legal without a search. None when they are not, or leave a die unused (only the full search can
    tell then)."""
    a, b = check_dice(dice)
    left = [a] * 4 if a == b else [a, b]
    if len(moves) != len(left):
        return None
    step = _STEPS[position.variant]
    state = encode(position)
    made: list[Move] = []
    for move in moves:
        for die in sorted(set(left), key=lambda d: d != move.source - move.target):  # the exact die first
            found = next(((new, raw) for new, raw in step(state, die, move.source) if raw[1] == move.target), None)
            if found is not None:
                state = found[0]
                made.append(_MOVE[found[1]])
                left.remove(die)
                break
        else:
            return None
    return (state, tuple(made)) if play_allowed(position.variant, state) else None


def play_allowed(variant: Variant, state: State) -> bool:
    """Whether a state that used every die is a legal play's result (the Rungammon prime rules)."""
    return variant is not Variant.RUNGAMMON or _prime_allowed(state)


def legal_states(position: Position, dice: Sequence[int]) -> dict[State, tuple[Move, ...]]:
    """The legal plays as the states they produce (see `encode`) and their moves, without building
    positions: for checking a play's result fast. `encode(play.position)` is a play's state."""
    move = _MOVE.__getitem__
    return {state: tuple(map(move, moves)) for state, moves in _found(position, dice).items()}


def count_plays(position: Position, dice: Sequence[int]) -> int:
    """The number of legal plays, without building their positions."""
    return len(_found(position, dice))


def _found(position: Position, dice: Sequence[int]) -> Found:
    a, b = check_dice(dice)
    step = _STEPS[position.variant]
    allowed = _prime_allowed if position.variant is Variant.RUNGAMMON else None
    return _search(encode(position), a, b, step, allowed)


def _search(start: State, a: int, b: int, step: Callable[[State, int], Iterator[tuple[State, RawMove]]],
            allowed: Callable[[State], bool] | None) -> Found:
    def keep(found: Found) -> Found:
        return {s: m for s, m in found.items() if allowed(s)} if allowed else found

    if a == b:
        best: Found = {}
        level: Found = {start: ()}
        for _ in range(4):
            deeper: Found = {}
            for state, moves in level.items():
                for new, move in step(state, a):
                    if new not in deeper:
                        deeper[new] = moves + (move,)
            if not deeper:
                break
            level = deeper
            best = keep(deeper) or best
        return best
    high, low = max(a, b), min(a, b)
    both: Found = {}
    only: dict[int, Found] = {high: {}, low: {}}
    for first, second in ((high, low), (low, high)):
        singles = only[first]
        for new, move in step(start, first):
            if new in singles:
                continue
            singles[new] = (move,)
            for new2, move2 in step(new, second):
                if new2 not in both:
                    both[new2] = (move, move2)
    return keep(both) or keep(only[high]) or keep(only[low])


# -- encoding -----------------------------------------------------------------

@lru_cache(maxsize=4096)
def _code(stack: str, mine: str) -> int:
    if not stack:
        return 0
    trapped = stack[0] != stack[-1]
    return len(stack) - trapped + (0 if stack[-1] == mine else THEIRS) + (TRAPPING if trapped else 0)


def _stack(code: int, mine: str, theirs: str) -> str:
    n = code & 15
    return {0: mine * n, THEIRS: theirs * n, TRAPPING: theirs + mine * n,
            TRAPPED: mine + theirs * n}[code & 48]


_STACKS = {(m, t): tuple(_stack(c, m, t) for c in range(64)) for m, t in (("w", "b"), ("b", "w"))}


def _getter(indexes: Sequence[int]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    return itemgetter(*indexes)


# Board points (index 0 = board point 1) taken from the mover's own points 1-24, and back.
_OWN_ORDER = {key: _getter([table[p] - 1 for p in range(1, 25)]) for key, table in OWN_TO_BOARD.items()}
_BOARD_ORDER = {key: _getter([BOARD_TO_OWN[key][b] for b in range(1, 25)]) for key in OWN_TO_BOARD}


@lru_cache(maxsize=256)
def encode(position: Position) -> State:
    me = position.turn.index
    mine = "w" if me == 0 else "b"
    stacks = _OWN_ORDER[position.variant, position.turn](position.points)
    codes = [_code(stack, mine) for stack in stacks]
    return bytes((position.off[me], *codes, position.bar[me], position.bar[1 - me], position.off[1 - me]))


def _decoder(template: Position) -> Callable[[State], Position]:
    """Turns states into positions with the template's variant and turn (set up once per turn)."""
    variant, turn = template.variant, template.turn
    white_moves = turn is Color.WHITE
    stacks = (_STACKS["w", "b"] if white_moves else _STACKS["b", "w"]).__getitem__
    board_order = _BOARD_ORDER[variant, turn]
    new, setattr_ = object.__new__, object.__setattr__

    def to_position(state: State) -> Position:
        mine_bar, their_bar, mine_off, their_off = state[MY_BAR], state[THEIR_BAR], state[MY_OFF], state[THEIR_OFF]
        # Built from a valid position by legal moves: skip re-validation.
        pos = new(Position)
        setattr_(pos, "variant", variant)
        setattr_(pos, "turn", turn)
        setattr_(pos, "points", tuple(map(stacks, board_order(state))))
        setattr_(pos, "bar", (mine_bar, their_bar) if white_moves else (their_bar, mine_bar))
        setattr_(pos, "off", (mine_off, their_off) if white_moves else (their_off, mine_off))
        return pos

    return to_position


def decode(state: State, template: Position) -> Position:
    """The position a state stands for, with the template's variant and turn."""
    return _decoder(template)(state)


# -- single moves -------------------------------------------------------------

def _highest_home(s: State) -> int:
    for p in range(6, 0, -1):
        if HAS_MINE[s[p]]:
            return p
    return 0


def _bar_entry(s: State, d: int, arrive: tuple[int, ...], source: int = 0) -> Iterator[tuple[State, RawMove]]:
    if source not in (0, BAR):
        return
    q = BAR - d
    code = s[q]
    new = arrive[code]
    if new >= 0:
        n = bytearray(s)
        n[MY_BAR] -= 1
        n[q] = new
        hit = code == THEIRS + 1
        if hit:
            n[THEIR_BAR] += 1
        yield bytes(n), (BAR, q, hit)


def _moves(s: State, d: int, arrive: tuple[int, ...], home: bool,
           start_closed: bool, hits_to_bar: bool, source: int = 0) -> Iterator[tuple[State, RawMove]]:
    highest = _highest_home(s) if home else 0
    for p in (source,) if 0 < source < BAR else () if source else range(24, 0, -1):
        code = s[p]
        if not FREE[code] or (p == 24 and start_closed):
            continue
        q = p - d
        if q > 0:
            target = s[q]
            new = arrive[target]
            if new < 0:
                continue
            n = bytearray(s)
            n[p] = LEAVE[code]
            n[q] = new
            hit = target == THEIRS + 1
            if hit and hits_to_bar:
                n[THEIR_BAR] += 1
            yield bytes(n), (p, q, hit)
        elif home and (q == 0 or p == highest):
            n = bytearray(s)
            n[p] = LEAVE[code]
            n[MY_OFF] += 1
            yield bytes(n), (p, 0, False)


_BG_ARRIVE = _ARRIVE[Variant.BACKGAMMON]
_CG_ARRIVE = _ARRIVE[Variant.CATCHGAMMON]
_RG_ARRIVE = _ARRIVE[Variant.RUNGAMMON]


def _bg_step(s: State, d: int, source: int = 0) -> Iterator[tuple[State, RawMove]]:
    if s[MY_BAR]:
        return _bar_entry(s, d, _BG_ARRIVE, source)
    home = 1 not in s[7:25].translate(HAS_MINE)
    return _moves(s, d, _BG_ARRIVE, home, False, True, source)


def _cg_step(s: State, d: int, source: int = 0) -> Iterator[tuple[State, RawMove]]:
    # Bearing off: every checker home, and none trapped.
    home = 1 not in s[7:25].translate(HAS_MINE) and 1 not in s[1:7].translate(MINE_TRAPPED)
    return _moves(s, d, _CG_ARRIVE, home, False, False, source)


def _rg_step(s: State, d: int, source: int = 0) -> Iterator[tuple[State, RawMove]]:
    home = 1 not in s[7:25].translate(HAS_MINE)
    # Only one checker may leave the start until one has passed the opponent's start.
    passed = s[MY_OFF] > 0 or 1 in s[1:12].translate(HAS_MINE)
    start_closed = not passed and FREE[s[24]] + s[MY_OFF] < CHECKERS
    return _moves(s, d, _RG_ARRIVE, home, start_closed, False, source)


_STEPS = {Variant.BACKGAMMON: _bg_step, Variant.CATCHGAMMON: _cg_step, Variant.RUNGAMMON: _rg_step}

_SIX = b"\x01" * 6


def _prime_allowed(s: State) -> bool:
    """The Rungammon prime rules, judged on the position a play produces."""
    own = s[1:25]
    held_own = own.translate(HAS_MINE)  # index p - 1 for my own point p
    if 0 not in held_own[18:24]:
        return False  # all six points of the own starting table
    if held_own.count(1) < 6:
        return True
    # Along the opponent's path (index q - 1 for their own point q) my points turn by 12.
    held = held_own[12:] + held_own[:12]
    run_start = held.find(_SIX)
    if run_start < 0:
        return True
    theirs_own = own.translate(HAS_THEIRS)
    theirs = theirs_own[12:] + theirs_own[:12]
    lowest_theirs = theirs.find(1)
    highest_theirs = theirs.rfind(1)
    while run_start >= 0:
        behind = highest_theirs > run_start + 5
        ahead = s[THEIR_OFF] > 0 or 0 <= lowest_theirs < run_start  # borne off counts as ahead
        if behind and not ahead:
            return False  # a prime with opponents behind it and none ahead
        run_start = held.find(_SIX, run_start + 1)
    return True
