"""A table given a broker that does not answer says so in one line, goes on with its match, keeps
retrying, and says so again in one line when a real Mosquitto comes up on that port."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from repo import ROOT
from room_fixtures import require, wait_until

from firmware_host.emulator.table import EmulatedTable
from firmware_host.room.broker import BrokerConfig
from firmware_host.room.mosquitto import INSTALL_HINT, Mosquitto, find_mosquitto, free_port
from firmware_host.settings import Settings

pytestmark = pytest.mark.room


def test_simulate_with_no_broker_says_so_once_and_finishes(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    done = subprocess.run([sys.executable, "-m", "firmware_host", "simulate", "--match-to", "1", "--seed", "4",
                           "--quiet", "--broker", f"mqtt://127.0.0.1:{port}", "--insecure-anonymous-broker",
                           "--table", "t1",
                           "--record", str(tmp_path / "r")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    said = [line for line in done.stderr.splitlines() if line.startswith("room: ")]
    assert done.returncode == 0, done.stderr
    assert said == [f"room: the broker mqtt://127.0.0.1:{port} does not answer; retrying every few seconds, "
                    "the match goes on and its record is sent when it answers"], done.stderr
    assert "Traceback" not in done.stderr and "finished: score" in done.stdout


def test_the_table_keeps_retrying_until_the_broker_answers(tmp_path: Path) -> None:
    require("Mosquitto", find_mosquitto(), INSTALL_HINT)
    port = free_port()
    broker = BrokerConfig.from_url(f"mqtt://127.0.0.1:{port}", table="t1", insecure_anonymous=True)
    mosquitto = Mosquitto(tmp_path / "broker", port)
    try:
        with EmulatedTable(Settings(length=1), tmp_path / "r", seed=2, players=False, broker=broker) as table:
            def log() -> list[str]:
                return [line for line in table.controller.log if line.startswith("room: ")]

            def step() -> None:
                table.step()
                time.sleep(0.01)

            wait_until(lambda: log(), 30, "the line that the broker does not answer", step)
            assert len(log()) == 1 and "does not answer" in log()[0]
            mosquitto.start()
            wait_until(lambda: len(log()) == 2, 30, "the line that the broker answers", step)
            assert log()[1] == f"room: the broker mqtt://127.0.0.1:{port} answers: table t1 is in the room"
            assert table.link is not None and table.link.publisher.connected
    finally:
        mosquitto.stop()
