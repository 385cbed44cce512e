"""The board as its sensors report it: the capability the board announced, every zone as last
read, and the last board that stood still long enough to be judged.

A checker in the hand, one slid across points, set down crooked, or a flickering sensor makes
boards that last a scan or two; the `Debouncer` reports a board only after it has stood
unchanged for `settle_seconds`, and `SensedBoard` hands the controller only such boards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from firmware_host.errors import DebounceError
from game.zones import Capability, View, ZoneReading

READING_WAIT = 1.5
"""Seconds a reading asked for (`SensedBoard.ask`) is waited for: its answer takes milliseconds, a lost
one is made up by the board's next heartbeat snapshot (a second at the emulator's); a board whose
snapshots the driver refuses (a checker too many) sends none that counts, and then the zones as
read are judged, as without the asking."""


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
        self._board: list[ZoneReading] | None = None
        """The board as last read; made a `View` (a tuple) only once it has stood still: a zone
        change is a frame's work, most boards never settle (a checker in the hand)."""
        self._since = 0.0
        self._moving = False
        """The board changed since it was last polled as settled."""
        self._stable: View | None = None

    @property
    def stable(self) -> View | None:
        """The last stable board reported."""
        return self._stable

    def update(self, zones: Sequence[ZoneReading], now: float) -> View | None:
        """A whole board read at `now`; the newly stable board, if any."""
        board = list(zones)
        if board != self._board:
            self._moved(now)
            self._board = board
        return self.poll(now)

    def change(self, zone: int, reading: ZoneReading, now: float) -> View | None:
        """One zone read anew at `now`; the newly stable board, if any."""
        board = self._board
        if board is None:
            raise DebounceError("a zone change before any whole board was read")
        index = zone - 1
        if board[index] != reading:  # else the board is as it stood (as `update` would find it)
            self._moved(now)
            board[index] = reading
        return self.poll(now)

    def _moved(self, now: float) -> None:
        """The board read differs from the one before: it stands from `now`."""
        if self._board is not None and now < self._since:
            raise DebounceError(f"time went back from {self._since} to {now}")
        self._since, self._moving = now, True

    def poll(self, now: float) -> View | None:
        """Time passed: the board that has stood still for the settle time, once."""
        if not self._moving or now - self._since < self.settle_seconds:
            return None
        self._moving = False
        assert self._board is not None  # it moved
        board = tuple(self._board)
        if board == self._stable:
            return None  # back as it stood (a flicker): nothing new to judge
        self._stable = board
        return board


class SensedBoard:
    """Follows the board's snapshots and zone changes; `read` and `poll` return a board that has
    newly settled, for the controller to judge. `read_afresh` asks the board for a whole reading
    (the driver's `BoardSensor.read_afresh`; None: a board that cannot be asked)."""

    def __init__(self, settle_seconds: float, read_afresh: Callable[[], None] | None = None) -> None:
        self.capability: Capability | None = None
        self.zones: list[ZoneReading] | None = None
        """Every zone as last read, settled or not (None until the first snapshot)."""
        self._debouncer = Debouncer(settle_seconds)
        self._read_afresh = read_afresh
        self._awaiting = False
        """A whole reading was asked for and has not come: the board is not settled meanwhile."""
        self._asked_at: float | None = None
        """When the reading awaited was asked for (the first `poll` after `ask`)."""

    @property
    def stable(self) -> View | None:
        """The last board that settled."""
        return self._debouncer.stable

    @property
    def settled(self) -> bool:
        """The zones read now are the last settled board (no checker in motion, no reading awaited)."""
        return not self._awaiting and self.zones is not None and self._debouncer.stable == tuple(self.zones)

    def ask(self) -> bool:
        """Ask the board for a whole reading; unsettled until it comes. False: it cannot be asked.

        A zone change lost on the line (its frame cut or dropped) leaves the zones as read behind
        the board until the next snapshot, a heartbeat away; a decision taken on them meanwhile
        would judge a board that is not there."""
        if self._read_afresh is None or self.zones is None:
            return False
        self._awaiting, self._asked_at = True, None
        self._read_afresh()
        return True

    @property
    def ready(self) -> bool:
        """A whole board has been read and its capability is known."""
        return self.zones is not None and self.capability is not None

    def forget(self) -> None:
        """The board was out of reach: nothing read before counts; wait for a whole board again."""
        self.zones = None
        self._awaiting = False
        self._debouncer = Debouncer(self._debouncer.settle_seconds)

    def announce(self, capability: Capability | None) -> None:
        """The capability a board announced in its handshake."""
        if capability is not None:
            self.capability = capability

    def snapshot(self, capability: Capability, zones: tuple[ZoneReading, ...], now: float) -> View | None:
        """A whole board read; the newly settled board, if any."""
        self.capability = capability
        self.zones = list(zones)
        self._awaiting = False
        return self._debouncer.update(self.zones, now)

    def change(self, zone: int, reading: ZoneReading, now: float) -> View | None:
        """One zone read anew (ignored before the first snapshot); the newly settled board, if any."""
        if self.zones is None:
            return None
        self.zones[zone - 1] = reading
        return self._debouncer.change(zone, reading, now)

    def poll(self, now: float) -> View | None:
        """Time passed: the board that has newly settled, if any (and a reading awaited too long is given up)."""
        if self._awaiting:
            if self._asked_at is None:
                self._asked_at = now
            elif now - self._asked_at >= READING_WAIT:
                self._awaiting = False
        return self._debouncer.poll(now)


class DonePress:
    """A done press waiting for the board, one per turn (a person's play or the bot's carried out):
    the board is asked for a whole reading first, since a zone change lost on the line would have the
    press judged on a board behind the one standing (a spurious flag), and judged once it has
    settled; a press while checkers still move is never lost (whoever pressed waits for the table)."""

    def __init__(self) -> None:
        self.waiting = False

    def press(self, board: SensedBoard) -> bool:
        """Done pressed: True when the board is to be judged now (it cannot be asked and stands
        still); else the press waits for the reading asked for, or for the board to settle (`take`)."""
        self.waiting = True
        board.ask()
        return self.take(board)

    def take(self, board: SensedBoard) -> bool:
        """True, once, when a press waits and the board stands settled: judge it now."""
        if self.waiting and board.settled:
            self.waiting = False
            return True
        return False

    def forget(self) -> None:
        """The board is out of reach: the press waiting for it is forgotten."""
        self.waiting = False
