"""Serve an emulator port on a pseudo-terminal, so that a driver opens a real tty path."""

from __future__ import annotations

import os
import select
import threading
import tty
from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from firmware_host.emulator.firmware import EmulatorPort

_MAX_PENDING = 64 * 1024


class PtyServer:
    """Runs the firmware of one `EmulatorPort` on the master side of `os.openpty()` in a
    daemon thread; `path` is the slave tty for the driver. The slave stays open here too, so
    the tty outlives the driver closing and reopening it (as a real port would)."""

    def __init__(self, port: EmulatorPort, interval: float = 0.005) -> None:
        with port.emulator.lock:
            if port.attached:
                raise OSError(f"emulator port {port.name!r} is already attached")
            port.attached = True
        self._port = port
        self._interval = interval
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"pty {self.path}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        port, pending = self._port, bytearray()
        while not self._stop.is_set():
            readable, _, _ = select.select([self._master], [], [], self._interval)
            if readable:
                try:
                    port.write_from_host(os.read(self._master, 4096))
                except BlockingIOError:
                    pass
            port.emulator.service()
            pending += port.read_to_host(_MAX_PENDING)
            if not port.plugged or len(pending) > _MAX_PENDING:
                pending.clear()  # a pulled cable, or nobody reading: the bytes are lost
            if pending:
                try:
                    del pending[:os.write(self._master, pending)]
                except BlockingIOError:
                    pass

    def close(self) -> None:
        """Stop serving and close the pseudo-terminal."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._thread.join()
        os.close(self._master)
        os.close(self._slave)
        self._port.attached = False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
