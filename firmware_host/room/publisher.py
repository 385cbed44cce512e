"""A table's side of the broker: every journal line offered is sent, in order, until the
director acknowledges it; the state goes out retained (the latest only); rulings (and, at a
chouette, members' decisions from their phones) come back.

Nothing here blocks the table: `offer`, `set_state`, `reply`, `take_rulings` and `take_decisions` only touch
memory under a lock. A thread of the publisher's own hands messages to paho-mqtt, whose own
thread talks to the broker and reconnects after a loss. Lines stay here until the director
acknowledges them (its `ack`, retained, says how many lines of the match it holds on disk):

- after a reconnection, after the director comes back, or when no acknowledgement has come
  for a while (`resend_after`, doubling up to a minute), sending starts again from the first
  line not acknowledged (the director drops what it already has);
- at most `window` lines are in flight beyond the acknowledged ones.
The current match keeps all its lines (an acknowledgement that goes backwards, from a
director that lost its copy, is served from them); an earlier match is dropped once acknowledged.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from firmware_host.errors import ConfigError, MessageRejected
from firmware_host.room.broker import BrokerConfig, new_client
from firmware_host.room.messages import (
    Ack,
    Decided,
    Decision,
    EventMessage,
    Reply,
    Ruling,
    check_seal,
    decode_ack,
    decode_decision,
    decode_ruling,
    decode_status,
    encode_status,
)
from firmware_host.room.topics import Topics

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

_log = logging.getLogger(__name__)
SUBSCRIBE_GRACE = 0.3
"""Seconds after subscribing before sending: the retained acknowledgement arrives first."""


@dataclass
class _Stream:
    """One match's journal lines (index i is line i + 1) and how far the director has them."""

    match: str
    lines: list[tuple[bytes, str]]
    acked: int = 0
    sent: int = 0  # lines[acked:sent] are in flight


@dataclass
class PublisherStats:
    """Counts of what a publisher has done, for tests and diagnosis."""

    sent: int = 0
    resent: int = 0
    """Lines sent again (after a rewind)."""
    rewinds: int = 0
    """Times sending started again from the first line not acknowledged (with lines in flight)."""
    states: int = 0
    rejected: int = 0
    """Messages for this table it did not accept (a garbled ack, ruling or decision)."""
    connects: int = 0
    failed_connects: int = 0
    """Attempts to connect that found no broker (paho retries them, 0.2 to 5 s apart)."""
    last_rejection: str = ""
    """The topic and reason of the latest message rejected."""


@dataclass
class TablePublisher:
    """A table's side of the broker (see the module's docstring): `start` it, `offer` it journal lines,
    `set_state`, `reply` to rulings and decisions, `take_rulings` and `take_decisions`; `close` it."""

    config: BrokerConfig
    window: int = 500
    """Lines in flight at most beyond those acknowledged."""
    resend_after: float = 3.0
    """Seconds without an acknowledgement before sending again (doubling up to a minute)."""
    state_interval: float = 0.05
    """Seconds at least between two states published (the latest is sent, those between are dropped)."""
    client_factory: Callable[..., mqtt.Client] = new_client
    stats: PublisherStats = field(default_factory=PublisherStats)

    def __post_init__(self) -> None:
        if not self.config.table:
            raise ConfigError("a table on the broker needs a table id ([broker] table, or --table)")
        self.config.require_login()
        self.table = self.config.table
        self.topics = Topics(self.config.venue)
        self._cond = threading.Condition()
        self._streams: list[_Stream] = []
        self._state: bytes | None = None
        self._state_at = 0.0
        self._replies: deque[Reply | Decided] = deque()
        self._rulings: deque[Ruling] = deque()
        self._decisions: deque[Decision] = deque()
        self.connected = False
        self._ready_at: float | None = None
        self._progress_at = time.monotonic()
        self._backoff = self.resend_after
        self._director: str | None = None  # the director instance last seen online; "" when offline
        self._closed = False
        self._client = self.client_factory(self.config, f"smartgammon-table-{self.table}", clean_session=True,
                                           will=(self._topic("status"), encode_status(False, table=self.table)))
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_connect_fail = self._on_connect_fail
        self._client.on_subscribe = self._on_subscribe
        self._client.on_message = self._on_message
        self._thread = threading.Thread(target=self._run, name=f"room-publisher-{self.table}", daemon=True)

    def _topic(self, channel: Any) -> str:
        return self.topics.table(self.table, channel)

    # -- the table's side: memory only ---------------------------------------------------

    def start(self) -> None:
        """Connect in the background (retrying until the broker answers) and start sending."""
        self._client.connect_async(self.config.host, self.config.port, keepalive=self.config.keepalive)
        self._client.loop_start()
        self._thread.start()

    def open_match(self, match: str, lines: list[tuple[bytes, str]]) -> None:
        """Start relaying a match's journal: its lines so far (line, hash), then `offer` the new ones."""
        with self._cond:
            self._streams = [s for s in self._streams if s.match != match and s.acked < len(s.lines)]
            self._streams.append(_Stream(match, list(lines)))
            self._cond.notify()

    def offer(self, match: str, seq: int, line: bytes, digest: str) -> None:
        """Journal line `seq` of the current match has been written: send it."""
        with self._cond:
            stream = self._streams[-1]
            if stream.match != match or seq != len(stream.lines) + 1:
                raise ConfigError(f"line {seq} of match {match} does not follow line {len(stream.lines)} "
                                      f"of match {stream.match}")
            stream.lines.append((line, digest))
            self._cond.notify()

    def set_state(self, payload: bytes) -> None:
        """The table's state now (published retained; only the latest is kept)."""
        with self._cond:
            self._state = payload
            self._cond.notify()

    def reply(self, reply: Reply | Decided) -> None:
        """What the table did with a ruling (a `Reply`) or a member's decision (`Decided`): send it to the director."""
        with self._cond:
            self._replies.append(reply)
            self._cond.notify()

    def take_rulings(self) -> list[Ruling]:
        """The rulings received since the last call, in order."""
        with self._cond:
            out = list(self._rulings)
            self._rulings.clear()
            return out

    def take_decisions(self) -> list[Decision]:
        """The chouette members' decisions received since the last call, in order."""
        with self._cond:
            out = list(self._decisions)
            self._decisions.clear()
            return out

    @property
    def unacknowledged(self) -> int:
        """Lines offered that the director has not acknowledged yet, over every match kept."""
        with self._cond:
            return sum(len(s.lines) - s.acked for s in self._streams)

    def acknowledged(self, match: str) -> int:
        """How many lines of `match` the director holds (0 for a match not kept: an earlier match is
        dropped once acknowledged)."""
        with self._cond:
            return next((s.acked for s in self._streams if s.match == match), 0)

    def flush(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the director to acknowledge everything; True if it did."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while any(s.acked < len(s.lines) for s in self._streams):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.1))
        return True

    def close(self, flush_timeout: float = 0.0) -> None:
        """Stop: after up to `flush_timeout` s for outstanding lines, say offline, disconnect."""
        if flush_timeout > 0 and self.connected:
            self.flush(flush_timeout)
        with self._cond:
            self._closed = True
            self._cond.notify()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        if self.connected:
            info = self._client.publish(self._topic("status"), encode_status(False, table=self.table),
                                        qos=1, retain=True)
            try:
                info.wait_for_publish(timeout=2)
            except RuntimeError:  # disconnected meanwhile: the last will says it
                pass
        self._client.disconnect()
        self._client.loop_stop()

    # -- paho's thread ----------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            _log.warning("table %s: broker %s refused the connection: %s", self.table, self.config.describe(), reason)
            return
        client.subscribe([(self._topic("ack"), 1), (self._topic("ruling"), 1), (self._topic("decision"), 1),
                          (self.topics.director_status, 1)])
        client.publish(self._topic("status"), encode_status(True, table=self.table, since=round(time.time(), 3)),
                       qos=1, retain=True)
        with self._cond:
            self.connected = True
            self.stats.connects += 1
            self._ready_at = None
            self._rewind()
            self._cond.notify()

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        with self._cond:
            self.stats.failed_connects += 1

    def _on_subscribe(self, client: mqtt.Client, userdata: Any, mid: int, reasons: Any, properties: Any) -> None:
        with self._cond:
            self._ready_at = time.monotonic() + SUBSCRIBE_GRACE
            self._cond.notify()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self._cond:
            self.connected = False
            self._ready_at = None

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        payload = bytes(message.payload)
        try:
            if message.topic == self._topic("ack"):
                self._acknowledged(decode_ack(payload))
            elif message.topic == self._topic("ruling"):
                check_seal(payload, self.config.venue, self.table, self.config.director_key)
                ruling = decode_ruling(payload)
                with self._cond:
                    self._rulings.append(ruling)
            elif message.topic == self._topic("decision"):
                check_seal(payload, self.config.venue, self.table, self.config.director_key)
                decision = decode_decision(payload)
                with self._cond:
                    self._decisions.append(decision)
            elif message.topic == self.topics.director_status:
                status = decode_status(payload)
                instance = str(status.get("instance", "")) if status["online"] else ""
                with self._cond:
                    if instance and instance != self._director:
                        self._rewind()  # a director (re)started: offer it what it has not acknowledged
                    self._director = instance
                    self._cond.notify()
        except MessageRejected as exc:
            self._reject(message.topic, str(exc))
        except Exception as exc:  # one message must never stop paho's thread, and with it the table's link
            _log.exception("table %s: failed handling a message on %s", self.table, message.topic[:200])
            self._reject(message.topic, f"failed: {type(exc).__name__}: {exc}")

    def _reject(self, topic: str, why: str) -> None:
        with self._cond:
            self.stats.rejected += 1
            self.stats.last_rejection = f"{topic[:200]}: {why[:300]}"
        _log.warning("table %s: rejected %s: %s", self.table, topic[:200], why[:300])

    def _acknowledged(self, ack: Ack) -> None:
        with self._cond:
            for stream in self._streams:
                if stream.match != ack.match:
                    continue
                seq = min(ack.seq, len(stream.lines))
                if seq > stream.acked:
                    self._progress_at, self._backoff = time.monotonic(), self.resend_after
                elif seq < stream.acked:  # the director has less than it had: serve it again
                    stream.sent = seq
                stream.acked = seq
                stream.sent = max(stream.sent, seq)
            current = self._streams[-1:] if self._streams else []
            self._streams = [s for s in self._streams[:-1] if s.acked < len(s.lines)] + current
            self._cond.notify_all()

    # -- the publisher's thread -----------------------------------------------------------------

    def _rewind(self) -> None:
        """Send again from the first line not acknowledged (the caller holds the lock)."""
        if any(s.sent > s.acked for s in self._streams):
            self.stats.rewinds += 1
        for stream in self._streams:
            self.stats.resent += stream.sent - stream.acked
            stream.sent = stream.acked
        self._progress_at = time.monotonic()

    def _run(self) -> None:
        while True:
            with self._cond:
                batch = self._due(time.monotonic())
                while not batch and not self._closed:
                    self._cond.wait(self._sleep(time.monotonic()))
                    batch = self._due(time.monotonic())
                if not batch and self._closed:
                    return
            for topic, payload, retain in batch:
                self._client.publish(topic, payload, qos=1, retain=retain)

    def _sleep(self, now: float) -> float:
        """How long nothing can fall due without a notification (the caller holds the lock)."""
        wake = now + 0.5  # the resend timer
        if self._state is not None:
            wake = min(wake, self._state_at + self.state_interval)
        if self._ready_at is not None and self._ready_at > now:
            wake = min(wake, self._ready_at)
        return max(0.001, wake - now)

    def _due(self, now: float) -> list[tuple[str, bytes, bool]]:
        """The messages to hand to paho now (the caller holds the lock)."""
        if not self.connected:
            return []
        batch: list[tuple[str, bytes, bool]] = []
        if self._state is not None and now - self._state_at >= self.state_interval:
            batch.append((self._topic("state"), self._state, True))
            self._state, self._state_at = None, now
            self.stats.states += 1
        while self._replies:
            reply = self._replies.popleft()
            batch.append((self._topic("decided" if isinstance(reply, Decided) else "reply"), reply.encode(), False))
        if self._ready_at is None or now < self._ready_at:
            return batch
        in_flight = sum(s.sent - s.acked for s in self._streams)
        if not in_flight:
            self._progress_at = now  # the resend timer counts from the first line in flight
        elif now - self._progress_at > self._backoff and self._director != "":
            self._rewind()
            self._backoff = min(self._backoff * 2, 60.0)
            in_flight = 0
        budget = min(self.window - in_flight, 200)
        for stream in self._streams:
            while budget > 0 and stream.sent < len(stream.lines):
                line, digest = stream.lines[stream.sent]
                stream.sent += 1
                budget -= 1
                message = EventMessage(self.table, stream.match, stream.sent, digest, line)
                batch.append((self._topic("event"), message.encode(), False))
                self.stats.sent += 1
        return batch
