"""What a table is set to: the match, the referee profile, the sensing and the chess clock."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_host.errors import ConfigError
from game.board import Color, Variant
from game.bot.levels import Level
from game.chouette import MAX_PLAYERS, MIN_PLAYERS, ChouetteOptions
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
class ChouetteSettings:
    """A chouette at the table (firmware_host/controller/cube/chouette.py): the players in the order given,
    the house options, how many games the session plays before it stops (0: no limit), and which
    players are bots, at which level (firmware_host/controller/bot_seat.py: a bot plays whatever
    role the rotation gives it, box, captain or member)."""

    players: tuple[str, ...]
    options: ChouetteOptions = ChouetteOptions()
    games: int = 0
    bots: Mapping[str, Level] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise ConfigError(f"a chouette seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(self.players)}: "
                              f"{', '.join(self.players)}")
        if len(set(self.players)) != len(self.players) or not all(p and p == p.strip() for p in self.players):
            raise ConfigError(f"every player of a chouette needs a name of their own, got {list(self.players)}")
        if self.options.box_partner:
            raise ConfigError("box partners are not taken at the table yet: play without box_partner")
        if self.games < 0:
            raise ConfigError(f"a chouette's number of games is 0 (no limit) or more, got {self.games}")
        strangers = [name for name in self.bots if name not in self.players]
        if strangers:
            raise ConfigError(f"the bot {strangers[0]!r} is not a player of the chouette "
                              f"(players: {', '.join(self.players)})")
        levels = [level for level in self.bots.values() if not isinstance(level, Level)]
        if levels:
            raise ConfigError(f"a bot's level is one of {', '.join(level.value for level in Level)}, "
                              f"got {levels[0]!r}")

    def to_document(self) -> dict[str, Any]:
        """As the journal's `controller_start` event records it (the players and options are in
        the session's own first line)."""
        document: dict[str, Any] = {"games": self.games}
        if self.bots:
            document["bots"] = {name: self.bots[name].value for name in self.players if name in self.bots}
        return document


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
    chouette: ChouetteSettings | None = None
    """A chouette instead of a match (`length`, `options` and `players` are then the match's, unused)."""
    bots: Mapping[Color, Level] = field(default_factory=dict)
    """The sides a bot plays, at its level (firmware_host/controller/bot_seat.py); the others are people."""
    bot_seed: int = 0
    """Fixes the noise of the bots' weaker levels (a simulated match is reproducible from its seed)."""
    analyse: bool = False
    """At the end of a Backgammon match, write the analysed report beside the journal (needs the bot extra)."""

    def __post_init__(self) -> None:
        if self.chouette is not None and self.timed:
            raise ConfigError("a chouette is played without the chess clock (timed=False; [clock] enabled = false)")
        if self.chouette is not None and self.bots:
            raise ConfigError("a chouette seats its bots by player name, not by colour: name them in the "
                              "chouette's bots ([chouette] bots, --bots NAME)")

    def to_document(self) -> dict[str, Any]:
        """The referee's settings as the journal's `controller_start` event records them."""
        document: dict[str, Any] = {"profile": self.profile.value, "settle_seconds": self.settle_seconds,
                    "clock": self.timed, "clock_delay": self.clock_delay,
                    "reserve_per_point": self.reserve_per_point}
        if self.chouette is not None:
            document["chouette"] = self.chouette.to_document()
        if self.bots:
            document["bots"] = {color.value: self.bots[color].value for color in Color if color in self.bots}
        return document
