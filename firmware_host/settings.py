"""What a table is set to: the match, the referee profile, the sensing and the chess clock."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from game.board import Variant
from game.match import NO_OPTIONS, MatchOptions


class Profile(enum.Enum):
    """How strictly the table referees, chosen per match (hardware_docs/referee.md).

    - casual: verdicts are shown on the display as the checkers move; an illegal play or a
      misplaced checker must be corrected before the turn passes; a cocked die is laid flat.
    - tournament ("legal moves"): nothing is shown until the clock press; then an illegal play
      must be corrected before the opponent rolls; a cocked die means both dice are rolled again.
    - traditional: as tournament, but the opponent may accept an illegal play (take) or require
      its correction (pass). A board that no sequence of the roll explains is always corrected.
    """

    CASUAL = "casual"
    TOURNAMENT = "tournament"
    TRADITIONAL = "traditional"


@dataclass(frozen=True)
class Settings:
    """One table's settings; `timed` turns the chess clock on, with `clock_delay` seconds free
    per turn and `reserve_per_point` seconds of reserve per point of the match."""

    variant: Variant = Variant.BACKGAMMON
    length: int | None = 3
    options: MatchOptions = NO_OPTIONS
    players: tuple[str, str] = ("White", "Black")
    profile: Profile = Profile.TOURNAMENT
    settle_seconds: float = 0.3
    timed: bool = True
    clock_delay: float = 12.0
    reserve_per_point: float = 120.0
    images: bool = True
    """Draw a discrepancy picture for each flag."""

    def to_document(self) -> dict[str, Any]:
        """The referee's settings as the journal's `controller_start` event records them."""
        return {"profile": self.profile.value, "settle_seconds": self.settle_seconds,
                "clock": self.timed, "clock_delay": self.clock_delay,
                "reserve_per_point": self.reserve_per_point}
