"""The README runs as written: every command of its `sh` blocks, in order, on a fresh copy of the
project (its files as git knows them), each exiting 0; the only ones left out are those that
need what a test cannot give (a person at the live view, real hardware, a broker at a venue's
address, hours of training, the benchmarks), each named here with the reason."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from repo import ROOT

RUNNABLE_HEADLESS = ("simulate", "stats")


def readme_commands() -> list[str]:
    """Every command line of the README's `sh` blocks, in order, comments left on."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def why_not_run(words: list[str]) -> str | None:
    """Why a test cannot run this command as written (None: it can)."""
    if words[0] not in ("python", "python3") or "&&" in words:
        return "the set-up (a virtual environment, pip, the test suite)"
    if words[1].startswith("benchmarks/") or (words[1] == "-m" and words[2].startswith("benchmarks.")):
        return "a benchmark: figures, minutes"
    module, rest = words[2], words[3:]
    if module == "game.bot":
        return "training: an hour or more"
    if module != "firmware_host":
        return None
    command = next((word for word in rest if not word.startswith("-")), None)
    if rest == ["director", "--hash-password"]:
        return None  # reads the password from stdin
    if "--broker" in rest or command in ("director", "room-demo", "run"):
        return "a room or a real table: a broker at the venue's address, hardware"
    if command == "check":
        return "real hardware" if "--config" in rest else None
    if command in RUNNABLE_HEADLESS:
        return None
    return "the live view: a person at the terminal (tests/test_controller_pty.py drives it)"


def test_the_readme_lists_its_commands_and_every_runnable_one_is_run() -> None:
    commands = [shlex.split(line, comments=True) for line in readme_commands()]
    runnable = [words for words in commands if why_not_run(words) is None]
    assert len(runnable) >= 25, runnable  # the README's own commands, not a handful


@pytest.mark.subprocess
def test_the_readmes_commands_run_in_order_on_a_fresh_copy(tmp_path: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    copy = tmp_path / "smartgammon"
    for name in listed:
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    durations = []
    for line in readme_commands():
        words = shlex.split(line, comments=True)
        if why_not_run(words) is not None:
            continue
        started = time.monotonic()
        done = subprocess.run([sys.executable, *words[1:]], cwd=copy, capture_output=True, text=True,
                              timeout=600, input="example only\n")
        durations.append((time.monotonic() - started, line))
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    print("\n".join(f"{seconds:6.1f} s  {line}" for seconds, line in durations))
    for made in ("out/m1/journal.jsonl", "out/match.pdf", "out/analysed.pdf", "out/board.png", "out/match.jsonl"):
        assert (copy / made).stat().st_size > 0, made


@pytest.mark.parametrize("name", ["pos.json", "positions.jsonl", "match.mat", "table.toml", "director.toml"])
def test_each_example_file_is_used_by_the_readme(name: str) -> None:
    assert any(f"examples/{name}" in line for line in readme_commands())
