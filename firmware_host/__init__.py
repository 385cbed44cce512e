"""The board controller, the board emulator and the simulated players.

`Controller` turns driver events into a refereed match (or chouette: `ChouetteSettings`);
`Table` opens the hardware; `EmulatedTable` is the whole table with no hardware (the embedded default).
"""

from firmware_host.controller import Controller
from firmware_host.settings import ChouetteSettings, Profile, Settings
from firmware_host.table import Table

__all__ = ["ChouetteSettings", "Controller", "Profile", "Settings", "Table"]
