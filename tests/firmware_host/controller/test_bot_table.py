"""The bot's seat at the table (firmware_host/controller/bot_seat.py): its parts, the command line and the
config that seat it, and whole matches with bots on the emulated table in every variant."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from bot_fixtures import shipped
from configs import refusal
from tables import journal, until_the_bots_play

from drivers.events import ButtonKind
from firmware_host.cli import main
from firmware_host.config import load_config
from firmware_host.controller.bot_seat import CarryOut, seated
from firmware_host.controller.prompts import Prompt, Waiting
from firmware_host.emulator.people import BotJudge, PipJudge
from firmware_host.emulator.table import EmulatedTable
from firmware_host.errors import ConfigError
from firmware_host.record.match_report import MatchReport
from firmware_host.settings import ChouetteSettings, Settings
from game.board import Color, Variant
from game.bot.context import MatchContext
from game.bot.levels import Level
from game.cli import main as game_main
from game.codes import Code
from game.cube import Cube
from game.position import Position
from game.reconcile import Illegal, Legal, Misplaced
from game.zones import Capability, layout, sensed_view, view_of


def opening_carry_out(capability: Capability = Capability.STACKS) -> CarryOut:
    before = Position.initial(Variant.BACKGAMMON)
    play = before.parse_play("8/5 6/5", (3, 1))
    assert play is not None
    return CarryOut(shipped(Variant.BACKGAMMON), before, (3, 1), play, capability)


def board_after(carry: CarryOut, notation: str) -> tuple[str, ...]:
    play = carry.before.parse_play(notation, carry.dice)
    assert play is not None
    return layout(play.after_moves)


# -- carrying out the bot's play --------------------------------------------------------------

@pytest.mark.parametrize("capability", list(Capability), ids=lambda c: c.name.lower())
def test_the_carry_out_lights_one_move_after_another_and_knows_the_play_when_it_stands(
        capability: Capability) -> None:
    carry = opening_carry_out(capability)
    assert len(carry.steps) == 2 and carry.reached(carry.views[0]) == 0
    assert carry.zones(0) == {carry.steps[0].source, carry.steps[0].target}
    assert carry.reached(carry.views[1]) == 1 and carry.zones(1) == {carry.steps[1].source, carry.steps[1].target}
    assert carry.zones(2) == frozenset()
    assert carry.is_the_play(sensed_view(carry.play.after_moves, capability))
    assert not carry.is_the_play(carry.views[1])


def test_a_board_on_the_way_is_no_flag_and_any_other_complete_board_is() -> None:
    carry = opening_carry_out()
    assert carry.wrong(carry.views[0]) is None and carry.wrong(carry.views[1]) is None  # untouched, one move made
    in_hand = list(layout(carry.before))
    in_hand[7] = in_hand[7][:-1]  # a checker lifted from the 8-point, in the hand
    assert carry.wrong(view_of(tuple(in_hand), Capability.STACKS)) is None
    other = carry.wrong(view_of(board_after(carry, "24/21 24/23"), Capability.STACKS))
    assert isinstance(other, Legal)  # another legal play is a flag too
    wrong = list(layout(carry.before))
    wrong[7], wrong[2] = wrong[7][:-1], wrong[2] + "w"  # 8/3: no sum of 3-1 is a 5
    assert isinstance(carry.wrong(view_of(tuple(wrong), Capability.STACKS)), Illegal | Misplaced)


def test_the_bots_are_named_in_the_record_by_engine_and_level() -> None:
    bot = shipped(Variant.RUNGAMMON)
    assert seated(("Ann", "Black"), {Color.BLACK: bot}) == ("Ann", bot.name)
    assert "network" in bot.name and "advanced" in bot.name


# -- what the simulated people see: the score ----------------------------------------------------

def test_a_simulated_persons_bot_decides_the_cube_in_the_match_context_the_prompt_tells() -> None:
    position = Position("XGID=-BBBBBB------------cccbbb-:0:0:1:00:0:0:0:0:10")  # White on roll, 42 pips to 57
    bot = shipped(Variant.BACKGAMMON)
    judge = BotJudge({Color.WHITE: bot}, PipJudge(random.Random(1)))
    money = Prompt(Waiting.ROLL_OR_DOUBLE, Color.WHITE, position=position, can_double=True)
    assert judge.doubles(money)
    crawford = MatchContext(length=5, score=(4, 2), crawford=True)
    assert not judge.doubles(Prompt(Waiting.ROLL_OR_DOUBLE, Color.WHITE, position=position, can_double=True,
                                    context=crawford))
    offered = MatchContext(length=5, score=(0, 0), cube=Cube(1, None, Color.BLACK))
    answer = judge.answer(Prompt(Waiting.CUBE_RESPONSE, Color.WHITE, position=position.with_turn(Color.BLACK),
                                 context=offered))
    assert answer.value in ("take", "pass")


# -- settings, config, command line ------------------------------------------------------------

def test_a_chouette_seats_no_bot_by_colour() -> None:
    with pytest.raises(ConfigError, match="a chouette seats its bots by player name, not by colour"):
        Settings(timed=False, chouette=ChouetteSettings(("Ann", "Bob", "Cy")), bots={Color.BLACK: Level.EXPERT})


def test_the_config_seats_a_bot_on_either_side_at_its_level(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[board]\nport = 'x'\n[players]\nwhite = 'bot'\nlevel = 'world-class'\n")
    settings = load_config(config).settings
    assert settings.bots == {Color.WHITE: Level.WORLD_CLASS} and settings.analyse
    assert settings.to_document()["bots"] == {"white": "world-class"}


@pytest.mark.parametrize(("text", "message"), [
    ("[players]\nblack = 'robot'\n", "[players] black = 'robot': must be one of \"person\", \"bot\""),
    ("[players]\nlevel = 'grandmastr'\n", "[players] level = 'grandmastr': must be one of \"beginner\""),
    ("[players]\nblack = 'bot'\n[chouette]\nplayers = ['Ann', 'Bob', 'Cy']\n[clock]\nenabled = false\n",
     "[players]: a chouette seats no bot by colour; name its bots in [chouette] bots"),
    ("[players]\nside = 'bot'\n", "[players] side is not a key"),
    ("[record]\nanalyse = 'yes'\n", "analyse = 'yes': must be true or false"),
])
def test_a_bad_bot_seat_in_the_config_is_one_line_and_exit_2(tmp_path: Path, text: str, message: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    err = refusal(tmp_path, text, capsys)
    assert message in err and err.count("\n") == 1, err


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "purple"], "--bots 'purple': the bots play white, black or both (at a chouette: players' names)"),
    (["--level", "godlike"], "no bot level 'godlike'"),
    (["--opponent", "cat"], "invalid choice: 'cat'"),
    (["--chouette", "3", "--bots"], "--bots at a chouette names the players that are bots"),
    (["--chouette", "3", "--opponent", "bot"], "--opponent bot is for a match: a chouette names its bots"),
    (["--chouette", "3", "--bots", "Zed"], "the bot 'Zed' is not a player of the chouette (players: Ann, Bob, Cy)"),
])
def test_bad_bot_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["simulate", "--record", str(tmp_path / "r"), *args])
    except SystemExit as exited:  # argparse's own refusals
        code = exited.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.strip().count("\n") == 0, err


# -- whole matches ---------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "sides"), [("backgammon", "both"), ("catchgammon", "black"),
                                                ("rungammon", "white")])
@pytest.mark.slow
def test_simulate_with_bots_finishes_in_every_variant_and_the_record_validates(
        tmp_path: Path, variant: str, sides: str, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "match"
    assert main(["simulate", "--variant", variant, "--bots", sides, "--level", "advanced", "--seed", "4",
                 "--match-to", "1", "--record", str(record), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "finished: score" in out and "bot play decisions:" in out and "bot cube decisions:" in out
    journal = record / "journal.jsonl"
    assert game_main(["validate", str(journal)]) == 0
    events = [json.loads(line) for line in journal.read_text().splitlines()]
    players = next(e for e in events if e["type"] == "match_start")["players"]
    bot_sides = ("white", "black") if sides == "both" else (sides,)
    for side in ("white", "black"):
        assert ("(advanced)" in players[side]) is (side in bot_sides), players
    assert next(e for e in events if e["type"] == "controller_start")["bots"] == {
        side: "advanced" for side in bot_sides}
    carried = [e for e in events if e["type"] == "display" and e["text"] == "AI"]
    assert carried  # the bots' plays were shown to be carried out


@pytest.mark.slow
def test_the_same_seed_gives_the_same_bot_match(tmp_path: Path) -> None:
    plays = []
    for name in ("a", "b"):
        assert main(["simulate", "--variant", "rungammon", "--bots", "black", "--level", "beginner", "--seed", "2",
                     "--match-to", "1", "--record", str(tmp_path / name), "--quiet"]) == 0
        lines = (tmp_path / name / "journal.jsonl").read_text().splitlines()
        plays.append([json.loads(line).get("moves") for line in lines if '"type":"play"' in line])
    assert plays[0] == plays[1] and len(plays[0]) > 10


@pytest.mark.slow
def test_a_backgammon_match_ends_with_its_analysed_report_beside_the_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "match"
    assert main(["simulate", "--bots", "--level", "advanced", "--seed", "4", "--match-to", "1", "--analyse",
                 "--record", str(record), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"wrote {record / 'analysis.txt'}" in out
    report = (record / "analysis.txt").read_text()
    assert "error rate (PR)" in report and (record / "analysis.pdf").stat().st_size > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", [Variant.CATCHGAMMON, Variant.RUNGAMMON])
def test_a_variants_match_ends_with_its_report_on_the_networks_own_scale(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: Variant) -> None:
    record = tmp_path / "match"
    assert main(["simulate", "--bots", "--level", "advanced", "--seed", "4", "--match-to", "1", "--analyse",
                 "--variant", variant.value, "--record", str(record), "--quiet"]) == 0
    assert f"wrote {record / 'analysis.txt'}" in capsys.readouterr().out
    report = (record / "analysis.txt").read_text()
    assert "error rate (NER)" in report and "not GNU Backgammon's PR" in report and "(PR)" not in report
    assert (record / "analysis.pdf").stat().st_size > 0


def test_no_report_without_the_judge_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notes: list[str] = []
    monkeypatch.setattr("firmware_host.record.match_report.available", lambda variant: False)
    for variant in (Variant.BACKGAMMON, Variant.CATCHGAMMON):
        report = MatchReport(notes.append)
        report.match_over(variant, tmp_path / "journal.jsonl")
        assert report.thread is None
    assert notes == ["no analysed report: GNU Backgammon's bindings are not installed (pip install -e '.[bot]')",
                     "no analysed report: numpy is not installed (pip install -e '.[bot]')"]


def test_done_pressed_while_the_board_moves_is_judged_once_it_settles(tmp_path: Path) -> None:
    """A press while the board moves is never lost (the hand that pressed waits for the table): the
    board is judged once it settles, here one move short of the bot's play, so a flag; the rest of
    the play then passes the turn. (Lost, it stalled a chouette: the simulated hands press once.)"""
    settings = Settings(length=1, bots={Color.BLACK: Level.ADVANCED})
    with EmulatedTable(settings, tmp_path / "r", seed=3, line_noise=0.0, flicker_rate=0.0) as table:
        until_the_bots_play(table)
        table.players = False  # this test's hands carry the play out
        carry = table.controller.seat.carry
        assert carry is not None and len(carry.steps) >= 2
        first, *rest = carry.steps
        table.emulator.lift(first.source)
        table.wait(0.1)
        table.press("white", ButtonKind.DONE)  # either player may; the board has not stood still since the lift
        assert not table.controller.board.settled and table.controller.prompt.code == Code.BOT_PLAY
        table.wait(0.1)
        table.emulator.place(first.target)
        table.wait(2.0)
        assert table.controller.prompt.code == Code.NOT_THE_BOT_PLAY, table.controller.prompt.describe()
        assert journal(table, "flag"), journal(table)[-5:]
        for step in rest:
            table.emulator.lift(step.source)
            table.emulator.place(step.target)
        table.wait(2.0)
        assert table.controller.prompt.waiting is not Waiting.BOT_PLAY  # the play stands: the turn passed
        assert table.controller.seat.carry is None


def test_done_pressed_on_a_board_standing_on_the_way_reads_it_afresh_and_flags_it(tmp_path: Path) -> None:
    """Done on a still board asks the board for a whole reading first (a zone change lost on the line
    would otherwise be judged), then judges it: one move made of two is not the bot's play."""
    settings = Settings(length=1, bots={Color.BLACK: Level.ADVANCED})
    with EmulatedTable(settings, tmp_path / "r", seed=3, line_noise=0.0, flicker_rate=0.0) as table:
        until_the_bots_play(table)
        table.players = False
        carry = table.controller.seat.carry
        assert carry is not None and len(carry.steps) >= 2
        table.emulator.lift(carry.steps[0].source)
        table.emulator.place(carry.steps[0].target)
        table.wait(1.0)
        assert table.controller.prompt.code == Code.BOT_PLAY and table.controller.board.settled  # on the way
        table.press("black", ButtonKind.DONE)
        table.step()
        assert not table.controller.board.settled  # a whole reading asked for: nothing judged until it comes
        assert table.controller.prompt.code == Code.BOT_PLAY
        table.wait(0.5)
        assert table.controller.prompt.code == Code.NOT_THE_BOT_PLAY, table.controller.prompt.describe()


def test_a_table_stopped_while_the_bots_play_is_carried_out_resumes_it_and_finishes(tmp_path: Path) -> None:
    settings = Settings(length=1, bots={Color.BLACK: Level.ADVANCED})
    record = tmp_path / "r"

    with EmulatedTable(settings, record, seed=3, line_noise=0.0, flicker_rate=0.0) as table:
        shown = until_the_bots_play(table)
        table.wait(1.0)  # the hands are at it
        clock = table.controller.clock
        assert clock is not None and clock.running is None  # nobody's time while the hands work for the bot
    with EmulatedTable(settings, record, seed=4, line_noise=0.0, flicker_rate=0.0) as again:  # a new board, set anew
        assert again.controller.resumed
        assert until_the_bots_play(again).play == shown.play  # the same play is asked again
        assert again.run(max_seconds=3600)
    assert game_main(["validate", str(record / "journal.jsonl")]) == 0


def test_after_a_declined_resignation_the_bot_plays_the_game_out() -> None:
    from firmware_host.controller.bot_seat import _declined_this_game
    from game.match import Match
    from game.position import ResultKind

    match = Match(Variant.BACKGAMMON, 3)
    match.opening_roll(3, 1)
    match.play(match.legal_plays()[0])
    assert not _declined_this_game(match)
    match.resign(Color.BLACK, ResultKind.SINGLE)
    match.decline_resignation(Color.WHITE)
    assert _declined_this_game(match)


def test_a_tables_bots_warm_up_as_it_opens_and_their_worker_ends_with_the_table(tmp_path: Path) -> None:
    """GNU Backgammon's worker starts in the background when the table makes its bot (its first
    answer would otherwise wait a second or two for the engine to load) and stops when the
    table closes: no worker process outlives its table."""
    from game.bot.gnubg_bot import GnubgBot

    settings = Settings(length=1, bots={Color.BLACK: Level.EXPERT})
    with EmulatedTable(settings, tmp_path / "r", seed=5, line_noise=0.0, flicker_rate=0.0) as table:
        bot = table.controller.seat.bots[Color.BLACK]
        assert isinstance(bot, GnubgBot)
        pid = bot.worker.pid
        assert pid is not None  # warming up, before any question
    assert bot.worker.pid is None  # closed with the table: its worker was waited for
    status = Path(f"/proc/{pid}/status")
    assert not status.exists() or "State:\tZ" in status.read_text()
