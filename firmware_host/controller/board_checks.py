"""The board outside a play: set up as the table expects it, and left still between turns.

Before a game (and after a resume, a flag or a refused takeback) the table waits for the
sensed board to show a position; between turns nothing may move, except the last play taken
back by agreement (hardware_docs/referee.md).

A STACKS board cannot sense the order within a pile: whenever it must show a known position and
its colours are right on every zone, the table tells it that position's order (SET_STACKS,
hardware_docs/protocol.md), at a new game, a resume, and after a stack set by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from firmware_host.controller.dialogue import DialogueHost
from firmware_host.controller.prompts import Waiting
from firmware_host.controller.resign_takeback import Takeback
from firmware_host.controller.sensed_board import SensedBoard
from game.codes import Code, FlagKind
from game.position import Position
from game.reconcile import Misplaced, TurnReconciler
from game.zones import Capability, Layout, View, ZoneDiff, layout, sensed_view, zone_diff

StackSetter = Callable[[Layout], bool]
"""Tells a STACKS board the order of its stacks; False when the board does not take it."""


class BoardChecks:
    """Compares the settled sensed board with what it should show outside a play; `stacks` tells
    a STACKS board the order it cannot sense."""

    def __init__(self, controller: DialogueHost, board: SensedBoard, takeback: Takeback,
                 stacks: StackSetter | None = None) -> None:
        self.controller = controller
        self.board = board
        self.takeback = takeback
        self.stacks = stacks
        self._told: tuple[View, Layout] | None = None
        """The board as it read when its order was last told, and the order told."""

    def expected_view(self, position: Position) -> View:
        """How the sensors see `position`."""
        assert self.board.capability is not None
        return sensed_view(position, self.board.capability)

    def set_board(self, expected: Position) -> None:
        """The board must show `expected`: go on when it does (or, resuming mid-turn, shows a play
        on the way), else say which zones differ and light them."""
        board, played = self.board, self.controller.played
        assert board.capability is not None and board.zones is not None
        if played.dice is not None and expected == played.position:
            verdict = TurnReconciler(expected, played.dice, board.capability).judge(board.zones)
            if not isinstance(verdict, Misplaced):  # resuming mid-turn: a partial play may stand
                self.controller.advance()
                return
        diffs = zone_diff(expected, board.zones, board.capability)
        if not diffs:
            self.controller.outputs.note("the board is set")
            self.tell_order(expected, diffs)  # a new game or a resume: the board learns the order it stands in
            self.controller.advance()
            return
        if self.tell_order(expected, diffs):
            self.controller.restate("telling the board the order of its stacks: " + _zones(diffs))
            return
        self.controller.restate("; ".join(d.describe() for d in diffs[:4]) + (" ..." if len(diffs) > 4 else ""))
        self.controller.outputs.light(frozenset(d.zone for d in diffs))

    def tell_order(self, expected: Position, diffs: Sequence[ZoneDiff]) -> bool:
        """When the board is a STACKS board whose colours are right on every zone (`diffs` differ only
        in order), tell it `expected`'s order; False when there is nothing to tell or it cannot be told
        (another capability, a board without STACK_ORDER, or told already for this very board)."""
        board = self.board
        if self.stacks is None or board.capability is not Capability.STACKS or board.zones is None:
            return False
        if any(sorted(d.sensed.stack or "") != sorted(d.expected.stack or "") for d in diffs):
            return False
        order, now = layout(expected), tuple(board.zones)
        if diffs and self._told == (now, order):
            return False  # told already, and the board still reads the same: the players must see it
        if not self.stacks(order):
            return False
        self._told = (now, order)
        if diffs:
            self.controller.outputs.note(f"told the board the order of its stacks ({_zones(diffs)})")
        return True

    def still(self, view: View) -> None:
        """Between plays the board must not change; a return to the last position asks for a takeback.
        A STACKS board that reads the position in another order (its MCU restarted, say) is told it."""
        played = self.controller.played
        expected = self.expected_view(played.position)
        if view == expected:
            return
        last = self.takeback.before
        if last is not None and played.can_take_back and view == self.expected_view(last):
            self.controller.apply(self.takeback.ask())
            return
        assert self.board.capability is not None
        diffs = zone_diff(played.position, view, self.board.capability)
        if self.tell_order(played.position, diffs):
            return
        perspective = (played.position.variant, played.position.turn)
        wrong = "; ".join(d.describe(perspective) for d in diffs)
        self.controller.flag(FlagKind.SET_BOARD, played.position.turn, f"checkers moved between turns: {wrong}",
                             Code.SET_CHECKERS, played.position)
        self.controller.publish(Waiting.SET_BOARD, position=played.position, code=Code.SET_CHECKERS,
                                message="checkers moved between turns: set them back",
                                zones=frozenset(d.zone for d in diffs))


def _zones(diffs: Sequence[ZoneDiff]) -> str:
    return "zones " + ", ".join(str(d.zone) for d in diffs)
