"""Whole matches the tests read, played once per test session and shared by every pytest-xdist
worker: the first worker that asks plays it under a lock, the others wait for it and read the same
files. A test reads what is played here and never changes it (it copies what it cuts or edits).

The table key the session's tables sign with lives beside them (one per session, not per worker), so
that a record played by one worker is the session's own in every other.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from firmware_host.record.signing import TableKey


def session_root(factory: pytest.TempPathFactory) -> Path:
    """The test session's own temporary folder: under xdist, the folder all workers' folders are in."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def session_key(factory: pytest.TempPathFactory) -> Path:
    """The session's table key (made once, under the lock, so no worker reads it half written)."""
    path = session_root(factory) / "table-key" / "table-ed25519.pem"
    if not path.exists():
        with _locked(session_root(factory) / "table-key.lock"):
            TableKey.load_or_create(path)
    return path


def played_once(factory: pytest.TempPathFactory, name: str, play: Callable[[Path], object]) -> Path:
    """The folder `play(folder)` filled, played once in this test session whichever worker asks first.
    A play that failed is played again by the next that asks (and fails its test again)."""
    shared = session_root(factory) / "played"
    folder = shared / name
    done = shared / f"{name}.done"
    if done.exists():
        return folder
    with _locked(shared / f"{name}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            play(folder)
            done.touch()
    return folder
