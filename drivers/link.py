"""One serial link to a device that speaks the wire protocol: open, handshake, watch, reconnect.

A `SerialLink` owns one port (anything `serial.serial_for_url` opens: "/dev/ttyACM0",
"socket://host:port", "loop://", "emulator://table1"). It says HELLO, reports `LinkUp` and
`LinkDown` on the events queue, decodes the board's messages and hands them to its
listeners (`BoardSensor`, `Dice`). A board whose heartbeat is late (`LATE_HEARTBEATS` periods
without a frame) is pinged; when the port fails or the board sends nothing but PONGs for
`HEARTBEAT_MISSES` heartbeats (a board that restarted answers PINGs and streams nothing until it
is said HELLO again) it closes, backs off, reopens and says HELLO again. When the
counts of what went wrong change (`stats()`), a `LinkStatistics` event says so, at most every
`STATS_INTERVAL` seconds.

Drive it either by calling `poll(timeout)` (deterministic, for tests and simple loops) or by
`start()`, which runs a daemon thread that polls until `close()`.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, Self, TypedDict, TypeVar

import serial

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.errors import (
    DriverConfigError,
    DriverStateError,
    LinkError,
    MalformedMessage,
    ReplyTimeout,
    UnknownMessageType,
    UnsupportedFeature,
    UnsupportedVersion,
)
from drivers.events import EventQueue, FrameRejected, LinkDown, LinkStatistics, LinkStats, LinkUp
from drivers.protocol import (
    BAUD_RATE,
    BoardMessage,
    Features,
    Hello,
    HelloRequest,
    HostMessage,
    Ping,
    Pong,
    decode_message,
    describe_message,
    encode_message,
)
from drivers.protocol import FrameReader as _FrameReader
from game.zones import ZONE_COUNT

HEARTBEAT_MISSES = 3
"""Silence for this many announced heartbeat periods means the link is dead."""
LATE_HEARTBEATS = 1.5
"""Silence for this many heartbeat periods: the heartbeat is late, and the board is pinged."""
STATS_INTERVAL = 5.0
"""Seconds at least between two `LinkStatistics` events of one link."""
POLL_INTERVAL = 0.05
"""How long the reader thread waits for bytes in one poll, in seconds."""

_log = logging.getLogger(__name__)
M = TypeVar("M", bound=BoardMessage)


class LinkListener(Protocol):
    """What a device role (`BoardSensor`, `Dice`) attached to a link is told."""

    def link_up(self, hello: Hello) -> None:
        """The link came up: the board's handshake."""

    def receive(self, message: BoardMessage, timestamp: float) -> None:
        """A message from the board, with the time it arrived."""

    def frames_lost(self, timestamp: float) -> None:
        """Frames were lost on the line (junk, a bad CRC, a cut frame, a gap in the sequence, a
        message that makes no sense): what the role built from the stream may be wrong."""


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delays between reconnection attempts: first, first*factor, ... capped at longest."""

    first: float = 0.1
    factor: float = 2.0
    longest: float = 5.0

    def delay(self, failures: int) -> float:
        """Seconds to wait before the next attempt after `failures` failed ones."""
        return float(min(self.longest, self.first * self.factor ** max(0, failures - 1)))


class LinkOptions(TypedDict, total=False):
    """Keyword options of `SerialLink`, also accepted by the roles that make their own link."""

    events: EventQueue
    source: str
    clock: Clock
    baudrate: int
    reply_timeout: float
    backoff: Backoff
    stats_interval: float


class _State(Enum):
    NEW = "new"
    DOWN = "down"
    HANDSHAKE = "handshake"
    UP = "up"
    CLOSED = "closed"


class SerialLink:
    """One serial link to a device that speaks the wire protocol: opens the port (a path or a pyserial URL),
    shakes hands, watches the heartbeat, reconnects with backoff, and hands each message to its listeners
    and each link change to its events queue."""

    def __init__(self, port: str, *, events: EventQueue | None = None,
                 source: str | None = None, clock: Clock = SYSTEM_CLOCK,
                 baudrate: int = BAUD_RATE, reply_timeout: float = 1.0,
                 backoff: Backoff = Backoff(), stats_interval: float = STATS_INTERVAL) -> None:
        try:
            self._port: serial.SerialBase = serial.serial_for_url(
                port, baudrate=baudrate, do_not_open=True)
        except ValueError as error:
            raise DriverConfigError(f"cannot use serial port {port!r}: {error}") from error
        self.events: EventQueue = events if events is not None else queue.SimpleQueue()
        self.source = source if source is not None else port
        self._clock = clock
        self.reply_timeout = reply_timeout
        """Seconds to wait for the device's answer (HELLO, an ACK, a PING's reply)."""
        self._backoff = backoff
        self._reader = _FrameReader()
        self._listeners: tuple[LinkListener, ...] = ()
        """Replaced, never changed in place: a frame's listeners are read without the lock."""
        self._waiters: list[tuple[Callable[[BoardMessage], bool], list[BoardMessage]]] = []
        self._changed = threading.Condition(threading.RLock())
        self._write_lock = threading.Lock()
        self._state = _State.NEW
        self._hello: Hello | None = None
        self._down_reason = ""
        self._retry_at = clock.now()
        self._handshake_deadline = 0.0
        self._last_rx = 0.0
        self._tx_seq = 0
        self._malformed = self._unknown = self._late = self._connects = self._failures = 0
        self._lost = 0
        """Frames lost so far (the reader's losses and the malformed), as last told to the listeners."""
        self._pinged = False  # the heartbeat is late and a PING is out
        self._answered = False  # ... and its PONG came back: the board is there, streaming nothing
        self._stats_interval = stats_interval
        self._told = LinkStats().problems()  # the counts the last event carried
        self._told_at = -float("inf")
        self._streak = 0  # failures since the link was last up
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    # ------------------------------------------------------------ public

    @property
    def is_up(self) -> bool:
        """The handshake succeeded and the board has been heard since."""
        return self._state is _State.UP

    @property
    def hello(self) -> Hello | None:
        """What the board announced at the last handshake, None before the first."""
        return self._hello

    @property
    def clock(self) -> Clock:
        """The link's clock (the time its events carry)."""
        return self._clock

    @property
    def baudrate(self) -> int:
        """The port's baud rate (nominal on USB CDC)."""
        return int(self._port.baudrate)

    def stats(self) -> LinkStats:
        """What the link has read and rejected since it was made."""
        r = self._reader.stats
        return LinkStats(frames=r.frames, garbage_bytes=r.garbage_bytes, bad_crc=r.bad_crc, cut_frames=r.cut_frames,
                         seq_gaps=r.seq_gaps, malformed=self._malformed, unknown_types=self._unknown,
                         late_heartbeats=self._late, connects=self._connects, failures=self._failures)

    def add_listener(self, listener: LinkListener) -> None:
        """Hand every message (and each handshake) to `listener` too."""
        with self._changed:
            self._listeners = (*self._listeners, listener)

    def remove_listener(self, listener: LinkListener) -> None:
        """Stop handing messages to `listener`."""
        with self._changed:
            if listener in self._listeners:
                index = self._listeners.index(listener)
                self._listeners = self._listeners[:index] + self._listeners[index + 1:]

    def poll(self, timeout: float = 0.0) -> None:
        """Do what is due (connect, read, notice silence) waiting up to `timeout` for bytes."""
        if self._thread is not None and threading.current_thread() is not self._thread:
            raise DriverStateError(f"{self.source}: poll() while the reader thread runs")
        if self._state is _State.CLOSED:
            raise DriverStateError(f"{self.source}: poll() on a closed link")
        self._step(timeout)

    def start(self) -> None:
        """Poll in a daemon thread until `close()`."""
        if self._thread is not None:
            raise DriverStateError(f"{self.source}: reader thread already started")
        self._thread = threading.Thread(target=self._run, name=f"link {self.source}",
                                        daemon=True)
        self._thread.start()

    def connect(self, timeout: float) -> Hello:
        """Wait until the link is up; ReplyTimeout if it is not within `timeout` seconds."""
        self._wait(lambda: self._state is _State.UP, timeout,
                   lambda: f"no handshake with {self.source} within {timeout} s "
                           f"(last failure: {self._down_reason or 'none'})")
        assert self._hello is not None
        return self._hello

    def send(self, message: HostMessage) -> int:
        """Send a command now; returns its sequence number. LinkError if the link is down."""
        return self._send(message)

    def _send(self, message: HostMessage, numbered: Callable[[int], object] | None = None) -> int:
        if self._state is not _State.UP:
            raise LinkError(f"{self.source} is down ({self._down_reason or 'not connected'}); "
                            f"cannot send {type(message).__name__}")
        return self._write(message, numbered)

    def request(self, message: HostMessage, reply: type[M], timeout: float,
                match: Callable[[M, int], bool] = lambda _reply, _seq: True) -> M:
        """Send `message` and wait for the first `reply` received after it that `match`es."""
        box: list[BoardMessage] = []
        seq_box: list[int] = []

        def wanted(candidate: BoardMessage) -> bool:
            return isinstance(candidate, reply) and bool(seq_box) and match(candidate,
                                                                            seq_box[0])

        waiter = (wanted, box)
        with self._changed:
            self._waiters.append(waiter)
        try:
            self._send(message, seq_box.append)  # numbered before it leaves: the answer may come first
            self._wait(lambda: bool(box), timeout,
                       lambda: f"no {reply.__name__} from {self.source} within {timeout} s "
                               f"after {type(message).__name__} seq {seq_box[0]}",
                       need_up=True)
        finally:
            with self._changed:
                self._waiters.remove(waiter)
        found = box[0]
        assert isinstance(found, reply)
        return found

    def ping(self, timeout: float) -> float:
        """Round-trip time of a PING, in seconds of the link's clock."""
        sent = self._clock.now()
        token = int(sent * 1000) & 0xFFFFFFFF
        self.request(Ping(token), Pong, timeout, lambda pong, _seq: pong.token == token)
        return self._clock.now() - sent

    def close(self) -> None:
        """Stop the reader thread and close the port."""
        with self._changed:
            if self._state is _State.CLOSED:
                return
            self._state = _State.CLOSED
            self._changed.notify_all()
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self._port.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SerialLink {self.source} {self._state.value}>"

    # ------------------------------------------------------------ machinery

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._step(POLL_INTERVAL)
            except Exception as error:  # a driver bug must not kill the table: log, reconnect
                _log.exception("%s: unexpected error in the reader thread", self.source)
                self._fail(f"driver error: {error!r}")

    def _wait(self, done: Callable[[], bool], timeout: float, describe: Callable[[], str],
              need_up: bool = False) -> None:
        deadline = self._clock.now() + timeout
        with self._changed:
            while not done():
                if self._state is _State.CLOSED:
                    raise LinkError(f"{self.source} was closed")
                if need_up and self._state is not _State.UP:
                    raise LinkError(f"{self.source} went down while waiting: "
                                    f"{self._down_reason}")
                remaining = deadline - self._clock.now()
                if remaining <= 0:
                    raise ReplyTimeout(describe())
                if self._thread is None:
                    self._step(remaining)
                else:
                    self._changed.wait(remaining)

    def _step(self, timeout: float) -> None:
        deadline = self._clock.now() + timeout
        if self._state in (_State.NEW, _State.DOWN):
            wait = self._retry_at - self._clock.now()
            if wait > 0:
                self._clock.sleep(min(wait, timeout))
                if self._clock.now() < self._retry_at:
                    return
            self._open()
        if self._state not in (_State.HANDSHAKE, _State.UP):
            return
        try:
            data = self._read(max(0.0, deadline - self._clock.now()))
        except (serial.SerialException, OSError) as error:
            self._fail(f"read failed: {error}")
            return
        now = self._clock.now()
        for frame in self._reader.feed(data):
            try:
                message = decode_message(frame)
            except UnsupportedVersion as error:
                self._fail(str(error))
                return
            except UnknownMessageType:
                self._unknown += 1
                self._heard(now)
                continue
            except MalformedMessage:
                self._malformed += 1
                self._heard(now)
                continue
            if isinstance(message, Pong):
                # The board is there, but a PONG is no heartbeat: a board that restarted answers
                # PINGs and streams nothing until it is said HELLO again (protocol.md, 3).
                self._answered = self._pinged
            else:
                self._heard(now)
            if isinstance(message, BoardMessage):
                self._handle(message, now)
        self._tell_losses(now)
        self._check_silence(now)
        self._tell_stats(now)

    def _heard(self, now: float) -> None:
        """A frame of the board's stream (or one that could be): the link is alive."""
        self._last_rx = now
        self._pinged = self._answered = False

    def _tell_losses(self, now: float) -> None:
        """Tell the listeners when frames were lost since the last read (they ask the board again)."""
        lost = self._reader.losses + self._malformed
        if lost != self._lost:
            self._lost = lost
            if self._state is _State.UP:
                for listener in self._listeners:
                    listener.frames_lost(now)

    def _tell_stats(self, now: float) -> None:
        """A `LinkStatistics` event when the counts of what went wrong changed, at most every
        `stats_interval` seconds."""
        if now - self._told_at < self._stats_interval:
            return
        stats = self.stats()
        if stats.problems() != self._told:
            self._told, self._told_at = stats.problems(), now
            self.events.put(LinkStatistics(source=self.source, timestamp=now, stats=stats))

    def _told_now(self, now: float) -> LinkStats:
        """The counts, carried by a link event now (so the next `LinkStatistics` tells only news)."""
        stats = self.stats()
        self._told, self._told_at = stats.problems(), now
        return stats

    def _read(self, timeout: float) -> bytes:
        if self._port.timeout != timeout:
            self._port.timeout = timeout
        data: bytes = self._port.read(max(1, self._port.in_waiting))
        if data and self._port.in_waiting:
            data += self._port.read(self._port.in_waiting)
        return data

    def _open(self) -> None:
        try:
            if not self._port.is_open:
                self._port.open()
            self._reader.reset()
            self._state = _State.HANDSHAKE
            self._handshake_deadline = self._clock.now() + self.reply_timeout
            self._write(HelloRequest())
        except (serial.SerialException, OSError, LinkError) as error:
            self._fail(f"cannot open {self._port.port}: {error}")

    def _write(self, message: HostMessage, numbered: Callable[[int], object] | None = None) -> int:
        with self._write_lock:
            seq = 0 if isinstance(message, HelloRequest) else (self._tx_seq + 1) % 256
            self._tx_seq = seq
            if numbered is not None:
                numbered(seq)
            try:
                self._port.write(encode_message(message, seq))
            except (serial.SerialException, OSError) as error:
                raise LinkError(f"{self.source}: write of {type(message).__name__} failed: "
                                f"{error}") from error
        return seq

    def _handle(self, message: BoardMessage, now: float) -> None:
        if isinstance(message, Hello):
            if self._state is _State.HANDSHAKE:
                self._up(message, now)
            return
        if self._state is not _State.UP:
            return  # stale frames from before this handshake
        for listener in self._listeners:
            listener.receive(message, now)
        if not self._waiters:  # nobody waits for an answer (a waiter is listed before its request leaves)
            return
        with self._changed:
            for wanted, box in self._waiters:
                if not box and wanted(message):
                    box.append(message)
            self._changed.notify_all()

    def _up(self, hello: Hello, now: float) -> None:
        if Features.ZONES in hello.features and hello.zone_count != ZONE_COUNT:
            self._fail(f"board has {hello.zone_count} zones, the host expects {ZONE_COUNT}")
            return
        with self._changed:
            self._hello = hello
            self._state = _State.UP
            self._down_reason = ""
            self._connects += 1
            self._streak = 0
            self._pinged = self._answered = False
            listeners = self._listeners
            self._changed.notify_all()
        self.events.put(LinkUp(source=self.source, timestamp=now, hello=hello, stats=self._told_now(now)))
        for listener in listeners:
            listener.link_up(hello)

    def _check_silence(self, now: float) -> None:
        if self._state is _State.HANDSHAKE and now >= self._handshake_deadline:
            self._fail(f"no HELLO within {self.reply_timeout} s of HELLO_REQUEST")
        elif self._state is _State.UP and self._hello is not None:
            period = self._hello.heartbeat_ms / 1000
            silent = now - self._last_rx
            if silent > HEARTBEAT_MISSES * period:
                answer = (", a PING answered but nothing streamed: the board restarted, or its heartbeat stopped"
                          if self._answered else ", a PING unanswered" if self._pinged else "")
                self._fail(f"silent for {silent:.3f} s (heartbeat {self._hello.heartbeat_ms} ms{answer})")
            elif silent > LATE_HEARTBEATS * period and not self._pinged:
                self._pinged = True  # a late heartbeat: is the board still there?
                self._late += 1
                try:
                    self._write(Ping(int(now * 1000) & 0xFFFFFFFF))
                except LinkError as error:
                    self._fail(str(error))

    def _fail(self, reason: str) -> None:
        with self._changed:
            if self._state is _State.CLOSED:
                return
            report = self._streak == 0
            self._state = _State.DOWN
            self._down_reason = reason
            self._failures += 1
            self._streak += 1
            now = self._clock.now()
            self._retry_at = now + self._backoff.delay(self._streak)
            self._changed.notify_all()
        try:
            self._port.close()
        except (serial.SerialException, OSError):
            pass
        self._reader.reset()
        if report:
            self.events.put(LinkDown(source=self.source, timestamp=now, reason=reason, stats=self._told_now(now)))


class DeviceRole:
    """Base of the device roles on a link. A role given a port string makes and owns its
    link (closing the role closes it); given a `SerialLink`, it shares it (the board's MCU
    often carries the dice too): then drive and close the link itself."""

    def __init__(self, port: SerialLink | str, options: LinkOptions) -> None:
        if isinstance(port, SerialLink):
            if options:
                raise DriverConfigError(f"link options {sorted(options)} given with a shared link")
            self.link, self._owns_link = port, False
        else:
            self.link, self._owns_link = SerialLink(port, **options), True
        self.rejected: Counter[str] = Counter()
        """Frames refused for their content, by reason (see `reject`)."""
        self.link.add_listener(self)

    @property
    def events(self) -> EventQueue:
        """The queue the role's events go to (the link's)."""
        return self.link.events

    def link_up(self, hello: Hello) -> None:
        """Called by the link after each handshake."""

    def receive(self, message: BoardMessage, timestamp: float) -> None:
        """Called by the link for every message from the board."""

    def frames_lost(self, timestamp: float) -> None:
        """Called by the link when frames were lost on the line since it last read."""

    def poll(self, timeout: float = 0.0) -> None:
        """Do what the link has due (for a loop that drives the link itself)."""
        self.link.poll(timeout)

    def start(self) -> None:
        """Read the link in its own thread."""
        self.link.start()

    def connect(self, timeout: float) -> Hello:
        """Wait until the link is up (see `SerialLink.connect`)."""
        return self.link.connect(timeout)

    def close(self) -> None:
        """Stop listening; close the link if the role made it."""
        self.link.remove_listener(self)
        if self._owns_link:
            self.link.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def reject(self, kind: str, why: str, message: BoardMessage, timestamp: float) -> None:
        """Refuse a well-formed frame whose content cannot be true: count it by `kind`, log it
        with the message, and tell the table for the 1st, 10th, 100th ... of each kind."""
        self.rejected[kind] += 1
        count = self.rejected[kind]
        if _is_power_of_ten(count):
            detail = describe_message(message)
            _log.warning("%s: rejected %s, %s (%d so far): %s", self.link.source, kind, why, count, detail)
            self.events.put(FrameRejected(source=self.link.source, timestamp=timestamp, reason=f"{kind}: {why}",
                                          detail=detail, count=count))

    def _require(self, feature: Features) -> Hello:
        hello = self.link.hello
        if hello is None or not self.link.is_up:
            raise LinkError(f"{self.link.source} is not connected")
        if feature not in hello.features:
            raise UnsupportedFeature(
                f"{self.link.source} (board {hello.board_id:#x}, firmware "
                f"{'.'.join(map(str, hello.firmware))}) has no {feature.name}")
        return hello


def _is_power_of_ten(n: int) -> bool:
    while n % 10 == 0:
        n //= 10
    return n == 1
