"""Serving the director's pages with uvicorn: one home for `director` and `room-demo` (which both
run it, so neither imports the other)."""

from __future__ import annotations

import threading
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
