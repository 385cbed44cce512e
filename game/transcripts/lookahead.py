"""Reading on: which reading of an ambiguous play the rest of its game bears out.

Where a written play still fits several legal plays with different results (`13/9` with 31 past
a blot, in a dialect that never marks hits), a careful referee reads on: the reading under which
the following plays of the game are legal is the one the players made. Each reading is followed
through the game's next plays, position by position (a later ambiguous play branches), until one
reading alone is left. The search is bounded: at most `MAX_PLAYS` plays ahead and `MAX_BRANCHES`
positions per reading, so no file can make it explode.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.errors import GameError, IllegalPlayError
from game.play_reader import candidates, describe
from game.plays import Play, WrittenPlay
from game.position import Position
from game.replay import MAT_WINS
from game.values import Record

MAX_PLAYS = 40
MAX_BRANCHES = 32
Entry = tuple[int, dict[str, Any]]


class Choice(Record):
    """The reading chosen, and why, in words for the verdict's note.

    A NamedTuple, not a dataclass: made at every start of `python -m game`, it costs about an eighth as much.
    """

    play: Play
    reason: str


def choose(readings: Sequence[Play], upcoming: Sequence[Entry], marks_hits: bool, cube: int) -> Choice:
    """The reading of a play that the game's following entries (`upcoming`, up to the next game) bear out."""
    alive: list[set[Position]] = [{play.next_position} for play in readings]
    died_at: list[int | None] = [None] * len(readings)
    dice: tuple[int, int] | None = None
    plays_read = 0
    last_line = None
    for line, event in upcoming:
        kind = event["type"]
        if kind == "roll":
            dice = (int(event["dice"][0]), int(event["dice"][1]))
        elif kind == "double" and isinstance(event.get("value"), int):
            cube = int(event["value"])
        elif kind == "beaver":
            cube = int(event.get("value") or 2 * cube)
        elif kind == MAT_WINS:
            return _at_the_end(readings, alive, event, cube, line)
        elif kind != "play" or dice is None or plays_read >= MAX_PLAYS:
            break  # something the positions alone cannot follow: decide on what was read
        else:
            plays_read += 1
            last_line = line
            if not _follow(alive, died_at, plays_read, event, dice, marks_hits):
                break
            dice = None
            standing = [i for i, positions in enumerate(alive) if positions]
            if len(standing) == 1:
                chosen = readings[standing[0]]
                return Choice(chosen, f"only {chosen.notation()} lets the play at line {line} be legal")
            if not standing:
                return _latest_death(readings, died_at, line)
    return _undecided(readings, alive, last_line)


def _follow(alive: list[set[Position]], died_at: list[int | None], depth: int, event: dict[str, Any],
            dice: tuple[int, int], marks_hits: bool) -> bool:
    """Move every reading's positions on by one written play; False when the play cannot be followed."""
    text = str(event.get("text", ""))
    try:
        written = WrittenPlay.parse(text, marks_hits=marks_hits)
    except GameError:
        return False
    for i, positions in enumerate(alive):
        after: set[Position] = set()
        for position in positions:
            if not written.chains:
                if position.legal_plays(dice):
                    return False  # the roll only: a resignation follows, nothing more to read
                after.add(position.pass_turn())
                continue
            try:
                after.update(p.next_position for p in candidates(position, dice, written))
            except IllegalPlayError:
                continue
        if positions and not after:
            died_at[i] = depth
        alive[i] = set(list(after)[:MAX_BRANCHES])
    return True


def _at_the_end(readings: Sequence[Play], alive: list[set[Position]], event: dict[str, Any], cube: int,
                line: int) -> Choice:
    """The game's result is the last witness: a reading whose game ended by bearing off must end it as written."""
    winner, points = str(event.get("player")), int(event.get("points") or 0)

    def fits(position: Position) -> bool:
        result = position.result()
        return result is None or (result.winner.value == winner and points <= cube * int(result.kind))

    standing = [i for i, positions in enumerate(alive) if positions]
    fitting = [i for i in standing if any(fits(p) for p in alive[i])]
    if len(fitting) == 1:
        chosen = readings[fitting[0]]
        return Choice(chosen, f"only {chosen.notation()} leads to the result at line {line}")
    return _undecided(readings, [alive[i] if i in fitting else set() for i in range(len(alive))], line)


def _latest_death(readings: Sequence[Play], died_at: list[int | None], line: int) -> Choice:
    latest = max(depth for depth in died_at if depth is not None)
    chosen = _plainest([play for play, depth in zip(readings, died_at, strict=True) if depth == latest])
    return Choice(chosen, f"no reading lets the play at line {line} be legal; took {chosen.notation()}")


def _undecided(readings: Sequence[Play], alive: list[set[Position]], line: int | None) -> Choice:
    standing = [i for i, positions in enumerate(alive) if positions] or list(range(len(readings)))
    chosen = _plainest([readings[i] for i in standing])
    others = describe([p for p in readings if p != chosen])
    if len(standing) > 1 and all(alive[i] == alive[standing[0]] for i in standing):
        return Choice(chosen, f"{others} leads to the same position by line {line}; took {chosen.notation()}")
    return Choice(chosen, f"the rest of the game cannot tell it from {others}; took {chosen.notation()}, "
                          f"the reading with no hit on the way (as GNU Backgammon reads it)")


def _plainest(readings: Sequence[Play]) -> Play:
    """The reading with the fewest hits: GNU Backgammon's reading of a step past a blot."""
    return min(readings, key=lambda p: sum(m.hit for m in p.moves))
