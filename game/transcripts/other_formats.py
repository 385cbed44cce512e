"""What a match file holds, told by its first bytes (`file_kind`): the project's JSON Lines record,
GNU Backgammon's `.sgf`, a `.mat` transcript; and the formats the project does not read, named
instead of guessed at (`unreadable_format`).

A referee handed one of those gets one line that says what the file is and how to make a file the
project reads from it; reading it as a broken `.mat` would only say "no 'N point match' line".
Every reader of a match file (`validate`, `read_match`, the analysis) asks here, so each tells them
apart the same way.
"""

from __future__ import annotations

import re
from typing import Literal

from game.errors import MatFormatError
from game.transcripts.sgf import is_sgf

Kind = Literal["record", "sgf", "mat"]

_OLDMOVES_SCORE = re.compile(rb"Score is \d+-\d+")
_OLDMOVES_PLAYERS = re.compile(rb"(?m)^\s*\S.*\bis X - .*\bis O\b")
XG_MAGIC = (b"RGMH", b"HMGR")  # eXtreme Gammon's RichGameFormat header as it lies on disk (0x484D4752), and swapped


def file_kind(data: bytes, name: str = "") -> Kind:
    """Which of the formats the project reads `data` (the file `name`) is in: a record starts with
    `{`, an `.sgf` with `(;`, anything else is read as a `.mat`; a format it does not read (an
    eXtreme Gammon file, a FIBS log, a binary or empty file) raises `MatFormatError` naming it."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        return "record"
    other = unreadable_format(data, name)
    if other is not None:
        raise MatFormatError(other)
    return "sgf" if is_sgf(data) else "mat"


def unreadable_format(data: bytes, name: str = "") -> str | None:
    """One line naming the format of a match file the project does not read and how to export a
    readable one, or None when the file may be a transcript or a record."""
    lowered = name.lower()
    if lowered.endswith(".xgp"):
        return ("an eXtreme Gammon position file (.xgp, binary): a position, not a match; copy its XGID from "
                "eXtreme Gammon for the position commands, or export the match it comes from as a .mat")
    if data[:4] in XG_MAGIC or lowered.endswith(".xg"):
        return ("an eXtreme Gammon match file (.xg, binary), not a transcript: export the match from eXtreme "
                "Gammon as a Jellyfish .mat file and give that")
    head = data[:4096]
    if not data or data.isspace():  # a transcript never written, or lost in a copy (isspace stops at a letter)
        return "an empty file (nothing but white space in it): no match to read; ask for the file again"
    if _OLDMOVES_SCORE.search(head) and _OLDMOVES_PLAYERS.search(head):
        return ("a FIBS 'oldmoves' log, not a transcript: import it into GNU Backgammon ('import oldmoves FILE'), "
                "then 'export match mat FILE.mat' (or 'save match FILE.sgf') and give that")
    if b"\0" in head:
        return "a binary file, not a .mat transcript, a GNU Backgammon .sgf or a JSON Lines record"
    return None
