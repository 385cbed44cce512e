"""Time, injected: drivers and the emulator read the time and wait through a `Clock`."""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """A monotonic time source in seconds, and a way to let time pass."""

    def now(self) -> float:
        """Seconds on a monotonic clock."""

    def sleep(self, seconds: float) -> None:
        """Wait `seconds` (a manual clock moves on instead)."""


class SystemClock:
    """The real clock: `time.monotonic` and `time.sleep`."""

    def now(self) -> float:
        """`time.monotonic()`."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """`time.sleep`, for a positive time."""
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """A clock that moves only when told: `sleep` and `advance` add to the time at once."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def now(self) -> float:
        """The time set by the test."""
        with self._lock:
            return self._now

    def sleep(self, seconds: float) -> None:
        """Sleeping moves the clock on by `seconds`."""
        self.advance(max(0.0, seconds))

    def advance(self, seconds: float) -> None:
        """Move the clock on by `seconds` (never back)."""
        if seconds < 0:
            raise ValueError(f"cannot move a clock backwards by {seconds} s")
        with self._lock:
            self._now += seconds


SYSTEM_CLOCK = SystemClock()
