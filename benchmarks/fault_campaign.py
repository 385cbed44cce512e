"""A fault campaign against the table, from its public interfaces; prints what it tried and what held.

    python benchmarks/fault_campaign.py frames --count 20000
    python benchmarks/fault_campaign.py cuts --matches 1          # every cut point, resumed to the end
    python benchmarks/fault_campaign.py cuts --variant rungammon --stride 5   # every fifth
    python benchmarks/fault_campaign.py inputs --count 500
    python benchmarks/fault_campaign.py edits --count 1000
    python benchmarks/fault_campaign.py soak --seeds 100          # simulate, every variant and kind of table
    python benchmarks/fault_campaign.py soak --kind chouette --seeds 30   # only chouettes with a bot
    python benchmarks/fault_campaign.py all

Targets (issue 11): 0 crashes, 0 phantom events, every cut point resumed to a legal finished
match, 0 tracebacks, 0 silent acceptances, every edit by someone without the key detected; and
every soak run finished (people alone, a person carrying out a bot's plays, a chouette with a bot).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from drivers.protocol import DieReport, DieStatus, Snapshot, ZoneChange
from firmware_host.cli import main as table_main
from firmware_host.emulator.table import EmulatedTable
from firmware_host.record.journal import JOURNAL_NAME
from firmware_host.record.signing import KEY_ENV
from firmware_host.settings import Settings
from game.board import Variant
from game.cli import main as game_main
from game.events import MATCH_EVENT_TYPES
from game.record import encode_event, line_hash
from game.validate import validate_file
from game.zones import ZONE_COUNT, Capability, ZoneReading


def _types(path: Path) -> list[str]:
    return [json.loads(line)["type"] for line in path.read_text().splitlines()]


def _random_reading(rng: random.Random) -> ZoneReading:
    kind = rng.choice(list(Capability))
    if kind is Capability.COUNTS:
        return ZoneReading.of_count(rng.choice([0, 1, 5, 16, 31, 66, 255]))
    if kind is Capability.COLOR_COUNTS:
        return ZoneReading.of_colours(rng.randint(0, 40), rng.randint(0, 40))
    return ZoneReading.of_stack("".join(rng.choice("wb") for _ in range(rng.choice([0, 1, 16, 47]))))


def frames(count: int, seed: int, root: Path) -> None:
    """Impossible but well-formed frames, and raw garbage, into a table whose player is to move."""
    rng = random.Random(seed)
    with EmulatedTable(Settings(length=1, images=False), root / "frames", seed=seed, players=False,
                       line_noise=0.0, flicker_rate=0.0) as table:
        table.wait(1.0)
        table.emulator.roll(3, 1)
        table.wait(0.6)
        port = table.emulator.port("board")
        before = [t for t in _types(table.journal.path) if t in MATCH_EVENT_TYPES]
        prompt = table.controller.prompt
        for n in range(count):
            roll = rng.random()
            if roll < 0.4:
                port.send(ZoneChange(n % 65536, rng.randint(0, 40), _random_reading(rng)))
            elif roll < 0.6:
                size = rng.choice([ZONE_COUNT, ZONE_COUNT, 27, 29, 60])
                capability = rng.choice(list(Capability))
                zones = tuple(_random_reading(rng).at(Capability.COUNTS) if capability is Capability.COUNTS
                              else ZoneReading.of_stack(rng.choice(["", "ww", "bbbbbbbbbbbbbbbb"]))
                              .at(capability) for _ in range(size))
                port.send(Snapshot(n % 65536, capability, zones))
            elif roll < 0.8:
                status = rng.choice(list(DieStatus))
                face = rng.randint(1, 6) if status is DieStatus.SETTLED else None
                port.send(DieReport(rng.randrange(2**32), status, face, rng.randint(0, 100), rng.randrange(65536)))
            else:
                port._tx += rng.randbytes(rng.randint(1, 64))  # garbage on the line
            if n % 50 == 0:
                table.wait(0.05)
        table.wait(1.0)
        after = [t for t in _types(table.journal.path) if t in MATCH_EVENT_TYPES]
        rejected = sum(table.table.board.rejected.values()) + (sum(table.table.dice.rejected.values())
                                                              if table.table.dice else 0)
        stats = table.table.board.link.stats()
        phantom = len(after) - len(before) + (table.controller.prompt.waiting is not prompt.waiting)
        print(f"frames: tried {count}, rejected for content {rejected}, malformed {stats.malformed}, "
              f"bad CRC {stats.bad_crc}, garbage bytes {stats.garbage_bytes}, crashes {table.loop.errors}, "
              f"phantom events {phantom}")


def cuts(matches: int, root: Path, variants: list[Variant], stride: int = 1) -> None:
    """Every line boundary (every `stride`-th with a stride) of whole matches in each variant,
    each resumed and played to the end."""
    for variant in variants:
        tried = resumed = legal = 0
        failures: Counter[str] = Counter()
        for m in range(matches):
            whole = root / f"whole-{variant.value}-{m}"
            settings = Settings(variant=variant, length=2, images=False)
            with EmulatedTable(settings, whole, seed=100 + m) as table:
                table.run()
            lines = (whole / JOURNAL_NAME).read_bytes().splitlines(keepends=True)
            for cut in range(1, len(lines), stride):
                tried += 1
                record = root / f"cut-{variant.value}-{m}-{cut}"
                record.mkdir()
                (record / JOURNAL_NAME).write_bytes(b"".join(lines[:cut]))
                try:
                    with EmulatedTable(settings, record, seed=1000 + cut) as table:
                        from game.zones import layout

                        table.emulator.set_zones(layout(table.controller.match.position))
                        resumed += 1
                        table.run()
                    verdict = validate_file(str(record / JOURNAL_NAME))
                    legal += verdict.exit_code == 0
                    if verdict.exit_code:
                        failures[verdict.render().splitlines()[-1][:80]] += 1
                except Exception as exc:
                    failures[f"{type(exc).__name__}: {exc}"[:80]] += 1
                shutil.rmtree(record)
        print(f"cuts {variant.value}: cut points tried {tried}" + (f" (every {stride}th)" if stride > 1 else "")
              + f", resumed {resumed}, finished legal and complete "
              f"{legal}" + "".join(f"\n    {n} x {why}" for why, n in failures.most_common(5)))


def _bad_argv(rng: random.Random, tmp: Path) -> list[str]:
    junk = ["", "²¹", "٣١", "0", "77", "3,1,2", "-1", "nan", "{", "[" * 5000, "@" + str(tmp), "@/no/such",
            "XGID=zzz", "4HPwATDgc/ABM", "\x00", "true", "31 31", "bar/22*"]
    commands = [
        lambda: ["plays", "--position", "4HPwATDgc/ABMA", "--dice", rng.choice(junk)],
        lambda: ["plays", "--position", rng.choice(junk), "--dice", "31"],
        lambda: ["show", "--position", rng.choice(junk)],
        lambda: ["render", "--position", "4HPwATDgc/ABMA", "--play", rng.choice(junk[1:]), "--dice", "31",
                 "--out", str(tmp / rng.choice(["x.png", "x", "x.txt", ""]))],
        lambda: ["validate", rng.choice([str(tmp), "/no/such", str(tmp / "junk.jsonl")])],
        lambda: ["report", str(tmp / "junk.jsonl"), "--out", str(tmp / rng.choice(["x.pdf", "x.doc"]))],
        lambda: ["plays", "--batch", str(tmp / "junk.jsonl")],
    ]
    return rng.choice(commands)()


def inputs(count: int, seed: int, root: Path) -> None:
    """Bad command lines: one-line errors with exit 2, never a traceback or exit 0."""
    rng = random.Random(seed)
    tmp = root / "inputs"
    tmp.mkdir()
    counts: Counter[str] = Counter()
    for _ in range(count):
        junk = rng.choice([rng.randbytes(200), b"{" * 3000, b'{"type": "match_start"}\n{"x":', b"\x00"])
        (tmp / "junk.jsonl").write_bytes(junk)
        argv = _bad_argv(rng, tmp)
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = game_main(argv, io.StringIO())
        except SystemExit as stop:
            code = int(stop.code or 0)
        except Exception:
            counts["tracebacks"] += 1
            continue
        lines = [line for line in err.getvalue().splitlines() if line]
        if code == 0:
            counts["silent acceptances (exit 0)"] += 1
        elif code == 2 and lines and lines[0].startswith("error"):
            counts["one-line errors"] += 1
        else:
            counts[f"exit {code}"] += 1
    print(f"inputs: tried {count}, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


def edits(count: int, seed: int, root: Path) -> None:
    """Edits to a signed journal by someone without the key, every hash recomputed."""
    rng = random.Random(seed)
    record = root / "edits"
    with EmulatedTable(Settings(length=1, images=False), record, seed=seed) as table:
        table.run()
    events = [json.loads(line) for line in (record / JOURNAL_NAME).read_text().splitlines()]
    detected = 0
    for _ in range(count):
        edited = [dict(e) for e in events]
        target = rng.randrange(len(edited))
        event = edited[target]
        key = rng.choice([k for k in event if k != "prev"])
        event[key] = _mutate(event[key], rng)
        prev, out = "0" * 64, bytearray()
        for e in edited:
            line = encode_event({k: v for k, v in e.items() if k != "prev"}, prev)
            out += line + b"\n"
            prev = line_hash(line)
        path = root / "edited.jsonl"
        path.write_bytes(bytes(out))
        verdict = validate_file(str(path))
        detected += verdict.exit_code != 0
    print(f"edits: tried {count}, detected {detected}, undetected {count - detected}")


def _mutate(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + rng.choice([-1, 1, 60, 0.5])
    if isinstance(value, str):
        return value + "x" if value else "x"
    if isinstance(value, list):
        return value[:-1] if value else [0]
    return {"edited": True}


SOAK_KINDS: dict[str, list[str]] = {
    "people": ["--match-to", "1"],
    "bot": ["--match-to", "1", "--bots", "black"],  # a person carries out the bot's plays
    "chouette": ["--chouette", "3", "--games", "2", "--bots", "Cy"],  # a bot in the rotation
}
"""What each kind of soak seats at the table (options of `python -m firmware_host simulate`)."""


def soak_command(kind: str, variant: Variant, seed: int, record: Path) -> list[str]:
    """The `simulate` arguments of one soak run (printed for any run that does not finish)."""
    return ["simulate", "--variant", variant.value, "--seed", str(seed), *SOAK_KINDS[kind], "--quiet",
            "--record", str(record)]


def soak(seeds: int, root: Path, variants: list[Variant], kinds: list[str]) -> list[str]:
    """`simulate` on many seeds of each variant and kind of table: every match and session must
    finish. Returns the command of each that did not (printed too), to replay it."""
    unfinished: list[str] = []
    for kind in kinds:
        for variant in variants:
            finished = 0
            started = time.monotonic()
            for seed in range(1, seeds + 1):
                record = root / f"soak-{kind}-{variant.value}-{seed}"
                command = soak_command(kind, variant, seed, record)
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    code = table_main(command)
                finished += code == 0
                if code != 0:
                    again = " ".join(["python -m firmware_host", *command[:-1], "RECORD"])
                    unfinished.append(again)
                    print(f"  not finished (exit {code}): {again}", flush=True)
                shutil.rmtree(record)
            print(f"soak {kind} {variant.value}: seeds {seeds}, finished {finished}, not finished or failed "
                  f"{seeds - finished}, {(time.monotonic() - started) / seeds:.1f} s a run", flush=True)
    return unfinished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("part", choices=["frames", "cuts", "inputs", "edits", "soak", "all"])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=[v.value for v in Variant], action="append",
                        help="cuts and soak: only this variant (repeatable; default every variant)")
    parser.add_argument("--stride", type=int, default=1, help="cuts: every STRIDE-th cut point (default: every one)")
    parser.add_argument("--kind", choices=list(SOAK_KINDS), action="append",
                        help="soak: only this kind of table (repeatable; default every kind)")
    args = parser.parse_args()
    variants = [Variant(v) for v in args.variant] if args.variant else list(Variant)
    kinds = args.kind or list(SOAK_KINDS)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        import os

        os.environ.setdefault(KEY_ENV, str(root / "campaign-key.pem"))
        parts = ["frames", "inputs", "edits", "cuts", "soak"] if args.part == "all" else [args.part]
        unfinished: list[str] = []
        runs: dict[str, Callable[[], object]] = {
            "frames": lambda: frames(args.count, args.seed, root),
            "cuts": lambda: cuts(args.matches, root, variants, args.stride),
            "inputs": lambda: inputs(args.count, args.seed, root), "edits": lambda: edits(args.count, args.seed, root),
            "soak": lambda: unfinished.extend(soak(args.seeds, root, variants, kinds))}
        for part in parts:
            started = time.monotonic()
            runs[part]()
            print(f"  ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    if unfinished:
        sys.exit(f"{len(unfinished)} soak runs did not finish")


if __name__ == "__main__":
    main()
