"""The board controller, the board emulator and the services around a table.

`Controller` turns driver events into a refereed match (or chouette: `ChouetteSettings`);
`Table` opens the hardware; `EmulatedTable` is the whole table with no hardware (the embedded default).
Sub-packages, one idea each: `controller/` (the controller and its parts), `record/` (journal,
signing, what is written at a match's end), `emulator/` (the board with no hardware and the
simulated people), `room/` (the tournament room: tables on a broker, the director).
"""

from firmware_host.controller import Controller
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import ChouetteSettings, Profile, Settings
from firmware_host.table import Table

__all__ = ["ChouetteSettings", "Controller", "EmulatedTable", "Profile", "Settings", "Table"]
