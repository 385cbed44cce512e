"""The room's errors, under one root. Each also inherits the builtin it is a kind of."""

from __future__ import annotations


class RoomError(Exception):
    """Root of the room's errors."""


class RoomConfigError(RoomError, ValueError):
    """A broker URL, table id or director configuration that cannot be used; says which and why."""


class BrokerUnavailable(RoomError, ConnectionError):
    """The broker cannot be reached (or Mosquitto cannot be started): the message says where."""


class MessageRejected(RoomError, ValueError):
    """A message on the broker that the room does not accept.

    `reason` is a short stable key the director counts by (`topic`, `payload`, `schema`,
    `table-id`, `hash`, `chain`, `conflict`, `match-id`, `too-large`, `unexpected`); the text says what was wrong.
    """

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
