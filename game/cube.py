"""The doubling cube: an immutable value with pure transitions.

The cube knows its own mechanics only: who may turn it, what a take, a pass or a
beaver does to it. Whose turn it is, the Crawford rule and which options the
match plays are the match's business (`game.match`).
"""

from __future__ import annotations

from game.board import Color
from game.errors import CubeNotAvailable, NotYourTurn, WrongPhase
from game.values import Value
from game.values import set_field as _set


class Cube(Value):
    """The cube: `value`, `owner` (None = centred), the pending offer if any.

    `offered_by` is the player whose double (or beaver) waits for an answer. After a
    beaver, `beavered` is True and `offered_by` is the beaverer: the original doubler
    answers it, and a take leaves the cube with the beaverer. `max_value` bounds the
    cube (None = no limit).
    """

    __slots__ = ("value", "owner", "offered_by", "beavered", "max_value")
    _fields = __slots__
    value: int
    owner: Color | None
    offered_by: Color | None
    beavered: bool
    max_value: int | None

    def __init__(self, value: int = 1, owner: Color | None = None, offered_by: Color | None = None,
                 beavered: bool = False, max_value: int | None = None) -> None:
        _set(self, "value", value)
        _set(self, "owner", owner)
        _set(self, "offered_by", offered_by)
        _set(self, "beavered", beavered)
        _set(self, "max_value", max_value)

    @property
    def offered(self) -> bool:
        """A double is offered and not yet answered."""
        return self.offered_by is not None

    @property
    def centred(self) -> bool:
        """Nobody owns the cube: either player may double."""
        return self.owner is None

    def may_double(self, player: Color) -> bool:
        """Whether `player` may turn the cube now (as far as the cube alone is concerned)."""
        return self.offered_by is None and self.owner in (None, player) and self.room_to_double()

    def room_to_double(self) -> bool:
        """Whether the maximum (if any) leaves room for twice the value."""
        return self._room_for(2 * self.value)

    def double(self, player: Color) -> Cube:
        """`player` offers the cube at twice its value."""
        if self.offered_by is not None:
            raise WrongPhase(f"the cube is already offered by {self.offered_by.value}")
        if self.owner not in (None, player):
            raise CubeNotAvailable(f"{player.value} cannot double: {self.owner.value} owns the cube")
        self._check_room(2 * self.value)
        return self.replace(offered_by=player)

    def take(self, player: Color) -> Cube:
        """`player` accepts the pending double (or beaver): the cube doubles."""
        doubler = self._answerer_check(player)
        owner = doubler if self.beavered else player
        return self.replace(value=2 * self.value, owner=owner, offered_by=None, beavered=False)

    def pass_points(self, player: Color) -> int:
        """Points `player` concedes by passing the pending offer: the value before it."""
        self._answerer_check(player)
        return self.value

    def beaver(self, player: Color) -> Cube:
        """`player`, just doubled, takes and at once redoubles, keeping the cube."""
        doubler = self._answerer_check(player)
        if self.beavered:
            raise WrongPhase(f"{doubler.value}'s beaver can be taken or passed, not beavered again")
        self._check_room(4 * self.value)
        return self.replace(value=2 * self.value, owner=player, offered_by=player, beavered=True)

    def automatic_double(self) -> Cube:
        """Equal opening dice: the centred cube doubles and stays centred."""
        if self.owner is not None or self.offered_by is not None:
            raise CubeNotAvailable("an automatic double needs the centred cube with no offer pending")
        self._check_room(2 * self.value)
        return self.replace(value=2 * self.value)

    def _answerer_check(self, player: Color) -> Color:
        doubler = self.offered_by
        if doubler is None:
            raise WrongPhase(f"{player.value} cannot answer: no double is pending")
        if player is doubler:
            raise NotYourTurn(f"{player.value} offered the cube: {doubler.opponent.value} answers it")
        return doubler

    def _room_for(self, value: int) -> bool:
        return self.max_value is None or value <= self.max_value

    def _check_room(self, value: int) -> None:
        if not self._room_for(value):
            raise CubeNotAvailable(f"the cube cannot go to {value}: the maximum is {self.max_value}")
