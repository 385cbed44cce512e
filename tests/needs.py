"""What many tests need: a real part that must be there (under CI=true it must; elsewhere the test
skips, saying how to install it), waiting for a condition, bounded in time, and a command that a
Ctrl-C reaches however the tests were started."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def ctrl_c_reaches() -> None:
    """A child's `preexec_fn`: SIGINT back to its default, so the command's Python turns it into
    KeyboardInterrupt. A shell that starts the tests in the background (`pytest ... &`) ignores
    SIGINT, and an ignored signal stays ignored in every child: the test's Ctrl-C would never arrive."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def require(what: str, found: object, hint: str) -> None:
    """A test's real part must be there: fail under CI, else skip with the way to install it."""
    if found:
        return
    if IN_CI:
        pytest.fail(f"{what} is missing under CI=true: {hint}")
    pytest.skip(f"{what} is not installed: {hint}")


def wait_until(condition: Callable[[], object], timeout: float = 10.0, what: str = "condition",
               step: Callable[[], object] | None = None) -> None:
    """Wait (calling `step` meanwhile, if given) until `condition()` is true, else fail saying what."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        if step is not None:
            step()
        else:
            time.sleep(0.02)


def examples(count: int) -> int:
    """A property's number of examples, scaled by the hypothesis profile in use: `count` under the
    default profile ("ci", which CI runs), a tenth (at least 5) under "dev"
    (`pytest --hypothesis-profile=dev`, for a quick run while working)."""
    from hypothesis import settings

    current = settings.default
    scale = current.max_examples / 100 if current is not None else 1.0
    return max(5, round(count * scale))


def pdf_text(path: Path) -> str:
    """The PDF's text as poppler's pdftotext extracts it (the layout kept, a page a form feed)."""
    require("pdftotext (poppler-utils)", shutil.which("pdftotext"), "apt-get install poppler-utils")
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True, timeout=60).stdout
