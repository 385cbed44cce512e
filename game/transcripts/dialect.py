"""A transcript's dialect, read from the file: who wrote it (as far as the file says), whether it
marks hits at all, how it writes bear-offs and entering, and every other habit seen, each with the
first line that shows it. A dialect is a way of writing a legal match; what breaks the rules or
the format is a problem instead (game/TRANSCRIPTS.md draws the line).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from game.transcripts.layout import Layout

_RESIGNED = re.compile(r"(?i)^resign(?:s|ed(?:\s+(?:game|match))?)$")

_SITES = {  # a Site header, lower case without blanks, and the producer it names
    "backgammongalaxy": "Backgammon Galaxy",
    "backgammonstudio": "Backgammon Studio",
    "extremegammon": "eXtreme Gammon",
    "xgmobile": "XG Mobile",
    "gnubackgammon": "GNU Backgammon",
    "dailygammon": "DailyGammon",
    "gamesgrid": "GamesGrid",
    "fibs": "FIBS",
}
_TOKEN = re.compile(r"\S+")
_OFF_AS_ZERO = re.compile(r"/0\b")
_HAND_WORDS = frozenset({"double", "doubled", "take", "taken", "drop", "dropped", "win"})


class Dialect:
    """How a transcript is written: its producer (a guess from the file), whether a missing star
    means no hit, and the features seen with a count and the first line of each.

    A plain class, not a dataclass: made at every start of `python -m game`, a dataclass costs half a
    millisecond.
    """

    __slots__ = ("producer", "marks_hits", "features", "examples")

    def __init__(self, producer: str, marks_hits: bool, features: Counter[str] | None = None,
                 examples: dict[str, tuple[int, str]] | None = None) -> None:
        self.producer = producer
        self.marks_hits = marks_hits
        self.features: Counter[str] = Counter() if features is None else features
        self.examples: dict[str, tuple[int, str]] = {} if examples is None else examples

    def saw(self, feature: str, line: int, text: str) -> None:
        """Count a feature, keeping the first line that shows it."""
        self.features[feature] += 1
        self.examples.setdefault(feature, (line, text))

    def describe(self) -> str:
        """One line: the producer and the features, most frequent first."""
        seen = ", ".join(f"{name} ({count})" if count > 1 else name
                         for name, count in sorted(self.features.items(), key=lambda kv: (-kv[1], kv[0])))
        return f"producer: {self.producer}; dialect: {seen or 'plain'}"

    def to_document(self) -> dict[str, Any]:
        """For `validate --json`: the producer, whether hits are marked, each feature's count and example."""
        return {"producer": self.producer, "marks_hits": self.marks_hits,
                "features": {name: {"count": count, "line": self.examples[name][0], "example": self.examples[name][1]}
                             for name, count in sorted(self.features.items())}}


def detect(layout: Layout) -> Dialect:
    """The dialect of a transcript, from its headers, layout and cells."""
    plays = [(cell.line, cell.text) for game in layout.games for cell in game.cells if cell.text[2:3] == ":"]
    marks_hits = any("*" in text for _, text in plays)
    dialect = Dialect(_producer(layout), marks_hits)
    for name, count in layout.features.items():
        dialect.features[name] = count
        dialect.examples[name] = layout.examples[name]
    for line, text in plays:
        _play_features(dialect, line, text)
    for game in layout.games:
        for cell in game.cells:
            word = cell.text.split(" ", 1)[0].lower()
            if word == "losses":
                dialect.saw("results written on the loser's side (Losses N point)", cell.line, cell.text)
            elif word.startswith("resign") and _RESIGNED.match(cell.text):
                dialect.saw("a resignation said in words before its result (Resigned Game, Resigned Match, Resigns)",
                            cell.line, cell.text)
            elif word in _HAND_WORDS:
                dialect.saw("a hand transcription's words for the cube and the result ('Double', 'Doubled', "
                            "'Take', 'Taken', 'Drop', 'Dropped', 'Win'), read as GNU Backgammon reads them",
                            cell.line, cell.text)
            elif word == "doubles" and "==>" in cell.text:
                dialect.saw("'Doubles ==> 2' for a double (choue.net)", cell.line, cell.text)
            elif word == "wins" and re.match(r"(?i)wins\s+([2-9]|\d\d+)\s+point\b(?!s)", cell.text):
                dialect.saw("'point' for several points", cell.line, cell.text)
    if not marks_hits and plays:
        dialect.saw("no hit marked anywhere", plays[0][0], plays[0][1])
    return dialect


def _play_features(dialect: Dialect, line: int, text: str) -> None:
    dice, _, rest = text.partition(":")
    rest = rest.strip()
    if dice[0] < dice[1]:
        dialect.saw("dice written as rolled, lower die first at times", line, text)
    lowered = rest.lower()
    if lowered == "cannot move":
        dialect.saw("'Cannot Move' for a roll that cannot be played", line, text)
        return
    if lowered.startswith("?"):
        dialect.saw("'????' for a play not recorded (the player resigned after rolling)", line, text)
        return
    if lowered.startswith("illegal play"):
        dialect.saw("Snowie's 'Illegal play (...)' for an illegal play let stand", line, text)
        return
    for token in _TOKEN.findall(lowered):
        _move_features(dialect, line, text, token)
    if "Off" in rest or "Bar" in rest:
        dialect.saw("'Off' and 'Bar' capitalised", line, text)


def _move_features(dialect: Dialect, line: int, text: str, token: str) -> None:
    """How one move of a play is written: entering, bearing off, counted moves, joined steps."""
    if token.startswith("bar") or token.startswith("b/"):
        dialect.saw("entering written from 'bar'", line, text)
    elif token.startswith("25/"):
        dialect.saw("entering written from 25", line, text)
    if "/off" in token or token.endswith("/o"):
        dialect.saw("bearing off written to 'off'", line, text)
    elif "/0" in token and _OFF_AS_ZERO.search(token):
        dialect.saw("bearing off written to 0", line, text)
    if "(" in token:
        dialect.saw("identical moves counted (13/7(2))", line, text)
    if token.count("/") > 1:
        dialect.saw("one checker's steps joined with the points between (24/21/15)", line, text)


def _producer(layout: Layout) -> str:
    headers = layout.headers
    site = headers.get("Site", "").strip()
    if site:
        known = _SITES.get(re.sub(r"\s+", "", site).lower())
        if known:
            return known
        if "Transcriber" in headers:
            return f"hand-entered ({site}, transcribed by {headers['Transcriber']})"
        return f"{site} (its Site header)"
    if layout.features.get("ratings in player names"):
        return "GamesGrid (ratings after the names, as GNU Backgammon knows them)"
    if set(headers) == {"EventDate"} or (set(headers) <= {"EventDate", "EventTime", "Event", "Round"} and headers):
        return "GNU Backgammon (its export header)"
    return "not named in the file"
