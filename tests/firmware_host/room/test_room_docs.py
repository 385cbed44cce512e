"""hardware_docs/room.md, checked against the code: every example payload decodes and
re-encodes to the same bytes, the sizes and bytes quoted are right, the topics are the code's."""

from __future__ import annotations

import json
import re

import pytest
from repo import ROOT

from firmware_host.errors import MessageRejected
from firmware_host.room.chouette_room import REASONS, phone_code
from firmware_host.room.messages import (
    MAX_PAYLOAD,
    decode_ack,
    decode_decided,
    decode_decision,
    decode_event,
    decode_reply,
    decode_ruling,
    decode_state,
    decode_status,
    encode_state,
    phone_verifier,
)
from firmware_host.room.mosquitto import ROOM_ACL, ROOM_SETTINGS
from firmware_host.room.topics import TableChannel, Topics

pytestmark = pytest.mark.room

DOC = (ROOT / "hardware_docs" / "room.md").read_text(encoding="utf-8")


def block(kind: str) -> str:
    [text] = re.findall(rf"```{kind}\n(.*?)```", DOC, re.S)
    return str(text)


def test_the_event_example_is_byte_for_byte_what_the_code_writes() -> None:
    payload = block("event").rstrip("\n").encode("utf-8")
    message = decode_event(payload, "t01")
    assert message.encode() == payload
    header, line = payload.split(b"\n")
    sizes = re.search(r"(\d+) bytes \(header (\d+) bytes, LF, line (\d+) bytes\)", DOC)
    assert sizes is not None and tuple(map(int, sizes.groups())) == (len(payload), len(header), len(line))
    quoted = re.search(r"Its first bytes: `([0-9a-f ]+)`", DOC)
    assert quoted is not None and bytes.fromhex(quoted[1]) == payload[:len(bytes.fromhex(quoted[1]))]
    assert (message.seq, message.match, message.hash[:16]) == (1, message.hash[:16], message.match)
    assert str(MAX_PAYLOAD) in DOC


def test_every_other_example_decodes_and_reencodes() -> None:
    state = json.loads(block("state"))
    assert decode_state(encode_state({k: v for k, v in state.items() if k != "v"}), "t01") == state
    for kind, decode in (("ack", decode_ack), ("ruling", decode_ruling), ("reply", decode_reply),
                         ("decision", decode_decision), ("decided", decode_decided)):
        text = block(kind).strip().encode()
        assert decode(text).encode() == text
    assert decode_status(block("status").strip().encode())["online"] is True
    with pytest.raises(MessageRejected, match="table-id"):
        decode_state(encode_state({k: v for k, v in state.items() if k != "v"}), "t02")


def test_the_topic_table_is_the_codes() -> None:
    documented = re.findall(r"^\| `(smartgammon/v1/[^`]+)` \|", DOC, re.M)
    topics = Topics("VENUE")
    channels: tuple[TableChannel, ...] = ("event", "state", "status", "reply", "decided", "ack", "ruling", "decision")
    assert documented == [topics.table("TABLE", c) for c in channels] + [topics.director_status]
    assert f"`{topics.everything}`" in DOC
    for reason in ("topic", "payload", "schema", "table-id", "hash", "chain", "conflict", "match-id", "too-large",
                   "unexpected", *REASONS):
        assert f"| `{reason}` |" in DOC


def test_the_chouette_examples_are_the_codes() -> None:
    """The `chouette` field fits a state; its verifiers are those of the codes quoted; the decision's
    size and first bytes are right."""
    state = {k: v for k, v in json.loads(block("state")).items() if k != "v"}
    chouette = json.loads(block("chouette"))
    assert decode_state(encode_state({**state, "chouette": chouette}), "t01")["chouette"] == chouette
    match = chouette["asked"]["ask"][:16]
    assert f"match `{match}`" in DOC and f"Bob's code `{phone_code(bytes(32), match, 'Bob')}`" in DOC
    assert f"Ann {phone_code(bytes(32), match, 'Ann')}" in DOC
    for name, verifier in chouette["phones"].items():
        assert phone_verifier("t01", match, name, phone_code(bytes(32), match, name)) == verifier
    decision = block("decision").strip().encode()
    assert f"{len(decision)} bytes; its first bytes `7b 22 76 22 3a 31 2c 22 69 64 22 3a`" in DOC
    assert decision.startswith(bytes.fromhex("7b 22 76 22 3a 31 2c 22 69 64 22 3a"))


def test_the_documented_acl_and_settings_are_the_ones_room_demo_runs() -> None:
    assert block("acl") == ROOM_ACL
    settings = [line.split("#")[0].strip() for line in block("mosquitto").splitlines()]
    assert all(line in settings for line in ROOM_SETTINGS) and "allow_anonymous false" in settings
