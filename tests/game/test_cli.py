"""`python -m game`: plays, batch, show, and one-line errors with exit status 2."""

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.board import Variant
from game.cli import main
from game.errors import PositionError
from game.exits import exit_with
from game.movegen import encode_document, legal_plays
from game.position import Position
from game.selfplay import random_positions
from game.xgid import Xgid

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out), out.getvalue()


def test_plays_lists_standard_notation() -> None:
    status, text = run("plays", "--position", "4HPwATDgc/ABMA", "--dice", "31")
    lines = text.splitlines()
    assert status == 0 and lines[0] == "16 legal plays for 31, white to play"
    assert "8/5 6/5" in lines[1:] and len(lines) == 17
    assert "13/9" in lines and "24/20" in lines  # one checker's steps joined, as GNU Backgammon writes them
    assert not any(line in ("13/10 10/9", "24/21 21/20") for line in lines)


def test_plays_counts_one_play_in_the_singular_and_reads_start() -> None:
    status, text = run("plays", "--position", "start", "--variant", "rungammon", "--dice", "31")
    assert status == 0 and text.splitlines() == ["1 legal play for 31, white to play", "24/20"]


def test_plays_lists_in_the_order_of_the_api_and_json() -> None:
    position = Position.from_xgid(START_XGID)
    status, text = run("plays", "--position", START_XGID, "--dice", "52")
    _, as_json = run("plays", "--position", START_XGID, "--dice", "52", "--json")
    api = [play.notation() for play in legal_plays(position, (5, 2))]
    assert status == 0 and text.splitlines()[1:] == api == [p["notation"] for p in json.loads(as_json)["plays"]]
    assert api != sorted(api)  # else this would not tell a sorted listing from the API's order


@pytest.mark.parametrize("written", ["3-1", "31", "3,1", "1-3"])
def test_plays_reads_a_roll_written_with_a_dash_and_writes_it_higher_first(written: str) -> None:
    status, text = run("plays", "--position", "4HPwATDgc/ABMA", "--dice", written)
    assert status == 0 and text.splitlines()[0] == "16 legal plays for 31, white to play"


def test_plays_json_has_moves_and_positions_after() -> None:
    status, text = run("plays", "--position", START_XGID, "--dice", "66", "--json")
    doc = json.loads(text)
    assert status == 0 and len(doc["plays"]) == 11
    first = {p["notation"]: p for p in doc["plays"]}["24/18(2) 13/7(2)"]
    assert first["moves"] == [[24, 18], [24, 18], [13, 7], [13, 7]]
    after = Position.from_document(first["position"])
    assert after.turn.value == "white" and after.stack(18) == "ww"


def test_plays_reads_a_json_file_and_variant(tmp_path: Path) -> None:
    path = tmp_path / "pos.json"
    path.write_text(Position.initial(Variant.RUNGAMMON).to_json())
    status, text = run("plays", "--position", f"@{path}", "--dice", "6,6", "--variant", "rungammon", "--json")
    assert status == 0 and [p["notation"] for p in json.loads(text)["plays"]] == ["24/18"]


def test_no_legal_play_gives_an_empty_list() -> None:
    position = Position.from_document({"turn": "white", "points": _blocked_points(),
                                       "bar": {"white": 1, "black": 0}})
    status, text = run("plays", "--position", position.to_json(), "--dice", "61", "--json")
    assert status == 0 and json.loads(text) == {"plays": []}


def _blocked_points() -> list[list[str]]:
    points: list[list[str]] = [[] for _ in range(24)]
    points[12] = ["w"] * 14  # White: 14 on the 13-point, one on the bar
    for p, n in ((24, 3), (19, 3), (1, 9)):  # Black blocks both entry points of 6-1
        points[p - 1] = ["b"] * n
    return points


def test_batch_in_order_with_counts_and_a_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "in.jsonl"
    lines = [
        {"position": "4HPwATDgc/ABMA", "dice": [3, 1]},
        {"position": Position.initial(Variant.CATCHGAMMON).to_document(), "dice": [6, 6]},
        {"position": "garbage", "dice": [3, 1]},
        {"position": START_XGID, "dice": [1, 1]},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    status, text = run("plays", "--batch", str(path), "--count")
    out = [json.loads(line) for line in text.splitlines()]
    assert out[0] == {"count": 16} and out[1] == {"count": 4} and out[3] == {"count": 42}  # as GNU Backgammon counts
    assert "line 3" in out[2]["error"]
    assert status == 2 and "in.jsonl line 3" in capsys.readouterr().err
    status, text = run("plays", "--batch", str(path))
    assert len(json.loads(text.splitlines()[0])["plays"]) == 16


def test_batch_reads_each_line_as_json_loads_does(tmp_path: Path) -> None:
    """Blanks JSON allows around a line's object are taken; anything else after it, or a line that is no
    JSON, is refused with json's own reason (the batch reads lines with json's scanner, not json.loads)."""
    good = json.dumps({"position": Position.initial().to_document(), "dice": [3, 1]})
    lines = ["  \t" + good + " \t\r", good + " {}", good + "\f", "{\"position\": ", "\ufeff" + good, good]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, text = run("plays", "--batch", str(path), "--count")
    out = [json.loads(line) for line in text.splitlines()]
    assert status == 2 and len(out) == 6
    assert out[0] == out[5] == {"count": 16}
    for line, answer in zip(lines[1:5], out[1:5], strict=True):
        with pytest.raises(json.JSONDecodeError) as refused:
            json.loads(line)
        assert answer["error"].startswith("line ") and refused.value.msg in answer["error"]


def test_batch_answers_a_document_read_from_its_state_as_one_read_as_a_position(tmp_path: Path) -> None:
    """A document in its usual form is answered from its state alone (`encode_document`); the same
    position written otherwise (rule options none, a count left out) is read as a Position: the same answers."""
    path = tmp_path / "in.jsonl"
    lines = []
    for position, dice in random_positions(Variant.BACKGAMMON, 40, seed=3):
        usual = position.to_document()
        assert encode_document(usual) is not None
        other = {**usual, "rules": {}, "off": {"white": position.off[0]} if not position.off[1] else usual["off"]}
        assert encode_document(other) is None
        lines += [{"position": usual, "dice": list(dice)}, {"position": other, "dice": list(dice)}]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    for flag in ("--moves", "--count"):
        status, text = run("plays", "--batch", str(path), flag)
        answers = text.splitlines()
        assert status == 0 and len(answers) == len(lines)
        assert answers[0::2] == answers[1::2]
    status, text = run("plays", "--batch", str(path), "--moves", "--variant", "catchgammon")
    assert status == 2 and all("position is backgammon, not catchgammon" in line for line in text.splitlines())


def test_batch_moves_gives_each_plays_moves_as_the_full_output_has_them(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    lines = [{"position": START_XGID, "dice": [6, 6]}, {"position": Position.initial().to_document(), "dice": [3, 1]},
             {"position": Position.initial(Variant.CATCHGAMMON).to_document(), "dice": [2, 1]},
             {"position": {"turn": "white", "points": _blocked_points(), "bar": {"white": 1, "black": 0}},
              "dice": [6, 1]},
             {"position": {"turn": "white", "points": [["w", "x"]] + [[]] * 23}, "dice": [6, 1]}]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    moves_status, moves = run("plays", "--batch", str(path), "--moves")
    full_status, full = run("plays", "--batch", str(path))
    assert moves_status == full_status == 2
    for short, long in zip(moves.splitlines()[:4], full.splitlines()[:4], strict=True):
        assert json.loads(short) == {"plays": [play["moves"] for play in json.loads(long)["plays"]]}
    assert json.loads(moves.splitlines()[0])["plays"][0] == [[24, 18], [24, 18], [13, 7], [13, 7]]
    assert json.loads(moves.splitlines()[3]) == {"plays": []}
    assert 'points[0] (board point 1) must be a list of \\"w\\"/\\"b\\"' in moves.splitlines()[4]


@pytest.mark.parametrize(("points", "message"), [
    ([["w", "x"]] + [[]] * 23, "points[0] (board point 1) must be a list"),
    ([[]] * 5 + [["ww"]] + [[]] * 18, "points[5] (board point 6) must be a list"),
    ([[]] * 7 + ["w"] + [[]] * 16, "points[7] (board point 8) must be a list"),
    ([[]] * 2 + [["w", 1]] + [[]] * 21, "points[2] (board point 3) must be a list"),
    ([["w", "b"]] + [["w"] * 14] + [["b"] * 14] + [[]] * 21, "both colours on one point"),
    ([["w"] * 15] + [["b"] * 14] + [[]] * 22, "black has 14 checkers, expected 15"),
])
def test_a_bad_position_document_is_refused_at_its_stack(points: list[list[object]], message: str) -> None:
    with pytest.raises(PositionError, match=re.escape(message)):
        Position.from_document({"turn": "white", "points": points})


def test_show_draws_the_board_with_pip_counts() -> None:
    status, text = run("show", "--position", Position.initial(Variant.CATCHGAMMON).to_json())
    assert status == 0 and "pips 360" in text and "catchgammon, white to play" in text


@pytest.mark.parametrize(("args", "message"), [
    (["plays", "--position", "4HPwATDgc/ABMA", "--dice", "71"], "dice must be two faces from 1 to 6"),
    (["plays", "--position", "@/no/such/file.json", "--dice", "31"], "cannot read position file"),
    (["plays", "--position", "{", "--dice", "31"], "not valid JSON"),
    (["plays", "--dice", "31"], "plays needs --position and --dice"),
    (["show", "--position", "4HPwATDgc/ABMA", "--variant", "catchgammon"], "but --variant is catchgammon"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(args: list[str], message: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run(*args)
    err = capsys.readouterr().err
    assert status == 2 and message in err and err.count("\n") == 1


@pytest.mark.parametrize(("module", "commands"), [
    ("game", "plays, show, validate, convert, render, report, play-bot, analyse"),
    ("game.bot", "train, average, distill, bearoff, rollout, opening"),
    ("game.chouette", "simulate, convert"),
])
def test_no_command_names_the_commands_there_are(module: str, commands: str) -> None:
    done = subprocess.run([sys.executable, "-m", module], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr == f"error: python -m {module}: a command is needed: {commands} (see --help)\n"


def test_module_entry_point_has_no_traceback() -> None:
    done = subprocess.run([sys.executable, "-m", "game", "plays", "--position", "nope", "--dice", "31"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stderr.startswith("error: ") and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [[sys.executable, "-m", "game"], [str(Path(sys.executable).parent / "gammon")]],
                         ids=["python -m game", "gammon"])
def test_a_reader_that_leaves_early_ends_the_output_quietly(tmp_path: Path, command: list[str]) -> None:
    """`... | head`: status 141 (128 + SIGPIPE) as a Unix tool's, and nothing on stderr
    (`game.exits`, which `python -m game.bot`, `game.chouette` and `firmware_host` end by too), from
    the module and from its installed short name."""
    batch = tmp_path / "rolls.jsonl"
    batch.write_text('{"position": "start", "dice": [3, 1]}\n' * 4000)  # about 1.5 MB out: more than a pipe holds
    process = subprocess.Popen([*command, "plays", "--batch", str(batch)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline()  # the first line read, then the reader leaves
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 141 and stderr == b""


def test_a_pipe_broken_elsewhere_is_an_error_of_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    def broken() -> int:  # a socket of the command's own, say: standard output is still read
        raise BrokenPipeError(32, "Broken pipe")

    with pytest.raises(SystemExit) as ended:
        exit_with(broken)
    assert ended.value.code == 2 and capsys.readouterr().err == "error: [Errno 32] Broken pipe\n"


def test_show_says_the_xgids_cube_dice_score_and_the_positions_ids() -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:31:2:1:1:5:10"
    status, text = run("show", "--position", xgid)
    assert status == 0
    lines = text.splitlines()
    assert "cube: 2, owned by black" in lines and "dice: 3-1" in lines
    assert "score: white 2, black 1, match to 5 (Crawford game)" in lines
    ids = {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in lines if line.startswith("Position ID: ")}
    assert Position.from_position_id(ids["Position ID"]) == Position(xgid)
    assert Xgid.parse(lines[-1]) == Xgid.parse(xgid)  # the XGID given, every field kept
    status, money = run("show", "--position", "4HPwATDgc/ABMA")
    assert "money game" not in money and money.splitlines()[-1] == Position("4HPwATDgc/ABMA").xgid()


@pytest.mark.parametrize(("white", "black"), [(1, 1), (2, 0), (0, 3)])
def test_show_draws_the_checkers_on_the_bar_in_the_bar_column(white: int, black: int) -> None:
    start = Position.initial()
    points = list(start.points)
    points[23] = "w" * (2 - min(white, 2))  # White's back checkers, on point 24, go to the bar first
    points[12] = "w" * (5 - max(white - 2, 0))  # then some from the midpoint
    points[0] = "b" * (2 - min(black, 2))
    points[11] = "b" * (5 - max(black - 2, 0))
    position = Position(start.variant, start.turn, tuple(points), (white, black), (0, 0))
    status, text = run("show", "--position", position.xgid())
    board = text.splitlines()[3:14]  # five rows above the BAR line, five below
    assert board[5].count("BAR") == 1
    column = [row[19:24] for row in board]
    assert "".join(column[:5]).count("O") == white and "".join(column[6:]).count("X") == black
    assert "".join(column).count("X") + "".join(column).count("O") == white + black


def test_render_draws_the_xgids_cube_and_score(tmp_path: Path) -> None:
    from PIL import Image, ImageChops

    from game.board import Color
    from game.pictures import CubeView, ScoreView, draw_board

    xgid = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:31:2:1:0:5:10"
    out = tmp_path / "board.png"
    assert run("render", "--position", xgid, "--out", str(out))[0] == 0
    expected = draw_board(Position(xgid), dice=(3, 1), cube=CubeView(2, Color.BLACK), score=ScoreView(2, 1, 5))
    without = draw_board(Position(xgid), dice=(3, 1))
    with Image.open(out) as drawn:
        assert ImageChops.difference(drawn.convert("RGB"), expected.convert("RGB")).getbbox() is None
        assert ImageChops.difference(drawn.convert("RGB"), without.convert("RGB")).getbbox() is not None
