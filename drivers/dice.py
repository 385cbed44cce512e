"""Electronic dice: their states as `DieState` events, on the board's link or their own."""

from __future__ import annotations

from contextlib import suppress
from typing import Unpack

from drivers.errors import LinkError
from drivers.events import DieState
from drivers.link import DeviceRole, LinkOptions, SerialLink
from drivers.protocol import BoardMessage, DiceRequest, DieReport, Features, Hello

DICE_COUNT = 2
"""A board has two dice: their ids are the first two it reports (in its answer to DICE_REQUEST
after the first handshake); a report from any other die is rejected."""


class Dice(DeviceRole):
    """Delivers a `DieState` when a die's status, face, battery or throw count changes, and every
    die's state after each `LinkUp` (marked `resync`: how it lies, not a change seen). Periodic
    reports that change nothing are not repeated.

    `Dice("/dev/ttyACM1", events=q)` for dice on their own port; `Dice(board.link)` when the
    board's microcontroller reports them.
    """

    def __init__(self, port: SerialLink | str, **options: Unpack[LinkOptions]) -> None:
        super().__init__(port, options)
        self._states: dict[int, DieState] = {}
        self._ids: set[int] = set()
        """The board's dice: the first DICE_COUNT ids it reported since the first handshake."""
        self._board_id: int | None = None

    def states(self) -> tuple[DieState, ...]:
        """The last state of every die heard from since the last LinkUp, by die id."""
        return tuple(self._states[die] for die in sorted(self._states))

    def link_up(self, hello: Hello) -> None:
        """After each handshake: forget the dice and ask for their states (each is reported as it lies, marked
        `resync`)."""
        self._states.clear()
        if hello.board_id != self._board_id:  # another board: its own dice
            self._board_id, self._ids = hello.board_id, set()
        if Features.DICE in hello.features:
            with suppress(LinkError):
                self.link.send(DiceRequest())

    def frames_lost(self, timestamp: float) -> None:
        """Frames were lost on the line: one may have been a die's report, so ask for every die's
        state now rather than wait for the heartbeat's (a report that changes nothing is no event)."""
        hello = self.link.hello
        if hello is not None and Features.DICE in hello.features:
            with suppress(LinkError):
                self.link.send(DiceRequest())

    def receive(self, message: BoardMessage, timestamp: float) -> None:
        """A die report from the link becomes a `DieState` event when the die's state changed."""
        if not isinstance(message, DieReport):
            return
        if message.die_id not in self._ids:
            if len(self._ids) >= DICE_COUNT:
                self.reject("die report", f"die {message.die_id:#x} is not one of the board's dice "
                            f"({', '.join(f'{i:#x}' for i in sorted(self._ids))})", message, timestamp)
                return
            self._ids.add(message.die_id)
        known = self._states.get(message.die_id)
        if known is not None and (known.status, known.face, known.battery_pct, known.throw) == (
                message.status, message.face, message.battery_pct, message.throw):
            return
        state = DieState(source=self.link.source, timestamp=timestamp, die_id=message.die_id,
                         status=message.status, face=message.face,
                         battery_pct=message.battery_pct, throw=message.throw, resync=known is None)
        self._states[message.die_id] = state
        self.events.put(state)
