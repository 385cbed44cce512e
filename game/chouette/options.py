"""The chouette's fixed terms: the sides of the board, the house options, how many may play."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from typing import Any

from game.board import Color
from game.errors import OptionDisabled

MIN_PLAYERS = 3  # with two it is a money game
MAX_PLAYERS = 9  # the display names a member with one digit (P1 .. P8)
PARTNER_PLAYERS = 6  # the box may take a partner from six players on
RECORD_VERSION = 1


class Side(enum.Enum):
    """The two sides of the board: the box alone, and the team whose captain moves the checkers."""

    BOX = "box"
    TEAM = "team"

    @property
    def color(self) -> Color:
        """The team plays White (its buttons are White's), the box Black."""
        return Color.WHITE if self is Side.TEAM else Color.BLACK

    @classmethod
    def of(cls, color: Color) -> Side:
        """The side that plays `color`."""
        return cls.TEAM if color is Color.WHITE else cls.BOX

    @property
    def other(self) -> Side:
        """The side across the board."""
        return Side.BOX if self is Side.TEAM else Side.TEAM


@dataclass(frozen=True, slots=True)
class ChouetteOptions:
    """The house options, each off by default (the common modern chouette with members' own cubes).

    `team_cube`: one cube for the whole team, turned and answered by the captain for all.
    `box_takes_half`: when two or more members turn their centred cubes in the same turn, the box
    takes at least half of them or passes them all (both, when the team has two members).
    `box_partner`: from six players on, the box may take a partner who shares its results.
    """

    team_cube: bool = False
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: bool = False
    box_takes_half: bool = False
    box_partner: bool = False

    def __post_init__(self) -> None:
        if self.team_cube and self.box_takes_half:
            raise OptionDisabled("the box-takes-half rule is about members' own cubes; "
                                 "with one team cube there is one decision")

    def to_document(self) -> dict[str, bool]:
        """The options as the record writes them."""
        return asdict(self)

    @classmethod
    def from_document(cls, doc: Any) -> ChouetteOptions:
        """Read the record's options; refuses unknown keys and non-booleans."""
        names = {f.name for f in fields(cls)}
        if not isinstance(doc, Mapping) or set(doc) - names or not all(isinstance(v, bool) for v in doc.values()):
            raise OptionDisabled(f"chouette options must be an object of booleans with keys among "
                                 f"{sorted(names)}, got {doc!r}")
        return cls(**doc)

    def describe(self) -> str:
        """The options that are on, in words ("members' own cubes" when none is)."""
        words = ["one team cube" if self.team_cube else "members' own cubes"]
        words += [name.replace("_", " ") for name, on in self.to_document().items() if on and name != "team_cube"]
        return ", ".join(words)


def number(value: Fraction | int) -> int | float:
    """A result as the record writes it: whole points as integers, a partner's half point as x.5."""
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


def signed(value: Fraction | int) -> str:
    """A result as a score sheet shows it: +2, -1, 0, +1.5."""
    value = Fraction(value)
    text = str(number(value))
    return text if value <= 0 else "+" + text
