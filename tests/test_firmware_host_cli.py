"""`python -m firmware_host`: simulate, stats and run --config, as a user calls them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.config import load_config
from firmware_host.hardware import run_hardware
from game.cli import main as game_main
from game.mat import import_mat


def test_simulate_plays_a_whole_match_and_leaves_its_record(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "match"
    assert main(["simulate", "--variant", "backgammon", "--seed", "5", "--match-to", "1",
                 "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "finished: score" in out and "dice:" in out
    journal = record / "journal.jsonl"
    events = [json.loads(line) for line in journal.read_text().splitlines()]
    end = [e for e in events if e["type"] == "match_end"][0]
    assert game_main(["validate", str(journal)]) == 0
    mat = import_mat((record / "match.mat").read_text())
    assert mat.score == (end["score"]["white"], end["score"]["black"])
    assert main(["stats", str(record)]) == 0 and "rolls" in capsys.readouterr().out


def test_the_same_seed_gives_the_same_match(tmp_path: Path) -> None:
    plays = []
    for name in ("a", "b"):
        assert main(["simulate", "--variant", "rungammon", "--seed", "8", "--match-to", "1",
                     "--record", str(tmp_path / name)]) == 0
        lines = (tmp_path / name / "journal.jsonl").read_text().splitlines()
        plays.append([json.loads(line).get("moves") for line in lines if '"type":"play"' in line])
    assert plays[0] == plays[1] and len(plays[0]) > 10


def test_simulate_needs_a_record_directory(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--seed", "1"]) == 2
    assert "simulate needs --record DIR" in capsys.readouterr().err


def test_run_with_a_config_opens_the_table_and_keeps_a_journal(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(f"""
[board]
port = "emulator://cli-config-test?capability=counts"
[gpio]
pin_factory = "mock"
[match]
variant = "catchgammon"
length = 5
profile = "casual"
[record]
dir = "{tmp_path / 'rec'}"
""")
    loaded = load_config(config)
    assert loaded.settings.length == 5 and loaded.settings.profile.value == "casual"
    assert run_hardware(loaded, quiet=True, max_seconds=1.5) == 1  # nobody played: not finished
    events = [json.loads(line) for line in (tmp_path / "rec" / "journal.jsonl").read_text().splitlines()]
    types = [e["type"] for e in events]
    assert types[:3] == ["match_start", "game_start", "controller_start"]
    assert {"type": "link", "state": "up"}.items() <= next(e for e in events if e["type"] == "link").items()


@pytest.mark.parametrize(("text", "message"), [
    ("[board]\nport = 3\n[nonsense]\n", "unknown sections ['nonsense']"),
    ("[dice]\nsource = 'board'\n", "[board] port is required"),
    ("[board]\nport = 'x'\n[gpio.buttons]\nwhite_jump = 4\n", "'white_jump' is not PLAYER_BUTTON"),
    ("[board\n", "is not valid TOML"),
    ("[board]\nport = 'x'\n[match]\nvariant = 'chess'\n", "'chess' is not a valid Variant"),
])
def test_a_bad_config_is_one_clear_line_and_exit_2(tmp_path: Path, text: str, message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(text)
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
