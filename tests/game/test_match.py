"""The match state machine, action by action."""

import random
from itertools import count

import pytest
from builders import records

import game.match
from game.board import Color, Variant
from game.errors import (
    AmbiguousPlayError,
    CrawfordNoDouble,
    CubeNotAvailable,
    IllegalMove,
    IllegalPlayError,
    InvalidDice,
    MatchActionError,
    MatchOver,
    NotYourTurn,
    OptionDisabled,
    WrongPhase,
)
from game.match import Match, MatchOptions, Phase
from game.match_sim import step
from game.play_reader import read_play
from game.plays import Play, WrittenPlay
from game.position import Position, ResultKind

W, B = Color.WHITE, Color.BLACK


def new(length: int | None = 5, variant: Variant = Variant.BACKGAMMON, **options: object) -> Match:
    ticks = count()
    return Match(variant, length, MatchOptions(**options), ("Ann", "Bob"),  # type: ignore[arg-type]
                 clock=lambda: float(next(ticks)))


def types(match: Match, since: int = 0) -> list[str]:
    return [e["type"] for e in records(match)[since:]]


def start_white(match: Match) -> None:
    """White wins the opening roll 3-1 and plays it."""
    match.opening_roll(3, 1)
    match.play("8/5 6/5")


def white_wins_by_pass(match: Match) -> None:
    """A whole game: White opens, Black rolls and plays, White doubles, Black passes."""
    start_white(match)
    match.roll(6, 4)
    match.play(match.legal_plays()[0])
    match.double(W)
    match.pass_(B)


# -- start and opening roll ------------------------------------------------------

def test_a_new_match_records_its_start_and_waits_for_the_opening_roll() -> None:
    match = new(7)
    assert types(match) == ["match_start", "game_start"]
    start = records(match)[0]
    assert start["variant"] == "backgammon" and start["length"] == 7
    assert start["players"] == {"white": "Ann", "black": "Bob"}
    assert start["options"] == {"jacoby": False, "beavers": False, "automatic_doubles": False,
                                "max_cube": None}
    assert records(match)[1]["position"] == Position.initial().to_document()
    assert (match.phase, match.game_number, match.expected, match.on_roll) == (Phase.OPENING, 1, None, None)
    assert match.score == (0, 0) and match.cube.value == 1


def test_the_higher_opening_die_starts_and_plays_both_numbers() -> None:
    match = new()
    match.opening_roll(2, 5)
    assert (match.phase, match.on_roll, match.dice) == (Phase.MOVE, B, (5, 2))
    assert match.position.turn is B
    match.play("13/8 13/11")
    play = records(match)[-1]
    assert (play["type"], play["player"], play["dice"]) == ("play", "black", [5, 2])
    assert play["moves"] in ([[13, 8], [13, 11]], [[13, 11], [13, 8]])
    assert play["position"]["turn"] == "black"
    assert (match.phase, match.on_roll, match.move_number) == (Phase.ROLL, W, 1)


def test_equal_opening_dice_are_rolled_again() -> None:
    match = new()
    match.opening_roll(4, 4)
    assert match.phase is Phase.OPENING and match.cube.value == 1
    match.opening_roll(6, 1)
    assert match.on_roll is W


def test_automatic_doubles_turn_the_centred_cube_once_per_game() -> None:
    match = new(None, automatic_doubles=True)
    match.opening_roll(4, 4)
    assert (match.cube.value, match.cube.owner) == (2, None)
    match.opening_roll(2, 2)
    assert match.cube.value == 2
    match.opening_roll(6, 1)
    assert match.phase is Phase.MOVE


def test_automatic_doubles_respect_the_maximum_cube() -> None:
    match = new(None, automatic_doubles=True, max_cube=1)
    match.opening_roll(4, 4)
    assert match.cube.value == 1


def test_dice_must_be_faces_one_to_six() -> None:
    match = new()
    with pytest.raises(InvalidDice, match="opening roll"):
        match.opening_roll(0, 3)
    start_white(match)
    with pytest.raises(InvalidDice, match="roll"):
        match.roll(7, 1)


# -- playing -----------------------------------------------------------------------

def test_an_illegal_play_is_refused_with_where_it_happened() -> None:
    match = new()
    match.opening_roll(3, 1)
    with pytest.raises(IllegalMove, match="not a legal play of 31") as info:
        match.play("24/18")
    assert "game 1" in str(info.value) and "dice 31" in str(info.value)
    assert '"points"' in info.value.context  # the position, to reproduce it
    assert match.phase is Phase.MOVE and match.move_number == 0


def test_a_play_is_accepted_as_a_play_steps_or_notation() -> None:
    for given in ("24/21 24/23", [(24, 21), (24, 23)], "24/20"):
        match = new()
        match.opening_roll(3, 1)
        made = match.play(given)
        assert made is not None and made.after_moves.turn is W
        assert match.position.turn is B


def test_a_play_object_must_be_one_of_the_legal_plays() -> None:
    match = new()
    match.opening_roll(3, 1)
    other = Position.initial().legal_plays((6, 5))[0]
    with pytest.raises(IllegalMove):
        match.play(other)


def test_a_play_the_rules_engine_found_legal_here_is_not_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    def search(*args: object) -> None:
        raise AssertionError("Match.play searched the legal plays again")

    for how in ("legal plays", "play reader"):
        match = new()
        match.opening_roll(3, 1)
        found = match.legal_plays()[3] if how == "legal plays" else read_play(match.position, (3, 1), "8/5 6/5")
        assert found is not None
        with monkeypatch.context() as patch:
            patch.setattr(game.match, "complete_play", search)
            patch.setattr(game.match, "legal_states", search)
            assert match.play(found) is found
        assert records(match)[-1]["moves"] == [[m.source, m.target] for m in found.moves]
        assert match.position == found.next_position


def test_a_play_not_found_legal_in_this_position_and_roll_is_checked() -> None:
    match = new()
    match.opening_roll(3, 1)
    found = match.legal_plays()[0]
    elsewhere = Position.initial().legal_plays((6, 5))[0]  # found legal, but for another roll
    with pytest.raises(IllegalMove):
        match.play(elsewhere)
    with pytest.raises(IllegalMove):  # derived from a legal play: not the rules engine's any more
        match.play(found.replace(after_moves=elsewhere.after_moves))
    made = match.play(Play(found.moves, found.after_moves))  # built by hand: checked, and legal
    assert made == found and match.position == found.next_position


def test_no_move_only_when_the_roll_cannot_be_played() -> None:
    match = new()
    match.opening_roll(3, 1)
    with pytest.raises(IllegalMove, match="must be played"):
        match.play([])


def resolve_play(position: Position, dice: tuple[int, int], steps: list[tuple[int, int]],
                 hits: frozenset[int] | None = None) -> Play | None:
    """Steps and the points hit, read by the project's one resolver, as `Match.play` reads them."""
    return read_play(position, dice, WrittenPlay.of(steps, hits))


def test_resolve_play_needs_the_hit_to_tell_two_paths_apart() -> None:
    # White 24-point checker, 6-4 to play; black blots on White's 18 and 20 points.
    points = [""] * 24
    points[23] = "w"
    points[5] = "w" * 14
    points[17] = "b"
    points[19] = "b"
    points[0] = "b" * 13
    position = Position(Variant.BACKGAMMON, W, tuple(points))
    with pytest.raises(AmbiguousPlayError, match="fits 2 legal plays") as info:
        resolve_play(position, (6, 4), [(24, 14)])
    assert len(info.value.plays) == 2
    via_18 = resolve_play(position, (6, 4), [(24, 14)], frozenset({18}))
    via_20 = resolve_play(position, (6, 4), [(24, 14)], frozenset({20}))
    assert via_18 is not None and via_20 is not None
    assert via_18.after_moves.stack(18) == "" and via_18.after_moves.stack(20) == "b"
    assert via_20.after_moves.stack(20) == "" and via_20.after_moves.stack(18) == "b"
    assert resolve_play(position, (6, 4), [(24, 18), (18, 14)], frozenset({18})) == via_18


def test_a_roll_that_cannot_be_played_is_a_play_with_no_moves() -> None:
    # Black on the bar against White's closed board: nothing to play.
    points = [""] * 24
    for p in range(1, 7):
        points[p - 1] = "ww"
    points[12] = "www"
    points[23] = "b" * 14
    position = Position(Variant.BACKGAMMON, B, tuple(points), bar=(0, 1))
    assert resolve_play(position, (6, 5), []) is None
    with pytest.raises(IllegalPlayError):
        resolve_play(position, (6, 5), [(25, 20)])


def test_play_before_rolling_and_roll_before_playing_are_out_of_phase() -> None:
    match = new()
    with pytest.raises(WrongPhase):
        match.play("8/5 6/5")
    with pytest.raises(WrongPhase):
        match.roll(3, 1)
    start_white(match)
    with pytest.raises(WrongPhase, match="black to double or roll"):
        match.play("13/10")
    match.roll(2, 1)
    with pytest.raises(WrongPhase, match="black to play 21"):
        match.roll(2, 1)


# -- the cube --------------------------------------------------------------------------

def test_double_take_and_redouble_action_by_action() -> None:
    match = new()
    start_white(match)
    with pytest.raises(NotYourTurn):
        match.double(W)
    match.double(B)
    assert (match.phase, match.expected) == (Phase.DOUBLED, W)
    assert records(match)[-1] == {"type": "double", "t": records(match)[-1]["t"], "game": 1,
                                "player": "black", "value": 2}
    with pytest.raises(NotYourTurn):
        match.take(B)
    with pytest.raises(WrongPhase):
        match.roll(5, 2)
    match.take(W)
    assert (match.cube.value, match.cube.owner, match.phase, match.on_roll) == (2, W, Phase.ROLL, B)
    assert records(match)[-1]["value"] == 2
    with pytest.raises(CubeNotAvailable, match="white owns the cube"):
        match.double(B)
    match.roll(5, 2)
    match.play(match.legal_plays()[0])
    assert match.may_double(W)
    match.double(W)
    match.take(B)
    assert (match.cube.value, match.cube.owner) == (4, B)


def test_a_double_is_only_before_rolling() -> None:
    match = new()
    match.opening_roll(3, 1)
    with pytest.raises(WrongPhase):
        match.double(W)
    match.play("8/5 6/5")
    match.roll(4, 2)
    with pytest.raises(WrongPhase):
        match.double(B)


def test_a_pass_ends_the_game_and_the_doubler_scores_the_cube_before_the_double() -> None:
    match = new()
    white_wins_by_pass(match)
    end = records(match)[-2]
    assert (end["type"], end["winner"], end["kind"], end["points"], end["reason"]) == (
        "game_end", "white", "single", 1, "pass")
    assert end["score"] == {"white": 1, "black": 0}
    assert records(match)[-1]["type"] == "game_start" and records(match)[-1]["game"] == 2
    assert (match.score, match.game_number, match.phase, match.cube.value) == ((1, 0), 2, Phase.OPENING, 1)
    assert match.games[0].points == 1 and match.games[0].winner is W


def test_the_match_ends_at_its_length_and_refuses_further_actions() -> None:
    match = new(1)
    white_wins_by_pass(match)
    assert types(match)[-2:] == ["game_end", "match_end"]
    assert records(match)[-1]["winner"] == "white" and records(match)[-1]["score"] == {"white": 1, "black": 0}
    assert match.is_over and match.winner is W and match.phase is Phase.OVER
    with pytest.raises(MatchOver):
        match.opening_roll(3, 1)


# -- Crawford ---------------------------------------------------------------------------

def test_no_double_in_the_crawford_game_and_doubling_returns_after_it() -> None:
    match = new(3)
    white_wins_by_pass(match)
    assert not match.crawford
    white_wins_by_pass(match)
    assert match.score == (2, 0) and match.crawford and records(match)[-1]["crawford"] is True
    start_white(match)
    with pytest.raises(CrawfordNoDouble):
        match.double(B)
    match.resign(W, ResultKind.SINGLE)
    match.accept_resignation(B)
    assert match.score == (2, 1)
    assert not match.crawford and match.post_crawford and records(match)[-1]["crawford"] is False
    start_white(match)
    match.double(B)  # post-Crawford: the trailer may double
    match.take(W)
    assert match.cube.value == 2


def test_a_one_point_match_has_no_crawford_game() -> None:
    assert not new(1).crawford


# -- money options ----------------------------------------------------------------------

def test_match_play_has_no_money_options() -> None:
    for option in ({"jacoby": True}, {"beavers": True}, {"automatic_doubles": True}, {"max_cube": 8}):
        with pytest.raises(OptionDisabled):
            new(5, **option)
    with pytest.raises(OptionDisabled):
        new(0)
    with pytest.raises(OptionDisabled):
        new(None, max_cube=3)


def resign_gammon(match: Match, cube_turned: bool) -> int:
    start_white(match)
    if cube_turned:
        match.double(B)
        match.take(W)
    match.resign(B, ResultKind.GAMMON)
    match.accept_resignation(W)
    return int(records(match)[-2]["points"])


def test_jacoby_counts_a_gammon_as_single_until_the_cube_is_turned() -> None:
    assert resign_gammon(new(None, jacoby=True), cube_turned=False) == 1
    assert resign_gammon(new(None, jacoby=True), cube_turned=True) == 4
    assert resign_gammon(new(None), cube_turned=False) == 2


def test_beaver_action_by_action() -> None:
    match = new(None, beavers=True)
    start_white(match)
    match.double(B)
    with pytest.raises(NotYourTurn):
        match.beaver(B)
    match.beaver(W)
    assert (match.phase, match.expected, match.cube.value, match.cube.owner) == (Phase.BEAVERED, B, 2, W)
    assert records(match)[-1]["value"] == 4
    with pytest.raises(WrongPhase):
        match.beaver(W)
    match.take(B)
    assert (match.cube.value, match.cube.owner, match.phase, match.on_roll) == (4, W, Phase.ROLL, B)


def test_passing_a_beaver_loses_the_doubled_stake() -> None:
    match = new(None, beavers=True)
    start_white(match)
    match.double(B)
    match.beaver(W)
    match.pass_(B)
    assert match.score == (2, 0)


def test_beavers_need_the_option() -> None:
    match = new(None)
    start_white(match)
    match.double(B)
    with pytest.raises(OptionDisabled, match="no beavers"):
        match.beaver(W)


def test_the_maximum_cube_of_money_play() -> None:
    match = new(None, max_cube=2)
    start_white(match)
    match.double(B)
    match.take(W)
    match.roll(5, 2)
    match.play(match.legal_plays()[0])
    assert not match.may_double(W)
    with pytest.raises(CubeNotAvailable, match="maximum is 2"):
        match.double(W)


def test_a_money_session_runs_until_stopped_between_games() -> None:
    match = new(None)
    white_wins_by_pass(match)
    white_wins_by_pass(match)
    start_white(match)
    with pytest.raises(WrongPhase):
        match.stop()
    match.resign(W)
    match.accept_resignation(B)
    match.stop()
    assert match.is_over and match.winner is W and match.score == (2, 1)
    assert records(match)[-1] == {"type": "match_end", "t": records(match)[-1]["t"], "winner": "white",
                                "score": {"white": 2, "black": 1}}
    with pytest.raises(WrongPhase):
        new(5).stop()


# -- resignation --------------------------------------------------------------------------

def test_resignation_declined_resumes_where_it_was() -> None:
    match = new()
    start_white(match)
    match.roll(6, 6)
    match.resign(W, "gammon")  # the player not on roll may resign too
    assert (match.phase, match.expected, match.resignation) == (Phase.RESIGNED, B, (W, ResultKind.GAMMON))
    with pytest.raises(NotYourTurn):
        match.accept_resignation(W)
    with pytest.raises(WrongPhase):
        match.play(match.position.legal_plays((6, 6))[0])
    match.decline_resignation(B)
    assert (match.phase, match.dice, match.resignation) == (Phase.MOVE, (6, 6), None)
    assert types(match)[-2:] == ["resign", "resign_decline"]


def test_resignation_accepted_scores_its_kind_times_the_cube() -> None:
    match = new(9)
    start_white(match)
    match.double(B)
    match.take(W)
    match.resign(B, ResultKind.TRIPLE)
    assert records(match)[-1]["kind"] == "backgammon"
    match.accept_resignation(W)
    end = records(match)[-2]
    assert (end["winner"], end["kind"], end["points"], end["reason"]) == ("white", "backgammon", 6, "resign")


def test_no_resignation_while_a_double_is_pending() -> None:
    match = new()
    start_white(match)
    match.double(B)
    with pytest.raises(WrongPhase):
        match.resign(W)


def test_result_kinds_are_named_by_variant() -> None:
    match = new(9, Variant.RUNGAMMON)
    match.opening_roll(3, 1)
    match.resign(B, "rungammon")
    assert records(match)[-1]["kind"] == "rungammon"
    with pytest.raises(MatchActionError):
        match.resign(B, "backgammon")


# -- Remi -----------------------------------------------------------------------------------

def play_until_game_ends(match: Match, rng: random.Random) -> None:
    game = match.game_number
    while match.game_number == game and not match.is_over:
        step(match, rng, cube_rate=0.0, resign_rate=0.0)


def test_a_catchgammon_remi_scores_nothing_and_the_game_is_replayed() -> None:
    for seed in range(200):
        match = new(2, Variant.CATCHGAMMON)
        match.opening_roll(3, 1)
        match.resign(B)
        match.accept_resignation(W)  # 1-0 of 2: game 2 is the Crawford game
        assert match.crawford
        play_until_game_ends(match, random.Random(seed))
        if match.games[-1].kind == "remi":
            break
    else:
        pytest.fail("no Remi in 200 random Catchgammon games")
    end = records(match)[-2]
    assert (end["game"], end["winner"], end["kind"], end["points"], end["reason"]) == (
        2, None, "remi", 0, "remi")
    assert match.score == (1, 0) and match.game_number == 3 and match.phase is Phase.OPENING
    assert match.crawford and not match.post_crawford  # the replayed game is still the Crawford game


def test_wrong_player_and_phase_errors_are_specific() -> None:
    match = new()
    start_white(match)
    match.double(B)
    with pytest.raises(NotYourTurn, match="white to take or pass"):
        match.pass_(B)
    with pytest.raises(WrongPhase):
        match.accept_resignation(W)


# -- takeback, forfeit, an accepted illegal play -------------------------------------


def test_takeback_by_agreement_restores_the_play_and_its_dice() -> None:
    match = new()
    start_white(match)
    phases = [match.phase]
    assert match.expected is B
    match.takeback()
    phases.append(match.phase)
    assert phases == [Phase.ROLL, Phase.MOVE] and match.position == Position.initial() and match.dice == (3, 1)
    assert match.move_number == 0 and types(match)[-1] == "takeback"
    match.play("24/21 21/20")
    match.roll(6, 5)
    with pytest.raises(WrongPhase, match="needs phase roll"):
        match.takeback()  # Black has rolled: too late
    replayed = Match.replay(match.events)
    assert replayed.position == match.position and replayed.events == match.events


def test_no_takeback_after_the_opponent_acted_or_twice() -> None:
    match = new()
    start_white(match)
    match.takeback()
    with pytest.raises(WrongPhase):
        match.takeback()  # the play is gone: nothing to take back while White is to play
    match.play("8/5 6/5")
    match.double(B)
    match.take(W)
    with pytest.raises(WrongPhase, match="no play to take back"):
        match.takeback()  # a cube action came between: the play stands


def test_forfeit_on_time_ends_the_match_with_the_score_standing() -> None:
    match = new()
    white_wins_by_pass(match)
    match.forfeit(W, "time")
    assert match.is_over and match.winner is B and match.score == (1, 0)
    assert types(match)[-2:] == ["forfeit", "match_end"]
    with pytest.raises(MatchOver):
        match.forfeit(B, "time")
    assert Match.replay(match.events).winner is B


def test_an_accepted_illegal_play_stands_and_is_recorded_as_such() -> None:
    match = new()
    match.opening_roll(6, 1)
    after = Position.initial().to_document()
    after["points"][12] = ["w"] * 4
    after["points"][6] = ["w"]
    position = Position.from_document(after)
    with pytest.raises(IllegalMove):
        match.play([(13, 7)])  # the 1 left unused: not one of the legal plays
    match.accept_illegal_play(position, [(13, 7)], "only the 6 played")
    play = records(match)[-1]
    assert play["type"] == "play" and play["accepted_illegal"] == "only the 6 played"
    assert match.phase is Phase.ROLL and match.position == position.pass_turn()
    assert Match.replay(match.events).position == match.position


def test_a_match_is_restored_at_the_game_and_score_a_record_states() -> None:
    match = Match(length=3, clock=lambda: 0.0)
    match.restore_game(3, (2, 1))
    assert (match.game_number, match.score, match.crawford) == (3, (2, 1), True)
    assert records(match)[-1]["type"] == "game_start" and records(match)[-1]["score"] == {"white": 2, "black": 1}
    match.restore_game(4, (2, 1), crawford=False)  # the record says the Crawford game was played
    assert not match.crawford and match.post_crawford
