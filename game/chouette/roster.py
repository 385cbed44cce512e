"""Who sits where: the box, the line behind it, and the box's partner; joining, leaving, rotation.

The line is every player but the box, in order: its first is the captain of the next game.
A partner (an option from six players on) keeps its place in the line but plays on the box's
side for one game. These are pure values; the session (`game.chouette.session`) decides when
each transition may happen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Roster:
    """The box, the line (captain first) and the partner of the game about to start, if any."""

    box: str
    line: tuple[str, ...]
    partner: str | None = None

    @property
    def captain(self) -> str:
        """The first in line: the captain of the game about to start."""
        return self.line[0]

    @property
    def team(self) -> tuple[str, ...]:
        """The team in its order, captain first: the line without the box's partner."""
        return tuple(p for p in self.line if p != self.partner)

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone seated, box first."""
        return (self.box, *self.line)

    @classmethod
    def seated(cls, order: Sequence[str]) -> Roster:
        """The roster of an order of throws: the highest is the box, the rest the line."""
        return cls(order[0], tuple(order[1:]))

    def joined(self, player: str) -> Roster:
        """A new player joins at the end of the line."""
        return replace(self, line=(*self.line, player))

    def left(self, player: str) -> Roster:
        """`player` leaves; when the box leaves, the captain becomes the box."""
        partner = None if self.partner == player else self.partner
        if player == self.box:
            box, *rest = self.line
            line = tuple(rest)
        else:
            box, line = self.box, tuple(p for p in self.line if p != player)
        return Roster(box, line, None if partner in (box, line[0]) else partner)  # a captain is no partner

    def with_partner(self, partner: str | None) -> Roster:
        """The roster with `partner` (None: no partner)."""
        return replace(self, partner=partner)

    def rotated(self, final_captain: str, box_beaten: bool, losers: Sequence[str]) -> tuple[Roster, tuple[str, ...]]:
        """The roster of the next game, and who went to the end of the line (in that order).

        `losers` are the captains the box beat in this game, in the order they lost (by passing,
        or at the end). When the last captain beat the box, that captain becomes the box and the
        old box goes to the end of the line, behind the beaten captains. The partnership ends.
        """
        to_end = tuple(losers) + ((self.box,) if box_beaten else ())
        gone = set(to_end) | ({final_captain} if box_beaten else set())
        stay = tuple(p for p in self.line if p not in gone)
        box = final_captain if box_beaten else self.box
        return Roster(box, stay + tuple(p for p in to_end if p != box)), to_end

    def describe(self) -> str:
        """Who sits where, for messages."""
        partner = f", partner {self.partner}" if self.partner else ""
        return f"box {self.box}, line {' '.join(self.line)}{partner}"
