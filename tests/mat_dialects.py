"""A test-side writer of `.mat` transcripts in the dialects real servers and programs write.

Independent of `game.mat.export_mat`: it lays out a played `Match` the way a given producer would,
one feature at a time (`Dialect`), so the reader can be tested on each (tests/test_transcripts.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.board import Color
from game.match import Match
from game.plays import Move, format_moves
from game.position import Position


@dataclass(frozen=True)
class Dialect:
    """How to write: each field one habit of some producer."""

    name: str
    stars: bool = True  # mark hits with *
    numeric: bool = False  # 25 for the bar, 0 for off (GNU Backgammon's own export, Backgammon Galaxy)
    joined: bool = False  # one checker's steps joined, GNU Backgammon's notation (13/9, 13/7(2))
    low_first: bool = False  # dice as rolled, the lower first at times (GamesGrid, Raccoon)
    cannot_move: bool = False  # "Cannot Move" for a roll that cannot be played (Backgammon Studio)
    losses: bool = False  # a resignation also written as the loser's "Losses N point" (Backgammon Galaxy)
    header: bool = False  # "; [Site ...]" lines (eXtreme Gammon and the servers after it)
    ratings: bool = False  # ratings after the names, "name,1620" (GamesGrid)
    trailing: bool = False  # a blank after every play (GNU Backgammon)
    singular: bool = False  # "Wins 2 point" (Backgammon Studio, Backgammon Galaxy)
    width: int = 28  # the left column's width: a play longer than it runs into the right column
    hand: bool = False  # a hand transcription's words: "Double => 2", "Take", "Drop", "Win 1 point"
    site: str | None = None  # the Site header's value (else "Test <name>")
    length: int | None = None  # the length written over the match's own (Galaxy's money sessions: 16)


DIALECTS = [
    Dialect("gnubg", numeric=True, trailing=True),
    Dialect("joined", joined=True),
    Dialect("galaxy", stars=False, numeric=True, losses=True, header=True, singular=True),
    Dialect("gamesgrid", numeric=True, low_first=True, ratings=True),
    Dialect("studio", joined=True, cannot_move=True, singular=True, header=True, width=30),
    Dialect("narrow", width=12),
    Dialect("unmarked", stars=False),
    Dialect("hand", hand=True),
]


def write(match: Match, dialect: Dialect, names: tuple[str, str] | None = None) -> str:
    """The match as `dialect` writes it; `names` (black, white) replace the players' names."""
    white, black = match.players
    left, right = names if names is not None else (black, white)
    if dialect.ratings:
        left, right = f"{left},1620", f"{right},1587"
    out = []
    if dialect.header:
        site = dialect.site or f"Test {dialect.name}"
        out.append(f'; [Site "{site}"]\n; [Player 1 "{left}"]\n; [Player 2 "{right}"]\n\n')
    out.append(f"{dialect.length or match.length or 0} point match\n\n")
    games: list[list[Mapping[str, Any]]] = []
    for event in match.events:
        if event["type"] == "game_start":
            games.append([])
        if games:
            games[-1].append(event)
    for events in games:
        if any(e["type"] not in ("game_start", "opening_roll") for e in events):
            out.append(_game(events, left, right, dialect))
    return "".join(out)


def _game(events: list[Mapping[str, Any]], left: str, right: str, dialect: Dialect) -> str:
    start = events[0]
    head = f" {left} : {start['score']['black']}"
    text = [f" Game {start['game']}\n{head:<32}{right} : {start['score']['white']}\n"]
    cells: list[tuple[Color, str]] = []
    position = Position.from_document(start["position"])
    rolled: Mapping[str, Any] | None = None
    ending: list[tuple[Color, str]] = []
    for event in events[1:]:
        kind = event["type"]
        player = Color(event["player"]) if "player" in event else None
        if kind == "roll":
            rolled = event
        elif kind == "opening_roll" and event["white"] != event["black"]:
            position = position.with_turn(Color.WHITE if event["white"] > event["black"] else Color.BLACK)
        elif kind == "play":
            assert player is not None
            after = Position.from_document(event["position"])
            cells.append((player, f"{_dice(event['dice'], dialect)}: {_play(position, after, event, dialect)}"))
            position, rolled = after.pass_turn(), None
        elif kind in ("double", "beaver"):
            assert player is not None
            word = "Beavers" if kind == "beaver" else "Double" if dialect.hand else "Doubles"
            cells.append((player, f" {word} => {event['value']}"))
        elif kind in ("take", "pass"):
            assert player is not None
            answer = "Take" if kind == "take" else "Drop"
            cells.append((player, f" {answer}" if dialect.hand else f" {answer}s"))
        elif kind == "resign_accept" and rolled is not None:
            cells.append((Color(rolled["player"]), f"{_dice(rolled['dice'], dialect)}: "))
        elif kind == "game_end":
            winner, points = Color(event["winner"]), int(event["points"])
            word = "point" if points == 1 or dialect.singular else "points"
            if dialect.losses and event["reason"] == "resign":
                cells.append((winner.opponent, f" Losses {points} {word}"))
            ending.append((winner, f"{'Win' if dialect.hand else 'Wins'} {points} {word}"))
    text.append(_rows(cells, dialect))
    for winner, line in ending:
        text.append(" " * (6 if winner is Color.BLACK else 34) + line + "\n")
    return "".join(text) + "\n"


def _dice(dice: list[int], dialect: Dialect) -> str:
    high, low = max(dice), min(dice)
    return f"{low}{high}" if dialect.low_first and (high + low) % 2 else f"{high}{low}"


def _play(before: Position, after: Position, event: Mapping[str, Any], dialect: Dialect) -> str:
    moves = event["moves"]
    if not moves:
        return "Cannot Move" if dialect.cannot_move else ""
    mover, theirs = before.turn, before.turn.opponent.char
    hits = {own for own in range(1, 25)
            if before.own_stack(mover, own).count(theirs) > after.own_stack(mover, own).count(theirs)}
    marked = []
    for source, target in moves:
        marked.append(Move(source, target, target in hits))
        hits.discard(target)
    if dialect.joined:
        text = format_moves(marked)
    else:
        text = " ".join(f"{s}/{t}{'*' if m.hit else ''}" for m in marked for s, t in [(m.source, m.target)])
    if not dialect.stars:
        text = text.replace("*", "")
    if dialect.numeric:
        text = text.replace("bar", "25").replace("off", "0")
    else:
        text = " ".join(_named(word) for word in text.split())
    return text + (" " if dialect.trailing else "")


def _named(word: str) -> str:
    points = word.split("/")
    return "/".join("bar" if p.rstrip("*") == "25" else "off" if p == "0" else p for p in points)


def _rows(cells: list[tuple[Color, str]], dialect: Dialect) -> str:
    out = []
    row = 0
    pending = False
    for player, text in cells:
        if player is Color.BLACK:
            if pending:
                out.append("\n")
            row += 1
            out.append(f"{row:3d}) {text:<{dialect.width}} ")
            pending = True
        else:
            if not pending:
                row += 1
                out.append(f"{row:3d}) {'':<{dialect.width}} ")
            out.append(text.rstrip() + (" " if dialect.trailing and text[2:3] == ":" else "") + "\n")
            pending = False
    if pending:
        out.append("\n")
    return "".join(out)
