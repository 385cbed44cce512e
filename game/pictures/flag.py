"""A referee flag's picture, drawn from its journal event alone: the table draws it as it flags,
the tournament room draws the same one again from its copy of the journal.

Only flags about the checkers have a picture (`BOARD_FLAGS`): an illegal play, a misplaced
board, checkers moved between turns, a board that is not the bot's play. A flag about the dice
(a cocked die, a roll before the opponent pressed done) leaves the board as it should be, so a
picture of it would show nothing wrong; its journal line says all there is.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from PIL import Image, PngImagePlugin

from game.board import Color
from game.codes import FlagKind
from game.pictures.discrepancy import discrepancy_captions, draw_discrepancy
from game.position import Position
from game.zones import Layout, ZoneReading

BOARD_FLAGS = frozenset({FlagKind.ILLEGAL, FlagKind.MISPLACED, FlagKind.SET_BOARD, FlagKind.BOT_PLAY})
"""The flag kinds that get a picture: those about where the checkers stand."""


def flag_title(event: Mapping[str, Any], number: int) -> str:
    """The picture's title: "Flag 2: SC (misplaced), White to play 3-1, game 1, move 5", and on a
    second line what the referee expected ("expected: legal play 23/17 3/2")."""
    player = event.get("player")
    dice = event.get("dice")
    who = str(player).capitalize() if player else "no player"
    roll = f" to play {dice[0]}-{dice[1]}" if dice else ""
    first = (f"Flag {number}: {event.get('code', '??')} ({event.get('kind', 'flag')}), {who}{roll}, "
             f"game {event.get('game', '?')}, move {event.get('move', '?')}")
    because = event.get("expected_play")
    return f"{first}\nexpected: {because}" if because else first


def has_picture(event: Mapping[str, Any]) -> bool:
    """Whether a flag event has a board to show."""
    return event.get("kind") in BOARD_FLAGS and bool(event.get("expected")) and bool(event.get("sensed"))


def draw_flag(event: Mapping[str, Any], number: int) -> Image.Image | None:
    """Flag `number`'s picture: the sensed board beside the one the referee expected, each
    difference numbered and listed in the flagged player's own point numbers (the words of the
    flag's message); None for a flag with no board to show."""
    if not has_picture(event):
        return None
    expected, sensed, perspective, board = _evidence(event)
    return draw_discrepancy(expected, sensed, perspective=perspective, title=flag_title(event, number), board=board)


def flag_png(event: Mapping[str, Any], number: int) -> bytes | None:
    """`draw_flag`'s picture as PNG, its words also in the file's text chunks (`Title`: the title,
    `Description`: the numbered list, a line each) for whoever searches or reads the file without
    looking: a screen reader, a referee's grep, the tests."""
    picture = draw_flag(event, number)
    if picture is None:
        return None
    expected, sensed, perspective, board = _evidence(event)
    captions = discrepancy_captions(expected, sensed, perspective=perspective, board=board)
    info = PngImagePlugin.PngInfo()
    info.add_itxt("Title", flag_title(event, number))
    info.add_itxt("Description", "\n".join(f"{n}. {caption}" for n, caption in enumerate(captions, start=1)))
    out = io.BytesIO()
    picture.save(out, "PNG", pnginfo=info)
    return out.getvalue()


def _evidence(event: Mapping[str, Any]) -> tuple[Position, dict[int, ZoneReading], Color | None, Layout | None]:
    expected = Position.from_document(event["expected"])
    sensed = {zone: ZoneReading.parse(str(text)) for zone, text in enumerate(event["sensed"], start=1)}
    board, player = event.get("expected_board"), event.get("player")
    return expected, sensed, Color(player) if player else None, tuple(board) if board else None
