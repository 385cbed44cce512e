"""The reference firmware (`firmware/`) running instruction by instruction in simavr, on a board model
of 28 HX711 load cells: a COUNTS board the host opens on a pseudo-terminal as it opens /dev/ttyACM0.

`SimavrBoard` builds what it needs with `make` (avr-gcc, and gcc against libsimavr), starts
`firmware/build/board_model` on the firmware's .hex, and is the simulated people's hands: `lift`,
`place`, `move`, `slide`, a hand resting on a zone (`rest_hand`), a plate drifting (`drift`), all
through the model's control channel (its stdin and stdout). The chip's own clock (simavr's cycle
count, 16 MHz) times what happens: `frames()` gives every frame the firmware sent with the cycle it
ended at, so a figure measured on it is the real chip's, not this machine's.
"""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from firmware_host.errors import FirmwareBuildError, ImpossibleAction
from game.zones import ZONE_COUNT

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
BUILD_DIR = FIRMWARE_DIR / "build"
HEX = BUILD_DIR / "smartgammon-counts.hex"
ELF = BUILD_DIR / "smartgammon-counts.elf"
BOARD_MODEL = BUILD_DIR / "board_model"
FRAMING_LIBRARY = BUILD_DIR / "libframe.so"
CHIP_HZ = 16_000_000
"""The ATmega2560's clock: simavr's cycles per second of the chip's time."""
TARE_SECONDS = 0.5
"""The firmware tares the empty board at power-up (16 samples at 80 a second); checkers come after."""
CALIBRATION_CHECKERS = 5
"""What firmware/src/board.h's calibration expects on every zone."""
BUTTON_SECONDS = 0.15
"""A press of the calibration button, held past the firmware's 0.1 s look."""
SETTLED_SECONDS = 0.1
"""After the checkers are set out: the converters settle (4 samples) and the firmware's debounce holds (2 scans)."""
TOOLS = ("make", "avr-gcc", "avr-objcopy", "avr-size", "gcc")
APT_PACKAGES = "make gcc-avr binutils-avr avr-libc gcc simavr libsimavr-dev"


def missing_tools() -> list[str]:
    """What of the toolchain is not installed (the programs, and simavr's headers and library)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if not Path("/usr/include/simavr/sim_avr.h").exists():
        missing.append("simavr's headers (libsimavr-dev)")
    return missing


def build(target: Path) -> Path:
    """`make` in firmware/ for `target` (the .hex, the board model, the framing library); one
    build at a time across processes (tests run in parallel)."""
    BUILD_DIR.mkdir(exist_ok=True)
    with open(BUILD_DIR / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        command = ["make", "-C", str(FIRMWARE_DIR), str(target.relative_to(FIRMWARE_DIR))]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise FirmwareBuildError(f"{' '.join(command)} failed ({APT_PACKAGES} installed?):\n"
                                 f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return target


@dataclass(frozen=True, slots=True)
class WireFrame:
    """A frame the firmware sent (the bytes between its delimiters) and the chip cycle its last byte left at."""

    cycle: int
    wire: bytes


class SimavrBoard:
    """The firmware in simavr with its board model; `path` is the pseudo-terminal to open.

    The board powers up empty and tares; `counts` (28 numbers) are then put on it, as a builder
    switches the board on and then sets the checkers out.
    """

    def __init__(self, counts: Sequence[int] = (0,) * ZONE_COUNT, *, seed: int = 1, noise_mg: int = 50,
                 drift_mg: int = 0, gain_spread_pct: float = 0.0, hold_calibration: bool = False) -> None:
        """`gain_spread_pct`: each load cell's scale within that many per cent of the firmware's default;
        `hold_calibration`: the calibration button is held at power-up (then `calibrate()`, not `counts`)."""
        build(HEX)
        build(BOARD_MODEL)
        self._process = subprocess.Popen(
            [str(BOARD_MODEL), str(HEX), "--seed", str(seed), "--noise-mg", str(noise_mg),
             "--drift-mg", str(drift_mg), "--gain-spread", str(gain_spread_pct),
             "--hold-calibration", str(int(hold_calibration))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self._lock = threading.Lock()
        first = self._line()
        if not first.startswith("pty "):
            self.close()
            raise FirmwareBuildError(f"{BOARD_MODEL} did not start: {first!r}")
        self.path = first.split(maxsplit=1)[1]
        self._counts = [0] * ZONE_COUNT
        self._hand = 0
        self._wait_until(int(TARE_SECONDS * CHIP_HZ))
        if not hold_calibration:
            set_at = self.set_counts(counts)
            self._wait_until(set_at + int(SETTLED_SECONDS * CHIP_HZ))

    def calibrate(self, checkers: int = CALIBRATION_CHECKERS) -> None:
        """The builder's calibration (firmware/README.md), the button held at power-up: release it, put
        `checkers` on every zone, press it; the firmware weighs them and goes on with each zone's scale."""
        self._do("button 0")
        self._wait_until(self.set_counts([checkers] * ZONE_COUNT) + int(SETTLED_SECONDS * CHIP_HZ))
        pressed = self._do("button 1")
        self._wait_until(pressed + int(BUTTON_SECONDS * CHIP_HZ))  # it looks at the button every 0.1 s
        self._wait_until(self._do("button 0") + int(TARE_SECONDS * CHIP_HZ))

    def _wait_until(self, cycle: int) -> None:
        while self.cycle() < cycle:
            threading.Event().wait(0.02)

    def wait_chip(self, seconds: float) -> None:
        """Until `seconds` of the chip's time have passed (on a loaded machine, more of this one's)."""
        self._wait_until(self.cycle() + int(seconds * CHIP_HZ))

    def _line(self) -> str:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            error = self._process.stderr.read() if self._process.stderr is not None else ""
            raise FirmwareBuildError(f"the board model stopped: {error.strip() or 'no output'}")
        return line.strip()

    def _ask(self, command: str) -> str:
        with self._lock:
            assert self._process.stdin is not None
            self._process.stdin.write(command + "\n")
            self._process.stdin.flush()
            answer = self._line()
        if answer.startswith("error"):
            raise ImpossibleAction(f"board model: {command!r}: {answer}")
        return answer

    def _do(self, command: str) -> int:
        """Send an action; the chip cycle at which it took effect."""
        return int(self._ask(command).split()[1])

    def cycle(self) -> int:
        """The chip's cycle count now."""
        return int(self._ask("cycle").split()[1])

    def asleep(self) -> tuple[int, int]:
        """The cycles the chip has slept (nothing to do until an interrupt), and all its cycles so far."""
        slept, _, total = self._ask("asleep").split()[1:]
        return int(slept), int(total)

    def set_counts(self, counts: Sequence[int]) -> int:
        """Every zone's checkers at once (new checkers of 14 g +- 0.2 g)."""
        if len(counts) != ZONE_COUNT:
            raise ImpossibleAction(f"{len(counts)} counts given, the board has {ZONE_COUNT} zones")
        self._counts = list(counts)
        return self._do("counts " + " ".join(str(c) for c in counts))

    def set_zones(self, layout: Sequence[str]) -> int:
        """The checkers of a layout (`game.zones.layout`), as counts: a load cell sees no colour."""
        return self.set_counts([len(stack) for stack in layout])

    def counts(self) -> tuple[int, ...]:
        """What lies on each zone (a slid checker counts where it will land)."""
        return tuple(int(c) for c in self._ask("zones").split()[1:])

    def lift(self, zone: int) -> int:
        """The top checker of `zone` into the hand."""
        if not self._counts[zone - 1]:
            raise ImpossibleAction(f"lift from zone {zone}: it is empty")
        self._counts[zone - 1] -= 1
        self._hand += 1
        return self._do(f"lift {zone}")

    def place(self, zone: int) -> int:
        """A checker onto `zone`: the last one lifted, else a new one; the cycle it landed at."""
        self._counts[zone - 1] += 1
        self._hand = max(0, self._hand - 1)
        return self._do(f"place {zone}")

    def move(self, source: int, target: int) -> int:
        """Lift from `source`, put down on `target`."""
        self.lift(source)
        return self.place(target)

    def slide(self, source: int, target: int) -> int:
        """Slide a checker along the points between (each feels it for a moment); the cycle it lands at."""
        if not self._counts[source - 1]:
            raise ImpossibleAction(f"slide from zone {source}: it is empty")
        self._counts[source - 1] -= 1
        self._counts[target - 1] += 1
        return self._do(f"slide {source} {target}")

    def rest_hand(self, zone: int, grams: float, milliseconds: int) -> int:
        """A hand (or a die) resting on `zone` for a while."""
        return self._do(f"press {zone} {grams} {milliseconds}")

    def drift(self, zone: int, grams: float) -> int:
        """`zone`'s plate creeps by `grams` (temperature, creep): the firmware re-tares it once still."""
        return self._do(f"drift {zone} {grams}")

    def unplug(self, zone: int) -> int:
        """`zone`'s HX711 loses its data wire (its line stays high: never ready)."""
        return self._do(f"unplug {zone}")

    def restart(self, off_ms: int = 20) -> int:
        """The chip's power drops for `off_ms` (a brown-out, a watchdog's reset) with the checkers where
        they lie and the cable in: the firmware starts again from power-up, its EEPROM kept. The
        cycle the power comes back at; the firmware tares for `TARE_SECONDS` after it."""
        if off_ms < 0:
            raise ImpossibleAction(f"restart: the power cannot be off for {off_ms} ms")
        return self._do(f"restart {off_ms}")

    def eeprom(self, address: int, length: int) -> bytes:
        """`length` bytes of the chip's EEPROM from `address` (what survives a restart)."""
        return bytes.fromhex(self._ask(f"eeprom {address} {length}").split()[1])

    def program_eeprom(self, address: int, data: bytes) -> int:
        """Write `data` into the chip's EEPROM from `address`, as avrdude does; the firmware reads
        it at its next power-up (`restart`)."""
        return self._do(f"program {address} {data.hex()}")

    def status_led(self) -> bool:
        """Whether the status LED (the Mega's "L", PB7) is lit now."""
        return self._ask("status").split()[1] == "1"

    def lit_zones(self) -> frozenset[int]:
        """The zones whose LED the shift registers light."""
        mask = int(self._ask("leds").split()[1])
        return frozenset(bit + 1 for bit in range(ZONE_COUNT) if mask >> bit & 1)

    def frames(self) -> list[WireFrame]:
        """Every frame sent since the last call (the model keeps the last 256)."""
        with self._lock:
            assert self._process.stdin is not None
            self._process.stdin.write("frames\n")
            self._process.stdin.flush()
            sent = []
            while (line := self._line()) != "end":
                _, cycle, wire = line.split()
                sent.append(WireFrame(int(cycle), bytes.fromhex(wire)))
        return sent

    def close(self) -> None:
        """Stop the simulation (the pty goes with it)."""
        if self._process.poll() is None:
            try:
                assert self._process.stdin is not None
                self._process.stdin.close()
                self._process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        for stream in (self._process.stdout, self._process.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()



__all__ = ["BOARD_MODEL", "CHIP_HZ", "ELF", "FRAMING_LIBRARY", "HEX", "SimavrBoard", "WireFrame", "build",
           "missing_tools"]
