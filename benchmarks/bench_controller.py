"""The controller's cost at the table: CPU time per sensor frame against the frame's time on
the wire, and the peak memory of a whole simulated match.

Run from the repository root:  python3 -m benchmarks.bench_controller [--seed S] [--match-to N]

CPU per frame. An emulated table (`EmulatedTable`: the board emulator behind the real
driver, mock pins, two simulated players, a manual clock) plays a match of each variant at
each sensing capability. Every sensor frame the controller receives is timed with
`time.thread_time()` (the table's loop thread) over `handle(frame)` then `tick(now)`, as the
loop runs them, plus the driver's work for it (`DriverPath`: its bytes split out of the stream and checked,
decoded, made an event by `BoardSensor.receive`, taken off the queue; replayed apart, since the
emulated table's link runs the emulator in the same call; the `driver` column).
ZONE_CHANGE frames are the run's own. SNAPSHOT frames are timed in a second run of the same
match where each zone change reaches the controller as the whole board, as a SNAPSHOT frame
carries it (a board that sends only snapshots), beside the run's own snapshots. The per-turn
set-up happens when a roll arrives, in `handle(DieState)`: shown alone (that call, and the
`TurnReconciler` construction timed apart) and amortised over the sensor frames. So is the
judging of a board the frames made: it happens in the `tick(now)` that finds the board settled
(`settle_seconds` after its last change, with no frame), timed there (unless a done press waited
for that board: then the tick commits the play, the press's work, like a press's `handle`,
untimed; so is the snapshot that answers a done press, which asks the board for a whole reading).
The collector sets aside what the table was built with, as `python -m firmware_host` does
(`set_aside_from_the_collector`). The journal's fsyncs run on its syncer's thread
(firmware_host/record/syncer.py), not the loop's: that thread's CPU over the whole match is
amortised over the frames in a column of its own (`+syncer/wire`), and the target is judged on the
total. The fsyncs themselves are also timed where they run (`FsyncMeter`): their own CPU, the
kernel's work, amortised over the frames, is a floor under the figure that no faster loop removes
(the journal makes every action's lines durable: firmware_host/record/journal.py says why). The
match runs faster than a real table, so the bench waits for the syncer at the end of each step (10
ms of table time), as a real table's fsync (a few ms on an SD card) is done before its next step:
left to run ahead, the emulated table had the lines of several steps share an fsync, fewer the more
the disk lagged (1.2 to 2.3 a turn from one run to another), which a table at the pace of its
players does not (the loop's thread sleeping meanwhile, as a table's does between events). A frame's
wire time is its encoded size (`drivers.protocol.encode_message`) x 10 bits (8N1) at `BAUD_RATE`;
ratios are CPU time over wire time. Each kind's verdict names the row whose ratio in all is the
largest and says where its CPU goes a frame (the driver, the controller, the set-up, judging, the
syncer) beside the budget, and the row whose loop alone is the largest.

Turn set-up over many positions. The matches above meet a few dozen rolls each; the set-up's
own work (`TurnReconciler`: the legal plays indexed by sensed view, the ways to them) is also
timed on random-play positions of each variant and on the heaviest rolls (the start, and a
start with White's checkers spread over twelve points, every double), best of 3 each, at each
sensing capability: the worst is against the 5 ms target.

What each part can take away (`--ablate`, alone): the ZONE_CHANGE figure again, over three matches of
Backgammon and Catchgammon at COUNTS, with the cube display's pins, the journal's lines (neither encoded
nor written) or the journal's fsyncs doing nothing, then all three: the figure that stays is the
event's own path through the driver, the controller and the reconciler.

Memory. `python -m firmware_host simulate` plays a whole match of each variant in a child
process: its peak RSS (`getrusage(RUSAGE_CHILDREN).ru_maxrss` in a bare interpreter that
runs it), beside a child that only imports the packages, and the largest match again with no
flag's picture drawn (what the pictures cost). In this process: tracemalloc's peak of the Python
heap allocated during a match of each variant.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

from drivers.board import BoardSensor
from drivers.cube_display import CubeDisplay
from drivers.events import DieState, LinkUp, SensorSnapshot, ZoneChanged
from drivers.link import SerialLink
from drivers.protocol import (
    BAUD_RATE,
    SERIAL_SETTINGS,
    BoardMessage,
    FrameReader,
    Hello,
    Message,
    Snapshot,
    ZoneChange,
    decode_message,
    describe_frame_path,
    encode_message,
)
from firmware_host.controller import Controller
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.table import TICK, EmulatedTable
from firmware_host.record.journal import Journal
from firmware_host.settings import Settings
from firmware_host.table_loop import set_aside_from_the_collector
from game.board import Variant
from game.movegen import describe_kernel
from game.position import Position
from game.reconcile import TurnReconciler
from game.record import RecordWriter
from game.selfplay import many_stacks, random_positions
from game.zones import Capability, ZoneReading

ROOT = Path(__file__).resolve().parent.parent
BITS_PER_BYTE = 10  # 8N1: a start bit, 8 data bits, a stop bit
TARGET = 0.05
CPU = time.thread_time
"""The table's loop thread's CPU: the syncer's runs beside it (its own figure), and process-wide time
would count whatever part of its fsyncs happened to overlap a timed call."""
SETUP_TARGET = 0.005  # seconds: the controller's turn set-up after a roll, at the worst


def wire_seconds(message: Message) -> float:
    return len(encode_message(message, 1)) * BITS_PER_BYTE / BAUD_RATE


class DriverPath:
    """The host's driver work for one frame, replayed beside the emulated table (whose link reads
    the emulator in the same call, so it cannot be timed there): the frame's bytes split out of
    the stream and checked (COBS, CRC), decoded, handed by the link to its listeners, judged
    plausible for the board that announced itself and made an event (`BoardSensor.receive`),
    taken off the queue."""

    def __init__(self, hello: Hello) -> None:
        self.reader = FrameReader()
        self.link = SerialLink("loop://")  # never opened: only the decoding path runs
        self.sensor = BoardSensor(self.link)
        self.link._up(hello, 0.0)  # the handshake's end, as the link reaches it
        self._drain()
        self.sequence = 0

    def cpu(self, message: Snapshot | ZoneChange) -> float:
        """CPU seconds of the driver's work for `message`'s frame."""
        self.sequence = (self.sequence + 1) % 256
        data = encode_message(message, self.sequence)
        start = CPU()
        for frame in self.reader.feed(data):  # as the link's read step goes on with each frame
            decoded = decode_message(frame)
            if isinstance(decoded, BoardMessage):
                self.link._handle(decoded, 0.0)  # handed to its listeners: the board sensor
        self._drain()
        return CPU() - start

    def _drain(self) -> None:
        while not self.link.events.empty():
            self.link.events.get_nowait()

    def close(self) -> None:
        self.sensor.close()
        self.link.close()


@dataclass
class Frames:
    """CPU seconds and wire seconds of each frame of one kind."""

    cpu: list[float] = field(default_factory=list)
    """The driver's work and the controller's."""
    driver: list[float] = field(default_factory=list)
    wire: list[float] = field(default_factory=list)
    flagged: list[bool] = field(default_factory=list)

    def add(self, cpu: float, driver: float, wire: float, flagged: bool) -> None:
        self.cpu.append(cpu + driver)
        self.driver.append(driver)
        self.wire.append(wire)
        self.flagged.append(flagged)

    def mean(self) -> float:
        return sum(self.cpu) / len(self.cpu)

    def mean_driver(self) -> float:
        return sum(self.driver) / len(self.driver)

    def mean_wire(self) -> float:
        return sum(self.wire) / len(self.wire)

    def p99(self) -> float:
        return sorted(self.cpu)[int(0.99 * (len(self.cpu) - 1))]

    def worst(self) -> tuple[float, float, bool]:
        return max(zip(self.cpu, self.wire, self.flagged, strict=True))


@dataclass
class Run:
    variant: Variant
    capability: Capability
    frames: Frames = field(default_factory=Frames)
    roll_arrivals: list[float] = field(default_factory=list)
    judgements: list[float] = field(default_factory=list)
    """CPU seconds of each tick between frames that judged a newly settled board."""
    reconcilers: list[float] = field(default_factory=list)
    syncer: float = 0.0
    """CPU seconds of the journal's syncer thread over the whole match (its fsyncs)."""
    fsyncs: int = 0
    fsync_cpu: float = 0.0
    """CPU seconds inside the fsyncs themselves (the kernel's work), of the syncer thread's."""
    plays: list[tuple[str, list[int], dict[str, object]]] = field(default_factory=list)


class FsyncMeter:
    """`os.fsync` timed where it runs (the syncer's thread, which looks it up at each call): the CPU
    of the fsyncs themselves, the kernel's work, apart from the thread's waking and bookkeeping."""

    def __init__(self) -> None:
        self.real = os.fsync
        self.cpu = 0.0

    def __call__(self, fd: int) -> None:
        start = CPU()
        try:
            self.real(fd)
        finally:
            self.cpu += CPU() - start


def timed(controller: Controller, event: SensorSnapshot | ZoneChanged | DieState, now: float) -> tuple[float, bool]:
    """CPU seconds of handling one event then letting time pass; whether it raised a flag."""
    flags = controller.flags
    start = CPU()
    controller.handle(event)
    controller.tick(now)
    return CPU() - start, controller.flags != flags


def at_table_pace(journal: Journal) -> None:
    """Wait until the journal's lines are durable, as at a real table's pace each step's fsync is
    done before its next step; by looking now and then, not on the syncer's condition, so that the
    syncer's thread does no more than at a table where nobody waits for it (its CPU is measured)."""
    syncer = journal.syncer
    while journal.durable < journal.sequence and (syncer is None or syncer.failure is None):
        time.sleep(0.0002)


def die(run: Run, controller: Controller, event: DieState, now: float) -> None:
    """A die's report, timed; when it made a roll (a new PLAY prompt), its time is the turn's set-up,
    and the `TurnReconciler` of that roll is timed apart."""
    serial = controller.prompt.serial
    cpu, _ = timed(controller, event, now)
    if controller.prompt.serial != serial and controller.prompt.waiting is Waiting.PLAY:
        run.roll_arrivals.append(cpu)
        dice = controller.match.dice
        assert dice is not None
        start = CPU()
        TurnReconciler(controller.match.position, dice, run.capability)
        run.reconcilers.append(CPU() - start)


def press_waits(controller: Controller) -> bool:
    """A done press waits for the board (its reading, or its settling): what comes next is its work."""
    turn = controller.plays.turn
    return turn is not None and turn.done_press.waiting


def plays(journal: Journal) -> list[tuple[str, list[int], dict[str, object]]]:
    """(player, dice, position after) of each play in a journal."""
    lines = journal.path.read_text(encoding="utf-8").splitlines()
    return [(e["player"], e["dice"], e["position"]) for e in map(json.loads, lines) if e["type"] == "play"]


def cpu_run(variant: Variant, capability: Capability, seed: int, length: int, directory: Path, *,
            snapshots: bool) -> Run:
    """One match at an emulated table, its sensor frames timed: the zone changes as they come,
    or (`snapshots`) each zone change sent to the controller as the whole board."""
    run = Run(variant, capability)
    name = f"{variant.value}-{capability.name.lower()}-{'snapshots' if snapshots else 'changes'}"
    table = EmulatedTable(Settings(variant=variant, length=length), directory / name, seed, capability)
    set_aside_from_the_collector()  # as `python -m firmware_host` does once its table is built
    controller = table.controller
    board: list[ZoneReading] | None = None
    path: DriverPath | None = None
    syncer = table.journal.syncer
    assert syncer is not None, "the emulated table's journal fsyncs"
    fsync = FsyncMeter()
    metering = mock.patch("os.fsync", fsync)
    metering.start()
    try:
        while not controller.match.is_over and table.clock.now() < 1000.0 + 6 * 3600:
            table.clock.advance(TICK)
            now = table.clock.now()
            table.table.poll()
            for event in table.table.drain():
                if isinstance(event, ZoneChanged) and board is not None and path is not None:
                    board[event.zone - 1] = event.reading
                    if snapshots:
                        whole = SensorSnapshot(source=event.source, timestamp=event.timestamp, capability=capability,
                                               zones=tuple(board), scan=event.scan)
                        sent: Snapshot | ZoneChange = Snapshot(event.scan, capability, whole.zones)
                        cpu, flagged = timed(controller, whole, now)
                    else:
                        sent = ZoneChange(event.scan, event.zone, event.reading)
                        cpu, flagged = timed(controller, event, now)
                    run.frames.add(cpu, path.cpu(sent), wire_seconds(sent), flagged)
                elif isinstance(event, SensorSnapshot) and path is not None:
                    board = list(event.zones)
                    sent = Snapshot(event.scan, capability, event.zones)
                    driver = path.cpu(sent)
                    if press_waits(controller):  # the reading a done press asked for: the press's
                        controller.handle(event)  # work (its play committed or flagged), not a frame's
                        continue
                    cpu, flagged = timed(controller, event, now)
                    if snapshots:
                        run.frames.add(cpu, driver, wire_seconds(sent), flagged)
                elif isinstance(event, DieState):
                    die(run, controller, event, now)
                else:
                    if isinstance(event, LinkUp) and event.hello.capability is not None:  # the board's link
                        path = DriverPath(event.hello)
                    controller.handle(event)
            stable = controller.stable
            pressed = press_waits(controller)  # the done press's work: not the frames'
            start = CPU()
            controller.tick(now)
            if controller.stable is not stable and not pressed:  # a board settled: judged now
                run.judgements.append(CPU() - start)
            table.people.see(controller.prompt, now)
            table.people.act(now)
            at_table_pace(table.journal)
        assert controller.match.is_over, f"{name}: the match did not end"
        run.plays = plays(table.journal)
    finally:
        table.close()  # the syncer's last fsync, then its thread ends
        metering.stop()
        if path is not None:
            path.close()
    run.syncer, run.fsyncs, run.fsync_cpu = syncer.cpu_time(), syncer.fsyncs, fsync.cpu
    return run


def us(seconds: float) -> str:
    return f"{seconds * 1e6:8.1f}"


def pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:6.2f}%"


@dataclass
class Shares:
    """Where one row's mean CPU per frame goes, in seconds a frame (set-up, judging and the syncer's
    thread amortised), beside the frame's wire time."""

    row: str
    wire: float
    driver: float
    controller: float
    setup: float
    judging: float
    syncer: float

    @property
    def loop(self) -> float:
        return self.driver + self.controller + self.setup + self.judging

    @property
    def in_all(self) -> float:
        return self.loop + self.syncer

    def told(self) -> str:
        parts = (("the driver", self.driver), ("the controller", self.controller), ("the set-up", self.setup),
                 ("judging", self.judging), ("the syncer", self.syncer))
        return (f"{self.row}: " + ", ".join(f"{name} {us(part).strip()} us" for name, part in parts)
                + f" a frame (its budget at {100 * TARGET:.0f}%: {us(TARGET * self.wire).strip()} us of "
                  f"{us(self.wire).strip()} us on the wire)")


def print_frames(title: str, runs: list[Run]) -> tuple[Shares, Shares]:
    """One table of the runs' frames; returns the shares of the row with the largest mean ratio in all
    (the loop's frame, set-up and judging, and the syncer's thread, amortised), and of the row whose
    loop's ratio is the largest."""
    print(f"\n{title}")
    print(f"{'variant':12} {'sensing':12} {'frames':>7} {'wire us':>8} {'mean us':>8} {'driver':>7} {'p99 us':>8} "
          f"{'worst us':>9} {'mean/wire':>9} {'+setup/wire':>11} {'+judging/wire':>13} {'+syncer/wire':>12} "
          f"{'worst/wire':>10}")
    shares: list[Shares] = []
    for run in runs:
        frames = run.frames
        setup = sum(run.roll_arrivals) / len(frames.cpu)
        judging = sum(run.judgements) / len(frames.cpu)
        syncer = run.syncer / len(frames.cpu)
        worst, worst_wire, flagged = frames.worst()
        with_setup = (frames.mean() + setup) / frames.mean_wire()
        with_judging = (frames.mean() + setup + judging) / frames.mean_wire()
        in_all = with_judging + syncer / frames.mean_wire()
        shares.append(Shares(f"{run.variant.value} {run.capability.name}", frames.mean_wire(), frames.mean_driver(),
                             frames.mean() - frames.mean_driver(), setup, judging, syncer))
        print(f"{run.variant.value:12} {run.capability.name:12} {len(frames.cpu):7d} {us(frames.mean_wire())} "
              f"{us(frames.mean())} {frames.mean_driver() * 1e6:7.1f} {us(frames.p99())} {us(worst)} "
              f"{pct(frames.mean(), frames.mean_wire()):>9} "
              f"{100 * with_setup:10.2f}% {100 * with_judging:12.2f}% {100 * in_all:11.2f}% "
              f"{pct(worst, worst_wire):>10}{'  (worst: a flag drawn)' if flagged else ''}")
    return (max(shares, key=lambda share: share.in_all / share.wire),
            max(shares, key=lambda share: share.loop / share.wire))


def setup_over_positions(positions: int, seed: int) -> float:
    """The worst TurnReconciler set-up (best of 3 per roll) over random-play positions and the
    heaviest rolls, per variant and sensing; returns the worst of all, in seconds."""
    print(f"\nturn set-up (TurnReconciler) over {positions} random-play positions per variant, seed {seed}, and "
          f"the heaviest rolls; best of 3 per roll; {describe_kernel()}")
    print(f"{'variant':12} {'sensing':12} {'mean ms':>8} {'worst ms':>9}  worst roll")
    worst_of_all = 0.0
    for variant in Variant:
        corpus = random_positions(variant, positions, seed)
        corpus += [(position, (d, d)) for position in (Position.initial(variant), many_stacks(variant))
                   for d in range(1, 7)]
        for capability in Capability:
            times = []
            for position, dice in corpus:
                best = float("inf")
                for _ in range(3):
                    start = CPU()
                    TurnReconciler(position, dice, capability)
                    best = min(best, CPU() - start)
                times.append(best)
            worst = max(range(len(corpus)), key=times.__getitem__)
            position, dice = corpus[worst]
            worst_of_all = max(worst_of_all, times[worst])
            print(f"{variant.value:12} {capability.name:12} {1e3 * sum(times) / len(times):8.3f} "
                  f"{1e3 * times[worst]:9.2f}  dice {dice[0]}{dice[1]}, {len(position.legal_plays(dice))} plays"
                  f"{' (heaviest)' if worst >= positions else ''}")
    return worst_of_all


def print_setup(runs: list[Run]) -> None:
    print("\nper-turn set-up, when a roll arrives (handle(DieState): match.roll, TurnReconciler, journal line, "
          "prompt); the journal's syncer thread over the match, per turn (its fsyncs)")
    print(f"{'variant':12} {'sensing':12} {'turns':>6} {'mean ms':>8} {'worst ms':>9} "
          f"{'reconciler alone: mean ms':>26} {'worst ms':>9} {'amortised us/ZONE_CHANGE':>25} "
          f"{'syncer us/turn':>15} {'fsyncs/turn':>12} {'us each fsync':>14}")
    for run in runs:
        n = len(run.roll_arrivals)
        print(f"{run.variant.value:12} {run.capability.name:12} {n:6d} {1e3 * sum(run.roll_arrivals) / n:8.2f} "
              f"{1e3 * max(run.roll_arrivals):9.2f} {1e3 * sum(run.reconcilers) / n:26.2f} "
              f"{1e3 * max(run.reconcilers):9.2f} {us(sum(run.roll_arrivals) / len(run.frames.cpu)):>25} "
              f"{us(run.syncer / n):>15} {run.fsyncs / n:12.2f} {us(run.fsync_cpu / max(run.fsyncs, 1)):>14}")
    print("\njudging a settled board, in the tick that finds it settled (the reconciler's verdict, what it shows)")
    print(f"{'variant':12} {'sensing':12} {'boards':>6} {'per turn':>8} {'mean us':>8} {'median us':>9} "
          f"{'worst us':>9} {'amortised us/ZONE_CHANGE':>25}")
    for run in runs:
        n = len(run.judgements)
        print(f"{run.variant.value:12} {run.capability.name:12} {n:6d} {n / len(run.roll_arrivals):8.1f} "
              f"{us(sum(run.judgements) / n)} {us(statistics.median(run.judgements)):>9} "
              f"{us(max(run.judgements)):>9} {us(sum(run.judgements) / len(run.frames.cpu)):>25}")


def durability_floor(runs: list[Run]) -> None:
    """What the journal's durability alone costs a ZONE_CHANGE frame: the fsyncs' own CPU (the kernel's
    work, not the syncer thread's waking) amortised over the frames, whatever the rest of the table
    costs. A floor under the figure: no faster loop takes it away, only fewer fsyncs."""
    floors = sorted(((run.fsync_cpu / len(run.frames.cpu), run) for run in runs),
                    key=lambda floor: floor[0] / floor[1].frames.mean_wire())
    for which, (per_frame, run) in (("smallest", floors[0]), ("largest", floors[-1])):
        turns = len(run.roll_arrivals)
        print(f"  the journal's fsyncs alone, their own CPU, {which}: {us(per_frame).strip()} us a frame, "
              f"{pct(per_frame, run.frames.mean_wire()).strip()} of its wire time ({run.variant.value} "
              f"{run.capability.name}: {us(run.fsync_cpu / max(run.fsyncs, 1)).strip()} us each fsync, "
              f"{run.fsyncs / turns:.2f} a turn, {len(run.frames.cpu) / turns:.1f} frames a turn)")
    smallest, run = floors[0]
    if smallest / run.frames.mean_wire() >= TARGET:
        print(f"  so in this run the {100 * TARGET:.0f}% target is out of reach while every action's lines are "
              "made durable (firmware_host/record/journal.py), however fast the loop")


def _unwritten(writer: RecordWriter, event: object) -> str:
    """A journal line neither encoded nor written (the ablation's stand-in for `RecordWriter.write`)."""
    writer.line = b"{}"
    return writer.prev


@contextlib.contextmanager
def without(part: str) -> Iterator[None]:
    """The table with one of its parts doing nothing: `display` (the cube display's pins), `journal`
    (its lines neither encoded nor written), `fsync` (the syncer's fsync), `all` (the three)."""
    with contextlib.ExitStack() as stack:
        if part in ("display", "all"):
            stack.enter_context(mock.patch.object(CubeDisplay, "show", lambda *args, **kwargs: None))
        if part in ("journal", "all"):
            stack.enter_context(mock.patch.object(RecordWriter, "write", _unwritten))
        if part in ("fsync", "all"):
            stack.enter_context(mock.patch("os.fsync", lambda fd: None))
        yield


ABLATIONS = ("nothing", "display", "journal", "fsync", "all")


def ablate(seed: int, length: int, directory: Path) -> None:
    """What the ZONE_CHANGE figure would be with each part gone: how much of it each part can take away.
    Backgammon and Catchgammon at COUNTS, three matches each (seeds `seed` to `seed` + 2)."""
    print(f"\nZONE_CHANGE frames with a part of the table doing nothing: Backgammon and Catchgammon at COUNTS, "
          f"{length}-point matches, seeds {seed}-{seed + 2}; the mean over the six matches of each match's mean "
          "per frame (the set-up and judging amortised), as a share of the frame's wire time")
    print(f"{'without':10} {'the loop':>9} {'syncer':>8} {'in all':>8}")
    for part in ABLATIONS:
        loops, syncers = [], []
        with without(part):
            for variant in (Variant.BACKGAMMON, Variant.CATCHGAMMON):
                for match_seed in range(seed, seed + 3):
                    run = cpu_run(variant, Capability.COUNTS, match_seed, length,
                                  directory / f"ablate-{part}-{match_seed}", snapshots=False)
                    frames = run.frames
                    per_frame = frames.mean() + (sum(run.roll_arrivals) + sum(run.judgements)) / len(frames.cpu)
                    loops.append(per_frame / frames.mean_wire())
                    syncers.append(run.syncer / len(frames.cpu) / frames.mean_wire())
        loop, syncer = statistics.mean(loops), statistics.mean(syncers)
        print(f"{part:10} {100 * loop:8.2f}% {100 * syncer:7.2f}% {100 * (loop + syncer):7.2f}%")


PEAK = ("import resource, subprocess, sys; code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(code)")
"""A bare interpreter (-S, a few MB) runs the command and reports its children's peak RSS: a
child's ru_maxrss starts at the RSS of the process it was forked from, so this benchmark's
own (tens of MB) must not be that process."""


def child_peak_mb(command: list[str]) -> float:
    """Peak resident set of a child process, in MB (it must exit 0)."""
    done = subprocess.run([sys.executable, "-S", "-c", PEAK, *command], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr}")
    return int(done.stdout.split()[-1]) / 1024  # Linux reports kilobytes


ONE_PICTURE = """
import tempfile
from pathlib import Path
from game.board import Variant
from game.pictures import draw_discrepancy
from game.position import Position
from game.zones import ZoneReading, layout
start = Position.initial(Variant.BACKGAMMON)
sensed = {zone: ZoneReading.of_stack(stack) for zone, stack in enumerate(layout(start), 1)}
with tempfile.TemporaryDirectory() as directory:
    draw_discrepancy(start, sensed, title="flag 1").save(Path(directory) / "flag.png")
"""


WITHOUT_PICTURES = """
from pathlib import Path
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import Settings
from firmware_host.table_loop import set_aside_from_the_collector
from game.board import Variant
settings = Settings(variant=Variant.{variant}, length={length}, images=False)
with EmulatedTable(settings, Path({record!r}), {seed}) as table:
    set_aside_from_the_collector()
    assert table.run()
"""
"""A match as `simulate` plays it, with the flags' pictures not drawn: what the pictures cost."""


def memory(seed: int, length: int, directory: Path) -> None:
    imports = "import firmware_host.cli, game.mat, game.pictures"
    print(f"\npeak memory of a whole {length}-point match, seed {seed}")
    helper = child_peak_mb([sys.executable, "-S", "-c", "pass"])
    print(f"  the measuring interpreter alone (python -S -c pass): peak RSS {helper:.1f} MB")
    baseline = child_peak_mb([sys.executable, "-c", imports])
    print(f"  baseline, importing the packages (python -c '{imports}'): peak RSS {baseline:.1f} MB")
    picture = child_peak_mb([sys.executable, "-c", f"{imports}\n{ONE_PICTURE}"])
    print(f"  the same, then one flag's discrepancy picture drawn and saved: peak RSS {picture:.1f} MB")
    for variant in Variant:
        command = [sys.executable, "-m", "firmware_host", "simulate", "--variant", variant.value, "--seed", str(seed),
                   "--match-to", str(length), "--record", str(directory / f"memory-{variant.value}")]
        started = time.monotonic()
        peak = child_peak_mb(command)
        print(f"  {' '.join(['python', *command[1:-1]])} DIR: peak RSS {peak:.1f} MB "
              f"({peak - baseline:+.1f} MB over the baseline; {time.monotonic() - started:.1f} s)")
    variant = Variant.RUNGAMMON  # the largest above, run again with no flag's picture drawn
    started = time.monotonic()
    peak = child_peak_mb([sys.executable, "-c", WITHOUT_PICTURES.format(variant=variant.name, seed=seed, length=length,
                                                                        record=str(directory / "memory-no-pictures"))])
    print(f"  the same {variant.value} match with no flag's picture drawn (Settings(images=False)): "
          f"peak RSS {peak:.1f} MB ({peak - baseline:+.1f} MB over the baseline; {time.monotonic() - started:.1f} s)")
    print("  in this process, tracemalloc: the Python heap allocated during the match (EmulatedTable.run)")
    for variant in Variant:
        tracemalloc.start()
        table = EmulatedTable(Settings(variant=variant, length=length), directory / f"heap-{variant.value}", seed)
        try:
            finished = table.run()
        finally:
            table.close()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert finished
        print(f"  {variant.value:12} peak {peak / 2**20:6.1f} MB, still held at the end {current / 2**20:6.1f} MB")


def setup_verdict(worst: float) -> None:
    print(f"worst turn set-up over the positions (TurnReconciler): {1e3 * worst:.2f} ms "
          f"({'within' if worst < SETUP_TARGET else 'OVER'} the {1e3 * SETUP_TARGET:.0f} ms target)")


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = f"{line.split(':', 1)[1].strip()} ({model})"
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--match-to", type=int, default=1, help="match length for the CPU runs")
    parser.add_argument("--memory-match-to", type=int, default=3, help="match length for the memory runs")
    parser.add_argument("--setup-positions", type=int, default=1000,
                        help="random-play positions per variant for the turn set-up figure")
    parser.add_argument("--setup-only", action="store_true", help="only the turn set-up figures (no matches)")
    parser.add_argument("--ablate", action="store_true",
                        help="only the ZONE_CHANGE figure with the display, the journal's lines, the fsyncs or all "
                             "three doing nothing (3-point matches)")
    args = parser.parse_args()
    print(f"command: python3 -m benchmarks.bench_controller {' '.join(sys.argv[1:])}".rstrip())
    print(f"machine: {machine()}")
    print(f"wire: {BAUD_RATE} baud {SERIAL_SETTINGS}, {BITS_PER_BYTE} bits per byte; target: CPU under "
          f"{100 * TARGET:.0f}% of the frame's wire time; frames read by the {describe_frame_path()}")
    if args.ablate:
        with tempfile.TemporaryDirectory(prefix="bench-controller-") as tmp:
            ablate(args.seed, 3, Path(tmp))
        return
    print(f"CPU runs: a {args.match_to}-point match per variant and sensing, seed {args.seed}, tournament profile; "
          "us = microseconds of CPU (the table's loop thread, thread_time; the syncer's thread apart) or of wire time")
    if args.setup_only:
        setup_verdict(setup_over_positions(args.setup_positions, args.seed))
        return
    with tempfile.TemporaryDirectory(prefix="bench-controller-") as tmp:
        directory = Path(tmp)
        changes = [cpu_run(variant, capability, args.seed, args.match_to, directory, snapshots=False)
                   for variant in Variant for capability in Capability]
        snapshots = [cpu_run(variant, capability, args.seed, args.match_to, directory, snapshots=True)
                     for variant in Variant for capability in Capability]
        worst_changes = print_frames("ZONE_CHANGE frames: handle(ZoneChanged) + tick(now)", changes)
        worst_snapshots = print_frames("SNAPSHOT frames: handle(SensorSnapshot) + tick(now), each zone change sent "
                                       "as the whole board", snapshots)
        print_setup(changes)
        worst_roll = max(max(run.roll_arrivals) for run in changes)
        print(f"worst turn set-up in the matches (handle(DieState)): {1e3 * worst_roll:.2f} ms "
              f"({'within' if worst_roll < SETUP_TARGET else 'OVER'} the {1e3 * SETUP_TARGET:.0f} ms target)")
        setup_verdict(setup_over_positions(args.setup_positions, args.seed))
        same = sum(a.plays == b.plays for a, b in zip(changes, snapshots, strict=True))
        print(f"\nthe snapshot-fed controller committed the same plays as the change-fed one in {same} of "
              f"{len(changes)} matches ({sum(len(run.plays) for run in changes)} plays in all)")
        for name, (in_all, loop) in (("ZONE_CHANGE", worst_changes), ("SNAPSHOT", worst_snapshots)):
            ratio = in_all.in_all / in_all.wire
            verdict = "within" if ratio < TARGET else "OVER"
            print(f"largest mean CPU per {name} frame with the set-up, the judging and the journal's syncer "
                  f"amortised: {100 * ratio:.2f}% of its wire time ({verdict} the {100 * TARGET:.0f}% target): the "
                  f"table's loop {100 * in_all.loop / in_all.wire:.2f}%, the syncer's thread (fsyncs) "
                  f"{100 * in_all.syncer / in_all.wire:.2f} points; the table's loop alone at the largest "
                  f"{100 * loop.loop / loop.wire:.2f}% ({loop.row})")
            print(f"  where it goes: {in_all.told()}")
            if name == "ZONE_CHANGE":
                durability_floor(changes)
        memory(args.seed, args.memory_match_to, directory)


if __name__ == "__main__":
    main()
