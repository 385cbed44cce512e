"""The base of the engine's immutable value types (`Position`, `Play`, `Move`, `Cube`,
`RuleOptions`, `MatchOptions`).

They were frozen dataclasses; they are plain classes with slots because every `python -m game`
process makes them at start-up, and importing `dataclasses` alone (it imports inspect, ast, dis and
tokenize) cost a validate process about a tenth of its instructions. A value compares, hashes and
prints as the dataclass did (its fields in order, `Name(field=value, ...)`), refuses assignment,
copies and pickles, and derives a changed copy with `replace` (python-chess style), as
`dataclasses.replace` did.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

set_field = object.__setattr__
"""How a value's own `__init__` (or a method making one without checking it again) sets a field:
its `__setattr__` refuses."""


class Value:
    """An immutable value made of the fields `_fields` names (in `__init__`'s order): equal to another
    of its class whose `_compared` fields (all of them unless a subclass says) are equal, hashed by
    them, printed with its fields (`_shown`, all unless a subclass says)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...]] = ()
    _shown: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        cls._compared = cls.__dict__.get("_compared", cls._fields)
        cls._shown = cls.__dict__.get("_shown", cls._fields)
        setattr(cls, "__match_args__", cls._fields)  # noqa: B010  # as a dataclass: `case Move(source, target)`

    def _key(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._compared])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a {type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a {type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), tuple([getattr(self, name) for name in self._fields])

    def replace(self, **changes: Any) -> Self:
        """A copy with `changes` (field names and their new values), made and checked as a new one is.

        >>> from game.cube import Cube
        >>> Cube().replace(value=4)
        Cube(value=4, owner=None, offered_by=None, beavered=False, max_value=None)
        """
        unknown = changes.keys() - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r} "
                            f"(its fields: {', '.join(self._fields)})")
        make: Any = type(self)
        return make(**{name: changes.get(name, getattr(self, name)) for name in self._fields})  # type: ignore[no-any-return]
