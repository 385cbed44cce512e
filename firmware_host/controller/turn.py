"""One player's move for one roll at the table: each settled board judged as it comes, the done
press, and the choice among legal plays that look alike to the sensors.

The judging itself is the reconciler's (`TurnReconciler`); this part keeps what the table has
seen of the turn and turns a done press into what the controller does next: commit a play,
ask the player to choose, or flag the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from firmware_host.controller.sensed_board import DonePress
from game.plays import Play
from game.position import Position
from game.reconcile import Ambiguous, Illegal, Legal, TurnReconciler, Verdict
from game.zones import Capability, ZoneReading


@dataclass(frozen=True, slots=True)
class Commit:
    """Commit `play`; `among` is non-empty when the player chose it from look-alikes."""

    play: Play
    among: tuple[Play, ...] = ()


@dataclass(frozen=True, slots=True)
class Choose:
    """The board is one of several legal plays alike to the sensors: the player picks one."""

    verdict: Ambiguous


@dataclass(frozen=True, slots=True)
class Flag:
    """The board is no legal play: an illegal play or checkers to set right."""

    verdict: Verdict


Decision = Commit | Choose | Flag


class Turn:
    """The state of one turn: the last verdict, the look-alike plays offered and which one is
    shown, and an illegal play waiting for the opponent's acceptance (traditional profile)."""

    def __init__(self, position: Position, dice: Sequence[int], capability: Capability) -> None:
        self.reconciler = TurnReconciler(position, dice, capability)
        self.verdict: Verdict | None = None
        self.choices: tuple[Play, ...] = ()
        self.choice = 0
        self.done_press = DonePress()
        """A done press waiting for the board to be read afresh or to settle."""
        self.illegal: Illegal | None = None
        """An illegal play the opponent may accept or have corrected."""

    @property
    def position(self) -> Position:
        """The position before the play."""
        return self.reconciler.position

    @property
    def dice(self) -> tuple[int, int]:
        """The roll being played."""
        return self.reconciler.dice

    def judge(self, view: Sequence[ZoneReading]) -> Verdict:
        """A settled board during the turn."""
        self.verdict = self.reconciler.judge(view)
        return self.verdict

    def done(self, zones: Sequence[ZoneReading]) -> Decision:
        """The player pressed done with the board standing as `zones`."""
        if self.choices:
            return Commit(self.choices[self.choice], self.choices)
        verdict = self.verdict = self.reconciler.judge(zones, done=True)
        if isinstance(verdict, Legal):
            return Commit(verdict.play)
        if isinstance(verdict, Ambiguous):
            self.choices, self.choice = verdict.plays, 0
            return Choose(verdict)
        return Flag(verdict)

    def next_choice(self) -> Play | None:
        """Show the next look-alike play (None when there is no choice to make)."""
        if not self.choices:
            return None
        self.choice = (self.choice + 1) % len(self.choices)
        return self.choices[self.choice]
