"""Reading a position or a match from any of its forms: `parse_position` takes an XGID, a
Position ID or a JSON position document; `read_match` a JSON Lines record or a `.mat` transcript
(as python-chess's `chess.pgn.read_game` reads a game).
"""

from __future__ import annotations

import os
from typing import IO, TYPE_CHECKING

from game.board import Color, Variant
from game.errors import MatFormatError, NotationError, PositionError
from game.gnubg_ids import from_position_id
from game.position import Position
from game.xgid import Xgid

if TYPE_CHECKING:
    from game.match import Match, MatchOptions


def parse_position(text: str, variant: Variant | None = None) -> Position:
    """An XGID, a GNU Backgammon Position ID (White on roll), an inline JSON document, or `start`:
    the starting position of `variant` (Backgammon unless given), White on roll.

    `variant`, when given, must agree with what the text describes.
    """
    return parse_setting(text, variant)[0]


def parse_setting(text: str, variant: Variant | None = None) -> tuple[Position, Xgid | None]:
    """`parse_position`, and for an XGID all it says besides (cube, dice, score, match length)."""
    body = text.strip()
    xgid = None
    if body.startswith("{"):
        position = Position.from_json(body)
    elif body.lower() == "start":  # the one position every variant's players can name without a document
        position = Position.initial(variant or Variant.BACKGAMMON)
    elif body.upper().startswith("XGID=") or body.count(":") == 9:
        xgid = Xgid.parse(body)
        position = xgid.position
    elif len(body) == 14:
        position = from_position_id(body, Color.WHITE)
    else:
        raise NotationError(
            f"cannot tell what {_clip(body)!r} is: expected an XGID, a 14-character "
            "Position ID, a JSON position document, @file.json or start")
    if variant is not None and position.variant is not variant:
        raise PositionError(f"position is {position.variant.value}, but --variant is {variant.value}")
    return position, xgid


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


MatchSource = str | bytes | os.PathLike[str] | IO[str] | IO[bytes]


def read_match(source: MatchSource, options: MatchOptions | None = None) -> Match:
    """The match a file holds, replayed through the rules: the project's JSON Lines record
    (game/RECORD.md), a `.mat` transcript in any dialect (game/TRANSCRIPTS.md) or GNU Backgammon's
    `.sgf`, told apart by their first characters (`game.transcripts.other_formats.file_kind`).

    `source` is a path (`pathlib.Path`), an open file, or the file's contents (`str` or `bytes`).
    `options` are a transcript's money session's options, which a `.mat` does not hold (a record
    holds its own). Raises `ReplayError` at the first thing the rules do not allow and
    `MatFormatError` for a file that is none of them (naming its format when it is one the project
    does not read: an eXtreme Gammon file, a FIBS log, a binary or empty file).

        >>> from game import Match
        >>> from game.mat import export_mat
        >>> match = Match(length=1)
        >>> match.opening_roll(3, 1)
        >>> _ = match.play("8/5 6/5")
        >>> read_match(export_mat(match)).position == match.position
        True
    """
    from game.record import read_lines, replay_lines
    from game.transcripts.other_formats import file_kind

    data = _read_source(source)
    kind = file_kind(data, os.fspath(source) if isinstance(source, os.PathLike) else "")
    if kind == "record":
        lines = list(read_lines(data))
        from game.chouette.replay import is_chouette_record

        if is_chouette_record(line.event for line in lines):
            raise MatFormatError("the record is a chouette session's: read it with game.chouette.replay")
        return replay_lines(lines).result()
    from game.mat import ended_as_written, import_mat
    from game.match import NO_OPTIONS

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MatFormatError(f"neither a record nor a transcript: not UTF-8 text ({exc})") from None
    if kind == "sgf":
        from game.transcripts import replay_sgf

        return ended_as_written(replay_sgf(text, options or NO_OPTIONS, strict=True).replayer.result())
    return import_mat(text, options or NO_OPTIONS)


def _read_source(source: MatchSource) -> bytes:
    if isinstance(source, bytes):
        return source
    if isinstance(source, str):
        return source.encode("utf-8")
    if isinstance(source, os.PathLike):
        with open(source, "rb") as handle:
            return handle.read()
    data = source.read()
    return data.encode("utf-8") if isinstance(data, str) else data
