"""pyserial URL handler for ``emulator://NAME[?options]``: a port of an in-process emulator.

`import firmware_host.emulator.board` registers the scheme (it adds "firmware_host.emulator" to
`serial.protocol_handler_packages`). The URL opens a port of the `BoardEmulator` named NAME,
creating it from the options if no emulator has that name yet; options are ignored when it
exists. Options: ``capability=counts|color_counts|stacks`` (default stacks),
``dice=board|own_port|none``, ``seed=N``, ``heartbeat_ms=N``, ``line_noise=F``,
``flicker_rate=F``, and ``port=board|dice`` (which of its ports to open, default board).

Reads advance time through the emulator's clock: with a `ManualClock` a read that times out
moves the clock by its timeout, so scans and heartbeats happen as the host waits.
"""

from __future__ import annotations

import random
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from serial import PortNotOpenError, SerialBase, SerialException

from firmware_host.emulator.board import BoardEmulator, DiceWiring
from firmware_host.emulator.firmware import EmulatorPort, PortName
from firmware_host.errors import EmulatorError
from game.zones import Capability


def port_for_url(url: str) -> EmulatorPort:
    """The emulator port an ``emulator://`` URL names, making the emulator if needed."""
    parts = urlsplit(url)
    if parts.scheme != "emulator" or not parts.netloc:
        raise SerialException(f"expected emulator://NAME[?options], got {url!r}")
    options = dict(parse_qsl(parts.query))
    port_name = cast(PortName, options.pop("port", "board"))
    try:
        emulator = BoardEmulator.named(parts.netloc)
        if emulator is None:
            emulator = _create(parts.netloc, options)
        return emulator.port(port_name)
    except (EmulatorError, KeyError, ValueError) as error:
        raise SerialException(f"cannot open {url!r}: {error}") from error


def _create(name: str, options: dict[str, str]) -> BoardEmulator:
    known = {"capability", "dice", "seed", "heartbeat_ms", "line_noise", "flicker_rate"}
    if set(options) - known:
        raise ValueError(f"unknown options {sorted(set(options) - known)}")
    seed = options.get("seed")
    try:
        return BoardEmulator(
            capability=Capability[options.get("capability", "stacks").upper()],
            dice=cast(DiceWiring, options.get("dice", "board").replace("_", " ")),
            rng=random.Random(int(seed)) if seed is not None else None,
            heartbeat_ms=int(options.get("heartbeat_ms", 1000)),
            line_noise=float(options.get("line_noise", 0.0)),
            flicker_rate=float(options.get("flicker_rate", 0.0)), name=name)
    except EmulatorError:  # made by another thread meanwhile
        made = BoardEmulator.named(name)
        if made is None:
            raise
        return made


class Serial(SerialBase):  # type: ignore[misc]  # pyserial ships no type hints
    """A port of an in-process `BoardEmulator`, with pyserial's interface."""

    is_open: bool
    _emulator_port: EmulatorPort | None = None

    def open(self) -> None:
        """Attach to the emulator's port named in the URL."""
        if self.is_open:
            raise SerialException("Port is already open.")
        if self._port is None:
            raise SerialException("Port must be configured before it can be used.")
        port = port_for_url(self.portstr)
        with port.emulator.lock:
            if port.vanished:
                raise SerialException(f"could not open port {self.portstr}: no such device")
            if port.attached:
                raise SerialException(f"could not open port {self.portstr}: already open")
            port.attached = True
        self._emulator_port = port
        self.is_open = True

    def close(self) -> None:
        """Detach from the emulator's port."""
        if self._emulator_port is not None:
            self._emulator_port.attached = False
            self._emulator_port = None
        self.is_open = False

    def _live(self) -> EmulatorPort:
        port = self._emulator_port
        if not self.is_open or port is None:
            raise PortNotOpenError()
        if port.vanished:
            raise SerialException("device disconnected (cable pulled)")
        return port

    @property
    def in_waiting(self) -> int:
        """Bytes the firmware has sent and this side has not read."""
        port = self._live()
        port.emulator.service()
        return port.pending()

    def read(self, size: int = 1) -> bytes:
        """Up to `size` bytes, waiting up to the timeout on the emulator's clock."""
        port = self._live()
        emulator = port.emulator
        clock = emulator.clock
        deadline = None if self._timeout is None else clock.now() + self._timeout
        while True:
            emulator.service()
            data = port.read_to_host(size)
            if data or deadline is None and size == 0:
                return data
            remaining = float("inf") if deadline is None else deadline - clock.now()
            if remaining <= 0:
                return b""
            clock.sleep(min(remaining, emulator.scan_period))
            self._live()

    def write(self, data: Any) -> int:
        """Bytes to the firmware, which answers at once."""
        payload = bytes(data)
        self._live().write_from_host(payload)
        return len(payload)

    def reset_input_buffer(self) -> None:
        """Throw away what the firmware sent and was not read."""
        self._live().drop_output()

    def reset_output_buffer(self) -> None:
        """Nothing to do: writes reach the firmware at once."""
        self._live()

    def _reconfigure_port(self) -> None:
        pass

    def _update_break_state(self) -> None:
        pass

    def _update_rts_state(self) -> None:
        pass

    def _update_dtr_state(self) -> None:
        pass

    @property
    def cts(self) -> bool:
        """Always True: the emulated line has no flow control."""
        return True

    @property
    def dsr(self) -> bool:
        """Always True: the emulated device is ready."""
        return True

    @property
    def ri(self) -> bool:
        """Always False: no ring indicator."""
        return False

    @property
    def cd(self) -> bool:
        """Always True: carrier detected."""
        return True
