"""The room tried as a hostile player, spectator or rogue device would (issue 25), on this machine only.

Run from the repository root:  python3 -m benchmarks.campaign_room [--demo-seconds 600]

A secured Mosquitto as hardware_docs/room.md documents it (`Mosquitto.secured_room`: the ACL, a
password file, client ids bound to user names, the packet size limit), the director as its own
process (`python -m firmware_host director`, its RSS read from /proc), a table's login in the hands
of the attacker, and then each attack in turn, printing per attack BLOCKED or GOT IN with what was
measured. Every loop is bounded in count and in time; all traffic goes to 127.0.0.1. Last, the
demo (`room-demo --tables 4`) runs for --demo-seconds and the rejections on its page are counted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.record.signing import TableKey
from firmware_host.room.auth import Sessions, hash_password
from firmware_host.room.messages import EventMessage, Ruling, match_id
from firmware_host.room.mosquitto import Mosquitto, find_mosquitto, free_port
from firmware_host.room.topics import Topics
from game.record import GENESIS, encode_event, line_hash

VENUE = "hall"
TOPICS = Topics(VENUE)
REFEREE = ("Anna Berg", "a long referee password")
outcomes: list[tuple[str, bool, str]] = []


def report(attack: str, blocked: bool, measured: str) -> None:
    outcomes.append((attack, blocked, measured))
    print(f"{'BLOCKED' if blocked else 'GOT IN '}  {attack}: {measured}", flush=True)


def http(url: str, body: Any = None, headers: dict[str, str] | None = None,
         timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def client(port: int, user: str | None, password: str | None, client_id: str = "") -> tuple[mqtt.Client, bool]:
    """A connected paho client (and whether the broker let it in)."""
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    if user:
        c.username_pw_set(user, password)
    answered: list[bool] = []
    c.on_connect = lambda cl, ud, flags, reason, props: answered.append(not reason.is_failure)
    c.connect("127.0.0.1", port)
    c.loop_start()
    deadline = time.monotonic() + 5
    while not answered and time.monotonic() < deadline:
        time.sleep(0.01)
    return c, bool(answered and answered[0])


def send(c: mqtt.Client, topic: str, payload: bytes) -> None:
    info = c.publish(topic, payload, qos=1)
    try:
        info.wait_for_publish(5)
    except (RuntimeError, ValueError):
        pass


def forged(table: str, events: list[dict[str, Any]]) -> list[EventMessage]:
    out, prev, match = [], GENESIS, ""
    for seq, event in enumerate(events, 1):
        line = encode_event(event, prev)
        match = match or match_id(line)
        out.append(EventMessage(table, match, seq, line_hash(line), line))
        prev = line_hash(line)
    return out


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Director:
    """The director as its own process, on the secured broker."""

    def __init__(self, work: Path, broker_port: int, password: str, enrolled: str) -> None:
        self.work = work
        self.port = free_port()
        config = work / "director.toml"
        config.write_text(f'venue = "{VENUE}"\n[[referee]]\nname = "{REFEREE[0]}"\n'
                          f'password = "{hash_password(REFEREE[1])}"\n[[table]]\nid = "t01"\nkey = "{enrolled}"\n',
                          encoding="utf-8")
        self.command = [sys.executable, "-m", "firmware_host", "director", "--broker",
                        f"mqtt://director:{password}@127.0.0.1:{broker_port}", "--config", str(config),
                        "--data", str(work / "data"), "--listen", f"127.0.0.1:{self.port}"]
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, stdout=open(self.work / "director.log", "ab"),
                                        stderr=subprocess.STDOUT)
        for _ in range(200):
            try:
                if self.status()["connected"]:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(f"the director exited: {(self.work / 'director.log').read_text()[-2000:]}")
            time.sleep(0.05)
        raise RuntimeError("the director did not come up in 10 s")

    def status(self) -> dict[str, Any]:
        status: dict[str, Any] = json.loads(http(self.url + "/api/room", timeout=5)[2])["status"]
        return status

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(20)

    def settle(self, timeout: float = 60.0) -> None:
        """Wait until the director has taken everything sent (its message count still for a second)."""
        deadline, last = time.monotonic() + timeout, -1
        while time.monotonic() < deadline:
            now = self.status()["counts"].get("messages", 0)
            if now == last:
                return
            last = now
            time.sleep(1.0)

    def wait_messages(self, count: int, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while self.status()["counts"].get("messages", 0) < count and time.monotonic() < deadline:
            time.sleep(0.05)


def attacks(director: Director, broker: Mosquitto, passwords: dict[str, str], args: argparse.Namespace) -> None:
    """Every attack in turn, each printed BLOCKED or GOT IN (`report`), with its figures."""
    port = broker.port
    mallory, _ = client(port, "t01", passwords["t01"], "campaign-t01")

    # anonymous access, another table's topic
    _, anonymous_in = client(port, None, None)
    report("an anonymous client on the room's broker", not anonymous_in, "refused" if not anonymous_in else "let in")

    _attack_1(director, port, passwords, mallory, args)
    _attack_2(director, port, passwords, mallory, args)
    _attack_3(director, port, passwords, mallory, args)
    _attack_4(director, port, passwords, mallory, args)
    _attack_5(director, port, passwords, mallory, args)
    _attack_6(director, port, passwords, mallory, args)
    _attack_7(director, port, passwords, mallory, args)
    _attack_8(director, port, passwords, mallory, args)


def _attack_1(director: Director, port: int, passwords: dict[str, str], mallory: mqtt.Client,
              args: argparse.Namespace) -> None:
    """1. one message nested 5,000 deep on each of the table's own topics."""
    deep = b'{"v":1,"a":' + b"[" * 5000 + b"]" * 5000 + b"}"
    before = director.status()
    for channel in ("state", "status", "reply", "decided", "event"):
        send(mallory, TOPICS.table("t01", channel), deep + (b"\n" + deep if channel == "event" else b""))
    time.sleep(1.0)
    good = forged("t01", [{"type": "note", "t": 1.0}])[0]
    send(mallory, TOPICS.table("t01", "event"), good.encode())
    director.wait_messages(before["counts"].get("messages", 0) + 6)
    after = director.status()
    alive = after["connected"] and after["counts"].get("messages", 0) >= before["counts"].get("messages", 0) + 6
    report("a 10 KB message nested 5,000 deep on state, status, reply, decided, event", alive,
           f"connected {after['connected']}, {after['rejected_total'] - before['rejected_total']} rejections counted, "
           "the next message taken")


def _attack_2(director: Director, port: int, passwords: dict[str, str], mallory: mqtt.Client,
              args: argparse.Namespace) -> None:
    """2. a start time the store cannot sort, then a restart."""
    soon = forged("t01", [{"type": "match_start", "t": "soon", "variant": "backgammon", "length": 1,
                           "players": {"white": "A", "black": "B"}}])
    send(mallory, TOPICS.table("t01", "event"), soon[0].encode())
    bad_players = forged("t01", [{"type": "match_start", "t": 5.0, "variant": "backgammon", "length": 1,
                                  "players": "x"}, {"type": "match_end", "t": 6.0, "winner": "white",
                                                    "score": {"white": 1, "black": 0}}])
    for message in bad_players:
        send(mallory, TOPICS.table("t01", "event"), message.encode())
    time.sleep(1.0)
    director.stop()
    director.start()
    results_status = http(director.url + "/api/results")[0]
    report("match_start t='soon', players='x' + match_end, then a restart", results_status == 200,
           f"the director started again; /api/results {results_status}")


def _attack_3(director: Director, port: int, passwords: dict[str, str], mallory: mqtt.Client,
              args: argparse.Namespace) -> None:
    """3. a made-up finished match at the top of the standings."""
    made_up = forged("t01", [{"type": "match_start", "t": 10.0, "variant": "backgammon", "length": 25,
                              "players": {"white": "Mallory", "black": "Victim"}},
                             {"type": "match_end", "t": 11.0, "winner": "white", "score": {"white": 25, "black": 0}}])
    for message in made_up:
        send(mallory, TOPICS.table("t01", "event"), message.encode())
    time.sleep(1.5)
    shown = json.loads(http(director.url + "/api/results")[2])
    counted = any(m["players"].get("white") == "Mallory" for m in shown["matches"])
    reason = next((u["reason"] for u in shown["unverified"] if (u.get("players") or {}).get("white") == "Mallory"), "")
    report("two chained unsigned lines: 'Mallory beat Victim 25-0'", not counted, f"not counted: {reason}")


def _attack_4(director: Director, port: int, passwords: dict[str, str], mallory: mqtt.Client,
              args: argparse.Namespace) -> None:
    """4. a ruling from anyone: the table verifies the director's signature (in-process table publisher)."""
    from firmware_host.room.broker import BrokerConfig
    from firmware_host.room.publisher import TablePublisher

    publisher = TablePublisher(BrokerConfig.from_url(f"mqtt://t02:{passwords['t02']}@127.0.0.1:{port}", venue=VENUE,
                                                     table="t02", director_key=director.status()["key"]))
    publisher.start()
    time.sleep(1.0)
    director_login, _ = client(port, "director", passwords["director"], "campaign-director-login")
    send(director_login, TOPICS.table("t02", "ruling"),  # even with the director's broker login, unsigned
         Ruling("forged1", "Mallory", "time_penalty", player="white", seconds=3600.0).encode())
    time.sleep(1.0)
    taken = publisher.take_rulings()
    report("a 3600 s time penalty sent without the director's signature", not taken,
           f"the table refused it ({publisher.stats.last_rejection[:80]}...)")
    publisher.close()
    director_login.loop_stop()
    director_login.disconnect()


def _attack_5(director: Director, port: int, passwords: dict[str, str], mallory: mqtt.Client,
              args: argparse.Namespace) -> None:
    """5. a table's login takes the director's client id."""
    intruder, _ = client(port, "t02", passwords["t02"], f"smartgammon-director-{VENUE}")
    samples = []
    for _ in range(100):
        samples.append(director.status()["connected"])
        time.sleep(0.05)
    intruder.loop_stop()
    intruder.disconnect()
    share = 100 * sum(samples) / len(samples)
    report("a table's login connects with the director's client id for 5 s", share == 100,
           f"the director connected {share:.0f} % of the time")


def _attack_6(director: Director, port: int, passwords: dict[str, str], mallory: mqtt.Client,
              args: argparse.Namespace) -> None:
    """6. memory and disk from one table's login."""
    pid = director.process.pid  # type: ignore[union-attr]
    rss0, half = rss_mb(pid), 0.0
    pad = "x" * 250_000
    for number in range(args.flood_lines):
        line = encode_event({"type": "note", "t": 1.0, "pad": pad}, "ab" * 32)
        send(mallory, TOPICS.table("t01", "event"),
             EventMessage("t01", "f" * 16, 10 + number, line_hash(line), line).encode())
        if number == args.flood_lines // 2:
            director.settle()
            half = rss_mb(pid)
    director.settle()
    end = rss_mb(pid)
    report(f"{args.flood_lines} lines of 250 KB ahead of a gap", end - half < 8 and end - rss0 < 64,
           f"director RSS {rss0:.0f} MB before, {half:.0f} MB half way, {end:.0f} MB at the end "
           f"(flat once the 16 MB kept ahead of gaps is full); refused {director.status()['refused']}")
    for number in range(args.flood_matches):
        first = forged("t01", [{"type": "match_start", "t": 100.0 + number, "variant": "backgammon", "length": 1,
                                "players": {"white": "A", "black": "B"}}])[0]
        send(mallory, TOPICS.table("t01", "event"), first.encode())
    director.settle()
    files = len(list((director.work / "data" / "t01").glob("*.jsonl")))
    status = director.status()
    report(f"{args.flood_matches} one-line matches", files <= 300,
           f"{files} match files on the director's disk; refused {status['refused']}, rejected {status['rejected']}")
    big = mallory.publish(TOPICS.table("t01", "state"), b"{" + b" " * 400_000 + b"}", qos=1)
    time.sleep(1.0)
    report("a 400 KB message", "too-large" not in director.status()["rejected"],
           "the broker refused it before the director" if not big.is_published() else "published")
    mallory.loop_stop()
    mallory.disconnect()


def _attack_7(director: Director, port: int, passwords: dict[str, str], mallory: mqtt.Client,
              args: argparse.Namespace) -> None:
    """7. wrong logins against the pages, /api/me meanwhile."""
    def me_latencies(count: int) -> list[float]:
        out = []
        for _ in range(count):
            t0 = time.perf_counter()
            http(director.url + "/api/me")
            out.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.02)
        return out

    quiet = me_latencies(40)
    statuses: list[int] = []

    def guesser() -> None:
        for _ in range(15):
            statuses.append(http(director.url + "/login", {"name": REFEREE[0], "password": "a wrong guess"})[0])

    threads = [threading.Thread(target=guesser) for _ in range(4)]
    for thread in threads:
        thread.start()
    loaded: list[float] = []
    deadline = time.monotonic() + 60
    while any(thread.is_alive() for thread in threads) and time.monotonic() < deadline:
        loaded += me_latencies(5)
    for thread in threads:
        thread.join(60)
    right = http(director.url + "/login", {"name": REFEREE[0], "password": REFEREE[1]})[0]
    calm, busy = statistics.median(quiet), statistics.median(loaded)
    report("4 clients x 15 wrong logins", busy < max(20.0, 3 * calm) and right == 429,
           f"/api/me median {calm:.1f} ms quiet, {busy:.1f} ms (max {max(loaded):.0f} ms, {len(loaded)} requests) "
           f"meanwhile; {statuses.count(429)} of {len(statuses)} guesses refused unchecked; "
           f"the right password then: {right}")
    sessions = Sessions({REFEREE[0]: hash_password(REFEREE[1])})
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    for number in range(10):
        for kind, name in (("known", REFEREE[0]), ("unknown", f"nobody {number}")):
            t0 = time.perf_counter()
            sessions.login(name, "a wrong guess", f"10.1.{number}.{len(times[kind])}")
            times[kind].append((time.perf_counter() - t0) * 1000)
    known, unknown = statistics.median(times["known"]), statistics.median(times["unknown"])
    report("login timing tells which names exist", 0.7 < unknown / known < 1.4,
           f"known name {known:.0f} ms, unknown {unknown:.0f} ms (medians of 10)")


def _attack_8(director: Director, port: int, passwords: dict[str, str], mallory: mqtt.Client,
              args: argparse.Namespace) -> None:
    """8. the pages' headers, a cross-site logout, the Origin against the Host header, the sheet."""
    _, headers, _ = http(director.url + "/")
    report("no security headers", "frame-ancestors 'none'" in headers.get("content-security-policy", ""),
           f"CSP {headers.get('content-security-policy', 'none')[:40]}..., nosniff "
           f"{headers.get('x-content-type-options')}, referrer {headers.get('referrer-policy')}")
    forms = http(director.url + "/logout", {}, {"Content-Type": "application/x-www-form-urlencoded",
                                                "Origin": "http://evil.example"})[0]
    host = http(director.url + "/login", {"name": REFEREE[0], "password": REFEREE[1]},
                {"Origin": "http://evil.example", "Host": "evil.example"})[0]
    report("a cross-site POST to /logout; a login whose Host header agrees with its Origin",
           forms in (403, 415) and host == 403, f"/logout {forms}, /login {host}")


def demo_rejections(seconds: float) -> None:
    port = free_port()
    demo = subprocess.Popen([sys.executable, "-m", "firmware_host", "room-demo", "--tables", "4", "--listen",
                             f"127.0.0.1:{port}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert demo.stdout is not None
        for _ in range(3):
            demo.stdout.readline()
        time.sleep(seconds)
        doc = json.loads(http(f"http://127.0.0.1:{port}/api/room")[2])
        results = json.loads(http(f"http://127.0.0.1:{port}/api/results")[2])
        status = doc["status"]
        report(f"room-demo --tables 4 for {seconds:.0f} s", status["rejected_total"] == 0,
               f"{status['rejected_total']} rejections {status['rejected']}, {status['counts'].get('events', 0)} lines "
               f"stored, {len(results['matches'])} matches verified, {len(results['unverified'])} not counted")
        demo.terminate()
        demo.wait(30)
    finally:
        if demo.poll() is None:
            demo.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--flood-lines", type=int, default=600, help="lines of 250 KB ahead of a gap")
    parser.add_argument("--flood-matches", type=int, default=3000, help="one-line matches from one login")
    parser.add_argument("--demo-seconds", type=float, default=600.0, help="how long room-demo runs (0: not at all)")
    args = parser.parse_args()
    if find_mosquitto() is None:
        print("Mosquitto is needed: sudo apt-get install mosquitto", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="campaign-room-"))
    passwords = {name: os.urandom(12).hex() for name in ("director", "t01", "t02")}
    broker = Mosquitto.secured_room(work / "broker", passwords)
    broker.start()
    key = TableKey.load_or_create(work / "t01.pem")
    director = Director(work, broker.port, passwords["director"], key.public)
    try:
        director.start()
        attacks(director, broker, passwords, args)
    finally:
        director.stop()
        broker.stop()
        shutil.rmtree(work, ignore_errors=True)
    if args.demo_seconds:
        demo_rejections(args.demo_seconds)
    got_in = [attack for attack, blocked, _ in outcomes if not blocked]
    print(f"{len(outcomes) - len(got_in)} of {len(outcomes)} blocked" + (f"; got in: {got_in}" if got_in else ""))
    return 1 if got_in else 0


if __name__ == "__main__":
    sys.exit(main())
