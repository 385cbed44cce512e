"""The room on a real Mosquitto: emulated tables publish, the director keeps every match.

Whatever happens to the network (the broker killed and restarted, a table's connection cut,
the director restarted), the director's copy of each match ends equal to the table's
journal, line for line, byte for byte.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from repo import ROOT
from room_fixtures import Proxy, documented_acl_broker, publish, raw_client, wait_until

from drivers.events import ButtonKind
from firmware_host.emulator.table import EmulatedTable
from firmware_host.room.broker import BrokerConfig
from firmware_host.room.director import Director
from firmware_host.room.messages import EventMessage, match_id, seal
from firmware_host.room.mosquitto import Mosquitto
from firmware_host.room.table_link import TableLink
from firmware_host.room.topics import Topics
from firmware_host.settings import Profile, Settings
from game.cli import main as game_main
from game.record import line_hash

pytestmark = pytest.mark.room

Room = Callable[..., Any]


def run_until(table: EmulatedTable, seq: int) -> None:
    """Play on until the journal has `seq` lines (or the match ends), every one durable and offered to the room."""
    while table.journal.sequence < seq and not table.controller.match.is_over:
        table.step()
    assert table.journal.settle(10), "the journal's lines were not made durable"


def link(table: EmulatedTable) -> TableLink:
    assert table.link is not None
    return table.link


def paced(table: EmulatedTable, seconds: float = 0.005) -> Callable[[], None]:
    """The step of a `wait_until` on the network while the table plays on: one step of the table, then
    a pause for the network to do its part (about real time). Stepped flat out, a timed match's clock
    ran up to two minutes while a reply was on its way (a player lost on time before a director's
    ruling came)."""
    def step() -> None:
        table.step()
        time.sleep(seconds)

    return step


def held(director: Director, table: EmulatedTable) -> int:
    copy = director.store.find(link(table).publisher.table, link(table).match)
    return copy.held if copy is not None else 0


def finish(table: EmulatedTable, director: Director, timeout: float = 30.0) -> None:
    """Play to the end, then wait until the director holds every line (the table still stepping)."""
    table.run()
    wait_until(lambda: held(director, table) == table.journal.sequence, timeout,
               "the director to hold the whole journal", step=paced(table, 0.01))


def assert_same(table: EmulatedTable, director: Director) -> None:
    copy = director.store.find(link(table).publisher.table, link(table).match)
    assert copy is not None
    journal, held = table.journal.path.read_bytes(), copy.path.read_bytes()
    assert held.splitlines() == journal.splitlines()  # event for event, in order
    assert held == journal


def test_a_table_that_stops_at_the_match_end_hands_the_room_every_line_before_it_goes(
        shared_mosquitto: Mosquitto, room: Room) -> None:
    director = room("director", shared_mosquitto.url)
    table = room("table", shared_mosquitto.url, "t01", seed=5)
    assert table.run()
    written = table.journal.sequence
    link(table).close()  # as the table's process does once the match is over: no step after the last
    wait_until(lambda: held(director, table) == written, 30, "the director to hold the whole journal")
    assert_same(table, director)


def test_a_whole_match_reaches_the_director_complete_and_in_order(shared_mosquitto: Mosquitto, room: Room) -> None:
    director = room("director", shared_mosquitto.url)
    table = room("table", shared_mosquitto.url, "t01", seed=5)
    finish(table, director)
    assert_same(table, director)
    copy = director.store.find("t01", link(table).match)
    assert copy.finished and copy.summary["score"] == {"white": table.controller.match.score[0],
                                                         "black": table.controller.match.score[1]}
    assert game_main(["validate", str(copy.path)]) == 0
    wait_until(lambda: link(table).publisher.acknowledged(link(table).match) == table.journal.sequence, 5,
               "the acknowledgement of the last line", step=paced(table))
    def final_state() -> bool:  # the retained state comes on its own, after the last line's acknowledgement
        state = director.tables["t01"].state
        return state is not None and bool(state["over"]) and state["seq"] == table.journal.sequence

    wait_until(final_state, 10, "the table's final state at the director", step=paced(table))
    assert director.rejected == {} and director.counts["events"] == table.journal.sequence


def test_broker_killed_connection_cut_director_restarted_nothing_lost_nothing_twice(
        mosquitto: Mosquitto, proxy: Proxy, room: Room, tmp_path: Path) -> None:
    director = room("director", mosquitto.url)
    table = room("table", f"mqtt://127.0.0.1:{proxy.port}", "t01", seed=7, settings=Settings(length=3))
    publisher = link(table).publisher
    run_until(table, 25)
    # the publisher sends from its own thread: wait without playing on, or the table outruns the kill below
    wait_until(lambda: publisher.acknowledged(link(table).match) >= 25, 10, "the first lines acknowledged")

    mosquitto.kill()  # the broker dies: the table plays on and keeps its journal
    run_until(table, 45)
    assert not table.controller.match.is_over and publisher.acknowledged(link(table).match) < 45
    mosquitto.start()
    wait_until(lambda: publisher.acknowledged(link(table).match) >= 45, 20,
               "the lines played while the broker was down", step=paced(table))

    proxy.cut()  # the table's cable is pulled
    run_until(table, 65)
    wait_until(lambda: not publisher.connected, 10, "the publisher to notice the cut")  # paho's own thread
    assert publisher.acknowledged(link(table).match) < 65
    proxy.restore()
    wait_until(lambda: publisher.acknowledged(link(table).match) >= 65, 20, "the lines played while cut off",
               step=paced(table))

    director.close()  # the director restarts (from its copies on disk)
    run_until(table, 85)
    director = room("director", mosquitto.url)
    assert director.store.find("t01", link(table).match).held >= 65
    finish(table, director)
    assert_same(table, director)
    assert publisher.stats.connects >= 3 and publisher.stats.rewinds >= 1
    assert director.rejected == {}


def test_a_ruling_from_the_director_is_applied_shown_and_journaled_once(shared_mosquitto: Mosquitto,
                                                                        room: Room) -> None:
    director = room("director", shared_mosquitto.url)
    table = room("table", shared_mosquitto.url, "t01", players=False,
                 settings=Settings(length=1, profile=Profile.TRADITIONAL))
    table.wait(1.0)
    table.emulator.roll(6, 1)
    table.wait(0.6)
    table.emulator.move(13, 7)  # the 1 left unused: illegal
    table.wait(0.6)
    table.press("white", ButtonKind.DONE)
    table.wait(0.6)
    wait_until(lambda: director.tables.get("t01") and director.tables["t01"].state
               and director.tables["t01"].state["flags"], 5, "the open flag at the director", step=paced(table))
    [flag] = director.tables["t01"].state["flags"]
    assert (flag["number"], flag["code"], flag["status"]) == (1, "DU", "open")

    sent = director.rule("t01", "Anna Berg", "acknowledge", flag=1)
    wait_until(lambda: any(r["id"] == sent.id and r["outcome"] for r in director.tables["t01"].rulings), 10,
               "the table's reply", step=paced(table))
    shown = [json.loads(line) for line in table.journal.path.read_text().splitlines()]
    referee_at = max(i for i, e in enumerate(shown) if e["type"] == "referee")
    assert [e["text"] for e in shown[referee_at:] if e["type"] == "display"][:1] == ["RF"]  # for a moment
    accepted = director.rule("t01", "Anna Berg", "accept", flag=1)
    again = raw_client(shared_mosquitto.port, "resender")  # the same ruling delivered a second time
    resent = seal(accepted.encode(), director.config.venue, "t01", director.key.sign_bytes)
    publish(again, Topics(director.config.venue).table("t01", "ruling"), resent)
    wait_until(lambda: any(r["id"] == accepted.id and r["outcome"] for r in director.tables["t01"].rulings), 10,
               "the reply to the acceptance", step=paced(table))
    table.wait(0.5)
    events = [json.loads(line) for line in table.journal.path.read_text().splitlines()]
    referee = [e for e in events if e["type"] == "referee"]
    assert [(e["referee"], e["action"], e["applied"]) for e in referee] == [
        ("Anna Berg", "acknowledge", True), ("Anna Berg", "accept", True)]
    [play] = [e for e in events if e["type"] == "play"]
    assert "accepted_illegal" in play
    wait_until(lambda: director.tables["t01"].state["flags"] == [] and director.tables["t01"].state["turn"] == "black",
               5, "the state after the ruling", step=paced(table))
    wait_until(lambda: link(table).publisher.stats.states and len(link(table).flags.rulings) == 2, 5, "both answered")
    again.loop_stop()
    again.disconnect()


def test_bad_input_is_rejected_counted_and_shown_and_nothing_is_lost(shared_mosquitto: Mosquitto, room: Room) -> None:
    director = room("director", shared_mosquitto.url)
    table = room("table", shared_mosquitto.url, "t01", seed=3)
    run_until(table, 30)
    wait_until(lambda: (c := director.store.find("t01", link(table).match)) is not None and c.held >= 30, 10,
               "the first lines", step=paced(table))
    topics = Topics(director.config.venue)
    lines = table.journal.path.read_bytes().splitlines()
    old = EventMessage("t01", link(table).match, 5, line_hash(lines[4]), lines[4])
    forged_line = lines[9].replace(b'"type"', b'"forged":1,"type"')
    evil = raw_client(shared_mosquitto.port, "intruder")
    attempts = {
        "payload": [(topics.table("t01", "event"), b"\x00\xffgarbage"), (topics.table("t01", "state"), b"{not json")],
        "topic": [(f"{topics.prefix}/table/t01/bogus", b"{}"), (f"{topics.prefix}/tables", b"{}"),
                  (f"{topics.prefix}/table/bad id!/event", b"{}")],
        "table-id": [(topics.table("t02", "event"), old.encode())],  # t01's event on t02's topic
        "conflict": [(topics.table("t01", "event"),
                      EventMessage("t01", old.match, 10, line_hash(forged_line), forged_line).encode())],
        "hash": [(topics.table("t01", "event"), EventMessage("t01", old.match, 6, "0" * 64, lines[5]).encode())],
        "schema": [(topics.table("t01", "state"), b'{"v":1,"table":"t01","match":"nothex"}'),
                   (topics.table("t01", "event"), b'{"v":2}\n{}')],
        "chain": [(topics.table("t02", "event"), EventMessage("t02", match_id(lines[0]), 1, line_hash(lines[1]),
                                                              lines[1]).encode())],
    }
    for attempt in attempts.values():
        for topic, payload in attempt:
            publish(evil, topic, payload)
    publish(evil, topics.table("t01", "event"), old.encode())  # replayed as it was: a duplicate, dropped
    wait_until(lambda: sum(director.rejected.values()) >= sum(len(a) for a in attempts.values())
               and director.counts["duplicate"] >= 1, 10, "every bad message counted", step=paced(table))
    assert dict(director.rejected) == {reason: len(attempt) for reason, attempt in attempts.items()}
    status = director.status()
    assert status["rejected_total"] == sum(len(a) for a in attempts.values()) and status["rejections"]
    evil.loop_stop()
    evil.disconnect()
    finish(table, director)
    assert_same(table, director)  # the real match is whole
    assert "t02" not in director.tables and director.store.find("t02", match_id(lines[0])) is None


def test_the_documented_acl_keeps_each_table_to_its_own_topics(tmp_path: Path) -> None:
    with documented_acl_broker(tmp_path, {"director": "dpw", "t01": "p1", "t02": "p2"}) as broker:
        url = f"mqtt://director:dpw@127.0.0.1:{broker.port}"
        director = Director(BrokerConfig.from_url(url, venue="hall"), tmp_path / "data", ack_interval=0.05)
        director.start()
        table = EmulatedTable(Settings(length=1), tmp_path / "t01", 4, broker=BrokerConfig.from_url(
            f"mqtt://t01:p1@127.0.0.1:{broker.port}", venue="hall", table="t01"))
        try:
            finish(table, director)  # its own topics work: events out, acks in
            assert_same(table, director)
            table.close()  # its login is one connection: the intruder below takes it (use_username_as_clientid)
            topics = Topics("hall")
            lines = table.journal.path.read_bytes().splitlines()
            intruder = raw_client(broker.port, "t01-evil", "t01", "p1")
            forged = EventMessage("t02", match_id(lines[0]), 1, line_hash(lines[0]), lines[0])
            publish(intruder, topics.table("t02", "event"), forged.encode())  # as another table: dropped
            publish(intruder, topics.table("t01", "ack"), b'{"v":1,"match":"0000000000000000","seq":9}')  # dropped
            publish(intruder, topics.table("t01", "state"), b"not even json")  # its own topic: reaches the director
            wait_until(lambda: director.rejected.get("payload", 0) >= 1, 5, "t01's own garbage counted")
            time.sleep(0.3)
            assert "t02" not in director.tables and dict(director.rejected) == {"payload": 1}
            intruder.loop_stop()
            intruder.disconnect()
            director.close()  # its login is one connection too: the watcher takes it to read the retained ack
            seen: list[bytes] = []
            watcher = raw_client(broker.port, "watcher", "director", "dpw")
            watcher.on_message = lambda client, userdata, message: seen.append(bytes(message.payload))
            watcher.subscribe(topics.table("t01", "ack"), qos=1)
            wait_until(lambda: seen, 5, "the retained ack")
            assert all(b"0000000000000000" not in payload for payload in seen)  # only the director's ack
            watcher.loop_stop()
            watcher.disconnect()
        finally:
            table.close()
            director.close()


def test_a_second_venue_sees_every_table_through_a_mosquitto_bridge(mosquitto: Mosquitto, tmp_path: Path) -> None:
    doc = (ROOT / "hardware_docs" / "room.md").read_text(encoding="utf-8")
    bridge = doc.split("```bridge\n", 1)[1].split("```", 1)[0].replace("CENTRAL:1883", f"127.0.0.1:{mosquitto.port}")
    venue = Mosquitto(tmp_path / "venue", extra=tuple(line for line in bridge.splitlines()
                                                      if line.strip() and not line.startswith("#")))
    venue.start()
    try:
        here = Director(BrokerConfig.from_url(venue.url, venue="hall", insecure_anonymous=True), tmp_path / "here",
                        ack_interval=0.05)
        central = Director(BrokerConfig.from_url(mosquitto.url, venue="hall", insecure_anonymous=True),
                           tmp_path / "central",
                           ack_interval=0.05)
        here.start()
        central.start()
        table = EmulatedTable(Settings(length=1), tmp_path / "t01", 6,
                              broker=BrokerConfig.from_url(venue.url, venue="hall", table="t01",
                                                           insecure_anonymous=True))
        try:
            finish(table, here)
            wait_until(lambda: held(central, table) == table.journal.sequence, 20,
                       "the central director's copy", step=paced(table, 0.01))
            assert_same(table, here)
            assert_same(table, central)
            assert central.tables["t01"].state is not None and central.rejected == {}
        finally:
            table.close()
            here.close()
            central.close()
    finally:
        venue.stop()
