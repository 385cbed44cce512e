"""Errors raised by the drivers: one root, each class also the matching builtin."""

from __future__ import annotations


class DriverError(Exception):
    """Root of every error raised by the drivers package."""


class ProtocolError(DriverError, ValueError):
    """Bytes or a message that do not follow the wire protocol."""


class MalformedMessage(ProtocolError):
    """A frame with a valid CRC whose message type or payload is not valid."""


class UnknownMessageType(MalformedMessage):
    """A frame with a valid CRC whose type is no message this host knows (a newer or a wrong firmware)."""


class UnsupportedVersion(ProtocolError):
    """A frame of a protocol version this host does not speak."""


class DriverConfigError(DriverError, ValueError):
    """A port URL, pin map or parameter the driver cannot work with."""


class DisplayValueError(DriverError, ValueError):
    """A value or text the cube display cannot show."""


class LinkError(DriverError, ConnectionError):
    """The serial link is down when an operation needs it up."""


class ReplyTimeout(DriverError, TimeoutError):
    """The board did not answer a request (handshake, snapshot, ping...) in time."""


class UnsupportedFeature(DriverError, NotImplementedError):
    """The connected board announced that it lacks the feature asked for."""


class GpioUnavailable(DriverError, OSError):
    """No GPIO to drive: the machine has none, or gpiozero's pin factory asked for cannot start."""


class DriverStateError(DriverError, RuntimeError):
    """A driver method called in a state where it cannot run (closed, threaded...)."""
