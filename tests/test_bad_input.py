"""Every command, given bad input: one line on stderr and exit status 2; never a traceback,
never a silent acceptance."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_host.cli import main as table_main
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import Settings
from game.board import Variant
from game.bot.cli import main as bot_main
from game.chouette.cli import main as chouette_main
from game.cli import main as game_main

START = "4HPwATDgc/ABMA"
DEEP = "[" * 100_000 + "]" * 100_000


def files(tmp: Path) -> dict[str, Path]:
    """Bad files of every kind the commands read."""
    out = {
        "binary": tmp / "binary.bin", "latin1": tmp / "latin1.json", "deep": tmp / "deep.jsonl",
        "empty": tmp / "empty.jsonl", "bools": tmp / "bools.jsonl", "deep_record": tmp / "deep_record.jsonl",
        "dir": tmp / "a-directory",
    }
    out["binary"].write_bytes(bytes(range(256)) * 4)
    out["latin1"].write_bytes('{"variant": "backgammon", "turn": "wh\xeete"}'.encode("latin-1"))
    out["deep"].write_text(DEEP + "\n")
    out["empty"].write_text("")
    out["bools"].write_text(json.dumps({"position": START, "dice": [True, 1]}) + "\n")
    out["deep_record"].write_text('{"type": "match_start", "x": ' + DEEP + "}\n")
    out["dir"].mkdir()
    return out


GAME_CASES: dict[str, Callable[[dict[str, Path]], list[str]]] = {
    "dice of superscript digits": lambda f: ["plays", "--position", START, "--dice", "²¹"],
    "dice of Arabic-Indic digits": lambda f: ["plays", "--position", START, "--dice", "٣١"],
    "dice 7 and 1": lambda f: ["plays", "--position", START, "--dice", "71"],
    "one die": lambda f: ["plays", "--position", START, "--dice", "3"],
    "a binary position file": lambda f: ["plays", "--position", f"@{f['binary']}", "--dice", "31"],
    "a position file not UTF-8": lambda f: ["plays", "--position", f"@{f['latin1']}", "--dice", "31"],
    "a position file that is a directory": lambda f: ["plays", "--position", f"@{f['dir']}", "--dice", "31"],
    "a position nested 100,000 deep": lambda f: ["plays", "--position", DEEP, "--dice", "31"],
    "a binary batch": lambda f: ["plays", "--batch", str(f["binary"])],
    "a batch nested 100,000 deep": lambda f: ["plays", "--batch", str(f["deep"])],
    "booleans as dice in a batch": lambda f: ["plays", "--batch", str(f["bools"])],
    "validate a binary file": lambda f: ["validate", str(f["binary"])],
    "validate JSON nested 100,000 deep": lambda f: ["validate", str(f["deep_record"])],
    "validate a directory": lambda f: ["validate", str(f["dir"])],
    "validate an empty file": lambda f: ["validate", str(f["empty"])],
    "report an empty record": lambda f: ["report", str(f["empty"]), "--out", str(f["dir"] / "x.pdf")],
    "report JSON nested 100,000 deep": lambda f: ["report", str(f["deep_record"]), "--out", str(f["dir"] / "x.pdf")],
    "render to a directory": lambda f: ["render", "--position", START, "--out", str(f["dir"])],
    "render to x.txt": lambda f: ["render", "--position", START, "--out", str(f["dir"] / "x.txt")],
    "render to a name without extension": lambda f: ["render", "--position", START, "--out", str(f["dir"] / "x")],
    "render a play that is not legal": lambda f: ["render", "--position", START, "--play", "24/1", "--dice", "31",
                                                   "--out", str(f["dir"] / "x.png")],
    "validate with a trust file that is binary": lambda f: ["validate", str(f["empty"]), "--trust", str(f["binary"])],
}


@pytest.mark.parametrize("case", sorted(GAME_CASES))
def test_game_commands_refuse_bad_input_in_one_line(case: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    argv = GAME_CASES[case](files(tmp_path))
    code = game_main(argv, io.StringIO())
    err = capsys.readouterr().err
    assert code == 2, f"{case}: exit {code}, stderr {err!r}"
    assert err.startswith("error: ") and err.count("\n") in (1, 2) and "Traceback" not in err, err
    assert len(err) < 400


BOT_CASES: dict[str, tuple[Callable[[dict[str, Path]], list[str]], str]] = {
    "a bear-off database written to a directory": (
        lambda f: ["bearoff", "--out", str(f["dir"])], "is a directory: give a file name"),
    "a bear-off database under a file": (
        lambda f: ["bearoff", "--out", str(f["binary"] / "b.npz")], "binary.bin' is not a directory"),
    "a network trained into no directory": (
        lambda f: ["train", "--variant", "rungammon", "--games", "10", "--out", str(f["dir"] / "no" / "n.npz")],
        "/no' does not exist"),
    "an opening book into no directory": (
        lambda f: ["opening", "--variant", "rungammon", "--out", str(f["dir"] / "no" / "book.json")],
        "/no' does not exist"),
    "a binary file averaged as weights": (
        lambda f: ["average", "--out", str(f["dir"] / "a.npz"), str(f["binary"])],
        "binary.bin' is not a network's weights (the .npz that train, average or distill writes)"),
    "a directory averaged as weights": (
        lambda f: ["average", "--out", str(f["dir"] / "a.npz"), str(f["dir"])], "a-directory': Is a directory"),
}


@pytest.mark.parametrize("case", sorted(BOT_CASES))
def test_bot_commands_refuse_bad_input_in_one_line_before_any_work(case: str, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    arguments, said = BOT_CASES[case]
    with pytest.raises(SystemExit) as stopped:
        raise SystemExit(bot_main(arguments(files(tmp_path))))
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert said in err, err
    assert sorted(p.name for p in (tmp_path / "a-directory").iterdir()) == []  # nothing written


def test_a_chouette_record_into_no_directory_is_refused_before_it_is_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        raise SystemExit(chouette_main(["simulate", "--games", "1", "--out", str(tmp_path / "no" / "r.jsonl")]))
    assert stopped.value.code == 2
    assert f"'{tmp_path / 'no'}' does not exist" in capsys.readouterr().err


TABLE_CASES: dict[str, list[str]] = {
    "speed 0": ["--speed", "0"],
    "a negative speed": ["--speed", "-5"],
    "speed not a number": ["--speed", "nan"],
    "a negative match length": ["simulate", "--match-to", "-1", "--record", "x"],
    "stats of no record": ["stats", "no/such/dir"],
    "run a config that does not exist": ["run", "--config", "no/such.toml"],
}


@pytest.mark.parametrize("case", sorted(TABLE_CASES))
def test_table_commands_refuse_bad_input_in_one_line(case: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a if a != "x" else str(tmp_path / "x") for a in TABLE_CASES[case]]
    with pytest.raises(SystemExit) as stopped:
        raise SystemExit(table_main(argv))
    err = capsys.readouterr().err
    assert stopped.value.code == 2, f"{case}: exit {stopped.value.code}, stderr {err!r}"
    assert "Traceback" not in err and err.strip().count("\n") <= 1 and "error" in err, err


def test_simulate_refuses_a_record_of_another_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "m"
    with EmulatedTable(Settings(variant=Variant.BACKGAMMON, length=1, images=False), record, seed=1) as table:
        table.wait(2.0)
    code = table_main(["simulate", "--variant", "catchgammon", "--match-to", "3", "--record", str(record)])
    err = capsys.readouterr().err
    assert code == 2 and "holds a backgammon 1-point match" in err and err.count("\n") == 1, err
