"""The tournament room under load: 64 emulated tables on one Mosquitto, one director.

Run from the repository root:  python3 -m benchmarks.bench_room [--tables 64] [--speed 1.5] [--seconds 60]

Room. Mosquitto (started here on a free port), the director as its own process (`python -m
firmware_host director`, so that its CPU and memory are its own: /proc/PID/stat and status),
and the tables in `--workers` processes, each stepping its share of the tables in turn at
`--speed` times real time (`firmware_host.room.demo.Tables`: emulated boards, simulated
players, the real controller, journal, publisher). Every `play` line is stamped with the wall
clock as the journal writes it (a journal listener in the worker); a page client here reads
the director's `/stream` (server-sent events, as a browser does) and stamps the first frame in
which the table's state has reached that line. Latency = page frame - journal line, p50 and
p99 over the plays after a warm-up. Messages per second and events are the director's own
counts (`/api/room`), over the measured window.

Capacity. `--flood` virtual tables (one paho client per worker process) publish the journals
the room just recorded, as fast as the broker takes them, for `--flood-seconds`: the events
per second the director stores (each chained, deduplicated, written and acknowledged) and the
CPU it spends, which is what bounds a room's size.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from firmware_host.room.mosquitto import Mosquitto, find_mosquitto, free_port

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, peak RSS) in MB."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


def room_worker(numbers: list[int], url: str, directory: str, speed: float, seconds: float,
                results: Any, seed: int) -> None:
    """Play `numbers` tables for `seconds`; report each play line's (table, seq, wall time)."""
    from firmware_host.emulator.table import EmulatedTable
    from firmware_host.room.broker import BrokerConfig
    from firmware_host.room.demo import Tables

    plays: list[tuple[str, int, float]] = []

    def stamp(table_id: str, table: EmulatedTable) -> None:
        def heard(seq: int, line: bytes, digest: str) -> None:
            if b'"type":"play"' in line:
                plays.append((table_id, seq, time.time()))
        table.journal.listen(heard)

    tables = Tables(numbers, BrokerConfig.from_url(url, venue="bench", insecure_anonymous=True), Path(directory),
                    speed=speed, seed=seed, on_table=stamp)
    tables.start()
    started = time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    played = tables.table_time
    journals = [str(t.journal.path) for t in tables.tables.values()]
    tables.stop()
    results.put({"plays": plays, "speed": played / elapsed, "journals": journals,
                 "cpu": time.process_time()})


def flood_worker(first: int, count: int, url: str, journals: list[str], seconds: float, results: Any) -> None:
    """Publish recorded journals as `count` virtual tables, as fast as the broker takes them."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from firmware_host.room.messages import EventMessage, match_id
    from firmware_host.room.topics import Topics
    from game.record import line_hash

    topics = Topics("bench")
    recorded = [Path(j).read_bytes().splitlines() for j in journals]
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"flood-{first}", protocol=mqtt.MQTTv311)
    client.max_inflight_messages_set(1000)
    client.connect("127.0.0.1", int(url.rsplit(":", 1)[1]))
    client.loop_start()
    # each virtual table plays the recorded journals one after the other, each a match of its own
    stream = [(match_id(lines[0]), seq, line, line_hash(line)) for lines in recorded
              for seq, line in enumerate(lines, 1)]
    names = [f"f{first + i:03d}" for i in range(count)]
    sent, deadline = 0, time.monotonic() + seconds
    in_flight: collections.deque[mqtt.MQTTMessageInfo] = collections.deque()
    for match, seq, line, digest in stream:
        if time.monotonic() > deadline:
            break
        for name in names:
            message = EventMessage(name, match, seq, digest, line)
            in_flight.append(client.publish(topics.table(name, "event"), message.encode(), qos=1))
            sent += 1
            while len(in_flight) > 500:  # as fast as the broker acknowledges, no faster
                in_flight.popleft().wait_for_publish(10)
    while in_flight:
        in_flight.popleft().wait_for_publish(10)
    client.loop_stop()
    client.disconnect()
    results.put({"sent": sent})


class PageClient(threading.Thread):
    """Reads /stream as a page does; stamps when each table's state first reaches each line."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.arrivals: dict[str, list[tuple[int, float]]] = {}
        self.bytes = 0
        self.frames = 0

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port)
        connection.request("GET", "/stream")
        response = connection.getresponse()
        while True:
            line = response.readline()
            if not line:
                return
            self.bytes += len(line)
            if not line.startswith(b"data: "):
                continue
            now = time.time()
            self.frames += 1
            for tile in json.loads(line[6:])["tiles"]:
                state = tile.get("state")
                if not state:
                    continue
                seen = self.arrivals.setdefault(tile["table"], [])
                if not seen or state["seq"] > seen[-1][0]:
                    seen.append((state["seq"], now))

    def first_at(self, table: str, seq: int) -> float | None:
        return next((at for s, at in self.arrivals.get(table, []) if s >= seq), None)


def director_status(port: int) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/room")
    status: dict[str, Any] = json.loads(connection.getresponse().read())["status"]
    return status


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--speed", type=float, default=1.5, help="table seconds per real second")
    parser.add_argument("--seconds", type=float, default=60.0, help="real seconds the room plays")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--flood", type=int, default=256, help="virtual tables for the capacity run (0: none)")
    parser.add_argument("--flood-seconds", type=float, default=20.0)
    args = parser.parse_args()
    if find_mosquitto() is None:
        print("Mosquitto is needed: sudo apt-get install mosquitto", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="bench-room-"))
    broker = Mosquitto(work / "broker")
    broker.start()
    port = free_port()
    director = subprocess.Popen(
        [sys.executable, "-m", "firmware_host", "director", "--broker", broker.url, "--venue", "bench",
         "--data", str(work / "director"), "--listen", f"127.0.0.1:{port}",
         "--insecure-anonymous-broker"], stdout=open(work / "director.log", "w"),
        stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                director_status(port)
                break
            except OSError:
                time.sleep(0.1)
        page = PageClient(port)
        page.start()
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        shares = [list(range(1 + w, args.tables + 1, args.workers)) for w in range(args.workers)]
        workers = [context.Process(target=room_worker, args=(share, broker.url, str(work / "tables"), args.speed,
                                                             args.seconds, results, 1 + w))
                   for w, share in enumerate(shares)]
        for worker in workers:
            worker.start()
        time.sleep(args.warmup)
        cpu0, status0, bytes0, t0 = cpu_seconds(director.pid), director_status(port), page.bytes, time.time()
        broker_cpu0 = cpu_seconds(broker.process.pid)  # type: ignore[union-attr]
        reports = [results.get(timeout=args.seconds + 120) for _ in workers]
        t1, cpu1, status1, bytes1 = time.time(), cpu_seconds(director.pid), director_status(port), page.bytes
        broker_cpu1 = cpu_seconds(broker.process.pid)  # type: ignore[union-attr]
        rss, peak = memory_mb(director.pid)
        for worker in workers:
            worker.join()
        time.sleep(1.0)
        window = t1 - t0
        plays = [p for r in reports for p in r["plays"] if t0 <= p[2] <= t1 - 1.0]
        latencies = [at - when for table, seq, when in plays if (at := page.first_at(table, seq)) is not None]
        missing = len(plays) - len(latencies)
        counts0, counts1 = status0["counts"], status1["counts"]
        messages = (counts1.get("messages", 0) - counts0.get("messages", 0)) / window
        events = (counts1.get("events", 0) - counts0.get("events", 0)) / window
        achieved = statistics.mean(r["speed"] for r in reports)
        print(f"room: {args.tables} emulated tables in {args.workers} processes at {args.speed:g}x "
              f"(achieved {achieved:.2f}x), one Mosquitto, one director; "
              f"{window:.0f} s measured after {args.warmup:.0f} s warm-up, {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.1f} at the start")
        if latencies:
            print(f"  committed play -> director's page: p50 {percentile(latencies, 0.5) * 1000:.0f} ms, "
                  f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms "
                  f"over {len(latencies)} plays ({missing} not seen)")
        handled = counts1.get("messages", 0) - counts0.get("messages", 0)
        per_message = (cpu1 - cpu0) / max(1, handled)
        print(f"  director: {100 * (cpu1 - cpu0) / window:.1f} % of one core ({1000 * per_message:.2f} ms of CPU "
              f"per message, its idle work included), RSS {rss:.0f} MB (peak {peak:.0f} MB)")
        print(f"  broker: {100 * (broker_cpu1 - broker_cpu0) / window:.1f} % of one core")
        print(f"  director in: {messages:.0f} messages/s ({events:.0f} journal lines/s, the rest states and status); "
              f"{messages / args.tables / achieved:.2f} messages/s and {events / args.tables / achieved:.2f} lines/s "
              "per table at real time")
        print(f"  page stream: {(bytes1 - bytes0) / window / 1024:.0f} KiB/s, "
              f"{page.frames / (time.time() - t0 + args.warmup):.1f} frames/s")
        print(f"  rejected {status1['rejected_total']}, duplicates {counts1.get('duplicate', 0)}")
        if args.flood:
            journals = [j for r in reports for j in r["journals"]]
            per = -(-args.flood // args.workers)
            held0, cpu0, t0 = director_status(port)["counts"].get("events", 0), cpu_seconds(director.pid), time.time()
            broker_cpu0 = cpu_seconds(broker.process.pid)  # type: ignore[union-attr]
            floods = [context.Process(target=flood_worker, args=(w * per, min(per, args.flood - w * per), broker.url,
                                                                 journals, args.flood_seconds, results))
                      for w in range(args.workers)]
            for flood in floods:
                flood.start()
            sent = sum(results.get(timeout=args.flood_seconds + 60)["sent"] for _ in floods)
            for flood in floods:
                flood.join()
            t_sent = time.time()
            while director_status(port)["counts"].get("events", 0) - held0 < sent and time.time() - t_sent < 30:
                time.sleep(0.2)
            t1, cpu1 = time.time(), cpu_seconds(director.pid)
            broker_cpu1 = cpu_seconds(broker.process.pid)  # type: ignore[union-attr]
            held = director_status(port)["counts"].get("events", 0) - held0
            rss, peak = memory_mb(director.pid)
            per_line = (cpu1 - cpu0) / max(1, held)
            print(f"capacity: {args.flood} virtual tables publishing recorded journals flat out "
                  f"(load average {os.getloadavg()[0]:.1f}): {sent} lines sent, {held} stored in {t1 - t0:.1f} s "
                  f"= {held / (t1 - t0):.0f} journal lines/s")
            print(f"  director: {100 * (cpu1 - cpu0) / (t1 - t0):.0f} % of one core, {1000 * per_line:.2f} ms of CPU "
                  f"per line stored (so about {1 / per_line:.0f} lines/s on one core), RSS {rss:.0f} MB "
                  f"(peak {peak:.0f} MB); broker {100 * (broker_cpu1 - broker_cpu0) / (t1 - t0):.0f} % of one core")
    finally:
        director.terminate()
        try:
            director.wait(timeout=10)
        except subprocess.TimeoutExpired:
            director.kill()
            director.wait()
        broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
