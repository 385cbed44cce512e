"""Colours, variants and the geometry of each player's path on the board.

Board points are numbered 1-24 as White's own points. Each player also has
"own" point numbers along its path: 24 is where the path starts, 1 the last
point before bearing off; 25 stands for the bar and 0 for borne off.
"""

from __future__ import annotations

import enum

BAR = 25
OFF = 0
CHECKERS = 15


class Color(enum.Enum):
    """A player's colour: White moves from board point 24 toward 1, Black the other way (Rungammon: from 12)."""

    WHITE = "white"
    BLACK = "black"

    # Hashed as objects are (a member is equal only to itself), not by enum's own __hash__ in Python
    # (the hash of its name, as random from process to process): colours key the board's tables.
    __hash__ = object.__hash__

    @property
    def char(self) -> str:
        """The one-letter form used in point stacks: "w" or "b"."""
        return self.value[0]

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def index(self) -> int:
        """0 for White, 1 for Black: the order of (white, black) pairs."""
        return 0 if self is Color.WHITE else 1

    @classmethod
    def from_char(cls, char: str) -> Color:
        """The colour of a stack character, "w" or "b"."""
        return cls.WHITE if char == "w" else cls.BLACK


class Variant(enum.Enum):
    """The three games played on the board."""

    BACKGAMMON = "backgammon"
    CATCHGAMMON = "catchgammon"
    RUNGAMMON = "rungammon"

    __hash__ = object.__hash__  # as Color's

    @property
    def has_bar(self) -> bool:
        """Only Backgammon sends hit checkers to the bar."""
        return self is Variant.BACKGAMMON

    @property
    def triple_name(self) -> str:
        """The name of the triple win: backgammon, catchgammon or rungammon."""
        return self.value


def _own_to_board(variant: Variant, color: Color) -> tuple[int, ...]:
    """Index p (1-24) gives the board point of the player's own point p; index 0 is unused."""
    if color is Color.WHITE:
        return tuple(range(25))
    if variant is Variant.RUNGAMMON:
        return (0, *(((p + 11) % 24) + 1 for p in range(1, 25)))
    return (0, *(25 - p for p in range(1, 25)))


OWN_TO_BOARD: dict[tuple[Variant, Color], tuple[int, ...]] = {
    (v, c): _own_to_board(v, c) for v in Variant for c in Color
}
BOARD_TO_OWN: dict[tuple[Variant, Color], tuple[int, ...]] = {}
for _key, _table in OWN_TO_BOARD.items():
    _inverse = [0] * 25
    for _own in range(1, 25):
        _inverse[_table[_own]] = _own
    BOARD_TO_OWN[_key] = tuple(_inverse)


def board_point(variant: Variant, color: Color, own: int) -> int:
    """The board point (1-24) of `color`'s own point `own` (1-24)."""
    return OWN_TO_BOARD[variant, color][own]


def own_point(variant: Variant, color: Color, board: int) -> int:
    """`color`'s own number (1-24) of board point `board` (1-24)."""
    return BOARD_TO_OWN[variant, color][board]
