"""The one loop that runs a table, emulated or real: driver events to the controller, time to
the controller, a view now and then, and the `.mat` transcripts when it ends.

What differs between an emulated table and real hardware is only where the events come from
and what the time is: the emulated table advances a manual clock and polls its links; real
hardware reads its links in threads and waits on their queue. A match and a chouette run alike,
until what is played has ended.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from drivers.events import Event
from firmware_host.controller import Controller
from game.board import Variant
from game.chouette import ChouetteSession

_log = logging.getLogger(__name__)


def set_aside_from_the_collector() -> None:
    """Set aside every object made so far (the modules, the settings, the table and its controller)
    from the cyclic garbage collector, for a process that runs one table for good: they live as
    long as the process, and each full collection walked them all (16 ms, once or twice a match,
    in whichever event made it: a roll's set-up, a frame). Not for a process that makes table
    after table (tests): what is set aside is never collected."""
    gc.collect()
    gc.freeze()


class TableLoop:
    """Runs `controller` on the events `next_events()` returns (it may wait a little for them),
    at the time `now()` tells; `after_step(now)` runs after each step (the simulated people)."""

    def __init__(self, controller: Controller, next_events: Callable[[], Iterable[Event]],
                 now: Callable[[], float], *, after_step: Callable[[float], None] | None = None) -> None:
        self.controller = controller
        self._next_events = next_events
        self._now = now
        self._after_step = after_step
        self.errors = 0
        """Events whose handling raised: each logged with the event, none ended the loop."""

    def step(self) -> None:
        """Hand the controller what has happened, then let time pass."""
        for event in self._next_events():
            try:
                self.controller.handle(event)
            except Exception as exc:
                self.errors += 1
                self.controller.outputs.note(f"error handling {event!r}: {exc!r}")
                _log.exception("error handling %r", event)
        now = self._now()
        self.controller.tick(now)
        if self._after_step is not None:
            self._after_step(now)

    def run(self, *, max_seconds: float | None = None, speed: float | None = None,
            on_frame: Callable[[], None] | None = None, frame_every: float = 0.2) -> bool:
        """Step until the match is over (True) or `max_seconds` of table time have passed.

        `speed` paces the table at that multiple of real time (None: as fast as it goes);
        `on_frame` is called every `frame_every` real seconds, and once at the end (a live view).
        """
        start_table, start_real = self._now(), time.monotonic()
        next_frame = start_real
        played = self.controller.played
        while not played.is_over and (max_seconds is None or self._now() - start_table < max_seconds):
            self.step()
            real = time.monotonic()
            if speed is not None:
                ahead = (self._now() - start_table) / speed - (real - start_real)
                if ahead > 0:
                    time.sleep(ahead)
            if on_frame is not None and real >= next_frame:
                on_frame()
                next_frame = real + frame_every
        if on_frame is not None:
            on_frame()
        return played.is_over


def write_mat(controller: Controller, directory: Path) -> list[Path]:
    """A finished Backgammon match as `match.mat` beside its journal, for GNU Backgammon and
    eXtreme Gammon, and as `match.sgf`, GNU Backgammon's own match file; a finished chouette as each
    member's games against the box, `mats/NAME.mat`
    (as `python -m game.chouette convert` writes them). Nothing for other variants, or a chouette
    with automatic doubles (the format has no way to say them). Returns the files written."""
    played = controller.played
    if not played.is_over or played.variant is not Variant.BACKGAMMON:
        return []
    if isinstance(played, ChouetteSession):
        if played.options.automatic_doubles:
            return []
        from game.chouette.cli import file_name
        from game.chouette.mat import chouette_mats

        folder = directory / "mats"
        folder.mkdir(exist_ok=True)
        written = []
        for member, text in chouette_mats(played).items():
            path = folder / f"{file_name(member)}.mat"
            path.write_text(text, encoding="utf-8")
            written.append(path)
        return written
    from game.mat import export_mat
    from game.transcripts.sgf import export_sgf

    path, sgf = directory / "match.mat", directory / "match.sgf"
    path.write_text(export_mat(controller.match), encoding="utf-8")
    sgf.write_text(export_sgf(controller.match), encoding="utf-8")  # GNU Backgammon's own file: 'load match'
    return [path, sgf]
