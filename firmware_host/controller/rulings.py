"""A tournament referee's ruling at the table: which rulings there are and when each applies.

The controller routes a ruling (`Controller.referee`): it asks `refusal` whether the table's
state allows it, journals it as a `referee` event either way, and applies it. Rulings come
from the room's director (hardware_docs/room.md); hardware_docs/referee.md says what each does.
"""

from __future__ import annotations

from firmware_host.controller.prompts import Waiting
from game.board import Color

ACTIONS = ("acknowledge", "correct", "accept", "time_penalty")
"""acknowledge a flag; correct the illegal play (it must be corrected); accept it (the traditional
rule); a time penalty off a player's reserve."""


def refusal(action: str, *, flag: int | None, player: Color | None, seconds: float, flags: int,
            waiting: Waiting, timed: bool, over: bool, in_reach: bool = True) -> str | None:
    """Why `action` does not apply now (None: it does). `in_reach`: the board's links are up (a
    play is neither corrected nor accepted while the table cannot see the board).

    >>> refusal("accept", flag=1, player=None, seconds=0, flags=1, waiting=Waiting.CORRECT, timed=True, over=False)
    'accept applies only to an illegal play the traditional rule lets the opponent accept'
    """
    if flag is not None and not 1 <= flag <= flags:
        return f"there is no flag {flag} (flags: {flags})"
    if action == "acknowledge":
        return None if flag is not None else "acknowledge needs a flag number"
    if action in ("correct", "accept") and not in_reach:
        return "the board is out of reach (a link is down): rule again when it is back"
    if action == "correct":
        return None if waiting in (Waiting.ACCEPT_ILLEGAL, Waiting.CORRECT) else "no illegal play is waiting"
    if action == "accept":
        return None if waiting is Waiting.ACCEPT_ILLEGAL else \
            "accept applies only to an illegal play the traditional rule lets the opponent accept"
    if action == "time_penalty":
        if not timed or over or player is None or not seconds > 0:
            return "a time penalty needs a running match with a clock, a player and seconds > 0"
        return None
    return f"unknown action {action!r} (one of {', '.join(ACTIONS)})"
