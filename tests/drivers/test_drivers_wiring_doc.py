"""hardware_docs/wiring.md shows exactly the pin map the code uses."""

from __future__ import annotations

import re

from repo import ROOT

from drivers.events import ButtonKind
from drivers.pinmap import (
    DEFAULT_BUTTON_PINS,
    DEFAULT_CUBE_PINS,
    HEADER_PIN,
    ROLL_BUTTON_PIN,
    UART_PINS,
)

DOC = ROOT / "hardware_docs" / "wiring.md"
ROW = re.compile(r"^\| ([^|]+?) \| (\d+) \| (\d+) \| (in, pull-up|out) \|", re.MULTILINE)


def code_pins() -> dict[str, tuple[int, str]]:
    cube = DEFAULT_CUBE_PINS
    pins = {f"cube segment {name}": (pin, "out") for name, pin in zip("abcdefg", cube.segments,
                                                                      strict=True)}
    pins |= {"cube decimal point": (cube.dp, "out"), "cube tens digit": (cube.digits[0], "out"),
             "cube units digit": (cube.digits[1], "out"), "cube centre LED": (cube.centre, "out"),
             "cube on White's side LED": (cube.white, "out"),
             "cube on Black's side LED": (cube.black, "out"),
             "Crawford LED": (cube.crawford, "out"),
             "roll button (boards without electronic dice)": (ROLL_BUTTON_PIN, "in, pull-up")}
    for (player, kind), pin in DEFAULT_BUTTON_PINS.items():
        pins[f"{player.capitalize()} {ButtonKind(kind).value}"] = (pin, "in, pull-up")
    return pins


def test_the_pin_table_is_the_code_pin_map() -> None:
    rows = ROW.findall(DOC.read_text())
    table = {name: (int(gpio), direction) for name, gpio, _, direction in rows}
    assert len(table) == len(rows)
    assert table == code_pins()
    assert all(HEADER_PIN[int(gpio)] == int(header) for _, gpio, header, _ in rows)


def test_the_doc_names_the_free_uart_pins() -> None:
    text = DOC.read_text()
    for gpio in UART_PINS:
        assert f"GPIO{gpio} (pin {HEADER_PIN[gpio]}" in text
