"""Which cube dialogue a table holds, from its settings (a new record) or its journal (a resume): a
match (`firmware_host/controller/cube/match.py`) or a chouette (`firmware_host/controller/cube/chouette.py`).
The one place that tells the two apart; the controller routes to what this gives it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware_host.controller.cube.chouette import ChouetteDialogue, resume_chouette, start_chouette
from firmware_host.controller.cube.match import MatchDialogue, resume_match, start_match
from firmware_host.controller.session import CubeDialogue, Session
from firmware_host.record.journal import Journal
from firmware_host.settings import Settings
from game.chouette import ChouetteSession
from game.chouette.replay import is_chouette_record
from game.match import Match

WallTime = Callable[[], float]


def start(settings: Settings, wall_time: WallTime) -> Session:
    """What a new record plays: a chouette when the settings have one, else a match."""
    if settings.chouette is not None:
        return start_chouette(settings, wall_time)
    return start_match(settings, wall_time)


def resume(settings: Settings, journal: Journal, history: list[dict[str, Any]], wall_time: WallTime) -> Session:
    """What the journal's `history` plays, replayed, going on at `wall_time` (its clock stood at
    the last recorded time); refused when the settings ask for another match or session."""
    played: Match | ChouetteSession
    if is_chouette_record(history):
        played = resume_chouette(settings, journal, history)
    else:
        played = resume_match(settings, journal, history)
    played.use_clock(wall_time)
    return played


def dialogue_for(played: Session, settings: Settings) -> CubeDialogue:
    """The part of the table that fits what is played."""
    if isinstance(played, ChouetteSession):
        return ChouetteDialogue(played, settings.chouette.games if settings.chouette is not None else 0)
    assert isinstance(played, Match), f"a table plays a match or a chouette, not {type(played).__name__}"
    return MatchDialogue(played)
