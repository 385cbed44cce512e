"""Legal play generation for every variant.

Each variant encodes a position as a flat tuple of checker counts seen from the
player on roll, indexed by the mover's own point numbers, and supplies a `step`
that yields every single-checker move for one die. The search over dice orders,
the "use as many dice as possible, the larger one if only one" rule and the
deduplication by resulting position are shared.

Backgammon state (52): [0] mine off, [1..24] mine, [25] mine on bar,
    [26] opponent on bar, [26+p] opponent checkers on my own point p.
Catchgammon state (100): [0] mine off, [p] my free checkers, [25+p] opponent's
    free checkers, [50+p] 1 if my checker is trapped on p, [75+p] 1 if an
    opponent checker is trapped under mine on p.
Rungammon state (50): [0] mine off, [p] mine, [25] opponent off, [25+p] opponent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from game.board import BAR, CHECKERS, OWN_TO_BOARD, Color, Variant
from game.errors import DiceError
from game.plays import Move, Play
from game.position import Position

State = tuple[int, ...]
Step = Callable[[State, int], Iterator[tuple[State, Move]]]
Found = dict[State, tuple[Move, ...]]


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    if (len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice)):
        raise DiceError(f"dice must be two faces from 1 to 6, got {list(dice)!r}")
    return dice[0], dice[1]


def legal_plays(position: Position, dice: Sequence[int]) -> tuple[Play, ...]:
    """Every legal play, one per distinct resulting position; () when none."""
    rules = _RULES[position.variant]
    found = _search(rules.encode(position), *check_dice(dice), rules.step, rules.allowed)
    return tuple(Play(moves, rules.decode(state, position)) for state, moves in found.items())


def count_plays(position: Position, dice: Sequence[int]) -> int:
    """The number of legal plays, without building their positions."""
    rules = _RULES[position.variant]
    return len(_search(rules.encode(position), *check_dice(dice), rules.step, rules.allowed))


def _search(start: State, a: int, b: int, step: Step,
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


def _trusted(template: Position, points: list[str], bar: tuple[int, int],
             off: tuple[int, int]) -> Position:
    """A position built by the engine from a valid one: skip re-validation."""
    pos = object.__new__(Position)
    for name, value in (("variant", template.variant), ("turn", template.turn),
                        ("points", tuple(points)), ("bar", bar), ("off", off)):
        object.__setattr__(pos, name, value)
    return pos


def _ordered(color: Color, mine: int, theirs: int) -> tuple[int, int]:
    return (mine, theirs) if color is Color.WHITE else (theirs, mine)


def _highest_home(s: State) -> int:
    for p in range(6, 0, -1):
        if s[p]:
            return p
    return 0


# -- Backgammon ---------------------------------------------------------------

def _bg_encode(pos: Position) -> State:
    me, them = pos.turn, pos.turn.opponent
    table = OWN_TO_BOARD[pos.variant, me]
    s = [0] * 52
    s[0], s[BAR], s[26] = pos.off[me.index], pos.bar[me.index], pos.bar[them.index]
    for p in range(1, 25):
        stack = pos.points[table[p] - 1]
        if stack:
            s[p if stack[0] == me.char else 26 + p] = len(stack)
    return tuple(s)


def _bg_decode(s: State, pos: Position) -> Position:
    me, them = pos.turn, pos.turn.opponent
    table = OWN_TO_BOARD[pos.variant, me]
    points = [""] * 24
    for p in range(1, 25):
        points[table[p] - 1] = me.char * s[p] or them.char * s[26 + p]
    return _trusted(pos, points, _ordered(me, s[BAR], s[26]),
                    _ordered(me, s[0], pos.off[them.index]))


def _bg_step(s: State, d: int) -> Iterator[tuple[State, Move]]:
    if s[BAR]:
        q = BAR - d
        if s[26 + q] < 2:
            yield _bg_land(s, BAR, q), Move(BAR, q, s[26 + q] == 1)
        return
    home = not any(s[7:BAR])
    highest = _highest_home(s) if home else 0
    for p in range(24, 0, -1):
        if not s[p]:
            continue
        q = p - d
        if q > 0:
            if s[26 + q] < 2:
                yield _bg_land(s, p, q), Move(p, q, s[26 + q] == 1)
        elif home and (q == 0 or p == highest):
            n = list(s)
            n[p] -= 1
            n[0] += 1
            yield tuple(n), Move(p, 0)


def _bg_land(s: State, p: int, q: int) -> State:
    n = list(s)
    n[p] -= 1
    n[q] += 1
    if n[26 + q]:
        n[26 + q] = 0
        n[26] += 1
    return tuple(n)


# -- Catchgammon --------------------------------------------------------------

def _cg_encode(pos: Position) -> State:
    me = pos.turn
    table = OWN_TO_BOARD[pos.variant, me]
    s = [0] * 100
    s[0] = pos.off[me.index]
    for p in range(1, 25):
        stack = pos.points[table[p] - 1]
        if not stack:
            continue
        trapped = 1 if stack[0] != stack[-1] else 0
        mine = stack[-1] == me.char
        s[p if mine else 25 + p] = len(stack) - trapped
        s[(75 if mine else 50) + p] = trapped
    return tuple(s)


def _cg_decode(s: State, pos: Position) -> Position:
    me, them = pos.turn, pos.turn.opponent
    table = OWN_TO_BOARD[pos.variant, me]
    points = [""] * 24
    for p in range(1, 25):
        points[table[p] - 1] = (them.char * s[75 + p] + me.char * s[p]
                                or me.char * s[50 + p] + them.char * s[25 + p])
    return _trusted(pos, points, (0, 0), _ordered(me, s[0], pos.off[them.index]))


def _cg_step(s: State, d: int) -> Iterator[tuple[State, Move]]:
    home = not any(s[7:25]) and not any(s[51:75])
    highest = _highest_home(s) if home else 0
    for p in range(24, 0, -1):
        if not s[p]:
            continue
        q = p - d
        trap = False
        if q > 0:
            theirs = s[25 + q]
            if theirs >= 2 or (theirs == 1 and s[50 + q]):
                continue  # a made point, or a trapper holding my checker
            n = list(s)
            if theirs:
                trap = True
                n[25 + q] = 0
                n[75 + q] = 1
            n[q] += 1
        elif home and (q == 0 or p == highest):
            n = list(s)
            n[0] += 1
        else:
            continue
        n[p] -= 1
        if not n[p] and n[75 + p]:  # the last trapper left: the trapped checker is free
            n[75 + p] = 0
            n[25 + p] = 1
        yield tuple(n), Move(p, max(q, 0), trap)


# -- Rungammon ----------------------------------------------------------------

def _rg_encode(pos: Position) -> State:
    me, them = pos.turn, pos.turn.opponent
    table = OWN_TO_BOARD[pos.variant, me]
    s = [0] * 50
    s[0], s[25] = pos.off[me.index], pos.off[them.index]
    for p in range(1, 25):
        stack = pos.points[table[p] - 1]
        if stack:
            s[p if stack[0] == me.char else 25 + p] = len(stack)
    return tuple(s)


def _rg_decode(s: State, pos: Position) -> Position:
    me, them = pos.turn, pos.turn.opponent
    table = OWN_TO_BOARD[pos.variant, me]
    points = [""] * 24
    for p in range(1, 25):
        points[table[p] - 1] = me.char * s[p] or them.char * s[25 + p]
    return _trusted(pos, points, (0, 0), _ordered(me, s[0], s[25]))


def _rg_step(s: State, d: int) -> Iterator[tuple[State, Move]]:
    home = not any(s[7:25])
    highest = _highest_home(s) if home else 0
    # Only one checker may leave the start until one has passed the opponent's start.
    may_leave_start = s[24] + s[0] == CHECKERS or s[0] > 0 or any(s[1:12])
    for p in range(24, 0, -1):
        if not s[p] or (p == 24 and not may_leave_start):
            continue
        q = p - d
        if q > 0:
            if s[25 + q]:
                continue
            n = list(s)
            n[q] += 1
        elif home and (q == 0 or p == highest):
            n = list(s)
            n[0] += 1
        else:
            continue
        n[p] -= 1
        yield tuple(n), Move(p, max(q, 0))


# My own point of the opponent's own point q: the two paths are 12 points apart.
_MINE_AT_THEIR = (0, *(((q + 11) % 24) + 1 for q in range(1, 25)))


def _rg_allowed(s: State) -> bool:
    """The prime rules, judged on the position a play produces."""
    if all(s[19:25]):
        return False  # all six points of the own starting table
    run = 0
    lowest_theirs = 25 if not s[25] else 0  # borne-off checkers count as ahead
    highest_theirs = 0
    for q in range(1, 25):
        if s[25 + _MINE_AT_THEIR[q]]:
            lowest_theirs = min(lowest_theirs, q)
            highest_theirs = q
    for q in range(1, 25):  # q walks the opponent's path from its end backwards
        run = run + 1 if s[_MINE_AT_THEIR[q]] else 0
        if run >= 6 and highest_theirs > q and lowest_theirs > q - 5:
            return False  # a prime with opponents behind it and none ahead
    return True


@dataclass(frozen=True)
class _Rules:
    encode: Callable[[Position], State]
    decode: Callable[[State, Position], Position]
    step: Step
    allowed: Callable[[State], bool] | None = None


_RULES = {
    Variant.BACKGAMMON: _Rules(_bg_encode, _bg_decode, _bg_step),
    Variant.CATCHGAMMON: _Rules(_cg_encode, _cg_decode, _cg_step),
    Variant.RUNGAMMON: _Rules(_rg_encode, _rg_decode, _rg_step, _rg_allowed),
}
