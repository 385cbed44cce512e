"""The boards on the way to one roll's legal plays, and what a board looks like to the sensors.

A hand makes a play one checker at a time, so the stable boards of a turn pass by the boards
of some order of the play's single moves; a Backgammon hit also shows half done (the hitting
checker down with the hit one still under it, or the hit one on the bar with the hitter not yet
moved). `BoardsOnTheWay` lists them for the reconciler. The single moves are walked on the engine's
compact states; at the roll the kernel (`game.movegen.legal_plays_indexed`) finds the legal plays
and, by the same walk, makes only the keys (what the sensors tell) of their results and of the
boards on the ways that lead to them; the ways themselves (`game.movegen.kernel_walk`), a board
(`Layout`) or a way's `DieMove`s only when a verdict names them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from operator import attrgetter
from typing import cast

from game.board import OWN_TO_BOARD, Color, Variant
from game.explain import DieMove
from game.movegen import (
    MOVES,
    LegalPlays,
    State,
    encode,
    kernel_gather,
    kernel_walk,
    legal_plays_indexed,
)
from game.movegen.pure import HalfNode, Hits, half_key, halves, leading
from game.movegen.state import VARIANT_INDEX
from game.position import Position
from game.zones import BAR_ZONE, Capability, Layout, View, ZoneReading, state_view_tables

Key = tuple[object, ...]
"""What a board of one capability senses, cheaply comparable and hashed: stacks, counts, or each
zone's (white, black) as one int (`colours_code`)."""
StateNode = bytes
"""A board on the way: the engine's state, then the dice not yet used, a byte each (bytes keep
their hash: the walk looks nodes up thousands of times)."""
Node = StateNode | HalfNode
"""A board on the way, or a hit half done (`game.movegen.pure.HalfNode`)."""
SIZE = 28  # bytes of a state


COLOURS_SHIFT = 4
_HUGE = 1 << COLOURS_SHIFT


def colours_code(white: int, black: int) -> int | tuple[int, int]:
    """A zone's (white, black) as one int, equal exactly when the pairs are: a roll's index hashes
    dozens of 28-zone keys, and a tuple of pairs costs ten times as much to hash as one of ints
    (every code of a board is a small int, shared and hashed at once). A black count no board
    holds (16 or more) stays a pair, still told apart from every code."""
    return white << COLOURS_SHIFT | black if black < _HUGE else (white, black)


def colours_of(code: object) -> tuple[int, int]:
    """The (white, black) of a `colours_code`."""
    if isinstance(code, int):
        return code >> COLOURS_SHIFT, code & (_HUGE - 1)
    return cast(tuple[int, int], code)


class _Colours(dict[str, int | tuple[int, int]]):
    """The `colours_code` of each stack, worked out once per stack."""

    def __missing__(self, stack: str) -> int | tuple[int, int]:
        white = stack.count("w")
        code = self[stack] = colours_code(white, len(stack) - white)
        return code


_COLOURS = _Colours()


def zone_key(capability: Capability) -> Callable[[str], object]:
    """What sensors of `capability` tell of one zone's stack."""
    if capability is Capability.STACKS:
        return str
    return len if capability is Capability.COUNTS else _COLOURS.__getitem__


@lru_cache(maxsize=64)
def hits_seen(variant: Variant, turn: Color, zone: Callable[[str], object]) -> Hits | None:
    """How a hit by `turn` shows half done to sensors telling `zone` of a stack, for the kernel's
    index (`game.movegen.pure.Hits`); None where no hit shows half done (only a Backgammon hit
    sends a checker to the bar)."""
    if variant is not Variant.BACKGAMMON:
        return None
    them = turn.opponent
    to_board = OWN_TO_BOARD[variant, turn]
    return (bytes([0] + [to_board[point] - 1 for point in range(1, 25)]), BAR_ZONE[them] - 1,
            zone(them.char + turn.char), zone(""))


@lru_cache(maxsize=64)
def _seen_by(variant: Variant, turn: Color, capability: Capability) -> tuple[
        tuple[tuple[object, ...], ...], bytes, Hits | None, int, str, str]:
    """What a roll's boards are seen with, the same for every roll of one player at one table: the
    kernel's tables and order (`game.zones.state_view_tables`) and `hits_seen`, the opponent's bar
    (its zone index), the opponent's letter, and the hitter down on the blot."""
    zone = zone_key(capability)
    tables, order = state_view_tables(variant, turn, zone)
    them = turn.opponent
    return tables, order, hits_seen(variant, turn, zone), BAR_ZONE[them] - 1, them.char, them.char + turn.char


def board_key(board: Layout, capability: Capability) -> Key:
    """What sensors of `capability` tell of a board."""
    return board if capability is Capability.STACKS else tuple(map(zone_key(capability), board))


def view_key(view: View, capability: Capability) -> Key:
    """The key of a sensed view, comparable with `board_key`."""
    if capability is Capability.STACKS:
        return tuple(map(_STACK, view))
    if capability is Capability.COUNTS:
        return tuple(map(_COUNT, view))
    key = _colours_key(view)
    assert key is not None, "a view at COLOR_COUNTS tells every zone's colours"
    return key


def sensed_key(zones: tuple[ZoneReading, ...], capability: Capability) -> Key | None:
    """The key of readings told at `capability` or above (`view_key` of them `normalised`), in one
    pass over them; None when some reading is told below it (no count: always told)."""
    if capability is Capability.COUNTS:
        return tuple(map(_COUNT, zones))
    if capability is Capability.STACKS:
        stacks = tuple(map(_STACK, zones))
        return None if None in stacks else stacks
    return _colours_key(zones)


def _colours_key(readings: Sequence[ZoneReading]) -> Key | None:
    """Each reading's `colours_code`, looked up without a call in Python per zone where every
    count is one a board holds; None when some reading tells no colours."""
    try:
        return tuple(map(_CODES.__getitem__, map(_PAIR, readings)))
    except KeyError:  # a reading told below COLOR_COUNTS, or a count no board holds
        pairs = tuple(map(_PAIR, readings))
        return None if _NO_COLOURS in pairs else tuple(colours_code(white, black) for white, black in pairs)


_STACK, _COUNT, _PAIR = attrgetter("stack"), attrgetter("count"), attrgetter("white", "black")
_NO_COLOURS = (None, None)
_CODES = {(white, black): white << COLOURS_SHIFT | black for white in range(_HUGE) for black in range(_HUGE)}
"""The `colours_code` of every pair of counts a zone of a board holds (15 of a colour at most)."""


class BoardsOnTheWay:
    """Every way to one roll's legal plays, by single moves in any order of the dice.

    `plays` are the roll's legal plays, `legal` their indexes by key, `first(key)` is the first
    board on the way (in the order of the moves' search) that looks like `key`, `way(node)` the
    dice moves of the first way to it, `passes(result, seen)` whether some way to a result shows
    the boards seen, in order. The plays and the keys are made at once, by the kernel from one walk
    (`game.movegen.legal_plays_indexed`); the ways themselves (each board's single moves and the
    first way to it) only when a verdict asks for them.
    """

    def __init__(self, position: Position, dice: tuple[int, int], capability: Capability) -> None:
        self.position = position
        self.capability = capability
        high, low = (dice[0], dice[1]) if dice[0] >= dice[1] else (dice[1], dice[0])
        self.root: StateNode = encode(position) + bytes((high,) * 4 if high == low else (high, low))
        self._tables, self._order, self._hits, self._their_bar, self._their, self._mixed = _seen_by(
            position.variant, position.turn, capability)
        self._gather = kernel_gather()
        # the plays found by the same walk as the boards on the way to them
        plays, (legal, partial) = legal_plays_indexed(position, dice, self._tables, self._order, self._hits)
        self.plays: LegalPlays = plays
        """The roll's legal plays."""
        self._results = plays.states
        self._most = plays.dice_played
        self.legal: dict[Key, list[int]] = legal
        """The legal plays' indexes (in `plays`) by what the sensors tell of their results."""
        self._partial: dict[Key, list[Node]] = partial
        """The boards on the way that have a board after them, by key, in the order walked."""
        self._boards: dict[State, Layout] = {}
        self._walked: _Ways | None = None  # the ways themselves, made when first asked

    # -- what the reconciler asks ------------------------------------------------

    def board(self, node: Node | State) -> Layout:
        """The board of a node or a state."""
        if isinstance(node, bytes):
            state = node[:SIZE]
            board = self._boards.get(state)
            if board is None:
                board = self._boards[state] = self._gather(state, *state_view_tables(self.position.variant,
                                                                                 self.position.turn, str))
            return board
        down, state, point = node[0]
        stacks = list(self.board(state))
        bar = self._their_bar
        stacks[point], stacks[bar] = (self._mixed, stacks[bar][1:]) if down else ("", stacks[bar] + self._their)
        return tuple(stacks)

    def key(self, node: Node) -> Key:
        """What the sensors tell of a node's board."""
        if isinstance(node, bytes):
            return self._gather(node, self._tables, self._order)
        (down, state, point), _ = node
        assert self._hits is not None  # only a Backgammon hit is seen half done
        return half_key(self._gather(state, self._tables, self._order), down, state, point, self._hits, self._tables)

    def dice_left(self, node: Node) -> tuple[int, ...]:
        """The dice not yet played at a node, largest first."""
        return tuple(node[SIZE:] if isinstance(node, bytes) else node[1])

    def played(self, node: Node) -> int:
        """How many dice moves the way to a node makes (`len(way(node))`): the dice it has used, a
        blot sent to the bar before its hitter moves using none."""
        return len(self.root) - SIZE - len(node[SIZE:] if isinstance(node, bytes) else node[1])

    def first(self, key: Key) -> Node | None:
        """The first board on the way (not the start, not a result) that looks like `key`."""
        nodes = self._partial.get(key)
        return nodes[0] if nodes else None

    def nodes(self) -> list[Node]:
        """Every board on the way to a legal play, the start and the halves of hits included."""
        return list(self._ways().first)

    def way(self, node: Node) -> tuple[DieMove, ...]:
        """The dice moves of the first way to a node."""
        first = self._ways().first
        steps: list[DieMove] = []
        while node != self.root:
            node, raw, die = first[node]
            if raw is not None:
                steps.append(DieMove(MOVES[raw], die))
        return tuple(reversed(steps))

    def passes(self, result: State, seen: Sequence[Key]) -> bool:
        """Some way to `result` shows the `seen` boards in this order (others between); keys
        that look like no board on the way are left out of `seen`."""
        seen = [key for key in seen if key in self._partial]
        after = self._ways().after
        keys: dict[Node, Key] = {}

        def key(node: Node) -> Key:
            found = keys.get(node)
            if found is None:
                found = keys[node] = self.key(node)
            return found

        @cache
        def walk(node: Node, matched: int) -> bool:
            if matched < len(seen) and key(node) == seen[matched]:
                matched += 1
            if node not in after:
                return isinstance(node, bytes) and matched == len(seen) and node[:SIZE] == result
            return any(walk(child, matched) for child in after[node])

        return walk(self.root, 0)

    # -- the ways ------------------------------------------------------------------

    def _ways(self) -> _Ways:
        """The ways to the legal plays, walked when first asked (the same walk as the index's)."""
        if self._walked is None:
            self._walked = _Ways(self.root, VARIANT_INDEX[self.position.variant], self._most,
                                 frozenset(self._results), self._hits)
        return self._walked


class _Ways:
    """The boards on the ways to a roll's results: the first edge into each (its parent, the raw
    move or None for the blot going to the bar, the die), parents before children, and the boards
    that can follow each; in Backgammon the halves of the hitting moves between parent and child."""

    def __init__(self, root: StateNode, variant: int, most: int, results: frozenset[State],
                 hits: Hits | None) -> None:
        moves, first, levels = kernel_walk()(root, variant, most)
        good = leading(moves, levels, results)
        self.first = cast(dict[Node, tuple[Node, bytes, int] | tuple[Node, None, int]], first)
        self.after: dict[Node, list[Node]] = {node: [child for _, _, child in out if child in good]
                                              for node, out in moves.items() if node in good}
        if hits is None:
            return
        for node, out in moves.items():
            if node not in good:
                continue
            for raw, die, child in out:
                if raw[2] and child in good:
                    for down, _, half in halves(node, raw, child, hits):
                        if half not in self.first:
                            self.first[half] = (node, raw, die) if down else (node, None, die)
                        self.after[node].append(half)
                        self.after.setdefault(half, []).append(child)
