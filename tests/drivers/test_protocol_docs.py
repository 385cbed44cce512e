"""hardware_docs/protocol.md: every example frame is what the code sends and reads."""

from __future__ import annotations

import re

import pytest
from repo import ROOT

import drivers.protocol as protocol
import game.zones as zones
from drivers.protocol import FrameReader, decode_message, encode_message
from firmware_host.emulator.board import STANDARD_START

DOC = ROOT / "hardware_docs" / "protocol.md"
BLOCK = re.compile(r"```frame\nseq (\d+): (.*)\npayload:(.*)\nwire: (.*)\n```")
EXAMPLES = BLOCK.findall(DOC.read_text())
NAMES = {**vars(protocol), **vars(zones), "STANDARD_START": STANDARD_START}


def test_the_doc_has_an_example_of_every_message_type() -> None:
    assert len(EXAMPLES) == DOC.read_text().count("```frame")
    shown = {type(eval(source, NAMES)).__name__ for _, source, _, _ in EXAMPLES}
    assert shown == {"HelloRequest", "Hello", "SnapshotRequest", "Snapshot", "ZoneChange",
                     "Ping", "Pong", "SetZoneLeds", "SetStacks", "Ack", "DiceRequest", "DieReport"}


@pytest.mark.parametrize(("seq", "source", "payload", "wire"), EXAMPLES,
                         ids=[source[:40] for _, source, _, _ in EXAMPLES])
def test_doc_example_matches_the_code(seq: str, source: str, payload: str, wire: str) -> None:
    message = eval(source, NAMES)  # the doc's own text, written as drivers.protocol Python
    sent = encode_message(message, int(seq))
    assert sent.hex(" ") == wire.strip(), f"the doc should say: wire: {sent.hex(' ')}"
    [frame] = FrameReader().feed(bytes.fromhex(wire))
    assert frame.payload == bytes.fromhex(payload)
    assert decode_message(frame) == message


def test_the_doc_states_the_codes_serial_settings_and_worst_case() -> None:
    text = DOC.read_text()
    assert f"| baud rate | {protocol.BAUD_RATE} |" in text
    assert "(8N1)" in text and protocol.SERIAL_SETTINGS == "8N1"
    tall = protocol.Snapshot(0, zones.Capability.STACKS,
                             (zones.ZoneReading.of_stack("wb" * 15),) * 28)
    size = len(encode_message(tall, 0))
    assert f"**{size} bytes**" in text
    assert f"**{size * 10 / protocol.BAUD_RATE * 1000:.2f} ms**" in text


def test_the_doc_names_every_message_type_and_feature_bit() -> None:
    text = DOC.read_text()
    for kind in protocol.MsgType:
        assert f"| {kind.value:#04x} | {kind.name} |" in text
    for bit, feature in enumerate(protocol.Features):
        assert f"bit {bit} {feature.name}" in text
    for status in protocol.AckStatus:
        assert f"{status.value} {status.name}" in text


def test_the_doc_says_how_a_die_reports_at_power_up_as_the_emulator_does() -> None:
    from firmware_host.emulator.board import BoardEmulator

    [power_up] = [eval(source, NAMES) for _, source, _, _ in EXAMPLES
                  if "DieReport" in source and "throw=0" in source]
    assert BoardEmulator().dice_reports()[0] == power_up
    assert "**A die at power-up** reports REMOVED, face 0, throw count 0" in DOC.read_text()


def test_the_doc_says_whose_die_is_whose_at_the_opening_roll() -> None:
    text = DOC.read_text()
    assert "the die with the **lower id is\nWhite's**" in text


def test_the_doc_states_the_links_timings_as_the_code_has_them() -> None:
    from drivers.board import ACK_TIMEOUT
    from drivers.link import HEARTBEAT_MISSES, LATE_HEARTBEATS, STATS_INTERVAL

    text = " ".join(DOC.read_text().split())
    assert f"A board whose heartbeat is late ({LATE_HEARTBEATS:g} heartbeat periods without a valid frame)" in text
    assert f"dead after {HEARTBEAT_MISSES} heartbeat periods without a valid frame" in text
    assert f"or none within {ACK_TIMEOUT:g} s, is logged" in text
    assert f"when they change, at most every {STATS_INTERVAL:g} s" in text
