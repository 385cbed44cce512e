"""Jellyfish `.mat` transcripts, as GNU Backgammon and eXtreme Gammon write and read them.

Backgammon only. Layout (GNU Backgammon's export):

     5 point match

     Game 1
     Boris : 0                      Wendy : 0
      1)                             31: 8/5 6/5
      2) 52: 13/8 13/11               Doubles => 2
      3)  Takes                      64: 24/18 13/9
      ...
                                      Wins 1 point

The left column is GNU Backgammon's player 0, which is Black here; the right
column is player 1, White (the player XGID and GNU Backgammon show at the
bottom). Moves are in the mover's own numbering, one step per die, hits marked
with "*"; a roll that cannot be played is the dice alone. Money sessions are
" 0 point match". The options of money play are not in the format: the reader
takes them as an argument, and automatic doubles cannot be written at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from game.board import BAR, OFF, Color, Variant
from game.errors import MatFormatError
from game.match import NO_OPTIONS, Match, MatchOptions, Phase
from game.position import Position
from game.replay import MAT_WINS, UNREADABLE, Replayer

LEFT, RIGHT = Color.BLACK, Color.WHITE
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORES = re.compile(r"^\s*(?P<n0>.*?)\s*:\s*(?P<s0>\d+)\s+(?P<n1>.*?)\s*:\s*(?P<s1>\d+)\s*$")
_ROW = re.compile(r"^\s*\d+\)")
_CELL = re.compile(r"[1-6][1-6]:|Doubles|Beavers|Takes|Drops|Wins", re.IGNORECASE)
_WINS = re.compile(r"Wins\s+(\d+)\s+points?(?:\s+and\s+the\s+match)?", re.IGNORECASE)
_CUBE = re.compile(r"(Doubles|Beavers)(?:\s*=>\s*(\d+))?", re.IGNORECASE)
_ANSWER = re.compile(r"(Takes|Drops)", re.IGNORECASE)


# -- writing ------------------------------------------------------------------------

def export_mat(match: Match) -> str:
    """The match as a .mat transcript."""
    if match.variant is not Variant.BACKGAMMON:
        raise MatFormatError(f".mat transcripts hold Backgammon only, not {match.variant.value}")
    if match.options.automatic_doubles:
        raise MatFormatError(".mat transcripts cannot show automatic doubles")
    white, black = match.players
    out = [f" {match.length or 0} point match\n\n"]
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
            cells.append((player, f"{dice[0]}{dice[1]}: {_notation(position, after, event['moves'])}"))
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


def _notation(before: Position, after: Position, moves: list[list[int]]) -> str:
    """Steps as GNU Backgammon writes them, the step that hits marked: `13/7* 7/4`."""
    mover, theirs = before.turn, before.turn.opponent.char
    hits = {own for own in range(1, 25)
            if before.own_stack(mover, own).count(theirs) > after.own_stack(mover, own).count(theirs)}
    steps = []
    for source, target in moves:
        steps.append(f"{_point(source)}/{_point(target)}{'*' if target in hits else ''}")
        hits.discard(target)
    return " ".join(steps)


def _point(own: int) -> str:
    return "bar" if own == BAR else "off" if own == OFF else str(own)


# -- reading ------------------------------------------------------------------------

def mat_events(text: str, options: MatchOptions = NO_OPTIONS) -> Iterator[tuple[int, dict[str, Any]]]:
    """The transcript as (line number, event) pairs for a `Replayer`.

    The events are those a .mat can say: scores at each game start, rolls with the
    notation played (`"text"`), cube actions, and "Wins" lines (`mat_wins`), which
    the replayer reads as a resignation unless the game has just ended.
    """
    lines = text.lstrip("\ufeff").splitlines()
    length: int | None = None
    index = 0
    while index < len(lines):
        found = _LENGTH.match(lines[index])
        index += 1
        if found:
            length = int(found[1])
            break
    if length is None:
        raise MatFormatError("not a .mat transcript: no 'N point match' line")
    first_game = True
    opening = False
    while index < len(lines):
        number, line = index + 1, lines[index]
        index += 1
        game = _GAME.match(line)
        if game:
            while index < len(lines) and not lines[index].strip():
                index += 1
            scores = _SCORES.match(lines[index]) if index < len(lines) else None
            if scores is None:
                raise MatFormatError(f"line {index + 1}: expected 'name : score   name : score' after "
                                     f"'Game {game[1]}'")
            index += 1
            if first_game:
                yield number, {"type": "match_start", "variant": Variant.BACKGAMMON.value,
                               "length": length, "options": options.to_document(),
                               "players": {"white": scores["n1"], "black": scores["n0"]}}
                first_game = False
            yield index, {"type": "game_start", "game": int(game[1]),
                          "score": {"white": int(scores["s1"]), "black": int(scores["s0"])}}
            opening = True
            continue
        if not line.strip() or line.lstrip()[:1] in (";", "#"):
            continue
        if first_game:
            raise MatFormatError(f"line {number}: moves before the first 'Game' line")
        events: list[dict[str, Any]] = []
        try:
            for player, cell in _cells(line):
                events += _cell_events(player, cell, opening and not events)
        except MatFormatError as exc:
            yield number, {"type": UNREADABLE, "rule": f"cannot read this line: {exc}"}
            continue
        opening = opening and not any(e["type"] == "opening_roll" for e in events)
        for event in events:
            yield number, event


def _cells(line: str) -> Iterator[tuple[Color, str]]:
    row = _ROW.match(line)
    body_start = row.end() if row else 0
    starts = [m.start() for m in _CELL.finditer(line, body_start)]
    stray = line[body_start:starts[0] if starts else len(line)].strip()
    if stray:
        raise MatFormatError(f"cannot read {stray!r}")
    for n, start in enumerate(starts):
        text = line[start:starts[n + 1] if n + 1 < len(starts) else len(line)].strip()
        if row:
            left = n == 0 and start - body_start < 5
        else:
            left = start < 20
        if n > 0:
            left = False
        yield (LEFT if left else RIGHT), text


def _cell_events(player: Color, cell: str, opening: bool) -> list[dict[str, Any]]:
    if cell[:1].isdigit():
        d1, d2 = int(cell[0]), int(cell[1])
        notation = cell[3:].strip()
        if notation.lower().startswith(("cannot move", "???")):
            notation = ""
        if opening:  # the opening roll: the mover had the higher die
            dice = {player.value: max(d1, d2), player.opponent.value: min(d1, d2)}
            first: dict[str, Any] = {"type": "opening_roll", "white": dice["white"], "black": dice["black"]}
        else:
            first = {"type": "roll", "player": player.value, "dice": [d1, d2]}
        return [first, {"type": "play", "player": player.value, "text": notation}]
    cube = _CUBE.fullmatch(cell)
    if cube:
        event: dict[str, Any] = {"type": "double" if cube[1].lower() == "doubles" else "beaver",
                                 "player": player.value}
        if cube[2]:
            event["value"] = int(cube[2])
        return [event]
    answer = _ANSWER.fullmatch(cell)
    if answer:
        return [{"type": "take" if answer[1].lower() == "takes" else "pass", "player": player.value}]
    wins = _WINS.fullmatch(cell)
    if wins:
        return [{"type": MAT_WINS, "player": player.value, "points": int(wins[1])}]
    raise MatFormatError(f"cannot read {cell!r}")


def replay_mat(text: str, options: MatchOptions = NO_OPTIONS, *, strict: bool = True) -> Replayer:
    """Replay a transcript through the rules (strict: raise `ReplayError` at the first problem)."""
    replayer = Replayer(strict=strict, lenient=True)
    for number, event in mat_events(text, options):
        replayer.feed(event, number)
    replayer.finish()
    return replayer


def import_mat(text: str, options: MatchOptions = NO_OPTIONS) -> Match:
    """The match of a transcript; a money session that ends between games is stopped there."""
    match = replay_mat(text, options).result()
    if match.length is None and match.phase is Phase.OPENING and match.games:
        match.stop()
    return match

