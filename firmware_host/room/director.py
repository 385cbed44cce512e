"""The director: subscribes to every table of a venue, keeps a copy of each match (`store`),
acknowledges what it holds, sends the referees' rulings and chouette members' decisions from their
phones, and counts what it rejects.

Messages are taken on paho-mqtt's thread (`receive`, which tests may also call directly);
a thread of the director's own acknowledges every `ack_interval` (after fsyncing the copies)
and sends again a ruling (or a decision) no table has answered. The pages read it under its lock, and learn
what changed from `version` and `changed_since`.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_host.errors import ConfigError, MessageRejected
from firmware_host.record.signing import TableKey
from firmware_host.room.broker import BrokerConfig, new_client
from firmware_host.room.judge import VERIFIED, judge
from firmware_host.room.messages import (
    ACTIONS,
    ANSWERS,
    Ack,
    Decided,
    Decision,
    EventMessage,
    Reply,
    Ruling,
    decode_ack,
    decode_decided,
    decode_event,
    decode_reply,
    decode_state,
    decode_status,
    encode_status,
    phone_verifier,
    seal,
)
from firmware_host.room.store import Store
from firmware_host.room.topics import Topics

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

_log = logging.getLogger(__name__)
RULING_RESEND = 3.0
KEY_NAME = "director-ed25519.pem"
"""The director's signing key, made in its data directory on the first start unless one is given."""


@dataclass
class TableRecord:
    """What the director knows of one table."""

    id: str
    state: dict[str, Any] | None = None
    online: bool | None = None
    seen: float = 0.0
    rulings: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=20))
    """The latest rulings sent to the table, with their outcome once it replied."""
    decisions: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=20))
    """The latest chouette members' decisions sent to the table, with the table's answer once it came."""


@dataclass
class Rejection:
    """A message the director did not accept, for the pages' status line: when (wall clock), on which
    topic, and why (MessageRejected's reason and detail; topic and detail cut short)."""

    at: float
    topic: str
    reason: str
    detail: str


class Director:
    """A venue's director: subscribes to all of the venue, keeps a copy of every match under `data`,
    acknowledges what it holds, sends the referees' rulings, and counts what it rejects; the pages
    read it under `lock`. `start` it, `close` it."""

    def __init__(self, config: BrokerConfig, data: str | Path, *, ack_interval: float = 0.2,
                 enrolled: Mapping[str, str] | None = None, key: TableKey | None = None,
                 client_factory: Callable[..., mqtt.Client] = new_client,
                 wall_clock: Callable[[], float] = time.time) -> None:
        config.require_login()
        self.config = config
        self.enrolled = dict(enrolled or {})
        """Table id -> its public signing key (director.toml's [[table]]): only their matches can count."""
        self.key = key or TableKey.load_or_create(Path(data) / KEY_NAME)
        """Signs every ruling and decision; the tables know its public half ([broker] director_key)."""
        self.topics = Topics(config.venue)
        self.store = Store(data)
        self.ack_interval = ack_interval
        self._wall = wall_clock
        self.lock = threading.RLock()
        self.tables: dict[str, TableRecord] = {t: TableRecord(t) for t in self.store.copies}
        self.counts: Counter[str] = Counter()
        self.rejected: Counter[str] = Counter()
        self.rejections: deque[Rejection] = deque(maxlen=50)
        self.version = 0
        self._changed: dict[str, int] = {}
        self._acks_due: set[tuple[str, str]] = set()
        self._pending: dict[str, tuple[str, Ruling | Decision, float]] = {}  # id -> (table, message, last sent)
        self._judging = {(t, c.match) for t, matches in self.store.copies.items() for c in matches.values() if c.sealed}
        """Sealed matches to judge (`judge_due`), on the director's own thread."""
        self.connected = False
        self.instance = secrets.token_hex(8)
        self._closed = threading.Event()
        self._client = client_factory(config, f"smartgammon-director-{config.venue}", clean_session=False,
                                      will=(self.topics.director_status, encode_status(False)))
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = lambda client, userdata, message: self.receive(message.topic, bytes(message.payload))
        self._thread = threading.Thread(target=self._run, name="room-director", daemon=True)

    # -- life -----------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (paho retries until the broker answers); start acknowledging, resending rulings."""
        self._client.connect_async(self.config.host, self.config.port, keepalive=self.config.keepalive)
        self._client.loop_start()
        self._thread.start()

    def close(self) -> None:
        """Stop: acknowledge what arrived, say offline (retained), disconnect, force the copies to disk
        (nothing the second time)."""
        if self._closed.is_set():
            return
        self._closed.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self._send_acks()
        if self.connected:
            self._client.publish(self.topics.director_status, encode_status(False), qos=1, retain=True)
        self._client.disconnect()
        self._client.loop_stop()
        with self.lock:
            self.store.close()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            _log.warning("director: broker %s refused the connection: %s", self.config.describe(), reason)
            return
        client.subscribe(self.topics.everything, qos=1)
        client.publish(self.topics.director_status, encode_status(True, instance=self.instance), qos=1, retain=True)
        with self.lock:
            self.connected = True
            self._acks_due |= {(t, m.match) for t in self.store.copies if (m := self.store.latest(t))}
            self._touch("")

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self.lock:
            self.connected = False
            self._touch("")

    # -- messages in ----------------------------------------------------------------------

    def receive(self, topic: str, payload: bytes) -> None:
        """Take one message from the broker: accepted, or rejected and counted (never raised)."""
        with self.lock:
            self.counts["messages"] += 1
            try:
                table, channel = self.topics.parse(topic)
                if channel in ("ruling", "decision", "director"):
                    return  # the director's own messages, back from the broker
                if channel == "ack":
                    self._own_ack(table, decode_ack(payload))
                    return
                if channel == "event":
                    message = decode_event(payload, table)
                    self._event(self._seen(table), message)
                elif channel == "state":
                    state = decode_state(payload, table)
                    self._seen(table).state = state
                    self.counts["states"] += 1
                elif channel == "status":
                    online = bool(decode_status(payload)["online"])
                    self._seen(table).online = online
                elif channel == "reply":
                    self._reply(table, decode_reply(payload))
                elif channel == "decided":
                    self._decided(table, decode_decided(payload))
                self._touch(table)
            except MessageRejected as exc:
                self._reject(topic, exc.reason, exc.detail)
            except Exception as exc:  # one message must never stop paho's thread, and with it the room
                _log.exception("director: failed handling a message on %s", topic[:200])
                self._reject(topic, "failed", f"{type(exc).__name__}: {exc}")

    def _reject(self, topic: str, reason: str, detail: str) -> None:
        self.rejected[reason] += 1
        self.rejections.append(Rejection(self._wall(), topic[:200], reason, detail[:300]))
        self._touch("")
        _log.warning("director: rejected a message on %s: %s: %s", topic[:200], reason, detail[:300])

    def _table(self, table: str) -> TableRecord:
        if table not in self.tables:
            self.tables[table] = TableRecord(table)
        return self.tables[table]

    def _seen(self, table: str) -> TableRecord:
        """The table a message was accepted from (a table appears with its first good message)."""
        record = self._table(table)
        record.seen = self._wall()
        return record

    def _event(self, record: TableRecord, message: EventMessage) -> None:
        try:
            outcome, added = self.store.receive(message)
        finally:
            self._acks_due.add((record.id, message.match))
        self.counts[outcome] += 1
        self.counts["events"] += added
        copy = self.store.find(record.id, message.match)
        if added and copy is not None and copy.finished:
            copy.verdict = None  # judged again with its new lines (a table adds none after its seal)
            if copy.sealed:
                self._judging.add((record.id, copy.match))

    def judge_due(self) -> int:
        """Judge the matches sealed since the last call (`judge.judge`: the enrolled key, every signature,
        the rules' replay), outside the lock; returns how many were judged."""
        with self.lock:
            due, self._judging = self._judging, set()
            work = [(t, copy, copy.key, copy.flaw, self.enrolled.get(t)) for t, m in sorted(due)
                    if (copy := self.store.find(t, m)) is not None and "chouette" not in copy.summary]
        verdicts = [(t, copy, copy.held, judge(t, copy.match, copy.read_bytes(), key, flaw, enrolled))
                    for t, copy, key, flaw, enrolled in work]
        with self.lock:
            for table, copy, held, verdict in verdicts:
                if copy.held == held:  # else it grew meanwhile, and is queued again
                    copy.verdict = verdict
                    self.counts["verified" if verdict == VERIFIED else "unverified"] += 1
                    self._touch(table)
        return len(verdicts)

    def _own_ack(self, table: str, ack: Ack) -> None:
        """A retained ack, ours from before a restart: if it claims more than we hold, correct it."""
        copy = self.store.find(table, ack.match)
        if copy is None or copy.held < ack.seq:
            self._acks_due.add((table, ack.match))

    def _reply(self, table: str, reply: Reply) -> None:
        pending = self._pending.pop(reply.id, None)
        record = self.tables.get(table)
        for ruling in record.rulings if record else ():
            if ruling["id"] == reply.id:
                ruling.update(applied=reply.applied, outcome=reply.outcome, seq=reply.seq)
                self._seen(table)
                return
        if pending is None:
            raise MessageRejected("unexpected", f"table {table}: a reply to ruling {reply.id}, which was not sent")

    def _decided(self, table: str, decided: Decided) -> None:
        self._pending.pop(decided.id, None)
        record = self.tables.get(table)
        for decision in record.decisions if record else ():
            if decision["id"] == decided.id:
                decision.update(applied=decided.applied, outcome=decided.outcome, seq=decided.seq)
                self._seen(table)
                return
        raise MessageRejected("unexpected", f"table {table}: an answer to decision {decided.id}, which was not sent")

    # -- messages out ---------------------------------------------------------------------------

    def rule(self, table: str, referee: str, action: str, *, flag: int | None = None, player: str | None = None,
             seconds: float = 0.0) -> Ruling:
        """Send a referee's ruling to a table (again every few seconds until it answers)."""
        if action not in ACTIONS:
            raise ConfigError(f"unknown ruling {action!r} (one of {', '.join(ACTIONS)})")
        ruling = Ruling(secrets.token_hex(8), referee, action, flag, player, float(seconds))
        with self.lock:
            record = self._table(table)
            record.rulings.append({"id": ruling.id, "referee": referee, "action": action, "flag": flag,
                                   "player": player, "seconds": seconds, "at": self._wall(), "outcome": None})
            self._pending[ruling.id] = (table, ruling, time.monotonic())
            self._touch(table)
        self._client.publish(self.topics.table(table, "ruling"), self._sealed(table, ruling), qos=1)
        return ruling

    def member_may_decide(self, table: str, player: str, code: str) -> bool:
        """Whether `code` is `player`'s phone code at `table`'s chouette now (its state's verifier, compared
        in constant time); False for a table, a session or a player the director does not know."""
        with self.lock:
            record = self.tables.get(table)
            state = record.state if record else None
            chouette = (state or {}).get("chouette") or {}
            stored = (chouette.get("phones") or {}).get(player)
            if state is None or not isinstance(stored, str):
                return False
            given = phone_verifier(table, str(state["match"]), player, code)
        return hmac.compare_digest(given, stored)

    def bot_level(self, table: str, player: str) -> str | None:
        """`player`'s level when they are a bot at `table`'s chouette now (its state's `bots`), else None."""
        with self.lock:
            record = self.tables.get(table)
            chouette = ((record.state if record else None) or {}).get("chouette") or {}
            level = (chouette.get("bots") or {}).get(player)
        return level if isinstance(level, str) else None

    def decide(self, table: str, player: str, ask: str, answer: str) -> Decision:
        """Send chouette member `player`'s `answer` to the decision `ask` at `table` (again every few seconds
        until the table answers); the caller has checked the member's code (`member_may_decide`)."""
        if answer not in ANSWERS:
            raise ConfigError(f"unknown answer {answer!r} (one of {', '.join(ANSWERS)})")
        decision = Decision(secrets.token_hex(8), table, ask, player, answer)
        with self.lock:
            self._table(table).decisions.append({"id": decision.id, "player": player, "ask": ask, "answer": answer,
                                                 "at": self._wall(), "outcome": None})
            self._pending[decision.id] = (table, decision, time.monotonic())
            self._touch(table)
        self._client.publish(self.topics.table(table, "decision"), self._sealed(table, decision), qos=1)
        return decision

    def _sealed(self, table: str, message: Ruling | Decision) -> bytes:
        """`message`'s payload with the director's signature, for `table` only."""
        return seal(message.encode(), self.config.venue, table, self.key.sign_bytes)

    def _run(self) -> None:
        while not self._closed.wait(self.ack_interval):
            self._send_acks()
            self.judge_due()
            now = time.monotonic()
            with self.lock:
                due = [(rid, t, r) for rid, (t, r, sent) in self._pending.items() if now - sent > RULING_RESEND]
                for rid, table, ruling in due:
                    self._pending[rid] = (table, ruling, now)
            for _, table, message in due:
                topic = self.topics.table(table, "decision" if isinstance(message, Decision) else "ruling")
                self._client.publish(topic, self._sealed(table, message), qos=1)

    def _send_acks(self) -> None:
        """Make what arrived durable (one fsync), then tell each table how much of its match is held."""
        with self.lock:
            if not self.connected:
                return
            due, self._acks_due = self._acks_due, set()
            latest_last = sorted(due, key=lambda tm: self.store.latest(tm[0]) is self.store.find(*tm))
            acks = [(table, Ack(match, copy.held if (copy := self.store.find(table, match)) else 0))
                    for table, match in latest_last]  # the latest match last: its ack is the one retained
            fd = self.store.flush()
        if acks:
            self.store.durable(fd)
        for table, ack in acks:
            self._client.publish(self.topics.table(table, "ack"), ack.encode(), qos=1, retain=True)
        with self.lock:
            self.store.rotate_if_large()

    # -- for the pages -------------------------------------------------------------------------

    def _touch(self, table: str) -> None:
        self.version += 1
        self._changed[table] = self.version

    def changed_since(self, version: int) -> list[str]:
        """The tables changed after `version` ("" stands for the status line)."""
        with self.lock:
            return [table for table, at in self._changed.items() if at > version]

    def status(self) -> dict[str, Any]:
        """The pages' status line: broker, connected, venue, tables (and how many online), the message
        counts, the rejections (by reason, in all, the latest ten), the problems the store found at start and
        what its bounds refused (`Store.refused`)."""
        with self.lock:
            connected = self.connected and self._client.is_connected()  # paho's own word: the session is up
            return {"broker": self.config.describe(), "connected": connected, "venue": self.config.venue,
                    "key": self.key.public,
                    "tables": len(self.tables), "online": sum(1 for t in self.tables.values() if t.online),
                    "counts": dict(self.counts), "rejected": dict(self.rejected),
                    "rejected_total": sum(self.rejected.values()),
                    "rejections": [vars(r) for r in list(self.rejections)[-10:]],
                    "store_problems": list(self.store.problems), "refused": dict(self.store.refused)}
