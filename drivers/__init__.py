"""Drivers for the board sensors, electronic dice, player buttons and the LED cube display.

Each driver takes its transport (a pyserial URL or port, a gpiozero pin factory) and touches
no hardware at import; all deliver immutable events (`drivers.events`) on one queue.
"""

from drivers.board import BoardSensor
from drivers.buttons import PlayerButtons, RollButton
from drivers.cube_display import CubeDisplay
from drivers.dice import Dice
from drivers.errors import DriverError
from drivers.link import SerialLink
from game.zones import Capability, ZoneReading

__all__ = ["BoardSensor", "Capability", "CubeDisplay", "Dice", "DriverError", "PlayerButtons", "RollButton",
           "SerialLink", "ZoneReading"]
