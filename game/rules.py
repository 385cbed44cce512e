"""Rule options: the one home of every choice of rules beyond the variant (game/RULES.md, "Rule
options"), as python-chess carries `chess960` on its board.

A `RuleOptions` value rides on every `Position` (so move generation, results, notation and the bot
read it from the position they are given) and on `MatchOptions` (so the record's first line, the
replay, `validate` and the table's configuration carry it). Each option belongs to one variant:

    nackgammon       Backgammon: each side starts with 2 checkers on its 24-point, 2 on its
                     23-point, 4 on its 13, 3 on its 8 and 4 on its 6 (GNU Backgammon's
                     Nackgammon variation)
    mother_checker   Catchgammon: trapping the opponent's last checker on its starting point
                     while your own is free wins a double game at once (Plakoto's mother checker)

Written as words (the command line's `--rules`, the table's configuration, `parse`):

    >>> RuleOptions.parse("nackgammon")
    RuleOptions(nackgammon=True, mother_checker=False)
    >>> RuleOptions.parse("mother-checker").words()
    'mother-checker'
    >>> RuleOptions().words()
    'standard'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.board import Variant
from game.errors import RuleOptionError
from game.values import Value
from game.values import set_field as _set

_VARIANT = {"nackgammon": Variant.BACKGAMMON, "mother_checker": Variant.CATCHGAMMON}
"""The variant each option belongs to."""


class RuleOptions(Value):
    """Rule options, each off by default (the rules of game/RULES.md as they stand)."""

    __slots__ = ("nackgammon", "mother_checker")
    _fields = __slots__
    nackgammon: bool
    mother_checker: bool

    def __init__(self, nackgammon: bool = False, mother_checker: bool = False) -> None:
        _set(self, "nackgammon", nackgammon)
        _set(self, "mother_checker", mother_checker)

    def __eq__(self, other: object) -> bool:
        if type(other) is not RuleOptions:
            return NotImplemented
        return self.nackgammon == other.nackgammon and self.mother_checker == other.mother_checker

    def __hash__(self) -> int:
        return hash((self.nackgammon, self.mother_checker))

    @classmethod
    def parse(cls, text: str) -> RuleOptions:
        """Options written as words separated by commas or spaces (`nackgammon`, `mother-checker`);
        `standard` or nothing for none."""
        chosen: dict[str, bool] = {}
        for word in text.replace(",", " ").split():
            name = word.strip().lower().replace("-", "_")
            if name == "standard":
                continue
            if name not in _VARIANT:
                raise RuleOptionError(f"unknown rule option {word!r} (known: {', '.join(cls.known())}, standard)")
            chosen[name] = True
        return cls(**chosen)

    @staticmethod
    def known() -> tuple[str, ...]:
        """Each option's word, as `parse` reads it."""
        return tuple(name.replace("_", "-") for name in _VARIANT)

    def words(self) -> str:
        """The options on, as `parse` reads them: `nackgammon`, or `standard` for none."""
        return ",".join(name.replace("_", "-") for name in self._on()) or "standard"

    def _on(self) -> tuple[str, ...]:
        return tuple(name for name in self._fields if getattr(self, name))

    def check(self, variant: Variant) -> None:
        """Refuse an option that belongs to another variant."""
        if self is STANDARD or self == STANDARD:
            return  # every position made is checked: the common case costs one comparison
        for name in self._on():
            if _VARIANT[name] is not variant:
                raise RuleOptionError(f"the rule option {name.replace('_', '-')} is for {_VARIANT[name].value}, "
                                      f"not {variant.value}")

    def to_document(self) -> dict[str, bool]:
        """The options that are on, as the record writes them (`{}` for none)."""
        return {name: True for name in self._on()}

    @classmethod
    def from_document(cls, doc: Any) -> RuleOptions:
        """Read what `to_document` wrote (refusing an unknown option, or one that is not true/false)."""
        if not isinstance(doc, Mapping) or set(doc) - set(_VARIANT) or not all(
                isinstance(value, bool) for value in doc.values()):
            raise RuleOptionError(f"rule options must be an object of true/false among {sorted(_VARIANT)}, got {doc!r}")
        return cls(**doc)

    def __bool__(self) -> bool:
        """Whether any option is on."""
        return self is not STANDARD and self != STANDARD  # asked at every play: the common case, no comparison


STANDARD = RuleOptions()
"""No option: the rules of game/RULES.md as they stand."""
