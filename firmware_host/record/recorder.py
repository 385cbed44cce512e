"""The record at the table: each new event of what is played (a match, a chouette) journaled once,
with the clocks after every play, the dice statistics at the end and a signature after each action
that ended a game or the whole; and the checks that let a stopped table resume its journal.

What is played (`firmware_host.controller.session.Session`) keeps its own list of events; the recorder
remembers how many of them the journal holds, so an action's events are written exactly once,
in their order. The dice statistics are counted from those events as they are written, so the
`dice_stats` line says what the record's own rolls and throws say.

Every event gets its line in the referee's log as it is journaled: a play in GNU Backgammon's
notation, as it echoes "gnubg moves 8/5 6/5" (here, with the roll: "white moves 8/5 6/5 (31)"),
the cube's actions and the ends as the contest tells them (`describe`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from firmware_host.controller.chess_clock import GameClock
from firmware_host.controller.outputs import Outputs
from firmware_host.controller.session import Session
from firmware_host.record.dice_stats import DiceStats
from firmware_host.settings import Settings
from game.board import Color
from game.plays import Move, format_moves, format_roll, format_steps
from game.position import Position

ENDS = frozenset({"game_end", "match_end", "session_end"})
"""Events after which the journal is signed."""
FINAL = frozenset({"match_end", "session_end"})
"""Events that end the whole record: the dice statistics follow."""

Describe = Callable[[Mapping[str, Any]], "str | None"]
"""The log line of an event that ends a game or the whole (None for any other)."""


class Recorder:
    """Journals what is played; `written` is how many of its events the journal holds."""

    def __init__(self, outputs: Outputs, describe: Describe, written: int = 0,
                 dice_stats: DiceStats | None = None) -> None:
        self.outputs = outputs
        self.describe = describe
        self.dice_stats = dice_stats or DiceStats()
        self.written = written
        self.sign_due = False
        """An action ended a game or the whole: sign once the notes that explain it are written."""
        self._before: Position | None = None
        """The position of what is played when the journal last caught up: the next play starts there."""

    @classmethod
    def resuming(cls, outputs: Outputs, describe: Describe, history: list[dict[str, Any]],
                 types: Collection[str]) -> Recorder:
        """The recorder of a replayed match or session: the journal holds the events of `history`
        whose types are among `types` (the played thing's)."""
        recorder = cls(outputs, describe, sum(1 for e in history if e.get("type") in types),
                       DiceStats.of_events(history))
        recorder.sign_due = _ending_unsigned(history)
        return recorder

    def begin(self, played: Session, settings: Settings) -> None:
        """A new record's first lines: the key that signs the journal (if any), the start of what
        is played, and the table's settings."""
        journal = self.outputs.journal
        if journal.key is not None and journal.sequence == 0:  # the first line names the key that signs it
            self.outputs.write({"type": "table_key", "key": journal.key.public})
        self.sync(played, None, 0.0)
        self.outputs.write({"type": "controller_start", **settings.to_document()})

    def resumed(self, played: Session, clock: GameClock | None, history: list[dict[str, Any]], where: str,
                phase: str) -> None:
        """What is played goes on after a replay: complete what a kill between the lines of one action
        left unwritten (the game_end and next game_start after a play that ended a game, the end
        of it all, the dice statistics), then say it resumed (`where` it stands, its `phase`)."""
        completed = self.sync(played, clock, 0.0)
        self.outputs.note(f"resumed from {self.outputs.journal.path}: {where}"
                          + (f", completing {', '.join(completed)}" if completed else ""))
        self.outputs.write({"type": "resume", "game": played.game_number, "phase": phase})
        if played.is_over and not FINAL & set(completed) and not any(e.get("type") == "dice_stats" for e in history):
            self.outputs.write({"type": "dice_stats", **self.dice_stats.summary()})  # killed just before it

    def sync(self, played: Session, clock: GameClock | None, now: float) -> list[str]:
        """Journal the new events of what is played (and the clocks after each play); returns their types."""
        new = played.events_from(self.written)
        self.written += len(new)
        for event in new:
            self.outputs.journal.write(event)
            self.dice_stats.count(event)
            line = self._play_line(event) if event["type"] == "play" else self.describe(event)
            if line is not None:
                self.outputs.note(line)
            if event["type"] == "play" and clock is not None:
                if clock.running is not None:
                    clock.stop(now)  # the mover's turn ends with the play
                self.write_clock(clock)
        self._before = played.position
        types = [str(e["type"]) for e in new]
        if FINAL & set(types):
            self.outputs.write({"type": "dice_stats", **self.dice_stats.summary()})
        if ENDS & set(types):
            self.sign_due = True
        return types

    def _play_line(self, event: Mapping[str, Any]) -> str:
        """A play as the log tells it: who moved what, with which roll (a chouette's side too)."""
        who = f"{event['player']} ({event['side']})" if "side" in event else str(event["player"])
        roll = format_roll(event["dice"])
        if not event["moves"]:
            return f"{who} cannot move ({roll})"
        before = self._before
        if before is None:  # a play completed as a record is resumed: its steps are known, not its hits
            notation = format_moves([Move(source, target) for source, target in event["moves"]])
        else:
            notation = format_steps(before, Position.from_document(event["position"]), event["moves"])
        accepted = " (an illegal play, accepted)" if event.get("accepted_illegal") else ""
        return f"{who} moves {notation} ({roll}){accepted}"

    def write_clock(self, clock: GameClock) -> None:
        """The reserves of both clocks, into the journal."""
        self.outputs.write({"type": "clock", "white": round(clock.reserve[Color.WHITE], 3),
                            "black": round(clock.reserve[Color.BLACK], 3)})

    def sign_if_due(self) -> None:
        """Sign the journal after an action that ended a game or the whole, and what explains it."""
        if self.sign_due:
            self.sign_due = False
            self.outputs.sign()


def _ending_unsigned(history: list[dict[str, Any]]) -> bool:
    """A game or the whole ended after the journal's last signature (killed before it signed)."""
    for event in reversed(history):
        if event.get("type") == "signature":
            return False
        if event.get("type") in ENDS:
            return True
    return False
