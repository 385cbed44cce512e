"""Board pictures for players and referees: boards, plays, discrepancies and match sheets.

Every drawing function takes plain values and returns a Pillow image; only
`save_sheet` and the two command functions touch files.
"""

from game.pictures.arrows import draw_play, find_play, play_arrows
from game.pictures.board import CubeView, Geometry, ScoreView, draw_board
from game.pictures.commands import render_command, report_command
from game.pictures.discrepancy import compare_zones, draw_discrepancy
from game.pictures.sheet import MatchSheet, SheetGame, SheetRow, draw_sheet, save_sheet, sheet_from_events

__all__ = [
    "CubeView", "Geometry", "MatchSheet", "ScoreView", "SheetGame", "SheetRow",
    "compare_zones", "draw_board", "draw_discrepancy", "draw_play", "draw_sheet", "find_play", "play_arrows",
    "render_command", "report_command", "save_sheet", "sheet_from_events",
]
