"""The hardware at one table, opened from what it is given: the board's serial port, the
dice (on the board's link, their own port, or a roll button), the player buttons (on GPIO, or
a terminal's keys) and the cube display on GPIO through a pin factory. Everything reports on
one events queue.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass, field
from typing import Literal, Self

from gpiozero import Factory

from drivers.board import BoardSensor
from drivers.buttons import PlayerButtons, RollButton, VirtualDice
from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.cube_display import CubeDisplay
from drivers.dice import Dice
from drivers.errors import DriverConfigError
from drivers.events import ButtonKind, Event, EventQueue, Player
from drivers.keyboard import KeyboardButtons
from drivers.link import SerialLink
from drivers.pinmap import DEFAULT_BUTTON_PINS, DEFAULT_CUBE_PINS, ROLL_BUTTON_PIN, CubePins
from firmware_host.controller.links import Need, table_needs

DiceSource = Literal["board", "roll button"] | str
"""Where the dice report: on the board's link, a roll button (on GPIO, or the space bar), or their own serial port."""
ButtonSource = Literal["gpio", "keyboard"]
"""Where the players' buttons are: on GPIO, or a terminal's keys (`drivers.keyboard`)."""


@dataclass
class Table:
    """The drivers of one table, all reporting on one events queue."""

    events: EventQueue
    board: BoardSensor
    buttons: PlayerButtons | KeyboardButtons
    display: CubeDisplay | None
    dice: Dice | None = None
    roll_button: RollButton | None = None
    links: list[SerialLink] = field(default_factory=list)
    needs: dict[str, tuple[Need, ...]] = field(default_factory=dict)
    """What each link must announce for the table to work as opened (`firmware_host.controller.links`)."""

    @classmethod
    def open(cls, board_port: str, *, dice: DiceSource = "board", pin_factory: Factory | None = None,
             clock: Clock = SYSTEM_CLOCK, button_pins: dict[tuple[Player, ButtonKind], int] | None = None,
             cube_pins: CubePins = DEFAULT_CUBE_PINS, roll_pin: int = ROLL_BUTTON_PIN,
             bounce_time: float | None = 0.02, display: bool = True, buttons: ButtonSource = "gpio",
             keys: int | None = None, reply_timeout: float = 1.0) -> Table:
        """Open the board's link, the dice, the buttons and the display; a part that fails to open closes those
        opened before. With `buttons="keyboard"` the buttons (and a roll button) are the keys read from the
        file descriptor `keys`. `reply_timeout`: seconds to wait for a board's answer on each serial link."""
        events: EventQueue = queue.SimpleQueue()
        board_link = SerialLink(board_port, events=events, clock=clock, reply_timeout=reply_timeout)
        links = [board_link]
        if buttons == "keyboard":
            if keys is None:
                board_link.close()
                raise DriverConfigError("keyboard buttons need the terminal to read the keys from")
            rolls = VirtualDice(events=events, clock=clock, source="keyboard") if dice == "roll button" else None
            pressed: PlayerButtons | KeyboardButtons = KeyboardButtons(keys, events=events, clock=clock, dice=rolls)
        else:
            pressed = PlayerButtons(button_pins or DEFAULT_BUTTON_PINS, events=events, pin_factory=pin_factory,
                                    clock=clock, bounce_time=bounce_time)
        table = cls(events, BoardSensor(board_link), pressed, None, links=links,
                    needs=table_needs(board_link.source, dice, None if dice in ("board", "roll button") else dice))
        try:
            if display:
                table.display = CubeDisplay(cube_pins, pin_factory=pin_factory)
            if dice == "board":
                table.dice = Dice(board_link)
            elif dice == "roll button" and buttons == "keyboard":
                pass  # the space bar throws them
            elif dice == "roll button":
                table.roll_button = RollButton(roll_pin, events=events, pin_factory=pin_factory, clock=clock,
                                               bounce_time=bounce_time)
            else:
                dice_link = SerialLink(dice, events=events, clock=clock, reply_timeout=reply_timeout)
                links.append(dice_link)
                table.dice = Dice(dice_link)
        except Exception:
            table.close()
            raise
        return table

    @property
    def host_dice(self) -> VirtualDice | None:
        """The host's virtual dice, on a board without electronic dice (the roll button, or the space bar)."""
        if self.roll_button is not None:
            return self.roll_button.dice
        return self.buttons.dice if isinstance(self.buttons, KeyboardButtons) else None

    def poll(self) -> None:
        """Read what the serial links have (for a loop that drives them itself)."""
        for link in self.links:
            link.poll(0.0)

    def start(self) -> None:
        """Read the serial links (and keys) in their own threads (for real hardware)."""
        for link in self.links:
            link.start()
        if isinstance(self.buttons, KeyboardButtons):
            self.buttons.start()

    def drain(self) -> list[Event]:
        """Every event waiting on the queue, without waiting."""
        out: list[Event] = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        """Close every driver and link."""
        for closing in (self.buttons, self.display, self.roll_button):
            if closing is not None:
                closing.close()
        for link in self.links:
            link.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
