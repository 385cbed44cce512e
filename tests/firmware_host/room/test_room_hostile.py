"""The room against a hostile table login (issue 25): on a real Mosquitto, the real director and
emulated tables; messages no table would send, published with a table's own topics.

Whatever arrives, the director goes on: the message is a counted rejection, its session with the
broker stays up (and its status says so truthfully), what it stores it can load again, and the
real matches reach it whole.
"""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from room_fixtures import NO_BROKER, documented_acl_broker, publish, raw_client, require, serving, text, wait_until
from test_room_broker import assert_same, finish, link, paced, run_until

from firmware_host.errors import LoginThrottled
from firmware_host.record.journal import Journal
from firmware_host.record.signing import TableKey
from firmware_host.room import auth, store, views
from firmware_host.room.auth import Sessions, hash_password
from firmware_host.room.broker import BrokerConfig
from firmware_host.room.director import Director
from firmware_host.room.messages import Decision, EventMessage, Ruling, match_id, seal
from firmware_host.room.mosquitto import INSTALL_HINT, Mosquitto, find_mosquitto, free_port
from firmware_host.room.topics import Topics
from firmware_host.room.web import create_app
from game.record import GENESIS, encode_event, line_hash

pytestmark = pytest.mark.room

Room = Callable[..., Any]
DEEP = b'{"v":1,"a":' + b"[" * 5000 + b"]" * 5000 + b"}"
"""A 10 KB message nested 5,000 deep: Python's JSON parser recurses once a level."""


def forged_match(table: str, events: list[dict[str, Any]]) -> list[EventMessage]:
    """Journal lines a table's login could send: chained, hashed, unsigned."""
    messages, prev, match = [], GENESIS, ""
    for seq, event in enumerate(events, 1):
        line = encode_event(event, prev)
        match = match or match_id(line)
        messages.append(EventMessage(table, match, seq, line_hash(line), line))
        prev = line_hash(line)
    return messages


MALLORY = [{"type": "match_start", "t": 1.0, "variant": "backgammon", "length": 25,
            "players": {"white": "Mallory", "black": "Victim"}, "version": 1},
           {"type": "match_end", "t": 2.0, "winner": "white", "score": {"white": 25, "black": 0}}]


def test_a_deeply_nested_message_on_any_topic_is_a_counted_rejection_and_the_room_goes_on(
        shared_mosquitto: Mosquitto, room: Room, venue: str) -> None:
    director = room("director", shared_mosquitto.url, venue=venue)
    table = room("table", shared_mosquitto.url, "t01", seed=7, venue=venue)
    run_until(table, 20)
    wait_until(lambda: director.status()["connected"], 10, "the director's session")
    topics = Topics(venue)
    evil = raw_client(shared_mosquitto.port, f"{venue}-intruder")
    for channel in ("state", "status", "reply", "decided", "ack"):
        publish(evil, topics.table("t01", channel), DEEP)
    deep_line = EventMessage("t01", link(table).match, 30, line_hash(DEEP), DEEP)
    publish(evil, topics.table("t01", "event"), DEEP + b"\n" + DEEP)
    publish(evil, topics.table("t01", "event"), deep_line.encode())
    wait_until(lambda: director.rejected["payload"] >= 6, 10, "the deep messages counted", step=paced(table))
    wait_until(lambda: link(table).publisher.stats.rejected >= 1, 10, "the table's rejection of a deep ack",
               step=paced(table))
    evil.loop_stop()
    evil.disconnect()
    status = director.status()
    assert status["connected"] and status["rejected"].get("failed") is None
    assert sum("nested 5001 deep" in r["detail"] for r in status["rejections"]) == 6
    finish(table, director)  # the director still holds every line, the table still hears its acks
    assert_same(table, director)


def test_what_the_pages_read_is_typed_before_it_is_stored(shared_mosquitto: Mosquitto, room: Room,
                                                           venue: str, tmp_path: Path) -> None:
    data = tmp_path / "copies"
    director = room("director", shared_mosquitto.url, venue=venue, data=data)
    wait_until(lambda: director.status()["connected"], 10, "the director's session")
    topics = Topics(venue)
    evil = raw_client(shared_mosquitto.port, f"{venue}-intruder")
    soon = forged_match("t01", [{**MALLORY[0], "t": "soon"}])
    bad_players = forged_match("t02", [{**MALLORY[0], "players": "x"}, MALLORY[1]])
    bad_score = forged_match("t03", [MALLORY[0], {**MALLORY[1], "score": {"white": "25", "black": 0}}])
    for message in (*soon, *bad_players, *bad_score):
        publish(evil, topics.table(message.table, "event"), message.encode())
    evil.loop_stop()
    evil.disconnect()
    wait_until(lambda: director.rejected["schema"] >= 3, 10, "the three bad lines refused")
    assert director.store.find("t01", soon[0].match) is None
    assert all(r["match"] != bad_players[0].match for r in views.results(director)["matches"])
    director.close()
    again = Director(director.config, data)  # what was stored loads again
    assert not again.store.problems
    again.store.close()


def test_a_start_never_fails_on_what_is_on_disk(shared_mosquitto: Mosquitto, room: Room, venue: str,
                                                tmp_path: Path) -> None:
    data = tmp_path / "copies"
    bad = forged_match("t01", [{**MALLORY[0], "t": "soon"}])[0]
    good = forged_match("t02", MALLORY)
    (data / "t01").mkdir(parents=True)
    (data / "t01" / f"{bad.match}.jsonl").write_bytes(bad.line + b"\n")  # written by an older director
    (data / "t01" / "0123456789abcdef.jsonl").write_bytes(b"[[[[\n")
    (data / "t02").mkdir()
    (data / "t02" / f"{good[0].match}.jsonl").write_bytes(b"".join(m.line + b"\n" for m in good))
    director = room("director", shared_mosquitto.url, venue=venue, data=data)
    assert len(director.store.problems) == 2 and all("moved to" in p for p in director.store.problems)
    assert sorted(p.name for p in (data / "quarantine").iterdir()) == sorted(
        [f"t01-{bad.match}.jsonl", "t01-0123456789abcdef.jsonl"])
    assert director.store.find("t02", good[0].match) is not None
    assert director.status()["store_problems"] == director.store.problems
    json.dumps(views.results(director))  # the results answer


def test_the_status_tells_the_truth_about_the_broker_and_the_director_comes_back(room: Room,
                                                                                   tmp_path: Path) -> None:
    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    try:
        director = room("director", broker.url)
        wait_until(lambda: director.status()["connected"], 10, "the director's session")
        broker.kill()
        wait_until(lambda: not director.status()["connected"], 30, "the status to say the broker is gone")
        broker.start()
        wait_until(lambda: director.status()["connected"], 30, "the director to reconnect by itself")
    finally:
        broker.stop()


def test_what_one_table_login_can_make_the_director_hold_is_bounded_and_counted(
        shared_mosquitto: Mosquitto, room: Room, venue: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_AHEAD_BYTES", 1_000_000)
    monkeypatch.setattr(store, "MAX_MATCHES", 5)
    data = tmp_path / "copies"
    director = room("director", shared_mosquitto.url, venue=venue, data=data)
    wait_until(lambda: director.status()["connected"], 10, "the director's session")
    topics = Topics(venue)
    evil = raw_client(shared_mosquitto.port, f"{venue}-intruder")
    pad = "x" * 100_000
    for number in range(30):  # 3 MB of lines ahead of a gap
        line = encode_event({"type": "note", "t": 1.0, "pad": pad}, "ab" * 32)
        message = EventMessage("t01", "0" * 16, 5 + number, line_hash(line), line)
        publish(evil, topics.table("t01", "event"), message.encode())
    for number in range(10):  # 10 new matches, one line each
        first = forged_match("t02", [{**MALLORY[0], "t": float(number)}])[0]
        publish(evil, topics.table("t02", "event"), first.encode())
    evil.loop_stop()
    evil.disconnect()
    wait_until(lambda: director.counts["messages"] >= 40, 10, "every message taken")
    assert director.store.ahead.used <= 1_000_000
    assert director.store.refused["ahead-dropped"] >= 20
    assert len(director.store.copies["t02"]) == 5 and director.rejected["too-many-matches"] == 5
    assert len(list((data / "t02").iterdir())) == 5
    assert director.status()["refused"] == dict(director.store.refused)


# -- logins ---------------------------------------------------------------------------------------

def http(url: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
         timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """One request (POST with a JSON body, else GET): status, headers (names in lower case), body."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@pytest.fixture
def pages(tmp_path: Path) -> Iterator[tuple[str, Sessions]]:
    """The director's pages served by uvicorn (a director with no broker), and their logins."""
    director = Director(NO_BROKER, tmp_path / "director")
    sessions = Sessions({"Anna Berg": hash_password("right password")})
    with serving(create_app(director, sessions)) as url:
        yield url, sessions
    director.store.close()


def test_a_password_is_checked_off_the_event_loop(pages: tuple[str, Sessions],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    url, _ = pages
    checking, release = threading.Event(), threading.Event()

    def slow_check(stored: str, password: str) -> bool:
        checking.set()
        release.wait(20)
        return False

    monkeypatch.setattr(auth, "check_password", slow_check)
    login = threading.Thread(target=http, args=(f"{url}/login", {"name": "Anna Berg", "password": "a guess!"}))
    login.start()
    assert checking.wait(10)
    try:
        status, _, body = http(f"{url}/api/me", timeout=5)  # answered while the password is being checked
        assert status == 200 and json.loads(body) == {"referee": None}
    finally:
        release.set()
        login.join(10)


def test_an_unknown_name_costs_the_same_work_as_a_known_one(monkeypatch: pytest.MonkeyPatch) -> None:
    sessions = Sessions({"Anna Berg": hash_password("right password")})
    calls: list[int] = []
    real = hashlib.scrypt

    def counted(*args: Any, **kwargs: Any) -> bytes:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(hashlib, "scrypt", counted)
    for name in ("Anna Berg", "Nobody", "Anna Berg", "Somebody"):
        before = len(calls)
        assert sessions.login(name, "wrong password", f"10.0.0.{len(calls)}") is None
        assert len(calls) - before == 1, name


def test_wrong_logins_make_the_address_and_then_the_name_wait(pages: tuple[str, Sessions]) -> None:
    url, _ = pages
    for _ in range(auth.FREE_FAILURES):
        assert http(f"{url}/login", {"name": "Anna Berg", "password": "a wrong one"})[0] == 401
    status, headers, body = http(f"{url}/login", {"name": "Anna Berg", "password": "right password"})
    assert status == 429 and int(headers["retry-after"]) >= 1 and b"too many wrong logins" in body
    assert http(f"{url}/login", {"name": "Anna Berg", "password": ""})[0] == 400  # never checked

    now = [0.0]
    sessions = Sessions({"Anna Berg": hash_password("right password")}, clock=lambda: now[0])
    for number in range(auth.FREE_FAILURES_PER_NAME):  # one guess from each of many addresses
        assert sessions.login("Anna Berg", "a wrong one", f"10.0.0.{number}") is None
    with pytest.raises(LoginThrottled) as caught:
        sessions.login("Anna Berg", "right password", "10.0.1.1")
    first_wait = caught.value.retry_after
    now[0] += first_wait + 0.1
    assert sessions.login("Anna Berg", "yet another", "10.0.1.2") is None  # the wait doubles
    with pytest.raises(LoginThrottled) as caught:
        sessions.login("Anna Berg", "right password", "10.0.1.3")
    assert caught.value.retry_after > first_wait
    now[0] += auth.MAX_BACKOFF
    assert sessions.login("Anna Berg", "right password", "10.0.1.4") is not None


# -- results a referee can sign off ---------------------------------------------------------------

def signed_journal(directory: Path, key: TableKey, events: list[dict[str, Any]], *,
                   corrupt_signature: bool = False) -> list[bytes]:
    """A journal as a table writes it: its key named first, `events`, then a signature of them all."""
    journal = Journal(directory, fsync=False, key=key)
    journal.write({"type": "table_key", "key": key.public, "t": 1.0})
    for event in events:
        journal.write(event)
    journal.sign(3.0)
    lines = journal.path.read_bytes().splitlines()
    if corrupt_signature:  # another signature, valid base64, of something else
        doc = json.loads(lines[-1])
        doc["signature"] = key.sign(1, GENESIS, 3.0)
        lines[-1] = encode_event({k: v for k, v in doc.items() if k != "prev"}, doc["prev"])
    return lines


def send_lines(client: Any, topics: Topics, table: str, lines: list[bytes]) -> str:
    match = match_id(lines[0])
    for seq, line in enumerate(lines, 1):
        publish(client, topics.table(table, "event"), EventMessage(table, match, seq, line_hash(line), line).encode())
    return match


def test_only_a_match_signed_by_the_tables_enrolled_key_and_legal_counts(
        shared_mosquitto: Mosquitto, room: Room, venue: str, tmp_path: Path) -> None:
    enrolled = TableKey.load_or_create(tmp_path / "enrolled.pem")
    other = TableKey.load_or_create(tmp_path / "other.pem")
    director = room("director", shared_mosquitto.url, venue=venue,
                    enrolled={t: enrolled.public for t in ("t01", "t02", "t03", "t04", "t05")})
    wait_until(lambda: director.status()["connected"], 10, "the director's session")
    evil = raw_client(shared_mosquitto.port, f"{venue}-intruder")
    topics = Topics(venue)
    start = {**MALLORY[0], "length": 1}
    end = {**MALLORY[1], "score": {"white": 1, "black": 0}}
    sent = {
        "t01": [line.line for line in forged_match("t01", MALLORY)],  # chained, unsigned
        "t02": signed_journal(tmp_path / "t02", other, [start, end]),  # signed, but not by t02's key
        "t03": signed_journal(tmp_path / "t03", enrolled, [start, end]),  # signed by t03's key, but illegal
        "t04": signed_journal(tmp_path / "t04", enrolled, [start, end], corrupt_signature=True),
        "t06": signed_journal(tmp_path / "t06", enrolled, [start, end]),  # a table not enrolled
    }
    matches = {table: send_lines(evil, topics, table, lines) for table, lines in sent.items()}
    evil.loop_stop()
    evil.disconnect()
    wait_until(lambda: len(views.results(director)["unverified"]) == 5
               and all(u["reason"] != "being checked" for u in views.results(director)["unverified"]), 10,
               "every forged match judged")
    shown = views.results(director)
    assert shown["matches"] == [] and shown["standings"] == []
    reasons = {u["table"]: u["reason"] for u in shown["unverified"]}
    assert {u["match"] for u in shown["unverified"]} == set(matches.values())
    assert reasons["t01"].startswith("unsigned")
    assert "not table t02's enrolled key" in reasons["t02"]
    assert reasons["t03"].startswith("the rules")
    assert "does not verify" in reasons["t04"]
    assert "t06 is not enrolled" in reasons["t06"]


def test_a_real_tables_match_counts_once_judged(shared_mosquitto: Mosquitto, room: Room, venue: str) -> None:
    director = room("director", shared_mosquitto.url, venue=venue)
    table = room("table", shared_mosquitto.url, "t01", seed=5, venue=venue)
    finish(table, director)
    wait_until(lambda: views.results(director)["matches"], 10, "the match judged", step=paced(table))
    [counted] = views.results(director)["matches"]
    assert counted["match"] == link(table).match and views.results(director)["unverified"] == []
    assert director.counts["verified"] == 1


@pytest.mark.browser
def test_the_results_page_shows_a_match_not_counted_and_why(tmp_path: Path, browser: Any) -> None:
    director = Director(NO_BROKER, tmp_path / "director")
    for message in forged_match("t01", MALLORY):
        director.receive(Topics("test").table("t01", "event"), message.encode())
    with serving(create_app(director, Sessions({}))) as url:
        browser.get(url + "/results")
        wait_until(lambda: "Mallory" in text(browser, "#unverified"), 10, "the match not counted")
        assert "unsigned" in text(browser, "#unverified") and "Mallory" not in text(browser, "#standings")
    director.store.close()


# -- the documented broker, and only the director's instructions -----------------------------------

def test_no_login_can_take_over_another_clients_connection(tmp_path: Path) -> None:
    with documented_acl_broker(tmp_path, {"director": "dpw", "t01": "p1"}) as broker:
        director = Director(BrokerConfig.from_url(f"mqtt://director:dpw@127.0.0.1:{broker.port}", venue="hall"),
                            tmp_path / "data")
        director.start()
        try:
            wait_until(lambda: director.status()["connected"], 10, "the director's session")
            intruder = raw_client(broker.port, "smartgammon-director-hall", "t01", "p1")  # the director's client id
            samples = []
            for _ in range(100):
                samples.append(director.status()["connected"])
                time.sleep(0.02)
            intruder.loop_stop()
            intruder.disconnect()
            assert all(samples)
        finally:
            director.close()


def test_a_packet_over_the_documented_limit_never_reaches_the_director(tmp_path: Path) -> None:
    with documented_acl_broker(tmp_path, {"director": "dpw", "t01": "p1", "t02": "p2"}) as broker:
        director = Director(BrokerConfig.from_url(f"mqtt://director:dpw@127.0.0.1:{broker.port}", venue="hall"),
                            tmp_path / "data")
        director.start()
        try:
            wait_until(lambda: director.status()["connected"], 10, "the director's session")
            topics = Topics("hall")
            big = raw_client(broker.port, "big", "t01", "p1")
            big.publish(topics.table("t01", "state"), b"{" + b" " * 400_000 + b"}", qos=1)
            time.sleep(1.0)
            small = raw_client(broker.port, "small", "t02", "p2")
            publish(small, topics.table("t02", "state"), b"{}")  # the same path, under the limit: it arrives
            wait_until(lambda: director.rejected["schema"] == 1, 5, "the small message")
            assert dict(director.rejected) == {"schema": 1}  # the big one never arrived
            for client in (big, small):
                client.loop_stop()
                client.disconnect()
        finally:
            director.close()


def test_a_table_follows_only_instructions_signed_by_its_director(shared_mosquitto: Mosquitto, room: Room,
                                                                  venue: str, tmp_path: Path) -> None:
    director = room("director", shared_mosquitto.url, venue=venue)
    table = room("table", shared_mosquitto.url, "t01", seed=2, venue=venue)
    run_until(table, 25)
    topics = Topics(venue)
    other = TableKey.load_or_create(tmp_path / "not-the-director.pem")
    penalty = Ruling("forged1", "Mallory", "time_penalty", player="white", seconds=3600.0)
    forged = [penalty.encode(),  # unsigned
              seal(penalty.encode(), venue, "t01", other.sign_bytes),  # signed by another key
              seal(penalty.encode(), venue, "t02", director.key.sign_bytes)]  # the director's, for another table
    evil = raw_client(shared_mosquitto.port, f"{venue}-intruder")
    for payload in forged:
        publish(evil, topics.table("t01", "ruling"), payload)
    decision = Decision("forged2", "t01", "ask", "Bob", "take")
    publish(evil, topics.table("t01", "decision"), decision.encode())
    evil.loop_stop()
    evil.disconnect()
    wait_until(lambda: link(table).publisher.stats.rejected >= 4, 10, "the forged instructions refused",
               step=paced(table))
    assert "signature" in link(table).publisher.stats.last_rejection
    sent = director.rule("t01", "Anna Berg", "time_penalty", player="white", seconds=30.0)
    wait_until(lambda: any(r["id"] == sent.id and r["outcome"] for r in director.tables["t01"].rulings), 10,
               "the director's own ruling answered", step=paced(table))
    referee = [json.loads(line) for line in table.journal.path.read_bytes().splitlines() if b'"referee"' in line]
    assert [(e["referee"], e["ruling"]) for e in referee if e["type"] == "referee"] == [("Anna Berg", sent.id)]


def test_the_commands_refuse_a_broker_anyone_can_use(shared_mosquitto: Mosquitto, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host import cli

    port = shared_mosquitto.port
    assert cli.main(["director", "--broker", f"mqtt://127.0.0.1:{port}", "--data", str(tmp_path)]) == 2
    assert "has no login" in capsys.readouterr().err
    assert cli.main(["director", "--broker", f"mqtt://someone:pw@127.0.0.1:{port}", "--data", str(tmp_path)]) == 2
    assert "lets anyone in without a login" in capsys.readouterr().err
    assert cli.main(["simulate", "--record", str(tmp_path / "t"), "--broker", f"mqtt://127.0.0.1:{port}",
                     "--table", "t01"]) == 2
    assert "has no login" in capsys.readouterr().err


# -- the demo as a real room -----------------------------------------------------------------------

def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.subprocess
def test_sigterm_stops_the_demo_its_mosquitto_and_its_temporary_folder() -> None:
    require("Mosquitto", find_mosquitto(), INSTALL_HINT)
    demo = subprocess.Popen([sys.executable, "-m", "firmware_host", "room-demo", "--tables", "1", "--listen",
                             f"127.0.0.1:{free_port()}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert demo.stdout is not None
        said = [demo.stdout.readline() for _ in range(3)]
        assert "the director's page" in said[-1], said
        work = Path(said[0].split("records in ", 1)[1].split(" (", 1)[0])
        [broker] = [pid for pid in children(demo.pid) if "mosquitto" in Path(f"/proc/{pid}/cmdline").read_text()]
        assert work.is_dir() and "allow_anonymous false" in (work / "broker" / "broker" / "mosquitto.conf").read_text()
        demo.send_signal(signal.SIGTERM)
        assert demo.wait(30) == 0
        assert not Path(f"/proc/{broker}").exists() and not work.exists()
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()


# -- the pages: headers, cookies, cross-site requests, the costly sheet ------------------------------

def test_every_answer_carries_the_security_headers(pages: tuple[str, Sessions]) -> None:
    url, _ = pages
    for path in ("/", "/results", "/api/room", "/static/room.js", "/api/table/t99"):
        _, headers, _ = http(url + path)
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer", path


def test_posts_are_checked_against_the_configured_site_never_the_host_header(tmp_path: Path) -> None:
    port = free_port()
    site = f"http://127.0.0.1:{port}"
    director = Director(NO_BROKER, tmp_path / "director")
    app = create_app(director, Sessions({"Anna Berg": hash_password("right password")}), sites=(site,))
    with serving(app, port=port) as url:
        login = {"name": "Anna Berg", "password": "right password"}
        evil = {"Origin": "http://evil.example", "Host": "evil.example"}  # the Host header agrees with Origin
        assert http(f"{url}/login", login, headers=evil)[0] == 403
        assert http(f"{url}/logout", {}, headers=evil)[0] == 403
        form = {"Content-Type": "application/x-www-form-urlencoded", "Origin": site}  # what a form can send
        assert http(f"{url}/logout", {}, headers=form)[0] == 415
        status, headers, _ = http(f"{url}/login", login, headers={"Origin": site})
        assert status == 200 and "Secure" not in headers["set-cookie"]  # plain http here
    director.store.close()


def test_behind_tls_the_session_cookie_is_secure(tmp_path: Path) -> None:
    director = Director(NO_BROKER, tmp_path / "director")
    app = create_app(director, Sessions({"Anna Berg": hash_password("right password")}),
                     sites=("https://room.example",))
    with serving(app) as url:
        status, headers, _ = http(f"{url}/login", {"name": "Anna Berg", "password": "right password"},
                                  headers={"Origin": "https://room.example"})
        assert status == 200 and "; secure" in headers["set-cookie"].lower()
        assert "httponly" in headers["set-cookie"].lower() and "samesite=strict" in headers["set-cookie"].lower()
    director.store.close()


def test_a_match_sheet_is_made_once_however_often_it_is_asked(pages: tuple[str, Sessions],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    url, _ = pages
    made: list[str] = []

    def counted_sheet(director: Director, table: str, match: str) -> bytes:
        made.append(match)
        return b"%PDF-1.4 a sheet"

    monkeypatch.setattr(views, "sheet_pdf", counted_sheet)
    for _ in range(5):
        status, _, body = http(f"{url}/download/t01/0123456789abcdef/sheet.pdf")
        assert status == 200 and body == b"%PDF-1.4 a sheet"
    assert made == ["0123456789abcdef"]


def test_guesses_sent_at_once_are_throttled_as_if_sent_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    sessions = Sessions({"Anna Berg": hash_password("right password")})
    checking, release = threading.Semaphore(0), threading.Event()
    real_check = auth.check_password

    def held_check(stored: str, password: str) -> bool:
        checking.release()
        release.wait(20)
        return real_check(stored, password)

    monkeypatch.setattr(auth, "check_password", held_check)
    answers: list[str] = []

    def guess() -> None:
        try:
            answers.append("checked" if sessions.login("Anna Berg", "a wrong guess", "10.9.9.9") is None else "in")
        except LoginThrottled:
            answers.append("throttled")

    guessers = [threading.Thread(target=guess) for _ in range(12)]
    for guesser in guessers:
        guesser.start()
    assert checking.acquire(timeout=10)  # the first guess is being checked; the others arrive meanwhile
    time.sleep(0.5)
    release.set()
    for guesser in guessers:
        guesser.join(20)
    assert answers.count("checked") == auth.FREE_FAILURES and answers.count("throttled") == 12 - auth.FREE_FAILURES
