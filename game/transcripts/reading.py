"""From a transcript's cells to the events a `Replayer` takes, and what the file's dialect is.

A cell says one of: a roll and its play (`52: 13/8 13/11`, `52:` or `52: Cannot Move` for a roll
that cannot be played, `52: ????` for a play not recorded, `11: Illegal play (...)` for Snowie's
record of an illegal play allowed to stand), a cube action (`Doubles => 2`, `Beavers => 4`,
`Takes`, `Drops`), or a result (`Wins 2 points [and the match]`, or Backgammon Galaxy's
`Losses 2 point` on the loser's side), perhaps after the words of a resignation (`Resigns`, `Resigned
Game`, `Resigned Match`). The first roll of a game is the opening roll: the player
who plays it had the higher die.
"""

from __future__ import annotations

import re
from typing import Any

from game.board import Color, Variant
from game.errors import MatFormatError
from game.match import NO_OPTIONS, MatchOptions
from game.replay import MAT_WINS, UNREADABLE
from game.transcripts.dialect import Dialect, detect
from game.transcripts.layout import Cell, GameText, Layout, read_layout

_DICE = re.compile(r"^([0-9])([0-9]):\s*(.*)$")
_CUBE = re.compile(r"^(Double[sd]?|Beavers|Raccoons)(?:\s*=+>\s*(\d+))?$", re.IGNORECASE)  # `=>`, choue.net's `==>`
_ANSWER = re.compile(r"^(Take[sn]?|Drop(?:s|ped)?)$", re.IGNORECASE)
_RESULT = re.compile(r"^(Wins?|Losses)\s+(\d+)\s+points?(\s+and\s+the\s+match)?$", re.IGNORECASE)
# a resignation said in words before its result line (`Resigns`, OpenGammon's `Resigned Game` and
# `Resigned Match`): the result line after it says who won and how much, whichever column the words are in
RESIGNED = re.compile(r"^Resign(?:s|ed(?:\s+(?:Game|Match))?)$", re.IGNORECASE)
_ILLEGAL = re.compile(r"^Illegal\s+play\s*\((?P<fields>[^)]*)\)?\s*$", re.IGNORECASE)
_STRAY_ROW = re.compile(r"(?<!\S)\d+\)(?=\s|$)")
ILLEGAL_PLAY = "snowie_illegal_play"  # Snowie's record of an illegal play that was let stand
Entry = tuple[int, dict[str, Any]]


class Transcript:
    """A transcript read: its layout, its dialect, and its events with their line numbers.

    A plain class, not a dataclass: made at every start of `python -m game`, a dataclass costs half a
    millisecond.
    """

    __slots__ = ("layout", "dialect", "entries", "game_starts", "notes")

    def __init__(self, layout: Layout, dialect: Dialect, entries: list[Entry] | None = None,
                 game_starts: list[int] | None = None, notes: list[tuple[int, str]] | None = None) -> None:
        self.layout = layout
        self.dialect = dialect
        self.entries: list[Entry] = [] if entries is None else entries
        self.game_starts: list[int] = [] if game_starts is None else game_starts  # each game_start's index in entries
        self.notes: list[tuple[int, str]] = [] if notes is None else notes  # (line, note): how the file was read


def read_transcript(text: str, options: MatchOptions = NO_OPTIONS) -> Transcript:
    """Read a transcript into events (raises `MatFormatError` when it is no transcript)."""
    layout = read_layout(text)
    dialect = detect(layout)
    transcript = Transcript(layout, dialect)
    entries = transcript.entries
    if not layout.games:
        raise MatFormatError(f"line {layout.length_line}: a match with no 'Game' line")
    options = _header_rules(layout, options)
    length = layout.length
    money = money_written_as_match(layout, dialect)
    if money is not None:
        options, note = _money_session(layout, money, options)
        transcript.notes.append((layout.length_line, note))
        dialect.saw("a money session written as a match", layout.length_line, f"{layout.length} point match")
        length = 0
    first = layout.games[0]
    entries.append((first.line, {"type": "match_start", "variant": Variant.BACKGAMMON.value,
                                 "length": length, "options": options.to_document(),
                                 "players": {"white": first.names[1], "black": first.names[0]}}))
    for game in layout.games:
        transcript.game_starts.append(len(entries))
        entries.append((game.score_line, {"type": "game_start", "game": game.number,
                                          "score": {"white": game.score[1], "black": game.score[0]}}))
        _game_events(game, entries)
    return transcript


def _header_rules(layout: Layout, options: MatchOptions) -> MatchOptions:
    """The rules as the header states them: eXtreme Gammon writes `; [Jacoby "On"]` and
    `; [Beaver "On"]` for a money session (under Jacoby a gammon won with the cube never turned counts
    single; match play has no Jacoby); GNU Backgammon writes `; [Variation "NackGammon"]` for a
    Nackgammon match. Another variation (GNU Backgammon's Hypergammon) is refused: its games cannot be
    replayed."""
    if layout.length == 0:
        if _header_says(layout, "Jacoby") is True:
            options = options.replace(jacoby=True)
        if _header_says(layout, "Beaver") is True:
            options = options.replace(beavers=True)
    variation = layout.headers.get("Variation", "Standard").strip()
    if variation.lower() == "nackgammon":
        return options.replace(rules=options.rules.replace(nackgammon=True))
    if variation.lower() not in ("standard", "backgammon", ""):
        raise MatFormatError(f"the header's variation {variation!r} is not played here (Standard or NackGammon)")
    return options


def _header_says(layout: Layout, key: str) -> bool | None:
    """A header's On or Off, or None where the file has no such header."""
    value = layout.headers.get(key, "").strip().lower()
    return True if value == "on" else False if value == "off" else None


GALAXY_MONEY_LENGTH = 16


def money_written_as_match(layout: Layout, dialect: Dialect) -> str | None:
    """Why a transcript that states a match length is a money session, or None: Backgammon Galaxy
    writes its money sessions as 16-point matches (it plays no 16-point match), their gammons won
    with the cube never turned counted single."""
    if dialect.producer == "Backgammon Galaxy" and layout.length == GALAXY_MONEY_LENGTH:
        return f"Backgammon Galaxy writes its money sessions as {GALAXY_MONEY_LENGTH}-point matches"
    return None


def _money_session(layout: Layout, reason: str, options: MatchOptions) -> tuple[MatchOptions, str]:
    """The money session's rules, the header's where it has them (the Jacoby rule is Galaxy's money
    play's where it does not say), and the note that says how it was read."""
    jacoby, beavers = _header_says(layout, "Jacoby"), _header_says(layout, "Beaver")
    rules = options.replace(jacoby=True if jacoby is None else jacoby, beavers=bool(beavers))
    said = [f"the Jacoby rule {'on' if rules.jacoby else 'off'} "
            f"({'as its header says' if jacoby is not None else 'Galaxy money play: the file has no Jacoby header'})",
            f"beavers {'on' if rules.beavers else 'off'}{' (its header)' if beavers is not None else ''}"]
    stakes = [f"{key} {value!r}" for key, value in layout.headers.items()
              if key.lower() in ("stake", "stakes", "bet", "money")]
    said.append(f"stakes: {', '.join(stakes)}" if stakes else "no stakes in the file")
    return rules, (f"a money session written as a {layout.length}-point match ({reason}): read as money play, "
                   + "; ".join(said))


OPENING_BOARD = "-b----E-C---eE---c-e----B-"  # the opening position in eXtreme Gammon's `Set Pos=` (either side's view)


def _game_events(game: GameText, entries: list[Entry]) -> None:
    if game.set_position is not None and game.set_position[1] != OPENING_BOARD:
        line, board = game.set_position
        entries.append((line, {"type": UNREADABLE, "rule": f"game {game.number} starts from a set position "
                                                           f"('Set Pos={board}'), not the opening one: no game "
                                                           f"from the opening is written"}))
    strays = {line: text for line, text in game.stray}
    opening = True
    for cell in game.cells:
        row = _STRAY_ROW.search(cell.text)
        if row:
            entries.append((cell.line, {"type": UNREADABLE, "rule": f"a stray row number {row[0]!r} inside a row: "
                                                                     f"{cell.text!r}"}))
            continue
        if cell.line in strays:
            entries.append((cell.line, {"type": UNREADABLE, "rule": f"cannot read {strays.pop(cell.line)!r} "
                                                                     f"on this line"}))
        try:
            events = cell_events(cell, opening)
        except MatFormatError as exc:
            entries.append((cell.line, {"type": UNREADABLE, "rule": f"cannot read this line: {exc}"}))
            continue
        if any(e["type"] == "opening_roll" for e in events):
            opening = False
        for event in events:
            last = entries[-1][1]
            if (event["type"] == MAT_WINS and last["type"] == MAT_WINS and last["points"] == event["points"]
                    and "losses" in (last["form"], event["form"])):
                # `Losses 1 point` and `Wins 1 point`: one result, and the Wins line says who won it
                # (Backgammon Galaxy puts a Losses line that has no room in its row at the left edge)
                winner = event if event["form"] == "wins" else last
                last.update(player=winner["player"], form="both")
                continue
            entries.append((cell.line, event))
    entries.extend((line, {"type": UNREADABLE, "rule": f"cannot read {text!r} on this line"})
                   for line, text in strays.items())


def cell_events(cell: Cell, opening: bool) -> list[dict[str, Any]]:
    """The events of one cell (`opening`: no roll has been seen yet in this game)."""
    player, text = cell.side, cell.text
    name = player._value_  # the member's value without the enum's property: read at every cell
    dice = _DICE.match(text)
    if dice:
        d1, d2, rest = int(dice[1]), int(dice[2]), dice[3].strip()
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise MatFormatError(f"{text!r}: dice are faces from 1 to 6")
        events = [_roll(player, d1, d2, opening)]
        illegal = _ILLEGAL.match(rest)
        if illegal:
            events.append({"type": ILLEGAL_PLAY, "player": name, "dice": [d1, d2],
                           "snowie": illegal["fields"]})
        elif rest.startswith("?"):
            events.append({"type": "play", "player": name, "text": "", "unrecorded": True})
        elif rest.lower() == "cannot move":
            events.append({"type": "play", "player": name, "text": "", "cannot_move": True})
        else:
            events.append({"type": "play", "player": name, "text": rest})
        return events
    cube = _CUBE.match(text)
    if cube:
        event: dict[str, Any] = {"type": "double" if cube[1].lower().startswith("double") else "beaver",
                                 "player": name}
        if cube[2]:
            event["value"] = int(cube[2])
        return [event]
    answer = _ANSWER.match(text)
    if answer:
        return [{"type": "take" if answer[1].lower().startswith("take") else "pass", "player": name}]
    if RESIGNED.match(text):
        return []  # the result line that follows is the resignation: its winner and points
    result = _RESULT.match(text)
    if result:
        losses = result[1].lower() == "losses"  # Backgammon Galaxy writes the loser's side too
        winner = player.opponent if losses else player
        return [{"type": MAT_WINS, "player": winner.value, "points": int(result[2]),
                 "form": "losses" if losses else "wins"}]
    raise MatFormatError(f"cannot read {text!r}")


def _roll(player: Color, d1: int, d2: int, opening: bool) -> dict[str, Any]:
    if opening:  # the opening roll: the mover had the higher die
        high, low = max(d1, d2), min(d1, d2)
        if high == low:
            raise MatFormatError(f"the opening roll cannot be a double ({d1}{d2})")
        dice = {player.value: high, player.opponent.value: low}
        return {"type": "opening_roll", "white": dice["white"], "black": dice["black"]}
    return {"type": "roll", "player": player._value_, "dice": [d1, d2]}
