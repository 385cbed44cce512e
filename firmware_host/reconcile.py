"""What the sensed board shows during a turn, judged against the rules: pure logic, no I/O,
time passed in.

For one turn (`TurnReconciler`) the legal plays are computed once and indexed by what a board
of the given sensing capability reports for their results (`sensed_view`), and so are the
boards on the way to them: every order of their single moves, and a Backgammon hit half
done (the hitter down on the blot, or the blot on the bar before the hitter moves). Each
stable board the controller sees (from a `Debouncer`) is judged at once:

    verdict     when                                                       code
    Untouched   no checker moved (and some play is legal)                  "  " (blank)
    Partial     on the way to a legal play, n dice still to play           P0 to P3
                (P0: a last hit to finish, the hit checker not yet on the bar)
    Legal       a legal play's result; "done" commits it                   GO
    Ambiguous   legal plays alike to these sensors, even by the order of   CH
                the boards seen: the player is asked
    Illegal     dice moves that break a rule (game.explain)                that rule's code
    Misplaced   no sequence of the roll makes this board: set checkers     SC

At "done" (`judge(zones, done=True)`) a board still Untouched or Partial is an Illegal play
that leaves dice unused (a hit left half done is Misplaced). Where sensing cannot tell boards
apart, a legal result is preferred to one on the way, both to an illegal one, and of illegal
ones the simplest explanation (game.explain) is given. Codes are two characters of the cube
display's seven-segment font (see game.explain); `zones()` names the zones to light.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from game.board import OWN_TO_BOARD, Variant
from game.explain import DieMove, Explainer, Explanation
from game.movegen import check_dice, encode, single_move_walk
from game.plays import Play, format_moves
from game.position import Position
from game.zones import (
    BAR_ZONE,
    ZONE_COUNT,
    Capability,
    Layout,
    View,
    ZoneDiff,
    ZoneReading,
    layout,
    normalised,
    view_diff,
    view_of,
)

# -- verdicts ----------------------------------------------------------------

class Verdict(abc.ABC):
    """What the sensed board shows; one of the classes below."""

    __slots__ = ()

    @abc.abstractmethod
    def short_code(self) -> str:
        """Two characters for the seven-segment display."""

    @abc.abstractmethod
    def describe(self) -> str:
        """Words for the log."""

    def zones(self) -> frozenset[int]:
        """The zones to light: where something is wrong or to be chosen."""
        return frozenset()


@dataclass(frozen=True, slots=True)
class Untouched(Verdict):
    """No checker has moved."""

    def short_code(self) -> str:
        return "  "

    def describe(self) -> str:
        return "no checker moved yet"


@dataclass(frozen=True, slots=True)
class Partial(Verdict):
    """On the way to a legal play: the dice moves made so far and the dice still to play."""

    moves: tuple[DieMove, ...]
    dice_left: tuple[int, ...]
    """The dice still to play to complete a legal play."""
    board: Layout
    """The board reached."""

    def short_code(self) -> str:
        return f"P{len(self.dice_left)}"

    def describe(self) -> str:
        left = ", ".join(map(str, self.dice_left)) or "no die, the hit checker to the bar"
        return f"partial play {format_moves([m.move for m in self.moves])}, still to play: {left}"


@dataclass(frozen=True, slots=True)
class Legal(Verdict):
    """The board is a legal play's result."""

    play: Play
    """The play to commit; no moves when the roll cannot be played."""

    def short_code(self) -> str:
        return "GO"

    def describe(self) -> str:
        return f"legal play {self.play.notation()}" if self.play.moves else "no legal play: the roll cannot be played"


@dataclass(frozen=True, slots=True)
class Ambiguous(Verdict):
    """The board is the result of several legal plays that the sensors cannot tell apart."""

    plays: tuple[Play, ...]

    def short_code(self) -> str:
        return "CH"

    def describe(self) -> str:
        names = " or ".join(play.notation() for play in self.plays)
        return f"the sensors cannot tell which legal play this is: {names}; ask the player"

    def zones(self) -> frozenset[int]:
        boards = [layout(play.position) for play in self.plays]
        return frozenset(z for z in range(1, ZONE_COUNT + 1) if len({b[z - 1] for b in boards}) > 1)


@dataclass(frozen=True, slots=True)
class Illegal(Verdict):
    """The board is made by dice moves that break a rule (the simplest explanation)."""

    explanation: Explanation

    def short_code(self) -> str:
        return self.explanation.short_code()

    def describe(self) -> str:
        return self.explanation.describe()

    def zones(self) -> frozenset[int]:
        return self.explanation.zones()


@dataclass(frozen=True, slots=True)
class Misplaced(Verdict):
    """No sequence of the roll makes this board: checkers must be set right."""

    diffs: tuple[ZoneDiff, ...]
    nearest: Explanation
    """The board of the roll (start, on the way, legal or illegal result) fewest zones away: on
    a tie, during the turn the least played, at "done" the one breaking fewest rules. The diffs
    are to it."""

    def short_code(self) -> str:
        return "SC"

    def describe(self) -> str:
        wrong = "; ".join(diff.describe() for diff in self.diffs)
        return f"set checkers: {wrong} (nearest: {self.nearest.describe()})"

    def zones(self) -> frozenset[int]:
        return frozenset(diff.zone for diff in self.diffs)


# -- one turn -----------------------------------------------------------------

Key = tuple[object, ...]
"""What a board of one capability senses, cheaply comparable: stacks, (white, black) pairs or counts."""
Node = tuple[Layout, tuple[int, ...]]  # a board on the way, and the dice not yet used
StateNode = tuple[bytes, tuple[int, ...]]  # the same, as the engine's compact state


def _board_key(board: Layout, capability: Capability) -> Key:
    if capability is Capability.STACKS:
        return board
    if capability is Capability.COUNTS:
        return tuple(map(len, board))
    return tuple(map(_colours, board))


@lru_cache(maxsize=4096)
def _colours(stack: str) -> tuple[int, int]:
    white = stack.count("w")
    return white, len(stack) - white


def _view_key(view: View, capability: Capability) -> Key:
    if capability is Capability.STACKS:
        return tuple(reading.stack for reading in view)
    if capability is Capability.COUNTS:
        return tuple(reading.count for reading in view)
    return tuple((reading.white, reading.black) for reading in view)


class TurnReconciler:
    """Judges the stable boards of one turn.

    Call `judge(zones)` with each board the `Debouncer` reports: the boards seen, in order,
    tell apart two legal plays that end alike to the sensors (the one whose way passes by
    the boards seen wins; a board seen again undoes what followed it). At the clock press,
    `judge(zones, done=True)`: only a `Legal` verdict commits.
    """

    def __init__(self, position: Position, dice: Sequence[int], capability: Capability) -> None:
        self.position = position
        self.dice = check_dice(dice)
        self.capability = capability
        self.plays = position.legal_plays(self.dice)
        self._explainer = Explainer(position, self.dice, self.plays)
        self._start = _board_key(layout(position), capability)
        self._legal: dict[Key, list[Play]] = {}
        for play in self.plays or (Play((), position),):  # no legal play: leaving the board is one
            self._legal.setdefault(self._key(layout(play.position)), []).append(play)
        self._most = max((len(play.moves) for play in self.plays), default=0)
        self._seen: list[Key] = [self._start]
        self._outcomes: dict[Key, list[Explanation]] | None = None
        self._find_ways()

    def judge(self, zones: Sequence[ZoneReading], *, done: bool = False) -> Verdict:
        """The verdict on a stable board, which is remembered as seen."""
        view = normalised(zones, self.capability)
        key = _view_key(view, self.capability)
        if key in self._seen:
            del self._seen[self._seen.index(key) + 1:]
        else:
            self._seen.append(key)
        verdict = self._classify(view, key, done)
        if done and isinstance(verdict, Untouched | Partial):
            # dice left unused, or a hit half done
            unfinished = self._explainer.explain(verdict.board if isinstance(verdict, Partial) else self.position)
            return Illegal(unfinished) if unfinished else self._misplaced(view, key, done)
        return verdict

    def _key(self, board: Layout) -> Key:
        return _board_key(board, self.capability)

    # -- classification ------------------------------------------------------

    def _classify(self, view: View, key: Key, done: bool) -> Verdict:
        plays = self._legal.get(key)
        if plays:
            plays = self._by_order(plays)
            return Legal(plays[0]) if len(plays) == 1 else Ambiguous(tuple(plays))
        if key == self._start:
            return Untouched()
        ways = self._partial.get(key)
        if ways:
            node, moves = ways[0]
            return Partial(moves, node[1][:self._most - len(moves)], node[0])
        explanation = self._illegal(view, key)
        return Illegal(explanation) if explanation else self._misplaced(view, key, done)

    def _illegal(self, view: View, key: Key) -> Explanation | None:
        if self.capability is Capability.STACKS:  # search toward the one board sensed
            explanation = self._explainer.explain(tuple(reading.stack or "" for reading in view))
            return explanation if explanation and not explanation.legal else None
        return min(self._outcomes_by_key().get(key, ()), key=_simplicity, default=None)

    def _misplaced(self, view: View, key: Key, done: bool) -> Misplaced:
        """The board of the roll fewest zones away; on a tie, during the turn the least played
        (set back, do not guess a play), at "done" the one breaking fewest rules (finish it)."""
        def rank(explanation: Explanation) -> tuple[int, int]:
            return _simplicity(explanation) if done else (len(explanation.moves), len(explanation.broken))

        def distance(item: tuple[Key, list[Explanation]]) -> tuple[int, int, int]:
            differing = sum(a != b for a, b in zip(key, item[0], strict=True))
            return differing, *rank(min(item[1], key=rank))

        _, explanations = min(self._outcomes_by_key().items(), key=distance)
        nearest = min(explanations, key=rank)
        return Misplaced(view_diff(view, view_of(nearest.result, self.capability)), nearest)

    def _outcomes_by_key(self) -> dict[Key, list[Explanation]]:
        """Every board the roll's dice moves make, by what the sensors tell; listed when first needed."""
        if self._outcomes is None:
            self._outcomes = {}
            for board, explanation in self._explainer.outcomes().items():
                self._outcomes.setdefault(self._key(board), []).append(explanation)
        return self._outcomes

    # -- the ways to the legal plays ---------------------------------------------

    def _find_ways(self) -> None:
        """The boards on the way to the legal plays' results, by every order of their single
        moves; a Backgammon hit also shows half done: the hitting checker down with the hit one
        still under it, or the hit one on the bar with the hitter not yet moved. Sets
        `_next` (the boards that can follow each) and `_partial` (by key, with one way to each)."""
        high, low = sorted(self.dice, reverse=True)
        dice = (high,) * 4 if high == low else (high, low)
        self._root: Node = (layout(self.position), dice)
        # Walk the legal single moves on the engine's compact states; boards only for the ways kept.
        start, single_moves_of, to_position = single_move_walk(self.position)
        levels: list[dict[StateNode, None]] = [{(start, dice): None}]
        moves: dict[StateNode, list[tuple[DieMove, StateNode]]] = {}
        for _ in range(self._most):
            level: dict[StateNode, None] = {}
            for node in levels[-1]:
                state, left = node
                out = moves[node] = []
                for die in dict.fromkeys(left):
                    rest = list(left)
                    rest.remove(die)
                    for new, move in single_moves_of(state, die):
                        child = (new, tuple(rest))
                        out.append((DieMove(move, die), child))
                        level[child] = None
            levels.append(level)
        results = {encode(play.position) for play in self.plays}
        self._results = {layout(play.position) for play in self.plays}
        good = {node for node in levels[-1] if node[0] in results} if self._most else set()
        for level in reversed(levels[:-1]):
            good.update(node for node in level if any(child in good for _, child in moves[node]))
        boards: dict[bytes, Layout] = {start: self._root[0]}

        def board(node: StateNode) -> Node:
            state, left = node
            if state not in boards:
                boards[state] = layout(to_position(state))
            return boards[state], left

        self._next: dict[Node, list[tuple[DieMove | None, Node]]] = {}
        for node, out in moves.items():
            if node in good:
                for die_move, child in out:
                    if child in good:
                        self._link(board(node), die_move, board(child))
        self._keys = {node: self._key(node[0])
                      for parent, edges in self._next.items() for node in (parent, *(n for _, n in edges))}
        self._partial: dict[Key, list[tuple[Node, tuple[DieMove, ...]]]] = {}
        ways: dict[Node, tuple[DieMove, ...]] = {self._root: ()}
        for parent, edges in self._next.items():  # each parent is linked before its children
            if parent != self._root:
                self._partial.setdefault(self._keys[parent], []).append((parent, ways[parent]))
            for step, after in edges:
                ways.setdefault(after, (*ways[parent], step) if step else ways[parent])

    def _link(self, parent: Node, move: DieMove, child: Node) -> None:
        """parent -(move)-> child, and by way of the half-done boards of a hit."""
        edges = self._next.setdefault(parent, [])
        edges.append((move, child))
        if not (move.move.hit and self.position.variant is Variant.BACKGAMMON):
            return
        me, them = self.position.turn, self.position.turn.opponent
        point = OWN_TO_BOARD[self.position.variant, me][move.move.target] - 1
        their_bar = BAR_ZONE[them] - 1
        hitter_down = list(child[0])
        hitter_down[point] = them.char + me.char
        hitter_down[their_bar] = hitter_down[their_bar][1:]
        hit_first = list(parent[0])
        hit_first[point] = ""
        hit_first[their_bar] += them.char
        for half, before, after in ((tuple(hitter_down), move, None), (tuple(hit_first), None, move)):
            half_node = (half, child[1] if before else parent[1])
            edges.append((before, half_node))
            self._next.setdefault(half_node, []).append((after, child))

    def _by_order(self, plays: list[Play]) -> list[Play]:
        """The plays whose way passes by the boards seen on the way (all if none does)."""
        if len(plays) == 1:
            return plays
        seen = [key for key in self._seen[1:-1] if key in self._partial]
        return [play for play in plays if self._passes(layout(play.position), seen)] or plays

    def _passes(self, result: Layout, seen: list[Key]) -> bool:
        """Some way to `result` shows the `seen` boards in this order (others between)."""
        @cache
        def walk(node: Node, matched: int) -> bool:
            if matched < len(seen) and self._keys[node] == seen[matched]:
                matched += 1
            if node[0] in self._results and node not in self._next:
                return matched == len(seen) and node[0] == result
            return any(walk(child, matched) for _, child in self._next.get(node, ()))

        return walk(self._root, 0)


def _simplicity(explanation: Explanation) -> tuple[int, int]:
    return len(explanation.broken), len(explanation.moves)
