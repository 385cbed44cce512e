"""`validate`: the verdict on a whole record or transcript, and its exit code."""

import io
import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from builders import records

from game.board import Variant
from game.mat import export_mat
from game.match import Match, MatchOptions
from game.match_sim import random_match
from game.record import encode_event, record_bytes
from game.validate import main, validate_file


def sample(seed: int = 2, variant: Variant = Variant.BACKGAMMON, length: int | None = 5) -> Match:
    options = MatchOptions() if length else MatchOptions(jacoby=True, beavers=True)
    return random_match(variant, length, options, random.Random(seed), cube_rate=0.1, resign_rate=0.01)


def run(path: Path) -> tuple[int, str]:
    out = io.StringIO()
    code = main(str(path), out)
    return code, out.getvalue()


def write_events(path: Path, events: Sequence[Mapping[str, Any]]) -> Path:
    path.write_bytes(b"".join(encode_event(e) + b"\n" for e in events))
    return path


def test_a_legal_record_lists_every_game_and_exits_0(tmp_path: Path) -> None:
    match = sample()
    path = tmp_path / "match.jsonl"
    path.write_bytes(record_bytes(match))
    code, text = run(path)
    assert code == 0 and text.endswith("verdict: LEGAL\n")
    game_lines = [line for line in text.splitlines() if line.startswith("game ")]
    assert len(game_lines) == len(match.games) == 5
    last = match.games[-1]
    assert f"score white {last.score[0]} black {last.score[1]}" in game_lines[-1]
    assert f"final: white {match.score[0]} black {match.score[1]}" in text


def test_every_variant_and_money_play_validate(tmp_path: Path) -> None:
    for variant in Variant:
        for length in (3, None):
            path = tmp_path / f"{variant.value}-{length}.jsonl"
            path.write_bytes(record_bytes(sample(1, variant, length)))
            assert validate_file(str(path)).exit_code == 0, validate_file(str(path)).render()


def test_an_illegal_play_is_reported_with_game_move_position_and_rule(tmp_path: Path) -> None:
    events = [dict(e) for e in records(sample())]
    plays = [i for i, e in enumerate(events) if e["type"] == "play" and e["game"] == 2]
    i = plays[5]
    events[i]["position"] = events[plays[3]]["position"]
    code, text = run(write_events(tmp_path / "bad.jsonl", events))
    assert code == 1
    problem = next(line for line in text.splitlines() if line.startswith("problem 1:"))
    assert f"line {i + 1}, game 2, move 6:" in problem and "not a legal play" in problem
    assert "    position: XGID=" in text
    assert "game   2  not counted" in text
    assert "verdict: ILLEGAL (1 problems)" in text


def test_after_a_problem_the_following_games_are_still_judged(tmp_path: Path) -> None:
    match = sample()
    events = [dict(e) for e in records(match)]
    end = next(i for i, e in enumerate(events) if e["type"] == "game_end")
    events[end]["points"] += 1  # a wrong score in game 1
    verdict = validate_file(str(write_events(tmp_path / "score.jsonl", events)))
    assert verdict.exit_code == 1 and len(verdict.problems) == 1
    problem = verdict.problems[0]
    assert "'points'" in problem.rule and (problem.line, problem.game) == (end + 1, 1)
    # Game 1 shows the rules' result; the later games are judged from the score the record's next
    # game_start gives (untouched here), so they end as the match did.
    assert verdict.games == list(match.games) and verdict.skipped_games == []
    assert verdict.match is not None and verdict.match.score == match.score


def test_an_impossible_cube_action_is_reported(tmp_path: Path) -> None:
    events = [dict(e) for e in records(sample())]
    take = next(i for i, e in enumerate(events) if e["type"] == "take")
    events[take]["player"] = events[take - 1]["player"]  # the doubler takes his own cube
    code, text = run(write_events(tmp_path / "cube.jsonl", events))
    assert code == 1 and "cannot act now" in text and f"line {take + 1}," in text


def test_an_edited_chained_record_reports_the_line(tmp_path: Path) -> None:
    lines = record_bytes(sample()).splitlines()
    event = json.loads(lines[9])
    event["t"] = 123.0
    lines[9] = encode_event(event)
    path = tmp_path / "edited.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    code, text = run(path)
    assert code == 1 and "hash chain broken" in text and "line 10 was edited" in text


def test_unknown_events_are_ignored_and_counted(tmp_path: Path) -> None:
    events = [dict(e) for e in records(sample())]
    events[3:3] = [{"type": "referee_flag", "t": 1.0}, {"type": "sensor", "t": 1.0}, {"type": "sensor"}]
    code, text = run(write_events(tmp_path / "extra.jsonl", events))
    assert code == 0 and "ignored 3 events of other types: referee_flag x1, sensor x2" in text


def test_an_unfinished_record_is_legal_so_far_says_so_and_is_not_accepted(tmp_path: Path) -> None:
    events = list(records(sample())[:30])
    verdict = validate_file(str(write_events(tmp_path / "part.jsonl", events)))
    assert verdict.exit_code == 1 and not verdict.problems and not verdict.complete
    assert "not finished" in verdict.render() and "verdict: LEGAL" in verdict.render()


def test_a_mat_transcript_is_validated(tmp_path: Path) -> None:
    match = sample(3)
    path = tmp_path / "match.mat"
    path.write_text(export_mat(match))
    code, text = run(path)
    assert code == 0 and ".mat transcript" in text
    assert f"final: white {match.score[0]} black {match.score[1]}" in text
    bad = export_mat(match).replace(" Takes", " Hmm", 1)
    path.write_text(bad)
    code, text = run(path)
    assert code == 1 and "cannot read this line" in text and "Hmm'" in text


def test_files_that_cannot_be_read_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    assert run(missing)[0] == 2
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x00\x01\x02 not a match")
    code, text = run(garbage)
    assert code == 2 and "verdict: UNREADABLE" in text
    no_start = write_events(tmp_path / "nostart.jsonl", [{"type": "roll", "player": "white", "dice": [3, 1]}])
    assert run(no_start)[0] == 2
