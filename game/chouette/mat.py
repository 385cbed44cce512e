"""Each member's games against the box as a money `.mat`, for analysis in GNU Backgammon.

The checker play is shared: the captain's and the box's rolls and plays go into every member's
transcript. The cube is the member's own: only their doubles, takes, passes and beavers (with
one team cube, the team's). A member's game ends where their stake settled; games in which they
were the box or its partner are not theirs. The member is White (the right-hand column, GNU
Backgammon's player 1) and the opponent is named "Box" whoever held it. Each transcript is
replayed through the two-player rules (`game.match.Match`) before it is written, so its scores
are the ordinary money-game scores of those cube actions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from game.board import Variant
from game.errors import MatFormatError
from game.mat import export_mat
from game.match import Match, MatchOptions
from game.replay import Replayer

from .session import ChouetteSession

BOX_NAME = "Box"
_BOARD = {"opening_roll", "roll", "play", "takeback"}
_CUBE = {"double", "take", "pass", "beaver"}


def chouette_mats(session: ChouetteSession) -> dict[str, str]:
    """Every player's games as a team member, as `.mat` text, by player (in the order they came)."""
    if session.variant is not Variant.BACKGAMMON:
        raise MatFormatError(f".mat transcripts hold Backgammon only, not {session.variant.value}")
    if session.options.automatic_doubles:
        raise MatFormatError(".mat transcripts cannot show automatic doubles")
    members = [name for name in session.totals if any(name in g.team for g in session.games)
               or (session.stakes is not None and name in session.stakes.order)]
    return {member: export_mat(member_match(session.events, member, session.options.team_cube,
                                            session.options.jacoby, session.options.beavers))
            for member in members}


def member_match(events: Sequence[Mapping[str, Any]], member: str, team_cube: bool = False,
                 jacoby: bool = False, beavers: bool = False) -> Match:
    """`member`'s games against the box, replayed as a money session through the two-player rules."""
    replayer = Replayer(strict=True, lenient=True)
    replayer.feed({"type": "match_start", "variant": "backgammon", "length": 0,
                   "options": MatchOptions(jacoby=jacoby, beavers=beavers).to_document(),
                   "players": {"white": member, "black": BOX_NAME}})
    for event in member_events(events, member, team_cube):
        replayer.feed(event)
    return replayer.result()


def member_events(events: Sequence[Mapping[str, Any]], member: str, team_cube: bool) -> Iterator[dict[str, Any]]:
    """The two-player events of `member`'s games: the shared board and `member`'s own cube."""
    playing = False  # `member` has a stake in the game in progress, not yet settled
    begun = False  # the game in progress has had its first opening roll
    box, line, partner = "", [], None
    for event in events:
        kind = event["type"]
        if kind == "game_start":
            playing, begun, box, line, partner = False, False, event["box"], event["line"], None
        elif kind == "line":
            box, line, partner = event["box"], event["line"], event["partner"]
        elif kind == "opening_roll" and not begun:
            begun, playing = True, member in line and member != partner
        if not playing:
            continue
        if kind in _BOARD:
            yield _board_event(event)
        elif kind in _CUBE and (event["member"] == member or team_cube):
            yield {"type": kind, "player": "black" if event["player"] == box else "white"}
        elif kind == "settle" and event["member"] == member:
            playing = False


def _board_event(event: Mapping[str, Any]) -> dict[str, Any]:
    """A board event in the two-player record's terms: the team is White, the box Black."""
    kind = event["type"]
    if kind == "opening_roll":
        return {"type": kind, "white": event["team"], "black": event["box"]}
    color = "white" if event["side"] == "team" else "black"
    out = {"type": kind, "player": color}
    for key in ("dice", "moves", "position", "accepted_illegal"):
        if key in event:
            out[key] = event[key]
    return out
