"""The pure-Python kernel of the move generator: single moves, the search over dice orders, and
the per-point tables the compiled kernel (`_kernel.c`) is given at import.

It works on the compact states of `game.movegen.state` (28 bytes, from the mover's side). Each
variant differs only in where a checker may land (`ARRIVE`) and in a few conditions on
leaving; the search over dice orders, the "as many dice as possible, the larger if only one"
rule and the deduplication by resulting position are shared. A move is 3 bytes (source,
target, hit) in the mover's own numbering; a play's moves are their concatenation.

The kernel interface, the same in both kernels (rules: the variant, 0 Backgammon, 1 Catchgammon,
2 Rungammon, the order of `game.board.Variant`, plus 4 for the mother-checker rule: see
`game.movegen.state.kernel_rules`):

    encode(position) -> state                          the position from the mover's side
    encode_document(doc) -> state or None              a position document in its usual form
    plays(state, rules, d1, d2) -> (states, moves)     each legal play's resulting state and
                                                        its moves, in the order found
    count(state, rules, d1, d2) -> int                 how many legal plays
    steps(state, rules, die) -> ((state, move), ...)   each legal single move of one die
    gather(state, tables, order) -> tuple              tables[k][state[order[k]]] for each k
    walk(root, rules, most) -> (moves, first, levels)  every single move of the dice left
    index(root, rules, most, results, tables, order, hits) -> (legal, partial)
                                                        the results and the boards on the way to
                                                        them, by what the sensors tell of them

Under the mother-checker rule a move that traps the opponent's mother checker (a hit on my own
1-point, the opponent's starting point) while mine is free ends the game at once: the play stops
there, whatever dice are left, and counts as a whole play beside those that use the most dice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import getitem, itemgetter
from typing import Any

from game.board import BAR, CHECKERS, OWN_TO_BOARD, Color, Variant
from game.movegen.state import (
    MOTHER_CHECKER,
    MY_BAR,
    MY_OFF,
    THEIR_BAR,
    THEIR_OFF,
    THEIRS,
    TRAPPED,
    TRAPPING,
    VARIANT_BITS,
    State,
    encode,
    encode_document,
)

__all__ = ["configure_args", "count", "encode", "encode_document", "gather", "half_key", "halves", "index", "leading",
           "plays", "steps", "turn", "walk"]
RawMove = bytes
SIZE = 28
"""Bytes of a state."""
"""One move, 3 bytes: source (25 = bar), target (0 = off), 1 for a hit or a trap, else 0."""
Found = dict[State, bytes]  # resulting state -> the moves that made it, in the order found
Step = Callable[[State, int], Iterator[tuple[State, RawMove]]]


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


ARRIVE = (_table(_arrive_backgammon), _table(_arrive_catchgammon), _table(_arrive_rungammon))
"""Where a checker lands, by variant index: the point's new code, -1 when it may not."""

# One 3-byte move per (source, target, hit), shared by every play.
_RAW = {(p, q, hit): bytes((p, q, hit)) for p in range(26) for q in range(26) for hit in (False, True)}


# -- single moves -------------------------------------------------------------

def _highest_home(s: State) -> int:
    for p in range(6, 0, -1):
        if HAS_MINE[s[p]]:
            return p
    return 0


def _bar_entry(s: State, d: int, arrive: tuple[int, ...]) -> Iterator[tuple[State, RawMove]]:
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
        yield bytes(n), _RAW[BAR, q, hit]


def _moves(s: State, d: int, arrive: tuple[int, ...], home: bool,
           start_closed: bool, hits_to_bar: bool) -> Iterator[tuple[State, RawMove]]:
    highest = _highest_home(s) if home else 0
    for p in range(24, 0, -1):
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
            yield bytes(n), _RAW[p, q, hit]
        elif home and (q == 0 or p == highest):
            n = bytearray(s)
            n[p] = LEAVE[code]
            n[MY_OFF] += 1
            yield bytes(n), _RAW[p, 0, False]


_BG_ARRIVE, _CG_ARRIVE, _RG_ARRIVE = ARRIVE


def _bg_step(s: State, d: int) -> Iterator[tuple[State, RawMove]]:
    if s[MY_BAR]:
        return _bar_entry(s, d, _BG_ARRIVE)
    home = 1 not in s[7:25].translate(HAS_MINE)
    return _moves(s, d, _BG_ARRIVE, home, False, True)


def _cg_step(s: State, d: int) -> Iterator[tuple[State, RawMove]]:
    # Bearing off: every checker home, and none trapped.
    home = 1 not in s[7:25].translate(HAS_MINE) and 1 not in s[1:7].translate(MINE_TRAPPED)
    return _moves(s, d, _CG_ARRIVE, home, False, False)


def _rg_step(s: State, d: int) -> Iterator[tuple[State, RawMove]]:
    home = 1 not in s[7:25].translate(HAS_MINE)
    # Only one checker may leave the start until one has passed the opponent's start.
    passed = s[MY_OFF] > 0 or 1 in s[1:12].translate(HAS_MINE)
    start_closed = not passed and FREE[s[24]] + s[MY_OFF] < CHECKERS
    return _moves(s, d, _RG_ARRIVE, home, start_closed, False)


STEPS: tuple[Step, Step, Step] = (_bg_step, _cg_step, _rg_step)

_SIX = b"\x01" * 6


def prime_allowed(s: State) -> bool:
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


# -- the search over dice orders ---------------------------------------------------

RUNGAMMON = 2


def mother_trapped(s: State, move: RawMove) -> bool:
    """Whether `move`, which made `s`, trapped the opponent's mother checker while mine is free:
    a trap on my own 1-point (the opponent's start, where a lone checker of theirs is its last one
    there), my own 24-point holding no checker of mine trapped."""
    return move[1] == 1 and move[2] == 1 and not TRAPPED < s[24] < 64


def _search(start: State, a: int, b: int, step: Step, allowed: Callable[[State], bool] | None,
            ends: Callable[[State, RawMove], bool] | None = None) -> Found:
    """The legal plays: `allowed` judges a play's result (the Rungammon primes), `ends` a move that
    ends the game at once (the mother checker): such a play stops there and is kept, after the
    plays that use the most dice. A die that only such a move can play still counts as playable:
    a play that leaves it unplayed is no whole play."""
    def keep(found: Found) -> Found:
        return {s: m for s, m in found.items() if allowed(s)} if allowed else found

    ended: Found = {}
    if a == b:
        best = _search_doubles(start, a, step, keep, ends, ended)
    else:
        best = _search_two_dice(start, max(a, b), min(a, b), step, keep, ends, ended)
    return {**best, **ended} if ended else best


def _search_doubles(start: State, die: int, step: Step, keep: Callable[[Found], Found],
                    ends: Callable[[State, RawMove], bool] | None, ended: Found) -> Found:
    """A double: the plays using the most of four moves of `die` that `keep` admits; plays that end
    the game on the way go into `ended`."""
    best: Found = {}
    level: Found = {start: b""}
    for _ in range(4):
        deeper: Found = {}
        ending = len(ended)
        for state, moves in level.items():
            for new, move in step(state, die):
                if ends is not None and ends(new, move):
                    ended.setdefault(new, moves + move)
                elif new not in deeper:
                    deeper[new] = moves + move
        if not deeper:
            if len(ended) > ending:
                best = {}  # this die could be played, by ending the game: stopping short is no play
            break
        level = deeper
        best = keep(deeper) or best
    return best


def _search_two_dice(start: State, high: int, low: int, step: Step, keep: Callable[[Found], Found],
                     ends: Callable[[State, RawMove], bool] | None, ended: Found) -> Found:
    """Two different dice: both if they can be played, else the higher, else the lower (that `keep`
    admits); a first move that ends the game goes into `ended` (and, by the higher die, counts as
    playing the higher)."""
    both: Found = {}
    only: dict[int, Found] = {high: {}, low: {}}
    high_ends = False
    for first, second in ((high, low), (low, high)):
        singles = only[first]
        for new, move in step(start, first):
            if ends is not None and ends(new, move):
                ended.setdefault(new, move)
                high_ends = high_ends or first == high
                continue
            if new in singles:
                continue
            singles[new] = move
            for new2, move2 in step(new, second):
                if new2 not in both:
                    both[new2] = move + move2
    return keep(both) or keep(only[high]) or ({} if high_ends else keep(only[low]))


def _found(state: State, rules: int, a: int, b: int) -> Found:
    variant = rules & VARIANT_BITS
    return _search(state, a, b, STEPS[variant], prime_allowed if variant == RUNGAMMON else None,
                   mother_trapped if rules & MOTHER_CHECKER else None)


def plays(state: State, rules: int, a: int, b: int) -> tuple[tuple[State, ...], tuple[bytes, ...]]:
    """Each legal play's resulting state and its moves (3 bytes a move), in the order found."""
    found = _found(state, rules, a, b)
    return tuple(found), tuple(found.values())


def count(state: State, rules: int, a: int, b: int) -> int:
    """How many legal plays (distinct resulting states)."""
    return len(_found(state, rules, a, b))


def steps(state: State, rules: int, die: int) -> tuple[tuple[State, RawMove], ...]:
    """Each legal single move of `die`, judged alone: the new state and the move."""
    return tuple(STEPS[rules & VARIANT_BITS](state, die))



Walked = tuple[dict[bytes, list[tuple[RawMove, int, bytes]]], dict[bytes, tuple[bytes, RawMove, int]],
               list[dict[bytes, None]]]
"""What `walk` finds: each node's single moves (raw move, die, child), the first edge into each
node (parent, raw move, die), and the nodes of each depth (dicts kept in the order found)."""


def walk(root: bytes, rules: int, most: int) -> Walked:
    """Every single move of the dice left, `most` deep, from `root`: a node is a state then the
    dice not yet played, a byte each (`game.reconcile.boards_on_the_way`); each die once per node,
    in the order the dice are left, the one played taken out of them."""
    first: dict[bytes, tuple[bytes, RawMove, int]] = {}
    levels: list[dict[bytes, None]] = [{root: None}]
    moves: dict[bytes, list[tuple[RawMove, int, bytes]]] = {}
    rests: dict[tuple[bytes, int], bytes] = {}
    single = STEPS[rules & VARIANT_BITS]
    for _ in range(most):
        level: dict[bytes, None] = {}
        for node in levels[-1]:
            state, left = node[:SIZE], node[SIZE:]
            out = moves[node] = []
            for die in dict.fromkeys(left):
                rest = rests.get((left, die))
                if rest is None:
                    rest = rests[left, die] = left.replace(bytes((die,)), b"", 1)
                for new, raw in single(state, die):
                    child = new + rest
                    out.append((raw, die, child))
                    if child not in level:
                        level[child] = None
                        first[child] = (node, raw, die)
        levels.append(level)
    return moves, first, levels


def leading(moves: dict[bytes, list[tuple[RawMove, int, bytes]]], levels: list[dict[bytes, None]],
            results: frozenset[State]) -> set[bytes]:
    """The nodes of a walk some way leads on from to a result (a node of the last depth whose state
    is in `results`); the parent that first reached a node then leads on too: its first edge is a
    way's."""
    good = {node for node in levels[-1] if node[:SIZE] in results} if len(levels) > 1 else set()
    for level in reversed(levels[:-1]):
        good.update(node for node in level if any(child in good for _, _, child in moves[node]))
    return good


Hits = tuple[bytes, int, Any, Any]
"""What `index` needs to show a Backgammon hit half done: the zone index of each of the mover's own
points (25 bytes, 0 unused), the zone index of the opponent's bar, and what the sensors tell of the
hit point with the hitter down on the blot and with it empty."""
HalfNode = tuple[tuple[bool, State, int], bytes]
"""A hit half done: (the hitter down on the blot, else the blot on the bar first; the state after
the hit, else before it; the zone index of the hit point), then the dice not yet used."""
Key = tuple[Any, ...]
Index = tuple[dict[Key, list[int]], dict[Key, list[bytes | HalfNode]]]
"""What `index` finds: the results' indexes by key, and the boards on the way by key."""


def half_key(key: Key, down: bool, state: State, point: int, hits: Hits,
             tables: tuple[tuple[Any, ...], ...]) -> Key:
    """The key of a hit half done (`HalfNode`) from the key of its state: the hit point and the
    opponent's bar as they stand between the two."""
    bar = hits[1]
    zones = list(key)
    zones[point] = hits[2] if down else hits[3]
    zones[bar] = tables[bar][state[THEIR_BAR] - 1 if down else state[THEIR_BAR] + 1]
    return tuple(zones)


def halves(parent: bytes, raw: RawMove, child: bytes, hits: Hits) -> tuple[tuple[bool, bytes, HalfNode], ...]:
    """The boards between parent and child when the move `raw` hits: the hitter down on the blot
    (after the child's state), then the blot on the bar first (after the parent's); each with the
    node it is made from."""
    point = hits[0][raw[1]]
    return ((True, child, ((True, child[:SIZE], point), child[SIZE:])),
            (False, parent, ((False, parent[:SIZE], point), parent[SIZE:])))


def index(root: bytes, rules: int, most: int, results: tuple[State, ...], tables: tuple[tuple[Any, ...], ...],
          order: bytes, hits: Hits | None) -> Index:
    """The boards of one roll as the reconciler looks them up (`game.reconcile.boards_on_the_way`):
    each result's index in `results` by its key (`gather(state, tables, order)`: what the sensors
    tell of it), and by key the boards on the way of the `walk` from `root` (`most` deep) that lead
    on to a result (`leading`) and have a board after them, the root left out, in the order walked;
    with `hits`, after each board the halves of its hitting moves that lead on (`halves`: each
    once, keyed by `half_key`)."""
    moves, _, levels = walk(root, rules, most)
    good = leading(moves, levels, frozenset(results))
    legal: dict[Key, list[int]] = {}
    for i, state in enumerate(results):
        legal.setdefault(gather(state, tables, order), []).append(i)
    partial: dict[Key, list[bytes | HalfNode]] = {}
    seen: set[HalfNode] = set()
    for node, out in moves.items():
        if node not in good:
            continue
        if node != root:
            partial.setdefault(gather(node, tables, order), []).append(node)
        if hits is None:
            continue
        for raw, _, child in out:
            if raw[2] and child in good:
                for down, made, half in halves(node, raw, child, hits):
                    if half not in seen:
                        seen.add(half)
                        key = half_key(gather(made, tables, order), down, made, half[0][2], hits, tables)
                        partial.setdefault(key, []).append(half)
    return legal, partial


def turn(state: State, rules: int, a: int, b: int, tables: tuple[tuple[Any, ...], ...], order: bytes,
         hits: Hits | None) -> tuple[tuple[State, ...], tuple[bytes, ...], dict[Key, list[int]],
                                     dict[Key, list[bytes | HalfNode]]]:
    """`plays` of a roll and the `index` of their results and the boards on the way to them (from
    the state with the roll's dice, larger first, each of a double: `game.reconcile`'s root), at
    once. The compiled kernel finds the plays by the index's own walk, in the same order."""
    states, moves = plays(state, rules, a, b)
    high, low = (a, b) if a >= b else (b, a)
    root = state + bytes((high,) * 4 if high == low else (high, low))
    legal, partial = index(root, rules, len(moves[0]) // 3 if moves else 0, states, tables, order, hits)
    return states, moves, legal, partial


_GETTERS: dict[bytes, Callable[[State], Any]] = {}


def gather(state: State, tables: tuple[tuple[Any, ...], ...], order: bytes) -> tuple[Any, ...]:
    """tables[k][state[order[k]]] for each k: a position's stacks, or what sensors see of them."""
    getter = _GETTERS.get(order)
    if getter is None:
        getter = _GETTERS[order] = itemgetter(*order) if len(order) > 1 else lambda s: (s[order[0]],)
    return tuple(map(getitem, tables, getter(state)))


def configure_args() -> tuple[object, ...]:
    """What the compiled kernel's `configure` takes: the per-code tables (64 bytes each, 255 for
    -1), the Variant and Color members, and each own point's index in `Position.points`."""
    tables = (*(bytes(x & 0xFF for x in table) for table in (FREE, LEAVE, *ARRIVE)),
              HAS_MINE[:64], MINE_TRAPPED[:64], HAS_THEIRS[:64])
    own_to_index = bytes(0 if p == 0 else OWN_TO_BOARD[variant, colour][p] - 1
                         for variant in Variant for colour in (Color.WHITE, Color.BLACK) for p in range(25))
    return (*tables, tuple(Variant), (Color.WHITE, Color.BLACK), own_to_index)
