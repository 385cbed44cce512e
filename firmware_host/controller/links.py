"""The table's links to its boards: whether the board is within reach, whether each board that
answered fits the configuration, and how each link fares.

While any link is down the table judges nothing (it cannot see the board), takes no press, and
the clocks stand; dice reports that arrive meanwhile on a link of their own wait until the board
is back, so a throw made during the outage is still counted (hardware_docs/referee.md).

What each link must announce in its HELLO for the table to work as configured is checked at
every handshake: a board without electronic dice on a table set to read them from the board
would leave the table waiting for an opening roll that never comes; each misfit is said in one
line, naming the port, the board, what it lacks and the setting that needs it
(hardware_docs/protocol.md, "Conversation").

For a board builder to see a noisy cable or a firmware bug, each link's counts of what went
wrong (as the driver tells them, at most every few seconds), the commands the board did not do
(an ACK missing or refusing), and what each board announced are shown in the live view as one
short status field (`LinkHealth.status`), and in the log once for each kind of fault as it first
appears on a link (and the first failure of each command and outcome); an emulated board that
injects faults on purpose says so once instead (`expect_faults`); they are written into the
journal with each `link` event and, at the match end, as a `link_stats` event (game/RECORD.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from drivers.events import CommandFailed, DieState, FrameRejected, LinkDown, LinkStatistics, LinkStats, LinkUp
from drivers.protocol import Features, Hello
from firmware_host.controller.chess_clock import GameClock
from firmware_host.controller.outputs import Outputs
from game.board import Color

_SHORT = {"garbage_bytes": "junk", "bad_crc": "crc", "cut_frames": "cut", "seq_gaps": "gap",
          "malformed": "malformed", "unknown_types": "unknown", "late_heartbeats": "late"}
"""Each count of what went wrong, in a word for the status field (the journal keeps the names)."""


class Outage:
    """The links that are down, whose clock was stopped by the outage, and the dice held meanwhile."""

    def __init__(self) -> None:
        self.down: set[str] = set()
        self._stood: Color | None = None
        self._held: list[DieState] = []

    @property
    def out(self) -> bool:
        """True while any link is down."""
        return bool(self.down)

    def lose(self, source: str, clock: GameClock | None, now: float) -> bool:
        """`source` went down; True when the board has just gone out of reach (the first link down),
        in which case the running clock is stopped."""
        first = not self.down
        self.down.add(source)
        if first and clock is not None and clock.running is not None:
            self._stood = clock.running
            clock.stop(now)
        return first

    def regain(self, source: str, clock: GameClock | None, now: float) -> list[DieState] | None:
        """`source` is back. When every link is, the clock that stood runs again and the dice held
        are returned to be read now; None while another link is still down."""
        self.down.discard(source)
        if self.down:
            return None
        if clock is not None and self._stood is not None:
            clock.start(self._stood, now)
        self._stood = None
        held, self._held = self._held, []
        return held

    def hold(self, state: DieState) -> None:
        """A die's report that must wait until the board is back."""
        self._held.append(state)


@dataclass(frozen=True, slots=True)
class Need:
    """A feature the configuration needs of one link, why, and what to do without it."""

    feature: Features
    because: str
    """The setting that needs it, as the config file says it: '[dice] source = "board"'."""
    otherwise: str
    """What to do, or what the table does, without it."""
    required: bool = True
    """False: the table works without it (says so once, and does without)."""


Needs = Mapping[str, tuple[Need, ...]]
"""What each link (by its source name) must announce."""


def table_needs(board_source: str, dice: str, dice_source: str | None) -> dict[str, tuple[Need, ...]]:
    """What a table opened with these settings needs: the sensor board on its port (and the dice
    there when `dice` is "board"), or the dice on their own port `dice_source`."""
    board = [Need(Features.ZONES, f'[board] port = "{board_source}"', "this port is not a sensor board"),
             Need(Features.ZONE_LEDS, "the referee lights the zones concerned",
                  "the zones concerned will not be lit", required=False)]
    needs = {board_source: board}
    if dice == "board":
        board.append(Need(Features.DICE, '[dice] source = "board"',
                          'set [dice] source = "roll button" for a board without dice, or the dice\'s own port'))
    elif dice_source is not None:
        needs[dice_source] = [Need(Features.DICE, f'[dice] source = "{dice_source}"',
                                   "this port is not the dice's")]
    return {source: tuple(listed) for source, listed in needs.items()}


def describe_board(hello: Hello) -> str:
    """The board as its HELLO names it: "board 0x5a0001, firmware 1.0.0"."""
    return f"board {hello.board_id:#x}, firmware {'.'.join(map(str, hello.firmware))}"


def misfits(needs: Needs, source: str, hello: Hello) -> tuple[tuple[str, bool], ...]:
    """What the board that answered on `source` lacks of what the table needs, each as one line
    and whether the table cannot work without it."""
    return tuple((f"{source} ({describe_board(hello)}) announced no {need.feature.name}, but {need.because}: "
                  f"{need.otherwise}", need.required)
                 for need in needs.get(source, ()) if need.feature not in hello.features)


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
