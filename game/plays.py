"""Moves and plays, and their notation, written the way GNU Backgammon writes it and read in every
form that transcripts use.

Writing (`format_moves`, `Play.notation`) follows GNU Backgammon's `FormatMove`: moves ordered
from the highest point down, one checker's consecutive steps joined (`13/9`), the point where it
hit on the way kept (`13/10*/9`), identical moves counted (`13/7(2)`), each hit marked once:

    >>> format_moves([Move(13, 10), Move(10, 9)])
    '13/9'
    >>> format_moves([Move(13, 10, hit=True), Move(10, 9)])
    '13/10*/9'
    >>> format_moves([Move(13, 7), Move(13, 7), Move(8, 2, hit=True), Move(8, 2)])
    '13/7(2) 8/2*(2)'

Reading (`WrittenPlay.parse`) keeps every point the text names, in the order written: `24/21*/15`,
`13/9(2)`, `bar/21`, `25/21`, `6/off`, `6/0`, with or without stars. Which legal play the text
stands for is for `game.play_reader` (and `Position.parse_play`) to decide.
"""

from __future__ import annotations

import re
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from game.board import BAR, OFF
from game.errors import NotationError
from game.values import Value
from game.values import set_field as _set

if TYPE_CHECKING:
    from game.position import Position


class Move(Value):
    """One checker moved by one die, in the mover's own numbering (25 = bar, 0 = off)."""

    __slots__ = ("source", "target", "hit")
    _fields = __slots__
    source: int
    target: int
    hit: bool  # a hit (Backgammon) or a trap (Catchgammon)

    def __init__(self, source: int, target: int, hit: bool = False) -> None:
        _set(self, "source", source)
        _set(self, "target", target)
        _set(self, "hit", hit)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Move:
            return NotImplemented
        return self.source == other.source and self.target == other.target and self.hit == other.hit

    def __hash__(self) -> int:
        return hash((self.source, self.target, self.hit))

    def __str__(self) -> str:
        return f"{point_name(self.source)}/{point_name(self.target)}{'*' if self.hit else ''}"


class Play(Value):
    """A legal play: its moves in the order played, and the position it produces.

    `after_moves` is the board after the play with the mover still to play (as the play is made,
    and as a table's sensors see it before the turn passes); `next_position` is the same with the
    turn passed, the position the opponent rolls in.
    """

    __slots__ = ("moves", "after_moves", "found_in")
    _fields = ("moves", "after_moves")
    moves: tuple[Move, ...]
    after_moves: Position
    found_in: tuple[Position, tuple[int, int]] | None
    """Where the rules engine found this play legal: the position before it and the roll; None for
    a play made any other way, which `Match.play` checks. Only `found_legal` sets it, so a play a
    caller builds (or derives with `replace`) never carries it; it is not compared, hashed or shown."""

    def __init__(self, moves: tuple[Move, ...], after_moves: Position) -> None:
        _set(self, "moves", moves)
        _set(self, "after_moves", after_moves)
        _set(self, "found_in", None)

    @classmethod
    def found_legal(cls, moves: tuple[Move, ...], after_moves: Position, before: Position,
                    dice: tuple[int, int]) -> Play:
        """A play the rules engine has just found legal from `before` with `dice` (the legal plays'
        search, `game.play_reader`): `Match.play` takes it there without searching again."""
        play = cls(moves, after_moves)
        _set(play, "found_in", (before, dice))  # immutable: set once, here
        return play

    def legal_in(self, before: Position, dice: tuple[int, int]) -> bool:
        """Whether the rules engine found this very play legal from `before` with `dice`."""
        found = self.found_in
        return found is not None and found[1] == dice and (found[0] is before or found[0] == before)

    @property
    def next_position(self) -> Position:
        """The position after the play, the opponent on roll."""
        return self.after_moves.pass_turn()

    def notation(self) -> str:
        """The play as GNU Backgammon writes it (`format_moves`)."""
        return format_moves(self.moves)

    def to_document(self) -> dict[str, Any]:
        """The play as `plays --json` prints it: notation, moves, the position after it."""
        return {
            "notation": self.notation(),
            "moves": [[m.source, m.target] for m in self.moves],
            "position": self.after_moves.to_document(),
        }

    def __str__(self) -> str:
        return self.notation()


def format_steps(before: Position, after: Position, steps: list[list[int]] | list[tuple[int, int]]) -> str:
    """A recorded play's (source, target) steps, mover's numbering, in GNU Backgammon's notation
    (`format_moves`), its hits found by comparing the position before with the one after."""
    mover, theirs = before.turn, before.turn.opponent.char
    hits = {own for own in range(1, 25)
            if before.own_stack(mover, own).count(theirs) > after.own_stack(mover, own).count(theirs)}
    marked = []
    for source, target in steps:
        marked.append(Move(source, target, target in hits))
        hits.discard(target)
    return format_moves(marked)


def format_roll(dice: tuple[int, int] | list[int]) -> str:
    """A roll as the project writes it for people: the higher die first, no dash (`53`, `66`),
    however the dice fell; a record keeps them as thrown.

    >>> format_roll((3, 5))
    '53'
    """
    high, low = sorted(dice, reverse=True)
    return f"{high}{low}"


def point_name(point: int) -> str:
    """A point as notation names it: `bar`, `off` or the number."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)


# -- writing --------------------------------------------------------------------------

def format_moves(moves: tuple[Move, ...] | list[Move]) -> str:
    """The play in GNU Backgammon's notation (its `FormatMove`), `(no play)` for none.

    The one formatter of the project: every listing, log, picture, sheet and .mat export
    writes plays through it.
    """
    if not moves:
        return "(no play)"
    hit_points = {m.target for m in moves if m.hit}  # where an opponent's blot stood before the play
    chains = [[m.source, m.target] for m in sorted(moves, key=lambda m: (-m.source, -m.target))]
    for i, chain in enumerate(chains):
        for j in range(i + 1, len(chains)):
            other = chains[j]
            if other and chain and chain[-1] == other[0]:
                if chain[-1] not in hit_points:
                    chain.pop()  # a point passed over without a hit is not written
                chain.append(other[-1])
                chains[j] = []
    counted: list[tuple[list[int], int]] = []
    for chain in filter(None, chains):
        for n, (seen, count) in enumerate(counted):
            if seen == chain:
                counted[n] = (seen, count + 1)
                break
        else:
            counted.append((chain, 1))
    starred: set[int] = set()
    words = []
    for chain, count in counted:
        text = point_name(chain[0])
        for point in chain[1:]:
            text += "/" + point_name(point)
            if point in hit_points and point not in starred:
                text += "*"
                starred.add(point)
        words.append(text + (f"({count})" if count > 1 else ""))
    return " ".join(words)


# -- reading ----------------------------------------------------------------------------

class Chain(NamedTuple):
    """One checker's way as written: the points it names, in order, and which carry a star
    (a NamedTuple, not a dataclass: made at every start of `python -m game`, it costs about an eighth as much).

    `13/10*/9` is points (13, 10, 9) with a star on 10. A step between two named points may
    take several dice (`13/9` with 31): the points it passes are the reader's to find.
    """

    points: tuple[int, ...]
    stars: frozenset[int] = frozenset()


_STARS = attrgetter("stars")  # a chain's stars, without a Python call: read at every play of a transcript
_TIMES = re.compile(r"\(([1-4])\)")
_POINT = re.compile(r"^(?P<name>bar|b|off|o|\d{1,2})(?P<star>\**)$")


class WrittenPlay(NamedTuple):
    """A play as a transcript or a user writes it: its chains in the order written
    (a NamedTuple, not a dataclass: made at every start of `python -m game`, it costs about an eighth as much).

    `marks_hits` says whether a missing star means "no hit" (the project's own notation, GNU
    Backgammon's) or nothing (producers that never write stars).
    """

    text: str
    chains: tuple[Chain, ...]
    marks_hits: bool = True

    @classmethod
    def parse(cls, text: str, *, marks_hits: bool = True) -> WrittenPlay:
        """Read notation: `24/18 13/11`, `24/21*/15`, `13/7(2)`, `bar/22`, `25/22`, `6/off`, `6/0`."""
        return _parse(text, marks_hits)

    @classmethod
    def _read(cls, text: str, marks_hits: bool) -> WrittenPlay:
        chains: list[Chain] = []
        for token in text.lower().replace(",", " ").split():
            times = _TIMES.findall(token) if "(" in token else []
            body = _TIMES.sub("", token) if times else token  # `6/5*(2)` and `6/5(2)*` both star the 5
            if len(times) > 1 or not body:
                raise NotationError(f"cannot read move {token!r} in {text!r}")
            points: list[int] = []
            stars: set[int] = set()
            for word in body.split("/"):
                if len(word) <= 2 and word.isdigit() and word.isascii():  # most words: a point's number
                    points.append(_point_value(word, text))
                    continue
                found = _POINT.match(word)
                if not found:
                    raise NotationError(f"cannot read {word!r} in move {token!r} of {text!r}: not a point "
                                        f"(1-24, bar, off)")
                point = _point_value(found["name"], text)
                if found["star"]:
                    stars.add(point)
                points.append(point)
            if len(points) < 2:
                raise NotationError(f"move {token!r} in {text!r} needs a source and a target")
            chain = Chain(tuple(points), frozenset(stars))
            chains.extend([chain] * int(times[0] if times else 1))
        return cls(text, tuple(chains), marks_hits)

    @classmethod
    def of(cls, moves: str | list[tuple[int, int]] | tuple[tuple[int, int], ...],
           hits: frozenset[int] | None = None) -> WrittenPlay:
        """Notation (stars mark the hits) or (source, target) steps with the points hit (`of_steps`)."""
        if isinstance(moves, str):
            return cls.parse(moves)
        return cls.of_steps([(int(s), int(t)) for s, t in moves], hits)

    @classmethod
    def of_steps(cls, steps: list[tuple[int, int]] | tuple[tuple[int, int], ...],
                 hits: frozenset[int] | None = None) -> WrittenPlay:
        """(source, target) steps, each one checker's way; `hits` the points where it hit, or None
        when the steps do not say."""
        text = " ".join(f"{point_name(s)}/{point_name(t)}" for s, t in steps)
        chains = tuple(Chain((s, t), frozenset({t}) & (hits or frozenset())) for s, t in steps)
        if hits is not None:  # hits on points the steps pass over: kept on the chain they fall in
            chains = tuple(Chain(c.points, c.stars | frozenset(
                h for h in hits if c.points[-1] < h < c.points[0])) for c in chains)
        return cls(text, chains, hits is not None)

    @property
    def stars(self) -> frozenset[int]:
        """Every point written with a star."""
        return frozenset().union(*map(_STARS, self.chains))

    @property
    def steps(self) -> list[tuple[int, int]]:
        """The named steps, (point, next named point) for each chain."""
        return [pair for c in self.chains for pair in zip(c.points, c.points[1:], strict=False)]


@lru_cache(maxsize=4096)
def _parse(text: str, marks_hits: bool) -> WrittenPlay:
    """`WrittenPlay.parse`, once for each text: a match writes the same plays again and again (and
    reading on reads the next plays of a game once for each reading). A play is immutable."""
    return WrittenPlay._read(text, marks_hits)


def _point_value(word: str, text: str) -> int:
    if word in ("bar", "b"):
        return BAR
    if word in ("off", "o"):
        return OFF
    value = int(word)
    if not 0 <= value <= BAR:
        raise NotationError(f"{word!r} in {text!r} is not a point (1-24, bar, off)")
    return value


def parse_moves(text: str) -> list[tuple[int, int]]:
    """Notation as (source, target) steps between the points it names: `24/18/12*`, `13/11(2)`.

    A chain such as `24/14` stays one step: which dice it used is for `game.play_reader`.
    """
    return WrittenPlay.parse(text).steps
