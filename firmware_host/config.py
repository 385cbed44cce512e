"""A table's configuration, read from a TOML file (`python -m firmware_host run --config FILE`).

hardware_docs/example-config.toml documents every key; only [board] port is required.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from drivers.events import ButtonKind, Player
from drivers.pinmap import DEFAULT_BUTTON_PINS, DEFAULT_CUBE_PINS, CubePins
from firmware_host.errors import ConfigError
from firmware_host.settings import Profile, Settings
from game.board import Variant
from game.match import NO_OPTIONS, MatchOptions


@dataclass(frozen=True)
class HardwareConfig:
    """Everything a real table needs: its ports, pins, match settings and record directory."""

    board_port: str
    dice: str
    pin_factory: str
    button_pins: dict[tuple[Player, ButtonKind], int]
    cube_pins: CubePins
    settings: Settings
    record: Path


def load_config(path: str | Path) -> HardwareConfig:
    """Read and check a configuration file (raises `ConfigError` naming the file and the key)."""
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
    known = {"board", "dice", "gpio", "match", "clock", "record"}
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
        settle_seconds=float(board.get("settle_seconds", 0.3)), timed=bool(clock.get("enabled", True)),
        clock_delay=float(clock.get("delay", 12.0)),
        reserve_per_point=float(clock.get("reserve_per_point", 120.0)))
    return HardwareConfig(str(board["port"]), str(dice.get("source", "board")), str(gpio.get("pin_factory", "default")),
                          buttons, CubePins(**cube), settings, Path(record.get("dir", "records/table")))
