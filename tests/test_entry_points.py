"""Every `python -m` command runs numpy's BLAS on one thread unless told otherwise: the bot's batches
are small, and OpenBLAS's default of a thread a core made a play slower and the controller larger
(game/bot/README.md, "Memory"). OpenBLAS reads the setting once, when numpy is first imported, so
each entry point must set it before anything imports numpy; the threads the process has afterwards
show whether it did."""

import os
import subprocess
import sys

import pytest
from repo import ROOT

ENTRY_POINTS = ("firmware_host", "game", "game.chouette", "game.bot")

RUN = """
import os, runpy, sys
sys.argv = [sys.argv[1], "--help"]
try:
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
except SystemExit as done:
    assert done.code in (0, None), done.code
import numpy  # OpenBLAS starts its threads at numpy's first import, the command line's or this one
print(os.environ.get("OPENBLAS_NUM_THREADS"), len(os.listdir("/proc/self/task")), file=sys.stderr)
"""


def threads_after(entry: str, environment: dict[str, str]) -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-c", RUN, entry], env=environment, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    setting, threads = done.stderr.split()[-2:]
    return setting, int(threads)


def without_the_setting() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_each_command_runs_numpy_on_one_thread(entry: str) -> None:
    assert threads_after(entry, without_the_setting()) == ("1", 1)


def test_a_setting_the_user_made_is_kept() -> None:
    setting, _ = threads_after("firmware_host", without_the_setting() | {"OPENBLAS_NUM_THREADS": "2"})
    assert setting == "2"
