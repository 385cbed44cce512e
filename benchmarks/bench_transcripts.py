"""Validate every transcript in a folder and print what the referee found, per producer.

    python3 benchmarks/bench_transcripts.py DIR [--gnubg] [--list]

DIR holds `.mat`/`.txt` transcripts and GNU Backgammon `.sgf` files, directly or one folder per
producer (each subfolder is a row).
For each row: files, accepted (LEGAL: read and replayed with no problem; `unfinished` of
them end mid-match), rejected (a problem, or unreadable), files with notes, and milliseconds per
file for `validate_file` (best of `--repeat` runs, in this process). With `--gnubg`, Debian's GNU
Backgammon imports the same files (`tests/gnubg_reader.py`): its import time per file inside one
gnubg process, the wall time of the gnubg processes per file, the files gnubg warned about or
crashed on, and, play by play, whether the position before each play agrees with ours (over the
plays both readers hold), and for every file (or the first `--sample` of each folder) the CPU time of
one gnubg process per file beside that of one `python -m game validate` process per file, each the best
of `--repeat`, file by file with their ratio (what checking one file costs
each way, start-up included, ours from a copy installed as pip installs the package, `installed_copy`;
the two are interleaved so the machine's load falls on both alike). Our figure is
CPU time (`time.process_time`, best of `--repeat`): the machine is shared. `--list` prints each rejected
file's first problem. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from game.progress import ProgressBar  # noqa: E402
from game.validate import Verdict, validate_file  # noqa: E402

SUFFIXES = {".mat", ".txt", ".sgf"}


@dataclass
class Row:
    """One producer's figures."""

    files: int = 0
    accepted: int = 0
    unfinished: int = 0
    rejected: int = 0
    noted: int = 0
    seconds: float = 0.0
    gnubg_seconds: float = 0.0
    gnubg_wall: float = 0.0
    gnubg_warned: int = 0
    gnubg_crashed: int = 0
    gnubg_single: float = 0.0  # mean wall seconds of one gnubg process importing one file
    gnubg_single_cpu: float = 0.0  # its mean CPU seconds
    ours_single: float = 0.0  # mean wall seconds of one `python -m game validate` process on one file
    ours_single_cpu: float = 0.0  # its mean CPU seconds
    plays_compared: int = 0
    disagreeing: list[str] = field(default_factory=list)
    per_file: list[tuple[str, float, float]] = field(default_factory=list)  # name, ours and gnubg's CPU seconds
    first_problems: list[str] = field(default_factory=list)


def transcripts(folder: Path) -> dict[str, list[Path]]:
    """The transcripts of a folder, by producer: its subfolders, or the folder itself."""
    groups: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix.lower() in SUFFIXES:
            name = path.parent.name if path.parent != folder else folder.name
            groups[name].append(path)
    return dict(groups)


def judge(paths: list[Path], repeat: int, row: Row) -> None:
    """Validate each file (one at a time: a folder of matches does not fit in memory at once),
    count the verdicts of the first run, and keep the best CPU time of `repeat` runs."""
    best = float("inf")
    bar = ProgressBar(len(paths) * repeat, sys.stderr, unit="files") if sys.stderr.isatty() else None
    began = time.perf_counter()
    for run in range(repeat):
        seconds = 0.0
        for done, path in enumerate(paths, start=1):
            start = time.process_time()
            verdict = validate_file(str(path))
            seconds += time.process_time() - start
            if run == 0:
                _count(row, path, verdict)
            if bar:
                bar(run * len(paths) + done, time.perf_counter() - began)
        best = min(best, seconds)
    row.files, row.seconds = len(paths), best


def _count(row: Row, path: Path, verdict: Verdict) -> None:
    if verdict.error is None and not verdict.problems:
        row.accepted += 1
        row.unfinished += not verdict.complete
    else:
        row.rejected += 1
        first = verdict.error or verdict.problems[0].describe().splitlines()[0]
        row.first_problems.append(f"{path.name}: {first}")
    row.noted += bool(verdict.notes)


def against_gnubg(paths: list[Path], row: Row, sample: int, repeat: int) -> None:
    from gnubg_reader import compare, gnubg_import, our_boards

    start = time.perf_counter()
    sgf = [path for path in paths if path.suffix.lower() == ".sgf"]
    by_path = dict(zip(sgf, gnubg_import(sgf, command="load match"), strict=True))
    mats = [path for path in paths if path not in by_path]
    by_path.update(zip(mats, gnubg_import(mats), strict=True))
    imports = [by_path[path] for path in paths]
    row.gnubg_wall = time.perf_counter() - start
    sampled = paths[:sample] if sample else paths
    folder = tempfile.mkdtemp(prefix="bench-transcripts-")
    python = installed_copy(Path(folder) / "venv")
    for path in sampled:  # one process per file each, interleaved: the machine's load falls on both alike
        command = "load match" if path.suffix.lower() == ".sgf" else "import mat"
        gnubg_runs, our_runs = [], []
        for _ in range(repeat):
            wall, used = _child_cost(partial(gnubg_import, [path], command=command))
            gnubg_runs.append((used, wall))
            wall, used = _child_cost(partial(subprocess.run, [str(python), "-m", "game", "validate", str(path)],
                                             capture_output=True, cwd=folder, check=False))
            our_runs.append((used, wall))
        (gnubg_cpu, gnubg_wall), (ours_cpu, ours_wall) = min(gnubg_runs), min(our_runs)
        row.gnubg_single += gnubg_wall / len(sampled)
        row.gnubg_single_cpu += gnubg_cpu / len(sampled)
        row.ours_single += ours_wall / len(sampled)
        row.ours_single_cpu += ours_cpu / len(sampled)
        row.per_file.append((path.name, ours_cpu, gnubg_cpu))
    shutil.rmtree(folder)
    for path, theirs in zip(paths, imports, strict=True):
        row.gnubg_seconds += theirs.seconds
        row.gnubg_warned += theirs.warned and not theirs.crashed
        row.gnubg_crashed += theirs.crashed
        if theirs.crashed:
            continue
        verdict = validate_file(str(path))
        if verdict.match is None:
            continue
        compared, differences = compare(our_boards(verdict.match), theirs.games)
        row.plays_compared += compared
        if differences and not verdict.problems:
            row.disagreeing.append(f"{path.name}: {differences[0]}")


def installed_copy(folder: Path) -> Path:
    """A virtual environment with the `game` package installed in it as pip installs a wheel (the
    modules in its site-packages, compiled to bytecode), and its python: a `python -m game` process
    measured as a referee's installed copy runs. The development install is an editable one, whose
    import hook costs every process some 13 ms of start-up (pathlib, fnmatch, importlib.util) that
    no installed copy pays, and without bytecode each process would compile some 50 modules (about
    60 ms) that a compiled program such as gnubg never pays either."""
    venv.create(folder, with_pip=False, symlinks=True)
    python = folder / "bin" / "python"
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site_packages = Path(subprocess.run([str(python), "-c", where], capture_output=True, text=True,
                                        check=True).stdout.strip())
    shutil.copytree(ROOT / "game", site_packages / "game", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([str(python), "-m", "compileall", "-q", str(site_packages / "game")], capture_output=True,
                   check=True)
    return python


def _child_cost(run: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of the child processes `run` starts and waits for."""
    before, start = _children_cpu(), time.perf_counter()
    run()
    return time.perf_counter() - start, _children_cpu() - before


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--gnubg", action="store_true", help="also import every file with Debian's gnubg")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="print each rejected file's first problem")
    parser.add_argument("--sample", type=int, default=0,
                        help="files of each folder timed with one process each (0: every file)")
    args = parser.parse_args()
    groups = transcripts(args.folder)
    if not groups:
        sys.exit(f"error: no .mat or .txt files under {args.folder}")
    rows: dict[str, Row] = {}
    for name, paths in groups.items():
        row = rows[name] = Row()
        judge(paths, args.repeat, row)
        if args.gnubg:
            against_gnubg(paths, row, args.sample, args.repeat)
    total = _total(rows)
    print_table(rows, total, args.gnubg)
    if args.gnubg:
        print_per_file(rows, args.repeat)
    if args.gnubg and total.disagreeing:
        print("accepted files whose positions differ from GNU Backgammon's:")
        for item in total.disagreeing:
            print("  " + item)
    if args.list:
        for name, row in sorted(rows.items()):
            for item in row.first_problems:
                print(f"rejected {name}/{item}")


def _total(rows: dict[str, Row]) -> Row:
    total = Row()
    for row in rows.values():
        for name in ("files", "accepted", "unfinished", "rejected", "noted", "seconds", "gnubg_seconds",
                     "gnubg_wall", "gnubg_warned", "gnubg_crashed", "plays_compared"):
            setattr(total, name, getattr(total, name) + getattr(row, name))
        total.disagreeing += row.disagreeing
    return total


def print_table(rows: dict[str, Row], total: Row, gnubg: bool) -> None:
    """A line per producer and one for all: the verdicts, our CPU per file, and gnubg's beside it."""
    head = f"{'producer':<16}{'files':>6}{'accepted':>9}{'(unfin.)':>9}{'rejected':>9}{'noted':>7}{'cpu ms/file':>12}"
    if gnubg:
        head += (f"{'gnubg import ms':>16}{'gnubg batch ms':>15}{'gnubg 1/proc ms':>16}{'ours 1/proc ms':>15}"
                 f"{'warned':>7}{'crashed':>8}{'plays':>8}{'differ':>7}")
    print(head)
    for name, row in [*sorted(rows.items()), ("all", total)]:
        line = (f"{name:<16}{row.files:>6}{row.accepted:>9}{row.unfinished:>9}{row.rejected:>9}{row.noted:>7}"
                f"{1000 * row.seconds / row.files:>12.1f}")
        if gnubg:
            gnubg_one, ours_one = ((row.gnubg_single_cpu, row.ours_single_cpu) if name != "all" else
                                   (sum(r.gnubg_single_cpu for r in rows.values()) / len(rows),
                                    sum(r.ours_single_cpu for r in rows.values()) / len(rows)))
            line += (f"{1000 * row.gnubg_seconds / row.files:>16.1f}{1000 * row.gnubg_wall / row.files:>15.1f}"
                     f"{1000 * gnubg_one:>16.1f}{1000 * ours_one:>15.1f}{row.gnubg_warned:>7}{row.gnubg_crashed:>8}"
                     f"{row.plays_compared:>8}{len(row.disagreeing):>7}")
        print(line)


def print_per_file(rows: dict[str, Row], repeat: int) -> None:
    """One process per file, ours beside gnubg's, and how many ours is cheaper on."""
    timed = [(name, file, ours, theirs)
             for name, row in sorted(rows.items()) for file, ours, theirs in row.per_file]
    print(f"one process per file, CPU ms (best of {repeat}): ours = python -m game validate FILE, gnubg = "
          f"its whole process importing FILE ('import mat', 'load match' for .sgf)")
    for name, file, ours, theirs in timed:
        print(f"  {name + '/' + file:<60}{1000 * ours:>8.1f}{1000 * theirs:>8.1f}  ratio {ours / theirs:.2f}")
    cheaper = sum(ours < theirs for _, _, ours, theirs in timed)
    worst = max(ours / theirs for _, _, ours, theirs in timed)
    print(f"ours cheaper on {cheaper} of {len(timed)} files; worst ratio ours/gnubg {worst:.2f}")


if __name__ == "__main__":
    main()
