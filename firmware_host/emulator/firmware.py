"""The emulated board's firmware: its session on each serial port, speaking `drivers.protocol`.

The physical board and dice are `firmware_host.emulator.board.BoardEmulator`; this module is what
real firmware would be: it answers the host's requests, sends the heartbeat (the full state)
every `heartbeat_ms`, numbers and frames its messages, and, when asked to, garbles some of
them as a noisy line would.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Literal

from drivers.protocol import (
    Ack,
    AckStatus,
    BoardMessage,
    DiceRequest,
    Features,
    FrameReader,
    Hello,
    HelloRequest,
    Ping,
    Pong,
    SetStacks,
    SetZoneLeds,
    Snapshot,
    SnapshotRequest,
    decode_message,
    encode_message,
)
from game.zones import MAX_STACK, ZONE_COUNT

if TYPE_CHECKING:
    from firmware_host.emulator.board import BoardEmulator

PortName = Literal["board", "dice"]


def hello(emulator: BoardEmulator, features: Features) -> Hello:
    """The board's answer to the handshake on a port with `features`."""
    zones = Features.ZONES in features
    return Hello(emulator.firmware, features, emulator.capability if zones else None,
                 ZONE_COUNT if zones else 0, MAX_STACK if zones else 0, emulator.heartbeat_ms, emulator.board_id)


def snapshot(emulator: BoardEmulator) -> Snapshot:
    """Every zone as the sensors read it at the last scan."""
    with emulator.lock:
        return Snapshot(emulator.scan_number % 65536, emulator.capability, emulator.sensed())


def garble(wire: bytes, rng: random.Random) -> bytes:
    """Line noise on one frame: a flipped byte, a cut, a loss, or garbage before it."""
    kind = rng.choice(("flip", "cut", "drop", "garbage"))
    if kind == "flip":
        at = rng.randrange(1, len(wire) - 1)
        return wire[:at] + bytes([wire[at] ^ rng.randint(1, 255)]) + wire[at + 1:]
    if kind == "cut":
        return wire[:rng.randrange(1, len(wire) - 1)]
    if kind == "drop":
        return b""
    return rng.randbytes(rng.randint(1, 20)) + wire


class EmulatorPort:
    """One serial port of the emulator: the firmware's session with whoever is attached (framing,
    sequence numbers, heartbeats, answers to the host's requests, and line noise)."""

    def __init__(self, emulator: BoardEmulator, name: PortName, features: Features) -> None:
        self.emulator = emulator
        self.name = name
        self.features = features
        self.plugged = True
        self.vanished = False
        """Unplugged like a USB device: in-process opens and I/O fail (a pty stays silent)."""
        self.attached = False
        self.lit_zones: frozenset[int] = frozenset()
        self.received: Counter[str] = Counter()
        """The host's messages, by type, as the firmware took them (what a test asks the board got)."""
        self._reader = FrameReader()
        self._tx = bytearray()
        self._seq = 0
        self._streaming = False
        self._next_beat = 0.0

    def write_from_host(self, data: bytes) -> None:
        """Bytes the host sent; the firmware answers at once."""
        with self.emulator.lock:
            if not self.plugged:
                return
            for frame in self._reader.feed(data):
                try:
                    message = decode_message(frame)
                except ValueError:
                    self.send(Ack(frame.seq, AckStatus.BAD_REQUEST))
                    continue
                self.received[type(message).__name__] += 1
                self._answer(message, frame.seq)

    def read_to_host(self, size: int) -> bytes:
        """Up to `size` bytes the firmware has sent, taken off its output."""
        with self.emulator.lock:
            data = bytes(self._tx[:size])
            del self._tx[:size]
            return data

    def pending(self) -> int:
        """Bytes the firmware has sent that nobody has read yet."""
        with self.emulator.lock:
            return len(self._tx)

    def send(self, message: BoardMessage) -> None:
        """Frame and send one message (numbered, perhaps garbled by line noise)."""
        if not self.plugged:
            return
        self._seq = 0 if isinstance(message, Hello) else (self._seq + 1) % 256
        wire = encode_message(message, self._seq)
        noise = self.emulator.line_noise
        if noise and self.emulator.rng.random() < noise:
            wire = garble(wire, self.emulator.rng)
        self._tx += wire
        if len(self._tx) > 64 * 1024:  # nobody reads: a UART would lose it too
            del self._tx[:-64 * 1024]

    def send_raw(self, wire: bytes) -> None:
        """Bytes on the line as they are (a frame of a firmware of another making, line noise)."""
        with self.emulator.lock:
            if self.plugged:
                self._tx += wire

    def restart(self) -> None:
        """The firmware starts again: quiet until a HELLO_REQUEST, its LEDs dark, what it was
        sending and reading lost."""
        with self.emulator.lock:
            self._streaming = False
            self._seq = 0
            self._reader = FrameReader()
            self._tx.clear()
            self.lit_zones = frozenset()

    def drop_output(self) -> None:
        """Lose what was sent and not yet read (a cable pulled mid-frame)."""
        with self.emulator.lock:
            self._tx.clear()

    def streaming(self) -> bool:
        """The host has shaken hands and the cable is in: the firmware reports as things change."""
        return self._streaming and self.plugged

    def beat_if_due(self, now: float) -> None:
        """Send the heartbeat (the full state) if its time has come."""
        if self.streaming() and now >= self._next_beat:
            self._next_beat = now + self.emulator.heartbeat_ms / 1000
            self.send_full_state()

    def send_full_state(self) -> None:
        """Send a snapshot and every die's report."""
        if Features.ZONES in self.features:
            self.send(snapshot(self.emulator))
        if Features.DICE in self.features:
            for die in self.emulator.dice_reports():
                self.send(die)

    def _answer(self, message: object, seq: int) -> None:
        emulator = self.emulator
        match message:
            case HelloRequest():
                self._streaming = True
                self._next_beat = emulator.clock.now() + emulator.heartbeat_ms / 1000
                self.send(hello(emulator, self.features))
            case SnapshotRequest() if Features.ZONES in self.features:
                self.send(snapshot(emulator))
            case DiceRequest() if Features.DICE in self.features:
                for die in emulator.dice_reports():
                    self.send(die)
            case Ping(token):
                self.send(Pong(token))
            case SetZoneLeds(zones) if Features.ZONE_LEDS in self.features:
                self.lit_zones = zones
                if emulator.led_ack is not None:
                    self.send(Ack(seq, emulator.led_ack))
            case SetStacks(stacks) if Features.STACK_ORDER in self.features:
                self.send(Ack(seq, emulator.teach_stacks(stacks)))
            case SnapshotRequest() | DiceRequest() | SetZoneLeds() | SetStacks():
                self.send(Ack(seq, AckStatus.UNSUPPORTED))
            case _:
                pass  # a board message echoed back: not for the firmware
