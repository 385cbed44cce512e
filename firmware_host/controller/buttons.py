"""What each button does, by what the table is waiting for: one table instead of nested branches.

The buttons (done, double, take, pass) mean different things at different moments; a press
that the moment gives no meaning, or by the player who is not asked, does nothing and says so.
The whole map, as the referee document lists it (hardware_docs/referee.md):

    waiting for        done            double            take                pass
    roll or double     -               double            -                   resign (R1)
    choosing to resign offer it        -                 cancel              more (R2, R3)
    take or pass       -               beaver            take                pass
    accept or decline  -               -                 accept              decline
    play               end the turn    next look-alike   hint (casual)       -
    correct            end the turn    next look-alike   -                   -
    the bot's play     judge it now (either player)      -                   -
    accept or correct  -               -                 accept the play     have it corrected
    takeback?          -               -                 agree (either)      refuse (either)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from drivers.events import ButtonKind
from firmware_host.controller.effects import Effects
from firmware_host.controller.prompts import Waiting
from game.board import Color

Action = Callable[[Color], Effects]
"""What a press does, given who pressed: the effects for the controller to apply."""


@dataclass(frozen=True)
class ButtonMap:
    """The action of each button at each moment; `anyone` lists the moments where either player
    may press (elsewhere only the player the prompt names)."""

    actions: Mapping[Waiting, Mapping[ButtonKind, Action]]
    anyone: frozenset[Waiting] = frozenset()

    def action(self, waiting: Waiting, prompted: Color | None, player: Color, button: ButtonKind) -> Action | None:
        """The action of `player`'s press of `button` now, or None when it has none."""
        if waiting not in self.anyone and player is not prompted:
            return None
        return self.actions.get(waiting, {}).get(button)

    def refusal(self, waiting: Waiting, prompted: Color | None, player: Color, button: ButtonKind) -> str:
        """Why `player`'s press of `button` does nothing now (for the log, beside `NO` on the display)."""
        useful = sorted(b.value for b in self.actions.get(waiting, {}))
        if not useful:
            return f"no button does anything while the table waits for: {waiting.value}"
        if waiting not in self.anyone and player is not prompted:
            return f"it is {prompted.value if prompted else 'nobody'}'s to press now ({waiting.value})"
        return f"{button.value} does nothing while the table waits for: {waiting.value} ({', '.join(useful)} do)"
