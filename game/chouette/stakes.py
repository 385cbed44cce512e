"""Each team member's stake in a game: their own cube against the box, and how it settled.

`Stakes` keeps the cubes of one game and the cube decisions of the turn in progress (an
`Exchange`): the side on roll turns one or more cubes, in team order, then each is answered in
team order (a beaver is answered at once by the original doubler). It checks every decision
against the cubes and the house options and says what settled; the session
(`game.chouette.session`) checks whose turn it is, records the events and ends the game.
With one team cube (an option) the captain's decisions move every member's cube together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import ceil

from game.cube import Cube
from game.errors import (
    BoxMustTakeHalf,
    CubeNotAvailable,
    MatchActionError,
    NotYourTurn,
    OutOfGame,
    OutOfTeamOrder,
    UnknownPlayer,
    WrongPhase,
)
from game.position import ResultKind

from .options import ChouetteOptions, Side


@dataclass
class Stake:
    """One member's cube in this game and, once settled, their result against the box."""

    member: str
    cube: Cube = field(default_factory=Cube)
    result: Fraction | None = None  # + the member won, - the box won; None while in the game
    reason: str = ""  # "pass" (the member passed), "box_pass" (the box passed), "bearoff", "remi"
    kind: str = ""  # "single", "gammon", the variant's triple name, or "remi"

    @property
    def in_game(self) -> bool:
        """Whether the member still plays this game."""
        return self.result is None

    def describe(self) -> str:
        """The cube and the settlement, for messages."""
        cube = self.cube
        text = f"{self.member} {cube.value}"
        if cube.owner is not None:
            text += f" ({Side.of(cube.owner).value}'s)"
        if cube.offered_by is not None:
            text += f" offered by the {Side.of(cube.offered_by).value}" + " (beaver)" * cube.beavered
        if self.result is not None:
            text += f" settled {self.reason} {self.result}"
        return text


@dataclass
class Exchange:
    """The cube decisions of one turn: the cubes offered by the side on roll and their answers."""

    doubler: Side
    offers: list[str] = field(default_factory=list)  # in team order
    answered: list[str] = field(default_factory=list)
    open: bool = True  # further cubes may be turned until the first answer
    beaver: str | None = None  # a beaver on this member's cube waits for the doubler's answer
    initial: list[str] = field(default_factory=list)  # centred cubes offered (the half rule)
    initial_taken: int = 0
    initial_passed: int = 0

    def next_offer(self) -> str | None:
        """The first offered cube not answered yet, in team order."""
        return next((m for m in self.offers if m not in self.answered), None)

    @property
    def complete(self) -> bool:
        """Whether every offered cube of the turn is answered (no beaver waits)."""
        return self.beaver is None and self.next_offer() is None


@dataclass(frozen=True, slots=True)
class Decision:
    """The cube decision awaited: which side decides, about whose cube, and the choices."""

    side: Side
    member: str
    verbs: tuple[str, ...]  # among "take", "pass", "beaver"


class Stakes:
    """The team's cubes for one game, in team order (captain first)."""

    def __init__(self, team: Sequence[str], options: ChouetteOptions) -> None:
        self.order = tuple(team)
        self.options = options
        self.stakes = {member: Stake(member) for member in team}
        self.exchange: Exchange | None = None
        self.auto_doubled = False

    # -- reading ------------------------------------------------------------------

    def __getitem__(self, member: str) -> Stake:
        try:
            return self.stakes[member]
        except KeyError:
            raise UnknownPlayer(f"{member} is not on the team of this game "
                                f"(team: {', '.join(self.order)})") from None

    def in_game(self) -> tuple[str, ...]:
        """The members still in the game, in team order."""
        return tuple(m for m in self.order if self.stakes[m].in_game)

    def decision(self) -> Decision | None:
        """The answer awaited in the turn's exchange, if any."""
        ex = self.exchange
        if ex is None:
            return None
        if ex.beaver is not None:
            return Decision(ex.doubler, ex.beaver, ("take", "pass"))
        member = ex.next_offer()
        if member is None:
            return None
        side = ex.doubler.other
        verbs = ("take", "pass", "beaver") if self.options.beavers else ("take", "pass")
        return Decision(side, member, tuple(v for v in verbs if self._half_refusal(side, member, v) is None))

    def doubling_refusal(self, side: Side, member: str) -> MatchActionError | None:
        """Why `side` may not turn `member`'s cube now (None when it may), whose turn it is aside."""
        stake = self[member]
        ex = self.exchange
        cube = stake.cube
        if not stake.in_game:
            return OutOfGame(f"{member}'s game is settled ({stake.reason})")
        if ex is not None and (not ex.open or ex.doubler is not side):
            return WrongPhase("the cubes turned this turn are being answered")
        if ex is not None and member in ex.offers:
            return CubeNotAvailable(f"{member}'s cube is already offered")
        if ex is not None and ex.offers and self.order.index(member) < self.order.index(ex.offers[-1]):
            last = ex.offers[-1]
            return OutOfTeamOrder(f"{last}'s cube is turned: only members behind {last} in team order may follow")
        if cube.owner is not None and cube.owner is not side.color:
            return CubeNotAvailable(f"{member}'s cube ({cube.value}) is the {Side.of(cube.owner).value}'s")
        if not cube.may_double(side.color):
            return CubeNotAvailable(f"{member}'s cube ({cube.value}) cannot be turned")
        return None

    def points(self, member: str, kind: ResultKind) -> int:
        """What `member`'s cube is worth for a game won with `kind` (Jacoby when on and centred)."""
        cube = self[member].cube
        if self.options.jacoby and cube.centred:
            kind = ResultKind.SINGLE
        return cube.value * int(kind)

    # -- decisions -------------------------------------------------------------------

    def double(self, side: Side, member: str) -> int:
        """`side` turns `member`'s cube (with a team cube, every cube); returns the value offered."""
        refusal = self.doubling_refusal(side, member)
        if refusal is not None:
            raise type(refusal)(f"the {side.value} cannot turn {member}'s cube: {refusal.reason}")
        ex = self.exchange = self.exchange or Exchange(side)
        if self[member].cube.centred:
            ex.initial.append(member)
        ex.offers.append(member)
        for stake in self._moved(member):
            stake.cube = stake.cube.double(side.color)
        return 2 * self[member].cube.value

    def answer(self, side: Side, member: str, verb: str) -> list[Stake]:
        """`side` takes, passes or beavers the cube offered on `member`; returns the stakes settled."""
        ex = self._check_answer(side, member, verb)
        ex.open = False
        settled: list[Stake] = []
        for each in self._moved(member):
            if verb == "take":
                each.cube = each.cube.take(side.color)
            elif verb == "beaver":
                each.cube = each.cube.beaver(side.color)
            else:
                points = each.cube.pass_points(side.color)
                each.result = Fraction(-points if side is Side.TEAM else points)
                each.reason = "pass" if side is Side.TEAM else "box_pass"
                each.kind = "single"
                each.cube = Cube(each.cube.value, each.cube.owner)
                settled.append(each)
        if member in ex.initial and side is Side.BOX and ex.beaver is None:
            if verb == "pass":
                ex.initial_passed += 1
            else:
                ex.initial_taken += 1
        if verb == "beaver":
            ex.beaver = member
        else:
            ex.beaver = None
            ex.answered.append(member)
        return settled

    def _check_answer(self, side: Side, member: str, verb: str) -> Exchange:
        """The exchange in which `side` may answer `member`'s cube with `verb`; else why not, raised."""
        decision = self.decision()
        ex = self.exchange
        if decision is None or ex is None:
            raise WrongPhase(f"the {side.value} cannot {verb} {member}'s cube: no cube is offered")
        if member != decision.member:
            if not self[member].in_game:
                raise OutOfGame(f"{member}'s game is settled ({self[member].reason}): no decision is "
                                f"{member}'s any more")
            if member in ex.offers and member not in ex.answered:
                raise OutOfTeamOrder(f"{decision.member}'s cube is answered first, in team order")
            raise WrongPhase(f"{member}'s cube is not offered (the {decision.side.value} answers "
                             f"{decision.member}'s)")
        if side is not decision.side:
            raise NotYourTurn(f"the {decision.side.value} answers {member}'s cube, not the {side.value}")
        half = self._half_refusal(side, member, verb)
        if half is not None:
            raise half
        if verb not in decision.verbs:
            raise WrongPhase(f"{member}'s cube can be " + " or ".join(decision.verbs) + f", not {verb}")
        return ex

    def automatic_double(self) -> int | None:
        """Equal opening dice: every centred cube doubles, once per game; the value, or None."""
        if self.auto_doubled:
            return None
        self.auto_doubled = True
        for stake in self.stakes.values():
            stake.cube = stake.cube.automatic_double()
        return self.stakes[self.order[0]].cube.value

    def settle_all(self, result: ResultKind | None, team_won: bool, kind: str) -> list[Stake]:
        """The game ended on the board (`result` None: a Remi): every member still in settles."""
        settled = []
        for member in self.in_game():
            stake = self.stakes[member]
            points = 0 if result is None else self.points(member, result)
            stake.result = Fraction(points if team_won else -points)
            stake.reason = "remi" if result is None else "bearoff"
            stake.kind = kind
            settled.append(stake)
        return settled

    def describe(self) -> str:
        """Every member's cube, for messages."""
        return "cubes " + "; ".join(self.stakes[m].describe() for m in self.order)

    # -- internals ---------------------------------------------------------------------

    def _moved(self, member: str) -> list[Stake]:
        """The stakes a decision on `member`'s cube moves: all of them with one team cube."""
        if self.options.team_cube:
            return [s for s in self.stakes.values() if s.in_game]
        return [self.stakes[member]]

    def _half_refusal(self, side: Side, member: str, verb: str) -> BoxMustTakeHalf | None:
        """The house rule's refusal of the box's answer, if it refuses it."""
        ex = self.exchange
        assert ex is not None
        if not (self.options.box_takes_half and side is Side.BOX and ex.doubler is Side.TEAM
                and ex.beaver is None and member in ex.initial and len(ex.initial) >= 2):
            return None
        n = len(ex.initial)
        need = n if len(self.order) == 2 else ceil(n / 2)
        left = n - ex.initial_taken - ex.initial_passed - 1  # initial cubes to answer after this one
        taken = ex.initial_taken + (verb != "pass")
        if taken and taken + left < need:
            return BoxMustTakeHalf(
                f"{n} initial cubes were turned at once: the box takes at least {need} of them or passes "
                f"all; it has taken {ex.initial_taken} and passed {ex.initial_passed}, so it cannot "
                f"{verb} {member}'s")
        return None
