"""Reading transcripts as real servers and programs write them: each dialect feature in a small
transcript made here, the verdict, the replayed positions, and what stays corrupt."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from mat_dialects import DIALECTS, Dialect, write

from game.board import Color, Variant
from game.errors import IllegalPlayError
from game.mat import export_mat
from game.match import Match, MatchOptions
from game.match_sim import random_match
from game.position import Position
from game.replay import Problem
from game.transcripts import replay_transcript
from game.validate import validate_file

W, B = Color.WHITE, Color.BLACK


def positions(match: Match) -> list[dict[str, Any]]:
    """Every play's resulting position and every game's result: what a transcript must carry."""
    return [e["position"] if e["type"] == "play" else {k: e[k] for k in ("winner", "points")}
            for e in match.events if e["type"] in ("play", "game_end")]


def read(text: str) -> tuple[Match, list[Problem], list[Problem]]:
    replay = replay_transcript(text)
    assert replay.replayer.match is not None
    return replay.replayer.match, replay.replayer.problems, replay.replayer.notes


def verdict_of(text: str) -> tuple[list[str], list[str]]:
    _, problems, notes = read(text)
    return [p.rule for p in problems], [n.rule for n in notes]


# -- every dialect reads back to the positions played ----------------------------------------

@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: d.name)
@pytest.mark.parametrize("seed", range(3))
def test_a_match_written_in_each_dialect_reads_back_to_the_same_positions(dialect: Dialect, seed: int) -> None:
    match = random_match(Variant.BACKGAMMON, 5, rng=random.Random(40 + seed), cube_rate=0.05, resign_rate=0.01)
    again, problems, _ = read(write(match, dialect))
    assert not problems
    if dialect.stars or not dialect.joined:
        assert positions(again) == positions(match)
    assert again.score == match.score and again.is_over


def test_the_dialect_is_read_from_the_file() -> None:
    match = random_match(Variant.BACKGAMMON, 3, rng=random.Random(5), cube_rate=0.05)
    galaxy = replay_transcript(write(match, DIALECTS[2])).transcript.dialect
    assert galaxy.producer == "Test galaxy (its Site header)" and not galaxy.marks_hits
    assert {"no hit marked anywhere", "bearing off written to 0", "header lines"} <= set(galaxy.features)
    grid = replay_transcript(write(match, DIALECTS[3])).transcript.dialect
    assert grid.producer.startswith("GamesGrid") and "ratings in player names" in grid.features
    assert grid.examples["ratings in player names"][0] == 4  # the line that shows it
    studio = replay_transcript(write(match, DIALECTS[4])).transcript.dialect
    assert "identical moves counted (13/7(2))" in studio.features or "a step of several dice written as one (13/9)" \
        in studio.features


# -- hits: the written path decides ----------------------------------------------------------
# White opens 21 with 13/11 6/5: blots on White's 11 and 5, Black's 14 and 20. Black's 64 from its
# 24 to its 14 passes either its 20 (White's blot: a hit) or its 18 (empty).

HEAD = (" 3 point match\n\n Game 1\n Boris : 0                      Wendy : 0\n"
        "  1)                             21: 13/11 6/5\n")


def test_a_step_onto_a_blot_hits_it_whether_or_not_it_has_a_star() -> None:
    match, problems, _ = read(HEAD + "  2) 64: 24/20 20/14\n")
    assert not problems and match.position.bar == (2, 0)  # both blots hit, no star written


def test_a_point_named_in_a_chain_counts() -> None:
    match, problems, _ = read(HEAD + "  2) 64: 24/20/14\n")
    assert not problems and match.position.bar == (2, 0)


def test_where_hits_are_marked_a_joined_step_without_a_star_on_the_way_does_not_hit_there() -> None:
    match, problems, notes = read(HEAD + "  2) 64: 24/14*\n")
    assert not problems and not notes and match.position.bar == (1, 0)  # 24/18/14*, written 24/14*
    match, problems, notes = read(HEAD + "  2) 64: 24/20*/14*\n")
    assert not problems and not notes and match.position.bar == (2, 0)


def test_unmarked_look_ahead_picks_the_reading_under_which_the_rest_of_the_game_is_legal() -> None:
    match, problems, notes = read(HEAD + "  2) 64: 24/14                    31: bar/22 bar/24\n")
    assert not problems and len(notes) == 1
    assert "only 24/20*/14* lets the play at line 6 be legal" in notes[0].rule and notes[0].line == 6
    match, problems, notes = read(HEAD + "  2) 64: 24/14                    31: bar/22 8/7\n")
    assert not problems and len(notes) == 1 and "only 24/14* lets the play at line 6 be legal" in notes[0].rule


def test_unmarked_and_undecided_takes_gnu_backgammons_reading_with_a_note() -> None:
    match, problems, notes = read(HEAD + "  2) 64: 24/14\n")
    assert not problems and match.position.bar == (1, 0)
    assert "cannot tell it from 24/20*/14*; took 24/14*" in notes[0].rule


def test_look_ahead_is_bounded() -> None:
    from game.transcripts import lookahead

    assert lookahead.MAX_PLAYS <= 60 and lookahead.MAX_BRANCHES <= 64


# -- every notation form -------------------------------------------------------------------------

@pytest.mark.parametrize("written", ["bar/22 13/9", "25/22 13/9", "b/22 13/9", "bar/22, 13/9", "Bar/22 13/9"])
def test_entering_is_read_in_every_form(written: str) -> None:
    doc = Position.initial().to_document()
    doc["points"][23] = ["w"]  # one of White's back checkers is on the bar
    doc["bar"] = {"white": 1, "black": 0}
    position = Position.from_document(doc)
    play = position.parse_play(written, (3, 4))
    assert play is not None and play.after_moves.bar == (0, 0) and play.notation() == "bar/22 13/9"


@pytest.mark.parametrize("written", ["6/off 5/off", "6/0 5/0", "6/o 5/o", "6/OFF 5/Off"])
def test_bearing_off_is_read_in_every_form(written: str) -> None:
    points = [""] * 24
    points[5], points[4], points[23] = "w", "w", "b" * 15
    position = Position(Variant.BACKGAMMON, W, tuple(points), off=(13, 0))
    play = position.parse_play(written, (6, 5))
    assert play is not None and play.after_moves.off == (15, 0)


def test_repeated_steps_and_counts_are_read() -> None:
    start = Position.initial()
    assert start.parse_play("13/9(2)", (2, 2)) == start.parse_play("13/11/9 13/11/9", (2, 2))
    assert start.parse_play("24/18(2) 13/7(2)", (6, 6)) == start.parse_play("24/18 24/18 13/7 13/7", (6, 6))
    with pytest.raises(IllegalPlayError, match="does not use the dice as the rules require"):
        start.parse_play("13/7(2)", (6, 6))  # two of the four sixes


# -- result lines --------------------------------------------------------------------------------

def test_backgammon_galaxy_losses_line_is_the_other_side_winning() -> None:
    text = (" 3 point match\n\n Game 1\n lasse : 0                       paese : 0\n"
            "  1)                             31: 8/5 6/5\n"
            "  2) 61: 13/7 8/7                 Losses 1 point\n\n"
            "      Wins 1 point\n")
    match, problems, _ = read(text)
    assert not problems and match.games[0].winner is B and match.score == (0, 1)


def test_a_losses_line_at_the_left_edge_is_settled_by_the_wins_line_after_it() -> None:
    text = (" 3 point match\n\n Game 1\n lasse : 0                       paese : 0\n"
            "  1)                             31: 8/5 6/5\n"
            "  2) 61: 13/7 8/7               42: 8/4 6/4\n"
            " Losses 1 point\n\n"
            "      Wins 1 point\n")
    match, problems, _ = read(text)
    assert not problems and match.games[0].winner is B


def test_points_capped_at_what_the_winner_needed_or_the_length_are_accepted_with_a_note() -> None:
    base = (" 3 point match\n\n Game 1\n Boris : 0                      Wendy : 0\n"
            "  1)                             31: 8/5 6/5\n"
            "  2)  Doubles => 2                Takes\n"
            "  3) 61: 13/7 8/7\n"
            "                                  Wins {} points and the match\n")
    problems, notes = verdict_of(base.format(3))  # a gammon resignation at cube 2 is 4: 3 counted
    assert not problems and len(notes) == 1 and "counted toward the match" in notes[0]
    problems, _ = verdict_of(base.format(5))
    assert problems and "Wins 5 cannot be: with the cube at 2 a game is worth 2, 4 or 6" in problems[0]


def money_session_with_a_jacoby_gammon() -> tuple[Match, list[int]]:
    """A money session played with the Jacoby rule where a game before the last is a gammon won with
    the cube never turned (counted single), and the numbers of such games."""
    for seed in range(60):
        match = random_match(Variant.BACKGAMMON, None, MatchOptions(jacoby=True), random.Random(seed),
                             cube_rate=0.0, resign_rate=0.0, money_games=3)
        ends = [e for e in match.events if e["type"] == "game_end"]
        games = [n for n, e in enumerate(ends[:-1], 1) if e["reason"] == "bearoff" and e["kind"] != "single"]
        if games:
            return match, games
    pytest.fail("no session with a gammon counted single before its last game")


def test_a_money_session_under_the_jacoby_header_counts_a_gammon_with_the_cube_never_turned_single() -> None:
    """eXtreme Gammon's money sessions (`0 point match`) state `; [Jacoby "On"]` and write such a gammon
    as `Wins 1 point`: the rules of the header, so the session reads back to the points written."""
    match, _ = money_session_with_a_jacoby_gammon()
    text = '; [Site "XG Mobile"]\n; [Jacoby "On"]\n\n' + export_mat(match)
    assert " 0 point match" in text and "Wins 2 point" not in text
    read_back, problems, notes = read(text)
    assert not problems and not notes
    assert read_back.options.jacoby and positions(read_back) == positions(match)
    assert read_back.score == match.score


def test_a_note_on_a_result_line_names_the_game_that_ended() -> None:
    """With no Jacoby header (Backgammon Galaxy's money games), `Wins 1 point` for such a gammon is
    accepted with a note; the result line is read when the game is over, and the note names that game."""
    match, games = money_session_with_a_jacoby_gammon()
    _, problems, notes = read(export_mat(match))
    assert not problems
    assert [n.game for n in notes if "never turned counted single" in n.rule] == games


@pytest.mark.parametrize("column", ["winner", "loser"])
@pytest.mark.parametrize("words", ["Resigned Game", "Resigned Match", "Resigns"])
def test_a_resignation_said_in_words_before_its_result_line(words: str, column: str) -> None:
    # OpenGammon writes "Resigned Game" / "Resigned Match" in the winner's column, Jellyfish
    # "Resigns" in the resigner's: the Wins line after the words says who won, whichever column.
    where = "  2)                             " if column == "winner" else "  2) "
    text = (" 3 point match\n\n Game 1\n Boris : 0                      Wendy : 0\n"
            "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
            f"{where}{words}\n"
            "                                  Wins 1 point\n")
    match, problems, _ = read(text)
    assert not problems and match.score == (1, 0) and match.games[0].winner is W
    assert [p["type"] for p in match.events if p["type"] == "play"] == ["play", "play"]


def test_resigned_words_with_no_result_line_still_end_with_no_result() -> None:
    text = (" 3 point match\n\n Game 1\n Boris : 0                      Wendy : 0\n"
            "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
            "  2) Resigns\n\n"
            " Game 2\n Boris : 0                      Wendy : 1\n"
            "  1)                             31: 8/5 6/5\n")
    problems, _ = verdict_of(text)
    assert len(problems) == 1 and problems[0].startswith("game 1 ends with no result")


def test_choue_nets_double_arrow_is_a_double() -> None:
    text = HEAD + ("  2)  Doubles ==> 2               Takes\n"
                   "  3) 42: 8/4 6/4\n"
                   "                                  Wins 2 point\n")
    match, problems, _ = read(text)
    assert not problems and match.games[0].winner is W and match.score == (2, 0)


def test_a_resignation_before_the_opening_roll() -> None:
    text = (" 3 point match\n\n Game 1\n Boris : 0                      Wendy : 0\n"
            "                                  Wins 1 point\n\n"
            " Game 2\n Boris : 0                      Wendy : 1\n"
            "  1)                             31: 8/5 6/5\n")
    match, problems, notes = read(text)
    assert not problems and match.score == (1, 0)
    assert notes[0].rule == "black resigned game 1 before its opening roll"


def test_a_match_conceded_is_more_than_a_game_can_be_worth() -> None:
    text = (" 5 point match\n\n Game 1\n lasse : 0                       eighttimez8 : 0\n"
            "  1) 61: 13/7 8/7                 Losses 5 point\n\n"
            "      Wins 5 point and the match\n")
    match, problems, notes = read(text)
    assert not problems and match.is_over and match.winner is B
    assert "white conceded the match" in notes[0].rule


# Backgammon Studio writes a resignation that ends the match as `Wins 4016 point`.
CONCEDED_AT_CUBE_4 = HEAD + ("  2)  Doubles => 2                Takes\n"
                             "  3) 64: 24/18 13/9               Doubles => 4\n"
                             "  4)  Takes                       31: 8/5 6/5\n"
                             "  5) 52: ????\n")


def play_positions(match: Match) -> list[dict[str, Any]]:
    return [e["position"] for e in match.events if e["type"] == "play"]


def test_more_points_than_any_game_where_any_result_wins_the_match_is_the_match_conceded() -> None:
    # At cube 4 Wendy (white) needs 3: whatever Boris resigned, the match is hers.
    match, problems, notes = read(CONCEDED_AT_CUBE_4 + "                                  Wins 4016 point\n")
    assert not problems and match.is_over and match.winner is W
    assert notes[-1].rule == ("Wins 4016, no game's worth at cube 4, but any result there gives white the match "
                              "(3 needed): black conceded the match")
    single, problems, _ = read(CONCEDED_AT_CUBE_4 + "                                  Wins 4 point\n")
    assert not problems and play_positions(match) == play_positions(single) and len(play_positions(match)) == 3


def test_more_points_than_any_game_where_a_single_game_would_not_win_the_match_is_a_problem() -> None:
    text = HEAD + ("  2)  Doubles => 2                Takes\n"
                   "  3) 64: 24/18 13/9\n"
                   "                                  Wins 4016 point\n")
    problems, _ = verdict_of(text)  # cube 2, Wendy needs 3: the points say nothing a referee can use
    assert len(problems) == 1 and "Wins 4016 cannot be: with the cube at 2" in problems[0]


def test_snowie_records_an_illegal_play_that_was_let_stand() -> None:
    # White opens 31 and plays 8/4 6/5 (no 4 was rolled); Snowie writes the position after it.
    doc = Position.initial().to_document()
    doc["points"][7], doc["points"][3] = ["w", "w"], ["w"]
    doc["points"][5], doc["points"][4] = ["w"] * 4, ["w"]
    after = Position.from_document(doc).pass_turn()  # Black to roll
    text = (" 3 point match\n\n Game 1\n Boris : 0                      Wendy : 0\n"
            f"  1)                             31: Illegal play ({_snowie_fields(after)})\n"
            "  2) 64: 24/18 13/9\n")
    match, problems, notes = read(text)
    assert not problems and "an illegal play let stand" in notes[0].rule
    played = dict(match.events[3])
    assert played["accepted_illegal"] and played["position"] == after.pass_turn().to_document()


def _snowie_fields(position: Position) -> str:
    """A position in Snowie's fields, with the player on roll's points positive."""
    on_roll = position.turn
    values = []
    for own in range(1, 25):
        stack = position.own_stack(on_roll, own)
        values.append(len(stack) if stack[:1] == on_roll.char else -len(stack))
    return ";".join(["3", "0", "0", "0", "0", "Wendy", "Boris", "0", "0", "0", "1", "0",
                     str(position.bar[on_roll.index]), *map(str, values), str(position.bar[on_roll.opponent.index]),
                     "0", "0"]) + ";"


def test_a_snowie_record_no_play_can_reach_is_a_problem() -> None:
    # Snowie's record of a game whose plays were lost: from the opening straight to a bear-off, the
    # opponent's checkers borne off too. No play, legal or not, moves the opponent's checkers off.
    doc = Position.initial().to_document()
    doc["points"] = [[] for _ in range(24)]
    doc["points"][0], doc["points"][1] = ["w", "w"], ["w"]  # White: three checkers left
    doc["points"][23], doc["points"][22] = ["b", "b"], ["b"]  # Black: three checkers left
    doc["off"] = {"white": 12, "black": 12}
    after = Position.from_document(doc).pass_turn()  # Black to roll
    text = (" 3 point match\n\n Game 1\n Boris : 0                      Wendy : 0\n"
            f"  1)                             31: Illegal play ({_snowie_fields(after)})\n"
            "  2) 64: 1/off 2/off\n")
    problems, _ = verdict_of(text)
    assert len(problems) == 1
    assert "cannot follow from the position before it: black has 12 checkers off after it, 0 before" in problems[0]


def test_a_match_that_starts_midway_takes_the_score_it_states() -> None:
    text = (" 5 point match\n\n Game 3\n Boris : 2                      Wendy : 1\n"
            "  1)                             31: 8/5 6/5\n"
            "  2) 64: 24/18 13/9               \n")
    match, problems, notes = read(text)
    assert not problems and match.score == (1, 2) and match.game_number == 3
    assert "starts in the middle of the match: game 3 at white 1 black 2" in notes[0].rule


def test_a_midway_start_at_one_away_with_a_double_is_after_the_crawford_game() -> None:
    text = (" 7 point match\n\n Game 1\n PghPete,1635 : 6                 nori,1749 : 5\n"
            "  1) 62: 24/18 13/11              Doubles => 2\n"
            "  2)  Takes                      31: 8/5 6/5\n")
    match, problems, notes = read(text)
    assert not problems and match.cube.value == 2
    assert "after the Crawford game" in notes[0].rule


# -- what a dialect writes for rolls -------------------------------------------------------------

def test_question_marks_then_a_result_are_a_roll_then_a_resignation() -> None:
    text = (" 3 point match\n\n Game 1\n Boris : 0                      Wendy : 0\n"
            "  1)                             31: 8/5 6/5\n"
            "  2) 64: ????                      Wins 1 point\n")
    match, problems, _ = read(text)
    assert not problems and match.score == (1, 0)  # Boris rolled, then resigned


def test_a_play_cut_short_then_the_opponents_result_is_a_resignation_during_the_turn() -> None:
    # 64: 24/18 uses one die of two: the player stopped and resigned, and the Wins line says so.
    text = HEAD + ("  2) 64: 24/18\n"
                   "                                  Wins 1 point\n")
    match, problems, notes = read(text)
    assert not problems and match.score == (1, 0) and match.games[0].winner is W
    assert "'24/18' stops before the roll 64 is played out: black resigned during the turn" in notes[0].rule


def test_a_play_cut_short_anywhere_else_is_a_problem() -> None:
    problems, _ = verdict_of(HEAD + "  2) 64: 24/18                    31: 8/5 6/5\n")
    assert len(problems) == 1 and "it does not use the dice as the rules require" in problems[0]


def test_cannot_move_where_a_play_exists_is_a_missing_play() -> None:
    problems, _ = verdict_of(HEAD + "  2) 64: Cannot Move              31: 8/5 6/5\n")
    assert len(problems) == 1 and "the play of 64 is missing: 'Cannot Move' is written" in problems[0]


# -- corrupt files stay rejected, with one problem each -------------------------------------------

def test_impossible_points_for_the_cube() -> None:
    text = HEAD + ("  2)  Doubles => 2                Takes\n"
                   "                                  Wins 100 points\n")
    problems, _ = verdict_of(text)
    assert len(problems) == 1 and "Wins 100 cannot be: with the cube at 2" in problems[0]


def test_a_game_that_ends_with_no_result() -> None:
    text = HEAD + ("\n"
                   " Game 2\n Boris : 0                      Wendy : 1\n"
                   "  1)                             31: 8/5 6/5\n")
    problems, _ = verdict_of(text)
    assert len(problems) == 1 and problems[0].startswith("game 1 ends with no result")


def test_plays_missing_where_legal_plays_existed() -> None:
    text = HEAD + "  2) 64:                           42: 8/4 6/4\n"
    problems, _ = verdict_of(text)
    assert len(problems) == 1 and "the play of 64 is missing" in problems[0]


@pytest.mark.parametrize("board", ["----cBD-D-B--A--Abcdc---A-", "-b----E-C---eE---c-e----B-"])
def test_a_game_from_a_set_position_is_no_game_from_the_opening(board: str) -> None:
    # eXtreme Gammon writes `; Set Pos=` where a game starts from a position set up by hand
    text = (" 3 point match\n\n Game 1\n Boris : 0                      Wendy : 0\n"
            f"; Set Pos={board}/0\n"
            "  1)                             21: 13/11 6/5\n")
    problems, _ = verdict_of(text)
    if board == "-b----E-C---eE---c-e----B-":  # the opening position itself: nothing was set up
        assert problems == []
    else:
        assert problems == [f"game 1 starts from a set position ('Set Pos={board}'), not the opening one: "
                            "no game from the opening is written"]


def test_a_stray_row_number_inside_a_row() -> None:
    text = HEAD + "  2) 64: 24/18 13/9      2)  Losses 1 point      Wins 1 point\n"
    problems, _ = verdict_of(text)
    assert len(problems) == 1 and "a stray row number '2)' inside a row" in problems[0]


def test_a_money_session_whose_games_are_each_headed_0_0_is_taken_as_written(tmp_path: Path) -> None:
    text = (" 0 point match\n\n Game 1\n gobetzu : 0                     torsten : 0\n"
            "  1) 65: 24/18 13/8              31: 8/5 6/5\n      Wins 1 point\n\n"
            " Game 2\n gobetzu : 0                     torsten : 0\n"
            "  1)                             53: 8/3 6/3\n"
            "  2) 42: 24/20 13/11             61: 13/7 8/7\n"
            "                                  Wins 3 point\n")
    _, problems, notes = read(text)
    assert not problems and "game 2 of the money session is headed white 0 black 0" in notes[0].rule
    path = tmp_path / "money.mat"
    path.write_text(text)
    verdict = validate_file(str(path))  # it ends between games: the whole session
    assert verdict.exit_code == 0 and verdict.complete and verdict.match is not None
    assert verdict.match.score == (3, 0)


def test_tabs_between_cells_keep_their_columns() -> None:
    text = (" 3 point match\n\n Game 1\n Boris : 0\t\t\tWendy : 0\n"
            "  1)\t\t\t\t31: 8/5 6/5\n"
            "  2) 64: 24/18 13/9\t\t52: 13/8 13/11\n"
            "  3)\tDoubles => 2\t\t\tDrops\n"
            "\tWins 1 point\n")
    match, problems, _ = read(text)
    assert not problems and match.score == (0, 1) and match.games[0].reason == "pass"


def test_validating_a_transcript_loads_nothing_of_the_chouette_nor_of_a_records_integrity(tmp_path: Path) -> None:
    # a .mat is never a chouette session's record, and has no chain or signature: its verdict need not
    # pay for the chouette's imports, nor for the integrity's (hashlib, base64)
    import subprocess
    import sys

    path = tmp_path / "match.mat"
    one_point = HEAD.replace(" 3 point match", " 1 point match")
    path.write_text(one_point + "                                  Wins 1 point and the match\n")
    script = ("import io, sys\nfrom game.cli import main\n"
              f"code = main(['validate', {str(path)!r}], io.StringIO())\n"
              "print(code, 'game.chouette.validate' in sys.modules, 'importlib.metadata' in sys.modules,\n"
              "      'game.integrity' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["0", "False", "False", "False"]
