"""The JSON Lines record: writing, the hash chain, and replay through the rules."""

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from builders import records

from game.board import Color, Variant
from game.errors import ReplayError
from game.match import NO_OPTIONS, Match, MatchOptions, Phase
from game.match_sim import random_match
from game.position import Position
from game.record import (
    GENESIS,
    RecordWriter,
    chain_problems,
    encode_event,
    line_hash,
    read_lines,
    record_bytes,
    replay_lines,
    replay_record,
    write_event,
)
from game.replay import Replayer

MONEY = MatchOptions(jacoby=True, beavers=True, automatic_doubles=True, max_cube=64)
CASES = [(variant, length, options) for variant in Variant
         for length, options in ((5, MatchOptions()), (None, MONEY))]


def sample(variant: Variant = Variant.BACKGAMMON, length: int | None = 5,
           options: MatchOptions = NO_OPTIONS, seed: int = 2) -> Match:
    return random_match(variant, length, options, random.Random(seed), cube_rate=0.1, resign_rate=0.01)


def events_of(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.splitlines()]


@pytest.mark.parametrize(("variant", "length", "options"), CASES)
def test_replaying_a_record_rebuilds_every_event_and_position(
        variant: Variant, length: int | None, options: MatchOptions) -> None:
    for seed in (0, 2, 5):
        match = sample(variant, length, options, seed)
        rebuilt = replay_record(record_bytes(match))
        assert rebuilt.events == match.events
        assert rebuilt.score == match.score and rebuilt.is_over and rebuilt.winner is match.winner
        positions = [Position.from_document(e["position"]) for e in rebuilt.events if e["type"] == "play"]
        assert positions == [Position.from_document(e["position"]) for e in match.events
                             if e["type"] == "play"]


def test_every_event_has_a_type_and_a_timestamp_and_is_one_json_line() -> None:
    data = record_bytes(sample(), chain=False)
    lines = data.splitlines()
    assert len(lines) == len(sample().events)
    for line in lines:
        event = json.loads(line)
        assert isinstance(event["type"], str) and isinstance(event["t"], float)
        assert "prev" not in event


def test_a_replay_of_a_partial_record_stops_where_the_record_does() -> None:
    match = sample()
    rolls = [i for i, e in enumerate(match.events) if e["type"] == "roll"]
    cut = records(match)[:rolls[len(rolls) // 2] + 1]
    partial = Match.replay(cut)
    assert partial.events == cut and not partial.is_over
    assert partial.phase is Phase.MOVE and partial.dice == tuple(cut[-1]["dice"])


def test_write_event_chains_each_line_to_the_hash_of_the_previous() -> None:
    out = io.BytesIO()
    first = write_event(out, {"type": "a"}, GENESIS)
    second = write_event(out, {"type": "b"}, first)
    lines = out.getvalue().splitlines()
    assert json.loads(lines[0])["prev"] == GENESIS
    assert json.loads(lines[1])["prev"] == first == line_hash(lines[0])
    assert second == line_hash(lines[1])
    assert chain_problems(read_lines(out.getvalue())) == []


def test_record_writer_appends_to_an_existing_record_and_continues_its_chain(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    events = sample().events
    with RecordWriter.append(path, fsync=True) as writer:
        writer.write_all(events[:10])
    with RecordWriter.append(path) as writer:
        writer.write_all(events[10:])
    data = path.read_bytes()
    assert data == record_bytes(sample())
    assert replay_record(data).events == sample().events


def chained() -> bytes:
    return record_bytes(sample())


def test_an_edited_line_breaks_the_chain_at_that_line() -> None:
    lines = chained().splitlines()
    event = json.loads(lines[6])
    event["t"] += 1.0  # even a harmless edit shows; the line keeps its own prev
    lines[6] = encode_event(event)
    problems = chain_problems(read_lines(b"\n".join(lines)))
    assert [p.line for p in problems] == [8]
    assert "line 7 was edited" in problems[0].rule


def test_a_removed_or_missing_link_is_reported() -> None:
    lines = chained().splitlines()
    del lines[3]
    assert [p.line for p in chain_problems(read_lines(b"\n".join(lines)))] == [4]
    lines = chained().splitlines()
    event = json.loads(lines[5])
    del event["prev"]
    lines[5] = encode_event(event)
    problems = chain_problems(read_lines(b"\n".join(lines)))
    assert [p.line for p in problems] == [6, 7] and "no prev" in problems[0].rule


def test_the_first_line_must_link_to_zeros() -> None:
    lines = chained().splitlines()
    del lines[0]
    problems = chain_problems(read_lines(b"\n".join(lines)))
    assert problems[0].line == 1 and "64 zeros" in problems[0].rule


def test_a_record_without_chain_has_no_chain_problems() -> None:
    assert chain_problems(read_lines(record_bytes(sample(), chain=False))) == []


def test_strict_replay_refuses_a_broken_chain() -> None:
    lines = chained().splitlines()
    del lines[2]
    with pytest.raises(ReplayError, match="hash chain broken"):
        replay_record(b"\n".join(lines))


def test_unknown_event_types_are_ignored_and_counted() -> None:
    events = [dict(e) for e in records(sample())]
    events.insert(5, {"type": "referee_flag", "t": 0.0, "note": "checker knocked"})
    events.insert(9, {"type": "sensor", "t": 0.0})
    events.insert(9, {"type": "sensor", "t": 0.0})
    replayer = Replayer()
    for n, event in enumerate(events, 1):
        replayer.feed(event, n)
    assert replayer.problems == [] and replayer.unknown == {"referee_flag": 1, "sensor": 2}
    assert replayer.result().score == sample().score


# -- what strict replay refuses, with where ------------------------------------------------

def first_index(events: list[dict[str, Any]], kind: str, nth: int = 0) -> int:
    return [i for i, e in enumerate(events) if e["type"] == kind][nth]


def test_a_play_to_a_position_no_legal_play_reaches_is_refused() -> None:
    events = [dict(e) for e in records(sample())]
    i = first_index(events, "play", 3)
    doc = json.loads(json.dumps(events[i]["position"]))
    doc["points"][0], doc["points"][1] = doc["points"][1], doc["points"][0]
    events[i]["position"] = doc
    with pytest.raises(ReplayError) as info:
        Match.replay(events)
    problem = info.value.problem
    assert problem.line == i + 1 and problem.game == 1 and problem.move == 4
    assert "not a legal play" in problem.rule and problem.position and problem.position.startswith("XGID=")


def test_a_wrong_score_is_refused() -> None:
    events = [dict(e) for e in records(sample())]
    i = first_index(events, "game_end")
    events[i]["points"] += 1
    with pytest.raises(ReplayError, match="'points' is .*, the rules give"):
        Match.replay(events)


def test_an_impossible_cube_action_is_refused() -> None:
    match = Match(clock=lambda: 0.0)
    match.opening_roll(3, 1)
    match.play("8/5 6/5")
    match.double(Color.BLACK)
    match.take(Color.WHITE)
    events = [dict(e) for e in records(match)]
    events.append({"type": "double", "t": 0.0, "game": 1, "player": "black", "value": 4})
    with pytest.raises(ReplayError, match="white owns the cube"):
        Match.replay(events)


def test_a_missing_derived_event_is_refused_in_a_json_record() -> None:
    events = [dict(e) for e in records(sample())]
    del events[first_index(events, "game_start", 1)]
    with pytest.raises(ReplayError, match="lacks game_start"):
        Match.replay(events)


def test_an_action_out_of_turn_is_refused() -> None:
    events = [dict(e) for e in records(sample())]
    i = first_index(events, "roll")
    events[i]["player"] = Color(events[i]["player"]).opponent.value
    with pytest.raises(ReplayError, match="'s turn"):
        Match.replay(events)


def test_the_tolerant_replayer_reports_and_carries_on_at_the_next_game() -> None:
    events = [dict(e) for e in sample(seed=3).events]
    i = first_index(events, "play", 2)
    events[i]["moves"], events[i]["position"] = [], events[i - 2]["position"]
    lines = b"\n".join(encode_event(e) for e in events)
    replayer = replay_lines(read_lines(lines), strict=False)
    assert len(replayer.problems) == 1 and replayer.problems[0].game == 1
    assert replayer.skipped_games == [1]
    rebuilt = replayer.result()
    assert rebuilt.is_over and rebuilt.score == sample(seed=3).score
    assert [g.number for g in rebuilt.games] == [g.number for g in sample(seed=3).games][1:]


def test_a_line_that_is_not_json_is_a_problem_with_its_number() -> None:
    data = record_bytes(sample(), chain=False).split(b"\n")
    data[4] = b"{not json"
    replayer = replay_lines(read_lines(b"\n".join(data)), strict=False)
    assert replayer.problems[0].line == 5 and "not a JSON object" in replayer.problems[0].rule

