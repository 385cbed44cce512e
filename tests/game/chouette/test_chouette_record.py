"""The chouette's record: documented events, replay, validation, resuming a cut record, .mat, score sheet."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
import subprocess
import sys
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from chouette_builders import box_on_roll, seated, team_on_roll
from goldens import assert_golden
from PIL import Image
from repo import ROOT

from game.board import Color, Variant
from game.chouette import ChouetteOptions, ChouetteSession
from game.chouette.events import EVENT_TYPES
from game.chouette.mat import chouette_mats
from game.chouette.replay import ChouetteReplayer, replay_session, resume
from game.chouette.sim import SimulatedChouette, simulate
from game.cli import main as game_main
from game.errors import MatFormatError, ReplayError, UsageError
from game.mat import import_mat
from game.match import MatchOptions
from game.pictures.chouette_sheet import chouette_sheet_from_events, draw_chouette_sheet
from game.record import GENESIS, RecordWriter, encode_event, line_hash

ALL_OPTIONS = ChouetteOptions(jacoby=True, beavers=True, automatic_doubles=True, box_takes_half=True,
                              box_partner=True)


def write_record(events: Any, path: Path) -> Path:
    with RecordWriter(open(path, "wb")) as writer:
        writer.write_all(events)
    return path


def rechained(events: list[dict[str, Any]]) -> bytes:
    """The events as a chained record: an edited event with its chain made good again."""
    out, prev = bytearray(), GENESIS
    for event in events:
        line = encode_event({k: v for k, v in event.items() if k != "prev"}, prev)
        out += line + b"\n"
        prev = line_hash(line)
    return bytes(out)


def validate(path: Path) -> tuple[int, str]:
    out = io.StringIO()
    code = game_main(["validate", str(path)], out)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def long_session() -> ChouetteSession:
    """Five players over forty games, guests joining and players leaving, takebacks, beavers, Jacoby."""
    return simulate(["Ann", "Bob", "Cy", "Dee", "Eve"], 40, 11, options=ChouetteOptions(jacoby=True, beavers=True),
                    join_rate=0.15, leave_rate=0.1, takeback_rate=0.02)


# -- the events ----------------------------------------------------------------------------------

def test_every_event_and_every_field_is_documented_in_record_md() -> None:
    text = (ROOT / "game" / "RECORD.md").read_text(encoding="utf-8")
    section = text[text.index("## Chouette sessions"):]
    documented: dict[str, str] = {}
    for row in section.splitlines():
        cells = row.split(" | ")
        if row.startswith("| `") and len(cells) >= 3:
            for kind in re.findall(r"`(\w+)`", cells[0]):
                documented[kind] = cells[1]
    assert set(documented) == set(EVENT_TYPES)
    for kind, typed in EVENT_TYPES.items():
        for key in typed.__annotations__:
            if key not in ("type", "t"):
                assert f"`{key}`" in documented[kind], f"{kind}.{key} is not in RECORD.md"


def test_every_event_the_session_emits_has_its_typed_fields() -> None:
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    session = simulate(players, 6, 5, options=ALL_OPTIONS, join_rate=0.3, leave_rate=0.3, takeback_rate=0.05)
    seen = set()
    for event in session.events:
        typed = EVENT_TYPES[event["type"]]
        required = typed.__required_keys__
        assert required <= set(event) <= required | typed.__optional_keys__, event
        seen.add(event["type"])
    assert seen == set(EVENT_TYPES)  # this seed's session has every kind of event


@pytest.mark.parametrize("variant", list(Variant))
def test_a_session_replays_from_its_record_to_the_same_events(variant: Variant) -> None:
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    session = simulate(players, 6, 5, variant, ALL_OPTIONS, join_rate=0.2, leave_rate=0.2, takeback_rate=0.05)
    decoded = json.loads(json.dumps(list(session.events)))
    again = replay_session(decoded)
    assert list(again.events) == decoded
    assert again.totals == session.totals and again.roster == session.roster and again.is_over


# -- validation -------------------------------------------------------------------------------------

def test_a_long_simulated_session_validates(long_session: ChouetteSession, tmp_path: Path) -> None:
    path = write_record(long_session.events, tmp_path / "chouette.jsonl")
    code, text = validate(path)
    assert code == 0, text
    assert text.endswith("verdict: LEGAL\n")
    assert len(re.findall(r"^game +\d+  box ", text, re.MULTILINE)) == 40
    assert "after 40 games, the session ended" in text
    assert sum(long_session.totals.values()) == 0


def test_validate_as_a_command_reads_a_chouette_record(tmp_path: Path) -> None:
    path = write_record(simulate(["Ann", "Bob", "Cy"], 2, 3).events, tmp_path / "c.jsonl")
    done = subprocess.run([sys.executable, "-m", "game", "validate", str(path)], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "chouette session, backgammon, 3 players: Ann, Bob, Cy" in done.stdout


def _events(session: ChouetteSession) -> list[dict[str, Any]]:
    return [dict(e) for e in session.events]


def test_validate_reports_a_wrong_result_at_its_line_and_carries_on_from_the_next_game(tmp_path: Path) -> None:
    session = simulate(["Ann", "Bob", "Cy", "Dee"], 5, 2, options=ChouetteOptions(jacoby=True))
    events = _events(session)
    index = next(i for i, e in enumerate(events) if e["type"] == "settle" and e["game"] == 2)
    events[index]["points"] = events[index]["points"] + 1
    (tmp_path / "bad.jsonl").write_bytes(rechained(events))
    code, text = validate(tmp_path / "bad.jsonl")
    assert code == 1
    assert f"problem 1: line {index + 1}, game 2" in text
    assert "settle: 'points' is" in text and "the rules give" in text
    assert "game   2  not counted" in text and re.search(r"^game +5  box ", text, re.MULTILINE)
    assert text.endswith("verdict: ILLEGAL (1 problems)\n")


def test_validate_reports_a_cube_action_by_a_member_out_of_the_game(tmp_path: Path) -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    box_on_roll(s)
    s.box_double("Cy")
    s.pass_("Cy")
    s.roll(3, 1)
    s.play("8/5 6/5")
    s.double("Dee")
    events = _events(s)
    events[-1]["member"] = events[-1]["player"] = "Cy"
    (tmp_path / "bad.jsonl").write_bytes(rechained(events))
    code, text = validate(tmp_path / "bad.jsonl")
    assert code == 1 and "the team cannot turn Cy's cube: Cy's game is settled (pass)" in text
    assert f"line {len(events)}, game 1" in text


def test_validate_reports_a_wrong_running_total_and_an_edited_line(tmp_path: Path) -> None:
    events = _events(simulate(["Ann", "Bob", "Cy"], 3, 4))
    index = next(i for i, e in enumerate(events) if e["type"] == "game_start" and e["game"] == 2)
    events[index]["totals"] = {name: 0 for name in events[index]["totals"]}
    (tmp_path / "totals.jsonl").write_bytes(rechained(events))
    code, text = validate(tmp_path / "totals.jsonl")
    assert code == 1 and "game_start: 'totals' is" in text
    raw = write_record(simulate(["Ann", "Bob", "Cy"], 3, 4).events, tmp_path / "edited.jsonl").read_bytes()
    lines = raw.split(b"\n")
    lines[20] = lines[20].replace(b'"t":', b'"t": ', 1)  # the same event, other bytes
    (tmp_path / "edited.jsonl").write_bytes(b"\n".join(lines))
    code, text = validate(tmp_path / "edited.jsonl")
    assert code == 1 and "line 22's prev does not match line 21" in text


def test_validate_says_a_record_cut_after_an_action_lacks_its_derived_events(tmp_path: Path) -> None:
    events = _events(simulate(["Ann", "Bob", "Cy"], 2, 4))
    cut = next(i for i, e in enumerate(events) if e["type"] == "settle")
    (tmp_path / "cut.jsonl").write_bytes(rechained(events[:cut]))
    code, text = validate(tmp_path / "cut.jsonl")
    assert code == 1 and "the record ends without settle" in text
    clean = next(i for i, e in enumerate(events) if e["type"] == "roll" and e["game"] == 2)
    (tmp_path / "mid.jsonl").write_bytes(rechained(events[:clean]))
    code, text = validate(tmp_path / "mid.jsonl")
    assert code == 0 and "not finished: the record ends in game 2" in text


def test_validate_ignores_and_counts_the_tables_own_events(tmp_path: Path) -> None:
    events = _events(simulate(["Ann", "Bob", "Cy"], 1, 4))
    events.insert(3, {"type": "flag", "t": 0.0, "kind": "misplaced"})
    (tmp_path / "flags.jsonl").write_bytes(rechained(events))
    code, text = validate(tmp_path / "flags.jsonl")
    assert code == 0 and "ignored 1 events of other types: flag x1" in text


# -- resuming a cut record ---------------------------------------------------------------------------

def state(s: ChouetteSession) -> dict[str, Any]:
    """Everything the table would show and the rules depend on."""
    stakes = s.stakes
    return {
        "phase": s.phase, "game": s.game_number, "move": s.move_number, "roster": s.roster, "captain": s.captain,
        "position": s.position, "dice": s.dice, "totals": s.totals, "awaiting": s.awaiting(),
        "take_back": s.can_take_back, "games": s.games, "seating": (s.seating.order, s.seating.throws),
        "cubes": None if stakes is None else {m: (st.cube, st.result, st.reason, st.kind)
                                              for m, st in stakes.stakes.items()},
        "exchange": None if stakes is None or stakes.exchange is None else dataclasses.asdict(stakes.exchange),
        "auto": None if stakes is None else stakes.auto_doubled,
    }


def _without_time(events: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "t"} for e in events]


@pytest.mark.slow
def test_a_record_cut_anywhere_resumes_to_the_same_state_with_every_cube_as_it_was() -> None:
    ticks = count()
    session = ChouetteSession(["Ann", "Bob", "Cy", "Dee", "Eve"], Variant.BACKGAMMON,
                              ChouetteOptions(beavers=True, automatic_doubles=True), clock=lambda: float(next(ticks)))
    sim = SimulatedChouette(session, random.Random(21), 3, takeback_rate=0.05)
    states = [(session.event_count, state(session))]
    while not session.is_over:
        sim.step()
        states.append((session.event_count, state(session)))
    events = json.loads(json.dumps(list(session.events)))
    cuts = several = 0
    for step, ((before, _), (after, expected)) in enumerate(zip(states, states[1:], strict=False)):
        stakes = expected["cubes"]
        turned = 0 if stakes is None else sum(1 for cube, *_ in stakes.values() if cube.owner or cube.offered)
        several += turned >= 2
        if after - before == 1 and (turned < 2 or step % 3) and step % 10:
            continue  # every cut inside an action's events, every one with several cubes turned, a tenth of the rest
        for cut in range(before + 1, after + 1):  # a kill after any line of the action's events
            resumed, owed = resume(events[:cut])
            assert state(resumed) == expected, f"cut after line {cut}"
            assert _without_time(owed) == _without_time(events[cut:after])
            cuts += 1
    assert several > 20 and cuts > 60  # the cuts include many moments with several cubes turned


def test_a_resumed_session_goes_on_and_its_whole_record_validates(tmp_path: Path) -> None:
    session = simulate(["Ann", "Bob", "Cy", "Dee"], 3, 8, options=ChouetteOptions(beavers=True))
    events = json.loads(json.dumps(list(session.events)))
    cut = next(i for i, e in enumerate(events) if e["type"] == "take" and e["game"] >= 2) + 1
    resumed, owed = resume(events[:cut])
    resumed.use_clock(lambda: 1e6)
    record = events[:cut] + list(owed)
    SimulatedChouette(resumed, random.Random(99), 5).run()
    record += list(resumed.events[cut + len(owed):])
    code, text = validate(write_record(record, tmp_path / "resumed.jsonl"))
    assert code == 0, text
    assert "after 5 games, the session ended" in text


def test_resume_refuses_a_record_with_an_illegal_event() -> None:
    events = _events(simulate(["Ann", "Bob", "Cy"], 1, 4))
    index = next(i for i, e in enumerate(events) if e["type"] == "roll")
    events[index]["dice"] = [7, 1]
    with pytest.raises(ReplayError, match=f"line {index + 1}, game 1"):
        resume(events)


# -- each member's .mat ------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [ChouetteOptions(), ChouetteOptions(jacoby=True, beavers=True),
                                     ChouetteOptions(team_cube=True)])
@pytest.mark.slow
def test_each_members_mat_holds_their_own_games_against_the_box(options: ChouetteOptions) -> None:
    session = simulate(["Ann", "Bob", "Cy", "Dee"], 5, 6, options=options, join_rate=0.2, leave_rate=0.1)
    mats = chouette_mats(session)
    assert set(mats) == {name for name in session.totals if any(name in g.team for g in session.games)}
    for member, text in mats.items():
        mine = [e["points"] for e in session.events if e["type"] == "settle" and e["member"] == member]
        imported = import_mat(text, MatchOptions(jacoby=options.jacoby, beavers=options.beavers))
        assert imported.players == (member, "Box")
        assert [g.points if g.winner is Color.WHITE else -g.points for g in imported.games] == mine


def test_gnubg_reads_each_members_mat_with_the_members_result(tmp_path: Path) -> None:
    gnubg: Any = pytest.importorskip("gnubg")
    session = simulate(["Ann", "Bob", "Cy", "Dee"], 6, 9, options=ChouetteOptions(beavers=True))
    for member, text in chouette_mats(session).items():
        path = tmp_path / f"{member}.mat"
        path.write_text(text)
        gnubg.command("set display off")
        gnubg.command(f"import mat {path}")
        won = {"X": 0, "O": 0}
        for game in gnubg.match()["games"]:
            if game["info"].get("winner"):
                won[game["info"]["winner"]] += game["info"]["points-won"]
        mine = sum(e["points"] for e in session.events if e["type"] == "settle" and e["member"] == member)
        assert won["O"] - won["X"] == mine, member  # in its games, "O" is the right-hand column: the member


def test_mats_are_backgammon_only_and_not_with_automatic_doubles() -> None:
    with pytest.raises(MatFormatError, match="Backgammon only"):
        chouette_mats(simulate(["Ann", "Bob", "Cy"], 1, 1, Variant.RUNGAMMON))
    with pytest.raises(MatFormatError, match="automatic doubles"):
        chouette_mats(simulate(["Ann", "Bob", "Cy"], 1, 1, options=ChouetteOptions(automatic_doubles=True)))


def test_convert_writes_a_mat_per_member(tmp_path: Path) -> None:
    record = write_record(simulate(["Ann", "Bob", "Cy"], 4, 2).events, tmp_path / "c.jsonl")
    done = subprocess.run([sys.executable, "-m", "game.chouette", "convert", str(record), "--out",
                           str(tmp_path / "mats")], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in (tmp_path / "mats").iterdir())
    assert written == sorted(f"{name}.mat" for name in chouette_mats(replay_session(
        json.loads(line) for line in record.read_text().splitlines())))
    missing = subprocess.run([sys.executable, "-m", "game.chouette", "convert", str(tmp_path / "none.jsonl"),
                              "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert missing.returncode == 2 and missing.stderr.startswith("error: cannot read")


def test_convert_names_the_file_that_is_no_chouette_and_the_out_that_is_no_folder(tmp_path: Path) -> None:
    from game.chouette.cli import cmd_convert

    match = tmp_path / "match.jsonl"
    match.write_text('{"type": "game_start"}\n')
    with pytest.raises(UsageError) as raised:
        cmd_convert(str(match), str(tmp_path / "mats"), io.StringIO())
    assert str(raised.value).startswith(f"{match}: line 1: ")
    record = write_record(simulate(["Ann", "Bob", "Cy"], 1, 2).events, tmp_path / "c.jsonl")
    (tmp_path / "a-file").write_text("kept\n")
    with pytest.raises(UsageError, match=r"^--out '.*a-file' is a file: give a folder for the .mat files$"):
        cmd_convert(str(record), str(tmp_path / "a-file"), io.StringIO())
    assert (tmp_path / "a-file").read_text() == "kept\n"


@pytest.mark.parametrize(("arguments", "message"), [
    (["--games", "0"], "--games: must be 1 or more, got 0"),
    (["--games", "-3"], "--games: must be 1 or more, got -3"),
    (["--join-rate", "2"], "--join-rate: must be from 0 to 1, got 2"),
    (["--leave-rate", "nan"], "--leave-rate: must be from 0 to 1, got nan"),
])
def test_simulate_refuses_a_count_or_chance_it_cannot_use_in_one_line(tmp_path: Path, arguments: list[str],
                                                                      message: str) -> None:
    out = tmp_path / "s.jsonl"
    done = subprocess.run([sys.executable, "-m", "game.chouette", "simulate", "--players", "Ann,Bob,Cy", *arguments,
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and message in done.stderr and done.stderr.count("\n") == 1
    assert not out.exists()


# -- the score sheet ---------------------------------------------------------------------------------

def _scripted() -> ChouetteSession:
    """Three games: the box beats the team, a captain passes and the next one beats the box, a partner."""
    s = seated("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", box_partner=True)
    box_on_roll(s)
    for member in ("Bob", "Cy", "Dee", "Eve", "Fay"):
        s.box_double(member)
    for member, answer in zip(("Bob", "Cy", "Dee", "Eve", "Fay"), ("pass_", "pass_", "take", "pass_", "pass_"),
                              strict=True):
        getattr(s, answer)(member)
    s.roll(6, 1)
    s.play("13/7 8/7")
    s.double("Dee")
    s.box_pass("Dee")
    s.take_partner("Eve")
    team_on_roll(s)
    for member in s.team:
        s.double(member)
    for member in s.team:
        s.box_pass(member)
    return s


def test_the_score_sheet_has_a_row_per_game_and_a_column_per_player() -> None:
    s = _scripted()
    sheet = chouette_sheet_from_events(s.events)
    assert sheet.players == ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
    assert [row.game for row in sheet.rows] == [1, 2]
    first, second = sheet.rows
    assert {n: (c.role, c.points, c.how) for n, c in first.cells.items()} == {
        "Ann": ("B", 2, ""), "Bob": ("C", -1, "pass"), "Cy": ("", -1, "pass"), "Dee": ("C2", 2, "box_pass"),
        "Eve": ("", -1, "pass"), "Fay": ("", -1, "pass")}
    assert second.cells["Dee"].role == "B" and second.cells["Eve"].role == "P"
    assert second.cells["Eve"].points == -2 and second.cells["Dee"].points == -2
    assert sheet.totals == {name: float(points) for name, points in s.totals.items()}
    heading, team = sheet.games[0][0]
    assert heading == "Game 1: Ann (box) v Bob, then Dee (captain)"
    rows = [r.notation for r in sheet.games[0][1].rows if r.dice is None]
    assert rows[:2] == ["doubles Bob to 2", "doubles Cy to 2"] and "Dee takes 2" in rows
    assert "passes Dee's cube" in rows


def test_report_draws_the_chouette_score_sheet(tmp_path: Path) -> None:
    record = write_record(_scripted().events, tmp_path / "c.jsonl")
    out = io.StringIO()
    assert game_main(["report", str(record), "--out", str(tmp_path / "sheet.png")], out) == 0
    pages = [Path(line.removeprefix("wrote ")) for line in out.getvalue().splitlines() if line.startswith("wrote ")]
    with Image.open(pages[0]) as first:
        assert first.size == (1240, 1754)
        assert_golden(first.convert("RGB"), "chouette_sheet_page_1", tmp_path)
    assert game_main(["report", str(record), "--out", str(tmp_path / "sheet.pdf")], io.StringIO()) == 0
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")


def test_the_score_sheet_of_a_cut_record_marks_the_game_not_finished() -> None:
    s = seated("Ann", "Bob", "Cy")
    team_on_roll(s)
    s.double("Bob")
    sheet = chouette_sheet_from_events(s.events)
    assert [(row.game, row.finished) for row in sheet.rows] == [(1, False)]
    pages = draw_chouette_sheet(sheet)
    assert len(pages) == 1


def test_a_replayer_counts_other_layers_events_and_refuses_a_second_start() -> None:
    replayer = ChouetteReplayer(strict=False)
    events = _events(simulate(["Ann", "Bob", "Cy"], 1, 4))
    for number, event in enumerate([*events[:5], {"type": "clock"}, events[0]], 1):
        replayer.feed(event, number)
    assert replayer.unknown == {"clock": 1}
    assert [p.line for p in replayer.problems] == [7] and "second chouette_start" in replayer.problems[0].rule
