"""The opening book: the play of each opening roll, found by rollouts, for every variant.

A game's first play is made from the starting position with a roll of two different dice (the
opening roll: each player throws one die, equal dice are thrown again, in every variant). For
each of those 15 rolls the book keeps the best play by rollout among the expert level's best
candidates (the network's, GNU Backgammon's for Backgammon), each candidate's rolled-out equity
with its standard error and its paired difference from the best, the play the bot makes (the
rollout's best where it is surely better than the bot's own choice, `opening_rollouts.py`), and
per variant the command that remakes it (`python -m game.bot opening`). It ships as
`weights/opening.json`, readable as it is.

The expert level and stronger play the book's play when the position is the variant's starting
position under the standard rules and the context is one the book's cubeless money rollouts speak
for: money play without the Jacoby rule, or a match where both sides still need at least 3 points
(`applies`). In Rungammon every opening roll has one play only (the first checker must pass the
opponent's start before a second may leave): the book says so and rolls nothing out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from game.board import Color, Variant
from game.bot.context import MONEY, MatchContext
from game.errors import OpeningBookError
from game.plays import Play
from game.position import Position

OPENING_ROLLS: tuple[tuple[int, int], ...] = tuple((high, low) for high in range(2, 7) for low in range(1, high))
MIN_AWAY = 3  # a match where either side needs fewer values gammons too unlike money play for the book


def shipped_book_path() -> Path:
    """Where the opening book ships inside the package."""
    return Path(str(resources.files("game.bot") / "weights" / "opening.json"))


def roll_key(dice: tuple[int, int]) -> str:
    """The book's name of a roll: the higher die first ("31")."""
    return f"{max(dice)}{min(dice)}"


def is_opening(position: Position) -> bool:
    """Whether `position` is its variant's starting position under the standard rules (either side on roll)."""
    return not position.rules and position == Position.initial(position.variant, position.turn)


def applies(context: MatchContext) -> bool:
    """Whether the book's cubeless money rollouts speak for `context` (see the module's text)."""
    if context.money:
        return not context.options.jacoby
    return all(context.away(color) >= MIN_AWAY for color in Color)


@dataclass(frozen=True, slots=True)
class BookEntry:
    """One opening roll of one variant: the play, whether it was the only one, the rollout's
    best, the bot's own choice without the book, and the rollout of each candidate (as `rollout
    --json` prints them, best first; empty when forced)."""

    variant: Variant
    roll: tuple[int, int]
    play: str
    forced: bool
    rollout_best: str
    network_choice: str
    candidates: tuple[Mapping[str, Any], ...]

    def legal_play(self) -> Play:
        """The entry's play as a legal `Play` from the starting position (White on roll)."""
        start = Position.initial(self.variant)
        found = [p for p in start.legal_plays(self.roll) if p.notation() == self.play]
        if not found:
            raise OpeningBookError(f"the opening book's {self.variant.value} {roll_key(self.roll)} play "
                                   f"{self.play!r} is not a legal play of that roll from the start")
        return found[0]


class OpeningBook:
    """The book's entries by variant and roll, with each variant's record (command, games, seed)."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        """Read a book document (what `to_document` gives); a malformed one raises `OpeningBookError`."""
        self.document = dict(document)
        self.entries: dict[tuple[Variant, str], BookEntry] = {}
        sections = document.get("variants")
        if not isinstance(sections, Mapping):
            raise OpeningBookError("an opening book needs a 'variants' object")
        for name, section in sections.items():
            try:
                variant = Variant(name)
                rolls = section["rolls"]
                for key, entry in rolls.items():
                    roll = (int(key[0]), int(key[1]))
                    if roll not in OPENING_ROLLS or len(key) != 2:
                        raise ValueError(f"roll {key!r} is no opening roll")
                    self.entries[variant, key] = BookEntry(variant, roll, str(entry["play"]), bool(entry["forced"]),
                                                           str(entry["rollout_best"]), str(entry["network_choice"]),
                                                           tuple(entry["candidates"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise OpeningBookError(f"the opening book's {name!r} section cannot be read: {exc}") from None

    @classmethod
    def load(cls, path: Path | str | None = None) -> OpeningBook:
        """The book in `path` (the shipped one unless told)."""
        path = Path(path) if path is not None else shipped_book_path()
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise OpeningBookError(f"cannot read the opening book {str(path)!r}: {exc}") from None
        if not isinstance(document, Mapping):
            raise OpeningBookError(f"the opening book {str(path)!r} is not a JSON object")
        return cls(document)

    def entry(self, variant: Variant, dice: tuple[int, int]) -> BookEntry | None:
        """The book's entry of `variant` for an opening roll, None when it has none."""
        return self.entries.get((variant, roll_key(dice)))

    def play(self, position: Position, dice: tuple[int, int], context: MatchContext = MONEY) -> Play | None:
        """The book's play for `position` and `dice`, None when the book does not speak for them."""
        if dice[0] == dice[1] or not is_opening(position) or not applies(context):
            return None
        entry = self.entry(position.variant, dice)
        if entry is None:
            return None
        return next((p for p in position.legal_plays(dice) if p.notation() == entry.play), None)

    def section(self, variant: Variant) -> Mapping[str, Any] | None:
        """A variant's record in the book (command, games, candidates, seed, rolls), None if absent."""
        found = self.document["variants"].get(variant.value)
        return found if isinstance(found, Mapping) else None


@cache
def shipped_book() -> OpeningBook:
    """The shipped book, read once."""
    return OpeningBook.load()


def book_play(position: Position, dice: tuple[int, int], context: MatchContext = MONEY) -> Play | None:
    """The shipped book's play for `position` and `dice` (None: not an opening the book speaks for)."""
    if dice[0] == dice[1] or not is_opening(position):
        return None  # the common case answered before the book is read
    return shipped_book().play(position, dice, context)
