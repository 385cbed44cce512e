"""Jellyfish `.mat` transcripts: writing them as GNU Backgammon does, and reading every dialect.

Backgammon only. Layout (GNU Backgammon's export):

     5 point match

     Game 1
     Boris : 0                      Wendy : 0
      1)                             31: 8/5 6/5
      2) 52: 13/8 13/11               Doubles => 2
      3)  Takes                      64: 24/18 13/9
      ...
                                      Wins 1 point

The left column is GNU Backgammon's player 0, which is Black here; the right column is
player 1, White (the player XGID and GNU Backgammon show at the bottom). Plays are in the
mover's own numbering, written by the project's one formatter (`game.plays.format_moves`,
GNU Backgammon's notation); a roll that cannot be played is the dice alone. Money sessions are
" 0 point match". The options of money play are not in the format: the reader takes them as an
argument, and automatic doubles cannot be written at all. A Nackgammon match (`RuleOptions`) is
written with GNU Backgammon's header `; [Variation "NackGammon"]`, which it reads back. Reading is
`game.transcripts`, which takes every dialect real servers and programs write (game/TRANSCRIPTS.md);
the public reader of any match file, a record or a `.mat`, is `game.read_match`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from game.board import Color, Variant
from game.errors import MatFormatError
from game.match import NO_OPTIONS, Match, MatchOptions, Phase
from game.plays import format_steps
from game.position import Position
from game.replay import Replayer
from game.transcripts import read_transcript, replay_transcript

LEFT, RIGHT = Color.BLACK, Color.WHITE
NACKGAMMON = "NackGammon"
"""The `; [Variation "..."]` header of a Nackgammon match, as GNU Backgammon writes it."""


# -- writing ------------------------------------------------------------------------

def export_mat(match: Match) -> str:
    """The match as a .mat transcript."""
    if match.variant is not Variant.BACKGAMMON:
        raise MatFormatError(f".mat transcripts hold Backgammon only, not {match.variant.value}")
    if match.options.automatic_doubles:
        raise MatFormatError(".mat transcripts cannot show automatic doubles")
    white, black = match.players
    out = [f" {match.length or 0} point match\n\n"]
    if match.options.rules.nackgammon:  # as GNU Backgammon writes it, and reads it back
        out.insert(0, f'; [Variation "{NACKGAMMON}"]\n\n')
    games: list[list[Mapping[str, Any]]] = []
    for event in match.events:
        if event["type"] == "game_start":
            games.append([])
        if games:
            games[-1].append(event)
    for events in games:
        if any(e["type"] not in ("game_start", "opening_roll") for e in events):
            out.append(_export_game(events, black, white))
    return "".join(out)


def _export_game(events: list[Mapping[str, Any]], left_name: str, right_name: str) -> str:
    start = events[0]
    out = [f" Game {start['game']}\n"]
    left = f"{left_name} : {start['score']['black']}"
    out.append(f" {left:<31}{right_name} : {start['score']['white']}\n")
    cells: list[tuple[Color, str]] = []
    position = Position.from_document(start["position"])
    rolled: Mapping[str, Any] | None = None
    ending = ""
    for event in events[1:]:
        kind = event["type"]
        player = Color(event["player"]) if "player" in event else None
        if kind == "roll":
            rolled = event
        elif kind == "play":
            assert player is not None
            after = Position.from_document(event["position"])
            dice = event["dice"]
            played = format_steps(position, after, event["moves"]) if event["moves"] else ""
            cells.append((player, f"{dice[0]}{dice[1]}: {played}"))
            position, rolled = after.pass_turn(), None
        elif kind == "opening_roll" and event["white"] != event["black"]:
            position = position.with_turn(Color.WHITE if event["white"] > event["black"] else Color.BLACK)
        elif kind == "double":
            assert player is not None
            cells.append((player, f" Doubles => {event['value']}"))
        elif kind == "beaver":
            assert player is not None
            cells.append((player, f" Beavers => {event['value']}"))
        elif kind == "take":
            assert player is not None
            cells.append((player, " Takes"))
        elif kind == "pass":
            assert player is not None
            cells.append((player, " Drops"))
        elif kind == "resign_accept" and rolled is not None:  # rolled, then resigned: the dice alone
            dice = rolled["dice"]
            cells.append((Color(rolled["player"]), f"{dice[0]}{dice[1]}: "))
        elif kind == "game_end":
            ending = _wins_line(Color(event["winner"]), event["points"])
    out.append(_rows(cells))
    out.append(ending + "\n")
    return "".join(out)


def _rows(cells: list[tuple[Color, str]]) -> str:
    """Cells in two columns, numbered rows, as GNU Backgammon lays them out."""
    out = []
    row = 0
    pending = False  # a left cell waits for its right neighbour
    for player, text in cells:
        if player is LEFT:
            if pending:
                out.append("\n")
            row += 1
            out.append(f"{row:3d}) {text:<27} ")
            pending = True
        else:
            if not pending:
                row += 1
                out.append(f"{row:3d}) {'':<27} ")
            out.append(text.rstrip() + "\n")
            pending = False
    if pending:
        out.append("\n")
    return "".join(out)


def _wins_line(winner: Color, points: int) -> str:
    indent = " " * (6 if winner is LEFT else 34)
    return f"{indent}Wins {points} point{'s' if points > 1 else ''}\n"


# -- reading ------------------------------------------------------------------------

def mat_events(text: str, options: MatchOptions = NO_OPTIONS) -> Iterator[tuple[int, dict[str, Any]]]:
    """The transcript as (line number, event) pairs, as `game.transcripts` reads it (plays as text)."""
    yield from read_transcript(text, options).entries


def replay_mat(text: str, options: MatchOptions = NO_OPTIONS, *, strict: bool = True) -> Replayer:
    """Replay a transcript through the rules (strict: raise `ReplayError` at the first problem)."""
    return replay_transcript(text, options, strict=strict).replayer


def import_mat(text: str, options: MatchOptions = NO_OPTIONS) -> Match:
    """The match of a transcript; a money session that ends between games is stopped there."""
    return ended_as_written(replay_mat(text, options).result())


def ended_as_written(match: Match) -> Match:
    """A transcript's match as its file ends it: a money session that ends between games is stopped
    there (the format has no line for a session's end)."""
    if match.length is None and match.phase is Phase.OPENING and match.games:
        match.stop()
    return match
