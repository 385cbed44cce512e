"""Jellyfish .mat transcripts: the exact layout, reading GNU Backgammon's, round trips, and GNU bg itself."""

import random
from pathlib import Path
from typing import Any

import pytest

from game.board import Color, Variant
from game.errors import MatFormatError, ReplayError
from game.mat import export_mat, import_mat, mat_events, replay_mat
from game.match import Match, MatchOptions, Phase
from game.match_sim import random_match

W, B = Color.WHITE, Color.BLACK


def scripted() -> Match:
    """Two games of a 3-point match: a take, a hit, resignations (one after rolling), Crawford."""
    m = Match(length=3, players=("Wendy", "Boris"), clock=lambda: 0.0)
    m.opening_roll(3, 1)
    m.play("8/5 6/5")
    m.roll(6, 4)
    m.play("24/18 13/9")
    m.double(W)
    m.take(B)
    m.roll(6, 6)
    m.play("24/18(2) 13/7(2)")
    m.resign(B, "single")
    m.accept_resignation(W)
    m.opening_roll(2, 4)
    m.play("13/11 13/9")
    m.roll(5, 5)
    m.play("13/3(2)")
    m.roll(3, 3)
    m.resign(W)
    m.accept_resignation(B)
    return m


SCRIPTED_MAT = (
    " 3 point match\n"
    "\n"
    " Game 1\n"
    " Boris : 0                      Wendy : 0\n"
    "  1)                             31: 8/5 6/5\n"
    "  2) 64: 24/18 13/9               Doubles => 2\n"
    "  3)  Takes                      66: 24/18(2) 13/7*(2)\n"
    "                                  Wins 2 points\n"
    "\n"
    " Game 2\n"
    " Boris : 0                      Wendy : 2\n"
    "  1) 42: 13/11 13/9              55: 13/3(2)\n"
    "  2) 33:                         \n"
    "      Wins 1 point\n"
    "\n"
)

# Written by GNU Backgammon 1.08 (`export match mat`): a game in progress, White to play 41.
GNUBG_MAT = (
    '; [EventDate "2026.11.30"]\n'
    "\n"
    " 3 point match\n"
    "\n"
    " Game 1\n"
    " gnubg : 0                      root : 0\n"
    "  1)                             31: 8/5 6/5 \n"
    "  2) 52: 13/8 13/11               Doubles => 2\n"
    "  3)  Takes                      64: 24/18 13/9 \n"
    "  4) 66: 24/18 24/18 13/7* 13/7  41: \n"
)


def comparable(match: Match) -> list[dict[str, Any]]:
    """Events a .mat can carry: no timestamps, no re-rolled opening ties, no declined resignations,
    plays by the position they make."""
    kept: list[dict[str, Any]] = []
    for event in match.events:
        if event["type"] == "opening_roll" and event["white"] == event["black"]:
            continue
        if event["type"] == "resign_decline":
            kept.pop()  # the resign it declines
            continue
        # a .mat names each play by its points, not by the path between them: positions, not moves
        kept.append({k: v for k, v in event.items() if k != "t" and not (k == "moves" and event["type"] == "play")})
    return kept


def test_export_lays_out_columns_cube_actions_hits_and_results_as_gnubg_does() -> None:
    assert export_mat(scripted()) == SCRIPTED_MAT


def test_the_scripted_transcript_imports_back_to_the_same_match() -> None:
    again = import_mat(SCRIPTED_MAT)
    assert comparable(again) == comparable(scripted())
    assert again.score == (2, 1) and again.players == ("Wendy", "Boris") and again.post_crawford


def test_a_transcript_written_by_gnubg_is_read_up_to_where_it_stops() -> None:
    match = import_mat(GNUBG_MAT)
    assert match.players == ("root", "gnubg")
    assert (match.cube.value, match.cube.owner) == (2, B)
    assert (match.phase, match.on_roll, match.dice, match.move_number) == (Phase.MOVE, W, (4, 1), 4)


@pytest.mark.parametrize("seed", range(6))
def test_random_matches_survive_export_and_import(seed: int) -> None:
    match = random_match(Variant.BACKGAMMON, 7, rng=random.Random(seed), cube_rate=0.05, resign_rate=0.01)
    assert comparable(import_mat(export_mat(match))) == comparable(match)


def test_a_money_session_with_beavers_survives_export_and_import() -> None:
    options = MatchOptions(jacoby=True, beavers=True, max_cube=32)
    match = random_match(Variant.BACKGAMMON, None, options, random.Random(4), cube_rate=0.1, money_games=6)
    assert any(e["type"] == "beaver" for e in match.events)
    text = export_mat(match)
    assert text.startswith(" 0 point match\n") and "Beavers => " in text
    again = import_mat(text, options)
    assert comparable(again) == comparable(match) and again.is_over


def test_what_the_format_cannot_hold_is_refused() -> None:
    with pytest.raises(MatFormatError, match="Backgammon only"):
        export_mat(Match(Variant.CATCHGAMMON, 3))
    with pytest.raises(MatFormatError, match="automatic doubles"):
        export_mat(Match(length=None, options=MatchOptions(automatic_doubles=True)))


def test_text_that_is_not_a_transcript_is_refused() -> None:
    with pytest.raises(MatFormatError, match="point match"):
        list(mat_events("hello\n"))
    replayer = replay_mat(" 1 point match\n\n Game 1\n a : 0   b : 0\n  1) Hello 31: 8/5 6/5\n", strict=False)
    assert [p.line for p in replayer.problems] == [5] and "cannot read 'Hello'" in replayer.problems[0].rule
    replayer = replay_mat(" 1 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5 Hello\n", strict=False)
    assert [p.line for p in replayer.problems] == [5] and "Hello" in replayer.problems[0].rule


def test_an_illegal_move_in_a_transcript_is_reported_with_its_line() -> None:
    bad = SCRIPTED_MAT.replace("24/18 13/9", "24/14 13/9")
    with pytest.raises(ReplayError) as info:
        import_mat(bad)
    problem = info.value.problem
    assert (problem.line, problem.game, problem.move) == (6, 1, 2)
    assert "not a legal play of 64" in problem.rule


def test_a_wrong_result_line_is_reported() -> None:
    bad = SCRIPTED_MAT.replace("Wins 2 points", "Wins 5 points")  # no resignation scores 5 at cube 2
    replayer = replay_mat(bad, strict=False)
    assert [(p.line, p.game) for p in replayer.problems] == [(8, 1)]
    assert "Wins 5 cannot be: with the cube at 2 a game is worth 2, 4 or 6" in replayer.problems[0].rule


def test_a_wrong_score_line_is_reported() -> None:
    bad = SCRIPTED_MAT.replace("Wendy : 2", "Wendy : 1")
    replayer = replay_mat(bad, strict=False)
    assert [(p.line, p.game) for p in replayer.problems] == [(11, 2)]
    assert "'score'" in replayer.problems[0].rule


def test_a_double_in_the_crawford_game_is_reported() -> None:
    bad = SCRIPTED_MAT.replace("  2) 33:                         \n",
                               "  2)  Doubles => 2\n")
    replayer = replay_mat(bad, strict=False)
    assert len(replayer.problems) == 1 and "Crawford" in replayer.problems[0].rule


# -- GNU Backgammon reads what we write ---------------------------------------------------

def gnubg_final_score(path: Path) -> tuple[int, int]:
    """(white, black) after GNU Backgammon imports a .mat: its player 1 is White, player 0 Black."""
    gnubg: Any = pytest.importorskip("gnubg")
    gnubg.command("set display off")
    gnubg.command(f"import mat {path}")
    score = {"X": 0, "O": 0}
    for game in gnubg.match()["games"]:
        info = game["info"]
        if info.get("winner"):
            score[info["winner"]] += info["points-won"]
    return score["O"], score["X"]


@pytest.mark.parametrize("seed", range(4))
def test_gnubg_imports_our_transcripts_with_the_same_final_score(seed: int, tmp_path: Path) -> None:
    match = random_match(Variant.BACKGAMMON, 5, rng=random.Random(100 + seed), cube_rate=0.05,
                         resign_rate=0.005)
    path = tmp_path / "match.mat"
    path.write_text(export_mat(match))
    assert gnubg_final_score(path) == match.score


def test_gnubg_reads_the_scripted_transcript(tmp_path: Path) -> None:
    path = tmp_path / "scripted.mat"
    path.write_text(SCRIPTED_MAT)
    assert gnubg_final_score(path) == (2, 1)
