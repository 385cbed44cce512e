"""Player buttons and the roll button, on GPIO through gpiozero.

Each button closes its GPIO to ground; the Pi's internal pull-up holds it high otherwise. A
button is gpiozero's `DigitalInputDevice` (active when low), not its `Button`: nothing here is held
down for a while, and each `Button` runs a thread of its own that wakes ten times a second to
watch for a hold (nine buttons: 90 wake-ups a second taking the interpreter from the table's loop).
"""

from __future__ import annotations

import queue
import random
import secrets
from collections.abc import Callable, Mapping
from typing import Self

from gpiozero import DigitalInputDevice, Factory

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.events import ButtonKind, ButtonPressed, DieState, EventQueue, Player
from drivers.pinmap import DEFAULT_BUTTON_PINS, ROLL_BUTTON_PIN
from drivers.protocol import DieStatus

BOUNCE_TIME = 0.02
"""Seconds during which a button's contacts may bounce after a change; edges ignored."""


class PlayerButtons:
    """Each player's DONE, DOUBLE, TAKE and PASS buttons; a press enqueues `ButtonPressed`."""

    def __init__(self, pins: Mapping[tuple[Player, ButtonKind], int] = DEFAULT_BUTTON_PINS, *,
                 events: EventQueue | None = None, pin_factory: Factory | None = None,
                 clock: Clock = SYSTEM_CLOCK, bounce_time: float | None = BOUNCE_TIME,
                 source: str = "buttons") -> None:
        self.events: EventQueue = events if events is not None else queue.SimpleQueue()
        self.source = source
        self._clock = clock
        self._buttons: dict[tuple[Player, ButtonKind], DigitalInputDevice] = {}
        try:
            for (player, kind), pin in pins.items():
                button = DigitalInputDevice(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
                self._buttons[player, kind] = button
                button.when_activated = self._on_press(player, kind)
        except Exception:
            self.close()
            raise

    def _on_press(self, player: Player, kind: ButtonKind) -> Callable[[], None]:
        def pressed() -> None:
            self.events.put(ButtonPressed(source=self.source, timestamp=self._clock.now(),
                                          player=player, button=kind))
        return pressed

    def is_pressed(self, player: Player, kind: ButtonKind) -> bool:
        """Whether `player`'s `kind` button is held down now."""
        return bool(self._buttons[player, kind].is_active)

    def close(self) -> None:
        """Release every button's pin."""
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class VirtualDice:
    """Dice for a board without electronic dice: `roll()` throws two virtual dice (ids 1 and 2; at
    the opening roll die 1 is White's) with the host's random source, enqueueing a SETTLED
    `DieState` for each (battery None). The default source is `secrets.SystemRandom()`."""

    def __init__(self, *, events: EventQueue | None = None, clock: Clock = SYSTEM_CLOCK,
                 rng: random.Random | None = None, source: str = "roll button") -> None:
        self.events: EventQueue = events if events is not None else queue.SimpleQueue()
        self.source = source
        self._clock = clock
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self._throws = 0

    def roll(self) -> None:
        """Throw both dice."""
        now = self._clock.now()
        self._throws += 1
        for die_id in (1, 2):
            self.events.put(DieState(source=self.source, timestamp=now, die_id=die_id,
                                     status=DieStatus.SETTLED, face=self._rng.randint(1, 6),
                                     battery_pct=None, throw=self._throws))


class RollButton:
    """The roll button on GPIO: a press throws the host's `VirtualDice`."""

    def __init__(self, pin: int = ROLL_BUTTON_PIN, *, events: EventQueue | None = None,
                 pin_factory: Factory | None = None, clock: Clock = SYSTEM_CLOCK,
                 rng: random.Random | None = None, bounce_time: float | None = BOUNCE_TIME,
                 source: str = "roll button") -> None:
        self.dice = VirtualDice(events=events, clock=clock, rng=rng, source=source)
        self.events = self.dice.events
        self.source = source
        self._button = DigitalInputDevice(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
        self._button.when_activated = self.dice.roll

    def close(self) -> None:
        """Release the button's pin."""
        self._button.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
