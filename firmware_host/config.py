"""A table's configuration, read from a TOML file (`python -m firmware_host run --config FILE`).

Every key is checked against `SCHEMA`: an unknown section or key (a misspelling), a value of
the wrong type (`enabled = "no"`, `length = 2.7`), out of range (`settle_seconds = -1`, pin
999) or a pin used twice is refused with one line that names the file, the key and what is
allowed. hardware_docs/example-config.toml shows every key; only [board] port is required.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drivers.events import ButtonKind, Player
from drivers.pin_factories import factory_names
from drivers.pinmap import DEFAULT_BUTTON_PINS, DEFAULT_CUBE_PINS, ROLL_BUTTON_PIN, CubePins
from firmware_host.errors import ConfigError
from firmware_host.settings import ChouetteSettings, Profile, Settings
from game.board import Color, Variant
from game.bot.levels import DEFAULT_LEVEL, Level
from game.chouette import ChouetteOptions
from game.errors import GameError
from game.match import MatchOptions
from game.rules import RuleOptions

if TYPE_CHECKING:
    from firmware_host.room.broker import BrokerConfig

GPIO_PINS = range(0, 28)
"""BCM numbers of the Raspberry Pi's 40-pin header GPIOs."""
BUTTON_SOURCES = ("gpio", "keyboard")
"""Where the players' buttons are: on GPIO ([gpio.buttons]), or the terminal's keys."""

Check = Callable[[Any], str | None]
"""Returns why a value is refused, or None."""


@dataclass(frozen=True)
class Key:
    """One key of the schema: the type its value must have, its default and a further check."""

    kind: str
    """"str", "bool", "int", "number", "pin", "pins", "names"."""
    default: Any
    check: Check | None = None
    count: int = 0
    """How many values a list kind holds (0: any number)."""


REQUIRED = object()


def _at_least(low: float) -> Check:
    return lambda v: None if v >= low else f"must be at least {low}"


def _one_of(*choices: str) -> Check:
    return lambda v: None if v in choices else "must be one of " + ", ".join(f'"{c}"' for c in choices)


def _rule_words(v: str) -> str | None:
    try:
        RuleOptions.parse(v)
    except GameError as exc:
        return str(exc)
    return None


def _power_of_two(v: int) -> str | None:
    return None if v >= 2 and not v & (v - 1) else "must be a power of two, 2 or more"


_BUTTONS = {f"{player}_{kind.value}": Key("pin", DEFAULT_BUTTON_PINS[player, kind])
            for player in ("white", "black") for kind in ButtonKind}
_CUBE = {"segments": Key("pins", list(DEFAULT_CUBE_PINS.segments), count=7), "dp": Key("pin", DEFAULT_CUBE_PINS.dp),
         "digits": Key("pins", list(DEFAULT_CUBE_PINS.digits), count=2),
         **{name: Key("pin", getattr(DEFAULT_CUBE_PINS, name)) for name in ("centre", "white", "black", "crawford")}}

SCHEMA: dict[str, dict[str, Key]] = {
    "board": {"port": Key("str", REQUIRED), "settle_seconds": Key("number", 0.3, _at_least(0)),
              "reply_seconds": Key("number", 1.0, _at_least(0.1))},
    "dice": {"source": Key("str", "board")},
    "buttons": {"source": Key("str", "gpio", _one_of(*BUTTON_SOURCES))},
    "gpio": {"pin_factory": Key("str", "default", lambda v: _one_of(*factory_names())(v))},
    "gpio.buttons": _BUTTONS,
    "gpio.cube": _CUBE,
    "match": {"variant": Key("str", "backgammon", _one_of(*(v.value for v in Variant))),
              "length": Key("int", 7, _at_least(0)), "players": Key("names", ["White", "Black"], count=2),
              "profile": Key("str", "tournament", _one_of(*(p.value for p in Profile))),
              "jacoby": Key("bool", False), "beavers": Key("bool", False), "automatic_doubles": Key("bool", False),
              "max_cube": Key("int", None, _power_of_two), "rules": Key("str", "standard", _rule_words)},
    "players": {"white": Key("str", "person", _one_of("person", "bot")),
                "black": Key("str", "person", _one_of("person", "bot")),
                "level": Key("str", DEFAULT_LEVEL.value, _one_of(*(level.value for level in Level)))},
    "chouette": {"players": Key("names", []), "games": Key("int", 0, _at_least(0)), "bots": Key("names", []),
                 **{name: Key("bool", False) for name in ChouetteOptions().to_document() if name != "box_partner"}},
    "clock": {"enabled": Key("bool", True), "delay": Key("number", 12.0, _at_least(0)),
              "reserve_per_point": Key("number", 120.0, _at_least(1))},
    "record": {"dir": Key("str", "records/table"), "key": Key("str", ""), "analyse": Key("bool", True)},
    "broker": {"url": Key("str", None), "table": Key("str", None), "venue": Key("str", None),
               "username": Key("str", None), "password": Key("str", None), "ca_file": Key("str", None),
               "cert_file": Key("str", None), "key_file": Key("str", None),
               "keepalive": Key("int", None, _at_least(1)), "director_key": Key("str", None),
               "insecure_anonymous": Key("bool", None)},
}
"""[players] white or black = "bot" seats a bot on that side, at [players] level (firmware_host/controller/bot_seat.py);
[chouette] players (optional) makes the table a chouette's (firmware_host/controller/cube/chouette.py), and
[chouette] bots names those of its players that are bots, at [players] level;
[broker] (optional) puts the table in the tournament room (hardware_docs/room.md)."""


@dataclass(frozen=True)
class HardwareConfig:
    """Everything a real table needs: its ports, pins, match settings and record directory."""

    board_port: str
    dice: str
    pin_factory: str
    """gpiozero's name of the pin factory ("default": gpiozero chooses; `drivers.pin_factories`)."""
    button_pins: dict[tuple[Player, ButtonKind], int]
    cube_pins: CubePins
    settings: Settings
    record: Path
    key_path: Path | None = None
    """The table's signing key (None: `firmware_host.record.signing.default_key_path()`)."""
    broker: BrokerConfig | None = None
    """The room's broker, when the table publishes to one."""
    buttons: str = "gpio"
    """Where the players' buttons (and a roll button) are: "gpio" or "keyboard" (the terminal's keys)."""
    reply_seconds: float = 1.0
    """How long the host waits for the board's answer (HELLO, an ACK) before it counts it missing."""


def load_config(path: str | Path) -> HardwareConfig:
    """Read and check a configuration file (raises `ConfigError` naming the file and the key)."""
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config {path} is not a text file (UTF-8 TOML)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {path} is not valid TOML: {exc}") from None
    try:
        return _build(checked(raw))
    except ConfigError as exc:
        raise ConfigError(f"config {path}: {exc}") from None


def checked(raw: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every section of the schema with every key, from `raw` or by default; raises `ConfigError`."""
    sections = _sections(raw)
    unknown = set(sections) - set(SCHEMA)
    if unknown:
        name = sorted(unknown)[0]
        raise ConfigError(f"[{name}] is not a section{_did_you_mean(name, SCHEMA)} "
                          f"(sections: {', '.join(SCHEMA)})")
    values: dict[str, dict[str, Any]] = {}
    for section, keys in SCHEMA.items():
        given = sections.get(section, {})
        for name in given:
            if name not in keys:
                raise ConfigError(f"[{section}] {name} is not a key{_did_you_mean(name, keys)} "
                                  f"(keys: {', '.join(keys)})")
        values[section] = {}
        for name, key in keys.items():
            if name not in given:
                if key.default is REQUIRED:
                    raise ConfigError(f"[{section}] {name} is required")
                values[section][name] = key.default
                continue
            why = _why_refused(key, given[name])
            if why:
                raise ConfigError(f"[{section}] {name} = {_show(given[name])}: {why}")
            values[section][name] = given[name]
    _check_pins(values)
    return values


def _sections(raw: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Sections by dotted name ("gpio.buttons"), each a table of keys."""
    out: dict[str, dict[str, Any]] = {}
    for name, table in raw.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{name} = {_show(table)} is outside any section: put it under a [section]")
        plain = {k: v for k, v in table.items() if not (isinstance(v, dict) and f"{name}.{k}" in SCHEMA)}
        out[name] = plain
        for k, v in table.items():
            if isinstance(v, dict) and f"{name}.{k}" in SCHEMA:
                out[f"{name}.{k}"] = v
    return out


def _why_refused(key: Key, value: Any) -> str | None:
    kind = key.kind
    if kind == "str" and not isinstance(value, str):
        return "must be a string in quotes"
    if kind == "bool" and not isinstance(value, bool):
        return "must be true or false"
    if kind in ("int", "pin") and (not isinstance(value, int) or isinstance(value, bool)):
        return "must be a whole number"
    if kind == "number" and (not isinstance(value, int | float) or isinstance(value, bool)):
        return "must be a number"
    if kind == "pin" and value not in GPIO_PINS:
        return f"is not a GPIO pin (BCM {GPIO_PINS.start}-{GPIO_PINS.stop - 1})"
    if kind in ("pins", "names"):
        if not isinstance(value, list) or (key.count and len(value) != key.count):
            what = "pins" if kind == "pins" else "names"
            return f"must be a list of {key.count} {what}" if key.count else f"must be a list of {what}"
        for item in value:
            why = _why_refused(Key("pin" if kind == "pins" else "str", None), item)
            if why:
                return f"{_show(item)} {why}"
        if kind == "names" and not all(name.strip() for name in value):
            return "names must not be empty"
    return key.check(value) if key.check is not None and value is not None else None


def _check_pins(values: Mapping[str, Mapping[str, Any]]) -> None:
    used: dict[int, str] = {}
    on_gpio = values["buttons"]["source"] == "gpio"  # keys instead: [gpio.buttons] and the roll pin are not used
    if on_gpio and values["dice"]["source"] == "roll button":
        used[ROLL_BUTTON_PIN] = "the roll button"
    for section in ("gpio.buttons", "gpio.cube") if on_gpio else ("gpio.cube",):
        for name, value in values[section].items():
            for pin in value if isinstance(value, list) else [value]:
                where = f"[{section}] {name}"
                if pin in used:
                    raise ConfigError(f"{where}: pin {pin} is already {used[pin]}")
                used[pin] = where


def _build(values: Mapping[str, Mapping[str, Any]]) -> HardwareConfig:
    board, match, clock = values["board"], values["match"], values["clock"]
    length = match["length"]
    money = {"jacoby": match["jacoby"], "beavers": match["beavers"],
             "automatic_doubles": match["automatic_doubles"], "max_cube": match["max_cube"]}
    if length and money != MatchOptions().to_document():
        raise ConfigError("[match] jacoby, beavers, automatic_doubles and max_cube are for money sessions "
                          "(length = 0) only")
    rules = RuleOptions.parse(match["rules"])
    try:
        rules.check(Variant(match["variant"]))
    except GameError as exc:
        raise ConfigError(f"[match] rules: {exc}") from None
    seats = values["players"]
    chouette = _chouette(values["chouette"], Level(seats["level"]))
    if chouette is not None and rules:
        raise ConfigError("[match] rules: rule options are for a match, not a chouette")
    bots = {color: Level(seats["level"]) for color in Color if seats[color.value] == "bot"}
    if chouette is not None and bots:
        raise ConfigError("[players]: a chouette seats no bot by colour; name its bots in [chouette] bots "
                          "(e.g. bots = [\"Cy\"])")
    settings = Settings(
        variant=Variant(match["variant"]), length=length or None,
        options=MatchOptions(**money, rules=rules) if not length else MatchOptions(rules=rules),
        players=(match["players"][0], match["players"][1]), profile=Profile(match["profile"]),
        settle_seconds=float(board["settle_seconds"]), timed=clock["enabled"] and chouette is None,
        clock_delay=float(clock["delay"]), reserve_per_point=float(clock["reserve_per_point"]), chouette=chouette,
        bots=bots, analyse=values["record"]["analyse"] and chouette is None)
    buttons: dict[tuple[Player, ButtonKind], int] = {}
    for name, pin in values["gpio.buttons"].items():
        player, _, kind = name.partition("_")
        buttons["white" if player == "white" else "black", ButtonKind(kind)] = pin
    cube = dict(values["gpio.cube"])
    cube_pins = CubePins(segments=tuple(cube.pop("segments")), digits=tuple(cube.pop("digits")), **cube)
    return HardwareConfig(board["port"], values["dice"]["source"], values["gpio"]["pin_factory"], buttons,
                          cube_pins, settings, Path(values["record"]["dir"]),
                          Path(values["record"]["key"]) if values["record"]["key"] else None,
                          _broker(values["broker"]), values["buttons"]["source"], float(board["reply_seconds"]))


def _chouette(values: Mapping[str, Any], level: Level) -> ChouetteSettings | None:
    """The chouette of [chouette] (None without players: the table plays a match), its bots at `level`."""
    if not values["players"]:
        if values["bots"]:
            raise ConfigError("[chouette] bots names players of a chouette: give [chouette] players too")
        return None
    try:
        options = ChouetteOptions(**{k: v for k, v in values.items() if k not in ("players", "games", "bots")})
        return ChouetteSettings(tuple(values["players"]), options, values["games"],
                                {name: level for name in values["bots"]})
    except (ConfigError, GameError) as exc:
        raise ConfigError(f"[chouette] {exc}") from None


def _broker(values: Mapping[str, Any]) -> BrokerConfig | None:
    given = {k: v for k, v in values.items() if v is not None}
    if not given:
        return None
    if "url" not in given or "table" not in given:
        raise ConfigError('[broker] needs url and table (e.g. url = "mqtt://10.0.0.2", table = "t07")')
    from firmware_host.room.broker import BrokerConfig

    broker = BrokerConfig.from_url(given.pop("url"), **given)
    broker.require_login()
    return broker


def _did_you_mean(name: str, known: Mapping[str, Any]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _show(value: Any) -> str:
    text = repr(value) if not isinstance(value, bool) else str(value).lower()
    return text if len(text) <= 40 else text[:40] + "..."
