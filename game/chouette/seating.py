"""The start of a chouette: every player throws one die; ties throw again among themselves.

The highest thrower is the box, the second the captain, the rest line up after the captain
in the order of their throws. Players who tie throw again, only among themselves, as many
times as it takes; a tie does not disturb the order already settled around it.
"""

from __future__ import annotations

from collections.abc import Sequence


class Seating:
    """The throws for the order of a chouette, round by round, until every tie is broken."""

    def __init__(self, players: Sequence[str]) -> None:
        self._groups: list[list[str]] = [list(players)]  # in order; a group of two or more is tied
        self._throws: dict[str, int] = {}  # this round's throws of the tied players

    @property
    def done(self) -> bool:
        """Whether every tie is broken."""
        return all(len(group) == 1 for group in self._groups)

    @property
    def pending(self) -> tuple[str, ...]:
        """The players who still throw in the current round, in the order they were seated."""
        return tuple(p for group in self._groups if len(group) > 1 for p in group if p not in self._throws)

    @property
    def order(self) -> tuple[str, ...]:
        """The order so far: box first; tied players stand together in their first order."""
        return tuple(p for group in self._groups for p in group)

    @property
    def throws(self) -> dict[str, int]:
        """This round's throws of the players still tied."""
        return dict(self._throws)

    def throw(self, player: str, die: int) -> None:
        """Record `player`'s throw; once a tied group has all thrown, split it by the dice."""
        if player not in self.pending:
            raise ValueError(f"{player} does not throw now")
        self._throws[player] = die
        index = next(i for i, group in enumerate(self._groups) if player in group)
        group = self._groups[index]
        if any(p not in self._throws for p in group):
            return
        faces = sorted({self._throws[p] for p in group}, reverse=True)
        split = [[p for p in group if self._throws[p] == face] for face in faces]
        self._groups[index:index + 1] = split
        for p in group:
            del self._throws[p]

    def describe(self) -> str:
        """Where the seating stands, for error messages."""
        parts = []
        for group in self._groups:
            if len(group) == 1:
                parts.append(group[0])
            else:
                thrown = [f"{p} {self._throws[p]}" if p in self._throws else f"{p} ?" for p in group]
                parts.append("(" + " ".join(thrown) + ")")
        return "seating " + " > ".join(parts)
