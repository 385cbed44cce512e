"""The layout of a Jellyfish `.mat` transcript: header lines, the match length, each game's header
and score line, and the cells of its numbered rows, each on the left or the right column.

Nothing here knows the rules: a cell is text on one side of one line. The left column is
GNU Backgammon's player 0 (Black here), the right its player 1 (White). A cell starts with the
dice (`31:`) or a word (`Doubles`, `Beavers`, `Takes`, `Drops`, `Wins`, `Losses`, `Resigns`,
`Resigned`); a left cell
that runs into the right column is split where the next cell starts.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import NamedTuple

from game.board import Color
from game.errors import MatFormatError

LEFT, RIGHT = Color.BLACK, Color.WHITE
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORES = re.compile(r"^\s*(?P<n0>.*?)\s*:\s*(?P<s0>\d+)\s+(?P<n1>.*?)\s*:\s*(?P<s1>\d+)\s*$")
_HEADER = re.compile(r'^\s*[;#]\s*\[(?P<key>[^"\]]+?)\s+"(?P<value>[^"]*)"\s*\]\s*$')
_ROW = re.compile(r"^\s*(\d+)\)")
# a hand transcription's `Double`, `Doubled`, `Take`, `Taken`, `Drop`, `Dropped`, `Win`: GNU Backgammon reads them
# (the lookahead names the first characters the cells can start with: the engine skips to them in C, and
# finds a long line's cells in about two thirds of the time)
_CELL = re.compile(r"(?=[0-9DBRTWL])(?<!\S)(?:[0-9][0-9]:|Double[sd]?\b|Beavers\b|Raccoons\b|Take[sn]?\b"
                   r"|Drop(?:s|ped)?\b|Wins?\b|Losses\b|Resign(?:s|ed)\b)", re.IGNORECASE)
_SET_POSITION = re.compile(r"^\s*;\s*Set\s+Pos\s*=\s*(?P<board>[^/:\s]+)", re.IGNORECASE)  # eXtreme Gammon's
_RATING = re.compile(r"^(?P<name>.*?),\s*(?P<rating>-?\d+(?:[.,]\d+)?)$")
LEFT_GAP = 6  # a row's first cell this close to its number is on the left


class Cell(NamedTuple):
    """One cell: a roll and its play, a cube action, or a result, on one side of one line.

    A NamedTuple, not a dataclass: made at every start of `python -m game`, it costs about an eighth as much.
    """

    line: int
    side: Color
    text: str


class GameText:
    """One game as written: its header, the score line, and its cells in order.

    A plain class, not a dataclass: made at every start of `python -m game`, a dataclass costs half a
    millisecond.
    """

    __slots__ = ("number", "line", "names", "score", "score_line", "cells", "stray", "set_position")

    def __init__(self, number: int, line: int, names: tuple[str, str], score: tuple[int, int], score_line: int,
                 cells: list[Cell] | None = None, stray: list[tuple[int, str]] | None = None,
                 set_position: tuple[int, str] | None = None) -> None:
        self.number = number
        self.line = line
        self.names = names  # (left, right), as written
        self.score = score  # (left, right)
        self.score_line = score_line
        self.cells: list[Cell] = [] if cells is None else cells
        self.stray: list[tuple[int, str]] = [] if stray is None else stray  # text that is in no cell
        self.set_position = set_position  # `; Set Pos=<board>`: the line and the board it starts from


class Layout:
    """A whole transcript's layout.

    A plain class, not a dataclass: made at every start of `python -m game`, a dataclass costs half a
    millisecond.
    """

    __slots__ = ("headers", "length", "length_line", "games", "features", "examples")

    def __init__(self, headers: dict[str, str], length: int, length_line: int, games: list[GameText],
                 features: Counter[str] | None = None, examples: dict[str, tuple[int, str]] | None = None) -> None:
        self.headers = headers
        self.length = length
        self.length_line = length_line
        self.games = games
        self.features: Counter[str] = Counter() if features is None else features  # each layout feature's count
        self.examples: dict[str, tuple[int, str]] = {} if examples is None else examples  # one line of each

    def saw(self, feature: str, line: int, text: str) -> None:
        """Count a feature of the layout, keeping the first line that shows it."""
        self.features[feature] += 1
        self.examples.setdefault(feature, (line, text.rstrip()))


def read_layout(text: str) -> Layout:
    """The layout of a transcript; raises `MatFormatError` when it is no transcript at all."""
    lines = [line.expandtabs(8) for line in text.lstrip("\ufeff").splitlines()]  # columns, as tabs show them
    layout, index = _match_line(lines)
    right_column = _right_column(lines[index:])
    game: GameText | None = None
    while index < len(lines):
        number, line = index + 1, lines[index]
        index += 1
        length = _LENGTH.match(line)
        if length:
            _another_length(layout, int(length[1]), number, line)
            continue
        start = _GAME.match(line)
        if start:
            while index < len(lines) and not lines[index].strip():
                index += 1
            game = _game_header(layout, int(start[1]), number, lines, index)
            index += 1
            continue
        set_position = _SET_POSITION.match(line)
        if set_position and game is not None and not game.cells:
            game.set_position = (number, set_position["board"])
        if not line.strip() or line.lstrip()[:1] in (";", "#"):
            continue
        if line != line.rstrip():
            layout.saw("trailing blanks", number, line)
        if game is None:
            raise MatFormatError(f"line {number}: moves before the first 'Game' line: {line.strip()!r}")
        _row(layout, game, number, line, right_column)
    return layout


def _match_line(lines: list[str]) -> tuple[Layout, int]:
    """The headers and the 'N point match' line: the layout begun, and the index of the line after it."""
    headers: dict[str, str] = {}
    for index, line in enumerate(lines):
        header = _HEADER.match(line)
        if header:
            headers.setdefault(header["key"].strip(), header["value"])
            continue
        found = _LENGTH.match(line)
        if found:
            layout = Layout(headers, int(found[1]), index + 1, [])
            if headers:
                layout.saw("header lines", 1, lines[0])
            return layout, index + 1
    raise MatFormatError("not a .mat transcript: no 'N point match' line")


def _another_length(layout: Layout, length: int, number: int, line: str) -> None:
    """A second `N point match` line: the same length said again is read past; another length is two
    matches in one file, or a file that does not say which match was played."""
    first = f"a {layout.length}-point match at line {layout.length_line}"
    if length == layout.length:
        layout.saw("the match length stated again", number, line)
    elif not layout.games:
        raise MatFormatError(f"line {number}: the file states two match lengths, {first} and a {length}-point "
                             f"match here: which one was played cannot be told")
    else:
        raise MatFormatError(f"line {number}: a second match starts here, a {length}-point match after {first} "
                             f"({len(layout.games)} games): a transcript holds one match; split the file")


def _game_header(layout: Layout, number: int, line: int, lines: list[str], index: int) -> GameText:
    scores = _SCORES.match(lines[index]) if index < len(lines) else None
    if scores is None:
        raise MatFormatError(f"line {index + 1}: expected 'name : score   name : score' after 'Game {number}'")
    names = []
    for key in ("n0", "n1"):
        name = scores[key].strip()
        rating = _RATING.match(name)
        if rating:
            layout.saw("ratings in player names", index + 1, lines[index])
            name = rating["name"].strip()
        if not name:
            layout.saw("an empty player name", index + 1, lines[index])
        elif " " in name:
            layout.saw("spaces in player names", index + 1, lines[index])
        names.append(name)
    game = GameText(number, line, (names[0], names[1]), (int(scores["s0"]), int(scores["s1"])), index + 1)
    layout.games.append(game)
    return game


def _right_column(lines: list[str]) -> int:
    """Where the right column starts: the most common start of a row's second cell."""
    starts: Counter[int] = Counter()
    for line in lines[:400]:
        row = _ROW.match(line)
        if row:
            cells = _cell_starts(line, row.end())
            if len(cells) > 1:
                starts[cells[1]] += 1
    return max(starts, key=starts.__getitem__) if starts else 32  # most_common(1) is this, after importing heapq


@lru_cache(maxsize=1024)
def _cell_starts(line: str, body: int) -> tuple[int, ...]:
    """Where the cells of a line start, after its row number: found once for the right column and
    again for the row, the longest part of reading a transcript's layout."""
    return tuple(m.start() for m in _CELL.finditer(line, body))


def _row(layout: Layout, game: GameText, number: int, line: str, right_column: int) -> None:
    row = _ROW.match(line)
    body = row.end() if row else 0
    starts = _cell_starts(line, body)
    stray = line[body:starts[0] if starts else len(line)].strip()
    if stray:
        game.stray.append((number, stray))
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(line)
        text = line[start:end].strip()
        if n == 0:
            left = start - body <= LEFT_GAP if row else start < right_column - 4
        else:
            left = False
            if start < right_column - 4 and row:
                layout.saw("a long left cell running into the right column", number, line)
        game.cells.append(Cell(number, LEFT if left else RIGHT, text))
    if len(starts) > 2 and not re.search(r"(?<!\S)\d+\)(?=\s|$)", line[body:]):
        game.stray.append((number, f"{len(starts)} cells on one line"))
