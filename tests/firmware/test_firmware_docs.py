"""The builder's wiring table (firmware/README.md) is the firmware's own pins (firmware/src/board.h and
the ports firmware/src/hx711.c reads), so a builder who follows the page wires what the code drives."""

from __future__ import annotations

import re

from repo import ROOT

FIRMWARE = ROOT / "firmware"


def defines() -> dict[str, str]:
    text = (FIRMWARE / "src" / "board.h").read_text(encoding="utf-8")
    return dict(re.findall(r"^#define (\w+) +(\S+)", text, re.MULTILINE))


def wiring() -> dict[str, str]:
    """The README's wiring table: what -> AVR pin(s)."""
    readme = (FIRMWARE / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Wiring"):readme.index("## Build")]
    rows = re.findall(r"^\| ([^|]+?) \| [^|]+? \| ([^|]*?) \|", section, re.MULTILINE)
    return {what: pin for what, pin in rows if what not in ("what", "---")}


def test_the_single_pins_are_the_firmwares() -> None:
    pins, table = defines(), wiring()
    assert table["HX711 SCK, all 28"] == f"PB{pins['HX711_CLOCK_BIT']}"
    assert table["zone LEDs: 74HC595 data (SER)"] == f"PB{pins['LED_DATA_BIT']}"
    assert table["zone LEDs: shift clock (SRCLK)"] == f"PB{pins['LED_CLOCK_BIT']}"
    assert table["zone LEDs: latch (RCLK)"] == f"PB{pins['LED_LATCH_BIT']}"
    assert table["status LED"] == f"PB{pins['STATUS_LED_BIT']}"
    assert table["calibration button"] == f"PE{pins['CAL_BUTTON_BIT']}"


def test_the_data_lines_are_the_ports_the_firmware_reads_in_zone_order() -> None:
    source = (FIRMWARE / "src" / "hx711.c").read_text(encoding="utf-8")
    read = re.findall(r"bits\[bit\]\[(\d)\] = PIN(\w);", source)
    ports = [port for _, port in sorted(read)]
    assert ports == ["A", "C", "L", "K"]
    table = wiring()
    first_zones = {"A": "zones 1–8", "C": "zones 9–16", "L": "zones 17–24", "K": "zones 25–28"}
    for port in ports:
        pins = table[f"HX711 DOUT, {first_zones[port]}"]
        assert pins.startswith(f"P{port}0–P{port}"), (port, pins)
    assert table["HX711 DOUT, zones 25–28"] == "PK0–PK3"
