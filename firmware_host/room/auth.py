"""Who may act: the director's configuration file, referees' passwords stored hashed, sessions.

    # director.toml
    venue = "club"                  # the venue's topics: smartgammon/v1/club/...
    data = "room-data"              # the director's copies of every match
    [[referee]]
    name = "Anna Berg"
    password = "scrypt$16384$8$1$<salt>$<hash>"   # python -m firmware_host director --hash-password
    [[table]]
    id = "t01"
    key = "ed25519:<base64>"        # the table's public key: the `key` of its journal's first line (table_key)

A password is stored as scrypt (RFC 7914, from Python's hashlib) with a random 16-byte salt;
a login gets a random session token (a cookie, HttpOnly, SameSite=Strict) that lasts
`SESSION_SECONDS`. Anyone without a session is a spectator: the pages, no actions.

Wrong logins cost the one trying, not the room: the pages check a password on a worker thread,
one at a time (`Sessions.login`), never on the event loop that serves every page; an unknown name
costs exactly the work of a known one (its time does not tell which names exist); and after
`FREE_FAILURES` wrong logins from one address (`FREE_FAILURES_PER_NAME` for one name, from
anywhere) no password is checked for a while that doubles with each further failure, up to
`MAX_BACKOFF` (`LoginThrottled`). A password is at least `MIN_PASSWORD` characters.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
import tomllib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.errors import ConfigError, LoginThrottled
from firmware_host.room.topics import NAME
from game.errors import GameError

SESSION_SECONDS = 12 * 3600
_N, _R, _P = 2 ** 14, 8, 1
MIN_PASSWORD = 8
FREE_FAILURES = 5
"""Wrong logins from one address before it must wait."""
FREE_FAILURES_PER_NAME = 20
"""Wrong logins for one name, from any address, before it must wait (more than per address, so that
someone guessing from one place cannot lock a referee out at once)."""
FIRST_BACKOFF = 2.0
MAX_BACKOFF = 300.0
TRACKED = 10_000
"""Addresses and names whose failures are remembered at most (the oldest are forgotten first)."""


def check_new_password(password: str) -> str:
    """`password` if it may be a referee's: at least `MIN_PASSWORD` characters; else ConfigError.

    >>> check_new_password("")
    Traceback (most recent call last):
    ...
    firmware_host.errors.ConfigError: a referee's password has at least 8 characters (this one has 0)
    """
    if len(password) < MIN_PASSWORD:
        raise ConfigError(f"a referee's password has at least {MIN_PASSWORD} characters (this one has {len(password)})")
    return password


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """The stored form of a password: scrypt$N$r$p$salt$hash, salt and hash in base64; ConfigError for a
    password shorter than `MIN_PASSWORD`."""
    check_new_password(password)
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    b64 = base64.b64encode
    return f"scrypt${_N}${_R}${_P}${b64(salt).decode()}${b64(digest).decode()}"


def check_password(stored: str, password: str) -> bool:
    """Whether `password` is the one `stored` was made from (in constant time)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest, validate=True)
        actual = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt, validate=True),
                                n=int(n), r=int(r), p=int(p), dklen=len(expected), maxmem=2 ** 26)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


@dataclass(frozen=True)
class DirectorConfig:
    """The director's configuration (director.toml, as in this module's example): venue, copies, referees."""

    venue: str | None = None
    """The venue's id (--venue wins over it; without either, the default venue)."""
    data: Path | None = None
    """Where the director keeps its copies (--data wins over it; without either, room-data/VENUE)."""
    referees: dict[str, str] = field(default_factory=dict)
    """Name -> stored password."""
    tables: dict[str, str] = field(default_factory=dict)
    """Table id -> its public signing key: the tables whose matches can count (firmware_host/room/judge.py)."""

    @classmethod
    def load(cls, path: str | Path) -> DirectorConfig:
        """The configuration in file `path`; ConfigError if it cannot be read, is not TOML, or `parse` refuses it."""
        try:
            raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read director config {path}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"director config {path} is not valid TOML: {exc}") from None
        return cls.parse(raw, str(path))

    @classmethod
    def parse(cls, raw: dict[str, Any], where: str = "director config") -> DirectorConfig:
        """The configuration in a parsed TOML document; ConfigError, naming `where`, for an unknown key,
        a [[referee]] without exactly a name (1 to 64 characters) and a password hash, or a venue or
        data that is not a string. A password written in clear is refused:

        >>> DirectorConfig.parse({"referee": [{"name": "Anna", "password": "hunter2"}]})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        firmware_host.errors.ConfigError: director config: [[referee]] 'Anna': password must be a hash from ...
        """
        unknown = set(raw) - {"venue", "data", "referee", "table"}
        if unknown:
            raise ConfigError(f"{where}: unknown keys {sorted(unknown)} (known: venue, data, [[referee]], [[table]])")
        referees: dict[str, str] = {}
        for number, entry in enumerate(raw.get("referee", []), 1):
            if not isinstance(entry, dict) or set(entry) != {"name", "password"}:
                raise ConfigError(f"{where}: [[referee]] {number} needs exactly name and password")
            name, stored = entry["name"], entry["password"]
            if not isinstance(name, str) or not 0 < len(name) <= 64:
                raise ConfigError(f"{where}: [[referee]] {number}: name must be 1 to 64 characters")
            if not isinstance(stored, str) or not stored.startswith("scrypt$") or stored.count("$") != 5:
                raise ConfigError(f"{where}: [[referee]] {name!r}: password must be a hash from "
                                      "`python -m firmware_host director --hash-password`, not the password")
            referees[name] = stored
        venue, data = raw.get("venue"), raw.get("data")
        if venue is not None and not isinstance(venue, str) or data is not None and not isinstance(data, str):
            raise ConfigError(f"{where}: venue and data are strings")
        return cls(venue, Path(data) if data else None, referees, _tables(raw.get("table", []), where))


def _tables(entries: Any, where: str) -> dict[str, str]:
    """The [[table]] entries: id -> public key; ConfigError for a bad id or key, or an id twice."""
    from game.integrity import read_trusted

    tables: dict[str, str] = {}
    for number, entry in enumerate(entries if isinstance(entries, list) else [entries], 1):
        if not isinstance(entry, dict) or set(entry) != {"id", "key"}:
            raise ConfigError(f"{where}: [[table]] {number} needs exactly id and key")
        table, key = entry["id"], entry["key"]
        if not isinstance(table, str) or not NAME.fullmatch(table) or table in tables:
            raise ConfigError(f"{where}: [[table]] {number}: id {table!r} is not a new table id (A-Z a-z 0-9 _ -)")
        try:
            tables[table] = next(iter(read_trusted(key if isinstance(key, str) else "")))
        except (GameError, StopIteration):
            raise ConfigError(f"{where}: [[table]] {table!r}: key must be ed25519:... "
                              "(the table's public key)") from None
    return tables


class Backoff:
    """Wrong logins per key (an address, a name): after `free` of them the key waits `FIRST_BACKOFF` s,
    doubling with each further failure up to `MAX_BACKOFF`; a success forgets the key."""

    def __init__(self, free: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.free = free
        self._clock = clock
        self._failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # key -> (failures, wait until)

    def wait(self, key: str) -> float:
        """Seconds `key` must still wait before a password is checked for it (0: none)."""
        failures, until = self._failures.get(key, (0, 0.0))
        return max(0.0, until - self._clock())

    def failed(self, key: str) -> None:
        """One more wrong login for `key`."""
        failures = self._failures.pop(key, (0, 0.0))[0] + 1
        extra = failures - self.free + 1  # the free-th failure already makes the key wait
        until = self._clock() + min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (extra - 1)) if extra > 0 else 0.0
        self._failures[key] = (failures, until)
        while len(self._failures) > TRACKED:
            self._failures.popitem(last=False)

    def succeeded(self, key: str) -> None:
        """A right login for `key`: its failures are forgotten."""
        self._failures.pop(key, None)


class Sessions:
    """Referees' logins: a token per login, forgotten when it expires or on logout; wrong logins
    throttled per address and per name (this module's docstring)."""

    def __init__(self, referees: dict[str, str], *, lifetime: float = SESSION_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.referees = referees
        self.lifetime = lifetime
        self._tokens: dict[str, tuple[str, float]] = {}
        self._decoy = hash_password(secrets.token_urlsafe(16))
        """Checked for an unknown name: the same work as a known one."""
        self._checking = threading.Lock()
        """One password checked at a time: scrypt takes a core, and the pages need the other."""
        self._by_address = Backoff(FREE_FAILURES, clock)
        self._by_name = Backoff(FREE_FAILURES_PER_NAME, clock)
        self._throttle = threading.Lock()
        self.failures = 0
        """Wrong logins so far (throttled ones included)."""
        self.throttled = 0
        """Logins refused unchecked, for waiting."""

    def login(self, name: str, password: str, address: str = "") -> str | None:
        """A new session token, or None for a wrong name or password; LoginThrottled (without checking the
        password) while `address` or `name` must wait. Slow (scrypt): call it off the event loop."""
        with self._throttle:
            wait = max(self._by_address.wait(address), self._by_name.wait(name))
            if wait > 0:
                self.failures += 1
                self.throttled += 1
                raise LoginThrottled(f"too many wrong logins: try again in {wait:.0f} s", wait)
        stored = self.referees.get(name)
        with self._checking:
            right = check_password(stored if stored is not None else self._decoy, password) and stored is not None
        with self._throttle:
            if not right:
                self.failures += 1
                self._by_address.failed(address)
                self._by_name.failed(name)
                return None
            self._by_address.succeeded(address)
            self._by_name.succeeded(name)
        token = secrets.token_urlsafe(32)
        self._tokens[token] = (name, time.monotonic() + self.lifetime)
        return token

    def referee(self, token: str | None) -> str | None:
        """The referee logged in with `token`, if any."""
        if not token or token not in self._tokens:
            return None
        name, expires = self._tokens[token]
        if time.monotonic() > expires:
            del self._tokens[token]
            return None
        return name

    def logout(self, token: str | None) -> None:
        """End the session of `token` (nothing for an unknown or expired one, or none)."""
        self._tokens.pop(token or "", None)
