"""Long commands and Ctrl-C: SIGINT delivered to each, one line on stderr and exit 130, and the
files each leaves checked (a simulated match's journal resumes, a training run keeps what it has
learnt); a finished record is never written to again."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from needs import ctrl_c_reaches
from repo import ROOT

from game.board import Variant
from game.bot.distill import Labels
from game.bot.network import Network

REJECTION = re.compile(r"emulator://\S+: rejected ")
"""A line the link logs for a frame it refused (drivers/link.py), as the emulated board's injected faults make."""

pytestmark = pytest.mark.subprocess


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=ctrl_c_reaches)


def wait_for(path: Path, process: subprocess.Popen[str], timeout: float = 120.0) -> None:
    """Until `path` exists: the command is past its imports and at work."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)


def interrupt(process: subprocess.Popen[str]) -> tuple[int, str]:
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    return process.returncode, err


def test_ctrl_c_in_simulate_is_one_line_and_the_same_command_resumes(tmp_path: Path) -> None:
    record = tmp_path / "m"
    # An 11-point match (a few seconds here) interrupted as soon as its journal holds a play (the table
    # is at work, past its set-up), not after a fixed wait: a 5-point match once ended, whole, within
    # the second the test used to wait.
    command = ("-m", "firmware_host", "simulate", "--seed", "5", "--match-to", "11", "--quiet", "--record",
               str(record))
    process = start(*command)
    journal = record / "journal.jsonl"
    wait_for(journal, process)
    deadline = time.monotonic() + 120
    while b'"type":"play"' not in journal.read_bytes():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{journal} holds no play"
        time.sleep(0.01)
    status, err = interrupt(process)
    assert status == 130 and "Traceback" not in err, err
    # what the simulated board's faults made the link log before the press may stand above it
    said = [line for line in err.splitlines() if line and not REJECTION.match(line)]
    assert said == [f"interrupted: the journal in {record} is kept, and the same command resumes it"], err
    kept = (record / "journal.jsonl").read_bytes()
    assert kept.count(b"\n") > 3
    done = subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (record / "journal.jsonl").read_bytes().startswith(kept)
    valid = subprocess.run([sys.executable, "-m", "game", "validate", str(record / "journal.jsonl")], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
    assert valid.returncode == 0, valid.stdout + valid.stderr


def test_simulate_refuses_a_finished_record_and_leaves_it_as_it_was(tmp_path: Path) -> None:
    record = tmp_path / "m"
    command = [sys.executable, "-m", "firmware_host", "simulate", "--seed", "2", "--match-to", "1", "--quiet",
               "--record", str(record)]
    assert subprocess.run(command, cwd=ROOT, capture_output=True, timeout=300).returncode == 0
    before = (record / "journal.jsonl").read_bytes()
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and len(again.stderr.strip().splitlines()) == 1, again.stderr
    assert "finished match" in again.stderr and str(record) in again.stderr
    assert (record / "journal.jsonl").read_bytes() == before


def test_ctrl_c_in_train_keeps_what_it_has_learnt(tmp_path: Path) -> None:
    out = tmp_path / "rg.npz"
    process = start("-m", "game.bot", "train", "--variant", "rungammon", "--games", "100000", "--seed", "1",
                    "--every", "50000", "--eval-games", "0", "--out", str(out))
    wait_for(out, process)  # the starting network, saved at once
    time.sleep(4.0)
    status, err = interrupt(process)
    assert status == 130 and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1 and err.strip().startswith("interrupted after ")
    network = Network.load(out)
    played = network.record["interrupted"]["after_games"]
    assert 0 < played < 100000 and network.record["games"] == played and network.record["interrupted"]["of"] == 100000


@pytest.mark.parametrize("command", [("-m", "game", "analyse", "{record}", "--level", "expert")])
def test_ctrl_c_in_other_long_commands_is_one_line(tmp_path: Path, command: tuple[str, ...]) -> None:
    record = tmp_path / "m"
    assert subprocess.run([sys.executable, "-m", "firmware_host", "simulate", "--seed", "2", "--match-to", "7",
                           "--quiet", "--record", str(record)], cwd=ROOT, capture_output=True,
                          timeout=300).returncode == 0
    journal = str(record / "journal.jsonl")
    process = start(*(part.replace("{record}", journal) for part in command))
    time.sleep(3.0)  # past the imports, at work (a fast machine may have finished: then exit 0)
    status, err = interrupt(process)
    assert status in (0, 130) and "Traceback" not in err, err
    if status == 130:
        assert err.strip().splitlines()[-1] == f"interrupted: {command[2]} stopped"


def test_ctrl_c_in_average_is_one_line_and_writes_no_half_file(tmp_path: Path) -> None:
    parts = []
    for seed in (1, 2):
        part = tmp_path / f"n{seed}.npz"
        subprocess.run([sys.executable, "-m", "game.bot", "train", "--variant", "rungammon", "--games", "2",
                        "--seed", str(seed), "--every", "2", "--eval-games", "0", "--hidden", "4", "--out", str(part)],
                       cwd=ROOT, check=True, capture_output=True, timeout=300)
        parts.append(str(part))
    out = tmp_path / "mean.npz"
    process = start("-m", "game.bot", "average", "--out", str(out), "--eval-games", "2000", *parts)
    time.sleep(6.0)  # into its evaluation games
    status, err = interrupt(process)
    assert status == 130 and "Traceback" not in err, err
    assert err.strip().splitlines() == ["interrupted: average stopped"]
    assert not out.exists()


def test_ctrl_c_while_distill_labels_keeps_the_rows_made_and_a_second_run_fits_them(tmp_path: Path) -> None:
    init, labels, out = tmp_path / "tiny.npz", tmp_path / "labels.npz", tmp_path / "d.npz"
    Network.untrained(Variant.CATCHGAMMON, 6, 1).save(init)
    process = start("-m", "game.bot", "distill", "--init", str(init), "--games", "100000", "--labels", str(labels),
                    "--epochs", "2", "--out", str(out))
    time.sleep(8.0)  # past the imports, some games labelled
    status, err = interrupt(process)
    assert status == 130 and "Traceback" not in err, err
    last = err.strip().splitlines()[-1]
    assert re.fullmatch(r"interrupted: distill stopped while labelling; its (\d+) labelled rows "
                        r"\(\d+ games finished\) kept in " + re.escape(str(labels)) + ": the same command fits them",
                        last), last
    rows = int(re.findall(r"its (\d+) labelled rows", last)[0])
    kept = Labels.load(labels)
    assert rows > 0 and kept.states.shape[0] == kept.targets.shape[0] == rows
    assert not out.exists()
    again = subprocess.run([sys.executable, "-m", "game.bot", "distill", "--init", str(init), "--games", "100000",
                            "--labels", str(labels), "--epochs", "2", "--out", str(out)],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"read {rows} labelled rows" in again.stderr
    assert Network.load(out).record["distilled"]["rows"] == rows - rows // 10
