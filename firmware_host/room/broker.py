"""Where the broker is and how to log in: `BrokerConfig`, from a URL (the command line, or the
table's [broker] section, which `firmware_host.config` checks); `new_client` makes the paho-mqtt
client both sides use.

    mqtt://[USER[:PASSWORD]@]HOST[:PORT]     plain TCP, port 1883 by default
    mqtts://[USER[:PASSWORD]@]HOST[:PORT]    TLS, port 8883 by default (`ca_file` to trust a private CA)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from firmware_host.errors import ConfigError
from firmware_host.room.topics import check_name

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

DEFAULT_VENUE = "room"


@dataclass(frozen=True)
class BrokerConfig:
    """A broker and this client's identity on it; `table` is "" for the director."""

    host: str
    port: int = 1883
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    venue: str = DEFAULT_VENUE
    table: str = ""
    keepalive: int = 10
    director_key: str | None = None
    """A table's: the director's public key (ed25519:..., the director prints it at start); the table
    follows only rulings and decisions signed with it."""
    insecure_anonymous: bool = False
    """Connect without a login all the same (--insecure-anonymous-broker): a test's or a private broker."""

    def __post_init__(self) -> None:
        check_name("venue", self.venue)
        if self.table:
            check_name("table", self.table)
        if not 0 < self.port < 65536:
            raise ConfigError(f"broker port {self.port} is not 1 to 65535")
        if self.director_key is not None:
            from game.errors import GameError
            from game.integrity import read_trusted

            try:
                read_trusted(self.director_key)
            except GameError:
                raise ConfigError(f"director key {self.director_key[:60]!r} is not a public key: put there the "
                                  "director's, 'ed25519:' and 44 characters, the line it prints when it "
                                  "starts") from None

    @classmethod
    def from_url(cls, url: str, **fields: Any) -> BrokerConfig:
        """A config from `mqtt://user:password@host:port` (and any other field by keyword)."""
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise ConfigError(f"broker URL {url!r} is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
        try:
            port = parts.port
        except ValueError:
            raise ConfigError(f"broker URL {url!r} has a bad port") from None
        tls = parts.scheme == "mqtts"
        credentials = {"username": unquote(parts.username) if parts.username else None,
                       "password": unquote(parts.password) if parts.password else None}
        given = {k: v for k, v in fields.items() if v is not None}
        return cls(parts.hostname, port or (8883 if tls else 1883), tls, **{**credentials, **given})

    def require_login(self) -> None:
        """ConfigError unless the config logs in with a user name (or says `insecure_anonymous`): on a
        broker that lets anyone in, anyone on the network reads every phone code's verifier and writes
        every table's topics."""
        if self.username is None and not self.insecure_anonymous:
            raise ConfigError(f"broker {self.describe()} has no login: give mqtt://USER:PASSWORD@HOST "
                              "(hardware_docs/room.md, The broker), or --insecure-anonymous-broker to run "
                              "a room that anyone on the network can read and write")

    def describe(self) -> str:
        """Where, without the password."""
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"


def accepts_anonymous(config: BrokerConfig, timeout: float = 5.0) -> bool:
    """Whether the broker of `config` lets a client in without a user name (a probe: connect, disconnect)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    probe = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="", protocol=mqtt.MQTTv311)
    if config.tls:
        probe.tls_set(ca_certs=config.ca_file)
    answered: list[bool] = []
    probe.on_connect = lambda client, userdata, flags, reason, properties: answered.append(not reason.is_failure)
    try:
        probe.connect(config.host, config.port, keepalive=5)
    except OSError:
        return False  # no broker there (yet): the director's own connection will say so
    probe.loop_start()
    deadline = time.monotonic() + timeout
    while not answered and time.monotonic() < deadline:
        time.sleep(0.02)
    probe.disconnect()
    probe.loop_stop()
    return bool(answered and answered[0])


def new_client(config: BrokerConfig, client_id: str, *, clean_session: bool = True,
               will: tuple[str, bytes] | None = None) -> mqtt.Client:
    """A paho-mqtt client (MQTT 3.1.1) for `config`: credentials, TLS, last will, reconnection
    between 0.2 and 5 seconds. Connect it with `connect_async` and `loop_start`."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session,
                         protocol=mqtt.MQTTv311)
    if config.username:
        client.username_pw_set(config.username, config.password)
    if config.tls:
        client.tls_set(ca_certs=config.ca_file, certfile=config.cert_file, keyfile=config.key_file)
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.reconnect_delay_set(min_delay=0.2, max_delay=5)  # type: ignore[arg-type]
    client.max_inflight_messages_set(100)
    client.max_queued_messages_set(0)
    client.suppress_exceptions = True  # a callback's failure is logged; paho's thread (the session) goes on
    return client
