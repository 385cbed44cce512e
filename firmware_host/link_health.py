"""How the table's links fare, for a board builder to see a noisy cable or a firmware bug: each
link's counts of what went wrong (as the driver tells them, at most every few seconds), the
commands the board did not do (an ACK missing or refusing), what each board announced, and
whether it fits the configuration.

Shown in the live view's status line and the log (a line when the counts change, the first
failure of each command and outcome); written into the journal with each `link` event and, at
the match end, as a `link_stats` event (game/RECORD.md).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from drivers.events import CommandFailed, FrameRejected, LinkDown, LinkStatistics, LinkStats, LinkUp
from drivers.protocol import Features
from firmware_host.fit import Needs, describe_board, misfits
from firmware_host.outputs import Outputs


class LinkHealth:
    """The links' counts, the commands not done, and what does not fit, by link source."""

    def __init__(self, outputs: Outputs, needs: Needs | None = None) -> None:
        self.outputs = outputs
        self.needs: Needs = needs or {}
        self.stats: dict[str, LinkStats] = {}
        self.failed: Counter[tuple[str, str, str]] = Counter()
        """Commands not done, by (source, command, outcome)."""
        self.unfit: str | None = None
        """The first thing the table cannot work without that a board lacks (None: all fits)."""
        self._ended = False

    def up(self, event: LinkUp) -> None:
        """A link came up: what the board announced and whether it fits (said in one line each),
        into the log and the journal's `link` event."""
        hello = event.hello
        self._count(event.source, event.stats)
        features = [str(f.name) for f in Features if f in hello.features]
        capability = hello.capability.name if hello.capability else None
        board = {"board": describe_board(hello), "features": features, "capability": capability,
                 "heartbeat_ms": hello.heartbeat_ms}
        self.outputs.note(f"link up: {event.source}: {describe_board(hello)}, {capability or 'no zones'}, "
                          f"features {' '.join(features) or 'none'}, heartbeat {hello.heartbeat_ms} ms")
        problems = misfits(self.needs, event.source, hello)
        for line, required in problems:
            self.outputs.note(("does not fit: " if required else "note: ") + line)
            if required and self.unfit is None:
                self.unfit = line
        fields: dict[str, Any] = {**board, **self._counts(event.source)}
        if problems:
            fields["misfits"] = [line for line, _ in problems]
        self.outputs.write({"type": "link", "state": "up", "source": event.source, **fields})

    def down(self, event: LinkDown) -> None:
        """A link went down: said, and journaled with its counts."""
        self._count(event.source, event.stats)
        self.outputs.note(f"link down: {event.source}: {event.reason}")
        self.outputs.write({"type": "link", "state": "down", "source": event.source, "reason": event.reason,
                            **self._counts(event.source)})

    def observe(self, event: FrameRejected | LinkStatistics | CommandFailed) -> None:
        """What a link tells between coming and going: a frame refused for its content, its counts
        changed (the driver tells at most every few seconds), a command the board did not do
        (counted; the first of each command and outcome is logged)."""
        if isinstance(event, FrameRejected):
            self.outputs.note(f"rejected from {event.source}: {event.reason} ({event.count} so far)")
        elif isinstance(event, LinkStatistics):
            self._count(event.source, event.stats)
            self.outputs.note(f"counts on {event.source}: {event.stats.describe()}")
        else:
            key = (event.source, event.command, event.outcome)
            self.failed[key] += 1
            if self.failed[key] == 1:
                self.outputs.note(f"{event.source}: {event.command} not done ({event.outcome}); "
                                  "further ones are counted in the link's status")

    def status(self) -> str:
        """One line for the live view: each link's counts of what went wrong, and commands not done."""
        parts = [f"{source}: {stats.describe()}" for source, stats in sorted(self.stats.items())]
        parts += [f"{command} {outcome} x{n}" for (_, command, outcome), n in sorted(self.failed.items())]
        return "; ".join(parts)

    def match_over(self) -> None:
        """At the match end, once: every link's counts (as last told) into the journal."""
        if self._ended or not self.stats:
            return
        self._ended = True
        self.outputs.write({"type": "link_stats", "links": {source: self._counts(source)
                                                            for source in sorted(self.stats)}})

    def _count(self, source: str, stats: LinkStats | None) -> None:
        if stats is not None:
            self.stats[source] = stats

    def _counts(self, source: str) -> dict[str, Any]:
        stats = self.stats.get(source)
        failed = {f"{command} {outcome}": n for (where, command, outcome), n in sorted(self.failed.items())
                  if where == source}
        return {"stats": stats.to_document() if stats else None, "commands_failed": failed}
