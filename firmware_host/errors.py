"""Every error of the table's host software: one root, `TableError`, each also the matching builtin."""

from __future__ import annotations


class TableError(Exception):
    """Root of every error raised by `firmware_host`."""


class ConfigError(TableError, ValueError):
    """A configuration (file or command line) that cannot be used; the message names the key and the file."""


class DebounceError(TableError, ValueError):
    """Boards fed to a debouncer out of order: time going back, a zone change before any board."""


class ClockError(TableError, RuntimeError):
    """The chess clock asked to do what it cannot (stop while not running)."""


class ClockNotRunning(ClockError):
    """The clock was stopped while no player's clock ran."""


class EmulatorError(TableError, RuntimeError):
    """The board emulator cannot do what it was asked (a port it has not, a name in use)."""


class ImpossibleAction(EmulatorError, ValueError):
    """A physical action the board cannot undergo (lift from an empty zone...)."""


class FirmwareBuildError(TableError, RuntimeError):
    """The reference firmware or its simavr board model (firmware/) cannot be built or started: the
    message names the command and what it printed."""


class MisfitBoard(TableError, RuntimeError):
    """The board that answered lacks what the table's configuration needs (dice, zone sensing):
    the message says what, and which setting needs it."""


class NotAMatch(TableError, LookupError):
    """The match of a table that plays a chouette (or something else): read what it plays instead."""


class JournalError(TableError, ValueError):
    """A journal that does not fit what was asked: a new match over an old one, a resume of nothing."""


class DirectoryError(TableError, OSError):
    """A directory the table or the room writes to that cannot be made (a file of that name, a folder
    this process may not write): the message names it and says why."""


class KeyFileError(TableError, ValueError):
    """The table's signing key cannot be used: readable by others, or not an Ed25519 key."""


class BrokerUnavailable(TableError, ConnectionError):
    """The room's broker cannot be reached or started (Mosquitto missing): the message says where or how."""


class NotAvailable(TableError, LookupError):
    """A page or file of the room's director that does not exist (or not for this match); the message says why."""


class LoginThrottled(TableError, PermissionError):
    """Too many wrong logins from this address or for this name: no password is checked until
    `retry_after` seconds have passed (the wait doubles with each further failure)."""

    def __init__(self, detail: str, retry_after: float) -> None:
        super().__init__(detail)
        self.retry_after = retry_after


class MessageRejected(TableError, ValueError):
    """A message on the room's broker that the room does not accept.

    `reason` is a short stable key the director counts by (`topic`, `payload`, `schema`,
    `table-id`, `hash`, `chain`, `conflict`, `match-id`, `too-large`, `unexpected`: see
    hardware_docs/room.md); the text says what was wrong.
    """

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
