"""An analysis written into the match sheet: each error marked beside its play, the big ones drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.bot.analysis import BLUNDER, ERROR, Analysis


def annotated_events(analysis: Analysis) -> list[dict[str, Any]]:
    """The record's events with each error marked ("?" from ERROR, "??" from BLUNDER) and explained;
    a blunder's better play goes with it so the sheet draws both."""
    events = [dict(event) for event in analysis.events]
    for decision in analysis.decisions:
        if decision.error < ERROR:
            continue
        event = events[decision.index]
        event["mark"] = "??" if decision.error >= BLUNDER else "?"
        event["analysis"] = f"-{decision.error:.3f}: better {decision.best}"
        if decision.error >= BLUNDER and decision.best_play is not None:
            event["better"] = [[m.source, m.target] for m in decision.best_play.moves]
    return events


def write_sheet(analysis: Analysis, out: str | Path) -> list[Path]:
    """The analysed match sheet as .pdf or .png; the files written."""
    from game.pictures.sheet import SheetSummary, draw_sheet, save_sheet, sheet_from_events

    biggest = analysis.biggest(5)
    notes = ((analysis.scale_note(),) if analysis.scale_note() else ()) + \
        (("Biggest errors:",) if biggest else ("No errors found.",)) + \
        tuple(f"{n}. {d.describe()}" for n, d in enumerate(biggest, start=1))
    white, black = analysis.players
    summary = SheetSummary(f"Analysis by {analysis.judge}", ("", f"White ({white})", f"Black ({black})"),
                           tuple(analysis.summary()), notes)
    return save_sheet(draw_sheet(sheet_from_events(annotated_events(analysis)), summary=summary), out)
