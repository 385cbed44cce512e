"""Long commands say how far they are on stderr when it is a terminal (and only then)."""

from __future__ import annotations

import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from repo import ROOT

from game.board import Variant
from game.bot.analysis import read_events
from game.match_sim import random_match
from game.record import record_bytes

pytestmark = pytest.mark.subprocess  # each runs a command on a pseudo-terminal


def stderr_on_a_terminal(args: list[str], timeout: float = 300.0) -> tuple[int, str]:
    """Run a command with its stderr on a pseudo-terminal; its status and all it wrote there."""
    master, slave = os.openpty()
    process = subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 4096)
            except OSError:  # the command closed its end
                break
            if not data:
                break
            chunks.append(data)
        elif process.poll() is not None:
            break
    os.close(master)
    return process.wait(timeout=60), b"".join(chunks).decode(errors="replace")


def test_analyse_shows_its_progress_on_a_terminal_only(tmp_path: Path) -> None:
    match = random_match(Variant.RUNGAMMON, 1, rng=random.Random(8), cube_rate=0.0, resign_rate=0.0)
    record = tmp_path / "r.jsonl"
    record.write_bytes(record_bytes(match))
    events = len(read_events(str(record))[0])
    args = ["-m", "game", "analyse", str(record), "--level", "advanced"]
    status, shown = stderr_on_a_terminal(args)
    assert status == 0, shown
    assert shown.startswith(f"analysing {record} at the advanced level...")
    last = shown.replace("\r\n", "\n").split("\r")[-1]
    assert f"] {events}/{events} events" in last, shown[-300:]
    quiet = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and "events" not in quiet.stderr


def test_train_shows_its_bar_on_a_terminal(tmp_path: Path) -> None:
    status, shown = stderr_on_a_terminal(["-m", "game.bot", "train", "--variant", "rungammon", "--games", "3",
                                          "--every", "3", "--eval-games", "0", "--hidden", "4",
                                          "--out", str(tmp_path / "t.npz")])
    assert status == 0, shown
    assert "] 3/3 games" in shown and "wrote" in shown


def test_validating_a_folder_of_transcripts_shows_its_progress_on_a_terminal(tmp_path: Path) -> None:
    for name in ("a.mat", "b.mat"):
        (tmp_path / name).write_bytes((ROOT / "examples" / "match.mat").read_bytes())
    status, shown = stderr_on_a_terminal(["benchmarks/bench_transcripts.py", str(tmp_path)])
    assert status == 0, shown
    assert "] 2/2 files" in shown
