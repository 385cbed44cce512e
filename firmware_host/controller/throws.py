"""What a throw of the dice does at each moment: a roll, the opening roll (one die a player), the
contest's own throws (a chouette's throws for the order), and the flags of a die thrown too early
or landed cocked (hardware_docs/referee.md). Whether a die's report makes a throw is the
`DiceCollector`'s (firmware_host/controller/dice.py); what follows is handed back as effects
(firmware_host/controller/effects.py) for the controller to apply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from drivers.events import DieState
from firmware_host.controller.dice import Cocked, DiceCollector, EarlyRoll, Thrown, opening_dice
from firmware_host.controller.effects import Act, Effects, Flash, Publish, RaiseFlag, Republish, Restate, Show
from firmware_host.controller.prompts import THROWS, Prompt, Waiting
from firmware_host.controller.session import Session
from game.board import Color
from game.codes import Code, FlagKind
from game.plays import format_roll


class Throws:
    """The dice of the table playing `session`; `own` are the contest's own throws (by what the
    table waits for: the cube dialogue's `throws()`); `rethrow_cocked` has both dice thrown again
    when one lands cocked (else it is laid flat)."""

    def __init__(self, session: Session, own: Mapping[Waiting, Callable[[int, int], Effects]], *,
                 rethrow_cocked: bool) -> None:
        self.session = session
        self.dice = DiceCollector(rethrow_cocked=rethrow_cocked)
        self.own = own

    def expect(self) -> None:
        """A new moment: the next throw starts afresh (`DiceCollector.expect`)."""
        self.dice.expect()

    def opening(self) -> Effects:
        """The opening roll is next: each player throws one die (the faces landed so far shown)."""
        code, message = opening_dice(self.dice) or ("", "each player throws one die: White's has the lower id")
        return [Publish(Waiting.OPENING_ROLL, code=code, message=message)]

    def report(self, state: DieState, prompt: Prompt) -> Effects:
        """A die's report while the table waits as `prompt` says."""
        waiting, played = prompt.waiting, self.session
        outcome = self.dice.report(state, throw_expected=waiting in THROWS,
                                   moving=waiting in (Waiting.PLAY, Waiting.CORRECT))
        if isinstance(outcome, EarlyRoll):
            roller = (prompt.player or Color.WHITE).opponent
            return [RaiseFlag(FlagKind.EARLY_ROLL, roller, f"{roller.value} rolled before the opponent pressed done: "
                              "the roll does not count", Code.EARLY_ROLL, played.position)]
        if isinstance(outcome, Cocked):
            flag = RaiseFlag(FlagKind.COCKED, prompt.player,
                             "a cocked die" + (": roll both dice again" if outcome.rethrow else ": lay it flat"),
                             Code.COCKED_DIE, None)
            # the new prompt first: it would take the display from the flag's code
            return [Republish("cocked die: roll both dice again"), flag] if outcome.rethrow else [flag]
        if not isinstance(outcome, Thrown):
            if waiting in (Waiting.OPENING_ROLL, Waiting.SEATING):
                return self.landing(restate=waiting is Waiting.OPENING_ROLL)
            return []
        first, second = outcome.faces
        own = self.own.get(waiting)
        if own is not None:
            return own(first, second)
        if waiting is Waiting.OPENING_ROLL:  # one die a player: faces, not a roll
            def again() -> Effects:
                if played.dice is None and not played.is_over:
                    return [Republish(f"equal dice {format_roll((first, second))}: roll again")]
                return []

            # White's die on the left, Black's on the right, for a moment
            return [Act(lambda: played.opening_roll(first, second), then=again), Flash(f"{first}{second}")]
        return [Act(lambda: played.roll(first, second))]

    def landing(self, *, restate: bool) -> Effects:
        """While each player throws a die: whose die is whose, and each face as it lands."""
        shown = opening_dice(self.dice)
        if shown is None:
            return []
        code, message = shown
        return [Show(code), Restate(message)] if restate else [Show(code)]
