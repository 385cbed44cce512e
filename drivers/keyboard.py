"""The players' buttons, and the roll button, from a terminal's keys: for a first board that has no
buttons yet, a test rig that must press them, or a table run over SSH.

`KeyboardButtons` reads the keys from a file descriptor it is given (the terminal's, a pty's or a
pipe's): each key of its map enqueues the `ButtonPressed` a GPIO button would, and the roll key
throws the host's virtual dice (`VirtualDice`) as the roll button does. A terminal is put in
cbreak mode without echo while it reads (Ctrl-C still stops the table) and restored on `close`.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import termios
import threading
import tty
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Self

from drivers.buttons import VirtualDice
from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.errors import DriverConfigError
from drivers.events import ButtonKind, ButtonPressed, EventQueue, Player

KEYMAP: Mapping[str, tuple[Player, ButtonKind]] = MappingProxyType({
    "a": ("white", ButtonKind.DONE), "s": ("white", ButtonKind.DOUBLE),
    "d": ("white", ButtonKind.TAKE), "f": ("white", ButtonKind.PASS),
    "j": ("black", ButtonKind.DONE), "k": ("black", ButtonKind.DOUBLE),
    "l": ("black", ButtonKind.TAKE), ";": ("black", ButtonKind.PASS),
})
"""White's buttons under the left hand's home keys, Black's under the right's."""
ROLL_KEY = " "
"""The roll button (a board without electronic dice): the space bar."""


def describe_keys(keymap: Mapping[str, tuple[Player, ButtonKind]] = KEYMAP, roll: bool = False) -> str:
    """The key map in one line, for the live view: "keys: white a done s double ... | space roll"."""
    parts = []
    for player in ("white", "black"):
        parts.append(f"{player} " + " ".join(f"{key} {kind.value}" for key, (who, kind) in keymap.items()
                                             if who == player))
    if roll:
        parts.append("space roll")
    return "keys: " + " | ".join(parts)


class KeyboardButtons:
    """Each player's buttons (and with `dice`, the roll button) as keys read from `fd`."""

    def __init__(self, fd: int, *, events: EventQueue | None = None, clock: Clock = SYSTEM_CLOCK,
                 keymap: Mapping[str, tuple[Player, ButtonKind]] = KEYMAP, dice: VirtualDice | None = None,
                 source: str = "keyboard") -> None:
        if ROLL_KEY in keymap or any(len(key) != 1 for key in keymap):
            raise DriverConfigError(f"a key map is single keys, the space bar kept for the roll: {sorted(keymap)}")
        self.events: EventQueue = events if events is not None else queue.SimpleQueue()
        self.source = source
        self.keymap = keymap
        self.dice = dice
        self._fd = fd
        self._clock = clock
        self._saved: list[Any] | None = None
        if os.isatty(fd):  # keys as they are typed, not echoed over the live view
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd, termios.TCSANOW)
            attributes = termios.tcgetattr(fd)
            attributes[3] &= ~termios.ECHO
            termios.tcsetattr(fd, termios.TCSANOW, attributes)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def describe(self) -> str:
        """The key map in one line, as the live view shows it."""
        return describe_keys(self.keymap, roll=self.dice is not None)

    def feed(self, data: bytes) -> int:
        """Keys as typed: each one mapped becomes a press (or a roll); the others are ignored.
        Returns how many were taken."""
        taken = 0
        for key in data.decode("utf-8", errors="ignore"):
            if key == ROLL_KEY and self.dice is not None:
                self.dice.roll()
            elif key.lower() in self.keymap:
                player, kind = self.keymap[key.lower()]
                self.events.put(ButtonPressed(source=self.source, timestamp=self._clock.now(), player=player,
                                              button=kind))
            else:
                continue
            taken += 1
        return taken

    def start(self) -> None:
        """Read the keys in a daemon thread until `close()`."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"keys {self.source}", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self._fd], [], [], 0.05)
                data = os.read(self._fd, 64) if ready else b""
            except OSError:
                return  # the terminal went away: no more keys
            if ready and not data:
                return  # end of input (a pipe closed)
            self.feed(data)

    def close(self) -> None:
        """Stop reading and give the terminal back as it was."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        if self._saved is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
