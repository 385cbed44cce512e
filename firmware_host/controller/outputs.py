"""What the table says to the people at it and to the record: the cube display, the zone LEDs,
the referee's log, the journal's time-stamped events and the flags with their pictures.

What the display and the zone LEDs show is also written, when it changes, into the log and the
journal (`display`, `zone_leds` events): what a person at the table saw, for a builder without
the live view and for a referee reading the record later. They are written once the table has
done with an event (`settle`), so what stood for a moment within one event's handling, which
nobody could see, is not."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from drivers.cube_display import CubeDisplay
from firmware_host.record.journal import Journal
from game import codes
from game.board import Color
from game.codes import FlagKind
from game.cube import Cube
from game.position import Position
from game.zones import Layout, ZoneReading, layout

_log = logging.getLogger("firmware_host.controller")

ZoneLeds = Callable[[frozenset[int]], object]


def flag_line(number: int, event: Mapping[str, Any]) -> str:
    """A journaled flag as the log and the match's summary say it: its number, where, code, kind, message."""
    return (f"FLAG {number} (game {event['game']}, move {event['move']}) {event['code']} {event['kind']}: "
            f"{event['message']}")


class Outputs:
    """The table's outputs; every write goes through here, so each has one form."""

    def __init__(self, journal: Journal, *, display: CubeDisplay | None = None, zone_leds: ZoneLeds | None = None,
                 wall_time: Callable[[], float], images: bool = True, flags: int = 0) -> None:
        self.journal = journal
        self.display = display
        self._zone_leds = zone_leds
        self._wall_time = wall_time
        self._images = images
        self.lit: frozenset[int] = frozenset()
        self._showing: tuple[str, tuple[str, ...]] | None = None
        """What the display shows: its two characters and the LEDs lit (None before the first)."""
        self.code = ""
        """The code the display shows ("": the cube)."""
        self.chouette = False
        """A chouette's table: `P1`... name the member who decides (`game.codes.describe`)."""
        self._told: tuple[tuple[str, tuple[str, ...]] | None, frozenset[int]] = (None, frozenset())
        """What the log and the journal last said the display and the zone LEDs showed."""
        self.log: deque[str] = deque(maxlen=200)
        self.flags = flags
        """Flags raised in this match so far (a resumed one keeps counting: pictures keep their numbers)."""

    def note(self, text: str) -> None:
        """A line for the referee's log (the live view and the process log)."""
        self.log.append(text)
        _log.info(text)

    def write(self, event: dict[str, Any]) -> None:
        """One event into the journal, time-stamped by the wall clock."""
        self.journal.write({**event, "t": round(self._wall_time(), 3)})

    def sign(self) -> None:
        """Sign the journal's chain up to here (the table's key; nothing for an unsigned journal)."""
        self.journal.sign(round(self._wall_time(), 3))

    def show(self, code: str, cube: Cube, crawford: bool) -> None:
        """Two characters on the cube display, or the cube itself when `code` is blank."""
        display = self.display
        if display is None:
            return
        owner = None if cube.owner is None else cube.owner.value
        # the LEDs: where the cube stands; the digits: the code, or the cube's value
        display.show(cube.value, owner, crawford, text=code)  # type: ignore[arg-type]
        self.code = code.strip()
        self._showing = ("".join(display.text), display.leds)  # read back once here, not at every settle

    def words(self) -> str:
        """What the display shows, in words (hardware_docs/referee.md)."""
        return codes.describe(self.code, chouette=self.chouette) if self.code else "the cube"

    def light(self, zones: frozenset[int]) -> None:
        """Light these zones' LEDs (where the board has them): what is wrong, or to choose."""
        if self._zone_leds is not None and zones != self.lit:
            self.lit = zones
            self._zone_leds(zones)

    def settle(self) -> None:
        """The table has done with an event: what the display and the zone LEDs now show, if it
        changed, into the log and the journal."""
        told_display, told_zones = self._told
        shown = self._showing
        if shown is not None and shown != told_display:
            text, leds = shown
            self.note(f"display: [{text}] {self.words()}; LEDs {', '.join(leds) or 'none'}")
            self.write({"type": "display", "text": text, "leds": list(leds)})
        if self._zone_leds is not None and self.lit != told_zones:
            self.note(f"zone LEDs: {', '.join(map(str, sorted(self.lit))) or 'off'}")
            self.write({"type": "zone_leds", "zones": sorted(self.lit)})
        self._told = (shown, self.lit)

    def flag(self, kind: FlagKind, *, player: Color | None, message: str, code: str, game: int, move: int,
             sensed: Sequence[ZoneReading] | None, expected: Position | None, dice: tuple[int, int] | None = None,
             board: Layout | None = None, because: str = "") -> None:
        """A referee flag: journaled with the sensed zones, the expected position (and the board
        expected, when it is not that position's) and, for a flag about the checkers, a picture
        of the one beside the other (`game.pictures.flag`); noted in the log."""
        self.flags += 1
        event: dict[str, Any] = {"type": "flag", "kind": kind, "code": code, "message": message,
                                 "player": player.value if player else None, "game": game, "move": move}
        if dice is not None:
            event["dice"] = list(dice)
        if sensed is not None:
            event["sensed"] = [r.text() for r in sensed]
        if expected is not None:
            event["expected"] = expected.to_document()
            if board is not None and board != layout(expected):
                event["expected_board"] = list(board)
            if because:
                event["expected_play"] = because
            image = self._flag_picture(event)
            if image:
                event["image"] = image
        self.write(event)
        self.note(flag_line(self.flags, event))

    def _flag_picture(self, event: dict[str, Any]) -> str | None:
        if not self._images:
            return None
        from game.pictures.flag import flag_png

        png = flag_png(event, self.flags)
        if png is None:
            return None
        name = f"flags/flag-{self.flags:04d}.png"
        path = self.journal.directory / name
        path.parent.mkdir(exist_ok=True)
        try:
            path.write_bytes(png)
        except (OSError, ValueError) as exc:
            self.note(f"could not save {path}: {exc}")
            return None
        return name
