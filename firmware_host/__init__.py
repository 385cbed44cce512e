"""The board controller, the board emulator and the simulated players.

`Controller` turns driver events into a refereed match; `Table` opens the hardware;
`EmulatedTable` is the whole table with no hardware (the embedded default).
"""

from firmware_host.controller import Controller
from firmware_host.settings import Profile, Settings
from firmware_host.table import Table

__all__ = ["Controller", "Profile", "Settings", "Table"]
