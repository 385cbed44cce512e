"""The boards on the way to one roll's legal plays, and what a board looks like to the sensors.

A hand makes a play one checker at a time, so the stable boards of a turn pass by the boards
of some order of the play's single moves; a Backgammon hit also shows half done (the hitting
checker down with the hit one still under it, or the hit one on the bar with the hitter not yet
moved). `BoardsOnTheWay` lists them for the reconciler. The single moves are walked on the engine's
compact states (the kernel's single moves, `game.movegen.kernel_steps`); keys (what the
sensors tell) are made for the boards on the ways that lead to a legal play, and a board
(`Layout`) or a way's `DieMove`s only when a verdict names them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from operator import attrgetter
from typing import cast

from game.board import OWN_TO_BOARD, Variant
from game.explain import DieMove
from game.movegen import MOVES, LegalPlays, State, encode, kernel_walk
from game.movegen.state import THEIR_BAR, VARIANT_INDEX
from game.position import Position
from game.zones import BAR_ZONE, Capability, Layout, View, state_layouts, state_views

Key = tuple[object, ...]
"""What a board of one capability senses, cheaply comparable: stacks, (white, black) pairs or counts."""
HalfBoard = tuple[bool, State, int]
"""A hit half done, no position: (hitter down on the blot, else the blot on the bar first; the
state after the hit, else before it; the layout index of the hit point)."""
StateNode = bytes
"""A board on the way: the engine's state, then the dice not yet used, a byte each (bytes keep
their hash: the walk looks nodes up thousands of times)."""
HalfNode = tuple[HalfBoard, bytes]  # a hit half done, and the dice not yet used
Node = StateNode | HalfNode
Moves = dict[StateNode, list[tuple[bytes, int, StateNode]]]  # each node's single moves: raw move, die, child
SIZE = 28  # bytes of a state


class _Colours(dict[str, tuple[int, int]]):
    """(white, black) of each stack, worked out once per stack."""

    def __missing__(self, stack: str) -> tuple[int, int]:
        white = stack.count("w")
        pair = self[stack] = (white, len(stack) - white)
        return pair


_COLOURS = _Colours()


def _zone_key(capability: Capability) -> Callable[[str], object]:
    """What sensors of `capability` tell of one zone's stack."""
    if capability is Capability.STACKS:
        return str
    return len if capability is Capability.COUNTS else _COLOURS.__getitem__


def board_key(board: Layout, capability: Capability) -> Key:
    """What sensors of `capability` tell of a board."""
    return board if capability is Capability.STACKS else tuple(map(_zone_key(capability), board))


def view_key(view: View, capability: Capability) -> Key:
    """The key of a sensed view, comparable with `board_key`."""
    if capability is Capability.STACKS:
        return tuple(map(_STACK, view))
    if capability is Capability.COUNTS:
        return tuple(map(_COUNT, view))
    return tuple(map(_PAIR, view))


_STACK, _COUNT, _PAIR = attrgetter("stack"), attrgetter("count"), attrgetter("white", "black")


class BoardsOnTheWay:
    """Every way to one roll's legal plays, by single moves in any order of the dice.

    `first(key)` is the first board on the way (in the order of the moves' search) that looks
    like `key`, `way(node)` the dice moves of the first way to it, `passes(result, seen)`
    whether some way to a result shows the boards seen, in order.
    """

    def __init__(self, position: Position, dice: tuple[int, int], plays: LegalPlays, capability: Capability) -> None:
        self.position = position
        self.capability = capability
        self._layout_of = state_layouts(position)
        high, low = sorted(dice, reverse=True)
        self.root: StateNode = encode(position) + bytes((high,) * 4 if high == low else (high, low))
        self.results = frozenset(plays.states)
        me, them = position.turn, position.turn.opponent
        self._hit_point = OWN_TO_BOARD[position.variant, me]  # board point of the mover's own point
        self._their_bar, self._their = BAR_ZONE[them] - 1, them.char
        self._mixed = them.char + me.char  # the hitter down on the blot
        moves, first, levels = kernel_walk()(self.root, VARIANT_INDEX[position.variant], plays.dice_played)
        self._moves: Moves = moves
        """Each board's single moves (raw move, die, board after), in the order of the walk."""
        self._first = cast(dict[Node, tuple[Node, bytes, int] | tuple[Node, None, int]], first)
        """The first edge into each board in the order of the walk, parents before children (its
        parent, raw move or None for the blot going to the bar, die): the first way's last step."""
        self._good = self._leading(levels)
        self._boards: dict[State, Layout] = {}
        key_of = state_views(position, _zone_key(capability))
        self._state_keys = {state: key_of(state) for state in {node[:SIZE] for node in self._good}}
        self._half_keys: dict[HalfBoard, Key] = {}
        self._half_edges: list[tuple[Node, Node, Node]] = []  # parent, half-done board, child
        self._partial: dict[Key, list[Node]] = {}
        """The boards on the way that have a board after them, by key, in the order walked."""
        self._index()
        self._next: dict[Node, list[Node]] | None = None  # the boards after each, made when first asked

    # -- what the reconciler asks ------------------------------------------------

    def board(self, node: Node | State) -> Layout:
        """The board of a node or a state."""
        if isinstance(node, bytes):
            state = node[:SIZE]
            board = self._boards.get(state)
            if board is None:
                board = self._boards[state] = self._layout_of(state)
            return board
        down, state, point = node[0]
        stacks = list(self.board(state))
        bar = self._their_bar
        stacks[point], stacks[bar] = (self._mixed, stacks[bar][1:]) if down else ("", stacks[bar] + self._their)
        return tuple(stacks)

    def state_key(self, state: State) -> Key:
        """What the sensors tell of the board of a state on the way."""
        return self._state_keys[state]

    def key(self, node: Node) -> Key:
        """What the sensors tell of a node's board."""
        return self._state_keys[node[:SIZE]] if isinstance(node, bytes) else self._half_keys[node[0]]

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

    def way(self, node: Node) -> tuple[DieMove, ...]:
        """The dice moves of the first way to a node."""
        steps: list[DieMove] = []
        while node != self.root:
            node, raw, die = self._first[node]
            if raw is not None:
                steps.append(DieMove(MOVES[raw], die))
        return tuple(reversed(steps))

    def passes(self, result: State, seen: Sequence[Key]) -> bool:
        """Some way to `result` shows the `seen` boards in this order (others between); keys
        that look like no board on the way are left out of `seen`."""
        seen = [key for key in seen if key in self._partial]
        after = self._after()

        @cache
        def walk(node: Node, matched: int) -> bool:
            if matched < len(seen) and self.key(node) == seen[matched]:
                matched += 1
            if node not in after:
                return isinstance(node, bytes) and matched == len(seen) and node[:SIZE] == result
            return any(walk(child, matched) for child in after[node])

        return walk(self.root, 0)

    # -- the walk --------------------------------------------------------------------

    def _leading(self, levels: list[dict[StateNode, None]]) -> set[StateNode]:
        """The nodes some way leads on from to a legal play's result (the parent that first
        reached a node then leads on too: its first edge is a way's)."""
        moves = self._moves
        good = {node for node in levels[-1] if node[:SIZE] in self.results} if len(levels) > 1 else set()
        for level in reversed(levels[:-1]):
            good.update(node for node in level if any(child in good for _, _, child in moves[node]))
        return good

    def _index(self) -> None:
        """The boards on the way by key, in the order walked; in Backgammon the half-done hits
        of the ways' hitting moves, each after the board it leaves."""
        good, partial, state_keys = self._good, self._partial, self._state_keys
        hits = self.position.variant is Variant.BACKGAMMON
        for node, out in self._moves.items():
            if node not in good:
                continue
            if node != self.root:
                partial.setdefault(state_keys[node[:SIZE]], []).append(node)
            if hits:
                for raw, die, child in out:
                    if raw[2] and child in good:
                        self._half_done(node, raw, die, child)

    def _half_done(self, parent: StateNode, raw: bytes, die: int, child: StateNode) -> None:
        """The boards between parent and child when the move hits: the hitter down on the blot,
        or the blot on the bar first. Their keys are the child's or the parent's with the hit
        point and the bar changed."""
        point = self._hit_point[raw[1]] - 1
        for down, node in ((True, child), (False, parent)):
            half: HalfBoard = (down, node[:SIZE], point)
            half_node = (half, node[SIZE:])
            self._half_edges.append((parent, half_node, child))
            if half_node in self._first:
                continue
            self._first[half_node] = (parent, raw, die) if down else (parent, None, die)
            key = self._half_keys.get(half)
            if key is None:
                key = self._half_keys[half] = self._half_key(half)
            self._partial.setdefault(key, []).append(half_node)

    def _half_key(self, half: HalfBoard) -> Key:
        down, state, point = half
        on_bar = state[THEIR_BAR] - 1 if down else state[THEIR_BAR] + 1
        key = list(self._state_keys[state])
        key[point], key[self._their_bar] = board_key((self._mixed if down else "", self._their * on_bar),
                                                     self.capability)
        return tuple(key)

    def _after(self) -> dict[Node, list[Node]]:
        """The boards that can follow each board on the way; made when first asked."""
        if self._next is None:
            good = self._good
            self._next = {node: [child for _, _, child in out if child in good]
                          for node, out in self._moves.items() if node in good}
            for parent, half, child in self._half_edges:
                self._next[parent].append(half)
                self._next.setdefault(half, []).append(child)
        return self._next
