"""A person plays the bot at the table, end to end over a real pseudo-terminal.

The emulator's firmware serves the board on a /dev/pts/N, the controller's `Table` reads it as it
reads a real board (its reader thread, the wire protocol, the zone LEDs' commands going back to
the board), and the test is the person: it throws the dice (for the bot too), carries out the
bot's moves checker by checker, presses the buttons on gpiozero's mock pins. The bot is GNU
Backgammon (the `bot` extra). Nothing is timed: every wait is for a state of the table, with a
guard that fails the test instead of hanging.
"""

from __future__ import annotations

import json
import random
import re
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from builders import legal_so_far, precondition
from pty_tables import Terminal, config
from test_controller_pty import PtyTable, by_hand, legal, start_table

from drivers.events import ButtonKind
from firmware_host.controller.bot_seat import CarryOut
from firmware_host.controller.prompts import Prompt, Waiting
from firmware_host.emulator.board import BoardEmulator
from firmware_host.settings import Profile, Settings
from game.board import Color, Variant
from game.bot.base import Bot, RankedPlay
from game.bot.context import MONEY, CubeAction, MatchContext
from game.bot.encoding import F32
from game.bot.levels import Level
from game.hands import Lift, hand_moves, rearrangement
from game.plays import Play
from game.position import Position
from game.zones import Capability, layout

pytestmark = [pytest.mark.pty, pytest.mark.subprocess]

REPLY_SECONDS = 10.0
"""The board's answers on a loaded machine: generous, never a timing."""


@pytest.fixture
def bot_table(tmp_path: Path) -> Iterator[Callable[..., PtyTable]]:
    opened: list[PtyTable] = []

    def open_(profile: Profile = Profile.TOURNAMENT) -> PtyTable:
        emulator = BoardEmulator(layout(Position.initial(Variant.BACKGAMMON)), capability=Capability.STACKS,
                                 heartbeat_ms=100, flicker_rate=0.0, line_noise=0.0, rng=random.Random(7))
        settings = Settings(length=3, profile=profile, timed=False, settle_seconds=0.05,
                            bots={Color.BLACK: Level.EXPERT})
        pty = start_table(emulator, settings, tmp_path / f"record-{len(opened)}", reply_timeout=REPLY_SECONDS,
                          board_outputs=True)
        opened.append(pty)
        return pty

    yield open_
    for pty in opened:
        pty.close()


class DoublesOnCue(Bot):
    """GNU Backgammon in every decision but its own doubles: it doubles when `double_next` is set, and
    otherwise never. Whether a bot doubles is a matter of the position and its cube model; this puts
    the table's side of a bot's double on cue (its plays, takes and passes stay GNU Backgammon's)."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot.variant, bot.level, bot.met)
        self.bot = bot
        self.double_next = False

    @property
    def engine(self) -> str:
        return self.bot.engine

    def rank_plays(self, position: Position, dice: tuple[int, int], context: MatchContext = MONEY) -> list[RankedPlay]:
        return self.bot.rank_plays(position, dice, context)

    def estimate(self, position: Position, context: MatchContext = MONEY) -> F32:
        return self.bot.estimate(position, context)

    def cube_action(self, position: Position, context: MatchContext = MONEY) -> CubeAction:
        if context.cube.offered_by is not None:
            return self.bot.cube_action(position, context)
        doubles, self.double_next = self.double_next and context.may_double(position.turn), False
        return CubeAction.DOUBLE if doubles else CubeAction.NO_DOUBLE


def now(pty: PtyTable) -> Prompt:
    """The prompt standing now (read afresh: the table moves on between two reads)."""
    return pty.controller.prompt


def shown(pty: PtyTable, code: str) -> bool:
    """The cube display shows `code` now."""
    display = pty.controller.display
    return display is not None and "".join(display.text) == code


def lit_on_the_board(pty: PtyTable, zones: frozenset[int], what: str) -> None:
    """Until the board's own zone LEDs (what its firmware was told over the wire) are `zones`."""
    pty.pump(lambda: pty.emulator.port().lit_zones == zones, f"zones {sorted(zones)} lit on the board ({what})")


def carry(pty: PtyTable) -> CarryOut:
    carry_out = pty.controller.seat.carry
    assert carry_out is not None, pty.controller.prompt
    return carry_out


def carried_out_move_by_move(pty: PtyTable) -> Play:
    """Carry out the bot's play shown, one checker move after another as the LEDs light them; the turn
    passes with no press."""
    carry_out = carry(pty)
    plays_before = len(pty.journal("play"))
    for step_number, step in enumerate(carry_out.steps):
        lit_on_the_board(pty, frozenset({step.source, step.target}), f"move {step_number + 1}")
        pty.emulator.move(step.source, step.target)
    pty.pump(lambda: len(pty.journal("play")) == plays_before + 1, "the bot's play committed without a press")
    assert pty.journal("play")[-1]["position"] == carry_out.play.after_moves.to_document()
    return carry_out.play


def set_board(pty: PtyTable, position: Position) -> None:
    """The person's hands set the board to `position` (lifts, then placements)."""
    for step in rearrangement(pty.emulator.zones(), layout(position), pty.emulator.hand()):
        if isinstance(step, Lift):
            pty.emulator.lift(step.zone)
        else:
            pty.emulator.place_from_hand(step.zone, step.colour)


def test_a_person_plays_gnubg_on_the_board_carrying_out_its_moves(bot_table: Callable[..., PtyTable]) -> None:
    pty = bot_table()
    bot = DoublesOnCue(pty.controller.seat.bots[Color.BLACK])
    pty.controller.seat.bots[Color.BLACK] = bot
    assert pty.journal("match_start")[0]["players"]["black"] == bot.name  # the record names the bot
    assert "GNU Backgammon" in bot.name and "expert" in bot.name
    pty.waiting(Waiting.OPENING_ROLL)
    pty.emulator.roll(1, 3)  # Black's die is the higher: the bot opens with 3-1
    pty.waiting(Waiting.BOT_PLAY, Color.BLACK)
    match, prompt = pty.controller.match, now(pty)
    chosen = bot.choose_play(match.position, (3, 1), MatchContext.of(match))
    assert chosen is not None and prompt.play == chosen and prompt.dice == (3, 1)
    assert chosen.notation() in prompt.message and f"plays 31: {chosen.notation()}" in "\n".join(pty.controller.log)
    pty.pump(lambda: shown(pty, "AI"), "AI on the display")
    first = carry(pty).steps[0]
    lit_on_the_board(pty, frozenset({first.source, first.target}), "the bot's first move")

    # a wrong carry-out: another legal play of the roll is flagged, never committed
    before = match.position
    other = next(p for p in before.legal_plays((3, 1)) if p.after_moves != chosen.after_moves)
    by_hand(pty, before, other)
    pty.pump(lambda: bool(pty.journal("flag")), "the wrong board flagged")
    flag = pty.journal("flag")[-1]
    assert (flag["kind"], flag["code"], flag["player"]) == ("bot_play", "AE", "black")
    assert flag["expected"] == chosen.after_moves.to_document() and chosen.notation() in flag["message"]
    assert now(pty).waiting is Waiting.BOT_PLAY and now(pty).code == "AE"
    assert pty.journal("play") == [] and pty.controller.match.position == before
    pty.pump(lambda: shown(pty, "AE") and bool(pty.emulator.port().lit_zones), "AE and the zones to set right")
    set_board(pty, chosen.after_moves)  # corrected: the turn passes when the board is the bot's play, no press
    pty.waiting(Waiting.ROLL_OR_DOUBLE, Color.WHITE)
    assert pty.journal("play")[-1]["player"] == "black" and pty.controller.flags == 1

    # the person doubles: the bot answers at once (it takes an opening double)
    pty.press("white", ButtonKind.DOUBLE)
    pty.pump(lambda: bool(pty.journal("take")), "the bot's take")
    assert pty.journal("take")[-1]["player"] == "black"
    assert any(d["text"] == "AT" for d in pty.journal("display"))
    after = now(pty)
    assert after.waiting is Waiting.ROLL_OR_DOUBLE and after.player is Color.WHITE and not after.can_double

    # the person plays; a hint is refused in the tournament profile
    pty.emulator.roll(6, 4)
    pty.waiting(Waiting.PLAY, Color.WHITE)
    pty.press("white", ButtonKind.TAKE)
    pty.pump(lambda: any(d["text"] == "NH" for d in pty.journal("display")), "NH: no hint here")
    assert pty.journal("hint") == [] and now(pty).waiting is Waiting.PLAY
    assert any("casual profile only" in line for line in pty.controller.log)
    before = pty.controller.match.position
    mine = legal(before, (6, 4), "24/18 13/9")
    by_hand(pty, before, mine)
    pty.settled_on(mine.after_moves)
    pty.press("white", ButtonKind.DONE)

    # the bot rolls: the person throws for it, then carries its play out move by move
    pty.waiting(Waiting.BOT_ROLL, Color.BLACK)
    pty.pump(lambda: shown(pty, "AR"), "AR: throw for the bot")
    pty.emulator.roll(5, 2)
    pty.waiting(Waiting.BOT_PLAY, Color.BLACK)
    carried_out_move_by_move(pty)

    # the bot doubles (it owns the cube at 2): the person takes with the buttons
    bot.double_next = True
    pty.waiting(Waiting.ROLL_OR_DOUBLE, Color.WHITE)
    pty.emulator.roll(3, 1)
    pty.waiting(Waiting.PLAY, Color.WHITE)
    before = pty.controller.match.position
    mine = legal(before, (3, 1), "8/5 6/5")
    by_hand(pty, before, mine)
    pty.settled_on(mine.after_moves)
    pty.press("white", ButtonKind.DONE)
    pty.waiting(Waiting.CUBE_RESPONSE, Color.WHITE)
    assert pty.journal("double")[-1]["player"] == "black"
    assert "doubles" in now(pty).message and now(pty).code == "DB"
    pty.pump(lambda: shown(pty, "DB"), "DB: the bot doubles")
    pty.press("white", ButtonKind.TAKE)
    pty.waiting(Waiting.BOT_ROLL, Color.BLACK)
    assert pty.journal("take")[-1]["player"] == "white" and pty.controller.match.cube.value == 4
    with precondition():
        assert pty.controller.flags == 1
    assert legal_so_far(pty.controller.journal.path)


def test_a_hint_in_the_casual_profile_lights_the_bots_best_play(bot_table: Callable[..., PtyTable]) -> None:
    pty = bot_table(Profile.CASUAL)
    pty.waiting(Waiting.OPENING_ROLL)
    pty.emulator.roll(3, 1)  # White's die is the higher: the person opens
    pty.waiting(Waiting.PLAY, Color.WHITE)
    match = pty.controller.match
    bot = pty.controller.seat.bots[Color.BLACK]
    best = bot.rank_plays(match.position, (3, 1), MatchContext.of(match))[0].play
    pty.press("white", ButtonKind.TAKE)
    pty.pump(lambda: bool(pty.journal("hint")), "the hint journaled")
    hint = pty.journal("hint")[-1]
    assert (hint["player"], hint["play"], hint["engine"], hint["dice"]) == ("white", best.notation(), bot.name, [3, 1])
    ranked = bot.rank_plays(match.position, (3, 1), MatchContext.of(match))
    assert [(r["notation"], r["equity"]) for r in hint["ranking"]] == [
        (r.play.notation(), round(r.equity, 4)) for r in ranked[:5]]
    assert now(pty).message == f"hint: {best.notation()}"
    zones = frozenset(z for step in CarryOut(bot, match.position, (3, 1), best, Capability.STACKS).steps
                      for z in (step.source, step.target))
    lit_on_the_board(pty, zones, "the hint")
    assert any(d["text"] == "HI" for d in pty.journal("display"))
    by_hand(pty, match.position, best)  # the person follows it, and presses done as after any play
    pty.settled_on(best.after_moves)
    pty.press("white", ButtonKind.DONE)
    pty.waiting(Waiting.BOT_ROLL, Color.BLACK)
    assert pty.journal("play")[-1]["position"] == best.after_moves.to_document()


@pytest.mark.parametrize("profile", [Profile.CASUAL, Profile.TOURNAMENT])
def test_the_bot_answers_a_takeback_as_a_friendly_opponent_only_in_the_casual_profile(
        bot_table: Callable[..., PtyTable], profile: Profile) -> None:
    pty = bot_table(profile)
    pty.waiting(Waiting.OPENING_ROLL)
    pty.emulator.roll(3, 1)
    pty.waiting(Waiting.PLAY, Color.WHITE)
    start = pty.controller.match.position
    play = start.parse_play("8/5 6/5", (3, 1))
    assert play is not None
    by_hand(pty, start, play)
    pty.settled_on(play.after_moves)
    pty.press("white", ButtonKind.DONE)
    pty.waiting(Waiting.BOT_ROLL, Color.BLACK)
    pty.emulator.move(5, 8)
    pty.emulator.move(5, 6)  # the person sets the play back before the bot's dice are thrown
    pty.pump(lambda: bool(pty.journal("takeback_request")), "the takeback asked")
    if profile is Profile.CASUAL:
        pty.waiting(Waiting.TAKEBACK)
        pty.press("white", ButtonKind.TAKE)  # the bot has agreed: the person's press completes it
        pty.waiting(Waiting.PLAY, Color.WHITE)
        assert pty.controller.prompt.dice == (3, 1) and len(pty.journal("takeback")) == 1
    else:
        pty.waiting(Waiting.SET_BOARD)
        assert pty.journal("takeback_refused")[-1]["player"] == "black" and not pty.journal("takeback")
        pty.emulator.move(8, 5)
        pty.emulator.move(6, 5)
        pty.waiting(Waiting.BOT_ROLL, Color.BLACK)


# -- run --config: a bot seat on a roll-button board, the view in a terminal ------------------------

@pytest.fixture
def terminal_and_board(tmp_path: Path) -> Iterator[tuple[list[Terminal], list[BoardEmulator]]]:
    terminals: list[Terminal] = []
    boards: list[BoardEmulator] = []
    yield terminals, boards
    for terminal in terminals:
        terminal.close()
    for board in boards:
        board.close()


BOT_PLAY_LINE = r">> black: carry out the bot's play (\d)(\d) \(.*? plays (.+?): carry it out\)"


def bot_turn(terminal: Terminal, board: BoardEmulator, position: Position) -> Position:
    """The bot's play as the view prints it, carried out on the board: the position after it."""
    found = re.search(BOT_PLAY_LINE, terminal.read_until(BOT_PLAY_LINE))
    assert found is not None
    dice = (int(found[1]), int(found[2]))
    play = position.parse_play(found[3], dice)
    assert play is not None, (found[3], dice, position)
    for step in hand_moves(position, play.moves):
        board.move(step.source, step.target)
    return play.after_moves.pass_turn()


def person_turn(terminal: Terminal, board: BoardEmulator, position: Position, dice: tuple[int, int]) -> Position:
    """White plays the roll's first legal play by hand and, once the table shows it stands (GO, the
    casual profile), presses done (the key a)."""
    play = position.legal_plays(dice)[0]
    for step in hand_moves(position, play.moves):
        board.move(step.source, step.target)
    # the side panel's display (what stands now), not the log's "display: [GO]", which the view draws again
    # with every frame and so may be an earlier turn's
    terminal.read_until(r"display \[GO\]")
    terminal.type("a")
    return play.after_moves.pass_turn()


def test_run_with_a_bot_seat_on_a_roll_button_board_the_host_throws_the_bots_dice(
        tmp_path: Path, terminal_and_board: tuple[list[Terminal], list[BoardEmulator]]) -> None:
    terminals, boards = terminal_and_board
    board = BoardEmulator(heartbeat_ms=200, dice="none")
    boards.append(board)
    path = config(tmp_path, board.open_pty(), dice={"source": "roll button"}, match={"profile": "casual"},
                  players={"black": "bot", "level": "advanced"}, record={"analyse": False})
    terminal = Terminal("run", "--config", str(path), cwd=tmp_path)
    terminals.append(terminal)
    terminal.read_until(re.escape(f">> {Waiting.OPENING_ROLL.value}"))
    start = Position.initial(Variant.BACKGAMMON)
    outcome = None
    while outcome is None or outcome[0].startswith("opening roll"):
        terminal.type(" ")  # the roll button throws the host's dice: one each at the opening
        text = terminal.read_until(r">> (white: play \d\d|black: carry out|opening roll \(equal)")
        outcome = re.findall(r">> (white: play \d\d|black: carry out|opening roll \(equal)", text)
    if outcome[-1].startswith("white"):
        faces = re.findall(r">> white: play (\d)(\d)", text)[-1]
        position = person_turn(terminal, board, start.with_turn(Color.WHITE), (int(faces[0]), int(faces[1])))
        terminal.read_until(r"the host rolls for GNU Backgammon")  # no key: the host throws for the bot
        position = bot_turn(terminal, board, position)
    else:
        position = bot_turn(terminal, board, start.with_turn(Color.BLACK))
    terminal.read_until(r">> white: roll or double")  # the bot's play committed, no key pressed for it
    terminal.type(" ")
    # The host's dice are not seeded: White, hit by the bot, may roll a number it cannot enter with.
    rolled = r"(>> white: play|white cannot play) (\d)(\d)"
    kind, *faces = re.findall(rolled, terminal.read_until(rolled))[-1]
    if kind == "white cannot play":
        position = position.pass_turn()  # the turn passes by itself, the checkers as they were
    else:
        position = person_turn(terminal, board, position, (int(faces[0]), int(faces[1])))
    terminal.read_until(r"the host rolls for GNU Backgammon")
    position = bot_turn(terminal, board, position)
    terminal.read_until(r">> white: roll or double")
    terminal.process.send_signal(signal.SIGINT)
    assert terminal.finish() == 130
    events = [json.loads(line) for line in (tmp_path / "record" / "journal.jsonl").read_text().splitlines()]
    black = next(e for e in events if e["type"] == "match_start")["players"]["black"]
    assert black.startswith("GNU Backgammon") and black.endswith("(advanced)")
    plays = [e for e in events if e["type"] == "play"]
    assert Position.from_document(plays[-1]["position"]).pass_turn() == position
    assert [e["player"] for e in events if e["type"] == "roll"].count("black") >= 1  # the host threw them
    assert not [e for e in events if e["type"] == "flag"]
    assert "AI" in [e["text"] for e in events if e["type"] == "display"]
