"""What a bot needs to know of the match besides the position: score, length, cube, Crawford, options."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from game.board import Color
from game.cube import Cube
from game.match import NO_OPTIONS, Match, MatchOptions
from game.position import ResultKind


class CubeAction(enum.Enum):
    """A bot's answer at the cube: before its roll (double or not), or to a double (take, pass, beaver)."""

    NO_DOUBLE = "no double"
    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"
    BEAVER = "beaver"


@dataclass(frozen=True, slots=True)
class MatchContext:
    """The match around a position: `length` None for money play; `score` is (white, black).

    `crawford`: this game is the Crawford game (nobody may double); `post_crawford`: the
    Crawford game has been played. Make it from a running match with `MatchContext.of(match)`.
    """

    length: int | None = None
    score: tuple[int, int] = (0, 0)
    cube: Cube = field(default_factory=Cube)
    crawford: bool = False
    post_crawford: bool = False
    options: MatchOptions = NO_OPTIONS

    @classmethod
    def of(cls, match: Match) -> MatchContext:
        """The context of a running match, as the controller has it."""
        return cls(match.length, match.score, match.cube, match.crawford, match.post_crawford, match.options)

    @property
    def money(self) -> bool:
        """Money play (no match length)."""
        return self.length is None

    def away(self, color: Color) -> int:
        """Points `color` still needs to win the match."""
        assert self.length is not None, "money play has no score to reach"
        return self.length - self.score[color.index]

    def may_double(self, color: Color) -> bool:
        """Whether `color` may turn the cube now (cube available, not the Crawford game, useful)."""
        if self.crawford or not self.cube.may_double(color):
            return False
        # In match play a player who has already won the match with the cube as it is gains nothing.
        return self.length is None or self.away(color) > self.cube.value

    def describe(self) -> str:
        """"money" or "7-point match, 2-4, cube 2 owned by black" (for messages and reports)."""
        if self.length is None:
            head = "money"
        else:
            head = f"{self.length}-point match, {self.score[0]}-{self.score[1]}" + (
                " (Crawford)" if self.crawford else "")
        owner = "centred" if self.cube.owner is None else f"owned by {self.cube.owner.value}"
        return f"{head}, cube {self.cube.value} {owner}"


MONEY = MatchContext()

RESULT_KINDS = (ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.TRIPLE)
