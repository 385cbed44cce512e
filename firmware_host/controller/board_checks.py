"""The board outside a play: set up as the table expects it, and left still between turns.

Before a game (and after a resume, a flag or a refused takeback) the table waits for the
sensed board to show a position; between turns nothing may move, except the last play taken
back by agreement (hardware_docs/referee.md).

A STACKS board cannot sense the order within a pile: whenever it must show a known position and
its colours are right on every zone, the table tells it that position's order (SET_STACKS,
hardware_docs/protocol.md), at a new game, a resume, and after a stack set by hand. That order is
told at once (the board answers later, as its own events); what the people are told is handed back
as effects (firmware_host/controller/effects.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from firmware_host.controller.effects import Advance, Effects, Light, Note, Publish, RaiseFlag, Restate
from firmware_host.controller.prompts import Prompt, Waiting
from firmware_host.controller.resign_takeback import Takeback
from firmware_host.controller.sensed_board import SensedBoard
from firmware_host.controller.session import Session
from game.codes import Code, FlagKind
from game.position import Position
from game.reconcile import Misplaced, TurnReconciler
from game.zones import Capability, Layout, View, ZoneDiff, layout, sensed_view, zone_diff

StackSetter = Callable[[Layout], bool]
"""Tells a STACKS board the order of its stacks; False when the board does not take it."""


class BoardChecks:
    """Compares the settled sensed `board` with what it should show outside a play of `session`;
    `stacks` tells a STACKS board the order it cannot sense."""

    def __init__(self, session: Session, board: SensedBoard, takeback: Takeback,
                 stacks: StackSetter | None = None) -> None:
        self.session = session
        self.board = board
        self.takeback = takeback
        self.stacks = stacks
        self._told: tuple[View, Layout] | None = None
        """The board as it read when its order was last told, and the order told."""

    def expected_view(self, position: Position) -> View:
        """How the sensors see `position`."""
        assert self.board.capability is not None
        return sensed_view(position, self.board.capability)

    def set_board(self, expected: Position) -> Effects:
        """The board must show `expected`: go on when it does (or, resuming mid-turn, shows a play
        on the way), else say which zones differ and light them."""
        board, played = self.board, self.session
        assert board.capability is not None and board.zones is not None
        if played.dice is not None and expected == played.position:
            verdict = TurnReconciler(expected, played.dice, board.capability).judge(board.zones)
            if not isinstance(verdict, Misplaced):  # resuming mid-turn: a partial play may stand
                return [Advance()]
        diffs = zone_diff(expected, board.zones, board.capability)
        if not diffs:
            self.tell_order(expected, diffs)  # a new game or a resume: the board learns the order it stands in
            return [Note("the board is set"), Advance()]
        told = self.tell_order(expected, diffs)
        if told is not None:
            return [*told, Restate("telling the board the order of its stacks: " + _zones(diffs))]
        return [Restate("; ".join(d.describe() for d in diffs[:4]) + (" ..." if len(diffs) > 4 else "")),
                Light(frozenset(d.zone for d in diffs))]

    def setting(self, view: View, prompt: Prompt) -> Effects:
        """A settled board while the table waits for the board set as the prompt says."""
        assert prompt.position is not None
        return self.set_board(prompt.position)

    def tell_order(self, expected: Position, diffs: Sequence[ZoneDiff]) -> Effects | None:
        """When the board is a STACKS board whose colours are right on every zone (`diffs` differ only
        in order), tell it `expected`'s order, and what to say of it; None when there is nothing to
        tell or it cannot be told (another capability, a board without STACK_ORDER, or told already
        for this very board)."""
        board = self.board
        if self.stacks is None or board.capability is not Capability.STACKS or board.zones is None:
            return None
        if any(sorted(d.sensed.stack or "") != sorted(d.expected.stack or "") for d in diffs):
            return None
        order, now = layout(expected), tuple(board.zones)
        if diffs and self._told == (now, order):
            return None  # told already, and the board still reads the same: the players must see it
        if not self.stacks(order):
            return None
        self._told = (now, order)
        return [Note(f"told the board the order of its stacks ({_zones(diffs)})")] if diffs else []

    def still(self, view: View, prompt: Prompt | None = None) -> Effects:
        """Between plays the board must not change; a return to the last position asks for a takeback.
        A STACKS board that reads the position in another order (its MCU restarted, say) is told it."""
        played = self.session
        if view == self.expected_view(played.position):
            return []
        last = self.takeback.before
        if last is not None and played.can_take_back and view == self.expected_view(last):
            return self.takeback.ask()
        assert self.board.capability is not None
        diffs = zone_diff(played.position, view, self.board.capability)
        told = self.tell_order(played.position, diffs)
        if told is not None:
            return told
        perspective = (played.position.variant, played.position.turn)
        wrong = "; ".join(d.describe(perspective) for d in diffs)
        return [RaiseFlag(FlagKind.SET_BOARD, played.position.turn, f"checkers moved between turns: {wrong}",
                          Code.SET_CHECKERS, played.position),
                Publish(Waiting.SET_BOARD, position=played.position, code=Code.SET_CHECKERS,
                        message="checkers moved between turns: set them back", zones=frozenset(d.zone for d in diffs))]

    def withdrawn(self, view: View, prompt: Prompt | None = None) -> Effects:
        """A settled board while a takeback is asked: back as the play left it, the request is withdrawn."""
        if view != self.expected_view(self.session.position):
            return []
        return [Note("takeback withdrawn: the board is back as it was"), Advance()]


def _zones(diffs: Sequence[ZoneDiff]) -> str:
    return "zones " + ", ".join(str(d.zone) for d in diffs)
