"""A bot seated at a chouette on the emulated table (firmware_host/controller/bot_seat.py): in the box,
as captain or as a member, it plays whatever seat the order and the rotation give it to the end of
the session; every cube decision asked of it is made at once, journaled as a `decision` event with
the source `bot`, and equals what `game.bot.chouette.ChouetteBot` answers on the session replayed
to that line; its plays are the bot's, carried out by the simulated hands; the journal replays.
On a roll-button board the host throws the dice for the bot in the box or as captain. And the
settings, config and command line that seat it, with their one-line refusals."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from configs import refusal
from tables import until_the_bots_play

from drivers.buttons import RollButton
from drivers.cube_display import LARGEST_VALUE
from drivers.events import ButtonKind, Player
from drivers.pinmap import ROLL_BUTTON_PIN
from firmware_host.cli import main
from firmware_host.config import load_config
from firmware_host.controller.bot_seat import _said
from firmware_host.controller.cube.chouette import Asked
from firmware_host.controller.prompts import Prompt, Waiting
from firmware_host.emulator.people import Habits
from firmware_host.emulator.table import EmulatedTable
from firmware_host.errors import ConfigError
from firmware_host.settings import ChouetteSettings, Settings
from game.board import Color, Variant
from game.bot.chouette import ChouetteBot
from game.bot.factory import make_bot
from game.bot.levels import Level
from game.chouette import ChouetteOptions, ChouetteSession, Phase, Side
from game.chouette.replay import ChouetteReplayer, replay_session
from game.chouette.validate import validate_chouette
from game.errors import EngineUnavailable
from game.hands import hand_moves

THREE = ("Ann", "Bob", "Cy")
QUICK = Habits(think=(0.2, 0.8), hand=(0.1, 0.4))
SEED = 3
"""At this seed the three throw for the order Cy (the box), Ann (captain), Bob: naming the bot
one of them gives it that seat in the first game (the throws come before any bot decides)."""
DECIDED = re.compile(r"^(\w+) \((box|captain|member)\) (doubles|lets|takes|passes|beavers) .* s to decide\)$")


def chouette_settings(bot: str, games: int = 1, variant: Variant = Variant.BACKGAMMON, **options: bool) -> Settings:
    return Settings(variant=variant, timed=False, images=False,
                    chouette=ChouetteSettings(THREE, ChouetteOptions(**options), games, {bot: Level.EXPERT}))


class Played:
    """A whole session at the emulated table: its journal, every line the table logged, the totals."""

    def __init__(self, journal: bytes, notes: list[str], totals: Mapping[str, Any]) -> None:
        self.journal, self.notes, self.totals = journal, notes, dict(totals)
        self.events: list[dict[str, Any]] = [json.loads(line) for line in journal.splitlines()]


def play_out(settings: Settings, record: Path, seed: int = SEED) -> Played:
    """A whole session at the emulated table, played to its end."""
    notes: list[str] = []
    with EmulatedTable(settings, record, seed=seed, habits=QUICK) as table:
        outputs = table.controller.outputs
        log = outputs.note

        def note(text: str) -> None:
            notes.append(text)
            log(text)

        outputs.note = note  # type: ignore[method-assign]
        assert table.run(max_seconds=1800 * max(1, settings.chouette.games if settings.chouette else 1)), \
            table.controller.prompt.describe()
        played = table.controller.played
        assert isinstance(played, ChouetteSession) and played.is_over
    return Played((record / "journal.jsonl").read_bytes(), notes, played.totals)


def replayed_at_each_line(events: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], ChouetteSession]]:
    """Each event of the journal with the session replayed up to it (the event not yet applied)."""
    replayer = ChouetteReplayer(strict=True)
    for number, event in enumerate(events, 1):
        if replayer.started:
            yield event, replayer.result()
        replayer.feed(event, number)


def verbs_now(session: ChouetteSession) -> list[str]:
    """The answers the rules allow to the double awaiting one now."""
    return [a.removeprefix("box_").rstrip("_") for a in session.awaiting().actions if "double" not in a]


def check_against_the_bot(events: list[dict[str, Any]], name: str, bot: ChouetteBot) -> dict[str, int]:
    """Every decision and play the journal has of the bot `name` is `bot`'s on the session at that
    line; every cube action by `name` follows its decision. Returns counts by kind."""
    counts = {"turn": 0, "double": 0, "answer": 0, "play": 0}
    decided: dict[str, Any] | None = None
    for event, session in replayed_at_each_line(events):
        kind = event["type"]
        if kind == "decision" and event["player"] == name:
            assert event["source"] == "bot" and event["engine"] == bot.bot.name, event
            member = event["member"]
            if event["kind"] == "turn":
                side = session.on_roll
                assert side is not None and session.phase in (Phase.ROLL, Phase.DOUBLED)
                assert (event["answer"] == "double") is bot.doubles(session, side, member), event
                counts["double"] += event["answer"] == "double"
            else:
                wait = session.awaiting()
                assert wait.side is not None and wait.member == member, (event, wait.describe())
                assert event["answer"] == bot.answer(session, wait.side, member, verbs_now(session)), event
            counts[event["kind"]] += 1
            decided = event
        elif kind in ("double", "take", "pass", "beaver") and event.get("player") == name:
            assert decided is not None and decided["member"] == event["member"], (event, decided)
            decided = None
        elif kind == "play" and event["player"] == name:
            chosen = bot.play(session)
            moves = sorted([m.source, m.target] for m in chosen.moves) if chosen is not None else []
            assert moves == sorted(event["moves"]), event  # none: the roll could not be played
            assert "accepted_illegal" not in event
            counts["play"] += 1
        elif kind == "decision":  # the people's: never the bot's
            assert event["source"] != "bot", event
    return counts


@pytest.fixture(scope="module")
def expert() -> Iterator[ChouetteBot]:
    """The bot the table seats (expert: no noise), made anew, to ask what the table should have asked."""
    bot = make_bot(Variant.BACKGAMMON, Level.EXPERT)
    yield ChouetteBot(bot)
    bot.close()


def seat_of(events: list[dict[str, Any]], name: str) -> str:
    start = next(e for e in events if e["type"] == "game_start")
    return "box" if start["box"] == name else "captain" if start["captain"] == name else "member"


@pytest.mark.parametrize(("bot", "seat"), [("Cy", "box"), ("Ann", "captain"), ("Bob", "member")])
def test_a_bot_in_each_seat_plays_a_chouette_game_to_its_end_and_decides_as_the_chouette_bot(
        tmp_path: Path, expert: ChouetteBot, bot: str, seat: str) -> None:
    played = play_out(chouette_settings(bot), tmp_path / "r")
    events, notes = played.events, played.notes
    assert seat_of(events, bot) == seat
    counts = check_against_the_bot(events, bot, expert)
    assert counts["turn"] > 0  # asked about cubes, and answered at once
    if seat != "member":
        assert counts["play"] > 0  # its plays, carried out by the simulated hands
    logged = [m for m in map(DECIDED.match, notes) if m and m.group(1) == bot]
    assert len(logged) == counts["turn"] + counts["answer"], notes
    assert {m.group(2) for m in logged} >= {seat}  # the log names the seat it decides from
    shown = {e["text"] for e in events if e["type"] == "display"}
    assert ("AR" in shown and "AI" in shown) is (seat != "member")  # its throws and plays are a person's hands'
    start = next(e for e in events if e["type"] == "controller_start")
    assert start["chouette"] == {"games": 1, "bots": {bot: "expert"}}
    verdict = validate_chouette("journal", played.journal)
    assert verdict.exit_code == 0, verdict.render()
    replayed = replay_session(events)
    assert replayed.is_over and replayed.totals == played.totals  # the journal replays to the table's session


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options", "seed", "seats"), [
    (Variant.BACKGAMMON, {"beavers": True, "jacoby": True, "box_takes_half": True}, 3, {"box", "captain", "member"}),
    (Variant.RUNGAMMON, {"team_cube": True}, 9, {"box", "captain"}),  # dice where the bot doubles and answers
], ids=["beavers-jacoby-half", "rungammon-team-cube"])
def test_a_bot_through_the_rotation_decides_every_cube_in_the_house_rules(
        tmp_path: Path, variant: Variant, options: Mapping[str, bool], seed: int, seats: set[str]) -> None:
    played = play_out(chouette_settings("Cy", games=3, variant=variant, **options), tmp_path / "r", seed=seed)
    events, notes = played.events, played.notes
    starts = [e for e in events if e["type"] == "game_start"]
    assert {"box" if e["box"] == "Cy" else "captain" if e["captain"] == "Cy" else "member" for e in starts} == seats
    bot = make_bot(variant, Level.EXPERT)
    try:
        counts = check_against_the_bot(events, "Cy", ChouetteBot(bot))
    finally:
        bot.close()
    assert counts["double"] > 0 and counts["answer"] > 0 and counts["play"] > 0, counts
    assert sum(1 for n in notes if DECIDED.match(n)) == counts["turn"] + counts["answer"]
    verdict = validate_chouette("journal", played.journal)
    assert verdict.exit_code == 0 and verdict.session is not None and len(verdict.session.games) == 3, \
        verdict.render()
    assert replay_session(events).totals == played.totals


# -- settings, config, command line ------------------------------------------------------------

def test_settings_name_a_chouettes_bots_among_its_players() -> None:
    chouette = ChouetteSettings(THREE, bots={"Bob": Level.ADVANCED})
    assert chouette.to_document() == {"games": 0, "bots": {"Bob": "advanced"}}
    with pytest.raises(ConfigError, match=r"^the bot 'Zed' is not a player of the chouette \(players: Ann, Bob, Cy\)$"):
        ChouetteSettings(THREE, bots={"Zed": Level.ADVANCED})
    with pytest.raises(ConfigError, match=r"^a bot's level is one of beginner, .*, rollout, got 'expert'$"):
        ChouetteSettings(THREE, bots={"Cy": "expert"})  # type: ignore[dict-item]


def test_the_config_names_a_chouettes_bot_at_the_players_level(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text("[board]\nport = 'x'\n[players]\nlevel = 'advanced'\n"
                      "[chouette]\nplayers = ['Ann', 'Bob', 'Cy']\nbots = ['Cy']\n[clock]\nenabled = false\n")
    settings = load_config(config).settings
    assert settings.chouette is not None and settings.chouette.bots == {"Cy": Level.ADVANCED} and not settings.bots
    assert settings.to_document()["chouette"] == {"games": 0, "bots": {"Cy": "advanced"}}


@pytest.mark.parametrize(("text", "message"), [
    ("[chouette]\nplayers = ['Ann', 'Bob', 'Cy']\nbots = ['Zed']\n",
     "[chouette] the bot 'Zed' is not a player of the chouette (players: Ann, Bob, Cy)"),
    ("[chouette]\nplayers = ['Ann', 'Bob', 'Cy']\nbots = ['Cy']\n[players]\nlevel = 'godlike'\n",
     "[players] level = 'godlike': must be one of \"beginner\""),
    ("[chouette]\nbots = ['Cy']\n", "[chouette] bots names players of a chouette: give [chouette] players too"),
    ("[chouette]\nplayers = ['Ann', 'Bob', 'Cy']\nbots = 'Cy'\n", "[chouette] bots = 'Cy': must be a list of names"),
])
def test_a_bad_chouette_bot_in_the_config_is_one_line_and_exit_2(tmp_path: Path, text: str, message: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    err = refusal(tmp_path, text, capsys)
    assert message in err and err.count("\n") == 1, err


def test_a_chouette_bot_without_the_bot_extra_is_one_line_and_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def missing(*args: object, **kwargs: object) -> None:
        raise EngineUnavailable("the Backgammon bot needs GNU Backgammon's Python bindings: pip install -e '.[bot]'")

    monkeypatch.setattr("game.bot.factory.make_bot", missing)
    record = tmp_path / "r"
    assert main(["simulate", "--chouette", "Ann,Bob,Cy", "--bots", "Cy", "--record", str(record), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err == ("error: the chouette's bot Cy cannot be seated: the Backgammon bot needs GNU Backgammon's "
                   "Python bindings: pip install -e '.[bot]'\n"), err
    assert not (record / "journal.jsonl").exists() or "chouette_start" not in (record / "journal.jsonl").read_text()


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "Zed"], "the bot 'Zed' is not a player of the chouette (players: Ann, Bob, Cy)"),
    (["--bots"], "--bots at a chouette names the players that are bots, comma-separated: --bots Cy"),
    (["--bots", "Cy", "--level", "godlike"], "no bot level 'godlike'"),
])
def test_bad_chouette_bot_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["simulate", "--chouette", "Ann,Bob,Cy", "--record", str(tmp_path / "r"), *args])
    except SystemExit as exited:  # argparse's own refusals
        code = exited.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.strip().count("\n") == 0, err


@pytest.mark.slow
def test_the_command_line_seats_a_chouettes_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "r"
    assert main(["simulate", "--chouette", "Ann,Bob,Cy", "--bots", "Cy", "--level", "advanced", "--games", "1",
                 "--seed", str(SEED), "--record", str(record), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "bot cube decisions:" in out and "bot play decisions:" in out  # Cy was the box
    events = [json.loads(line) for line in (record / "journal.jsonl").read_text().splitlines()]
    assert next(e for e in events if e["type"] == "controller_start")["chouette"]["bots"] == {"Cy": "advanced"}
    assert next(e for e in events if e["type"] == "chouette_start")["players"] == list(THREE)  # named as given
    assert {e["source"] for e in events if e["type"] == "decision" and e["player"] == "Cy"} == {"bot"}



def test_a_chouette_stopped_while_the_bots_play_is_carried_out_resumes_it_and_finishes(
        tmp_path: Path, expert: ChouetteBot) -> None:
    settings, record = chouette_settings("Cy"), tmp_path / "r"

    with EmulatedTable(settings, record, seed=SEED, habits=QUICK) as table:
        shown = until_the_bots_play(table)
        table.wait(1.0)  # the hands are at it
        assert shown.message.startswith("Cy plays ") and shown.player is Color.BLACK  # the box's checkers
    with EmulatedTable(settings, record, seed=SEED + 1, habits=QUICK) as again:  # a new board, set anew
        assert again.controller.resumed
        assert until_the_bots_play(again).play == shown.play  # the same play is asked again
        assert again.run(max_seconds=1800)
    journal = (record / "journal.jsonl").read_bytes()
    assert validate_chouette("journal", journal).exit_code == 0
    counts = check_against_the_bot([json.loads(line) for line in journal.splitlines()], "Cy", expert)
    assert counts["play"] > 0 and counts["turn"] > 0


@pytest.mark.parametrize(("side", "player", "member", "kind", "answer", "value", "team_cube", "said"), [
    (Side.BOX, "Cy", "Ann", "turn", "double", 1, False, "doubles Ann's cube to 2"),
    (Side.BOX, "Cy", "Ann", "turn", "pass", 2, False, "lets Ann's cube be"),
    (Side.TEAM, "Cy", "Cy", "turn", "double", 2, False, "doubles its cube to 4"),
    (Side.TEAM, "Cy", "Cy", "answer", "take", 4, False, "takes its cube at 4"),
    (Side.BOX, "Cy", "Bob", "answer", "beaver", 4, False, "beavers Bob's cube to 8"),
    (Side.BOX, "Cy", "Bob", "answer", "pass", 2, False, "passes Bob's cube"),
    (Side.TEAM, "Cy", "Cy", "answer", "pass", 2, True, "passes the team's cube"),
])
def test_the_log_says_a_chouette_bots_decision_in_words(side: Side, player: str, member: str, kind: str,
                                                        answer: str, value: int, team_cube: bool, said: str) -> None:
    asked = Asked(side, player, member, "P1", kind, ("take", "pass"), value, 1, 3)  # type: ignore[arg-type]
    assert _said(answer, asked, team_cube=team_cube) == said


def test_a_chouette_cube_past_the_displays_largest_shows_its_largest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot and people who beaver every double ran a cube to 2^20 at the emulated table, and every
    prompt then failed to show it (the display holds 2^19): the display shows its largest instead."""
    with EmulatedTable(chouette_settings("Cy"), tmp_path / "r", seed=SEED, players=False) as table:
        played = table.controller.played
        assert isinstance(played, ChouetteSession)
        monkeypatch.setattr(played, "highest_cube", lambda: (2**20, Side.TEAM))
        cube, crawford = table.controller.dialogue.cube()
        assert (cube.value, cube.owner, crawford) == (LARGEST_VALUE, Side.TEAM.color, False)
        table.controller.prompter.show("")  # the cube on the display, as every prompt without a code shows it
        display = table.controller.display
        assert display is not None and "".join(display.text) == "52."


# -- a roll-button board: the host throws the bot's dice ------------------------------------------

ROLL_SEEDS = {"box": 2, "captain": 6}
"""The roll button's dice at these seeds throw for the order Cy the box (2), Cy the captain (6)."""


class Faces(random.Random):
    """The host's random source, keeping every face it gave (the test's record of each throw)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.given: list[int] = []

    def randint(self, a: int, b: int) -> int:
        face = super().randint(a, b)
        self.given.append(face)
        return face


class RollButtonPeople:
    """The people at a roll-button chouette table where Cy is a bot, played by the test: each throw
    of theirs (for the order, the opening roll, their side's rolls) is a press of the roll button;
    they let every cube be and take every double, play the first legal play by hand, and carry out
    the bot's plays. They never throw for the bot: on this board the host does."""

    def __init__(self, table: EmulatedTable, seed: int) -> None:
        self.table = table
        self.faces = Faces(seed)
        self.button = RollButton(ROLL_BUTTON_PIN, events=table.table.events, pin_factory=table.pins,
                                 clock=table.clock, rng=self.faces, bounce_time=None)
        # what run_hardware hands Controller.open on a roll-button board (`roll=host_dice.roll`)
        table.controller.seat.roll = self.host_roll
        self.host_throws: list[tuple[Prompt, list[int]]] = []
        """The prompt standing each time the host threw the dice for the bot, and the faces thrown."""

    def host_roll(self) -> None:
        before = len(self.faces.given)
        self.button.dice.roll()
        self.host_throws.append((self.table.controller.prompt, self.faces.given[before:]))

    def press_roll(self) -> None:
        pin = self.table.pins.pin(ROLL_BUTTON_PIN)
        pin.drive_low()
        pin.drive_high()

    def act(self) -> None:
        """What the people do at the prompt standing now (nothing while the bot decides or its dice roll)."""
        table, prompt = self.table, self.table.controller.prompt
        session, seat = table.controller.played, table.controller.seat
        assert isinstance(session, ChouetteSession)
        side: Player = "white" if prompt.player is Color.WHITE else "black"
        waiting = prompt.waiting
        if waiting in (Waiting.SEATING, Waiting.OPENING_ROLL) or (
                waiting is Waiting.ROLL_OR_DOUBLE and not seat.plays(prompt.player)):
            self.press_roll()
        elif waiting in (Waiting.ROLL_OR_DOUBLE, Waiting.TURN_CUBE) and prompt.member and prompt.asked != "Cy":
            table.press(side, ButtonKind.PASS)  # a person lets their cube be before the bot's roll
        elif waiting is Waiting.CUBE_RESPONSE and prompt.asked != "Cy":
            table.press(side, ButtonKind.TAKE)
        elif waiting is Waiting.PLAY:
            before = session.position
            for step in hand_moves(before, session.legal_plays()[0].moves):
                table.emulator.move(step.source, step.target)
                table.wait(0.05)
            table.wait(0.4)
            table.press(side, ButtonKind.DONE)
        elif waiting is Waiting.BOT_PLAY:
            carry = seat.carry
            assert carry is not None
            for step in carry.steps:  # the bot's play, by a person's hand; the turn passes with no press
                table.emulator.move(step.source, step.target)
                table.wait(0.05)
        table.wait(0.6)


@pytest.mark.parametrize("seat", ["box", "captain"])
def test_on_a_roll_button_board_the_host_throws_the_chouette_bots_dice_and_the_game_goes_on(
        tmp_path: Path, expert: ChouetteBot, seat: str) -> None:
    with EmulatedTable(chouette_settings("Cy"), tmp_path / "r", seed=1, players=False, line_noise=0.0,
                       flicker_rate=0.0) as table:
        people = RollButtonPeople(table, ROLL_SEEDS[seat])
        session = table.controller.played
        assert isinstance(session, ChouetteSession)
        log: list[str] = []
        outputs, note = table.controller.outputs, table.controller.outputs.note

        def noted(text: str) -> None:  # the whole log (the controller's keeps its end)
            log.append(text)
            note(text)

        outputs.note = noted  # type: ignore[method-assign]
        with people.button:
            for _ in range(2000):  # a guard, not a timing: a game takes a few hundred moments
                if session.is_over:
                    break
                people.act()
        assert session.is_over, table.controller.prompt.describe()
    journal = (tmp_path / "r" / "journal.jsonl").read_bytes()
    events = [json.loads(line) for line in journal.splitlines()]
    assert seat_of(events, "Cy") == seat
    bots_rolls = [e["dice"] for e in events if e["type"] == "roll" and e["player"] == "Cy"]
    # every roll of the bot's was the host's throw, when the table asked the bot itself to roll; none a person's
    assert [faces for _, faces in people.host_throws] == bots_rolls and len(bots_rolls) > 5
    assert all((p.waiting, p.asked, p.member) == (Waiting.ROLL_OR_DOUBLE, "Cy", "") for p, _ in people.host_throws)
    assert sum(f"the host rolls for Cy ({seat})" in line for line in log) == len(bots_rolls)
    assert any(e["type"] == "display" and e["text"] == "AR" for e in events)  # the display says the bot rolls
    counts = check_against_the_bot(events, "Cy", expert)  # the bot played those rolls, and decided its cubes
    assert counts["play"] >= len(bots_rolls) and counts["turn"] > 0
    verdict = validate_chouette("journal", journal)
    assert verdict.exit_code == 0, verdict.render()
