"""Serving the director's pages with uvicorn, and stopping in order on SIGTERM: one home for `director`
and `room-demo` (which both run them, so neither imports the other)."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

from firmware_host.errors import ConfigError


def page_sites(listen: tuple[str, int], site: str | None) -> tuple[str, ...]:
    """The origins browsers reach the pages at: --site, else the --listen address (127.0.0.1 by localhost
    too); ConfigError for an address on every interface without --site (which name do browsers use?).

    >>> page_sites(("127.0.0.1", 8080), None)
    ('http://127.0.0.1:8080', 'http://localhost:8080')
    """
    if site is not None:
        if not site.startswith(("http://", "https://")) or site.count("/") != 2:
            raise ConfigError(f"--site {site!r} is not http(s)://NAME[:PORT], the address browsers open")
        return (site.rstrip("/"),)
    host, port = listen
    if host in ("0.0.0.0", "::", ""):
        raise ConfigError(f"--listen {host}:{port} serves every network: give --site https://NAME (the address "
                          "browsers open), which the pages check every referee's request against")
    named = f"[{host}]" if ":" in host else host
    return (f"http://{named}:{port}", *((f"http://localhost:{port}",) if host == "127.0.0.1" else ()))


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
