"""The match's record at the table: each new event of the match journaled once, with the clocks
after every play, the dice statistics at the match end and a signature after each action that
ended a game or the match; and the checks that let a stopped table resume its journal.

The match (`game.Match`) keeps its own list of events; the recorder remembers how many of them
the journal holds, so an action's events are written exactly once, in the match's order.
"""

from __future__ import annotations

from typing import Any

from firmware_host.dice_stats import DiceStats
from firmware_host.errors import JournalError
from firmware_host.game_clock import GameClock
from firmware_host.journal import Journal
from firmware_host.outputs import Outputs
from firmware_host.settings import Settings
from game.board import Color
from game.events import MATCH_EVENT_TYPES, GameEnd, MatchEnd
from game.match import Match


class Recorder:
    """Journals what the match did; `written` is how many of the match's events the journal holds."""

    def __init__(self, outputs: Outputs, dice_stats: DiceStats, written: int) -> None:
        self.outputs = outputs
        self.dice_stats = dice_stats
        self.written = written
        self.sign_due = False
        """An action ended a game or the match: sign once the notes that explain it are written."""

    @classmethod
    def resuming(cls, outputs: Outputs, match: Match, history: list[dict[str, Any]]) -> Recorder:
        """The recorder of a replayed match: the journal holds the match events of `history`."""
        recorder = cls(outputs, DiceStats.of_events(match.events),
                       sum(1 for e in history if e.get("type") in MATCH_EVENT_TYPES))
        recorder.sign_due = _ending_unsigned(history)
        return recorder

    def begin(self, match: Match, settings: Settings) -> None:
        """A new match's first lines: the key that signs the journal (if any), the match's start,
        and the table's settings."""
        journal = self.outputs.journal
        if journal.key is not None and journal.sequence == 0:  # the first line names the key that signs it
            self.outputs.write({"type": "table_key", "key": journal.key.public})
        self.sync(match, None, 0.0)
        self.outputs.write({"type": "controller_start", **settings.to_document()})

    def resumed(self, match: Match, clock: GameClock | None, history: list[dict[str, Any]]) -> None:
        """A replayed match goes on: complete what a kill between the lines of one action left
        unwritten (the game_end and next game_start after a play that ended a game, the
        match_end, the dice statistics), then say the match resumed."""
        completed = self.sync(match, clock, 0.0)
        self.outputs.note(f"resumed from {self.outputs.journal.path}: game {match.game_number}, score {match.score}"
                          + (f", completing {', '.join(completed)}" if completed else ""))
        self.outputs.write({"type": "resume", "game": match.game_number, "phase": match.phase.value})
        if match.is_over and "match_end" not in completed and not any(e.get("type") == "dice_stats" for e in history):
            self.outputs.write({"type": "dice_stats", **self.dice_stats.summary()})  # killed just before it

    def sync(self, match: Match, clock: GameClock | None, now: float) -> list[str]:
        """Journal the match's new events (and the clocks after each play); returns their types."""
        new = match.events_from(self.written)
        self.written += len(new)
        for event in new:
            self.outputs.journal.write(event)
            if event["type"] == "game_end" or event["type"] == "match_end":
                self.outputs.note(describe_end(event))
            if event["type"] == "play" and clock is not None:
                if clock.running is not None:
                    clock.stop(now)  # the mover's turn ends with the play
                self.write_clock(clock)
        if any(e["type"] == "match_end" for e in new):
            self.outputs.write({"type": "dice_stats", **self.dice_stats.summary()})
        if any(e["type"] in ("game_end", "match_end") for e in new):
            self.sign_due = True
        return [e["type"] for e in new]

    def write_clock(self, clock: GameClock) -> None:
        """The reserves of both clocks, into the journal."""
        self.outputs.write({"type": "clock", "white": round(clock.reserve[Color.WHITE], 3),
                            "black": round(clock.reserve[Color.BLACK], 3)})

    def sign_if_due(self) -> None:
        """Sign the journal after an action that ended a game or the match, and what explains it."""
        if self.sign_due:
            self.sign_due = False
            self.outputs.sign()


def check_same_match(match: Match, settings: Settings, journal: Journal) -> None:
    """A journal resumes only with the settings it began with: never another match over it."""
    def described(variant: str, length: int | None) -> str:
        return f"a {variant} {f'{length}-point match' if length else 'money session'}"

    recorded = described(match.variant.value, match.length)
    asked = described(settings.variant.value, settings.length)
    if recorded != asked or match.options != settings.options:
        raise JournalError(f"{journal.directory} holds {recorded}, not {asked}: give another record directory, "
                           "or the settings it began with, to go on with it")


def _ending_unsigned(history: list[dict[str, Any]]) -> bool:
    """A game or the match ended after the journal's last signature (killed before it signed)."""
    for event in reversed(history):
        if event.get("type") == "signature":
            return False
        if event.get("type") in ("game_end", "match_end"):
            return True
    return False


def describe_end(event: GameEnd | MatchEnd) -> str:
    """One line for the log: who won the game (or the match), how, and the score."""
    score = event["score"]
    points = f"{score['white']}-{score['black']} (white-black)"
    if event["type"] == "match_end":
        return f"match over: {event['winner'] or 'nobody'} wins, score {points}"
    winner = event["winner"] or "nobody (remi)"
    return f"game {event['game']} over: {winner} wins {event['points']} ({event['kind']}), score {points}"


def match_over(match: Match) -> str:
    """What the table shows once the match is over."""
    winner = match.winner.value if match.winner else "nobody"
    return f"{winner} wins the match, score {match.score[0]}-{match.score[1]} (white-black)"
