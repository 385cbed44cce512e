"""Serving the director's pages with uvicorn, and stopping in order on SIGTERM: one home for `director`
and `room-demo` (which both run them, so neither imports the other)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


def serve(app: Any, listen: tuple[str, int], seconds: float | None = None) -> None:
    """Serve the director's pages with uvicorn until Ctrl-C or SIGTERM (or `seconds`)."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host=listen[0], port=listen[1], log_level="warning",
                                           timeout_graceful_shutdown=1))  # open pages' streams end then
    if seconds is not None:
        timer = threading.Timer(seconds, lambda: setattr(server, "should_exit", True))
        timer.daemon = True
        timer.start()
    server.run()


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived (`kill`, a service manager): stop as Ctrl-C stops, closing what was started."""


def _terminated(signum: int, frame: Any) -> None:
    raise Terminated(f"signal {signum}")


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block SIGTERM raises `Terminated` (a KeyboardInterrupt), so that the `finally` that closes
    what a command started runs for `kill` as for Ctrl-C (uvicorn hands the signal back once it has stopped
    serving; by default SIGTERM would end the process there, leaving a Mosquitto of ours running)."""
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
