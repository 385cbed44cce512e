"""Fixtures for the room's tests: a real Mosquitto on a free port, a TCP proxy that can cut a
table's connection, a director, emulated tables on the broker, and waiting for a condition;
for the pages, the director's web application served by uvicorn, tables stepped in real time
on a thread (`Runner`) and a real Chromium through selenium (`browser`).

Under CI=true a missing Mosquitto or Chromium fails the test; elsewhere it skips, saying how
to install it.
"""

from __future__ import annotations

import contextlib
import hashlib
import queue
import select
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.emulator.table import EmulatedTable
from firmware_host.room.broker import BrokerConfig
from firmware_host.room.director import Director
from firmware_host.room.mosquitto import INSTALL_HINT, Mosquitto, find_mosquitto, free_port

if TYPE_CHECKING:
    from starlette.applications import Starlette
from needs import IN_CI, require, wait_until

from firmware_host.record.signing import TableKey
from firmware_host.settings import Settings

__all__ = ["IN_CI", "require", "wait_until"]  # the room's tests take them from here too
NO_BROKER = BrokerConfig.from_url("mqtt://127.0.0.1:1", venue="test", insecure_anonymous=True)
"""For a director whose pages are tested alone: no broker there, and none needed."""


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    require("Mosquitto", find_mosquitto(), INSTALL_HINT)
    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture(scope="session")
def shared_mosquitto(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mosquitto]:
    """One Mosquitto for the session (for each xdist worker): tests that never stop the broker share it,
    each on a venue of its own (`venue`)."""
    require("Mosquitto", find_mosquitto(), INSTALL_HINT)
    broker = Mosquitto(tmp_path_factory.mktemp("shared-broker"))
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
def venue(request: pytest.FixtureRequest) -> str:
    """A venue id no other test uses (its topics are its own on a shared broker)."""
    return "v" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:20]


class Proxy:
    """127.0.0.1:port forwarding to the broker; `cut()` drops every connection and refuses new
    ones (as an unplugged network cable would) until `restore()`."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._lock = threading.Lock()
        self.up = True
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                ready, _, _ = select.select([a, b], [], [], 0.2)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    (b if sock is a else a).sendall(data)
        except OSError:
            return
        finally:
            a.close()
            b.close()

    def cut(self) -> None:
        self.up = False
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for a, b in pairs:
            for sock in (a, b):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._listener.close()


@pytest.fixture
def proxy(mosquitto: Mosquitto) -> Iterator[Proxy]:
    forward = Proxy(mosquitto.port)
    yield forward
    forward.close()


def session_key() -> str:
    """The public key every emulated table of the test session signs with (tests/conftest.py)."""
    return TableKey.load_or_create().public


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """`room("director", url)` or `room("table", url, table_id, **EmulatedTable fields)` (`venue=` for
    either: "test" unless given; the director enrols t01 to t09 with the session's key unless `enrolled=`
    says otherwise, and signs with the test's director key, which the tables follow unless `director_key=`
    says otherwise); all closed after."""
    opened: list[Any] = []
    director_key = TableKey.load_or_create(tmp_path / "director-key" / "director-ed25519.pem")

    def make(kind: str, url: str, table: str = "", **fields: Any) -> Any:
        venue = fields.pop("venue", "test")
        if kind == "director":
            fields.setdefault("enrolled", {f"t{n:02d}": session_key() for n in range(1, 10)})
            fields.setdefault("key", director_key)
            config = BrokerConfig.from_url(url, venue=venue, insecure_anonymous=True)
            director = Director(config, fields.pop("data", tmp_path / "director"),
                                ack_interval=0.05, **fields)
            director.start()
            opened.append(director)
            return director
        settings = fields.pop("settings", Settings(length=1))
        seed = fields.pop("seed", len(opened) + 1)
        follows = fields.pop("director_key", director_key.public)
        emulated = EmulatedTable(settings, tmp_path / table, seed, broker=BrokerConfig.from_url(
            url, venue=venue, table=table, director_key=follows, insecure_anonymous=True), **fields)
        opened.append(emulated)
        return emulated

    yield make
    for thing in reversed(opened):
        try:
            thing.close()
        except Exception:
            pass


@contextlib.contextmanager
def serving(app: Starlette) -> Iterator[str]:
    """The director's web application served by uvicorn on a free port, for the block: its address."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until(lambda: server.started, 10, "uvicorn to start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)


CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,1000")


class Runner:
    """Steps the tables about in real time on a thread of its own; `do(f)` runs f between two steps."""

    def __init__(self, tables: list[EmulatedTable]) -> None:
        self.tables = tables
        self._jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[Any]]] = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            while not self._jobs.empty():
                job, done = self._jobs.get()
                done.put(job())
            for table in self.tables:
                table.step()
            time.sleep(0.005)

    def do(self, job: Callable[[], Any]) -> Any:
        done: queue.Queue[Any] = queue.Queue()
        self._jobs.put((job, done))
        return done.get(timeout=10)

    def wait(self, seconds: float) -> None:
        """Let `seconds` of table time pass (the runner steps 10 ms of table time per turn)."""
        clock = self.tables[0].clock
        start = clock.now()
        wait_until(lambda: clock.now() - start >= seconds, 30, "the tables' time to pass")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


@pytest.fixture
def browser() -> Iterator[Any]:
    require("chromium and chromium-driver", shutil.which("chromium") and shutil.which("chromedriver"),
            "sudo apt-get install chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={tempfile.mkdtemp(prefix='chromium-')}"):
        options.add_argument(flag)
    options.binary_location = str(shutil.which("chromium"))
    driver = webdriver.Chrome(service=Service(str(shutil.which("chromedriver"))), options=options)
    yield driver
    driver.quit()


def attribute(driver: Any, selector: str, name: str) -> str | None:
    """An attribute read in one go in the page (tiles are redrawn as the room changes)."""
    value = driver.execute_script("const e = document.querySelector(arguments[0]);"
                                  "return e ? e.getAttribute(arguments[1]) : null;", selector, name)
    return None if value is None else str(value)


def text(driver: Any, selector: str) -> str:
    """An element's text, read in one go in the page."""
    return str(driver.execute_script("const e = document.querySelector(arguments[0]);"
                                     "return e ? e.textContent : '';", selector))


def raw_client(port: int, client_id: str, username: str | None = None, password: str | None = None) -> mqtt.Client:
    """A bare paho client on 127.0.0.1:`port`, looping on its own thread (a watcher, an intruder)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    if username:
        client.username_pw_set(username, password)
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def publish(client: mqtt.Client, topic: str, payload: bytes) -> None:
    """Publish at QoS 1 and wait until the broker has it."""
    client.publish(topic, payload, qos=1).wait_for_publish(5)


@contextlib.contextmanager
def documented_acl_broker(directory: Path, users: dict[str, str]) -> Iterator[Mosquitto]:
    """A Mosquitto with exactly hardware_docs/room.md's ACL and room.conf's client id and packet size settings,
    and these users (name: password) only."""
    require("mosquitto and mosquitto_passwd", find_mosquitto() and shutil.which("mosquitto_passwd"),
            "sudo apt-get install mosquitto")
    doc = (Path(__file__).parents[1] / "hardware_docs" / "room.md").read_text(encoding="utf-8")
    (directory / "acl").write_text(doc.split("```acl\n", 1)[1].split("```", 1)[0], encoding="utf-8")
    passwords = directory / "passwd"
    for number, (user, password) in enumerate(users.items()):
        subprocess.run(["mosquitto_passwd", "-b", *(["-c"] if number == 0 else []), str(passwords), user, password],
                       check=True, capture_output=True)
    settings = [line.split("#")[0].strip() for line in doc.split("```mosquitto\n", 1)[1].split("```", 1)[0].splitlines()
                if line.split(" ")[0] in ("use_username_as_clientid", "max_packet_size")]
    with Mosquitto(directory / "secure", acl_file=directory / "acl", password_file=passwords,
                   extra=tuple(settings)) as broker:
        yield broker
