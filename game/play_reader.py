"""Which legal play a written play stands for: the one resolver of the project.

`Position.parse_play`, the .mat reader (`game.transcripts`), `Match.play` with notation or steps,
the chouette and the pictures' arrows all come here. A written play is matched by every point it
names, in the order written: each named step is walked by one checker, die by die, through the
legal single moves of the position, so a checker that lands on a blot hits it whether or not the
text has a star. Where a step spans several dice (`13/9` with 31) every way through is tried; the
ways that end in different positions are the candidates. Stars then choose among them when the
notation marks hits (a missing star means no hit); what is still open is an `AmbiguousPlayError`
carrying the candidates, for a caller that can read on (the transcript reader's look-ahead).

The chains' moves may come in any order (transcripts do not all write moves in the order they
were made, and `bar/13(2)` enters both checkers before either moves on); the written order is
tried first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from game.errors import AmbiguousPlayError, IllegalPlayError, IncompletePlayError
from game.movegen import State, legal_states, play_allowed, single_move_walk
from game.plays import Chain, Move, Play, WrittenPlay, format_moves
from game.position import Position

Step = Callable[[State, int, int], list[tuple[State, Move]]]  # state, die, source point


class Reading(NamedTuple):
    """One way to make a written play: the single-die moves and where they hit.

    A NamedTuple, not a dataclass: made at every start of `python -m game`, it costs about an eighth as much.
    """

    moves: tuple[Move, ...]
    state: State
    complete: bool  # every die was used

    @property
    def hits(self) -> frozenset[int]:
        """The points where a move of this reading hit (or trapped)."""
        return frozenset(m.target for m in self.moves if m.hit)


def read_play(position: Position, dice: tuple[int, int], written: WrittenPlay | str) -> Play | None:
    """The legal play `written` stands for (None: no move written and none possible).

    Raises `IllegalPlayError` when no legal play fits and `AmbiguousPlayError` (with `.plays`) when
    several still do after the stars have been read.
    """
    if isinstance(written, str):
        written = WrittenPlay.parse(written)
    found = candidates(position, dice, written)
    if len(found) <= 1:
        return found[0] if found else None
    raise AmbiguousPlayError(
        f"{written.text!r} fits {len(found)} legal plays of {_roll(dice)} for {position.turn.value} "
        f"({'; '.join(p.notation() for p in found)}) in {_where(position)}", tuple(found))


def candidates(position: Position, dice: tuple[int, int], written: WrittenPlay) -> list[Play]:
    """Every legal play the written play may stand for after its stars are read, one per resulting
    position: empty only for no move written where none is possible; `IllegalPlayError` when none fits."""
    if not written.chains:
        legal = legal_states(position, dice)
        if legal:
            raise IllegalPlayError(f"the roll {_roll(dice)} must be played ({len(legal)} legal plays), got no "
                                   f"move, in {_where(position)}")
        return []
    state, step, decode = single_move_walk(position)
    readings: dict[State, list[Reading]] = {}
    reachable = short = False
    search: dict[State, tuple[Move, ...]] | None = None  # the full search, only where a die is left unused
    first = _straight(state, step, _dice_list(dice), written.chains)
    if first is not None and play_allowed(position.variant, first.state):
        # One die for each named step, every die used: any other way makes the same moves.
        return [Play.found_legal(first.moves, decode(first.state), position, dice)]
    for reading in _realize(state, step, _dice_list(dice), written.chains):
        reachable = True
        short = short or not reading.complete
        if reading.complete:
            legal_here = play_allowed(position.variant, reading.state)
        else:
            search = legal_states(position, dice) if search is None else search
            legal_here = reading.state in search
        if legal_here:
            readings.setdefault(reading.state, []).append(reading)
    if not readings:
        why = ("it does not use the dice as the rules require (as many as can be played, the larger if "
               "only one)" if reachable else "no checker can move that way with these dice")
        error = IncompletePlayError if short else IllegalPlayError
        raise error(f"{written.text} is not a legal play of {_roll(dice)} for {position.turn.value}: "
                    f"{why}; in {_where(position)}")
    if written.marks_hits and len(readings) > 1:
        stars = written.stars
        marked = {after: ways for after, ways in readings.items() if any(r.hits == stars for r in ways)}
        readings = marked or readings
    return [_play(ways[0], decode(after), position, dice) for after, ways in readings.items()]


def _play(reading: Reading, after: Position, position: Position, dice: tuple[int, int]) -> Play:
    """The play of a reading. One that leaves a die unused reaches a legal play's position by fewer
    moves than that play makes: it is not marked found legal, so `Match.play` records the legal
    play's own moves for it."""
    if reading.complete:
        return Play.found_legal(reading.moves, after, position, dice)
    return Play(reading.moves, after)


def _dice_list(dice: tuple[int, int]) -> tuple[int, ...]:
    return (dice[0],) * 4 if dice[0] == dice[1] else dice


Progress = tuple[tuple[int, int], ...]  # for each chain: the point its checker is on, the next named point's index


def _straight(state: State, step: Step, dice: tuple[int, ...], chains: tuple[Chain, ...]) -> Reading | None:
    """The common case, fast: every named step is one die, taken in the order written, and every die
    is used. None when that is not how the play can be read (then `_realize` tries every way)."""
    left = list(dice)
    moves: list[Move] = []
    for chain in chains:
        points = chain.points
        for at, target in zip(points, points[1:], strict=False):
            distance = at - target
            options = [distance] if target or distance in left else sorted({d for d in left if d > distance})
            for die in options:
                if die not in left:
                    continue
                for new, move in step(state, die, at):
                    if move.target == target:
                        state = new
                        moves.append(move)
                        left.remove(die)
                        break
                else:
                    continue
                break
            else:
                return None
    return None if left else Reading(tuple(moves), state, True)


def _realize(state: State, step: Step, dice: tuple[int, ...], chains: tuple[Chain, ...],
             in_order: bool = False) -> Iterator[Reading]:
    """Every way to walk the chains with these dice, each named step by one checker, die by die.

    The chains' moves may interleave (`bar/13(2)` with 66 enters both checkers before either moves
    on); each chain's own points are passed in the order written. The written order is tried first;
    `in_order` tries nothing else.
    """
    start: Progress = tuple((chain.points[0], 1) for chain in chains)
    seen: set[tuple[State, Progress, tuple[int, ...]]] = set()

    def walk(state: State, left: tuple[int, ...], progress: Progress, done: tuple[Move, ...]) -> Iterator[Reading]:
        if all(index == len(chain.points) for chain, (_, index) in zip(chains, progress, strict=True)):
            yield Reading(done, state, not left)
            return
        key = (state, progress, tuple(sorted(left)))
        if key in seen:
            return
        seen.add(key)
        for n, (chain, (at, index)) in enumerate(zip(chains, progress, strict=True)):
            if index == len(chain.points):
                continue
            if in_order and n > 0 and progress[n - 1][1] < len(chains[n - 1].points):
                break
            target = chain.points[index]
            for i, die in enumerate(left):
                if die in left[:i]:
                    continue
                for new, move in step(state, die, at):
                    if move.target < target:
                        continue  # past the point named
                    reached = (move.target, index + 1) if move.target == target else (move.target, index)
                    yield from walk(new, left[:i] + left[i + 1:], progress[:n] + (reached,) + progress[n + 1:],
                                    done + (move,))

    yield from walk(state, dice, start, ())


def _roll(dice: tuple[int, int]) -> str:
    return f"{dice[0]}{dice[1]}"


def _where(position: Position) -> str:
    return position.notation()


def describe(plays: tuple[Play, ...] | list[Play]) -> str:
    """Candidates in one line, for notes and messages."""
    return "; ".join(format_moves(p.moves) for p in plays)
