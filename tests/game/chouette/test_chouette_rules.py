"""The chouette rules, one named test each: seating, the line, the cubes, results, rotation, options."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import pytest
from chouette_builders import box_on_roll, new_session, play_out, roll_and_play, seated, team_on_roll

from game.board import Color, Variant
from game.chouette import ChouetteSession, Phase, Roster, Side
from game.errors import (
    BoxMustTakeHalf,
    CubeNotAvailable,
    DuplicatePlayer,
    IllegalMove,
    InvalidDice,
    MatchActionError,
    MatchOver,
    NotYourTurn,
    OptionDisabled,
    OutOfGame,
    OutOfTeamOrder,
    PartnerNotAllowed,
    PlayerNameError,
    SessionSize,
    UnknownPlayer,
    WrongPhase,
)
from game.position import Position, ResultKind


def types(session: ChouetteSession, since: int = 0) -> list[str]:
    return [e["type"] for e in session.events[since:]]


def last(session: ChouetteSession, kind: str) -> dict[str, object]:
    return dict(next(e for e in reversed(session.events) if e["type"] == kind))


def settles(session: ChouetteSession, game: int) -> dict[str, object]:
    return {str(e["member"]): e["points"] for e in session.events if e["type"] == "settle" and e["game"] == game}


# -- the start --------------------------------------------------------------------------

def test_the_highest_throw_is_the_box_the_second_the_captain_the_rest_follow_their_throws() -> None:
    s = new_session("Ann", "Bob", "Cy", "Dee")
    for player, die in (("Ann", 3), ("Bob", 6), ("Cy", 1), ("Dee", 5)):
        s.throw(player, die)
    assert (s.box, s.captain, s.roster.line) == ("Bob", "Dee", ("Dee", "Ann", "Cy"))
    assert types(s)[-2:] == ["seating", "game_start"]
    assert last(s, "seating")["line"] == ["Dee", "Ann", "Cy"]
    assert s.phase is Phase.OPENING and s.game_number == 1


def test_ties_are_thrown_again_only_among_the_tied_players() -> None:
    s = new_session("Ann", "Bob", "Cy", "Dee")
    for player, die in (("Ann", 6), ("Bob", 4), ("Cy", 4), ("Dee", 2)):
        s.throw(player, die)
    assert s.awaiting().throwers == ("Bob", "Cy")
    with pytest.raises(NotYourTurn, match="Ann does not throw now"):
        s.throw("Ann", 5)
    s.throw("Bob", 2)
    s.throw("Cy", 5)
    assert (s.box, s.roster.line) == ("Ann", ("Cy", "Bob", "Dee"))


def test_a_tie_for_the_box_is_thrown_again_until_it_breaks() -> None:
    s = new_session("Ann", "Bob", "Cy")
    for player, die in (("Ann", 6), ("Bob", 6), ("Cy", 3), ("Ann", 2), ("Bob", 2), ("Ann", 1), ("Bob", 4)):
        s.throw(player, die)
    assert (s.box, s.captain) == ("Bob", "Ann")
    assert types(s).count("seat_throw") == 7


def test_a_three_way_tie_splits_and_its_own_tie_is_thrown_again() -> None:
    s = new_session("A", "B", "C", "D")
    for player, die in (("A", 5), ("B", 5), ("C", 5), ("D", 1), ("A", 3), ("B", 3), ("C", 6), ("A", 1), ("B", 2)):
        s.throw(player, die)
    assert s.roster.players == ("C", "B", "A", "D")


def test_a_throw_by_a_stranger_off_the_die_or_after_the_seating_is_refused() -> None:
    s = new_session("Ann", "Bob", "Cy")
    with pytest.raises(UnknownPlayer):
        s.throw("Zed", 3)
    for bad in (0, 7, True):
        with pytest.raises(InvalidDice, match="Ann's throw"):
            s.throw("Ann", bad)
    assert types(s) == ["chouette_start"]
    for player, die in (("Ann", 3), ("Bob", 2), ("Cy", 1)):
        s.throw(player, die)
    with pytest.raises(WrongPhase, match="phase seating"):
        s.throw("Ann", 4)


def test_a_chouette_seats_three_to_nine_players_each_with_a_name_of_their_own() -> None:
    with pytest.raises(SessionSize):
        ChouetteSession(["Ann", "Bob"])
    with pytest.raises(SessionSize):
        ChouetteSession([f"P{n}" for n in range(10)])
    with pytest.raises(DuplicatePlayer):
        ChouetteSession(["Ann", "Bob", "Ann"])
    for bad in ("", " Ann", "x" * 41):
        with pytest.raises(PlayerNameError):
            ChouetteSession([bad, "Bob", "Cy"])
    assert seated(*[f"P{n}" for n in range(9)]).roster.players == tuple(f"P{n}" for n in range(9))


# -- joining and leaving --------------------------------------------------------------------

def test_a_player_joining_between_games_goes_to_the_end_of_the_line() -> None:
    s = seated("Ann", "Bob", "Cy")
    s.join("Dee")
    assert s.roster.line == ("Bob", "Cy", "Dee")
    assert last(s, "line") | {"t": 0} == {"type": "line", "t": 0, "box": "Ann", "captain": "Bob",
                                          "line": ["Bob", "Cy", "Dee"], "partner": None, "reason": "join"}
    with pytest.raises(DuplicatePlayer):
        s.join("Bob")
    assert s.totals["Dee"] == 0


def test_joining_or_leaving_once_the_game_has_begun_is_refused() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    s.opening_roll(4, 4)  # equal dice: still the opening, but the game has begun
    actions: list[Callable[[], None]] = [lambda: s.join("Eve"), lambda: s.leave("Dee"), s.stop]
    for action in actions:
        with pytest.raises(WrongPhase, match="has begun"):
            action()
    s.opening_roll(4, 2)
    with pytest.raises(WrongPhase):
        s.join("Eve")


def test_a_leaving_box_hands_the_box_to_the_captain() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    s.leave("Ann")
    assert (s.box, s.captain, s.roster.line) == ("Bob", "Cy", ("Cy", "Dee"))
    assert "Ann" in s.totals


def test_a_chouette_does_not_shrink_below_three_players_and_seats_at_most_nine() -> None:
    s = seated("Ann", "Bob", "Cy")
    with pytest.raises(SessionSize, match="stop the session"):
        s.leave("Cy")
    with pytest.raises(UnknownPlayer):
        s.leave("Zed")
    full = seated(*[f"P{n}" for n in range(9)])
    with pytest.raises(SessionSize):
        full.join("Extra")


def test_a_player_who_leaves_and_comes_back_keeps_their_total_and_joins_at_the_end() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    box_on_roll(s)
    s.box_double("Bob")
    s.box_double("Cy")
    s.box_double("Dee")
    for member in ("Bob", "Cy", "Dee"):
        s.pass_(member)
    assert s.totals["Dee"] == -1
    s.leave("Dee")
    s.join("Dee")
    assert s.totals["Dee"] == -1 and s.roster.line[-1] == "Dee"
    assert list(s.totals) == ["Ann", "Bob", "Cy", "Dee"]


# -- the cubes ---------------------------------------------------------------------------------

def test_each_member_doubles_the_box_on_their_own_in_team_order() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee", "Eve")  # box Ann, team Bob Cy Dee Eve
    team_on_roll(s)
    s.double("Cy")
    s.double("Eve")
    with pytest.raises(OutOfTeamOrder, match="behind Eve"):
        s.double("Dee")
    with pytest.raises(OutOfTeamOrder, match="Cy's cube is answered first"):
        s.box_take("Eve")
    s.box_take("Cy")
    with pytest.raises(WrongPhase, match="being answered"):
        s.double("Bob")  # the answers have begun: no more cubes this turn
    s.box_pass("Eve")
    assert s.phase is Phase.ROLL
    assert (s.cube("Cy").value, s.cube("Cy").owner) == (2, Color.BLACK)
    assert s.cube("Bob").centred and s.cube("Dee").centred and not s.in_game("Eve")
    assert settles(s, 1) == {"Eve": 1}
    with pytest.raises(CubeNotAvailable, match="turned its cubes this turn"):
        s.double("Bob")
    s.roll(3, 1)


def test_the_box_doubles_each_member_separately() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee", "Eve")
    box_on_roll(s)
    s.box_double("Cy")
    with pytest.raises(OutOfTeamOrder):
        s.box_double("Bob")
    s.box_double("Dee")
    assert s.awaiting().member == "Cy" and s.awaiting().player == "Cy"
    with pytest.raises(OutOfTeamOrder):
        s.take("Dee")
    with pytest.raises(NotYourTurn, match="the team answers"):
        s.box_take("Cy")
    s.take("Cy")
    s.pass_("Dee")
    assert s.cube("Cy").value == 2 and s.cube("Cy").owner is Color.WHITE
    assert s.cube("Bob").value == 1 and s.cube("Eve").value == 1
    assert settles(s, 1) == {"Dee": -1}
    assert [(e["player"], e["member"]) for e in s.events if e["type"] == "double"] == [("Ann", "Cy"), ("Ann", "Dee")]


def test_a_member_cannot_turn_a_cube_the_box_owns_and_the_box_redoubles_it() -> None:
    s = seated("Ann", "Bob", "Cy")
    rng = random.Random(5)
    team_on_roll(s)
    s.double("Cy")
    s.box_take("Cy")
    roll_and_play(s, rng)
    roll_and_play(s, rng)  # the box's turn
    with pytest.raises(CubeNotAvailable, match="Cy's cube \\(2\\) is the box's"):
        s.double("Cy")
    roll_and_play(s, rng)
    s.box_double("Cy")  # the box owns Cy's cube: it may redouble it
    s.take("Cy")
    assert (s.cube("Cy").value, s.cube("Cy").owner) == (4, Color.WHITE)
    roll_and_play(s, rng)
    roll_and_play(s, rng)  # the team's turn
    with pytest.raises(CubeNotAvailable, match="Cy's cube \\(4\\) is the team's"):
        s.box_double("Cy")


def test_only_the_side_on_roll_turns_cubes() -> None:
    s = seated("Ann", "Bob", "Cy")
    team_on_roll(s)
    with pytest.raises(NotYourTurn, match="the team is on roll"):
        s.box_double("Bob")
    s.roll(2, 1)
    with pytest.raises(WrongPhase):
        s.double("Bob")  # after the roll
    s.play(s.legal_plays()[0])
    with pytest.raises(NotYourTurn, match="the box is on roll"):
        s.double("Bob")


def test_a_member_who_passes_pays_the_cube_before_the_double_and_never_acts_again_in_the_game() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    team_on_roll(s)
    s.double("Dee")
    s.box_take("Dee")
    s.roll(5, 2)
    s.play(s.legal_plays()[0])
    s.box_double("Dee")  # 2 -> 4
    s.pass_("Dee")
    assert settles(s, 1) == {"Dee": -2}
    assert last(s, "settle")["reason"] == "pass" and last(s, "settle")["cube"] == 2
    s.roll(4, 3)
    s.play(s.legal_plays()[0])
    with pytest.raises(OutOfGame, match="Dee's game is settled"):
        s.double("Dee")
    assert not s.may_double(Side.TEAM, "Dee") and "Dee" not in s.awaiting().doublers


def test_the_box_passing_a_members_double_pays_that_member_who_is_out_of_the_game() -> None:
    s = seated("Ann", "Bob", "Cy")
    team_on_roll(s)
    s.double("Cy")
    s.box_pass("Cy")
    assert settles(s, 1) == {"Cy": 1} and last(s, "settle")["reason"] == "box_pass"
    assert not s.in_game("Cy") and s.in_game("Bob")
    assert s.totals["Cy"] == 0  # settled in the game; the totals move when the game ends


def test_when_the_captain_passes_the_next_member_in_line_still_in_becomes_captain() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee", "Eve")
    box_on_roll(s)
    for member in ("Bob", "Cy"):
        s.box_double(member)
    s.pass_("Bob")
    s.pass_("Cy")
    assert s.captain == "Dee"  # Cy, next in line, is out too
    assert last(s, "captain") | {"t": 0} == {"type": "captain", "t": 0, "game": 1, "player": "Dee",
                                             "previous": "Bob"}
    s.roll(3, 2)
    assert last(s, "roll")["player"] == "Ann"
    s.play(s.legal_plays()[0])
    s.roll(4, 1)
    assert last(s, "roll")["player"] == "Dee" and s.roller() == "Dee"


def test_when_every_member_is_out_the_game_ends_and_the_box_collects() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    box_on_roll(s)
    for member in ("Bob", "Cy", "Dee"):
        s.box_double(member)
    for member in ("Bob", "Cy", "Dee"):
        s.pass_(member)
    end = last(s, "game_end")
    assert (end["winner"], end["reason"], end["captain"]) == ("box", "pass", "Bob")
    assert end["results"] == {"Bob": -1, "Cy": -1, "Dee": -1, "Ann": 3}
    assert s.game_number == 2 and s.phase is Phase.OPENING


# -- results ------------------------------------------------------------------------------------

def _game_to_the_end(seed: int, variant: Variant, **options: bool) -> tuple[ChouetteSession, Position]:
    """Box Ann against Bob (cube turned to 2 and taken), Cy (centred) and Dee (passed), played out."""
    s = seated("Ann", "Bob", "Cy", "Dee", variant=variant, **options)
    team_on_roll(s)
    s.double("Bob")
    s.double("Dee")
    s.box_take("Bob")
    s.box_pass("Dee")
    return s, play_out(s, random.Random(seed))


@pytest.mark.parametrize("variant", list(Variant))
def test_each_member_scores_their_own_cube_times_single_gammon_or_triple(variant: Variant) -> None:
    kinds = set()
    for seed in range(60):
        s, final = _game_to_the_end(seed, variant)
        result = final.result()
        if result is None:  # a Remi
            continue
        kinds.add(result.kind)
        sign = 1 if result.winner is Color.WHITE else -1
        assert settles(s, 1) == {"Dee": 1, "Bob": sign * 2 * int(result.kind), "Cy": sign * int(result.kind)}
        end = last(s, "game_end")
        expected_kind = {ResultKind.SINGLE: "single", ResultKind.GAMMON: "gammon"}.get(result.kind, variant.value)
        assert end["kind"] == expected_kind and end["winner"] == ("team" if sign > 0 else "box")
        assert end["results"]["Ann"] == -(1 + sign * 3 * int(result.kind))  # type: ignore[index]
        if len(kinds) == 3:
            break
    assert kinds == set(ResultKind), f"{variant.value}: random games gave only {kinds}"


def test_jacoby_counts_gammons_single_for_a_cube_never_turned() -> None:
    for seed in range(60):
        s, final = _game_to_the_end(seed, Variant.BACKGAMMON, jacoby=True)
        result = final.result()
        assert result is not None
        if result.kind is ResultKind.SINGLE:
            continue
        sign = 1 if result.winner is Color.WHITE else -1
        assert settles(s, 1) == {"Dee": 1, "Bob": sign * 2 * int(result.kind), "Cy": sign}
        return
    pytest.fail("no gammon in 60 random games")


def test_the_box_result_is_the_sum_against_every_member_and_everything_adds_up_to_zero() -> None:
    s, _ = _game_to_the_end(3, Variant.BACKGAMMON)
    end = last(s, "game_end")
    results = end["results"]
    assert isinstance(results, dict)
    assert results["Ann"] == -sum(v for k, v in results.items() if k != "Ann")
    assert sum(s.totals.values()) == 0 and s.totals == {k: Fraction(v) for k, v in results.items()}


def test_a_catchgammon_remi_settles_the_members_still_in_at_nothing_and_the_box_stays() -> None:
    for seed in range(400):
        s, final = _game_to_the_end(seed, Variant.CATCHGAMMON)
        if final.result() is None:
            break
    else:
        pytest.fail("no Remi in 400 random Catchgammon games")
    assert final.is_remi()
    assert settles(s, 1) == {"Dee": 1, "Bob": 0, "Cy": 0}
    end = last(s, "game_end")
    assert (end["winner"], end["kind"], end["reason"]) == (None, "remi", "remi")
    assert (s.box, s.roster.line) == ("Ann", ("Bob", "Cy", "Dee"))


# -- rotation ---------------------------------------------------------------------------------

def test_when_the_captain_beats_the_box_the_captain_becomes_box_and_the_old_box_goes_to_the_end() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    team_on_roll(s)
    for member in ("Bob", "Cy", "Dee"):
        s.double(member)
    for member in ("Bob", "Cy", "Dee"):
        s.box_pass(member)
    assert (s.box, s.roster.line, s.captain) == ("Bob", ("Cy", "Dee", "Ann"), "Cy")
    assert last(s, "rotation")["to_end"] == ["Ann"]
    assert last(s, "game_end")["winner"] == "team"


def test_when_the_box_beats_the_captain_the_box_stays_and_the_captain_goes_to_the_end() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    box_on_roll(s)
    s.box_double("Bob")
    s.box_double("Cy")
    s.box_double("Dee")
    s.pass_("Bob")
    s.pass_("Cy")
    s.pass_("Dee")
    assert (s.box, s.roster.line, s.captain) == ("Ann", ("Cy", "Dee", "Bob"), "Cy")
    assert last(s, "game_start")["captain"] == "Cy"


def test_the_last_captain_decides_the_rotation_and_a_captain_who_passed_goes_to_the_end() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    box_on_roll(s)
    s.box_double("Bob")
    s.pass_("Bob")
    assert s.captain == "Cy"
    s.roll(2, 1)
    s.play(s.legal_plays()[0])
    s.double("Cy")
    s.double("Dee")
    s.box_pass("Cy")
    s.box_pass("Dee")
    end = last(s, "game_end")
    assert (end["captain"], end["winner"]) == ("Cy", "team")
    assert (s.box, s.roster.line) == ("Cy", ("Dee", "Bob", "Ann"))
    assert last(s, "rotation")["to_end"] == ["Bob", "Ann"]


def test_rotation_after_a_remi_keeps_the_box_and_sends_only_beaten_captains_back() -> None:
    roster = Roster("Ann", ("Bob", "Cy", "Dee"))
    assert roster.rotated("Cy", False, ["Bob"]) == (Roster("Ann", ("Cy", "Dee", "Bob")), ("Bob",))
    assert roster.rotated("Bob", False, []) == (roster, ())


# -- the options ---------------------------------------------------------------------------------

def test_team_cube_the_captain_turns_and_answers_one_cube_for_everyone() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee", team_cube=True)
    team_on_roll(s)
    with pytest.raises(NotYourTurn, match="the captain \\(Bob\\) turns and answers it"):
        s.double("Cy")
    s.double("Bob")
    assert types(s).count("double") == 1
    s.box_take("Bob")
    assert {m: (s.cube(m).value, s.cube(m).owner) for m in s.team} == {m: (2, Color.BLACK) for m in s.team}
    s.roll(3, 3)
    s.play(s.legal_plays()[0])
    s.box_double("Bob")
    with pytest.raises(NotYourTurn):
        s.pass_("Dee")
    s.pass_("Bob")
    assert settles(s, 1) == {"Bob": -2, "Cy": -2, "Dee": -2}
    assert last(s, "game_end")["results"] == {"Bob": -2, "Cy": -2, "Dee": -2, "Ann": 6}


def test_beavers_a_member_beavers_the_box_and_the_box_answers_at_once() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee", beavers=True)
    box_on_roll(s)
    s.box_double("Bob")
    s.box_double("Cy")
    s.beaver("Bob")
    wait = s.awaiting()
    assert (wait.side, wait.player, wait.member, wait.actions) == (Side.BOX, "Ann", "Bob", ("box_take", "box_pass"))
    with pytest.raises(OutOfTeamOrder):
        s.take("Cy")
    with pytest.raises(WrongPhase, match="not beaver"):
        s.box_beaver("Bob")
    s.box_take("Bob")
    assert (s.cube("Bob").value, s.cube("Bob").owner) == (4, Color.WHITE)
    assert last(s, "beaver")["value"] == 4
    s.beaver("Cy")
    s.box_pass("Cy")
    assert settles(s, 1) == {"Cy": 2}


def test_beavers_the_box_beavers_a_members_double() -> None:
    s = seated("Ann", "Bob", "Cy", beavers=True)
    team_on_roll(s)
    s.double("Cy")
    s.box_beaver("Cy")
    assert s.awaiting().player == "Cy"
    s.pass_("Cy")
    assert settles(s, 1) == {"Cy": -2}


def test_without_beavers_a_beaver_is_refused() -> None:
    s = seated("Ann", "Bob", "Cy")
    box_on_roll(s)
    s.box_double("Bob")
    with pytest.raises(OptionDisabled, match="no beavers"):
        s.beaver("Bob")
    assert "beaver" not in s.awaiting().actions


def test_automatic_doubles_equal_opening_dice_double_every_cube_once_a_game() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee", automatic_doubles=True)
    s.opening_roll(3, 3)
    s.opening_roll(5, 5)
    s.opening_roll(5, 2)
    assert types(s).count("automatic_double") == 1
    assert all(s.cube(m).value == 2 and s.cube(m).centred for m in s.team)
    plain = seated("Ann", "Bob", "Cy")
    plain.opening_roll(3, 3)
    assert plain.cube("Bob").value == 1 and "automatic_double" not in types(plain)


def _four_initial_doubles(**options: bool) -> ChouetteSession:
    s = seated("Ann", "Bob", "Cy", "Dee", "Eve", variant=Variant.BACKGAMMON, **options)
    team_on_roll(s)
    for member in ("Bob", "Cy", "Dee", "Eve"):
        s.double(member)
    return s


def test_box_takes_half_of_the_initial_cubes_turned_at_once_or_passes_all() -> None:
    s = _four_initial_doubles(box_takes_half=True)
    s.box_pass("Bob")
    s.box_pass("Cy")
    s.box_take("Dee")
    with pytest.raises(BoxMustTakeHalf, match="takes at least 2 of them or passes all"):
        s.box_pass("Eve")
    s.box_take("Eve")
    s = _four_initial_doubles(box_takes_half=True)
    for member in ("Bob", "Cy", "Dee", "Eve"):
        s.box_pass(member)  # passing all is allowed
    assert s.game_number == 2
    free = _four_initial_doubles()
    free.box_take("Bob")
    for member in ("Cy", "Dee", "Eve"):
        free.box_pass(member)  # without the option, any mix


def test_box_takes_half_in_a_three_player_chouette_both_or_neither() -> None:
    for first, second in (("box_take", "box_pass"), ("box_pass", "box_take")):
        s = seated("Ann", "Bob", "Cy", box_takes_half=True)
        team_on_roll(s)
        s.double("Bob")
        s.double("Cy")
        getattr(s, first)("Bob")
        with pytest.raises(BoxMustTakeHalf):
            getattr(s, second)("Cy")


def test_box_takes_half_counts_only_centred_cubes() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee", box_takes_half=True)
    team_on_roll(s)
    s.double("Bob")
    s.box_take("Bob")
    s.roll(2, 1)
    s.play(s.legal_plays()[0])
    s.box_double("Bob")  # 2 -> 4, the team's cube
    s.take("Bob")
    s.roll(2, 1)
    s.play(s.legal_plays()[0])
    s.double("Bob")  # Bob's redouble and one initial cube: the rule needs two initial cubes
    s.double("Cy")
    s.box_take("Bob")
    s.box_pass("Cy")


def test_box_partner_shares_the_box_result_half_and_half_and_plays_no_cube() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", box_partner=True)
    s.take_partner("Cy")
    assert s.team == ("Bob", "Dee", "Eve", "Fay") and s.partner == "Cy"
    team_on_roll(s)
    with pytest.raises(UnknownPlayer, match="not on the team"):
        s.double("Cy")
    for member in s.team:
        s.double(member)
    for member in ("Bob", "Dee", "Eve", "Fay"):
        s.box_pass(member)
    assert last(s, "game_end")["results"] == {"Bob": 1, "Dee": 1, "Eve": 1, "Fay": 1, "Ann": -2, "Cy": -2}
    assert s.partner is None and (s.box, s.roster.line) == ("Bob", ("Cy", "Dee", "Eve", "Fay", "Ann"))


def test_box_partner_halves_odd_results_exactly() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", box_partner=True)
    s.take_partner("Fay")
    box_on_roll(s)
    s.box_double("Bob")
    s.pass_("Bob")
    s.roll(2, 1)
    s.play(s.legal_plays()[0])
    for member in ("Cy", "Dee", "Eve"):
        s.double(member)
    for member in ("Cy", "Dee", "Eve"):
        s.box_pass(member)
    results = last(s, "game_end")["results"]
    assert results == {"Bob": -1, "Cy": 1, "Dee": 1, "Eve": 1, "Ann": -1, "Fay": -1}
    s2 = seated("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", box_partner=True)
    s2.take_partner("Fay")
    team_on_roll(s2)
    s2.double("Bob")
    s2.box_pass("Bob")
    s2.roll(2, 1)
    s2.play(s2.legal_plays()[0])
    for member in ("Cy", "Dee", "Eve"):
        s2.box_double(member)
    for member in ("Cy", "Dee", "Eve"):
        s2.pass_(member)
    assert last(s2, "game_end")["results"] == {"Bob": 1, "Cy": -1, "Dee": -1, "Eve": -1, "Ann": 1, "Fay": 1}
    assert sum(s2.totals.values()) == 0


def test_box_partner_is_refused_when_off_under_six_players_for_the_captain_or_twice() -> None:
    with pytest.raises(OptionDisabled):
        seated("Ann", "Bob", "Cy", "Dee", "Eve", "Fay").take_partner("Cy")
    with pytest.raises(SessionSize):
        seated("Ann", "Bob", "Cy", "Dee", "Eve", box_partner=True).take_partner("Cy")
    s = seated("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", box_partner=True)
    with pytest.raises(PartnerNotAllowed, match="Bob is the captain"):
        s.take_partner("Bob")
    with pytest.raises(UnknownPlayer):
        s.take_partner("Ann")
    s.take_partner("Dee")
    with pytest.raises(PartnerNotAllowed, match="Dee is the partner"):
        s.take_partner("Eve")
    s.leave("Eve")  # five players: no partner any more
    assert s.partner is None and last(s, "line")["partner"] is None


# -- the board, the table's questions, the errors -------------------------------------------------

def test_checker_play_is_the_two_player_games() -> None:
    for variant in Variant:
        s = seated("Ann", "Bob", "Cy", variant=variant)
        s.opening_roll(5, 3)
        assert s.legal_plays() == Position.initial(variant, Color.WHITE).legal_plays((5, 3))
        with pytest.raises(IllegalMove, match="game 1, box Ann, line Bob Cy"):
            s.play("1/0")
        play = s.legal_plays()[-1]
        assert s.play(play) == play and s.position == play.after_moves.pass_turn()


def test_a_play_may_be_taken_back_before_anything_else_happens() -> None:
    s = seated("Ann", "Bob", "Cy")
    s.opening_roll(3, 1)
    before = s.position
    s.play("8/5 6/5")
    assert s.can_take_back and "takeback" in s.awaiting().actions
    s.takeback()
    assert (s.phase, s.position, s.dice) == (Phase.MOVE, before, (3, 1))
    s.play("24/21 6/5")
    s.box_double("Bob")
    s.take("Bob")
    with pytest.raises(WrongPhase, match="no play to take back"):
        s.takeback()


def test_an_accepted_illegal_play_stands_under_the_traditional_rule() -> None:
    s = seated("Ann", "Bob", "Cy")
    s.opening_roll(3, 1)
    after = s.legal_plays()[0].after_moves
    s.accept_illegal_play(after, [(24, 20)], "the 3 and 1 played as 4 from the bar point")
    assert last(s, "play")["accepted_illegal"] == "the 3 and 1 played as 4 from the bar point"
    assert s.position == after.pass_turn()


def test_awaiting_names_whose_decision_it_is_and_the_methods_that_may_run() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    team_on_roll(s)
    wait = s.awaiting()
    assert (wait.side, wait.player, wait.doublers) == (Side.TEAM, "Bob", ("Bob", "Cy", "Dee"))
    assert set(wait.actions) == {"roll", "double", "takeback"}  # the box has just played
    s.double("Cy")
    wait = s.awaiting()
    assert (wait.side, wait.player, wait.member, wait.doublers) == (Side.BOX, "Ann", "Cy", ("Dee",))
    assert wait.actions == ("box_take", "box_pass", "double")
    assert "the box (Ann) to take, pass on Cy's cube" in wait.describe()


def test_the_cube_display_shows_the_highest_cube_in_play_and_its_owner() -> None:
    s = seated("Ann", "Bob", "Cy", "Dee")
    team_on_roll(s)
    assert s.highest_cube() == (1, None)
    s.double("Cy")
    s.box_take("Cy")
    assert s.highest_cube() == (2, Side.BOX)


def test_every_refusal_names_where_the_session_stands() -> None:
    s = seated("Ann", "Bob", "Cy")
    team_on_roll(s)
    s.double("Cy")
    with pytest.raises(MatchActionError) as caught:
        s.roll(1, 2)
    message = str(caught.value)
    for part in ("game 1", "box Ann", "line Bob Cy", "phase doubled", "team on roll (Bob)",
                 "cubes Bob 1; Cy 1 offered by the team", "position {"):
        assert part in message, part
    s.box_pass("Cy")
    s.roll(1, 2)
    s.play(s.legal_plays()[0])
    s.box_double("Bob")
    s.pass_("Bob")
    s.stop()
    with pytest.raises(MatchOver, match="the chouette session is over"):
        s.opening_roll(3, 1)
