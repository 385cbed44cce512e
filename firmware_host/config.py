"""`python -m firmware_host run --config FILE`: a table of real hardware, from a TOML file.

hardware_docs/example-config.toml documents every key; only [board] port is required. With a
[broker] section the table also publishes to the tournament room (hardware_docs/room.md).
"""

from __future__ import annotations

import logging
import queue
import sys
import time
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drivers.clock import SYSTEM_CLOCK
from drivers.events import ButtonKind, Player
from drivers.pinmap import DEFAULT_BUTTON_PINS, DEFAULT_CUBE_PINS, CubePins
from firmware_host.controller import Controller, Profile, Settings
from firmware_host.journal import Journal
from firmware_host.table import Table
from firmware_host.terminal import CLEAR, render
from game.board import Variant
from game.match import NO_OPTIONS, MatchOptions

if TYPE_CHECKING:
    from firmware_host.room.broker import BrokerConfig


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class HardwareConfig:
    board_port: str
    dice: str
    pin_factory: str
    button_pins: dict[tuple[Player, ButtonKind], int]
    cube_pins: CubePins
    settings: Settings
    record: Path
    broker: BrokerConfig | None = None


def load_config(path: str | Path) -> HardwareConfig:
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {path} is not valid TOML: {exc}") from None
    try:
        return _parse(raw)
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"config {path}: {exc}") from None


def _table(raw: dict[str, Any], name: str) -> dict[str, Any]:
    value = raw.get(name, {})
    if not isinstance(value, dict):
        raise TypeError(f"[{name}] must be a table")
    return value


def _parse(raw: dict[str, Any]) -> HardwareConfig:
    known = {"board", "dice", "gpio", "match", "clock", "record", "broker"}
    if set(raw) - known:
        raise KeyError(f"unknown sections {sorted(set(raw) - known)}")
    board, dice, gpio = _table(raw, "board"), _table(raw, "dice"), _table(raw, "gpio")
    match, clock, record = _table(raw, "match"), _table(raw, "clock"), _table(raw, "record")
    if "port" not in board:
        raise KeyError("[board] port is required (e.g. \"/dev/ttyACM0\")")
    buttons = dict(DEFAULT_BUTTON_PINS)
    for key, pin in _table(gpio, "buttons").items():
        player, _, kind = key.partition("_")
        if player not in ("white", "black") or kind not in {k.value for k in ButtonKind}:
            raise KeyError(f"[gpio.buttons] key {key!r} is not PLAYER_BUTTON like white_done")
        buttons[player, ButtonKind(kind)] = int(pin)  # type: ignore[index]
    cube: dict[str, Any] = {f.name: getattr(DEFAULT_CUBE_PINS, f.name) for f in fields(CubePins)}
    for key, pin in _table(gpio, "cube").items():
        if key not in cube:
            raise KeyError(f"[gpio.cube] key {key!r} is not one of {sorted(cube)}")
        cube[key] = tuple(pin) if isinstance(pin, list) else int(pin)
    length = int(match.get("length", 7))
    options = NO_OPTIONS if length else MatchOptions(
        jacoby=bool(match.get("jacoby", False)), beavers=bool(match.get("beavers", False)),
        automatic_doubles=bool(match.get("automatic_doubles", False)), max_cube=match.get("max_cube"))
    players = match.get("players", ["White", "Black"])
    settings = Settings(
        variant=Variant(match.get("variant", "backgammon")), length=length or None, options=options,
        players=(str(players[0]), str(players[1])), profile=Profile(match.get("profile", "tournament")),
        settle_seconds=float(board.get("settle_seconds", 0.3)), clock=bool(clock.get("enabled", True)),
        clock_delay=float(clock.get("delay", 12.0)),
        reserve_per_point=float(clock.get("reserve_per_point", 120.0)))
    broker = None
    if "broker" in raw:
        from firmware_host.room.broker import BrokerConfig

        broker = BrokerConfig.from_table(_table(raw, "broker"))
    return HardwareConfig(str(board["port"]), str(dice.get("source", "board")), str(gpio.get("pin_factory", "default")),
                          buttons, CubePins(**cube), settings, Path(record.get("dir", "records/table")), broker)


def run_hardware(config: HardwareConfig, *, quiet: bool = False, max_seconds: float | None = None) -> int:
    """Play a match at a real table until it is over (or Ctrl-C); the journal resumes it."""
    pin_factory = None
    if config.pin_factory == "mock":
        from gpiozero.pins.mock import MockFactory

        pin_factory = MockFactory()
    logging.basicConfig(level=logging.INFO if quiet else logging.WARNING, format="%(asctime)s %(message)s")
    journal = Journal(config.record)
    table = Table.open(config.board_port, dice=config.dice, pin_factory=pin_factory, clock=SYSTEM_CLOCK,
                       button_pins=config.button_pins, cube_pins=config.cube_pins)
    controller = Controller(config.settings, journal, display=table.display, zone_leds=table.board.light_zones)
    link = None
    if config.broker is not None:
        from firmware_host.room.table_link import connect_table

        link = connect_table(controller, config.broker)  # publishing never blocks this loop
    table.start()
    started = SYSTEM_CLOCK.now()
    next_frame = 0.0
    try:
        while not controller.match.is_over:
            now = SYSTEM_CLOCK.now()
            if max_seconds is not None and now - started > max_seconds:
                break
            try:
                events = [table.events.get(timeout=0.05), *table.drain()]
            except queue.Empty:
                events = []
            for event in events:
                try:
                    controller.handle(event)
                except Exception as exc:  # noqa: BLE001  (a table must keep running; the fault is logged)
                    controller.log.append(f"error handling {type(event).__name__}: {exc!r}")
                    logging.exception("error handling an event")
            controller.tick(SYSTEM_CLOCK.now())
            if link is not None:
                link.poll(SYSTEM_CLOCK.now())
            if not quiet and time.monotonic() >= next_frame:
                sys.stdout.write(CLEAR + render(controller, SYSTEM_CLOCK.now()) + "\n")
                sys.stdout.flush()
                next_frame = time.monotonic() + 0.5
    except KeyboardInterrupt:
        print(f"\nstopped; run again with the same config to resume from {journal.path}")
        return 130
    finally:
        if link is not None:
            link.close()
        table.close()
        journal.close()
    if controller.match.is_over and controller.match.variant is Variant.BACKGAMMON:
        from game.mat import export_mat

        (config.record / "match.mat").write_text(export_mat(controller.match), encoding="utf-8")
    return 0 if controller.match.is_over else 1
