"""How the table's links fare, for a board builder to see a noisy cable or a firmware bug: each
link's counts of what went wrong (as the driver tells them, at most every few seconds), the
commands the board did not do (an ACK missing or refusing), what each board announced, and
whether it fits the configuration.

Shown in the live view as one short status field (`status`), and in the log once for each kind
of fault as it first appears on a link (and the first failure of each command and outcome); an
emulated board that injects faults on purpose says so once instead (`expect_faults`); written
into the journal with each `link` event and, at the match end, as a `link_stats` event
(game/RECORD.md).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from drivers.events import CommandFailed, FrameRejected, LinkDown, LinkStatistics, LinkStats, LinkUp
from drivers.protocol import Features
from firmware_host.fit import Needs, describe_board, misfits
from firmware_host.outputs import Outputs

_SHORT = {"garbage_bytes": "junk", "bad_crc": "crc", "cut_frames": "cut", "seq_gaps": "gap",
          "malformed": "malformed", "unknown_types": "unknown", "late_heartbeats": "late"}
"""Each count of what went wrong, in a word for the status field (the journal keeps the names)."""


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
        self.on_purpose = False
        """The faults are injected on purpose (an emulated board's noise): the log said so once."""
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
            before = self.stats.get(event.source, LinkStats())
            self._count(event.source, event.stats)
            first = [name for name in LinkStats.PROBLEMS
                     if getattr(event.stats, name) and not getattr(before, name)]
            if first and not self.on_purpose:
                self.outputs.note(f"{event.source}: first {', '.join(_SHORT[name] for name in first)} "
                                  f"({event.stats.describe()}); the status counts the rest")
        else:
            key = (event.source, event.command, event.outcome)
            self.failed[key] += 1
            if self.failed[key] == 1:
                self.outputs.note(f"{event.source}: {event.command} not done ({event.outcome}); "
                                  "further ones are counted in the link's status")

    def expect_faults(self, why: str) -> None:
        """The faults are injected on purpose (`why`): said once in the log; no line for each kind."""
        self.on_purpose = True
        self.outputs.note(why)

    def status(self) -> str:
        """One short field for the live view: frames and the faults seen, only those that happened
        ("1631 frames; faults junk 109B, crc 2, cut 6, gap 12"), each link's when there are several, and
        the commands not done; its parts separated by "; "."""
        named = len(self.stats) > 1
        parts = []
        for source, stats in sorted(self.stats.items()):
            frames = f"{stats.frames} frame{'' if stats.frames == 1 else 's'}"
            parts.append(f"{source.rpartition('/')[2]}: " * named + frames)
            faults = ", ".join(f"{_SHORT[name]} {count}{'B' if name == 'garbage_bytes' else ''}"
                              for name, count in stats.problems().items() if count)
            if faults:
                parts.append(f"faults {faults}")
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
