"""`LegalPlays`: the legal plays of one roll, as the kernel found them, made into `Play` objects
only when looked at.

A kernel returns each play as its resulting state (28 bytes) and its moves (3 bytes a move);
building the `Play` and its `Position` costs more than finding them, and most callers look at
few (a player picks one, the reconciler indexes them by sensed view, a bot scores the states).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import overload

from game.movegen.state import Gather, State, decoder, encode
from game.plays import Move, Play
from game.position import Position


class _Moves(dict[bytes, Move]):
    """Raw moves and their `Move`s, each made the first time it is looked up: all 1352 made when
    the module loads would cost every command's start-up more than a match's plays look up."""

    def __missing__(self, raw: bytes) -> Move:
        move = self[raw] = Move(raw[0], raw[1], bool(raw[2]))
        return move


MOVES = _Moves()
"""The `Move` of each raw move (3 bytes: source, target, hit): one object each, shared by every play."""


@lru_cache(maxsize=16384)
def moves_of(raw: bytes) -> tuple[Move, ...]:
    """The `Move`s of a kernel's raw moves (3 bytes each: source, target, hit)."""
    return tuple(MOVES[raw[i:i + 3]] for i in range(0, len(raw), 3))


class LegalPlays(Sequence[Play]):
    """Every legal play of a roll, one per distinct resulting position, in the kernel's order.

    A sequence of `Play` (len, index, slice, iterate, compare with a tuple of plays); each
    `Play` is built the first time it is looked at. `states` and `raw_moves` give every play
    without building objects: the resulting state (mover still on roll, as `Play.after_moves`)
    and the moves, 3 bytes each (see `game.movegen.state`).

        >>> from game import Position
        >>> plays = Position.initial().legal_plays((3, 1))
        >>> len(plays), plays.find(plays[5].after_moves) == plays[5], len(plays.states[5])
        (16, True, 28)
    """

    __slots__ = ("position", "dice", "states", "raw_moves", "_gather", "_built", "_to_position", "_index", "_looked_up")

    def __init__(self, position: Position, dice: tuple[int, int], states: tuple[State, ...],
                 raw_moves: tuple[bytes, ...], gather: Gather) -> None:
        self.position = position
        """The position the plays are made from."""
        self.dice = dice
        self.states = states
        self.raw_moves = raw_moves
        self._gather = gather  # the kernel's, for decoding states
        self._built: list[Play | None] | None = None
        self._to_position: Callable[[State], Position] | None = None
        self._index: dict[State, int] | None = None
        self._looked_up = False

    @property
    def dice_played(self) -> int:
        """How many dice each play plays (all play as many as can be played); 0 when none can."""
        return len(self.raw_moves[0]) // 3 if self.raw_moves else 0

    def __len__(self) -> int:
        return len(self.states)

    def __bool__(self) -> bool:
        return bool(self.states)

    @overload
    def __getitem__(self, index: int) -> Play: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Play, ...]: ...

    def __getitem__(self, index: int | slice) -> Play | tuple[Play, ...]:
        if isinstance(index, slice):
            return tuple(self._play(i) for i in range(*index.indices(len(self.states))))
        if not -len(self.states) <= index < len(self.states):
            raise IndexError(f"play {index} of {len(self.states)}")
        return self._play(index % len(self.states))

    def _play(self, i: int) -> Play:
        built = self._built
        if built is None:
            built = self._built = [None] * len(self.states)
        play = built[i]
        if play is None:
            play = built[i] = Play.found_legal(moves_of(self.raw_moves[i]), self.to_position(self.states[i]),
                                               self.position, self.dice)
        return play

    def __iter__(self) -> Iterator[Play]:
        built = self._built
        if built is None:
            built = self._built = [None] * len(self.states)
        to_position = self._decoder()
        for i, play in enumerate(built):
            if play is None:
                play = built[i] = Play.found_legal(moves_of(self.raw_moves[i]), to_position(self.states[i]),
                                                   self.position, self.dice)
            yield play

    def __contains__(self, play: object) -> bool:
        if not isinstance(play, Play):
            return False
        found = self.find(play.after_moves)
        return found is not None and found.moves == play.moves

    def to_position(self, state: State) -> Position:
        """The position a state of these plays stands for (the mover still on roll)."""
        return self._decoder()(state)

    def _decoder(self) -> Callable[[State], Position]:
        if self._to_position is None:
            self._to_position = decoder(self.position, self._gather)
        return self._to_position

    def index_of(self, state: State) -> int | None:
        """Which play leads to `state`, None when none does."""
        if self._index is None:
            if not self._looked_up:  # the first look-up scans (in C): many plays are looked up once (a .sgf's)
                self._looked_up = True
                try:
                    return self.states.index(state)
                except ValueError:
                    return None
            self._index = {state: i for i, state in enumerate(self.states)}
        return self._index.get(state)

    def find(self, position: Position) -> Play | None:
        """The play leading to `position` (the mover still on roll), None when none does."""
        if position.variant is not self.position.variant or position.turn is not self.position.turn:
            return None
        i = self.index_of(encode(position))
        return None if i is None else self._play(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalPlays):
            return (self.position.variant is other.position.variant and self.position.turn is other.position.turn
                    and self.states == other.states and self.raw_moves == other.raw_moves)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))  # equal to the tuple of its plays, so hashed alike

    def __repr__(self) -> str:
        shown = ", ".join(play.notation() for play in self[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"<LegalPlays of {self.dice[0]}{self.dice[1]} for {self.position!r}: {len(self)} [{shown}{more}]>"

