"""Host cost of one worst-case full snapshot against its time on the wire.

Run from the repository root:  python3 -m benchmarks.bench_protocol [iterations]

Worst case: the longest STACKS snapshot a board can send of a real board (one the sensor does
not refuse: 30 checkers, here on all 28 zones, colours mixed). One iteration is what the driver
does per snapshot: split the frame out of the byte stream, check its CRC, decode it, judge it
plausible for the board that announced itself, build the SensorSnapshot event and pass it
through the queue.
"""

from __future__ import annotations

import sys
import time

from drivers.board import BoardSensor
from drivers.protocol import (
    BAUD_RATE,
    SERIAL_SETTINGS,
    Features,
    FrameReader,
    Hello,
    Snapshot,
    decode_message,
    describe_frame_path,
    encode_message,
)
from game.zones import MAX_STACK, ZONE_COUNT, Capability, ZoneReading


def worst_case(seq: int) -> bytes:
    stacks = ["wb"[(zone + seq) % 2] for zone in range(ZONE_COUNT)]  # alternate so each snapshot is news
    stacks[0] += "b"
    stacks[1] += "w"  # 15 of each colour
    zones = tuple(ZoneReading.of_stack(stack) for stack in stacks)
    return encode_message(Snapshot(seq, Capability.STACKS, zones), seq)


def main(iterations: int) -> None:
    wires = [worst_case(0), worst_case(1)]
    board = BoardSensor("loop://")  # the port is never opened: only the decoding path runs
    board.link._up(Hello((1, 0, 0), Features.ZONES, Capability.STACKS, ZONE_COUNT, MAX_STACK, 1000, 1), 0.0)
    board.events.get_nowait()  # the handshake's LinkUp
    reader = FrameReader()
    events = board.events
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(iterations):
        for frame in reader.feed(wires[i % 2]):
            message = decode_message(frame)
            assert isinstance(message, Snapshot)
            board.receive(message, 0.0)
        events.get_nowait()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    board.close()
    assert reader.stats.frames == iterations

    size = len(wires[0])
    on_wire = size * 10 / BAUD_RATE
    per_cpu, per_wall = cpu / iterations, wall / iterations
    print(f"worst-case STACKS snapshot: {size} bytes on the wire ({ZONE_COUNT} zones, 30 checkers); "
          f"{describe_frame_path()}")
    print(f"wire time at {BAUD_RATE} baud {SERIAL_SETTINGS}: {on_wire * 1e3:.3f} ms")
    print(f"host parse + deliver, {iterations} iterations: {per_cpu * 1e6:.1f} us CPU, "
          f"{per_wall * 1e6:.1f} us wall per snapshot")
    print(f"host CPU / wire time: {per_cpu / on_wire:.3f} "
          f"({on_wire / per_cpu:.0f}x faster than the line)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
