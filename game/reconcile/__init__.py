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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import count
from operator import attrgetter, itemgetter, ne
from typing import Generic, TypeVar, cast

from game import codes
from game.board import Color, Variant
from game.codes import BLANK, Code
from game.explain import DieMove, Explainer, Explanation, Rank, Step
from game.movegen import check_dice
from game.plays import Play, format_moves
from game.position import Position
from game.reconcile.boards_on_the_way import (
    BoardsOnTheWay,
    Key,
    board_key,
    colours_of,
    sensed_key,
    view_key,
    zone_key,
)
from game.zones import (
    ZONE_COUNT,
    Capability,
    Layout,
    ZoneDiff,
    ZoneReading,
    layout,
    normalised,
    view_diff,
    view_of,
)

Perspective = tuple[Variant, Color]
"""A variant and a player: the points named by that player's own numbers (`game.zones.zone_name`)."""

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


Found = TypeVar("Found")


class FoundLater(Verdict, Generic[Found]):
    """A verdict whose details are given, or found by a call made when they are first read."""

    __slots__ = ("_find", "_found")

    def __init__(self, found: Found) -> None:
        self._found: Found | None = found
        self._find: Callable[[], Found] | None = None

    def _later(self, find: Callable[[], Found]) -> None:
        self._found, self._find = None, find

    def _resolved(self) -> Found:
        if self._found is None:
            assert self._find is not None
            self._found, self._find = self._find(), None
        return self._found


@dataclass(frozen=True, slots=True)
class Untouched(Verdict):
    """No checker has moved."""

    def short_code(self) -> str:
        return BLANK

    def describe(self) -> str:
        return "no checker moved yet"


class Partial(FoundLater[tuple[tuple[DieMove, ...], Layout]]):
    """On the way to a legal play: the dice moves made so far and the dice still to play.

    `moves` and `board` may be found when first read (`Partial.found_later`): during a turn a
    board on the way is judged, its code shown at most, and its moves seldom named."""

    __slots__ = ("dice_left",)

    def __init__(self, moves: tuple[DieMove, ...], dice_left: tuple[int, ...], board: Layout) -> None:
        super().__init__((moves, board))
        self.dice_left = dice_left
        """The dice still to play to complete a legal play."""

    @classmethod
    def found_later(cls, dice_left: tuple[int, ...], find: Callable[[], tuple[tuple[DieMove, ...], Layout]]) -> Partial:
        """The verdict whose moves and board `find()` gives, called when first read."""
        verdict = cls.__new__(cls)
        verdict._later(find)
        verdict.dice_left = dice_left
        return verdict

    @property
    def moves(self) -> tuple[DieMove, ...]:
        """The dice moves made so far (those of the first way to the board)."""
        return self._resolved()[0]

    @property
    def board(self) -> Layout:
        """The board reached."""
        return self._resolved()[1]

    def short_code(self) -> str:
        return codes.partial(len(self.dice_left))

    def describe(self) -> str:
        left = ", ".join(map(str, self.dice_left)) or "no die, the hit checker to the bar"
        return f"partial play {format_moves([m.move for m in self.moves])}, still to play: {left}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Partial):
            return NotImplemented
        return (self.moves, self.dice_left, self.board) == (other.moves, other.dice_left, other.board)

    def __hash__(self) -> int:
        return hash((self.moves, self.dice_left, self.board))

    def __repr__(self) -> str:
        return f"Partial(moves={self.moves!r}, dice_left={self.dice_left!r}, board={self.board!r})"


class Legal(Verdict):
    """The board is a legal play's result.

    `play` may be found when first read (`Legal.found_later`): during a turn the board of a legal
    play is judged (its code shown at most) before the done press that commits it."""

    __slots__ = ("_find", "_play")

    def __init__(self, play: Play) -> None:
        self._play: Play | None = play
        self._find: Callable[[], Play] | None = None

    @classmethod
    def found_later(cls, find: Callable[[], Play]) -> Legal:
        """The verdict whose play `find()` gives, called when first read."""
        verdict = cls.__new__(cls)
        verdict._play, verdict._find = None, find
        return verdict

    @property
    def play(self) -> Play:
        """The play to commit; no moves when the roll cannot be played."""
        if self._play is None:
            assert self._find is not None
            self._play, self._find = self._find(), None
        return self._play

    def short_code(self) -> str:
        return Code.LEGAL_PLAY_STANDS

    def describe(self) -> str:
        return f"legal play {self.play.notation()}" if self.play.moves else "no legal play: the roll cannot be played"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Legal):
            return NotImplemented
        return self.play == other.play

    def __hash__(self) -> int:
        return hash(self.play)

    def __repr__(self) -> str:
        return f"Legal(play={self.play!r})"


@dataclass(frozen=True, slots=True)
class Ambiguous(Verdict):
    """The board is the result of several legal plays that the sensors cannot tell apart."""

    plays: tuple[Play, ...]

    def short_code(self) -> str:
        return Code.CHOOSE

    def describe(self) -> str:
        names = " or ".join(play.notation() for play in self.plays)
        return f"the sensors cannot tell which legal play this is: {names}; ask the player"

    def zones(self) -> frozenset[int]:
        boards = [layout(play.after_moves) for play in self.plays]
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


class Misplaced(FoundLater[tuple[tuple[ZoneDiff, ...], Explanation]]):
    """No sequence of the roll makes this board: checkers must be set right.

    `diffs` and `nearest` may be given, or found when first read (`Misplaced.found_later`): a
    board judged during a turn is seldom shown (a checker held in the hand), and finding the
    nearest board passes over every board the roll's moves make."""

    __slots__ = ("perspective",)

    def __init__(self, diffs: tuple[ZoneDiff, ...], nearest: Explanation, perspective: Perspective | None = None,
                 ) -> None:
        super().__init__((diffs, nearest))
        self.perspective = perspective
        """Whose numbers name the points (the mover's, as the play's notation does); None: the board's."""

    @classmethod
    def found_later(cls, find: Callable[[], tuple[tuple[ZoneDiff, ...], Explanation]],
                    perspective: Perspective | None = None) -> Misplaced:
        """The verdict whose diffs and nearest board `find()` gives, called when first read."""
        verdict = cls.__new__(cls)
        verdict._later(find)
        verdict.perspective = perspective
        return verdict

    @property
    def diffs(self) -> tuple[ZoneDiff, ...]:
        """The zones that differ from the nearest board."""
        return self._resolved()[0]

    @property
    def nearest(self) -> Explanation:
        """The board of the roll (start, on the way, legal or illegal result) fewest zones away: on
        a tie, during the turn the least played, at "done" the one breaking fewest rules. The diffs
        are to it."""
        return self._resolved()[1]

    def short_code(self) -> str:
        return Code.SET_CHECKERS

    def describe(self) -> str:
        wrong = "; ".join(diff.describe(self.perspective) for diff in self.diffs)
        return f"set checkers: {wrong} (nearest: {self.nearest.describe()})"

    def zones(self) -> frozenset[int]:
        return frozenset(diff.zone for diff in self.diffs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Misplaced):
            return NotImplemented
        return (self.diffs, self.nearest, self.perspective) == (other.diffs, other.nearest, other.perspective)

    def __hash__(self) -> int:
        return hash((self.diffs, self.nearest, self.perspective))

    def __repr__(self) -> str:
        return f"Misplaced(diffs={self.diffs!r}, nearest={self.nearest!r}, perspective={self.perspective!r})"


# -- one turn -----------------------------------------------------------------

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
        self._ways = BoardsOnTheWay(position, self.dice, capability)  # the legal plays found with their ways
        self.plays = self._ways.plays
        self._explaining: Explainer | None = None
        self._start = self._ways.key(self._ways.root)  # the position's board, as every board of the roll is keyed
        # The legal plays by what the sensors tell of their results; Play objects only for a verdict.
        self._legal: dict[Key, list[int]] = self._ways.legal
        if not self.plays:  # no legal play: leaving the board is one
            self._legal[self._start] = [NO_PLAY]
        self._most = self.plays.dice_played
        self._seen: list[Key] = [self._start]
        self._start_census: tuple[int, int] | None = None  # found when a board first needs it (`_illegal`)
        self._outcomes: dict[Key, list[_Outcome]] | None = None
        self._nearest: dict[bool, tuple[list[Key], list[Rank], list[_Outcome]]] = {}
        """Each board of the roll's key with its simplest explanation and that one's rank, by `done`."""
        self._misplaced_views: dict[tuple[Key, bool], Misplaced] = {}
        """The verdicts on misplaced boards judged already, by key (a view's, which tells its
        readings at the capability, cheaper to hash): a checker held in the hand makes the same
        board again and again, and each costs a pass over every board of the roll."""

    def judge(self, zones: Sequence[ZoneReading], *, done: bool = False) -> Verdict:
        """The verdict on a stable board, which is remembered as seen."""
        readings = tuple(zones)  # as they stand now: a misplaced board's diffs are found later
        key = sensed_key(readings, self.capability) if len(readings) == ZONE_COUNT else None
        if key is None:  # readings told below the capability, or too few or many: ZoneError says which
            key = view_key(normalised(readings, self.capability), self.capability)
        if key in self._seen:
            del self._seen[self._seen.index(key) + 1:]
        else:
            self._seen.append(key)
        verdict = self._classify(readings, key, done)
        if done and isinstance(verdict, Untouched | Partial):
            # dice left unused, or a hit half done
            unfinished = self._explainer.explain(verdict.board if isinstance(verdict, Partial) else self.position)
            return Illegal(unfinished) if unfinished else self._misplaced(readings, key, done)
        return verdict

    @property
    def _explainer(self) -> Explainer:
        """The search that explains an illegal or misplaced board: made when a board first needs it
        (most turns see only boards on the way to a legal play)."""
        if self._explaining is None:
            self._explaining = Explainer(self.position, self.dice, self.plays)
        return self._explaining

    def _key(self, board: Layout) -> Key:
        return board_key(board, self.capability)

    def _play(self, index: int) -> Play:
        return Play((), self.position) if index == NO_PLAY else self.plays[index]

    # -- classification ------------------------------------------------------

    def _classify(self, readings: tuple[ZoneReading, ...], key: Key, done: bool) -> Verdict:
        indexes = self._legal.get(key)
        if indexes:
            chosen = self._by_order(indexes)
            if len(chosen) == 1:
                index = chosen[0]
                return Legal.found_later(lambda: self._play(index))
            return Ambiguous(tuple(self._play(i) for i in chosen))
        if key == self._start:
            return Untouched()
        node = self._ways.first(key)
        if node is not None:
            ways = self._ways
            return Partial.found_later(ways.dice_left(node)[:self._most - ways.played(node)],
                                       lambda: (ways.way(node), ways.board(node)))
        misplaced = self._misplaced_views.get((key, done))  # a checker held in the hand: the same board again
        if misplaced is not None:
            return misplaced
        explanation = self._illegal(readings, key)
        return Illegal(explanation) if explanation else self._misplaced(readings, key, done)

    def _illegal(self, readings: tuple[ZoneReading, ...], key: Key) -> Explanation | None:
        if self._start_census is None:
            stacks = "".join(layout(self.position))
            white, black = stacks.count("w"), stacks.count("b")
            self._start_census = (white + black, 0) if self.capability is Capability.COUNTS else (white, black)
        if _census(readings, self.capability) != self._start_census:
            return None  # a checker in the hand, or one too many: no board of the roll (moves keep the census)
        if self.capability is Capability.STACKS:  # search toward the one board sensed
            explanation = self._explainer.explain(cast(Layout, key))
            return explanation if explanation and not explanation.legal else None
        if self._outcomes is not None:
            found = self._outcomes.get(key, [])
        else:
            # Search only toward boards that look like this one: what the whole search finds for
            # them (`Explainer.outcomes`), at a fraction of its cost (most such boards are misplaced).
            explainer = self._explainer
            admit = explainer.toward_counts(cast(tuple[int, ...], key)) if self.capability is Capability.COUNTS \
                else explainer.toward_colours(tuple(map(colours_of, key)))
            if admit is None:
                return None
            found = [(rank, board, steps) for board, (rank, steps) in explainer.ranked_outcomes(admit).items()
                     if self._key(board) == key]
        simplest = min(found, key=_RANK, default=None)  # fewest rules broken, then fewest moves
        return self._explainer.worded(simplest[1], simplest[2]) if simplest else None

    def _misplaced(self, readings: tuple[ZoneReading, ...], key: Key, done: bool) -> Misplaced:
        """The board of the roll fewest zones away; on a tie, during the turn the least played
        (set back, do not guess a play), at "done" the one breaking fewest rules (finish it)."""
        verdict = self._misplaced_views.get((key, done))
        if verdict is None:
            def find() -> tuple[tuple[ZoneDiff, ...], Explanation]:
                keys, ranks, outcomes = self._nearest_boards(done)
                # fewest zones away, then the rank, then the first listed: in builtins, a pass over
                # every board of the roll (thousands for a double)
                distances = [sum(map(ne, key, other)) for other in keys]
                nearest = outcomes[min(zip(distances, ranks, count()))[2]]
                view = normalised(readings, self.capability)
                _, board, steps = nearest
                return view_diff(view, view_of(board, self.capability)), self._explainer.worded(board, steps)

            verdict = Misplaced.found_later(find, (self.position.variant, self.position.turn))
            self._misplaced_views[key, done] = verdict
        return verdict

    def _nearest_boards(self, done: bool) -> tuple[list[Key], list[Rank], list[_Outcome]]:
        """Each board of the roll by key, the one `_misplaced` names for it, ranked as `done` says
        (at "done" fewest rules broken, then fewest moves; during the turn the reverse), and that
        rank: three lists, listed when first needed."""
        boards = self._nearest.get(done)
        if boards is None:
            rank = _RANK if done else _played
            keys, ranks, named = boards = self._nearest[done] = [], [], []
            for key, outcomes in self._outcomes_by_key().items():
                best = outcomes[0] if len(outcomes) == 1 else min(outcomes, key=rank)
                keys.append(key)
                ranks.append(rank(best))
                named.append(best)
        return boards

    def expected(self, verdict: Illegal | Misplaced) -> tuple[Layout, str]:
        """What the referee expected instead of a flagged board, and in words the play that makes
        it: for a misplaced board the nearest board of the roll, for an illegal play the result of
        the legal play fewest zones away from it (on a tie, the first in the legal plays' order)."""
        if isinstance(verdict, Misplaced):
            return verdict.nearest.result, verdict.nearest.describe()
        if not self.plays:
            return layout(self.position), "no legal play: the roll cannot be played"
        sensed = view_of(verdict.explanation.result, self.capability)

        def distance(play: Play) -> int:
            return len(view_diff(sensed, view_of(layout(play.after_moves), self.capability)))

        nearest = min(self.plays, key=distance)
        return layout(nearest.after_moves), f"legal play {nearest.notation()}"

    def _outcomes_by_key(self) -> dict[Key, list[_Outcome]]:
        """Every board the roll's dice moves make, by what the sensors tell; listed when first needed
        (each explanation worded when a verdict names it)."""
        if self._outcomes is None:
            self._outcomes = {}
            zone = None if self.capability is Capability.STACKS else zone_key(self.capability)  # as `board_key`
            for board, (rank, steps) in self._explainer.ranked_outcomes().items():
                self._outcomes.setdefault(board if zone is None else tuple(map(zone, board)), []).append(
                    (rank, board, steps))
        return self._outcomes

    def _by_order(self, plays: list[int]) -> list[int]:
        """The plays whose way passes by the boards seen on the way (all if none does)."""
        if len(plays) == 1:
            return plays
        seen = self._seen[1:-1]
        return [i for i in plays if self._ways.passes(self.plays.states[i], seen)] or plays


NO_PLAY = -1
"""The index standing for leaving the board as it is, when no play is legal."""


def _census(readings: Sequence[ZoneReading], capability: Capability) -> tuple[int, int]:
    """How many checkers readings told at `capability` or above show: (white, black) where the
    sensors tell colours, else (all, 0)."""
    if capability is Capability.COUNTS:
        return sum(map(_COUNT, readings)), 0
    return sum(map(_WHITE, readings)), sum(map(_BLACK, readings))


_COUNT, _WHITE, _BLACK = attrgetter("count"), attrgetter("white"), attrgetter("black")


_Outcome = tuple[Rank, Layout, tuple[Step, ...]]
"""A board the roll makes: the rank of its simplest explanation (rules broken, moves), the board,
and the steps that `Explainer.worded` words."""


def _played(outcome: _Outcome) -> Rank:
    """An outcome's rank by fewest moves, then fewest rules broken."""
    return outcome[0][1], outcome[0][0]


_RANK = itemgetter(0)
"""An outcome's rank: fewest rules broken, then fewest moves."""
