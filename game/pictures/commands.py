"""The two command-line actions, as plain functions for `game.cli` to call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.board import Color
from game.pictures.arrows import draw_play
from game.pictures.board import CubeView, ScoreView, draw_board
from game.pictures.sheet import draw_sheet, save_sheet, sheet_from_events
from game.position import Position
from game.xgid import Xgid


def render_command(position: Position, play_text: str | None, dice: tuple[int, int] | None, out: str | Path,
                   both_sides: bool = False, perspective: Color | None = None, setting: Xgid | None = None) -> None:
    """`python -m game render`: the board with its cube (centred at 64 unless `setting`, an XGID,
    says otherwise) and, from an XGID, the score; the play's arrows when `play_text` is given.

    Raises IllegalPlayError (a ValueError) when the play is not legal or is ambiguous for the dice.
    The image format follows the suffix of `out` (.png recommended).
    """
    cube, score = CubeView(), None
    if setting is not None:
        cube = CubeView(setting.cube_value, setting.cube_owner, setting.crawford)
        score = ScoreView(setting.score[0], setting.score[1], setting.match_length)
    if play_text:
        image = draw_play(position, play_text, dice=dice, cube=cube, score=score, both_sides=both_sides,
                          perspective=perspective)
    else:
        image = draw_board(position, dice=dice, cube=cube, score=score, both_sides=both_sides,
                           perspective=perspective)
    image.save(out)


def report_command(record: str | Path, out: str | Path) -> list[Path]:
    """`python -m game report`: the match sheet of a JSON Lines record, a `.mat` transcript or GNU
    Backgammon's `.sgf`, as .pdf or .png; the files written."""
    from game.record import read_record

    events: list[dict[str, Any]] = []
    data = Path(record).read_bytes()
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] != b"{":  # a transcript: the match it replays to
        from game.transcripts import replay_sgf, replay_transcript
        from game.transcripts.sgf import is_sgf

        text = data.decode("utf-8", errors="replace")
        match = (replay_sgf(text) if is_sgf(data) else replay_transcript(text)).replayer.match
        if match is None:
            raise ValueError(f"{record}: holds no match")
        events = [dict(event) for event in match.events]
    for line in read_record(record) if not events else ():
        if line.event is None:
            raise ValueError(f"{record}:{line.number}: not a JSON event object")
        events.append(line.event)
    from game.chouette.replay import is_chouette_record

    if is_chouette_record(events):  # a chouette's score sheet
        from game.pictures.chouette_sheet import chouette_sheet_from_events, draw_chouette_sheet

        return save_sheet(draw_chouette_sheet(chouette_sheet_from_events(events)), out)
    return save_sheet(draw_sheet(sheet_from_events(events)), out)
