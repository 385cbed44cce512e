"""Whether the board is within the table's reach: the links that went down and have not come back.

While any link is down the table judges nothing (it cannot see the board), takes no press, and
the clocks stand; dice reports that arrive meanwhile on a link of their own wait until the board
is back, so a throw made during the outage is still counted (hardware_docs/referee.md).
"""

from __future__ import annotations

from drivers.events import DieState
from firmware_host.game_clock import GameClock
from game.board import Color


class Reach:
    """The links that are down, whose clock was stopped by the outage, and the dice held meanwhile."""

    def __init__(self) -> None:
        self.down: set[str] = set()
        self._stood: Color | None = None
        self._held: list[DieState] = []

    @property
    def out(self) -> bool:
        """True while any link is down."""
        return bool(self.down)

    def lose(self, source: str, clock: GameClock | None, now: float) -> bool:
        """`source` went down; True when the board has just gone out of reach (the first link down),
        in which case the running clock is stopped."""
        first = not self.down
        self.down.add(source)
        if first and clock is not None and clock.running is not None:
            self._stood = clock.running
            clock.stop(now)
        return first

    def regain(self, source: str, clock: GameClock | None, now: float) -> list[DieState] | None:
        """`source` is back. When every link is, the clock that stood runs again and the dice held
        are returned to be read now; None while another link is still down."""
        self.down.discard(source)
        if self.down:
            return None
        if clock is not None and self._stood is not None:
            clock.start(self._stood, now)
        self._stood = None
        held, self._held = self._held, []
        return held

    def hold(self, state: DieState) -> None:
        """A die's report that must wait until the board is back."""
        self._held.append(state)
