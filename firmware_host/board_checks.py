"""The board outside a play: set up as the table expects it, and left still between turns.

Before a game (and after a resume, a flag or a refused takeback) the table waits for the
sensed board to show a position; between turns nothing may move, except the last play taken
back by agreement (hardware_docs/referee.md).
"""

from __future__ import annotations

from firmware_host.agreements import Takeback
from firmware_host.desk import Desk
from firmware_host.prompts import Waiting
from firmware_host.reconcile import Misplaced, TurnReconciler
from firmware_host.sensed_board import SensedBoard
from game.match import Phase
from game.position import Position
from game.zones import View, sensed_view, zone_diff


class BoardChecks:
    """Compares the settled sensed board with what it should show outside a play."""

    def __init__(self, desk: Desk, board: SensedBoard, takeback: Takeback) -> None:
        self.desk = desk
        self.board = board
        self.takeback = takeback

    def expected_view(self, position: Position) -> View:
        """How the sensors see `position`."""
        assert self.board.capability is not None
        return sensed_view(position, self.board.capability)

    def set_board(self, expected: Position) -> None:
        """The board must show `expected`: go on when it does (or, resuming mid-turn, shows a play
        on the way), else say which zones differ and light them."""
        board, match = self.board, self.desk.match
        assert board.capability is not None and board.zones is not None
        if match.phase is Phase.MOVE and expected == match.position and match.dice is not None:
            verdict = TurnReconciler(expected, match.dice, board.capability).judge(board.zones)
            if not isinstance(verdict, Misplaced):  # resuming mid-turn: a partial play may stand
                self.desk.advance()
                return
        diffs = zone_diff(expected, board.zones, board.capability)
        if not diffs:
            self.desk.outputs.note("the board is set")
            self.desk.advance()
            return
        self.desk.restate("; ".join(d.describe() for d in diffs[:4]) + (" ..." if len(diffs) > 4 else ""))
        self.desk.outputs.light(frozenset(d.zone for d in diffs))

    def still(self, view: View) -> None:
        """Between plays the board must not change; a return to the last position asks for a takeback."""
        match = self.desk.match
        if view == self.expected_view(match.position):
            return
        last = self.takeback.before
        if last is not None and match.phase is Phase.ROLL and view == self.expected_view(last):
            self.takeback.ask()
            return
        self.desk.flag("set_board", match.position.turn, "checkers moved between turns", "SC", match.position)
        self.desk.publish(Waiting.SET_BOARD, position=match.position, code="SC",
                          message="checkers moved between turns: set them back")
