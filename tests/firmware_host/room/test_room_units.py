"""The room's parts on their own: payloads, the director's copies, flags, logins, broker
settings, and the table's outbox against a stand-in for paho's client."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from repo import ROOT

from firmware_host.config import load_config
from firmware_host.errors import ConfigError, MessageRejected
from firmware_host.room.auth import DirectorConfig, Sessions, check_password, hash_password
from firmware_host.room.broker import BrokerConfig
from firmware_host.room.flags import FlagBook
from firmware_host.room.messages import (
    MAX_PAYLOAD,
    Ack,
    EventMessage,
    Ruling,
    decode_event,
    decode_ruling,
    decode_state,
    encode_status,
    match_id,
)
from firmware_host.room.publisher import TablePublisher
from firmware_host.room.store import Store
from firmware_host.room.topics import Topics
from game.record import GENESIS, encode_event, line_hash

pytestmark = pytest.mark.room

START = {"t": 1.0, "variant": "backgammon", "length": 1, "players": {"white": "Ann", "black": "Bo"}}


def chain(count: int, start: str = "match_start") -> list[bytes]:
    lines, prev = [], GENESIS
    for number in range(count):
        first = {"type": start, **(START if start == "match_start" else {})}
        line = encode_event(first if number == 0 else {"type": "clock", "n": number}, prev)
        lines.append(line)
        prev = line_hash(line)
    return lines


def event(lines: list[bytes], seq: int, table: str = "t01") -> EventMessage:
    return EventMessage(table, match_id(lines[0]), seq, line_hash(lines[seq - 1]), lines[seq - 1])


# -- payloads ------------------------------------------------------------------------------

def test_an_event_message_round_trips_and_every_check_names_its_reason() -> None:
    lines = chain(3)
    good = event(lines, 2)
    assert decode_event(good.encode(), "t01") == good
    cases = {
        "table-id": (good.encode(), "t02"),
        "hash": (EventMessage("t01", good.match, 2, "a" * 64, lines[1]).encode(), "t01"),
        "chain": (EventMessage("t01", good.match, 1, line_hash(lines[1]), lines[1]).encode(), "t01"),
        "match-id": (EventMessage("t01", "f" * 16, 1, line_hash(lines[0]), lines[0]).encode(), "t01"),
        "payload": (b"no separator", "t01"),
        "schema": (b'{"v":1,"table":"t01","match":"xyz","seq":1,"hash":""}\n{}', "t01"),
        "too-large": (b"x" * (MAX_PAYLOAD + 1), "t01"),
    }
    for reason, (payload, table) in cases.items():
        with pytest.raises(MessageRejected) as caught:
            decode_event(payload, table)
        assert caught.value.reason == reason, (reason, caught.value)


def test_json_without_numbers_a_page_can_show_is_refused() -> None:
    with pytest.raises(MessageRejected, match="payload"):
        decode_ruling(b'{"v":1,"id":"a","referee":"x","action":"acknowledge","flag":null,"seconds":NaN}')
    with pytest.raises(MessageRejected, match="action"):
        decode_ruling(Ruling("a", "x", "overrule").encode())
    with pytest.raises(MessageRejected, match="position is not a position"):
        decode_state(json.dumps({"v": 1, "table": "t01", **_state(), "position": {"points": []}}).encode(), "t01")


def _state() -> dict[str, Any]:
    return {"match": "0" * 16, "seq": 1, "variant": "backgammon", "length": 1,
            "players": {"white": "a", "black": "b"}, "game": 1, "score": {"white": 0, "black": 0},
            "crawford": False, "dice": None, "cube": {"value": 1, "owner": None}, "turn": None,
            "waiting": "opening roll", "code": "", "message": "", "clock": None, "flags": [], "link": "up",
            "over": False, "winner": None, "profile": "casual", "sent": 1.0}


def test_topics_are_parsed_or_rejected() -> None:
    topics = Topics("hall")
    assert topics.parse(topics.table("t01", "event")) == ("t01", "event")
    assert topics.parse(topics.director_status) == ("", "director")
    for bad in ("smartgammon/v1/other/table/t01/event", "smartgammon/v1/hall/table/t01/event/x",
                "smartgammon/v1/hall/table/" + "x" * 33 + "/event", "smartgammon/v1/hall/tables"):
        with pytest.raises(MessageRejected, match="topic"):
            topics.parse(bad)
    with pytest.raises(ConfigError, match="venue id"):
        Topics("a/b")


# -- the director's copies --------------------------------------------------------------------

def test_a_copy_takes_lines_in_order_drops_duplicates_refuses_conflicts_and_fills_gaps(tmp_path: Path) -> None:
    lines = chain(6)
    store = Store(tmp_path / "data")
    assert store.receive(event(lines, 1)) == ("stored", 1)
    assert store.receive(event(lines, 1)) == ("duplicate", 0)
    assert store.receive(event(lines, 4)) == ("ahead", 0)
    assert store.receive(event(lines, 3)) == ("ahead", 0)
    assert store.receive(event(lines, 2)) == ("stored", 3)
    match = match_id(lines[0])
    altered = lines[1].replace(b'"n":1', b'"n":9')
    with pytest.raises(MessageRejected, match="conflict"):
        store.receive(EventMessage("t01", match, 2, line_hash(altered), altered))
    foreign = encode_event({"type": "clock", "n": 4}, "b" * 64)
    with pytest.raises(MessageRejected, match="chain"):
        store.receive(EventMessage("t01", match, 5, line_hash(foreign), foreign))
    copy = store.find("t01", match)
    assert copy is not None and copy.held == 4
    store.close()
    assert copy.path.read_bytes() == b"".join(line + b"\n" for line in lines[:4])
    assert (tmp_path / "data" / "ingest.log").read_bytes() == b""  # emptied once the copies are on disk


def test_lines_acknowledged_but_lost_from_a_copy_come_back_from_the_ingest_log(tmp_path: Path) -> None:
    lines = chain(5)
    store = Store(tmp_path / "data")
    for seq in range(1, 6):
        store.receive(event(lines, seq))
    store.durable(store.flush())  # what the director does before acknowledging
    copy = store.find("t01", match_id(lines[0]))
    assert copy is not None
    with open(copy.path, "r+b") as cut:  # the crash: the copy's tail never reached the disk
        cut.truncate(len(lines[0]) + len(lines[1]) + 2)
    again = Store(tmp_path / "data")
    restored = again.find("t01", match_id(lines[0]))
    assert again.recovered == 3 and restored is not None and restored.held == 5
    assert restored.path.read_bytes() == b"".join(line + b"\n" for line in lines)
    again.close()


def test_the_store_reloads_its_copies_and_drops_a_cut_or_broken_tail(tmp_path: Path) -> None:
    lines = chain(5)
    directory = tmp_path / "data" / "t01"
    directory.mkdir(parents=True)
    good = directory / f"{match_id(lines[0])}.jsonl"
    good.write_bytes(b"".join(line + b"\n" for line in lines) + b'{"type":"cut sho')
    other = chain(4, "other")
    broken = directory / f"{match_id(other[0])}.jsonl"
    broken.write_bytes(other[0] + b"\n" + other[1] + b"\n" + other[3] + b"\n")
    store = Store(tmp_path / "data")
    assert store.find("t01", match_id(lines[0])).held == 5  # type: ignore[union-attr]
    assert good.read_bytes().endswith(lines[-1] + b"\n")
    assert store.find("t01", match_id(other[0])).held == 2  # type: ignore[union-attr]
    assert any("chain breaks at line 3" in p for p in store.problems)
    store.close()


def test_flags_are_open_then_acknowledged_ruled_or_passed() -> None:
    book = FlagBook()
    book.add(1, {"type": "flag", "kind": "illegal", "code": "DU", "message": "m"})
    book.add(2, {"type": "flag", "kind": "cocked", "code": "CO", "message": "c"})
    book.add(3, {"type": "referee", "action": "acknowledge", "flag": 1, "referee": "Anna", "applied": True,
                 "ruling": "r1"})
    book.add(4, {"type": "referee", "action": "correct", "flag": 2, "referee": "Anna", "applied": False,
                 "ruling": "r2"})
    assert [(f["number"], f["status"], f["referee"]) for f in book.standing()] == [
        (1, "acknowledged", "Anna"), (2, "open", None)]
    assert set(book.rulings) == {"r1", "r2"}
    book.add(5, {"type": "roll"})
    assert book.standing() == [] and book.flags[2]["status"] == "resolved"


# -- logins and settings ----------------------------------------------------------------------

def test_passwords_are_stored_hashed_and_checked() -> None:
    stored = hash_password("correct horse")
    assert "correct horse" not in stored and stored.startswith("scrypt$16384$8$1$")
    assert check_password(stored, "correct horse") and not check_password(stored, "wrong")
    assert not check_password("scrypt$broken", "x") and not check_password("md5$1$2$3$4$5", "x")
    sessions = Sessions({"Anna": stored}, lifetime=60)
    assert sessions.login("Anna", "wrong") is None and sessions.login("Nobody", "correct horse") is None
    token = sessions.login("Anna", "correct horse")
    assert token and sessions.referee(token) == "Anna" and sessions.referee("forged") is None
    sessions.logout(token)
    assert sessions.referee(token) is None


def test_a_director_config_refuses_a_plain_password() -> None:
    stored = hash_password("x-password")
    config = DirectorConfig.parse({"venue": "hall", "referee": [{"name": "Anna", "password": stored}]})
    assert config.venue == "hall" and list(config.referees) == ["Anna"]
    with pytest.raises(ConfigError, match="must be a hash"):
        DirectorConfig.parse({"referee": [{"name": "Anna", "password": "hunter2"}]})
    with pytest.raises(ConfigError, match="unknown keys"):
        DirectorConfig.parse({"referees": []})


def test_broker_urls_and_the_tables_broker_section(tmp_path: Path) -> None:
    plain = BrokerConfig.from_url("mqtt://t07:p%40ss@10.0.0.2", table="t07", venue="hall")
    assert (plain.host, plain.port, plain.tls) == ("10.0.0.2", 1883, False)
    assert (plain.username, plain.password) == ("t07", "p@ss")
    assert plain.describe() == "mqtt://t07@10.0.0.2:1883"
    assert BrokerConfig.from_url("mqtts://h").port == 8883
    for bad, why in (("http://h", "is not mqtt://"), ("mqtt://h:99999", "bad port")):
        with pytest.raises(ConfigError, match=why):
            BrokerConfig.from_url(bad)
    with pytest.raises(ConfigError, match="table id"):
        BrokerConfig.from_url("mqtt://h", table="t 1")
    for placeholder in ("the director", "ed25519:..."):  # the second is examples/table.toml's, left unset
        with pytest.raises(ConfigError) as raised:
            BrokerConfig.from_url("mqtt://t1:pw@h", table="t1", director_key=placeholder)
        assert str(raised.value) == (f"director key {placeholder!r} is not a public key: put there the director's, "
                                     "'ed25519:' and 44 characters, the line it prints when it starts")
    config = tmp_path / "table.toml"
    config.write_text('[board]\nport = "loop://"\n[broker]\nurl = "mqtt://t03:pw@h:1884"\ntable = "t03"\n',
                      encoding="utf-8")
    broker = load_config(config).broker
    assert broker is not None and (broker.port, broker.table, broker.venue) == (1884, "t03", "room")
    config.write_text('[board]\nport = "loop://"\n[broker]\nurl = "mqtt://h:1884"\ntable = "t03"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="has no login"):  # a broker anyone could join: said at load
        load_config(config)
    config.write_text('[board]\nport = "loop://"\n[broker]\nurl = "mqtt://h:1884"\ntable = "t03"\n'
                      "insecure_anonymous = true\n", encoding="utf-8")
    assert load_config(config).broker is not None
    config.write_text('[board]\nport = "loop://"\n[broker]\nurl = "mqtt://h"\ntabel = "t03"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"table.toml: \[broker\] tabel is not a key \(did you mean table\?\)"):
        load_config(config)
    config.write_text('[board]\nport = "loop://"\n[broker]\nurl = "mqtt://h"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[broker\] needs url and table"):
        load_config(config)


# -- the outbox, against a stand-in for paho ------------------------------------------------------

class FakeClient:
    """Records what the publisher publishes; the test plays the broker's part by calling back."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.published: list[tuple[str, bytes]] = []
        self.will = kwargs.get("will")
        self.on_connect = self.on_disconnect = self.on_subscribe = self.on_message = None

    def connect_async(self, *args: Any, **kwargs: Any) -> None: ...
    def loop_start(self) -> None: ...
    def loop_stop(self) -> None: ...
    def disconnect(self) -> None: ...
    def subscribe(self, *args: Any) -> None: ...

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> Any:
        self.published.append((topic, payload))
        return SimpleNamespace(wait_for_publish=lambda timeout: None)

    def events(self) -> list[int]:
        return [json.loads(p.split(b"\n")[0])["seq"] for t, p in self.published if t.endswith("/event")]


def _connected(publisher: TablePublisher) -> FakeClient:
    client: FakeClient = publisher._client  # type: ignore[assignment]
    client.on_connect(client, None, None, SimpleNamespace(is_failure=False), None)  # type: ignore[misc]
    client.on_subscribe(client, None, 1, [], None)  # type: ignore[misc]
    publisher._ready_at = 0.0  # the retained ack's grace is over
    return client


def _deliver(client: FakeClient, topic: str, payload: bytes) -> None:
    client.on_message(client, None, SimpleNamespace(topic=topic, payload=payload))  # type: ignore[misc]


def test_the_outbox_sends_in_order_within_its_window_and_again_from_the_last_ack() -> None:
    publisher = TablePublisher(BrokerConfig.from_url("mqtt://h", table="t01", insecure_anonymous=True), window=3,
                               client_factory=FakeClient)  # type: ignore[arg-type]
    lines = chain(6)
    match = match_id(lines[0])
    publisher.open_match(match, [(lines[0], line_hash(lines[0]))])
    for seq in range(2, 7):
        publisher.offer(match, seq, lines[seq - 1], line_hash(lines[seq - 1]))
    assert publisher._due(0.0) == []  # not connected: nothing goes out, nothing is lost
    client = _connected(publisher)
    for topic, payload, retain in publisher._due(1.0):
        client.publish(topic, payload, 1, retain)
    assert client.events() == [1, 2, 3]  # the window
    ack_topic = publisher.topics.table("t01", "ack")
    _deliver(client, ack_topic, Ack(match, 2).encode())
    client.published.clear()
    for topic, payload, retain in publisher._due(1.0):
        client.publish(topic, payload, 1, retain)
    assert client.events() == [4, 5]
    _deliver(client, ack_topic, Ack(match, 1).encode())  # the director lost lines: served again
    client.published.clear()
    for topic, payload, retain in publisher._due(1.0):
        client.publish(topic, payload, 1, retain)
    assert client.events() == [2, 3, 4]
    _deliver(client, ack_topic, b"garbage")
    assert publisher.stats.rejected == 1 and "ack" in publisher.stats.last_rejection
    status = publisher.topics.director_status
    _deliver(client, status, encode_status(True, instance="a"))  # a director (re)started: again from the last ack
    client.published.clear()
    for topic, payload, retain in publisher._due(1.0):
        client.publish(topic, payload, 1, retain)
    assert client.events() == [2, 3, 4] and publisher.stats.rewinds == 1
    assert publisher.unacknowledged == 5
    with pytest.raises(ConfigError, match="does not follow"):
        publisher.offer(match, 9, b"{}", "0" * 64)


def test_without_a_broker_nothing_of_the_room_is_loaded(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = ("import sys; from firmware_host import cli; "
              f"args = cli.build_parser().parse_args(['--seed', '2', '--record', {str(tmp_path)!r}]); "
              "table = cli._table(args); table.wait(5.0); table.close(); "
              "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('paho', 'starlette', 'uvicorn') "
              "or m.startswith(('firmware_host.room.publisher', 'firmware_host.room.table_link'))); "
              "print(table.journal.sequence > 3, table.link, loaded)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "True None []"


def test_hash_password_at_a_terminal_asks_twice(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host import cli

    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter(["long enough", "long enuogh", "long enough", "long enough"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    assert cli.main(["director", "--hash-password"]) == 2
    assert "the two passwords differ" in capsys.readouterr().err
    assert cli.main(["director", "--hash-password"]) == 0
    assert check_password(capsys.readouterr().out.strip(), "long enough")


def test_the_room_commands_say_what_is_wrong_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from firmware_host import cli
    from firmware_host.room import demo, mosquitto

    monkeypatch.setattr("sys.stdin", io.StringIO("s3cret-pass\n"))
    assert cli.main(["director", "--hash-password"]) == 0
    assert check_password(capsys.readouterr().out.strip(), "s3cret-pass")
    for short in ("\n", "short\n"):  # an empty or short password is never stored
        monkeypatch.setattr("sys.stdin", io.StringIO(short))
        assert cli.main(["director", "--hash-password"]) == 2
        assert "at least 8 characters" in capsys.readouterr().err
    assert cli.main(["director"]) == 2
    assert "director needs --broker" in capsys.readouterr().err
    assert cli.main(["simulate", "--record", str(tmp_path), "--broker", "mqtt://h"]) == 2
    assert "--broker needs --table" in capsys.readouterr().err
    config = tmp_path / "director.toml"
    config.write_text('[[referee]]\nname = "Anna"\npassword = "plain"\n', encoding="utf-8")
    assert cli.main(["director", "--broker", "mqtt://h", "--config", str(config)]) == 2
    assert "must be a hash" in capsys.readouterr().err
    with socket.create_server(("127.0.0.1", 0)) as taken:  # the page's port in use: said before anything starts
        port = taken.getsockname()[1]
        for command in (["director", "--broker", "mqtt://h"], ["room-demo", "--tables", "1"]):
            assert cli.main([*command, "--listen", f"127.0.0.1:{port}"]) == 2
            assert f"cannot serve the pages on 127.0.0.1:{port}" in capsys.readouterr().err
    for option, value in (("--speed", "-1"), ("--seconds", "0"), ("--seconds", "inf")):
        with pytest.raises(SystemExit) as refused:
            cli.main(["room-demo", option, value])
        assert refused.value.code == 2 and f"{option}: must be a number above 0, got {value}" in capsys.readouterr().err
    monkeypatch.setattr(mosquitto, "find_mosquitto", lambda: None)
    assert demo.run_demo(2, 4.0, ("127.0.0.1", 8080), None, tmp_path / "demo", 1.0) == 2
    assert "apt-get install mosquitto" in capsys.readouterr().out


def test_the_example_configs_broker_section_is_read(tmp_path: Path) -> None:
    example = (ROOT / "hardware_docs" / "example-config.toml").read_text(encoding="utf-8")
    head, _, room = example.partition("# [broker]")
    lines = ["[broker]", *(line[2:] for line in room.splitlines() if line.startswith("# "))]
    (tmp_path / "table.toml").write_text(head + "\n".join(lines) + "\n", encoding="utf-8")
    broker = load_config(tmp_path / "table.toml").broker
    assert broker is not None and (broker.host, broker.port, broker.tls) == ("10.0.0.2", 8883, True)
    assert broker.table == "t07"
    assert broker.username == "t07" and broker.ca_file == "/etc/smartgammon/ca.crt"


def test_a_table_keeps_one_open_file_its_earlier_matches_are_on_disk_and_closed(tmp_path: Path) -> None:
    first, second = chain(3), chain(2, "match_start_2")
    store = Store(tmp_path / "data")
    for seq in (1, 2, 3):
        store.receive(event(first, seq))
    store.receive(event(second, 1))
    earlier = store.find("t01", match_id(first[0]))
    assert earlier is not None and earlier._fp is None and earlier.held == 3
    assert store.latest("t01") is store.find("t01", match_id(second[0]))
    store.close()
