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
from game.transcripts import replay_sgf

pytestmark = pytest.mark.subprocess


def test_simulate_plays_a_whole_match_and_leaves_its_record(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "match"
    assert main(["simulate", "--variant", "backgammon", "--seed", "5", "--match-to", "1",
                 "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "finished: score" in out and "dice:" in out
    summary = out[out.index("== summary of the match"):].splitlines()
    assert summary[1].startswith("game 1 over: ") and summary[2].startswith("match over: ")  # the games, then the end
    assert all(line.startswith("FLAG ") for line in summary[3:summary.index(next(
        line for line in summary if line.startswith("finished:")))])
    journal = record / "journal.jsonl"
    events = [json.loads(line) for line in journal.read_text().splitlines()]
    end = [e for e in events if e["type"] == "match_end"][0]
    assert game_main(["validate", str(journal)]) == 0
    mat = import_mat((record / "match.mat").read_text())
    assert mat.score == (end["score"]["white"], end["score"]["black"])
    sgf = replay_sgf((record / "match.sgf").read_text()).replayer
    assert not sgf.problems and sgf.match is not None and sgf.match.score == mat.score
    assert main(["stats", str(record)]) == 0 and "rolls" in capsys.readouterr().out


def test_stats_counts_a_record_named_twice_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["simulate", "--seed", "5", "--match-to", "1", "--quiet", "--record", str(tmp_path / "m")]) == 0
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["stats", "m"]) == 0
    once = capsys.readouterr().out
    assert main(["stats", "m", "./m", str(tmp_path / "m")]) == 0
    out, err = capsys.readouterr()
    assert out == once and "session" not in out  # one match: its line, and no session of it counted thrice
    assert err.splitlines() == ["./m: the record m again, counted once",
                                f"{tmp_path / 'm'}: the record m again, counted once"]


@pytest.mark.parametrize(("under", "message"), [
    ("a-file", "the record directory {path} is a file, not a directory: name another"),
    ("a-file/match", "cannot make the record directory {path}: Not a directory"),
])
def test_a_record_directory_that_cannot_be_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       under: str, message: str) -> None:
    (tmp_path / "a-file").write_text("not a directory\n")
    path = tmp_path / under
    assert main(["simulate", "--seed", "1", "--quiet", "--record", str(path)]) == 2
    assert capsys.readouterr().err == f"error: {message.format(path=path)}\n"
    assert (tmp_path / "a-file").read_text() == "not a directory\n"  # nothing written over it


def test_the_same_seed_gives_the_same_match(tmp_path: Path) -> None:
    plays = []
    for name in ("a", "b"):
        assert main(["simulate", "--variant", "rungammon", "--seed", "8", "--match-to", "1",
                     "--record", str(tmp_path / name)]) == 0
        lines = (tmp_path / name / "journal.jsonl").read_text().splitlines()
        plays.append([json.loads(line).get("moves") for line in lines if '"type":"play"' in line])
    assert plays[0] == plays[1] and len(plays[0]) > 10


def test_version_names_the_engine_and_the_sensor_frames_path(capsys: pytest.CaptureFixture[str]) -> None:
    from drivers.protocol import describe_frame_path
    from game.cli import version

    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    line = capsys.readouterr().out
    assert line == f"{version()}; sensor frames: {describe_frame_path()}\n"
    assert line.startswith("smartgammon ") and "legal plays: " in line and "frame path" in line


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
    assert types[:4] == ["table_key", "match_start", "game_start", "controller_start"]
    assert {"type": "link", "state": "up"}.items() <= next(e for e in events if e["type"] == "link").items()


@pytest.mark.parametrize(("text", "message"), [
    ("[board]\nport = 3\n[nonsense]\n", "[nonsense] is not a section"),
    ("[dice]\nsource = 'board'\n", "[board] port is required"),
    ("[board]\nport = 'x'\n[gpio.buttons]\nwhite_jump = 4\n", "[gpio.buttons] white_jump is not a key"),
    ("[board\n", "is not valid TOML"),
    ("[board]\nport = 'x'\n[match]\nvariant = 'chess'\n", "variant = 'chess': must be one of \"backgammon\""),
    ("[board]\nport = 'x'\n[match]\nplayers = []\n", "players = []: must be a list of 2 names"),
    ("[board]\nport = 'x'\nsettle_seconds = -1\n", "settle_seconds = -1: must be at least 0"),
    ("[board]\nport = 'x'\nreply_seconds = 0\n", "reply_seconds = 0: must be at least 0.1"),
    ("[board]\nport = 'x'\n[match]\nlength = 0\nmax_cube = 'abc'\n", "max_cube = 'abc': must be a whole number"),
    ("[board]\nport = 'x'\n[gpio.buttons]\nwhite_done = 999\n", "white_done = 999: is not a GPIO pin"),
    ("[board]\nport = 'x'\n[gpio.buttons]\nwhite_done = 6\n", "[gpio.buttons] white_double: pin 6 is already"),
    ("[board]\nport = 'x'\n[gpio.cube]\nsegments = 5\n", "segments = 5: must be a list of 7 pins"),
    ("[board]\nport = 'x'\n[gpio.cube]\ndigits = [8]\n", "digits = [8]: must be a list of 2 pins"),
    ("[board]\nport = 'x'\n[clock]\nenabled = 'no'\n", "enabled = 'no': must be true or false"),
    ("[board]\nport = 'x'\n[match]\nlenght = 5\n", "[match] lenght is not a key (did you mean length?)"),
    ("[board]\nport = 'x'\n[match]\nlength = 2.7\n", "length = 2.7: must be a whole number"),
    ("[board]\nport = 'x'\n[match]\nbeavers = true\n", "are for money sessions (length = 0) only"),
    ("port = 'x'\n", "port = 'x' is outside any section"),
    ("[board]\nport = 'x'\n[gpio]\npin_factory = 'bogus'\n",
     'pin_factory = \'bogus\': must be one of "default", "lgpio", "mock", "native", "pigpio", "rpigpio"'),
    ("[board]\nport = 'x'\n[buttons]\nsource = 'mouse'\n", 'source = \'mouse\': must be one of "gpio", "keyboard"'),
])
def test_a_bad_config_is_one_clear_line_and_exit_2(tmp_path: Path, text: str, message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(text)
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_config_that_is_not_text_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "binary.toml"
    config.write_bytes(bytes(range(256)))
    assert main(["run", "--config", str(config)]) == 2
    assert "is not a text file" in capsys.readouterr().err


def test_the_pin_factories_are_gpiozeros_own() -> None:
    from importlib.metadata import entry_points

    from drivers.pin_factories import factory_names

    assert factory_names() == ("default", *sorted(p.name for p in entry_points(group="gpiozero_pin_factories")))
    assert {"lgpio", "rpigpio", "pigpio", "native", "mock"} <= set(factory_names())


def test_a_named_pin_factory_is_that_one_or_one_line_saying_why_not() -> None:
    from gpiozero.pins.mock import MockFactory

    from drivers.errors import DriverConfigError, GpioUnavailable
    from drivers.pin_factories import open_pin_factory

    assert isinstance(open_pin_factory("mock"), MockFactory)
    try:
        factory = open_pin_factory("pigpio")  # never quietly the default
    except GpioUnavailable as why:
        assert str(why).startswith("gpiozero's pin factory 'pigpio' cannot start here: ") and "\n" not in str(why)
    else:
        assert type(factory).__module__ == "gpiozero.pins.pigpio"
        factory.close()
    with pytest.raises(DriverConfigError, match="pin factory 'bogus' is not one of gpiozero's: default, lgpio"):
        open_pin_factory("bogus")


def test_a_machine_without_gpio_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    probe = subprocess.run([sys.executable, "-c", "from gpiozero import Device; Device.ensure_pin_factory()"],
                           env=env, capture_output=True, timeout=60)
    if probe.returncode == 0:
        pytest.skip("this machine has GPIO: gpiozero's default pin factory starts")
    config = tmp_path / "table.toml"
    config.write_text(f'[board]\nport = "emulator://no-gpio"\n[record]\ndir = "{tmp_path / "rec"}"\n')
    for command in ("run", "check"):
        done = subprocess.run([sys.executable, "-m", "firmware_host", command, "--config", str(config)], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.startswith("error: no GPIO here: gpiozero could start no pin factory (lgpio, rpigpio")
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_board_without_the_dice_the_config_reads_from_it_stops_the_run_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    config.write_text(f"""
[board]
port = "emulator://cli-misfit?dice=none"
[gpio]
pin_factory = "mock"
[record]
dir = "{tmp_path / 'rec'}"
""")
    assert main(["run", "--config", str(config), "--quiet"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ['error: the board does not fit the configuration: emulator://cli-misfit?dice=none (board '
                   '0x5a0001, firmware 1.0.0) announced no DICE, but [dice] source = "board": set [dice] source = '
                   '"roll button" for a board without dice, or the dice\'s own port']


def test_the_boards_reply_time_is_read_from_the_config_and_given_to_its_link(tmp_path: Path) -> None:
    from gpiozero.pins.mock import MockFactory

    from firmware_host.table import Table

    config = tmp_path / "table.toml"
    config.write_text("[board]\nport = 'loop://'\nreply_seconds = 4\n")
    assert load_config(config).reply_seconds == 4.0
    with Table.open("loop://", dice="roll button", display=False, pin_factory=MockFactory(),
                    reply_timeout=4.0) as table:
        assert table.links[0].reply_timeout == 4.0
