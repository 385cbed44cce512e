"""The journal's syncer: a thread of its own that forces the journal's lines to disk, so that the
table's loop never waits on the disk.

The controller writes and flushes each line as it goes (a killed process loses none), then asks
for the lines up to a number to be made durable (`request`) and goes on with its next event. The
syncer fsyncs as soon as it is asked: one fsync covers every line flushed before it began, so the
lines of actions asked for while it was busy share the next one. A line is durable as soon as it
would have been had the controller fsynced it itself; on a Raspberry Pi's SD card an fsync can take
tens of milliseconds, which the table's loop no longer spends waiting with sensor frames queueing.

The asking is one put on a `SimpleQueue` (C, no Python lock taken on the table's thread); the
condition is only for those who wait (`wait`, `close`).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time

_log = logging.getLogger(__name__)


class Syncer:
    """Forces a file descriptor to disk on its own thread, up to the line number last asked for.

    `durable` is the number of the last line known on disk. A failed fsync is kept (`failure`) and
    tried again at the next request: the lines stay flushed, only their durability waits.
    """

    def __init__(self, fd: int, durable: int, *, name: str = "journal syncer") -> None:
        self._fd = fd
        self._requests: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._requested = durable
        self._closing = False
        self._synced = threading.Condition()
        self.durable = durable
        """The number of the last line forced to disk (or there before the syncer began)."""
        self.fsyncs = 0
        """The fsyncs done so far."""
        self.failure: OSError | None = None
        """The last fsync's error, kept until `take_failure`; None when it succeeded."""
        self._cpu_at_end = 0.0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def request(self, line: int) -> None:
        """Ask for every line up to number `line` (already flushed) to be made durable; returns at once."""
        if line > self._requested:
            self._requested = line
            self._requests.put(line)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every line asked for is durable (or an fsync failed); whether it is."""
        with self._synced:
            self._synced.wait_for(lambda: self.durable >= self._requested or self.failure is not None, timeout)
            return self.durable >= self._requested

    def take_failure(self) -> OSError | None:
        """The error of an fsync that failed since the last call (None: none did); the syncer tries again."""
        failure, self.failure = self.failure, None
        if failure is not None:
            self._requests.put(self._requested)
        return failure

    @property
    def running(self) -> bool:
        """Whether the syncer's thread is still there (until `close`)."""
        return self._thread.is_alive()

    def cpu_time(self) -> float:
        """The CPU seconds the syncer's thread has used so far (its fsyncs, mostly: the kernel's work)."""
        ident = self._thread.ident
        if ident is None or not self._thread.is_alive():
            return self._cpu_at_end
        try:
            return time.clock_gettime(time.pthread_getcpuclockid(ident))
        except OSError:  # it ended just now
            return self._cpu_at_end

    def close(self) -> None:
        """Make what was asked durable (one last try), then end the thread (again: nothing)."""
        if not self._thread.is_alive():
            return
        self._closing = True
        self._requests.put(self._requested)
        self._thread.join()

    def _run(self) -> None:
        try:
            self._sync_until_closed()
        finally:
            self._cpu_at_end = time.thread_time()

    def _sync_until_closed(self) -> None:
        while True:
            self._requests.get()  # a wake-up: what to sync is `_requested`, set before it was put
            while not self._requests.empty():  # asked again meanwhile: one fsync for all
                self._requests.get()
            closing, target = self._closing, self._requested
            if target > self.durable and (self.failure is None or closing):
                try:
                    # os.fsync looked up at each call: a benchmark's meter or a test's counter may replace it
                    os.fsync(self._fd)
                except OSError as exc:
                    _log.error("fsync of the journal failed (lines up to %d not yet durable): %s", target, exc)
                    self.failure = exc
                else:
                    self.fsyncs += 1
                    self.durable = target
                with self._synced:
                    self._synced.notify_all()
            if closing:
                return
