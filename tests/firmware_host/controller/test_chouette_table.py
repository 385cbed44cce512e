"""A chouette at the emulated table, scripted press by press: the throws for the order, every cube
decision asked in team order with the member's code on the display, a member out never asked
again, a captain who passes handing the checkers on, and what the display and the view show."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from builders import precondition
from chouette_builders import journal, of_type, play_first, press, roll
from tables import ScriptedTables

from drivers.events import ButtonKind
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.table import EmulatedTable
from firmware_host.settings import ChouetteSettings, Settings
from firmware_host.terminal import render
from game.board import Color
from game.chouette import ChouetteOptions, ChouetteSession, Side
from game.chouette.validate import validate_chouette

Make = Callable[..., EmulatedTable]


def session(table: EmulatedTable) -> ChouetteSession:
    played = table.controller.played
    assert isinstance(played, ChouetteSession)
    return played


@pytest.fixture
def make(scripted: ScriptedTables) -> Make:
    def build(*players: str, **options: bool) -> EmulatedTable:
        return scripted(Settings(timed=False, chouette=ChouetteSettings(players or ("Ann", "Bob", "Cy", "Dee"),
                                                                        ChouetteOptions(**options))))

    return build


def shown(table: EmulatedTable) -> str:
    assert table.table.display is not None
    return "".join(table.table.display.text)


def asked(table: EmulatedTable) -> tuple[Waiting, Color | None, str, str, str]:
    """What the table waits for, on whose buttons, the code shown, who is asked and about whose cube."""
    prompt = table.controller.prompt
    return prompt.waiting, prompt.player, prompt.code, prompt.asked, prompt.member


def seat_ann_bob_cy_dee(table: EmulatedTable) -> None:
    """Ann 6 and Bob 5, then Cy 4 and Dee 3: Ann is the box, Bob the captain, then Cy, Dee."""
    assert asked(table)[:4] == (Waiting.SEATING, None, "", "Ann"), table.controller.prompt.describe()
    assert "Ann throws the die with the lower id, Bob the other" in table.controller.prompt.message
    roll(table, 6, 5)
    assert table.controller.prompt.asked == "Cy"
    roll(table, 4, 3)


def test_the_players_throw_for_the_order_two_at_a_time(make: Make) -> None:
    table = make("Ann", "Bob", "Cy")
    assert asked(table)[0] is Waiting.SEATING
    roll(table, 5, 5)  # Ann and Bob tie
    assert table.controller.prompt.asked == "Cy" and "the other die does not count" in table.controller.prompt.message
    roll(table, 2, 6)  # Cy's 2; the other die is not Cy's
    assert table.controller.prompt.asked == "Ann"  # the tie is thrown again
    roll(table, 1, 4)
    throws = [(e["player"], e["die"]) for e in of_type(table, "seat_throw")]
    assert throws == [("Ann", 5), ("Bob", 5), ("Cy", 2), ("Ann", 1), ("Bob", 4)]
    [seating] = of_type(table, "seating")
    assert (seating["box"], seating["line"]) == ("Bob", ["Ann", "Cy"])
    assert table.controller.prompt.waiting is Waiting.OPENING_ROLL
    assert table.controller.dice_stats.faces == [1, 1, 0, 1, 2, 0]  # 5 5 2 1 4: the faces that counted, no more


def test_cube_decisions_are_asked_in_team_order_with_each_members_code(make: Make) -> None:
    table = make()
    seat_ann_bob_cy_dee(table)
    roll(table, 1, 2)  # the box wins the opening roll
    play_first(table)
    # the team on roll: each member in team order, on White's buttons
    assert asked(table) == (Waiting.ROLL_OR_DOUBLE, Color.WHITE, "P1", "Bob", "Bob") and shown(table) == "P1"
    press(table, "black", ButtonKind.DOUBLE)  # not the box's to press
    assert shown(table) == "NO" and of_type(table, "double") == []
    press(table, "white", ButtonKind.PASS)  # Bob lets his cube be
    assert asked(table) == (Waiting.ROLL_OR_DOUBLE, Color.WHITE, "P2", "Cy", "Cy")
    press(table, "white", ButtonKind.DOUBLE)  # Cy doubles
    assert asked(table) == (Waiting.TURN_CUBE, Color.WHITE, "P3", "Dee", "Dee")
    roll(table, 3, 4)  # no throw counts while a turned cube waits
    assert of_type(table, "roll") == [] and asked(table)[0] is Waiting.TURN_CUBE
    press(table, "white", ButtonKind.DOUBLE)  # Dee too
    # the box answers each, in team order, on Black's buttons
    assert asked(table) == (Waiting.CUBE_RESPONSE, Color.BLACK, "B2", "Ann", "Cy") and shown(table) == "B2"
    press(table, "black", ButtonKind.TAKE)
    assert asked(table) == (Waiting.CUBE_RESPONSE, Color.BLACK, "B3", "Ann", "Dee")
    press(table, "black", ButtonKind.PASS)
    cubes = [(e["type"], e["player"], e["member"]) for e in of_type(table, "double", "take", "pass")]
    assert cubes == [("double", "Cy", "Cy"), ("double", "Dee", "Dee"), ("take", "Ann", "Cy"), ("pass", "Ann", "Dee")]
    [settle] = of_type(table, "settle")
    assert (settle["member"], settle["points"], settle["reason"]) == ("Dee", 1, "box_pass")
    # the captain rolls; the display shows the highest cube in play and its owner: Cy's 2, the box's
    assert asked(table)[:2] == (Waiting.ROLL_OR_DOUBLE, Color.WHITE) and table.controller.prompt.code == ""
    assert table.table.display is not None and shown(table) == " 2" and table.table.display.leds == ("black",)
    view = render(table.controller, table.clock.now())
    assert "P1 Bob 1 *captain*" in view and "P2 Cy 2 (box's)" in view and "P3 Dee 1 OUT (the box passed, +1)" in view
    assert "totals  Ann 0  Bob 0  Cy 0  Dee 0" in view  # a game's results count at its end
    roll(table, 3, 1)
    play_first(table)
    # the box on roll, about each cube it may turn: Bob's centred cube and Cy's, which it owns; not Dee's
    assert asked(table) == (Waiting.ROLL_OR_DOUBLE, Color.BLACK, "B1", "Ann", "Bob")
    press(table, "black", ButtonKind.PASS)
    assert asked(table) == (Waiting.ROLL_OR_DOUBLE, Color.BLACK, "B2", "Ann", "Cy")
    press(table, "black", ButtonKind.PASS)
    assert asked(table)[:3] == (Waiting.ROLL_OR_DOUBLE, Color.BLACK, "")  # nothing more to ask: the box rolls
    roll(table, 5, 2)
    play_first(table)
    # Dee is out: never asked again; Cy's cube is the box's, so only Bob may turn his
    assert asked(table) == (Waiting.ROLL_OR_DOUBLE, Color.WHITE, "P1", "Bob", "Bob")
    verdict = validate_chouette(str(table.journal.path), table.journal.path.read_bytes())
    assert verdict.problems == [] and verdict.session is not None


def test_a_captain_who_passes_hands_the_checkers_to_the_next_member_in_line(make: Make) -> None:
    table = make()
    seat_ann_bob_cy_dee(table)
    roll(table, 2, 1)  # the team wins the opening roll
    play_first(table)
    assert asked(table) == (Waiting.ROLL_OR_DOUBLE, Color.BLACK, "B1", "Ann", "Bob")
    press(table, "black", ButtonKind.DOUBLE)  # the box doubles the captain
    assert asked(table) == (Waiting.TURN_CUBE, Color.BLACK, "B2", "Ann", "Cy")
    press(table, "black", ButtonKind.PASS)
    press(table, "black", ButtonKind.PASS)  # not Dee's either
    assert asked(table) == (Waiting.CUBE_RESPONSE, Color.WHITE, "P1", "Bob", "Bob")
    press(table, "white", ButtonKind.PASS)  # the captain passes: out of the game
    s = session(table)
    assert s.captain == "Cy" and not s.in_game("Bob")
    assert shown(table) == "P2"  # the new captain's code, for a moment
    [captain] = of_type(table, "captain")
    assert (captain["player"], captain["previous"]) == ("Cy", "Bob")
    assert "Bob is out of game 1: Cy is captain now" in table.controller.log
    assert "captain Cy (white)" in render(table.controller, table.clock.now(), 200, 60)
    table.wait(3.1)
    assert shown(table) == "64"  # then the highest cube in play: every one still in is centred
    roll(table, 6, 5)  # the box rolls, having turned its cubes this turn
    play_first(table)
    # the team: Cy and Dee are asked, never Bob again
    assert asked(table)[2:] == ("P2", "Cy", "Cy")
    press(table, "white", ButtonKind.PASS)
    assert asked(table)[2:] == ("P3", "Dee", "Dee")
    press(table, "white", ButtonKind.PASS)
    assert asked(table) == (Waiting.ROLL_OR_DOUBLE, Color.WHITE, "", "Cy", "")
    roll(table, 4, 2)
    assert table.controller.prompt.waiting is Waiting.PLAY and table.controller.prompt.player is Color.WHITE
    play_first(table)  # Cy moves the checkers, with White's buttons
    [_, _, cy] = of_type(table, "play")
    assert (cy["side"], cy["player"]) == ("team", "Cy")


def test_beavers_and_the_box_must_take_half_are_answered_at_the_table(make: Make) -> None:
    table = make("Ann", "Bob", "Cy", "Dee", beavers=True, box_takes_half=True)
    seat_ann_bob_cy_dee(table)
    roll(table, 1, 2)
    play_first(table)
    for _ in range(3):  # Bob, Cy and Dee all turn their centred cubes
        press(table, "white", ButtonKind.DOUBLE)
    prompt = table.controller.prompt
    assert asked(table) == (Waiting.CUBE_RESPONSE, Color.BLACK, "B1", "Ann", "Bob")
    assert prompt.answers == {"take", "pass", "beaver"} and prompt.can_beaver
    press(table, "black", ButtonKind.TAKE)  # three initial cubes at once: the box takes at least two, or none
    press(table, "black", ButtonKind.PASS)  # Cy's: Dee's may still be taken
    assert asked(table) == (Waiting.CUBE_RESPONSE, Color.BLACK, "B3", "Ann", "Dee")
    assert table.controller.prompt.answers == {"take", "beaver"}
    press(table, "black", ButtonKind.PASS)
    assert shown(table) == "NO" and any("allow beaver, take now, not pass" in line for line in table.controller.log)
    assert asked(table)[2:] == ("B3", "Ann", "Dee")  # still asked
    press(table, "black", ButtonKind.DOUBLE)  # the box beavers Dee's double: Dee answers at once
    assert asked(table) == (Waiting.CUBE_RESPONSE, Color.WHITE, "P3", "Dee", "Dee")
    assert table.controller.prompt.answers == {"take", "pass"} and not table.controller.prompt.can_beaver
    press(table, "white", ButtonKind.TAKE)
    s = session(table)
    assert [(m, s.cube(m).value, s.in_game(m)) for m in s.team] == [("Bob", 2, True), ("Cy", 1, False),
                                                                    ("Dee", 4, True)]
    assert s.highest_cube() == (4, Side.BOX)
    verdict = validate_chouette(str(table.journal.path), table.journal.path.read_bytes())
    assert verdict.problems == []


def test_with_one_team_cube_the_captain_decides_for_all(make: Make) -> None:
    table = make(team_cube=True)
    seat_ann_bob_cy_dee(table)
    roll(table, 1, 2)
    play_first(table)
    assert asked(table) == (Waiting.ROLL_OR_DOUBLE, Color.WHITE, "P1", "Bob", "Bob")
    press(table, "white", ButtonKind.DOUBLE)
    assert asked(table) == (Waiting.CUBE_RESPONSE, Color.BLACK, "B1", "Ann", "Bob")  # one decision, not three
    press(table, "black", ButtonKind.TAKE)
    s = session(table)
    assert {s.cube(m).value for m in s.team} == {2} and s.highest_cube() == (2, Side.BOX)


@pytest.mark.slow
def test_a_session_set_for_two_games_stops_by_itself(make: Make, tmp_path: Path) -> None:
    settings = Settings(timed=False, chouette=ChouetteSettings(("Ann", "Bob", "Cy"), games=2))
    with precondition(), EmulatedTable(settings, tmp_path / "two", seed=11) as table:
        assert table.run(max_seconds=4 * 3600)
        s = session(table)
        assert len(s.games) == 2 and s.is_over
        assert table.controller.prompt.waiting is Waiting.SESSION_OVER
        assert "the chouette is over after 2 games" in table.controller.prompt.message
        ending = [e["type"] for e in journal(table) if e["type"] not in ("display", "zone_leds")]
    end = ending.index("session_end")
    assert ending[end:] == ["session_end", "dice_stats", "link_stats", "signature"]


def test_a_takeback_between_the_captain_and_the_box(make: Make) -> None:
    table = make("Ann", "Bob", "Cy")
    roll(table, 6, 5)  # Ann 6, Bob 5
    roll(table, 4, 1)  # Cy 4: the box Ann, the captain Bob, then Cy
    roll(table, 3, 1)  # the team starts with 3-1
    s = session(table)
    before, play = s.position, next(p for p in s.legal_plays() if p.notation() == "8/5 6/5")
    table.emulator.move(8, 5)
    table.emulator.move(6, 5)
    table.wait(0.6)
    press(table, "white", ButtonKind.DONE)
    assert s.position == play.after_moves.pass_turn()
    table.emulator.move(5, 8)  # the captain puts the checkers back before the box rolls
    table.emulator.move(5, 6)
    table.wait(0.6)
    assert asked(table)[0] is Waiting.TAKEBACK and shown(table) == "TB"
    press(table, "white", ButtonKind.TAKE)
    press(table, "black", ButtonKind.TAKE)
    assert asked(table)[0] is Waiting.PLAY and s.position == before and s.dice == (3, 1)
    [takeback] = of_type(table, "takeback")
    assert (takeback["side"], takeback["player"]) == ("team", "Bob")
