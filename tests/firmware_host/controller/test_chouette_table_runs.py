"""Whole chouettes at the emulated table, played by simulated people who make their own cube
decisions: the record validates; a member out of a game is never asked again in it; a table
killed mid-game with several cubes turned resumes with every cube as it was; a journal cut after
any line resumes to the same session."""

from __future__ import annotations

import json
import random
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import precondition
from played import played_once, session_key
from test_controller_restart import events_of, kill_at, run

from firmware_host.controller import Controller
from firmware_host.controller.prompts import Prompt, Waiting
from firmware_host.emulator.people import ChouetteJudge, Habits, SimulatedTable
from firmware_host.emulator.table import TICK, EmulatedTable
from firmware_host.record.journal import JOURNAL_NAME, Journal, read_journal
from firmware_host.record.signing import KEY_ENV, TableKey
from firmware_host.settings import ChouetteSettings, Settings
from firmware_host.table import Table
from game.board import Variant
from game.chouette import ChouetteOptions, ChouetteSession, Phase, Stake
from game.chouette.events import EVENT_TYPES
from game.chouette.validate import validate_chouette
from game.cli import main as game_main
from game.zones import layout

FIVE = ("Ann", "Bob", "Cy", "Dee", "Eve")
QUICK = Habits(think=(0.2, 0.8), hand=(0.1, 0.4))
"""People who think and move faster than the default: half the table time, the same mistakes."""


def settings(players: tuple[str, ...] = FIVE, games: int = 0, variant: Variant = Variant.BACKGAMMON,
             **options: bool) -> Settings:
    return Settings(variant=variant, timed=False, images=False,
                    chouette=ChouetteSettings(players, ChouetteOptions(**options), games))


def session_of(table: EmulatedTable) -> ChouetteSession:
    played = table.controller.played
    assert isinstance(played, ChouetteSession)
    return played


CUBE_MOMENTS = (Waiting.ROLL_OR_DOUBLE, Waiting.TURN_CUBE, Waiting.CUBE_RESPONSE)


def watch_prompts(table: EmulatedTable) -> tuple[list[Prompt], list[str]]:
    """Every prompt the people see and, as each is published, any that asks about the cube of a
    member out of the game, or asks such a member anything."""
    seen: list[Prompt] = []
    wrong: list[str] = []
    see = table.people.see

    def spy(prompt: Prompt, now: float) -> None:
        if not seen or seen[-1].serial != prompt.serial:
            seen.append(prompt)
            s = session_of(table)
            if prompt.waiting in CUBE_MOMENTS and s.stakes is not None:
                people = [prompt.member] + ([prompt.asked] if prompt.asked != s.box else [])
                wrong.extend(f"game {s.game_number}: {prompt.describe()}" for person in people
                             if person and not s.in_game(person))
        see(prompt, now)

    table.people.see = spy  # type: ignore[method-assign]
    return seen, wrong


def acted_when_out(events: list[dict[str, Any]]) -> list[str]:
    """Cube actions on a member's cube in a game after that member's stake in it settled."""
    wrong: list[str] = []
    settled: set[str] = set()
    game = 0
    for event in events:
        if event["type"] == "game_start":
            game, settled = event["game"], set()
        elif event["type"] == "settle":
            settled.add(event["member"])
        elif event["type"] in ("double", "take", "pass", "beaver") and event["member"] in settled:
            wrong.append(f"game {game}: {event['type']} on {event['member']}'s cube after it settled")
    return wrong


@pytest.mark.slow
def test_a_simulated_chouette_of_five_over_many_games_validates(tmp_path: Path) -> None:
    table = EmulatedTable(settings(games=8), tmp_path / "five", seed=21, habits=QUICK)
    with table:
        prompts, asked_when_out = watch_prompts(table)
        assert table.run(max_seconds=8 * 1800), table.controller.prompt.describe()
        s = session_of(table)
        flags = table.controller.flags
    verdict = validate_chouette(str(table.journal.path), table.journal.path.read_bytes())
    assert verdict.exit_code == 0 and verdict.problems == [], verdict.render()
    assert verdict.session is not None and verdict.session.is_over and len(verdict.session.games) == 8
    assert verdict.integrity is not None and verdict.integrity.intact and verdict.integrity.ends_signed
    assert game_main(["validate", str(table.journal.path)]) == 0
    events = [json.loads(line) for line in table.journal.path.read_text().splitlines()]
    cube_actions = [e for e in events if e["type"] in ("double", "take", "pass")]
    assert {e["type"] for e in cube_actions} == {"double", "take", "pass"} and flags > 0  # a lively session
    assert sum(s.totals.values()) == 0 and len({e["box"] for e in events if e["type"] == "game_start"}) > 1
    assert {prompt.asked for prompt in prompts if prompt.waiting in CUBE_MOMENTS} == set(FIVE)
    assert asked_when_out == [] and acted_when_out(events) == []
    assert any(e["type"] == "settle" and e["reason"] in ("pass", "box_pass") for e in events)  # some went out


@pytest.mark.parametrize(("variant", "options"), [
    (Variant.BACKGAMMON, {"beavers": True, "jacoby": True, "box_takes_half": True}),
    (Variant.CATCHGAMMON, {"automatic_doubles": True}),
    (Variant.RUNGAMMON, {"team_cube": True}),
], ids=["beavers-jacoby-half", "catchgammon-automatic", "rungammon-team-cube"])
@pytest.mark.slow
def test_house_options_and_variants_at_the_table_validate(tmp_path: Path, variant: Variant,
                                                          options: dict[str, bool]) -> None:
    table = EmulatedTable(settings(FIVE[:4], games=2, variant=variant, **options), tmp_path / "house", seed=5,
                          habits=QUICK)
    with table:
        table.emulator.set_zones(layout(session_of(table).position))
        assert table.run(max_seconds=2 * 1800), table.controller.prompt.describe()
    verdict = validate_chouette(str(table.journal.path), table.journal.path.read_bytes())
    assert verdict.exit_code == 0, verdict.render()
    assert verdict.session is not None and verdict.session.options == ChouetteOptions(**options)


# -- killed and resumed -------------------------------------------------------------------------------


def stakes(session: ChouetteSession) -> list[Stake]:
    assert session.stakes is not None
    return [replace(session.stakes[m]) for m in session.stakes.order]


def offers_pending(session: ChouetteSession) -> list[str]:
    exchange = session.stakes.exchange if session.stakes is not None else None
    return [m for m in exchange.offers if m not in exchange.answered] if exchange is not None else []


def cubes_turned(session: ChouetteSession) -> int:
    return sum(1 for stake in stakes(session) if stake.cube.value > 1 or stake.cube.offered_by is not None)


def new_prompt(table: EmulatedTable, serial: int) -> Callable[[], bool]:
    return lambda: table.controller.prompt.serial != serial


def step_until(table: EmulatedTable, until: Callable[[], bool]) -> None:
    for _ in range(int(3 * 3600 / TICK)):
        if until():
            return
        table.step()
    raise AssertionError(f"not reached in three hours of table time; {table.controller.prompt.describe()}")


class Crash:
    """Drops a table's controller as a killed process leaves it (the journal as it is, the port and
    pins released) and starts a new one on the same record, at the same board."""

    def __init__(self) -> None:
        self.dropped: list[Journal] = []

    def __call__(self, table: EmulatedTable) -> Controller:
        self.dropped.append(table.journal)
        table.table.close()
        table.table = Table.open(f"emulator://{table.emulator.name}", pin_factory=table.pins, clock=table.clock,
                                 bounce_time=None)
        table.journal = Journal(table.record, key=TableKey.load_or_create())
        table.controller = Controller.resume(table.settings, table.journal, display=table.table.display,
                                             wall_time=table.clock.now)
        table.people = SimulatedTable(table.emulator, table.press, random.Random(table.seed), table.habits,
                                      ChouetteJudge(random.Random(table.seed)))
        return table.controller

    def close(self) -> None:
        for journal in self.dropped:
            journal.close()


@pytest.fixture
def crash() -> Iterator[Crash]:
    dropping = Crash()
    yield dropping
    dropping.close()


@pytest.mark.parametrize(("seed", "moment"), [
    (8, "offers"),  # two or more cubes offered, their answers awaited
    (4, "turned"),  # two or more cubes turned and taken, the side on roll to roll
])
@pytest.mark.slow
def test_a_table_killed_mid_game_with_several_cubes_turned_resumes_with_every_cube_as_it_was(
        tmp_path: Path, crash: Crash, seed: int, moment: str) -> None:
    table = EmulatedTable(settings(games=2), tmp_path / "killed", seed=seed)
    with table:
        with precondition():
            def reached() -> bool:
                s = session_of(table)
                if s.stakes is None:
                    return False
                if moment == "offers":
                    return s.phase is Phase.DOUBLED and len(offers_pending(s)) >= 2
                return s.phase is Phase.ROLL and cubes_turned(s) >= 2 and table.controller.prompt.waiting in (
                    Waiting.ROLL_OR_DOUBLE, Waiting.TURN_CUBE)

            step_until(table, reached)
        before = session_of(table)
        cubes, pending, game = stakes(before), offers_pending(before), before.game_number
        line, totals, position = before.roster.line, before.totals, before.position
        resumed = crash(table)
        after = session_of(table)
        assert resumed.resumed and after is not before
        assert stakes(after) == cubes and offers_pending(after) == pending
        assert (after.game_number, after.roster.line, after.totals, after.position) == (game, line, totals, position)
        assert resumed.prompt.waiting is Waiting.SET_BOARD  # first the board is checked, as for a match
        step_until(table, lambda: table.controller.prompt.waiting is not Waiting.SET_BOARD)
        if moment == "offers":  # members behind the last offer are asked again (a cube let be is not recorded),
            last = after.team.index(pending[-1])  # then the first cube offered is answered, with its code
            while (prompt := table.controller.prompt).waiting is Waiting.TURN_CUBE:
                assert after.team.index(prompt.member) > last, prompt.describe()
                step_until(table, new_prompt(table, prompt.serial))
            assert prompt.waiting is Waiting.CUBE_RESPONSE and prompt.member == pending[0], prompt.describe()
            assert prompt.code[1:] == str(after.team.index(pending[0]) + 1)
        assert table.run(max_seconds=2 * 1800)
    verdict = validate_chouette(str(table.journal.path), table.journal.path.read_bytes())
    assert verdict.exit_code == 0 and verdict.session is not None and verdict.session.is_over, verdict.render()


@pytest.mark.slow
def test_killed_mid_exchange_then_the_same_command_resumes_and_finishes(tmp_path: Path) -> None:
    record = tmp_path / "record"
    command = [sys.executable, "-m", "firmware_host", "simulate", "--chouette", "5", "--games", "2", "--seed", "8",
               "--record", str(record), "--quiet"]

    def two_cubes_offered(events: list[dict[str, Any]]) -> bool:
        played = [e for e in events if e["type"] in EVENT_TYPES]
        starts = [i for i, e in enumerate(played) if e["type"] == "game_start"]
        since = played[starts[-1]:] if starts else []
        doubles = [e for e in since if e["type"] == "double"]
        return len(doubles) >= 2 and since[-1]["type"] == "double"

    before = kill_at(command, record, two_cubes_offered)
    done = run(command)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "finished: Ann" in done.stdout and "wrote " in done.stdout
    after = (record / JOURNAL_NAME).read_bytes()
    assert after.startswith(before)  # not a byte lost or changed
    new = events_of(after[len(before):])
    assert new[0]["type"] == "resume" and new[0]["phase"] == "doubled"
    answers = [e for e in new if e["type"] in ("take", "pass", "beaver")]
    # The cubes offered and not yet answered when the process was killed (two or more: the kill
    # lands a moment after the journal shows two, and the table may have gone on to offer another),
    # answered after it, in their order.
    played = [e for e in events_of(before) if e["type"] in EVENT_TYPES]
    since_answer = played[max(i for i, e in enumerate(played) if e["type"] in ("game_start", "take", "pass",
                                                                             "beaver")):]
    offered = [e["member"] for e in since_answer if e["type"] == "double"]
    assert len(offered) >= 2
    assert [e["member"] for e in answers[:len(offered)]] == offered
    checked = run([sys.executable, "-m", "game", "validate", str(record / JOURNAL_NAME)])
    assert checked.returncode == 0 and "the session ended" in checked.stdout, checked.stdout


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The journal of a whole two-game chouette of three, played once in the test session by the
    simulated people (signed with the session's key, as conftest.py gives every test: this fixture
    comes before it)."""
    def play(record: Path) -> None:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(KEY_ENV, str(session_key(tmp_path_factory)))
            with EmulatedTable(settings(FIVE[:3], games=2), record, seed=3, habits=QUICK) as table:
                assert table.run(max_seconds=2 * 1800)
    return played_once(tmp_path_factory, "chouette-of-three", play) / JOURNAL_NAME


SHOWN = ("display", "zone_leds")
"""What the table showed: a cut between two such lines is like the cut before them."""


@pytest.mark.slow
def test_the_journal_cut_after_any_line_resumes_to_the_same_session(whole: Path, tmp_path: Path) -> None:
    lines = whole.read_bytes().splitlines(keepends=True)
    kinds = [json.loads(line)["type"] for line in lines]
    full = [kind for kind in kinds if kind in EVENT_TYPES]
    cuts = [cut for cut in range(1, len(lines)) if not (kinds[cut - 1] in SHOWN and kinds[cut] in SHOWN)]
    assert len(cuts) > len(full)  # after every line but one of the table's showing followed by another
    for cut in cuts:
        record = tmp_path / str(cut)
        record.mkdir()
        (record / JOURNAL_NAME).write_bytes(b"".join(lines[:cut]))
        with Journal(record, key=TableKey.load_or_create()) as journal:
            controller = Controller.open(settings(FIVE[:3], games=2), journal, wall_time=lambda: 5000.0)
        resumed = [e["type"] for e in read_journal(record) if e["type"] in EVENT_TYPES]
        assert resumed == full[:len(resumed)], f"cut after line {cut}: the resumed record is another session"
        recorded = [e for e in map(json.loads, lines[:cut]) if e["type"] in EVENT_TYPES]
        assert len(resumed) >= len(recorded), f"cut after line {cut}: events lost"
        assert controller.prompt.waiting is not None
        shutil.rmtree(record)


def test_a_journal_resumes_only_as_the_session_it_began(whole: Path, tmp_path: Path) -> None:
    from firmware_host.errors import JournalError

    (tmp_path / JOURNAL_NAME).write_bytes(whole.read_bytes())
    with Journal(tmp_path, key=TableKey.load_or_create()) as journal:
        for other in (settings(("Ann", "Bob", "Dee"), games=2), settings(FIVE[:3], games=2, beavers=True),
                      Settings(variant=Variant.BACKGAMMON)):
            with pytest.raises(JournalError, match="holds a backgammon chouette of Ann, Bob, Cy"):
                Controller.resume(other, journal)
