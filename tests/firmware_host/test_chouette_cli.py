"""`python -m firmware_host --chouette`, `simulate --chouette` and `run --config` with [chouette], as a
user calls them: the session finishes, its record validates and draws, each member's games are
written for GNU Backgammon (read back by Debian's gnubg), the same seed gives the same record,
and bad input is one line and exit 2."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from configs import refusal
from needs import require
from played import played_once, session_key

from firmware_host.cli import main
from firmware_host.config import load_config
from firmware_host.hardware import run_hardware
from firmware_host.record.signing import KEY_ENV
from game.chouette.events import EVENT_TYPES
from game.cli import main as game_main

pytestmark = pytest.mark.subprocess

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)


def events(record: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (record / "journal.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """`simulate --chouette 4 --games 3`, run once in the test session: its record directory and what it
    printed."""
    def play(folder: Path) -> None:
        with pytest.MonkeyPatch.context() as patch:  # the test session's key (conftest.py), before its fixture runs
            patch.setenv(KEY_ENV, str(session_key(tmp_path_factory)))
            out = subprocess.run([sys.executable, "-m", "firmware_host", "simulate", "--chouette", "4", "--games",
                                  "3", "--seed", "6", "--record", str(folder / "record"), "--quiet"],
                                 capture_output=True, text=True, check=False, timeout=600)
        assert out.returncode == 0, out.stdout + out.stderr
        (folder / "printed.txt").write_text(out.stdout, encoding="utf-8")
    folder = played_once(tmp_path_factory, "simulated-chouette", play)
    return folder / "record", (folder / "printed.txt").read_text(encoding="utf-8")


def test_simulate_plays_the_whole_session_and_its_record_validates_and_draws(
        simulated: tuple[Path, str], tmp_path: Path) -> None:
    record, out = simulated
    assert re.search(r"^finished: Ann [+-]?\d+, Bob [+-]?\d+, Cy [+-]?\d+, Dee [+-]?\d+ after 3 games", out, re.M), out
    types = [e["type"] for e in events(record)]
    assert types[:3] == ["table_key", "chouette_start", "controller_start"] and types.count("session_end") == 1
    assert game_main(["validate", str(record / "journal.jsonl")]) == 0
    assert game_main(["report", str(record / "journal.jsonl"), "--out", str(tmp_path / "sheet.pdf")]) == 0
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    mats = sorted(p.name for p in (record / "mats").iterdir())
    assert mats and set(mats) <= {"Ann.mat", "Bob.mat", "Cy.mat", "Dee.mat"}
    assert all(f"wrote {record / 'mats' / name}" in out for name in mats)


def test_gnubg_reads_each_members_games_from_the_table_with_the_members_result(simulated: tuple[Path, str]) -> None:
    require("GNU Backgammon", GNUBG, "apt-get install gnubg")
    assert GNUBG is not None
    record, _ = simulated
    settled = [e for e in events(record) if e["type"] == "settle"]
    for mat in sorted((record / "mats").iterdir()):
        member = mat.stem
        shown = subprocess.run([GNUBG, "-t", "-q"], input=f"set display off\nimport mat {mat}\nshow score\n",
                               capture_output=True, text=True, timeout=120, check=False).stdout
        found = re.search(rf"The score \(after \d+ games?\) is: Box (\d+), {member} (\d+)", shown)
        assert found, shown[-500:]
        mine = sum(int(str(e["points"])) for e in settled if e["member"] == member)
        assert int(found[2]) - int(found[1]) == mine, member


def test_the_same_seed_gives_the_same_session(tmp_path: Path) -> None:
    sessions = []
    for name in ("a", "b"):
        assert main(["simulate", "--chouette", "Ann,Bob,Cy", "--games", "1", "--seed", "12", "--quiet",
                     "--record", str(tmp_path / name)]) == 0
        # time stamps and all (not the chain: the link's lines name each run's emulator)
        sessions.append([{k: v for k, v in e.items() if k != "prev"} for e in events(tmp_path / name)
                         if e["type"] in EVENT_TYPES])
    assert sessions[0] == sessions[1] and sessions[0][-1]["type"] == "session_end" and len(sessions[0]) > 50


def test_the_live_view_of_a_chouette(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")  # the terminal's size, as a shell tells it
    monkeypatch.setenv("LINES", "50")
    assert main(["--chouette", "Ann,Bob,Cy", "--games", "1", "--seed", "3", "--speed", "100000",
                 "--house", "beavers,jacoby", "--record", str(tmp_path / "live")]) == 0
    frames = capsys.readouterr().out.split("\x1b[H")
    assert any("chouette, backgammon, members' own cubes, jacoby, beavers | game 1 | box" in f for f in frames)
    last = frames[-1]
    assert "the chouette is over after 1 game:" in last and re.search(r"totals  Ann [+-]?\d", last)
    assert any(re.search(r"  P1 \w+ \d+.*\*captain\*", f) for f in frames)
    drawn = [line.removesuffix("\x1b[K") for f in frames[1:-1] for line in f.split("\n")]
    assert len(drawn) > 50 and all(len(line) <= 160 for line in drawn)  # each frame fits the terminal's width


@pytest.mark.parametrize(("argv", "message"), [
    (["--chouette", "2"], "a chouette seats 3 to 9 players"),
    (["--chouette", "Ann,Bob"], "a chouette seats 3 to 9 players, got 2"),
    (["--chouette", "Ann,Ann,Bob"], "a name of their own"),
    (["--chouette", "3", "--house", "bogus"], "'bogus' is not a house option"),
    (["--chouette", "3", "--house", "box_partner"], "'box_partner' is not a house option"),
    (["--chouette", "3", "--house", "team_cube,box_takes_half"], "the box-takes-half rule is about members' own"),
    (["--chouette", "3", "--games", "-1"], "the number of games is a whole number"),
    (["--house", "beavers"], "--house sets a chouette's house options: give --chouette too"),
])
def test_bad_chouette_input_is_one_line_and_exit_2(tmp_path: Path, argv: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        code = main(["simulate", *argv, "--record", str(tmp_path / "r")])
        raise SystemExit(code)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and message in err and err.count("\n") == 1, err


def test_run_with_a_config_seats_the_configured_players(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(f"""
[board]
port = "emulator://cli-chouette-config"
[gpio]
pin_factory = "mock"
[match]
variant = "rungammon"
[chouette]
players = ["Ann", "Bob", "Cy", "Dee", "Eve"]
games = 4
beavers = true
[record]
dir = "{tmp_path / 'rec'}"
""")
    loaded = load_config(config)
    chouette = loaded.settings.chouette
    assert chouette is not None and chouette.players == ("Ann", "Bob", "Cy", "Dee", "Eve") and chouette.games == 4
    assert chouette.options.beavers and not loaded.settings.timed  # a chouette is played without the clock
    assert run_hardware(loaded, quiet=True, max_seconds=1.5) == 1  # nobody threw for the order: not finished
    journal = events(tmp_path / "rec")
    assert [e["type"] for e in journal][:3] == ["table_key", "chouette_start", "controller_start"]
    start, controller = journal[1], journal[2]
    assert start["players"] == ["Ann", "Bob", "Cy", "Dee", "Eve"] and start["variant"] == "rungammon"
    assert start["options"]["beavers"] is True and controller["chouette"] == {"games": 4}
    assert run_hardware(loaded, quiet=True, max_seconds=1.0) == 1  # the same config resumes the session
    assert [e["type"] for e in events(tmp_path / "rec")].count("resume") == 1


@pytest.mark.parametrize(("text", "message"), [
    ("[chouette]\nplayers = ['Ann', 'Bob']\n", "[chouette] a chouette seats 3 to 9 players, got 2"),
    ("[chouette]\nplayers = 'Ann,Bob,Cy'\n", "players = 'Ann,Bob,Cy': must be a list of names"),
    ("[chouette]\nplayers = ['Ann', 'Bob', 'Cy']\nteam_cube = true\nbox_takes_half = true\n",
     "[chouette] the box-takes-half rule is about members' own cubes"),
    ("[chouette]\nplayers = ['Ann', 'Bob', 'Cy']\nbox_partner = true\n", "[chouette] box_partner is not a key"),
])
def test_a_bad_chouette_config_is_one_line_and_exit_2(tmp_path: Path, text: str, message: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    err = refusal(tmp_path, text, capsys)
    assert message in err and err.count("\n") == 1, err
