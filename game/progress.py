"""A one-line progress bar for long commands, on a terminal's stderr (the callers show it only there)."""

from __future__ import annotations

from typing import TextIO


class ProgressBar:
    """A one-line progress bar on a terminal stream: how many of how many `unit`, per second, time left."""

    def __init__(self, total: int, stream: TextIO, width: int = 30, unit: str = "games") -> None:
        self.total, self.stream, self.width, self.unit = total, stream, width, unit
        self._last = -1.0

    def __call__(self, done: int, elapsed: float) -> None:
        if done < self.total and elapsed - self._last < 0.5:
            return
        self._last = elapsed
        filled = self.width * done // max(self.total, 1)
        rate = done / elapsed if elapsed else 0.0
        left = (self.total - done) / rate if rate else 0.0
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total} {self.unit} "
                          f"{rate:.1f}/s, {left / 60:.0f} min left ")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()
