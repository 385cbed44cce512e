"""The translations that benchmarks/bench_external.py hands to engines written elsewhere: a
Catchgammon position as the Plakoto program (johannesnorbertwolf/tavli) holds its board, a
Rungammon position as the Fevga program (mvichosfm/fevga) holds its game. Checked on hand-built
positions. Against the engines' own move generators (which need the engines, kept outside this
tree) the benchmark checks them itself before it measures (`check_rules` there). And the engine's
process: the Plakoto adapter's first answer, with stand-ins for the program's modules, and a line
that is not an answer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import pytest
from repo import benchmark

from game.board import Color, Variant, board_point, own_point
from game.position import Position

bench = benchmark("bench_external")


def catchgammon(points: dict[int, str], turn: Color = Color.WHITE, off: tuple[int, int] = (0, 0)) -> Position:
    board = [""] * 24
    for point, stack in points.items():
        board[point - 1] = stack
    return Position(Variant.CATCHGAMMON, turn, tuple(board), off=off)


def test_the_plakoto_start_puts_each_side_on_the_programs_own_start() -> None:
    board = bench.plakoto_board(Position.initial(Variant.CATCHGAMMON))
    # its Black starts on its 24 and runs down (this project's White), its White on its 1
    assert (board["n"][24], board["color"][24]) == (15, bench.TAVLI_BLACK)
    assert (board["n"][1], board["color"][1]) == (15, bench.TAVLI_WHITE)
    assert sum(board["n"]) == 30 and not any(board["pinned"])
    assert board["off"] == {"-1": 0, "1": 0}


def test_a_trapped_checker_is_the_programs_pin_under_the_owners_stack() -> None:
    position = catchgammon({24: "w" * 9, 5: "bww", 19: "wb", 1: "b" * 11, 6: "b"}, off=(3, 1))
    board = bench.plakoto_board(position)
    assert (board["n"][5], board["color"][5], board["pinned"][5]) == (2, bench.TAVLI_BLACK, True)
    assert (board["n"][19], board["color"][19], board["pinned"][19]) == (1, bench.TAVLI_WHITE, True)
    assert (board["n"][6], board["color"][6], board["pinned"][6]) == (1, bench.TAVLI_WHITE, False)
    # borne off: this project's White into the program's slot 0 (its Black's), Black into slot 25
    assert (board["n"][0], board["color"][0], board["n"][25], board["color"][25]) == (3, -1, 1, 1)
    assert board["off"] == {"-1": 3, "1": 1}
    checkers = sum(board["n"][1:25]) + sum(board["pinned"]) + board["n"][0] + board["n"][25]
    assert checkers == 30


def test_the_plakoto_colours_follow_the_direction_of_play() -> None:
    assert bench.tavli_color(Color.WHITE) == bench.TAVLI_BLACK  # runs 24 -> 1 in both
    assert bench.tavli_color(Color.BLACK) == bench.TAVLI_WHITE
    with pytest.raises(ValueError, match="Catchgammon"):
        bench.plakoto_board(Position.initial(Variant.RUNGAMMON))


def test_the_fevga_game_counts_each_side_on_its_own_points() -> None:
    start = bench.fevga_game(Position.initial(Variant.RUNGAMMON))
    assert start["pos"][0][24] == 15 and start["pos"][1][24] == 15 and start["off"] == [0, 0]
    board = [""] * 24
    board[12 - 1] = "b" * 13  # Black's own 24
    board[1 - 1] = "b"  # Black's own 13, past White's start
    board[24 - 1] = "w" * 14
    board[20 - 1] = "w"
    game = bench.fevga_game(Position(Variant.RUNGAMMON, Color.BLACK, tuple(board), off=(0, 1)))
    assert game["pos"][1][24] == 13 and game["pos"][1][13] == 1 and game["pos"][0][20] == 1
    assert sum(game["pos"][1]) == 14 and game["off"] == [0, 1]
    assert bench.fevga_side(Color.WHITE) == 0 and bench.fevga_side(Color.BLACK) == 1


def test_the_fevga_programs_map_between_the_sides_points_is_rungammons() -> None:
    # the program: one player's point r is the other's S(r) = ((r + 11) % 24) + 1
    for own in range(1, 25):
        where = board_point(Variant.RUNGAMMON, Color.BLACK, own)
        assert own_point(Variant.RUNGAMMON, Color.WHITE, where) == ((own + 11) % 24) + 1


def test_an_engine_line_that_is_not_json_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    # what the Plakoto program prints while it first builds its bear-off database once came first on
    # the answers' stream; the adapter now keeps it off, and a line like it is named if one comes
    with pytest.raises(bench.EngineFailed, match=r"not JSON: 'bear-off DB: 5000/54264 states \(11s\)'"):
        bench.EngineProcess([sys.executable, "-c", "print('bear-off DB: 5000/54264 states (11s)')"], tmp_path)


def test_the_plakoto_adapter_keeps_what_the_engine_prints_while_loading_off_the_answers(tmp_path: Path) -> None:
    # a stand-in for the program's modules that the adapter loads, printing as its first load does
    stand_ins = {
        "torch.py": "def set_num_threads(n): pass\n",
        "config/config_loader.py": ("class ConfigLoader:\n"
                                    "    def __init__(self, path): self.config = {'gold_model_path': 'g.pth'}\n"),
        "domain/board.py": "class Board: pass\n",
        "ai/checkpoint_io.py": ("def load_agent_from_checkpoint(model, config):\n"
                                "    print('  bear-off DB: 5000/54264 states (11s)')\n"
                                "    class Agent: bearoff = object()\n"
                                "    return Agent(), {'encoder_version': 3, 'hidden_sizes': [8]}\n"),
    }
    for name, text in stand_ins.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    engine = bench.EngineProcess([sys.executable, "-c", bench.TAVLI_ADAPTER, str(tmp_path), ""], tmp_path)
    assert engine.loaded == {"model": "g.pth", "encoder": 3, "hidden": [8], "bearoff": True}
    engine.close()



@pytest.mark.parametrize("level", ["expert", "advanced"])
def test_a_budget_in_seconds_is_refused_for_a_level_that_has_none_before_any_engine_runs(
        tmp_path: Path, level: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        bench.main(["--engine-dir", str(tmp_path), "--ours", level, "--seconds", "0.5", "--games", "2"])
    assert exited.value.code == 2
    assert "--seconds 0.5: a budget is for the rollout level (--ours rollout) only" in capsys.readouterr().err


@pytest.mark.parametrize(("extra", "said"), [
    (["--ours", "expert", "--rollout-plies", "2"], "--rollout-plies: for the rollout level (--ours rollout) only"),
    (["--confidence", "1.5"], "--confidence: for the rollout level (--ours rollout) only"),
    (["--ours", "rollout", "--confidence", "-1"], "'-1': a number of standard errors, 0 or more"),
    (["--ours", "rollout", "--rollout-plies", "0"], "'0': a number of plays of 1 or more, or none"),
    (["--ours", "expert", "--rollout-luck", "off"], "--rollout-luck: for the rollout level (--ours rollout) only"),
    (["--ours", "rollout", "--rollout-luck", "maybe"], "'maybe': on or off"),
])
def test_the_rollout_levels_settings_are_refused_where_they_mean_nothing(
        tmp_path: Path, extra: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        bench.main(["--engine-dir", str(tmp_path), "--games", "2", *extra])
    assert exited.value.code == 2 and said in capsys.readouterr().err


def test_the_rollout_level_is_measured_with_the_truncation_and_confidence_asked() -> None:
    import argparse

    from game.bot.rollout_bot import TRUNCATE, RolloutBot

    def refuse(message: str) -> NoReturn:
        raise AssertionError(message)

    asked = argparse.Namespace(ours="rollout", seconds=0.5, ours_weights=None, two_ply=None, rollout_plies=None,
                               confidence=2.0, rollout_luck=None)
    ours, said = bench.our_bot(asked, Variant.RUNGAMMON, refuse)
    assert isinstance(ours, RolloutBot) and ours.plies is None and ours.confidence == 2.0 and ours.seconds == 0.5
    assert said == ", its games to the end, the expert's play overruled by a lead of more than 2 standard errors"
    ours, said = bench.our_bot(argparse.Namespace(**{**vars(asked), "rollout_plies": False, "confidence": 0.0}),
                               Variant.RUNGAMMON, refuse)
    assert isinstance(ours, RolloutBot) and ours.plies == TRUNCATE and ours.confidence == 0.0
    assert said == f", its games {TRUNCATE} plays deep, the best mean played"
    ours, said = bench.our_bot(argparse.Namespace(**{**vars(asked), "rollout_plies": 2, "confidence": 0.0,
                                                     "rollout_luck": False}), Variant.RUNGAMMON, refuse)
    assert isinstance(ours, RolloutBot) and ours.plies == 2 and not ours.luck
    assert said == ", its games 2 plays deep without luck adjustment, the best mean played"


def test_a_run_from_pair_n_plays_the_dice_of_the_pairs_after_the_first_n() -> None:
    from game.bot.base import Level
    from game.bot.baselines import HeuristicBot
    from game.bot.factory import make_bot

    variant = Variant.RUNGAMMON
    ours, theirs = make_bot(variant, Level.ADVANCED, seed=1), HeuristicBot(variant)  # neither draws at random

    def run(pairs: int, first: int) -> tuple[int, int, int]:
        score = bench.paired_match(ours, theirs, variant, pairs, 7, progress=False, first=first)
        return score.wins, score.points, score.games

    each = [run(1, pair) for pair in range(6)]
    assert len({points for _, points, _ in each}) > 1  # the pairs' dice differ
    whole, later = run(6, 0), run(3, 3)
    assert whole == tuple(map(sum, zip(*each, strict=True)))
    assert later == tuple(map(sum, zip(*each[3:], strict=True)))


paired = benchmark("paired")


def test_each_games_line_pools_into_the_runs_figure_and_parts_into_the_whole(tmp_path: Path) -> None:
    from game.bot.base import Level
    from game.bot.baselines import HeuristicBot
    from game.bot.factory import make_bot

    variant = Variant.RUNGAMMON
    ours, theirs = make_bot(variant, Level.ADVANCED, seed=1), HeuristicBot(variant)

    def run(name: str, pairs: int, first: int) -> object:
        with (tmp_path / name).open("x", encoding="utf-8") as out:
            return bench.paired_match(ours, theirs, variant, pairs, 7, progress=False, first=first, games_out=out)

    whole = run("whole.jsonl", 4, 0)
    run("part1.jsonl", 1, 0)
    run("part2.jsonl", 3, 1)
    assert paired.score(paired.read_games([tmp_path / "whole.jsonl"])) == whole
    assert paired.score(paired.read_games([tmp_path / "part2.jsonl", tmp_path / "part1.jsonl"])) == whole
    both = paired.paired(paired.read_games([tmp_path / "whole.jsonl"]),
                         paired.read_games([tmp_path / "part1.jsonl", tmp_path / "part2.jsonl"]))
    assert both.games == 8 and both.difference == 0 and both.only_first_won == both.only_second_won == 0
    with pytest.raises(paired.GamesError, match=r"whole.jsonl:1: the game of seed 7, pair 0, ours white is in "):
        paired.read_games([tmp_path / "part1.jsonl", tmp_path / "whole.jsonl"])


def test_two_levels_are_set_side_by_side_on_the_games_both_played(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("".join(bench.game_line(1, pair, side, points, 0) for pair, side, points in
                             [(0, Color.WHITE, 1), (0, Color.BLACK, -1), (1, Color.WHITE, 2), (1, Color.BLACK, 1),
                              (2, Color.WHITE, 1)]))
    second.write_text("".join(bench.game_line(1, pair, side, points, 0) for pair, side, points in
                              [(0, Color.WHITE, -1), (0, Color.BLACK, -1), (1, Color.WHITE, 1), (1, Color.BLACK, 1)]))
    both = paired.paired(paired.read_games([first]), paired.read_games([second]))
    assert both.games == 4  # pair 2 was played by the first alone
    assert (both.first.wins, both.second.wins, both.only_first_won, both.only_second_won) == (3, 2, 1, 0)
    # each game's difference: 2, 0 (pair 0), 1, 0 (pair 1): mean 0.75, sample variance 11/12
    assert both.difference == pytest.approx(0.75)
    assert both.half_width == pytest.approx(1.96 * (11 / 12 / 4) ** 0.5)


def test_a_line_that_is_no_game_is_named_with_its_file_and_line(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "g.jsonl"
    games.write_text(bench.game_line(1, 0, Color.WHITE, 1, 0) + '{"seed": 1, "pair": 0}\n')
    assert paired.main([str(games)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {games}:2: not a game's line ('ours'): ")


def test_a_games_file_there_already_is_refused_before_any_engine_runs(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    kept = tmp_path / "games.jsonl"
    kept.write_text("a measurement's games\n")
    with pytest.raises(SystemExit) as exited:
        bench.main(["--engine-dir", str(tmp_path), "--games", "2", "--games-out", str(kept)])
    assert exited.value.code == 2
    assert f"--games-out: '{kept}' is there already: name a new file" in capsys.readouterr().err
    assert kept.read_text() == "a measurement's games\n"


@pytest.mark.parametrize(("step", "lines"), [(0.0, 0), (1000.0, 3)])
def test_a_slow_measurement_says_how_far_it_is_between_its_every_25_pairs(
        step: float, lines: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from game.bot.baselines import HeuristicBot

    clock = iter(range(10_000))
    monkeypatch.setattr(bench.time, "monotonic", lambda: step * next(clock))  # each reading `step` seconds on
    variant = Variant.RUNGAMMON
    bench.paired_match(HeuristicBot(variant), HeuristicBot(variant), variant, 3, 7, progress=True)
    said = capsys.readouterr().err.splitlines()
    assert len(said) == lines and all(" of " in line and "games" in line for line in said)


def test_at_double_match_point_our_bot_plays_for_the_win_alone() -> None:
    from game.bot.base import Level
    from game.bot.factory import make_bot

    # 12/8*/6* wins more gammons and triples and fewer games than 19/17* 12/8* (the advanced level's
    # judgement at 0-ply, which draws no noise): a money game and a 1-point match choose apart.
    position = Position.from_json(
        '{"variant":"catchgammon","turn":"white","points":[["b","b","b","b","b"],[],[],[],[],["b"],'
        '["b","w","w"],["b"],[],[],["b"],["w"],["w","b"],["b","w"],["b","w","w"],["b","w"],["b"],[],["w"],'
        '["w"],["b","w","w"],["w"],[],["w","w"]],"bar":{"white":0,"black":0},"off":{"white":0,"black":0}}')
    bot = make_bot(Variant.CATCHGAMMON, Level.ADVANCED, seed=1)
    for_money = bot.choose_play(position, (2, 4))
    at_dmp = bench.AtScore(bot, bench.DOUBLE_MATCH_POINT).choose_play(position, (2, 4))
    assert for_money is not None and at_dmp is not None
    assert (for_money.notation(), at_dmp.notation()) == ("12/8*/6*", "19/17* 12/8*")
    ranked = {ranked.play: ranked for ranked in bot.rank_plays(position, (2, 4), bench.DOUBLE_MATCH_POINT)}
    assert ranked[at_dmp].probs[0] > ranked[for_money].probs[0]  # the win, not the points
    for each in ranked.values():
        assert each.equity == pytest.approx(2 * each.probs[0] - 1, abs=1e-5)


def test_each_games_luck_rides_on_its_line_and_pools_into_the_luck_adjusted_figure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from game.bot.base import Level
    from game.bot.baselines import HeuristicBot
    from game.bot.factory import make_bot
    from game.bot.luck import LuckMeter, describe_adjusted

    variant = Variant.RUNGAMMON
    ours, theirs = make_bot(variant, Level.ADVANCED, seed=1), HeuristicBot(variant)
    meter = LuckMeter.shipped(variant)
    games = tmp_path / "games.jsonl"
    with games.open("x", encoding="utf-8") as out:
        score = bench.paired_match(ours, theirs, variant, 3, 7, progress=False, games_out=out, luck=meter)
    assert score == bench.paired_match(ours, theirs, variant, 3, 7, progress=False)  # the same games
    clock = iter(range(10_000))
    monkeypatch.setattr(bench.time, "monotonic", lambda: 1000.0 * next(clock))  # a progress line every pair
    bench.paired_match(ours, theirs, variant, 2, 7, progress=True, luck=LuckMeter.shipped(variant))
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 2 and all("; luck-adjusted " in line for line in said)
    assert len(meter.games) == 6 and sum(game.won for game in meter.games) == score.wins
    kept = paired.read_games([games])
    for (_, pair, side), game in kept.items():
        read = meter.games[2 * pair + (side == "black")].luck
        assert game.luck is not None and game.luck.wins == pytest.approx(read.wins, abs=1e-5)
        assert game.luck.points == pytest.approx(read.points, abs=1e-5)
    assert paired.main([str(games)]) == 0
    lucky = paired.adjusted(kept)
    assert lucky is not None and f"  {describe_adjusted(lucky)}\n" in capsys.readouterr().out
    plain = tmp_path / "plain.jsonl"
    plain.write_text("".join(bench.game_line(7, pair, Color(side), game.points, game.remis)
                             for (_, pair, side), game in kept.items()))
    assert paired.adjusted(paired.read_games([plain])) is None
    assert paired.main([str(plain)]) == 0 and "luck-adjusted" not in capsys.readouterr().out


def test_two_levels_games_with_their_luck_differ_by_their_luck_adjusted_results(tmp_path: Path) -> None:
    from game.bot.luck import Luck

    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(bench.game_line(1, 0, Color.WHITE, 1, 0, Luck(0.25, 0.5))
                     + bench.game_line(1, 0, Color.BLACK, -2, 0, Luck(-0.5, -1.0)))
    second.write_text(bench.game_line(1, 0, Color.WHITE, -1, 0, Luck(-0.25, -0.5))
                      + bench.game_line(1, 0, Color.BLACK, -1, 0, Luck(-0.25, -0.5)))
    said = paired.adjusted_difference(paired.read_games([first]), paired.read_games([second]))
    # wins less luck: 0.75 and 0.5 against 0.25 and 0.25: differences 0.5 and 0.25
    # points less luck: 0.5 and -1.0 against -0.5 and -0.5: differences 1.0 and -0.5
    wins_width = 1.96 * (0.03125 / 2) ** 0.5
    points_width = 1.96 * (1.125 / 2) ** 0.5
    assert said == (f"luck-adjusted difference: win rate +37.5 +- {100 * wins_width:.1f} points of percentage, "
                    f"+0.250 +- {points_width:.3f} points a game (95%)")
    without = tmp_path / "c.jsonl"
    without.write_text(bench.game_line(1, 0, Color.WHITE, 1, 0) + bench.game_line(1, 0, Color.BLACK, 1, 0))
    assert paired.adjusted_difference(paired.read_games([first]), paired.read_games([without])) is None


def test_a_games_luck_that_is_no_number_is_named_with_its_file_and_line(tmp_path: Path) -> None:
    games = tmp_path / "g.jsonl"
    games.write_text('{"seed": 1, "pair": 0, "ours": "white", "points": 1, "luck_wins": "NaN", "luck_points": 0}\n')
    with pytest.raises(paired.GamesError, match=r"g.jsonl:1: not a game's line"):
        paired.read_games([games])
    games.write_text('{"seed": 1, "pair": 0, "ours": "white", "points": 1, "luck_wins": 0.1}\n')
    with pytest.raises(paired.GamesError, match=r"g.jsonl:1: not a game's line \('luck_points'\)"):
        paired.read_games([games])


def test_the_games_by_luck_show_where_the_losses_lie(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from game.bot.luck import Adjusted, Luck

    games = [Adjusted(True, 1, Luck(0.5, 1.0)), Adjusted(True, 2, Luck(0.2, 0.4)), Adjusted(False, -1, Luck(0.1, 0.1)),
             Adjusted(True, 1, Luck(-0.3, -0.5)), Adjusted(False, -2, Luck(-0.9, -1.5))]
    lines = paired.by_luck(games)
    assert lines[1:] == ["+0.2 and more | 2 | 2 | 100.0% | 2 | 2 | 100.0%",
                         "+0.0 to +0.2 | 1 | 0 | 0.0% | 3 | 2 | 66.7%",
                         "-0.2 to +0.0 | 0 | 0 | - | 3 | 2 | 66.7%",
                         "-0.4 to -0.2 | 1 | 1 | 100.0% | 4 | 3 | 75.0%",
                         "-0.6 to -0.4 | 0 | 0 | - | 4 | 3 | 75.0%",
                         "below -0.6 | 1 | 0 | 0.0% | 5 | 3 | 60.0%"]
    kept = tmp_path / "g.jsonl"
    kept.write_text("".join(bench.game_line(1, pair, Color.WHITE, game.points, 0, game.luck)
                            for pair, game in enumerate(games)))
    assert paired.main([str(kept), "--by-luck"]) == 0
    assert "\n".join(lines) in capsys.readouterr().out
    plain = tmp_path / "plain.jsonl"
    plain.write_text(bench.game_line(1, 0, Color.WHITE, 1, 0))
    assert paired.main([str(plain), "--by-luck"]) == 2
    assert "--by-luck: some of these games were kept without their luck" in capsys.readouterr().err
