"""A chouette member's decision from a phone, part by part: the messages and their checks, the
table's rule (only the decision asked now, of that member, once), the director's check of a
member's code, and the page's endpoint (Starlette's test client); no broker."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chouette_builders import box_doubles_bob_and_cy, journal, of_type, play_first
from room_fixtures import NO_BROKER
from starlette.testclient import TestClient

from drivers.events import LinkDown
from firmware_host.controller.cube.chouette import ChouetteDialogue
from firmware_host.emulator.table import EmulatedTable
from firmware_host.errors import MessageRejected
from firmware_host.room.auth import Sessions
from firmware_host.room.chouette_room import PhoneDecisions, chouette_state, phone_code, table_key
from firmware_host.room.director import Director
from firmware_host.room.messages import (
    MAX_PAYLOAD,
    Decided,
    Decision,
    decode_decided,
    decode_decision,
    decode_state,
    encode_state,
    phone_verifier,
)
from firmware_host.room.table_link import table_state
from firmware_host.room.topics import Topics
from firmware_host.room.web import create_app
from firmware_host.settings import ChouetteSettings, Settings
from game.chouette import ChouetteSession

pytestmark = pytest.mark.room

MATCH = "6554b9c575440794"
GOOD = {"v": 1, "id": "5d1e0c3b9a7f2e48", "table": "t01", "ask": f"{MATCH}-g1-m1-answer-P1-2", "player": "Bob",
        "answer": "take"}


def payload(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc).encode()


def test_a_decision_round_trips_and_every_bad_field_is_rejected() -> None:
    decision = decode_decision(payload(GOOD))
    assert decision == Decision("5d1e0c3b9a7f2e48", "t01", f"{MATCH}-g1-m1-answer-P1-2", "Bob", "take")
    assert decode_decision(decision.encode()) == decision
    for key, bad in [("id", "has space"), ("id", ""), ("table", "t/01"), ("table", "#"), ("ask", "a b"),
                     ("ask", "x" * 81), ("player", ""), ("player", "x" * 65), ("player", 7), ("answer", "drop"),
                     ("answer", None), ("v", 2)]:
        with pytest.raises(MessageRejected) as rejected:
            decode_decision(payload({**GOOD, key: bad}))
        assert rejected.value.reason == "schema", (key, bad)
    with pytest.raises(MessageRejected) as missing:
        decode_decision(payload({k: v for k, v in GOOD.items() if k != "ask"}))
    assert missing.value.reason == "schema"
    for garbage, reason in [(b"\xff", "payload"), (b"[1]", "payload"), (b"{", "payload"),
                            (b'{"v":1,"id":NaN}', "payload"), (b" " * (MAX_PAYLOAD + 1), "too-large")]:
        with pytest.raises(MessageRejected) as caught:
            decode_decision(garbage)
        assert caught.value.reason == reason


def test_the_tables_answer_round_trips_with_or_without_a_journal_line() -> None:
    for decided in (Decided("a1", True, "applied: Bob take (P1)", 57), Decided("a1", False, "stale: no", None)):
        assert decode_decided(decided.encode()) == decided
    for bad in ({"seq": 0}, {"applied": "yes"}, {"outcome": "x" * 1001}, {"id": "a b"}):
        with pytest.raises(MessageRejected):
            decode_decided(payload({"v": 1, "id": "a1", "applied": False, "outcome": "x", "seq": None, **bad}))


def test_a_code_is_the_tables_own_and_its_verifier_is_all_that_leaves_it(tmp_path: Path) -> None:
    secret = table_key(tmp_path)
    assert (tmp_path / "phones.key").stat().st_mode & 0o777 == 0o600 and table_key(tmp_path) == secret
    ann = phone_code(secret, MATCH, "Ann")
    assert ann == phone_code(secret, MATCH, "Ann") != phone_code(secret, MATCH, "Bob")
    assert ann != phone_code(secret, "0" * 16, "Ann") != phone_code(bytes(32), MATCH, "Ann")  # per session, per table
    assert phone_verifier("t01", MATCH, "Ann", ann) == phone_verifier("t01", MATCH, "Ann", ann.lower().replace("-", ""))
    assert phone_verifier("t01", MATCH, "Ann", ann) != phone_verifier("t02", MATCH, "Ann", ann)


@pytest.fixture
def asked_of_bob(tmp_path: Path) -> Iterator[EmulatedTable]:
    """A chouette table (no broker) where Bob, P1, is asked to take or pass."""
    settings = Settings(timed=False, chouette=ChouetteSettings(("Ann", "Bob", "Cy", "Dee")))
    table = EmulatedTable(settings, tmp_path / "t01", seed=1, players=False, line_noise=0.0, flicker_rate=0.0)
    table.wait(1.0)
    box_doubles_bob_and_cy(table)
    yield table
    table.close()


def asked_now(table: EmulatedTable) -> str:
    contest = table.controller.dialogue
    assert isinstance(contest, ChouetteDialogue) and contest.asked is not None
    session = table.controller.played
    assert isinstance(session, ChouetteSession)
    state = chouette_state(session, contest, MATCH, {})
    return str(state["asked"]["ask"])


def test_the_table_applies_only_the_decision_asked_of_that_member_and_each_once(asked_of_bob: EmulatedTable) -> None:
    table, decisions = asked_of_bob, PhoneDecisions("t01", MATCH)
    controller, ask = asked_of_bob.controller, asked_now(asked_of_bob)

    def decide(id_: str, player: str, answer: str, *, ask: str = ask, at: str = "t01") -> Decided:
        return decisions.apply(controller, Decision(id_, at, ask, player, answer))

    assert decide("d1", "Bob", "take", at="t02").outcome.startswith("table-id")
    assert decide("d2", "Cy", "take").outcome.startswith("wrong-member: Cy answered Bob's decision (P1)")
    assert decide("d3", "Bob", "take", ask=ask.replace("-g1-", "-g2-")).outcome.startswith("stale")
    assert decide("d4", "Bob", "double").outcome.startswith("answer: Bob may answer take or pass now, not double")
    assert of_type(table, "decision", "take", "pass") == []  # nothing refused reached the journal
    taken = decide("d5", "Bob", "take")
    [decision] = of_type(table, "decision")
    assert taken.applied and taken.seq is not None and journal(table)[taken.seq - 1] == decision
    assert (decision["source"], decision["player"], decision["answer"], decision["id"]) == ("phone", "Bob", "take",
                                                                                             "d5")
    assert [e["member"] for e in of_type(table, "take")] == ["Bob"]
    assert decide("d5", "Bob", "take") == taken  # delivered again: the same answer, applied once
    assert decide("d6", "Bob", "take").outcome.startswith("stale")  # Bob's decision is made: Cy is asked now
    assert dict(decisions.refused) == {"table-id": 1, "wrong-member": 1, "stale": 2, "answer": 1, "duplicate": 1}
    assert decisions.applied == 1 and len(of_type(table, "take")) == 1
    refusals = [line for line in controller.log if "phone decision" in line]
    assert len(refusals) == 6 and all("\n" not in line for line in refusals)
    # while the board is out of reach, no decision is taken (as no press is), even the one asked
    controller.handle(LinkDown(source="a-cable", timestamp=table.clock.now(), reason="pulled"))
    cys = decide("d7", "Cy", "take", ask=asked_now(table))
    assert controller.outage.out and cys.outcome.startswith("out-of-reach") and not cys.applied
    assert len(of_type(table, "take")) == 1


def test_a_member_may_let_their_cube_be_or_turn_it_from_the_phone(asked_of_bob: EmulatedTable) -> None:
    table, decisions = asked_of_bob, PhoneDecisions("t01", MATCH)
    controller = table.controller
    for member in ("Bob", "Cy"):
        assert decisions.apply(controller, Decision(f"take-{member}", "t01", asked_now(table), member, "take")).applied
    table.emulator.roll(3, 1)  # the box rolls and plays; then the team is asked about its cubes
    table.wait(0.6)
    play_first(table)
    contest = controller.dialogue
    assert isinstance(contest, ChouetteDialogue) and contest.asked is not None
    assert (contest.asked.kind, contest.asked.player, contest.asked.answers) == ("turn", "Bob", ("double", "pass"))
    assert decisions.apply(controller, Decision("let", "t01", asked_now(table), "Bob", "pass")).applied
    assert (contest.asked.kind, contest.asked.player) == ("turn", "Cy")  # Bob's cube is let be; Cy's turn
    assert decisions.apply(controller, Decision("redouble", "t01", asked_now(table), "Cy", "double")).applied
    assert (contest.asked.kind, contest.asked.player) == ("turn", "Dee")
    assert decisions.apply(controller, Decision("let-dee", "t01", asked_now(table), "Dee", "pass")).applied
    assert (contest.asked.side.value, contest.asked.kind, contest.asked.member) == ("box", "answer", "Cy")
    assert decisions.apply(controller, Decision("box", "t01", asked_now(table), "Ann", "take")).outcome.startswith(
        "stale")  # the box's decision is its buttons', never a phone's
    turned = [(d["player"], d["kind"], d["answer"]) for d in of_type(table, "decision")][2:]
    assert turned == [("Bob", "turn", "pass"), ("Cy", "turn", "double"), ("Dee", "turn", "pass")]
    [redouble] = of_type(table, "double")[2:]
    assert (redouble["player"], redouble["member"], redouble["value"]) == ("Cy", "Cy", 4)


def test_a_chouette_state_is_checked_field_by_field(asked_of_bob: EmulatedTable) -> None:
    controller = asked_of_bob.controller
    session, contest = controller.played, controller.dialogue
    assert isinstance(session, ChouetteSession) and isinstance(contest, ChouetteDialogue)
    verifier = phone_verifier("t01", MATCH, "Bob", "ABCDEFGHJK")
    chouette = chouette_state(session, contest, MATCH, {"Bob": verifier})
    state = {"table": "t01", "match": MATCH, "seq": 9, **table_state(controller, 1.0), "flags": [], "sent": 1.0,
             "chouette": chouette}
    assert decode_state(encode_state(state), "t01")["chouette"] == chouette
    with_a_bot = {**chouette, "bots": {"Cy": "expert"}}
    assert decode_state(encode_state({**state, "chouette": with_a_bot}), "t01")["chouette"] == with_a_bot
    earlier = {k: v for k, v in chouette.items() if k != "bots"}  # a table from before bots sat at a chouette
    assert decode_state(encode_state({**state, "chouette": earlier}), "t01")["chouette"] == earlier
    bads: list[dict[str, Any]] = [{"members": [{**chouette["members"][0], "cube": 0}]}, {"phones": {"Bob": "not hex"}},
                                  {"asked": {**chouette["asked"], "answers": ["drop"]}}, {"totals": {"Ann": "zero"}},
                                  {"line": "Bob"}, {"games": None}, {"bots": {"Cy": 3}}, {"bots": ["Cy"]},
                                  {"bots": {"Bob": "expert"}}]  # the last: a bot with a phone code
    for bad in bads:
        with pytest.raises(MessageRejected) as rejected:
            decode_state(encode_state({**state, "chouette": {**chouette, **bad}}), "t01")
        assert rejected.value.reason == "schema", bad


def test_the_page_sends_a_decision_only_with_the_members_own_code(asked_of_bob: EmulatedTable, tmp_path: Path) -> None:
    controller = asked_of_bob.controller
    session, contest = controller.played, controller.dialogue
    assert isinstance(session, ChouetteSession) and isinstance(contest, ChouetteDialogue)
    codes = {name: phone_code(bytes(32), MATCH, name) for name in session.totals}
    verifiers = {name: phone_verifier("t01", MATCH, name, code) for name, code in codes.items()}
    director = Director(NO_BROKER, tmp_path / "director")
    state = {"table": "t01", "match": MATCH, "seq": 9, **table_state(controller, 1.0), "flags": [], "sent": 1.0,
             "chouette": chouette_state(session, contest, MATCH, verifiers)}
    director.receive(Topics("test").table("t01", "state"), encode_state(state))
    ask = state["chouette"]["asked"]["ask"]
    try:
        with TestClient(create_app(director, Sessions({}))) as client:
            tile = client.get("/api/table/t01").json()["tile"]
            assert "phones" not in tile["state"]["chouette"]  # the verifiers stay with the director
            assert tile["state"]["chouette"]["phone_players"] == ["Ann", "Bob", "Cy", "Dee"]
            assert codes["Bob"] not in json.dumps(tile) and verifiers["Bob"] not in json.dumps(tile)

            def post(table: str = "t01", **fields: Any) -> Any:
                body = {"player": "Bob", "code": codes["Bob"], "ask": ask, "answer": "take", **fields}
                return client.post(f"/api/table/{table}/decision", json=body)

            assert post(code="AAAAA-AAAAA").status_code == 403  # a spectator's guess
            assert post(code=codes["Cy"]).status_code == 403  # another member's code
            assert post(player="Zed").status_code == 403  # nobody of the session
            assert post(answer="drop").status_code == 400 and post(ask="a b").status_code == 400
            assert post(table="t99").status_code == 404
            assert client.post("/api/table/t01/decision", json={**dict(player="Bob", code=codes["Bob"], ask=ask,
                                                                        answer="take")},
                               headers={"origin": "http://evil.example"}).status_code == 403
            assert [d["player"] for d in director.tables["t01"].decisions] == []
            sent = post(code=codes["Bob"].lower())
            assert sent.status_code == 200 and sent.json()["player"] == "Bob"
            [waiting] = director.tables["t01"].decisions
            assert (waiting["player"], waiting["ask"], waiting["answer"], waiting["outcome"]) == ("Bob", ask, "take",
                                                                                                 None)
            # the table's answer comes back on its decided topic; one to a decision never sent is rejected
            topic = Topics("test").table("t01", "decided")
            director.receive(topic, Decided(waiting["id"], True, "applied: Bob take (P1)", 40).encode())
            assert director.tables["t01"].decisions[0]["applied"] is True
            director.receive(topic, Decided("f0f0f0f0", True, "applied", 41).encode())
            assert director.rejected["unexpected"] == 1
    finally:
        director.store.close()
