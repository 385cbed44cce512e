"""Why a board is not a legal play: the rules a sequence of dice moves breaks.

A hand can put checkers where the rules forbid. `Explainer` searches the sequences of
single-checker moves by the dice of a roll (each die at most once, a double up to four
times, in every order) including the *relaxed* moves a person can make but the rules
forbid, each tagged with the rule it breaks; then it judges the play as a whole against
the legal plays. The simplest explanation of a board wins: fewest broken rules, then
fewest moves. A legal play's result is explained with no broken rule; `None` means no
sequence of the roll makes the board.

Boards are taken as they physically stand (`Layout`, the sensors' zone order): a checker
put on a blocked point sits on top of the stack there; a Backgammon hit puts the hit
checker on its own colour's bar zone; borne-off checkers lie in their colour's tray.

Relaxed moves, each breaking one rule:
- landing on a blocked point: two or more opposing checkers (Backgammon, Catchgammon), an
  opposing trapper holding one of the mover's checkers (Catchgammon), any opposing checker
  (Rungammon);
- moving a trapped checker, pulled from under its trappers (Catchgammon);
- bearing off before every checker is home, or with one on the bar or trapped; bearing off
  from a point with a larger die while a checker stands higher;
- moving another checker while one is on the bar (Backgammon);
- a second checker leaving point 24 before one has passed the opponent's start (Rungammon).
Rules of the whole play: as many dice as can be played; the larger die when only one can
be; no Rungammon prime (all of points 19-24; six in a row with opponents behind, none ahead).

Messages name points and dice in the mover's own numbering. Display codes are two
characters of the cube display's seven-segment font (gpiozero's: space, digits and the
letters ABCDEFGHIJLNOPQRSTUY; B, D, O, R and T show in lower case):

    code  rule                    broken by
    BP    BLOCKED_POINT           landing on a point the opponent holds
    TR    TRAPPED_CHECKER_MOVED   moving a trapped checker
    BO    BEAR_OFF_TOO_EARLY      bearing off while a checker is outside home, on the bar or trapped
    BH    BEAR_OFF_NOT_HIGHEST    bearing off by a larger die from below a checker
    BR    BAR_FIRST               moving another checker while one is on the bar
    DU    DIE_UNUSED              playing fewer dice than can be played
    LD    LARGER_DIE_REQUIRED     playing the smaller die when only one can be and the larger can
    PT    PRIME_START_TABLE       holding all six points 19-24 (Rungammon)
    PR    PRIME_BLOCKS_OPPONENT   six points in a row, opponents behind and none ahead (Rungammon)
    FC    FIRST_CHECKER_RULE      a second checker leaving 24 before one has passed (Rungammon)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import accumulate, repeat
from operator import itemgetter, lt, mul, sub

from game.board import BAR, CHECKERS, OFF, OWN_TO_BOARD, Color, Variant
from game.codes import BLANK, Code
from game.errors import ZoneError
from game.movegen import LegalPlays, check_dice, kernel_relaxed
from game.movegen.state import VARIANT_INDEX
from game.plays import Move, format_moves
from game.position import Position
from game.zones import BAR_ZONE, OFF_ZONE, ZONE_COUNT, Layout, layout, state_layouts


class Breach(enum.Enum):
    """A rule a play breaks; the value is its two-character display code."""

    BLOCKED_POINT = Code.BLOCKED_POINT
    TRAPPED_CHECKER_MOVED = Code.TRAPPED_CHECKER_MOVED
    BEAR_OFF_TOO_EARLY = Code.BEAR_OFF_TOO_EARLY
    BEAR_OFF_NOT_HIGHEST = Code.BEAR_OFF_NOT_HIGHEST
    BAR_FIRST = Code.BAR_FIRST
    DIE_UNUSED = Code.DIE_UNUSED
    LARGER_DIE_REQUIRED = Code.LARGER_DIE_REQUIRED
    PRIME_START_TABLE = Code.PRIME_START_TABLE
    PRIME_BLOCKS_OPPONENT = Code.PRIME_BLOCKS_OPPONENT
    FIRST_CHECKER_RULE = Code.FIRST_CHECKER_RULE

    @property
    def code(self) -> str:
        """The two characters the cube display shows for this rule."""
        return self.value


@dataclass(frozen=True, slots=True)
class BrokenRule:
    """One breach of a rule: what, in one sentence, and the zones (1-28) it concerns."""

    breach: Breach
    message: str
    zones: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DieMove:
    """One checker moved by one die."""

    move: Move
    die: int
    trapped: bool = False
    """The mover's checker trapped at the bottom of the source was pulled out (Catchgammon)."""


@dataclass(frozen=True, slots=True)
class Explanation:
    """A sequence of dice moves that makes `result`, and the rules it breaks (none: legal)."""

    moves: tuple[DieMove, ...]
    broken: tuple[BrokenRule, ...]
    result: Layout

    @property
    def legal(self) -> bool:
        """No rule is broken: the board is a legal play's result."""
        return not self.broken

    def notation(self) -> str:
        """The dice moves in standard notation."""
        return format_moves([m.move for m in self.moves])

    def describe(self) -> str:
        """One sentence for the log: the play, and each rule it breaks."""
        if self.legal:
            return f"legal play {self.notation()}"
        return f"illegal play {self.notation()}: " + "; ".join(rule.message for rule in self.broken)

    def short_code(self) -> str:
        """The first broken rule's display code, "  " for a legal play."""
        return self.broken[0].breach.code if self.broken else BLANK

    def zones(self) -> frozenset[int]:
        """The zones (1-28) the broken rules concern, to light on the board."""
        return frozenset(zone for rule in self.broken for zone in rule.zones)


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen")


def _checkers(n: int, colour: str) -> str:
    return f"a {colour} checker" if n == 1 else f"{_NUMBERS[n]} {colour} checkers"


Step = tuple[Layout, int, int, bool]
"""A move of the search: the board it is made on, its source (own location), its die, and whether
the checker lifted was trapped. Its `DieMove` and the rules it breaks are worded (`_worded`) only
for an explanation: a search makes thousands of moves, a verdict names a few."""
Node = tuple[Layout, tuple[int, ...]]  # the board and the dice left, largest first
Path = tuple[int, tuple[Step, ...]]  # rules broken along the way, and the steps
Rank = tuple[int, int]  # rules broken, then moves: the simplest explanation is the least
Ranked = tuple[Rank, tuple[Step, ...]]
"""A board's simplest path: its rank and its steps (`Explainer.worded` makes them an Explanation)."""
Admit = Callable[[Layout, int], bool]
"""Whether the search goes on from a board with so many dice moves left: false only where no
board sought can follow, and then for every board that follows (so a board sought is reached
by the same paths, in the same order, as by the whole search)."""


class Explainer:
    """The legal plays of one roll, and the explanation of any board the roll can make.

    `explain(target)` searches toward one board; `outcomes()` lists every board a sequence of
    the roll (relaxed moves included) makes, with its simplest explanation; `ranked_outcomes()`
    the same boards with the rank and steps of their explanation, for `worded` to word when asked.
    Given a prune toward boards that sensors tell alike (`toward_colours`, `toward_counts`), both
    list those boards as the whole search does, at a fraction of its cost; a board whose mover's
    pips no sequence of the dice drops is turned away before any search.
    """

    def __init__(self, position: Position, dice: Sequence[int], plays: LegalPlays | None = None) -> None:
        high, low = sorted(check_dice(dice), reverse=True)
        self.position = position
        self.dice = (high, low, high, low) if high == low else (high, low)
        self.plays = position.legal_plays((high, low)) if plays is None else plays
        self._start = layout(position)
        self._most = self.plays.dice_played
        (self._me, self._them, self._names, self._at, self._own, self._their_bar, self._their_off,
         self._their_path) = _seat(position.variant, position.turn)
        self._larger_alone: bool | None = None
        self._primes_of: dict[Layout, tuple[BrokenRule, ...]] = {}  # the Rungammon prime rules a board breaks
        mine = self._mine(self._start)
        self._start_off, self._start_pips = mine[OFF], _pips(mine)
        self._dice_sums = {sum(self.dice[:n]) for n in range(len(self.dice) + 1)} if high == low else \
            {0, high, low, high + low}
        """The pips the dice of some sequence of the roll move the mover's checkers on."""

    @cached_property
    def _legal(self) -> set[Layout]:
        """The boards of the legal plays (the start when none), listed when first judged against."""
        return set(map(state_layouts(self.position), self.plays.states)) or {self._start}

    # -- public -------------------------------------------------------------

    def explain(self, target: Position | Layout) -> Explanation | None:
        """The simplest sequence of the roll's dice moves that makes `target`, with the rules it
        breaks (none for a legal play's result); None when no sequence makes it."""
        goal = layout(target) if isinstance(target, Position) else tuple(target)
        if len(goal) != ZONE_COUNT:
            raise ZoneError(f"a layout has {ZONE_COUNT} stacks, got {len(goal)}")
        if _census(goal) != _census(self._start):
            return None  # checkers missing, added or of another colour
        if not self._dice_reach(self._mine(goal)):
            return None
        found = self._explore(self._toward(goal))
        ranked = [(self._rank(board, path), path[1]) for (board, _), path in found.items() if board == goal]
        if not ranked:
            return None
        _, steps = min(ranked, key=itemgetter(0))
        return self.worded(goal, steps)

    def outcomes(self, admit: Admit | None = None) -> dict[Layout, Explanation]:
        """Every board some sequence of the roll makes, with its simplest explanation; with `admit`,
        only those of the boards the search is let reach (`toward_mover`, `toward_counts`): those
        boards in the same order and with the same explanations as without it."""
        return {board: self.worded(board, steps) for board, (_, steps) in self.ranked_outcomes(admit).items()}

    def ranked_outcomes(self, admit: Admit | None = None) -> dict[Layout, Ranked]:
        """`outcomes(admit)` unworded: each board's simplest path, its rank (rules broken, moves)
        and its steps, for `worded` to make an explanation of when one is named (a search makes
        thousands of boards, a verdict names one or two)."""
        best: dict[Layout, Ranked] = {}
        for (board, _), path in self._explore(admit).items():
            rank = self._rank(board, path)
            kept = best.get(board)
            if kept is None or rank < kept[0]:
                best[board] = rank, path[1]
        return best

    def hand_moves(self, board: Layout, die: int) -> Iterator[tuple[Layout, DieMove, tuple[BrokenRule, ...]]]:
        """Each single move of the mover's by `die` a hand can make on `board`: the board it
        makes and the rules of single moves it breaks (none: a legal single move)."""
        for made, source, trapped, _ in self._lifts(board, die, None, 0):
            yield (made, *self._worded(board, source, die, trapped))

    def _lifts(self, board: Layout, die: int, admit: Admit | None,
               moves_left: int) -> Iterator[tuple[Layout, int, bool, int]]:
        """The search's single moves by `die` on `board` (`hand_moves`) but those whose board
        `admit(board, moves_left)` turns away: the board each makes, its source (own location),
        whether the checker lifted was trapped, and how many rules of single moves it breaks (the
        rules `_worded` names)."""
        # The search's inner loop (a few hundred calls a roll, thousands for a double): no words,
        # and what only some moves need (bearing off, the first-checker rule) worked out when one does.
        me, them, at = self._me, self._them, self._at
        variant = self.position.variant
        own = self._own(board)
        on_bar = bool(own[BAR])
        hitting = variant is not Variant.RUNGAMMON
        catching = variant is Variant.CATCHGAMMON
        blocking = 1 if variant is Variant.RUNGAMMON else 2
        bear_off: tuple[tuple[str, int] | None, int] | None = None
        for p, trapped in self._sources(own):
            q = p - die
            landing = own[q] if q > 0 else ""
            hit = hitting and landing == them
            leaving = own[p]
            new = list(board)
            new[at[p]] = leaving[1:] if trapped else leaving[:-1]
            if q <= 0:
                new[at[OFF]] += me
            elif hit and variant is Variant.BACKGAMMON:
                new[at[q]] = me
                new[self._their_bar] += them
            else:
                new[at[q]] = landing + me
            made = tuple(new)
            if admit is not None and not admit(made, moves_left):
                continue
            broken = trapped + (on_bar and p != BAR)
            if p == 24 and variant is Variant.RUNGAMMON and self._second_leaves_24(own):
                broken += 1
            if q > 0:
                if landing and (landing.rstrip(me) not in ("", them) if catching  # as `_lands_blocked`
                                else landing.count(them) >= blocking):
                    broken += 1
            else:
                if bear_off is None:
                    bear_off = self._bear_off_state(own)
                block, highest = bear_off
                if block or (die > p and highest > p):
                    broken += 1
            yield made, p, trapped, broken

    def _worded(self, board: Layout, p: int, die: int, trapped: bool) -> tuple[DieMove, tuple[BrokenRule, ...]]:
        """The single move from own location `p` by `die` on `board` (`_lifts`), and the rules of
        single moves it breaks, in words."""
        them = self._them
        own = self._own(board)
        q = p - die
        landing = own[q] if q > 0 else ""
        move = Move(p, q if q > 0 else OFF, self.position.variant is not Variant.RUNGAMMON and landing == them)
        broken: list[BrokenRule] = []
        if trapped:
            broken.append(self._rule(Breach.TRAPPED_CHECKER_MOVED,
                                     f"{move}: the {self._names[0]} checker on point {p} is trapped "
                                     f"under {_checkers(own[p].count(them), self._names[1])}", p))
        if own[BAR] and p != BAR:
            broken.append(self._rule(Breach.BAR_FIRST, f"{move}: the {self._names[0]} checker on the bar "
                                     "must enter before any other moves", p, BAR))
        if p == 24 and self.position.variant is Variant.RUNGAMMON and self._second_leaves_24(own):
            broken.append(self._rule(Breach.FIRST_CHECKER_RULE,
                                     f"{move}: a second checker may leave point 24 only once one has "
                                     f"passed {self._names[1]}'s start on point 12", 24))
        if q > 0:
            if landing and self._lands_blocked(landing):
                broken.append(self._rule(Breach.BLOCKED_POINT,
                                         f"{move}: point {q} is held by {self._blocked(landing)}", q))
        else:
            broken.extend(self._bear_off_rules(move, die, *self._bear_off_state(own)))
        return DieMove(move, die, trapped), tuple(broken)

    def _second_leaves_24(self, own: tuple[str, ...]) -> bool:
        """A checker leaving point 24 would be a second one before one has passed the opponent's
        start (Rungammon)."""
        me = self._me
        return own[24].count(me) < CHECKERS and not (own[OFF] or any(me in own[point] for point in range(1, 12)))

    def _lands_blocked(self, landing: str) -> bool:
        """The mover may not land on this stack: the opponent holds it."""
        variant = self.position.variant
        if variant is Variant.CATCHGAMMON:
            return landing.rstrip(self._me) not in ("", self._them)
        return landing.count(self._them) >= (1 if variant is Variant.RUNGAMMON else 2)

    def _bear_off_state(self, own: tuple[str, ...]) -> tuple[tuple[str, int] | None, int]:
        """Why the mover may not bear off yet (`_bear_off_block`), and the highest own home point
        holding a checker of the mover's (0: none)."""
        me = self._me
        return self._bear_off_block(own), max((p for p in range(1, 7) if me in own[p]), default=0)

    def _sources(self, own: tuple[str, ...]) -> list[tuple[int, bool]]:
        """The points a hand may lift a checker of the mover's from (the bar first when it holds one),
        each with whether that checker is trapped under the opponent's (Catchgammon)."""
        me, them = self._me, self._them
        sources: list[tuple[int, bool]] = [_LIFTED[BAR]] if own[BAR] else []
        if self.position.variant is not Variant.CATCHGAMMON:  # no checker is ever under an opposing one
            sources += [_LIFTED[p] for p in range(24, 0, -1) if own[p][-1:] == me]
            return sources
        for p in range(24, 0, -1):
            stack = own[p]
            if stack:
                if stack[-1] == me:
                    sources.append(_LIFTED[p])
                if stack[0] == me and them in stack:
                    sources.append(_PULLED[p])
        return sources

    def _bear_off_rules(self, move: Move, die: int, block: tuple[str, int] | None,
                        highest: int) -> list[BrokenRule]:
        """The rules a checker borne off by `die` breaks: bearing off too early, or with a larger die
        while a checker stands higher."""
        p = move.source
        if block:
            why, point = block
            return [self._rule(Breach.BEAR_OFF_TOO_EARLY, f"{move}: bearing off while {why}", p, point)]
        if die > p and highest > p:
            return [self._rule(Breach.BEAR_OFF_NOT_HIGHEST,
                               f"{move}: a {die} bears off from point {p} only when no "
                               f"{self._names[0]} checker stands higher, and point {highest} holds one",
                               p, highest)]
        return []

    # -- search ---------------------------------------------------------------

    def _explore(self, admit: Admit | None) -> dict[Node, Path]:
        """Every node reached by up to all the dice, with its path breaking fewest rules;
        `admit(board, dice left)` prunes boards that cannot lead to the goal."""
        relaxed = kernel_relaxed()
        if relaxed is not None:  # the same search in C
            return relaxed(self._start, self.dice, VARIANT_INDEX[self.position.variant], self._me, self._them,
                           self._at, self._their_bar, admit)
        start: Node = (self._start, self.dice)
        found: dict[Node, Path] = {start: (0, ())}
        level = dict(found)
        while level:
            deeper: dict[Node, Path] = {}
            for (board, left), (cost, steps) in level.items():
                for die, dice_left in _dice_next(left):
                    for new, source, trapped, broken in self._lifts(board, die, admit, len(dice_left)):
                        node = (new, dice_left)
                        total = cost + broken
                        kept = deeper.get(node)
                        if kept is None or total < kept[0]:
                            deeper[node] = (total, (*steps, (board, source, die, trapped)))
            found.update(deeper)
            level = deeper
        return found

    def _toward(self, goal: Layout) -> Admit:
        """A board can still become `goal` (`toward_mover`)."""
        return self.toward_mover(self._mine(goal), len(goal[self._their_bar]))

    def toward_mover(self, wanted: Sequence[int], their_bar: int) -> Admit:
        """A board can still become one with `wanted[loc]` of the mover's checkers at each own
        location (0 off, 1-24 points, 25 bar) and `their_bar` checkers on the opponent's bar: the
        mover's checkers only move on along their path (so beyond each point there are never fewer
        than wanted), each move takes one checker from one place to one other, and hit checkers
        never leave their bar."""

        # Judged for every move the search makes, so in builtins over whole rows: the locations from
        # the bar down to point 1, the checkers at each and beyond each.
        wanted_at = wanted[BAR:OFF:-1]
        wanted_beyond = list(accumulate(wanted_at))
        wanted_sum, me, own, their_bar_index = sum(wanted_at), self._me, self._own, self._their_bar

        def admit(board: Layout, moves_left: int) -> bool:
            if len(board[their_bar_index]) > their_bar:
                return False
            have = list(map(str.count, own(board)[BAR:OFF:-1], repeat(me)))
            if any(map(lt, accumulate(have), wanted_beyond)):
                return False
            surplus: int = (sum(map(abs, map(sub, have, wanted_at))) + sum(have) - wanted_sum) // 2  # have over wanted
            return surplus <= moves_left

        return admit

    def toward_colours(self, colours: Sequence[tuple[int, int]]) -> Admit | None:
        """A board can still become one with (white, black) `colours[z - 1]` checkers in each zone
        z (`toward_mover`); None when no sequence of the roll makes such a board (`_dice_reach`)."""
        mine = 0 if self._me == "w" else 1
        wanted = [colours[index][mine] for index in self._at]
        if not self._dice_reach(wanted):
            return None
        return self.toward_mover(wanted, colours[self._their_bar][1 - mine])

    def toward_counts(self, counts: Sequence[int]) -> Admit | None:
        """A board can still become one with `counts[z - 1]` checkers in each zone z: each move
        (a hit too) adds one checker to one zone, so a board lacking more checkers than moves
        are left cannot. None when no sequence of the roll makes such a board: with no more
        checkers than at the start on the opponent's bar, none was hit, so the opponent's stand
        where they stood and the rest are the mover's (`_dice_reach`)."""
        if counts[self._their_bar] == len(self._start[self._their_bar]):
            them = self._them
            wanted = [counts[index] - self._start[index].count(them) for index in self._at]
            if min(wanted) < 0 or not self._dice_reach(wanted):
                return None

        def admit(board: Layout, moves_left: int) -> bool:
            lacking = 0
            for count, stack in zip(counts, board, strict=True):
                if len(stack) < count:
                    lacking += count - len(stack)
            return lacking <= moves_left

        return admit

    def _dice_reach(self, wanted: Sequence[int]) -> bool:
        """Some sequence of the roll can leave `wanted[loc]` of the mover's checkers at each own
        location, by the pips alone: every move takes a checker on by its die, but one borne off
        by at most its die, and a checker borne off stays off. So the pips the mover's checkers
        drop are the sum of the dice of some sequence, or with checkers borne off at most the
        largest such sum."""
        dropped = self._start_pips - _pips(wanted)
        if wanted[OFF] == self._start_off:
            return dropped in self._dice_sums
        return 0 <= dropped <= sum(self.dice)

    def _mine(self, board: Layout) -> list[int]:
        """The mover's checkers at each own location (0 off, 1-24, 25 bar)."""
        return list(map(str.count, self._own(board), repeat(self._me)))

    def _hits(self, landing: str) -> bool:
        """Landing here hits (Backgammon) or traps (Catchgammon) a lone opposing checker."""
        return landing == self._them and self.position.variant is not Variant.RUNGAMMON

    def _blocked(self, landing: str) -> str:
        """Who holds the point against the mover, in words; "" when the mover may land."""
        me, them = self._me, self._them
        variant = self.position.variant
        if variant is Variant.CATCHGAMMON:
            below = landing.rstrip(me)  # the mover's own checkers on top are no obstacle
            if below in ("", them):
                return ""
            if below[0] == me:
                return f"{_checkers(below.count(them), self._names[1])} trapping a {self._names[0]} one"
            return _checkers(below.count(them), self._names[1])
        theirs = landing.count(them)
        if theirs >= (1 if variant is Variant.RUNGAMMON else 2):
            return _checkers(theirs, self._names[1])
        return ""

    def _bear_off_block(self, own: tuple[str, ...]) -> tuple[str, int] | None:
        """Why the mover may not bear off yet, and the point (own numbering) that stops it."""
        me, them, name = self._me, self._them, self._names[0]
        if own[BAR]:
            return f"a {name} checker is on the bar", BAR
        for p in range(24, 6, -1):
            if me in own[p]:
                return f"a {name} checker stands on point {p}, outside the home board", p
        for p in range(6, 0, -1):
            if own[p].startswith(me) and them in own[p]:
                return f"the {name} checker on point {p} is trapped", p
        return None

    def _rule(self, breach: Breach, message: str, *points: int) -> BrokenRule:
        """A broken rule concerning these own locations (points, BAR)."""
        return BrokenRule(breach, message, tuple(sorted({self._at[p] + 1 for p in points})))

    # -- whole plays -----------------------------------------------------------

    def _rank(self, board: Layout, path: Path) -> Rank:
        """The rank of the play `path` makes: the rules it breaks (`worded`'s), then its moves."""
        cost, steps = path
        if board in self._legal:
            return cost, len(steps)
        if self.position.variant is Variant.RUNGAMMON:
            cost += len(self._primes_broken(board))
        high, low = self.dice[0], self.dice[1]
        if len(steps) < self._most or (len(steps) == 1 and high != low and steps[0][2] == low
                                       and self._larger_playable_alone()):
            cost += 1  # a die unused, or the larger die required (`_whole_play`)
        return cost, len(steps)

    def worded(self, board: Layout, steps: tuple[Step, ...]) -> Explanation:
        """The play of these steps (`ranked_outcomes`), which makes `board`, and the rules it breaks, in words."""
        worded = [self._worded(*step) for step in steps]
        broken = tuple(rule for _, rules in worded for rule in rules) + self._whole_play(board, steps)
        return Explanation(tuple(move for move, _ in worded), broken, board)

    def _whole_play(self, board: Layout, steps: tuple[Step, ...]) -> tuple[BrokenRule, ...]:
        """The rules of the whole play that `board`, reached by these steps, breaks."""
        if board in self._legal:
            return ()
        broken = list(self._primes_broken(board)) if self.position.variant is Variant.RUNGAMMON else []
        used = [die for _, _, die, _ in steps]
        high, low = self.dice[0], self.dice[1]
        if len(used) < self._most:
            broken.append(BrokenRule(Breach.DIE_UNUSED, self._unused(used)))
        elif len(used) == 1 and high != low and used[0] == low and self._larger_playable_alone():
            move = self._worded(*steps[0])[0].move
            broken.append(BrokenRule(Breach.LARGER_DIE_REQUIRED,
                                     f"{move} plays the {low}, but when only one die can be played it must "
                                     f"be the larger, the {high}", (self._at[move.source] + 1,)))
        return tuple(broken)

    def _unused(self, used: list[int]) -> str:
        high, low = self.dice[0], self.dice[1]
        if high == low:
            played = f"{'none' if not used else _NUMBERS[len(used)]} of the four {high}s played"
        else:
            played = f"only the {used[0]} played" if used else "no die played"
        can = "both dice" if self._most == 2 else "one" if self._most == 1 else _NUMBERS[self._most]
        return f"{played} where {can} can be played"

    def _larger_playable_alone(self) -> bool:
        """Only one die can be played, and the legal plays play the larger."""
        if self._larger_alone is None:
            self._larger_alone = self._most == 1 and any(
                new in self._legal for new, _, _, broken in self._lifts(self._start, self.dice[0], None, 0)
                if not broken)
        return self._larger_alone

    def _primes_broken(self, board: Layout) -> tuple[BrokenRule, ...]:
        """The Rungammon prime rules a board breaks, worked out once per board."""
        broken = self._primes_of.get(board)
        if broken is None:
            broken = self._primes_of[board] = tuple(self._primes(board))
        return broken

    def _primes(self, board: Layout) -> Iterator[BrokenRule]:
        """The Rungammon prime rules, judged on the board the play makes."""
        me, them = self._me, self._them
        if all(me in board[self._at[p]] for p in range(19, 25)):
            yield self._rule(Breach.PRIME_START_TABLE, f"the play holds all six points 19-24 of "
                             f"{self._names[0]}'s starting table", *range(19, 25))
        path = self._their_path
        held = "".join("1" if me in board[index] else "0" for index in path)
        low = held.find("111111")
        if low < 0:
            return
        at = [them in board[index] for index in path]
        if board[self._their_off]:
            return  # borne-off checkers count as ahead of any prime
        first = at.index(True) if True in at else len(at)
        while low >= 0:  # their own points low + 1 .. low + 6
            if first >= low and any(at[low + 6:]):
                points = [self._own_point(path[q]) for q in range(low, low + 6)]
                yield self._rule(Breach.PRIME_BLOCKS_OPPONENT,
                                 f"the play makes six points in a row ({', '.join(map(str, points))}) with "
                                 f"{self._names[1]} checkers behind them and none ahead", *points)
                return
            low = held.find("111111", low + 1)

    def _own_point(self, index: int) -> int:
        return self._at.index(index)


@cache
def _seat(variant: Variant, me: Color) -> tuple[str, str, tuple[str, str], tuple[int, ...],
                                               Callable[[Layout], tuple[str, ...]], int, int, tuple[int, ...]]:
    """What an Explainer for `me`'s rolls works with, the same for every roll: the mover's and the
    opponent's letters and names; the layout index of each own location (0 off, 1-24 points, 25
    bar) and a getter of a board's stacks in that order; the opponent's bar and tray, and the
    layout index of each of their own points q at [q - 1]."""
    them = me.opponent
    own, theirs = OWN_TO_BOARD[variant, me], OWN_TO_BOARD[variant, them]
    at = (OFF_ZONE[me] - 1, *(own[p] - 1 for p in range(1, 25)), BAR_ZONE[me] - 1)
    return (me.char, them.char, (me.value, them.value), at, itemgetter(*at), BAR_ZONE[them] - 1,
            OFF_ZONE[them] - 1, tuple(theirs[q] - 1 for q in range(1, 25)))


_LIFTED = tuple((p, False) for p in range(BAR + 1))
_PULLED = tuple((p, True) for p in range(BAR + 1))
"""A source of the search's moves (own location, the checker trapped), made once."""


@cache
def _dice_next(left: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each die that can be played next from the dice left, with the dice left after it."""
    following = []
    for die in dict.fromkeys(left):
        rest = list(left)
        rest.remove(die)
        following.append((die, tuple(rest)))
    return tuple(following)


def _pips(mine: Sequence[int]) -> int:
    """The pips of the mover's checkers at own locations 0 (off) to 25 (the bar)."""
    return sum(map(mul, mine, range(BAR + 1)))


def _census(board: Layout) -> tuple[int, int]:
    stacks = "".join(board)
    return stacks.count("w"), stacks.count("b")


def explain(position: Position, dice: Sequence[int], target: Position | Layout) -> Explanation | None:
    """The simplest sequence of the roll's dice moves that makes `target`, with the rules it
    breaks (none when `target` is a legal play's result, or the unchanged board when no play
    is legal); None when no sequence of the roll makes it."""
    return Explainer(position, dice).explain(target)
