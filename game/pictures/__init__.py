"""Board pictures for players and referees: boards, plays, discrepancies and match sheets.

Every drawing function takes plain values and returns a Pillow image; only
`save_sheet` and the two command functions touch files.

The names below are imported when first used: a table that draws a flag's picture
(`game.pictures.flag`) needs Pillow, not the match sheet's PDF writer (fpdf, which loads numpy:
about 50 MB of a table's resident memory).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.pictures.arrows import draw_play, find_play, play_arrows
    from game.pictures.board import CubeView, Geometry, ScoreView, draw_board
    from game.pictures.commands import render_command, report_command
    from game.pictures.discrepancy import compare_zones, draw_discrepancy
    from game.pictures.sheet import MatchSheet, SheetGame, SheetRow, draw_sheet, save_sheet, sheet_from_events

_HOMES = {
    "draw_play": "arrows", "find_play": "arrows", "play_arrows": "arrows",
    "CubeView": "board", "Geometry": "board", "ScoreView": "board", "draw_board": "board",
    "render_command": "commands", "report_command": "commands",
    "compare_zones": "discrepancy", "draw_discrepancy": "discrepancy",
    "MatchSheet": "sheet", "SheetGame": "sheet", "SheetRow": "sheet", "draw_sheet": "sheet", "save_sheet": "sheet",
    "sheet_from_events": "sheet",
}
"""Each exported name's module in this package."""

__all__ = [
    "CubeView", "Geometry", "MatchSheet", "ScoreView", "SheetGame", "SheetRow",
    "compare_zones", "draw_board", "draw_discrepancy", "draw_play", "draw_sheet", "find_play", "play_arrows",
    "render_command", "report_command", "save_sheet", "sheet_from_events",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # once: later reads find it without this hook
    return value
