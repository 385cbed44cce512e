"""`python -m firmware_host room-demo --tables 8`: a whole room on one machine, secured as a venue's.

Mosquitto (started here when no --broker is given) as hardware_docs/room.md documents it: the room's
ACL, a generated login for the director and for each table in a password file, no anonymous client.
N emulated tables with simulated players at a chosen speed, stepped in turn on one thread
(`Tables`), each with its own signing key (enrolled with the director) and its own clock, and
following only the director's signed instructions; the director with its pages. Each table plays
match after match; a few use the traditional rule, one Catchgammon and one Rungammon, so that the
referee has something to do. Ctrl-C or SIGTERM stops everything it started, and removes its
temporary folder (--dir keeps the records).
"""

from __future__ import annotations

import dataclasses
import random
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from firmware_host.emulator.table import TICK, EmulatedTable
from firmware_host.folders import make_directory
from firmware_host.room.broker import BrokerConfig
from firmware_host.settings import Profile, Settings
from game.board import Variant

NAMES = ("Anna", "Bram", "Chen", "Dara", "Emil", "Fay", "Goran", "Hana", "Ivo", "Jun", "Kai", "Lena", "Mo", "Nia",
         "Omar", "Pia", "Quin", "Rosa", "Sven", "Tara", "Uma", "Vik", "Wen", "Xia", "Yuri", "Zoe")


def table_settings(number: int, rng: random.Random) -> Settings:
    """Table `number`'s next match: mostly Backgammon to 3, some traditional-rule tables, two variants."""
    variant = Variant.CATCHGAMMON if number % 8 == 3 else Variant.RUNGAMMON if number % 8 == 6 else Variant.BACKGAMMON
    profile = Profile.TRADITIONAL if number % 4 == 1 else Profile.TOURNAMENT
    white, black = rng.sample(NAMES, 2)
    return Settings(variant=variant, length=3, profile=profile, players=(white, black))


class Tables:
    """Emulated tables on a broker, stepped in turn at `speed` times real time on one thread."""

    def __init__(self, numbers: list[int], broker: BrokerConfig, directory: Path, *, speed: float = 4.0,
                 seed: int = 1, on_table: Callable[[str, EmulatedTable], None] | None = None,
                 passwords: dict[str, str] | None = None, keys: Path | None = None) -> None:
        self.numbers = numbers
        self.passwords = passwords or {}
        """Each table's login (its table id is its user name); without one a table logs in as `broker` says."""
        self.keys = keys
        """Where each table's signing key is (KEYS/tNN.pem); None: the default key, shared by every table."""
        self.broker = broker
        self.directory = directory
        self.speed = speed
        self.rng = random.Random(seed)
        self.on_table = on_table
        """Called with each new match's table, before it plays (a benchmark's hook)."""
        self.tables: dict[int, EmulatedTable] = {}
        self.matches = 0
        self.lag = 0.0
        """Seconds of table time behind the chosen speed (the machine could not keep up)."""
        self.table_time = 0.0
        """Seconds of table time played so far."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="room-tables", daemon=True)

    def table_id(self, number: int) -> str:
        """Table `number`'s id in the room: t01, t02, ..."""
        return f"t{number:02d}"

    def key_path(self, table_id: str) -> Path | None:
        """Where table `table_id`'s signing key is (None: the default key)."""
        return None if self.keys is None else self.keys / f"{table_id}.pem"

    def _new(self, number: int) -> EmulatedTable:
        self.matches += 1
        record = self.directory / self.table_id(number) / f"match-{self.matches:04d}"
        table_id = self.table_id(number)
        config = dataclasses.replace(self.broker, table=table_id)
        if table_id in self.passwords:  # its own login
            config = dataclasses.replace(config, username=table_id, password=self.passwords[table_id])
        table = EmulatedTable(table_settings(number, self.rng), record, seed=self.rng.randrange(10 ** 6),
                              broker=config, flicker_rate=0.0005, start_time=time.time(),
                              key_path=self.key_path(table_id))
        if self.on_table is not None:
            self.on_table(config.table, table)
        return table

    def start(self) -> None:
        """Begin a match at every table and start stepping them (a finished table, once the director
        holds all of its match, begins the next)."""
        for number in self.numbers:
            self.tables[number] = self._new(number)
        self._thread.start()

    def _run(self) -> None:
        started = time.monotonic()
        while not self._stop.is_set():
            for number, table in list(self.tables.items()):
                table.step()
                if table.controller.match.is_over and table.link is not None and table.link.publisher.flush(0):
                    table.close()
                    self.tables[number] = self._new(number)
            self.table_time += TICK
            ahead = self.table_time / self.speed - (time.monotonic() - started)
            if ahead > 0:
                time.sleep(ahead)
            self.lag = max(0.0, -ahead) * self.speed

    def stop(self) -> None:
        """Stop stepping and close every table (each waits up to 2 s for the director to hold its lines)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        for table in self.tables.values():
            table.close()


def demo_referee(directory: Path) -> tuple[str, str, dict[str, str]]:
    """A referee login for trying the room: (name, password, {name: stored hash})."""
    from firmware_host.room.auth import hash_password

    password = secrets.token_urlsafe(8)
    return "referee", password, {"referee": hash_password(password)}


def run_demo(tables: int, speed: float, listen: tuple[str, int], broker_url: str | None,
             directory: Path | None, seconds: float | None, *, insecure_anonymous: bool = False) -> int:
    """The whole room; prints the page's address and a referee login; runs until Ctrl-C or SIGTERM (or
    `seconds`), then stops everything it started."""
    from firmware_host.record.signing import TableKey
    from firmware_host.room.auth import Sessions
    from firmware_host.room.director import KEY_NAME, Director
    from firmware_host.room.mosquitto import INSTALL_HINT, Mosquitto, find_mosquitto
    from firmware_host.room.serving import page_sites, serve, sigterm_as_interrupt
    from firmware_host.room.web import create_app

    if broker_url is None and find_mosquitto() is None:
        print(INSTALL_HINT)
        return 2
    temporary = directory is None
    if directory is not None:
        make_directory(directory, "room's directory (--dir)")
    work = directory or Path(tempfile.mkdtemp(prefix="room-demo-"))
    ids = [f"t{number:02d}" for number in range(1, tables + 1)]
    broker_process = None
    passwords: dict[str, str] = {}
    try:
        with sigterm_as_interrupt():
            if broker_url is None:
                passwords = {name: secrets.token_urlsafe(16) for name in ("director", *ids)}
                broker_process = Mosquitto.secured_room(work / "broker", passwords)
                broker_process.start()
                broker_url = f"mqtt://director:{passwords.pop('director')}@127.0.0.1:{broker_process.port}"
            config = BrokerConfig.from_url(broker_url, venue="demo", insecure_anonymous=insecure_anonymous or None)
            keys = work / "keys"
            enrolled = {table_id: TableKey.load_or_create(keys / f"{table_id}.pem").public for table_id in ids}
            director_key = TableKey.load_or_create(work / "director" / KEY_NAME)
            director = Director(config, work / "director", enrolled=enrolled, key=director_key)
            name, password, referees = demo_referee(work)
            room = Tables(list(range(1, tables + 1)), dataclasses.replace(config, director_key=director_key.public),
                          work / "tables", speed=speed, passwords=passwords, keys=keys)
            try:
                director.start()
                room.start()
                kept = "a temporary folder, removed at the end: --dir keeps them" if temporary else "kept"
                print(f"room: {tables} tables at {speed:g}x on {config.describe()}; records in {work} ({kept})")
                print(f"referee login: name {name!r}, password {password!r}")
                print(f"the director's page: http://{listen[0]}:{listen[1]}/", flush=True)
                serve(create_app(director, Sessions(referees), sites=page_sites(listen, None)), listen, seconds)
            finally:
                room.stop()
                director.close()
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (serving.Terminated)
        pass
    finally:
        if broker_process is not None:
            broker_process.stop()
        if temporary:
            shutil.rmtree(work, ignore_errors=True)
    return 0
