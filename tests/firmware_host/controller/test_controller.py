"""The controller at an emulated table, scripted action by action: what a referee must see."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import legal_so_far
from tables import ScriptedTables, hand, journal, of_type, opening, press, roll, waiting

from drivers.events import ButtonKind
from firmware_host.controller.prompts import Waiting
from firmware_host.controller.sensed_board import READING_WAIT
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import Profile, Settings
from game.board import Color, Variant
from game.cli import main as game_main
from game.match import MatchOptions
from game.zones import Capability, layout


@pytest.fixture
def make(scripted: ScriptedTables) -> Callable[..., EmulatedTable]:
    def build(variant: Variant = Variant.BACKGAMMON, capability: Capability = Capability.STACKS,
              profile: Profile = Profile.TOURNAMENT, length: int | None = 3, noise: bool = False,
              options: MatchOptions | None = None, **settings: Any) -> EmulatedTable:
        extra: dict[str, Any] = {"options": options} if options is not None else {}
        return scripted(Settings(variant=variant, length=length, profile=profile, **extra, **settings),
                        capability=capability, line_noise=0.01 if noise else 0.0,
                        flicker_rate=0.01 if noise else 0.0)

    return build


def test_a_clean_opening_play_is_committed_and_journaled(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    opening(table)
    prompt = table.controller.prompt
    assert (prompt.waiting, prompt.player, prompt.dice) == (Waiting.PLAY, Color.WHITE, (3, 1))
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    [play] = of_type(table, "play")
    assert play["moves"] == [[8, 5], [6, 5]] and play["player"] == "white"
    assert table.controller.match.position.stack(5) == "ww"
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE and table.controller.prompt.player is Color.BLACK
    assert of_type(table, "flag") == []
    assert legal_so_far(table.journal.path)


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("capability", list(Capability))
def test_every_variant_at_every_sensing_level(make: Callable[..., EmulatedTable], variant: Variant,
                                              capability: Capability) -> None:
    table = make(variant, capability, noise=True)
    opening(table, 5, 2)
    (play,) = [p for p in table.controller.match.legal_plays() if len(p.moves) == 2][:1]
    mover = table.controller.match.position.turn
    steps = _zones_of(table, play.moves, mover)
    table.emulator.slide(*steps[0])  # slid across the points, not lifted
    table.wait(0.5)
    hand(table, *steps[1:])
    # on a noisy line the board's reading asked at the press may be lost or cut: the next
    # heartbeat's snapshot (a second at the emulator's) is the one the press is judged on
    press(table, "white", ButtonKind.DONE, settle=1.6)
    [done] = of_type(table, "play")
    assert done["position"] == play.after_moves.to_document()
    assert of_type(table, "flag") == []


def _zones_of(table: EmulatedTable, moves: Any, mover: Color) -> list[tuple[int, int]]:
    from game.hands import hand_moves

    before = table.controller.match.position
    return [(m.source, m.target) for m in hand_moves(before, moves)]


def test_an_illegal_play_is_flagged_not_committed_then_corrected(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    opening(table, 6, 1)
    hand(table, (13, 7))  # the 1 left unused
    press(table, "white", ButtonKind.DONE)
    [flag] = of_type(table, "flag")
    assert flag["kind"] == "illegal" and flag["code"] == "DU" and "only the 6" in flag["message"]
    assert (table.record / flag["image"]).is_file()
    assert of_type(table, "play") == [] and waiting(table) is Waiting.CORRECT
    assert table.table.display is not None and "".join(table.table.display.text) == "DU"
    hand(table, (8, 7))
    press(table, "white", ButtonKind.DONE)
    [play] = of_type(table, "play")
    assert sorted(play["moves"]) == [[8, 7], [13, 7]]


def test_a_misplaced_checker_asks_to_set_checkers(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    opening(table, 3, 1)
    hand(table, (8, 5), (6, 4))  # 6/4 is two pips, not one
    press(table, "white", ButtonKind.DONE)
    [flag] = of_type(table, "flag")
    assert flag["code"] == "SC" and of_type(table, "play") == []
    assert table.emulator.port("board").lit_zones == {4, 5}  # the zones to set right, lit on the board
    hand(table, (4, 5))
    press(table, "white", ButtonKind.DONE)
    assert len(of_type(table, "play")) == 1
    assert table.emulator.port("board").lit_zones == frozenset()


@pytest.mark.parametrize("lost", ["dropped", "cut"])
@pytest.mark.parametrize("capability", [Capability.COUNTS, Capability.STACKS])
def test_a_done_press_is_judged_on_the_board_read_after_it(make: Callable[..., EmulatedTable], lost: str,
                                                           capability: Capability) -> None:
    """The frame of a checker's landing is lost on the line, dropped or cut (nothing tells the host
    until the next frame, a heartbeat away): the done press asks the board for a whole reading and
    judges that, the board as it stands, not the one the changes built (a spurious flag)."""
    table = make(capability=capability)
    opening(table, 6, 1)
    table.emulator.heartbeat_stopped = True  # no heartbeat's snapshot puts it right meanwhile
    table.emulator.lift(13)
    table.wait(0.1)
    port = table.emulator.port()
    table.emulator.place(7)
    table.emulator.scan()
    sent = port.read_to_host(port.pending())  # the landing's ZONE_CHANGE, lost on the line ...
    if lost == "cut":
        port.send_raw(sent[:len(sent) // 2])  # ... but for its head: the next frame's bytes will follow it
    table.wait(0.4)  # settled on the board the host believes: 13 lifted, nothing on 7
    assert table.controller.board.zones is not None and table.controller.board.zones[6].count == 0
    press(table, "white", ButtonKind.DONE)
    [flag] = of_type(table, "flag")
    assert flag["code"] == "DU" and "13/7" in flag["message"], flag  # the 6 played, the 1 could have been


def test_a_done_press_whose_reading_never_counts_is_judged_on_the_zones_as_read(
        make: Callable[..., EmulatedTable]) -> None:
    """A checker too many on the board: the driver refuses its snapshots (31 checkers), the press's
    reading among them. The press is not left waiting: after `READING_WAIT` the zones as read are
    judged, and flagged."""
    table = make()
    opening(table, 6, 1)
    table.emulator.move(13, 7)
    table.emulator.place(6, "w")  # one from the box
    table.wait(0.6)
    press(table, "white", ButtonKind.DONE, settle=0.5)
    assert of_type(table, "flag") == [] and waiting(table) is Waiting.PLAY  # the reading still awaited
    table.wait(READING_WAIT)
    [flag] = of_type(table, "flag")
    assert flag["code"] == "SC" and waiting(table) is Waiting.CORRECT, flag


def test_a_partial_play_is_not_a_play_until_done(make: Callable[..., EmulatedTable]) -> None:
    table = make(profile=Profile.CASUAL)
    opening(table, 3, 1)
    hand(table, (8, 5))
    assert table.controller.verdict is not None and table.controller.verdict.short_code() == "P1"
    assert "".join(table.table.display.text) == "P1"  # type: ignore[union-attr]
    assert of_type(table, "play") == []


def test_traditional_rule_the_opponent_accepts_an_illegal_play(make: Callable[..., EmulatedTable]) -> None:
    table = make(profile=Profile.TRADITIONAL)
    opening(table, 6, 1)
    hand(table, (13, 7))
    press(table, "white", ButtonKind.DONE)
    assert waiting(table) is Waiting.ACCEPT_ILLEGAL and table.controller.prompt.player is Color.BLACK
    press(table, "black", ButtonKind.TAKE)
    [play] = of_type(table, "play")
    assert play["moves"] == [[13, 7]] and "accepted_illegal" in play
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE
    assert legal_so_far(table.journal.path)


def test_traditional_rule_the_opponent_requires_correction(make: Callable[..., EmulatedTable]) -> None:
    table = make(profile=Profile.TRADITIONAL)
    opening(table, 6, 1)
    hand(table, (13, 7))
    press(table, "white", ButtonKind.DONE)
    press(table, "black", ButtonKind.PASS)
    assert waiting(table) is Waiting.CORRECT and of_type(table, "correction_required")


def test_takeback_by_agreement_and_refused(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    opening(table, 3, 1)
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    hand(table, (5, 8), (5, 6))  # White puts the checkers back before Black rolls
    assert waiting(table) is Waiting.TAKEBACK
    press(table, "white", ButtonKind.TAKE)
    press(table, "black", ButtonKind.TAKE)
    assert waiting(table) is Waiting.PLAY and table.controller.prompt.dice == (3, 1)
    assert len(of_type(table, "takeback")) == 1
    hand(table, (24, 21), (21, 20))
    press(table, "white", ButtonKind.DONE)
    hand(table, (20, 24))  # again: but now Black refuses
    assert waiting(table) is Waiting.TAKEBACK
    press(table, "black", ButtonKind.PASS)
    assert waiting(table) is Waiting.SET_BOARD and of_type(table, "takeback_refused")
    hand(table, (24, 20))
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE and table.controller.prompt.player is Color.BLACK
    assert legal_so_far(table.journal.path)


def test_checkers_moved_between_turns_must_be_set_back(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    opening(table, 3, 1)
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    hand(table, (13, 10))  # a white checker moved while Black is to roll
    assert waiting(table) is Waiting.SET_BOARD and of_type(table, "flag")[-1]["kind"] == "set_board"
    hand(table, (10, 13))
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE


def test_cube_double_take_redouble_pass(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    opening(table, 3, 1)
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    press(table, "black", ButtonKind.DOUBLE)
    assert waiting(table) is Waiting.CUBE_RESPONSE and table.controller.prompt.player is Color.WHITE
    assert "".join(table.table.display.text) == "DB"  # type: ignore[union-attr]
    press(table, "white", ButtonKind.TAKE)
    assert table.controller.match.cube.value == 2 and table.controller.match.cube.owner is Color.WHITE
    assert table.table.display.text == (" ", "2")  # type: ignore[union-attr]
    pins = table.pins
    from drivers.pinmap import DEFAULT_CUBE_PINS

    assert pins.pin(DEFAULT_CUBE_PINS.white).state and not pins.pin(DEFAULT_CUBE_PINS.centre).state
    press(table, "white", ButtonKind.DOUBLE)  # not White's turn: refused, nothing happens
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE
    roll(table, 2, 1)
    hand(table, (1, 3), (1, 2))  # Black's 24/22 24/23: board 1 to 3 and 2
    press(table, "black", ButtonKind.DONE)
    press(table, "white", ButtonKind.DOUBLE)
    press(table, "black", ButtonKind.PASS)
    ends = of_type(table, "game_end")
    assert ends[-1]["winner"] == "white" and ends[-1]["points"] == 2 and ends[-1]["reason"] == "pass"
    assert waiting(table) is Waiting.SET_BOARD  # the next game's start


def test_cocked_die_rerolled_in_tournament_laid_flat_in_casual(make: Callable[..., EmulatedTable]) -> None:
    strict = make()
    strict.emulator.roll(4, 2, cocked=[1])
    strict.wait(0.6)
    assert of_type(strict, "flag")[-1]["code"] == "CO" and waiting(strict) is Waiting.OPENING_ROLL
    strict.emulator.settle(1, 2)
    strict.wait(0.6)
    assert waiting(strict) is Waiting.OPENING_ROLL  # laying it flat does not count: roll both again
    roll(strict, 4, 2)
    assert waiting(strict) is Waiting.PLAY
    casual = make(profile=Profile.CASUAL)
    casual.emulator.roll(4, 2, cocked=[1])
    casual.wait(0.6)
    casual.emulator.settle(1, 2)
    casual.wait(0.6)
    assert waiting(casual) is Waiting.PLAY and casual.controller.prompt.dice == (4, 2)


def test_a_roll_before_the_opponent_pressed_done_is_flagged_and_void(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    opening(table, 3, 1)
    hand(table, (8, 5), (6, 5))
    roll(table, 6, 6)  # Black throws before White presses done
    assert of_type(table, "flag")[-1]["kind"] == "early_roll"
    press(table, "white", ButtonKind.DONE)
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE  # the early roll did not count
    roll(table, 2, 1)
    assert table.controller.prompt.dice == (2, 1)


def test_pulled_cable_is_journaled_and_play_goes_on(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    opening(table, 3, 1)
    table.emulator.unplug("board")
    table.wait(5.0)
    assert not table.controller.link_up
    table.emulator.move(8, 5)
    table.emulator.move(6, 5)
    table.emulator.replug("board")
    table.wait(8.0)
    assert table.controller.link_up
    press(table, "white", ButtonKind.DONE)
    assert [e["state"] for e in of_type(table, "link")][-2:] == ["down", "up"]
    assert len(of_type(table, "play")) == 1


def test_time_loss_ends_the_match_and_is_recorded(make: Callable[..., EmulatedTable]) -> None:
    table = make(reserve_per_point=2.0, clock_delay=1.0, length=1)
    opening(table, 3, 1)
    table.wait(5.0)
    assert table.controller.match.is_over and table.controller.match.winner is Color.BLACK
    assert of_type(table, "time_loss")[0]["player"] == "white" and of_type(table, "forfeit")
    assert game_main(["validate", str(table.journal.path)]) == 0


def test_crawford_game_shown_on_its_led_and_doubling_refused(make: Callable[..., EmulatedTable]) -> None:
    table = make(length=2)
    opening(table, 3, 1)
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    press(table, "black", ButtonKind.PASS)  # Black resigns a single game
    assert waiting(table) is Waiting.RESIGN_KIND and "".join(table.table.display.text) == "R1"  # type: ignore[union-attr]
    press(table, "black", ButtonKind.DONE)
    assert waiting(table) is Waiting.RESIGN_RESPONSE
    press(table, "white", ButtonKind.TAKE)
    match = table.controller.match
    assert match.score == (1, 0) and match.crawford
    table.emulator.set_zones(layout(match.position))
    table.wait(1.0)
    from drivers.pinmap import DEFAULT_CUBE_PINS

    assert table.pins.pin(DEFAULT_CUBE_PINS.crawford).state
    opening(table, 1, 2)
    assert waiting(table) is Waiting.PLAY and table.controller.prompt.player is Color.BLACK
    hand(table, (1, 3), (1, 2))
    press(table, "black", ButtonKind.DONE)
    press(table, "white", ButtonKind.DOUBLE)  # nobody doubles in the Crawford game
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE and not table.controller.prompt.can_double


@pytest.mark.parametrize(("variant", "capability", "seed"), [
    (Variant.BACKGAMMON, Capability.COUNTS, 21),
    (Variant.CATCHGAMMON, Capability.COLOR_COUNTS, 22),
    (Variant.RUNGAMMON, Capability.STACKS, 23),
])
@pytest.mark.slow
def test_a_whole_match_with_simulated_players(tmp_path: Path, variant: Variant, capability: Capability,
                                              seed: int) -> None:
    table = EmulatedTable(Settings(variant=variant, length=1), tmp_path, seed, capability)
    try:
        assert table.run(max_seconds=4000)
    finally:
        table.close()
    events = journal(table)
    assert events[-1]["type"] == "signature"  # the table signs the end of the match
    ending = [e["type"] for e in events if e["type"] not in ("signature", "display", "zone_leds")][-3:]
    assert ending == ["match_end", "dice_stats", "link_stats"]  # the links' counts at the match end too
    [link_stats] = of_type(table, "link_stats")
    assert list(link_stats["links"]) == [f"emulator://{table.emulator.name}"]
    assert game_main(["validate", str(table.journal.path)]) == 0
    flags = [e for e in events if e["type"] == "flag"]
    assert table.controller.flags == len(flags)
    for flag in flags:
        if "image" in flag:
            assert (tmp_path / flag["image"]).is_file()


def test_plays_the_sensors_cannot_tell_apart_are_chosen_on_the_display(
        make: Callable[..., EmulatedTable], monkeypatch: pytest.MonkeyPatch) -> None:
    """Counts-only sensing can leave two legal plays alike (tests/test_reconcile.py finds such
    cases); here the reconciler is made to say so, to show what the table does then."""
    import firmware_host.controller.turn as turn_module
    from game.reconcile import Ambiguous, TurnReconciler

    class Undecided(TurnReconciler):
        def judge(self, zones: Any, *, done: bool = False) -> Any:
            verdict = super().judge(zones, done=done)
            return Ambiguous(self.plays[:2]) if done else verdict

    monkeypatch.setattr(turn_module, "TurnReconciler", Undecided)
    table = make()
    opening(table, 3, 1)
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    choices = table.controller.match.legal_plays()[:2]
    assert "".join(table.table.display.text) == "C1"  # type: ignore[union-attr]
    press(table, "white", ButtonKind.DOUBLE)
    assert "".join(table.table.display.text) == "C2"  # type: ignore[union-attr]
    press(table, "white", ButtonKind.DONE)
    [choice] = of_type(table, "choice")
    assert choice["play"] == choices[1].notation() and choice["among"] == [p.notation() for p in choices]
    assert of_type(table, "play")[0]["position"] == choices[1].after_moves.to_document()


def test_resigning_a_gammon_chosen_on_the_display_and_cancelling(make: Callable[..., EmulatedTable]) -> None:
    table = make()
    opening(table, 3, 1)
    hand(table, (8, 5), (6, 5))
    press(table, "white", ButtonKind.DONE)
    display = table.table.display
    assert display is not None
    press(table, "black", ButtonKind.PASS)
    press(table, "black", ButtonKind.TAKE)  # changed their mind
    assert waiting(table) is Waiting.ROLL_OR_DOUBLE and of_type(table, "resign") == []
    press(table, "black", ButtonKind.PASS)
    press(table, "black", ButtonKind.PASS)
    assert "".join(display.text) == "R2"
    press(table, "black", ButtonKind.PASS)
    press(table, "black", ButtonKind.PASS)  # round again: R3, then R1, then R2
    assert "".join(display.text) == "R1"
    press(table, "black", ButtonKind.PASS)
    press(table, "black", ButtonKind.DONE)
    assert of_type(table, "resign")[0]["kind"] == "gammon" and waiting(table) is Waiting.RESIGN_RESPONSE
    press(table, "white", ButtonKind.TAKE)
    end = of_type(table, "game_end")[0]
    assert (end["winner"], end["kind"], end["points"], end["reason"]) == ("white", "gammon", 2, "resign")
