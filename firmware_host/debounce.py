"""Debouncing the sensed board: a board is judged only once it has stood still.

A checker in the hand, one slid across points, set down crooked, or a flickering sensor makes
boards that last a scan or two; the `Debouncer` reports a board only after it has stood
unchanged for `settle_seconds`.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_host.errors import DebounceError
from game.zones import View, ZoneReading


class Debouncer:
    """Reports the board once it has stood unchanged for `settle_seconds`, so a checker in
    the hand, one slid across points, set down crooked or a flickering sensor is never judged.

    Feed it every board read (`update`) or zone change (`change`), and call `poll` as time
    passes; each returns the newly stable board, or None. Times are seconds from one
    monotonic clock.
    """

    def __init__(self, settle_seconds: float = 0.3) -> None:
        if settle_seconds < 0:
            raise DebounceError(f"settle time {settle_seconds} is negative")
        self.settle_seconds = settle_seconds
        self._board: View | None = None
        self._since = 0.0
        self._stable: View | None = None

    @property
    def stable(self) -> View | None:
        """The last stable board reported."""
        return self._stable

    def update(self, zones: Sequence[ZoneReading], now: float) -> View | None:
        """A whole board read at `now`; the newly stable board, if any."""
        board = tuple(zones)
        if board != self._board:
            if self._board is not None and now < self._since:
                raise DebounceError(f"time went back from {self._since} to {now}")
            self._board, self._since = board, now
        return self.poll(now)

    def change(self, zone: int, reading: ZoneReading, now: float) -> View | None:
        """One zone read anew at `now`; the newly stable board, if any."""
        if self._board is None:
            raise DebounceError("a zone change before any whole board was read")
        board = list(self._board)
        board[zone - 1] = reading
        return self.update(board, now)

    def poll(self, now: float) -> View | None:
        """Time passed: the board that has stood still for the settle time, once."""
        if self._board is None or now - self._since < self.settle_seconds or self._board == self._stable:
            return None
        self._stable = self._board
        return self._board
