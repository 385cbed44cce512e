"""How a command-line process of the project ends (`python -m game`, `game.bot`, `game.chouette`,
`firmware_host`).

Imports only what every command imports anyway (`os`, `sys`, `typing`; `select` when a pipe breaks):
a `python -m game validate` process, run once for each of many files, pays for every module it imports.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import NoReturn

SIGPIPE_STATUS = 141  # 128 + SIGPIPE: what a shell reports of a Unix tool whose reader left


def exit_with(main: Callable[[], int]) -> NoReturn:
    """End the process with `main()`'s status. A reader that stops reading early (`... | head`)
    ends the output quietly with status 141, as a Unix tool ends (128 + SIGPIPE), not with a
    traceback, nor with a second error when Python flushes the closed pipe at exit. A pipe broken
    elsewhere (a socket of the command's own) is an error: one line, status 2."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError as exc:
        if not reader_left():
            print(f"error: {exc}", file=sys.stderr)
            sys.exit(2)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush into the pipe
        code = SIGPIPE_STATUS
    sys.exit(code)


def reader_left() -> bool:
    """Whether standard output is a pipe or socket whose reader has gone (poll says POLLERR)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (OSError, ValueError):  # no file descriptor (a caller's stream), or one poll cannot watch
        return False
