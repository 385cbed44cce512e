"""What a chouette waits for: whose action, about whose cube, and which session methods may run.

The table reads it to show whose decision is asked (a member's code on the cube display) and
to map the side's buttons to a method; the simulated players read it to choose an action.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .options import PARTNER_PLAYERS, Side

if TYPE_CHECKING:
    from .state import SessionState

_ANSWERS = {Side.TEAM: {"take": "take", "pass": "pass_", "beaver": "beaver"},
            Side.BOX: {"take": "box_take", "pass": "box_pass", "beaver": "box_beaver"}}


class Phase(enum.Enum):
    """What a chouette session waits for."""

    SEATING = "seating"  # the players throw for the order
    OPENING = "opening"  # between games: joining, leaving, a partner; then the opening roll
    ROLL = "roll"  # the side on roll may turn cubes, or roll
    DOUBLED = "doubled"  # turned cubes wait for their answers
    MOVE = "move"  # the dice are rolled: the side on roll plays
    OVER = "over"  # the session has stopped


@dataclass(frozen=True, slots=True)
class Awaiting:
    """The next action: `actions` are names of `ChouetteSession` methods that may be called now.

    `player` is the one person whose action is awaited (None when several may act, as in the
    throws for the order, or nobody). `member` is the member whose cube a decision is about.
    `doublers` are the members whose cubes the side on roll may still turn, in team order;
    `throwers` the players still to throw for the order.
    """

    phase: Phase
    side: Side | None = None
    player: str | None = None
    member: str | None = None
    actions: tuple[str, ...] = ()
    doublers: tuple[str, ...] = ()
    throwers: tuple[str, ...] = ()

    def describe(self) -> str:
        """In words, for messages: "the box to take, pass or beaver Bob's cube"."""
        if self.phase is Phase.SEATING:
            return f"waiting for the throws of {', '.join(self.throwers)}"
        if self.phase is Phase.OPENING:
            return "between games: waiting for the opening roll"
        if self.phase is Phase.OVER:
            return "nothing: the session is over"
        who = f"the {self.side.value} ({self.player})" if self.side and self.player else "the table"
        if self.phase is Phase.MOVE:
            return f"{who} to play"
        if self.member is not None:
            verbs = [a.removeprefix("box_").rstrip("_") for a in self.actions if "double" not in a]
            text = f"{who} to {', '.join(verbs)} on {self.member}'s cube"
        else:
            text = f"{who} to roll"
        if self.doublers:
            text += f" (cubes that may still be turned: {', '.join(self.doublers)})"
        return text


def awaiting(session: SessionState) -> Awaiting:
    """What `session` waits for now."""
    phase = session.phase
    if phase is Phase.SEATING:
        return Awaiting(phase, actions=("throw",), throwers=session.seating.pending)
    if phase is Phase.OVER:
        return Awaiting(phase)
    if phase is Phase.OPENING:
        actions = ["opening_roll"]
        if session.stakes is None:
            actions += ["join", "leave", "stop"]
            roster = session.roster
            if (session.options.box_partner and roster.partner is None
                    and len(roster.players) >= PARTNER_PLAYERS):
                actions.append("take_partner")
        return Awaiting(phase, actions=tuple(actions))
    side = session.on_roll
    assert side is not None and session.stakes is not None
    roller = session.roller()
    if phase is Phase.MOVE:
        return Awaiting(phase, side, roller, actions=("play", "accept_illegal_play"))
    doublers = tuple(m for m in session.stakes.order if session.may_double(side, m))
    turn = ("double" if side is Side.TEAM else "box_double",) if doublers else ()
    decision = session.stakes.decision()
    if decision is None:  # the side on roll rolls, or turns cubes first
        back = ("takeback",) if session.can_take_back else ()
        return Awaiting(phase, side, roller, actions=("roll", *turn, *back), doublers=doublers)
    answers = tuple(_ANSWERS[decision.side][verb] for verb in decision.verbs)
    player = session.box if decision.side is Side.BOX else (
        session.captain if session.options.team_cube else decision.member)
    return Awaiting(phase, decision.side, player, decision.member, answers + turn, doublers)
