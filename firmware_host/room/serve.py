"""Serving the director's pages: the address checked before anything starts, then uvicorn until Ctrl-C.
The director's command and the room demo both serve here."""

from __future__ import annotations

import socket
import threading
from typing import Any

from firmware_host.errors import ConfigError


def check_listen(listen: tuple[str, int]) -> None:
    """Refuse, in one line, an address the pages cannot be served on (in use, or not this host's),
    before anything starts."""
    host, port = listen
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise ConfigError(f"cannot serve the pages on {host}:{port}: {exc.strerror or exc} "
                          "(another director or demo? choose another with --listen)") from None


def serve(app: Any, listen: tuple[str, int], seconds: float | None = None) -> None:
    """Serve the director's pages with uvicorn until Ctrl-C (or `seconds`)."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host=listen[0], port=listen[1], log_level="warning",
                                           timeout_graceful_shutdown=1))  # open pages' streams end then
    if seconds is not None:
        threading.Timer(seconds, lambda: setattr(server, "should_exit", True)).start()
    server.run()
