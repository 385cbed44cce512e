"""The reference firmware's figures, as the chip makes them: flash and RAM (`avr-size` of the .elf), and,
running in simavr on its board model, the scan rate (samples of all 28 zones per second) and the time
from a checker landing on a zone to the last byte of its ZONE_CHANGE leaving the UART, both counted in
the chip's own cycles (16 MHz), so they do not depend on this machine's speed; and the share of its
cycles the CPU is awake (the headroom left at the converters' 80 samples a second).

    python -m benchmarks.bench_firmware [--landings 40]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import tty

from drivers.protocol import FrameReader, HelloRequest, Message, Snapshot, ZoneChange, decode_message, encode_message
from firmware_host.emulator.simavr_board import CHIP_HZ, ELF, SimavrBoard, WireFrame, build, missing_tools
from game.board import Variant
from game.position import Position
from game.zones import layout

FLASH_BYTES = 256 * 1024
SRAM_BYTES = 8 * 1024


def memory() -> tuple[int, int]:
    """Flash (text and data) and static RAM (data and bss) of the firmware, in bytes."""
    sections = subprocess.run(["avr-size", "-A", str(build(ELF))], capture_output=True, text=True, check=True).stdout
    size = {name: int(length) for name, length in re.findall(r"^\.(\w+)\s+(\d+)", sections, re.MULTILINE)}
    return size.get("text", 0) + size.get("data", 0), size.get("data", 0) + size.get("bss", 0)


def decoded(frames: list[WireFrame]) -> list[tuple[int, Message]]:
    """The messages of the frames the firmware sent, each with the cycle it ended at."""
    reader = FrameReader()
    out: list[tuple[int, Message]] = []
    for frame in frames:
        for message in reader.feed(b"\x00" + frame.wire + b"\x00"):
            out.append((frame.cycle, decode_message(message)))
    return out


def drain(path: str, stop: threading.Event) -> None:
    """The host's side of the line: shake hands, then read everything (as a host does)."""
    port = os.open(path, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(port)
    os.write(port, encode_message(HelloRequest(), 0))
    os.set_blocking(port, False)
    while not stop.is_set():
        try:
            os.read(port, 4096)
        except BlockingIOError:
            time.sleep(0.005)
    os.close(port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--landings", type=int, default=40, help="checkers put down to time (default 40)")
    args = parser.parse_args(argv)
    if missing_tools():
        print(f"missing: {', '.join(missing_tools())}", file=sys.stderr)
        return 1
    flash, ram = memory()
    print(f"flash: {flash} B of {FLASH_BYTES} ({100 * flash / FLASH_BYTES:.1f} %)")
    print(f"RAM: {ram} B static of {SRAM_BYTES} ({100 * ram / SRAM_BYTES:.1f} %), the rest for the stack")

    start = tuple(len(stack) for stack in layout(Position.initial(Variant.BACKGAMMON)))
    stop = threading.Event()
    with SimavrBoard(start) as board:
        host = threading.Thread(target=drain, args=(board.path, stop), daemon=True)
        host.start()
        time.sleep(1.0)
        board.frames()
        slept_before, cycles_before = board.asleep()
        time.sleep(3.0)  # at least two heartbeats
        slept, cycles = board.asleep()
        snapshots = [(cycle, m) for cycle, m in decoded(board.frames()) if isinstance(m, Snapshot)]
        (first_cycle, first), (last_cycle, last) = snapshots[0], snapshots[-1]
        scans = (last.scan - first.scan) % 65536
        rate = scans / ((last_cycle - first_cycle) / CHIP_HZ)
        print(f"scan rate: {rate:.1f} scans of all 28 zones a second ({scans} scans in "
              f"{(last_cycle - first_cycle) / CHIP_HZ:.2f} s of chip time)")
        awake = 1 - (slept - slept_before) / (cycles - cycles_before)
        print(f"CPU awake: {100 * awake:.1f} % of its cycles at that rate (the rest asleep, waiting for an interrupt)")

        latencies = []
        for landing in range(args.landings):
            zone = (20, 21, 22, 23, 2, 3, 4, 5, 7, 9, 10, 11)[landing % 12]  # empty points of the start
            landed = board.place(zone)
            time.sleep(0.15)
            changes = [cycle for cycle, m in decoded(board.frames())
                       if isinstance(m, ZoneChange) and m.zone == zone and m.reading.count == 1 and cycle > landed]
            if changes:
                latencies.append((changes[0] - landed) / CHIP_HZ * 1000)
            board.lift(zone)
            time.sleep(0.1)
        stop.set()
        host.join()
    if not latencies:
        print("no ZONE_CHANGE seen", file=sys.stderr)
        return 1
    latencies.sort()
    print(f"landing -> ZONE_CHANGE on the wire: median {statistics.median(latencies):.1f} ms, "
          f"min {latencies[0]:.1f} ms, max {latencies[-1]:.1f} ms ({len(latencies)} of {args.landings} landings, "
          f"chip time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
