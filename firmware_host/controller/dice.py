"""Collecting a throw from the two electronic dice: when it counts, and what a cocked or early
die means.

A die counts toward a throw when it is seen rolling and settling while a throw is expected, or
settling with a throw count that moved since the host last heard of it (its ROLLING report lost
on the line, or thrown while the link was down). Any other report of a settled die is how it
lies, not a throw: the same die answered again, its battery's charge fallen, the die as first
reported after a reconnection (`resync`). A die whose count went back to 0 started again with its
board (protocol.md: "A die at power-up"), however it lies (the one throw in 65,536 that wraps a
count to 0 counts only when it is seen rolling: a phantom roll from a restarted board would be
worse). The dice are read in the order of their ids: at the opening roll the die with the lower
id is White's, whatever the order in which they land (hardware_docs/protocol.md), and the table
shows each player's die as it lands (`opening_dice`).
"""

from __future__ import annotations

from dataclasses import dataclass

from drivers.events import DieState
from drivers.protocol import DieStatus
from game import codes


@dataclass(frozen=True, slots=True)
class Thrown:
    """Both dice have settled: the faces, lower die id first."""

    faces: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Cocked:
    """A die landed cocked: roll both again (`rethrow`), or lay that one flat."""

    rethrow: bool


@dataclass(frozen=True, slots=True)
class EarlyRoll:
    """The dice were thrown while the other player was still to move (reported once a turn)."""


DiceOutcome = Thrown | Cocked | EarlyRoll


class DiceCollector:
    """The dice between two prompts: `expect()` when a throw is asked for, then `report()` each
    die state; it tells when the throw is complete, or what went wrong."""

    def __init__(self, *, rethrow_cocked: bool) -> None:
        self.rethrow_cocked = rethrow_cocked
        self._fresh: dict[int, DieState] = {}
        self._early_told = False
        self._throws: dict[int, int] = {}
        """Each die's throw count as last reported."""

    def landed(self) -> tuple[tuple[int, int | None], ...]:
        """Every die heard of, lower id first, with the face it settled on in this throw (None: not yet)."""
        return tuple((die, self._fresh[die].face if die in self._fresh and self._fresh[die].status is DieStatus.SETTLED
                      else None) for die in sorted(self._throws))

    def expect(self) -> None:
        """A new prompt: dice seen before it do not count, and an early roll may be told again."""
        self._fresh.clear()
        self._early_told = False

    def report(self, state: DieState, *, throw_expected: bool, moving: bool) -> DiceOutcome | None:
        """One die's new state; `throw_expected`: the table asks for a throw now; `moving`: a
        player is moving checkers (a throw now is early)."""
        # A die first heard of is how it lies when reported as such (`resync`); otherwise (the
        # host's virtual dice) it has been thrown as many times as its count says.
        heard = self._throws.get(state.die_id, None if state.resync else 0)
        thrown_unseen = heard is not None and state.throw not in (heard, 0)
        self._throws[state.die_id] = state.throw
        if not throw_expected:
            if moving and state.status is DieStatus.ROLLING and not self._early_told:
                self._early_told = True
                return EarlyRoll()
            return None
        if state.status is DieStatus.COCKED:
            if self.rethrow_cocked:
                self._fresh.clear()
            else:  # still in this throw: laid flat, it settles with the count it was thrown with
                self._fresh[state.die_id] = state
            return Cocked(self.rethrow_cocked)
        if state.status is DieStatus.REMOVED:
            self._fresh.pop(state.die_id, None)
            return None
        in_this_throw = state.die_id in self._fresh  # seen rolling (or cocked) since the prompt
        if state.status is DieStatus.SETTLED and not in_this_throw and not thrown_unseen:
            return None  # how the die lies: not a throw
        self._fresh[state.die_id] = state
        settled = [s for _, s in sorted(self._fresh.items()) if s.status is DieStatus.SETTLED]
        if len(settled) < 2 or len(self._fresh) < 2:
            return None
        self._fresh.clear()
        return Thrown(((settled[0].face or 0), (settled[1].face or 0)))


def opening_dice(collector: DiceCollector) -> tuple[str, str] | None:
    """At the opening roll, whose die is whose (the lower id is White's) and each face as it lands:
    the display's two characters (White's die on the left, "-" until it lands) and a line for the
    view; None until both dice have been heard of."""
    dice = collector.landed()
    if len(dice) < 2:
        return None
    (white, white_face), (black, black_face) = dice[:2]

    def face(value: int | None) -> str:
        return "-" if value is None else str(value)

    return (codes.opening(white_face, black_face),
            f"each player throws one die: White's die {white:#x} {face(white_face)}, "
            f"Black's die {black:#x} {face(black_face)}")
