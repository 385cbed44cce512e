"""Rule options (game/rules.py, game/RULES.md "Rule options"): one value that the position, both
move-generator kernels, the match and its record, the replay and `validate`, the `.mat` writer and
reader, the table's command line and configuration and the bot all read. Nackgammon is checked
against GNU Backgammon (Debian's gnubg plays it and reads and writes its `.mat`); the mother
checker, which no program here plays, against the rule as RULES.md states it, in both kernels."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gnubg_reader import INSTALL_HINT, compare, gnubg_found, gnubg_import, gnubg_self_play, our_boards
from hypothesis import HealthCheck, given, settings
from room_fixtures import require
from strategies import dice, positions

from firmware_host.cli import _settings, build_parser
from firmware_host.config import load_config
from firmware_host.errors import ConfigError
from game import Color, Match, MatchOptions, Position, Variant, read_match
from game.errors import IllegalPlayError, MatFormatError, OptionDisabled, PositionError, RuleOptionError
from game.mat import export_mat, import_mat
from game.match_sim import random_match
from game.movegen import available_kernels, encode, state_count, state_plays, use_kernel
from game.movegen import pure as pure_kernel
from game.movegen.state import MOTHER_CHECKER, kernel_rules
from game.record import record_bytes, replay_record
from game.rules import STANDARD, RuleOptions
from game.selfplay import random_positions
from game.validate import validate_file

NACK = RuleOptions(nackgammon=True)
MOTHER = RuleOptions(mother_checker=True)
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


# -- the options themselves ---------------------------------------------------------------

def test_options_read_and_write_as_words_and_documents() -> None:
    assert RuleOptions.parse("Nackgammon, mother-checker") == RuleOptions(nackgammon=True, mother_checker=True)
    assert RuleOptions.parse("standard") == RuleOptions.parse("") == STANDARD and not STANDARD
    assert RuleOptions.parse(MOTHER.words()) == MOTHER and RuleOptions.from_document(NACK.to_document()) == NACK
    with pytest.raises(RuleOptionError, match="unknown rule option 'hypergammon' "):
        RuleOptions.parse("hypergammon")
    with pytest.raises(RuleOptionError, match="true/false"):
        RuleOptions.from_document({"nackgammon": 1})


@pytest.mark.parametrize(("variant", "rules"), [(Variant.CATCHGAMMON, NACK), (Variant.RUNGAMMON, MOTHER),
                                                (Variant.BACKGAMMON, MOTHER)])
def test_an_option_of_another_variant_is_refused(variant: Variant, rules: RuleOptions) -> None:
    with pytest.raises(RuleOptionError, match=f"is for .*, not {variant.value}"):
        Position.initial(variant, rules=rules)
    with pytest.raises(OptionDisabled, match=f"not {variant.value}"):
        Match(variant, 5, MatchOptions(rules=rules))


def test_match_play_allows_rule_options_and_still_refuses_money_options() -> None:
    assert Match(length=5, options=MatchOptions(rules=NACK)).position == Position.initial(rules=NACK)
    with pytest.raises(OptionDisabled, match="match play has no Jacoby"):
        Match(length=5, options=MatchOptions(jacoby=True, rules=NACK))


def test_a_position_carries_its_rules_through_its_document_and_its_plays() -> None:
    start = Position.initial(Variant.CATCHGAMMON, rules=MOTHER)
    assert Position.from_json(start.to_json()) == start != Position.initial(Variant.CATCHGAMMON)
    assert start.to_document()["rules"] == {"mother_checker": True}
    assert "rules" not in Position.initial().to_document()  # documents without options are as before
    assert eval(repr(start), {"Position": Position}) == start
    assert all(play.after_moves.rules == MOTHER for play in start.legal_plays((6, 5)))
    assert start.play("24/18 24/19", (6, 5)).rules == MOTHER


# -- Nackgammon -------------------------------------------------------------------------------

def test_nackgammon_starts_as_rules_md_says() -> None:
    start = Position.initial(rules=NACK)
    for color in Color:
        mine = {own: start.own_stack(color, own).count(color.char) for own in range(1, 25)}
        assert {own: n for own, n in mine.items() if n} == {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
        assert start.pip_count(color) == 194


def test_an_xgid_refuses_to_write_a_nackgammon_position_as_standard() -> None:
    with pytest.raises(PositionError, match="an XGID cannot say the rule options nackgammon"):
        Position.initial(rules=NACK).xgid()
    assert Position.initial().xgid().startswith("XGID=")


def test_a_nackgammon_match_replays_from_its_record_and_validates() -> None:
    match = random_match(Variant.BACKGAMMON, 3, MatchOptions(rules=NACK), rng=random.Random(5))
    data = record_bytes(match)
    first = json.loads(data.splitlines()[0])
    assert first["type"] == "match_start" and first["options"]["rules"] == {"nackgammon": True}
    replayed = replay_record(data)
    assert replayed.options.rules == NACK and replayed.events == match.events
    assert read_match(data).position == match.position


def test_validate_replays_the_rules_the_first_line_names(tmp_path: Path) -> None:
    match = random_match(Variant.BACKGAMMON, 3, MatchOptions(rules=NACK), rng=random.Random(6))
    lines = record_bytes(match, chain=False).splitlines()
    path = tmp_path / "nack.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    verdict = validate_file(str(path), None)
    assert verdict.problems == [] and "\nrules: nackgammon (game/RULES.md" in verdict.render()
    start = json.loads(lines[0])
    del start["options"]["rules"]  # the same plays claimed under the standard rules: the start differs
    path.write_bytes(b"\n".join([json.dumps(start).encode(), *lines[1:]]) + b"\n")
    assert validate_file(str(path), None).problems


def test_a_nackgammon_mat_says_so_and_reads_back() -> None:
    match = random_match(Variant.BACKGAMMON, 3, MatchOptions(rules=NACK), rng=random.Random(7))
    text = export_mat(match)
    assert text.startswith('; [Variation "NackGammon"]\n')
    read = import_mat(text)
    assert read.options.rules == NACK and our_boards(read) == our_boards(match) and read.score == match.score
    assert not export_mat(random_match(Variant.BACKGAMMON, 1, rng=random.Random(7))).startswith(";")


def test_a_mat_of_a_variation_not_played_here_is_refused_in_one_line() -> None:
    text = export_mat(random_match(Variant.BACKGAMMON, 1, rng=random.Random(8)))
    with pytest.raises(MatFormatError, match="variation 'Hypergammon1' is not played here"):
        import_mat('; [Variation "Hypergammon1"]\n\n' + text)


@pytest.fixture(scope="module")
def gnubg_here() -> Iterator[None]:
    require("GNU Backgammon (/usr/games/gnubg)", gnubg_found(), INSTALL_HINT)
    yield


@pytest.mark.usefixtures("gnubg_here")
@pytest.mark.gnubg
@pytest.mark.slow
def test_gnu_backgammon_reads_our_nackgammon_mat_as_nackgammon(tmp_path: Path) -> None:
    matches = [random_match(Variant.BACKGAMMON, 3, MatchOptions(rules=NACK), rng=random.Random(seed))
               for seed in (11, 12)]
    paths = []
    for index, match in enumerate(matches):
        paths.append(tmp_path / f"nack-{index}.mat")
        paths[-1].write_text(export_mat(match))
    for match, imported in zip(matches, gnubg_import(paths), strict=True):
        assert imported.variation == "Nackgammon", imported.printed
        compared, differences = compare(our_boards(match), imported.games)
        assert differences == [] and compared > 40


@pytest.mark.usefixtures("gnubg_here")
@pytest.mark.gnubg
@pytest.mark.slow
def test_we_read_gnu_backgammons_own_nackgammon_matches_as_it_played_them(tmp_path: Path) -> None:
    for path, boards in gnubg_self_play([3, 4], 3, tmp_path, variation="nackgammon"):
        assert 'Variation "NackGammon"' in path.read_text()
        match = import_mat(path.read_text())
        assert match.options.rules == NACK
        compared, differences = compare(our_boards(match), boards)
        assert differences == [] and compared > 40


# -- the mother checker -----------------------------------------------------------------------

def mother_position(rules: RuleOptions = MOTHER, own_mother: str = "w" * 13) -> Position:
    """Catchgammon, White on roll: Black's mother checker alone on its start (board point 1, White's
    own 1-point), two White checkers on White's 5-point, White's own start holding `own_mother`."""
    points = [""] * 24
    points[0], points[4], points[12] = "b", "ww", "b" * (14 - own_mother.count("b"))
    points[23] = own_mother
    whites = sum(stack.count("w") for stack in points)
    points[10] += "w" * (15 - whites)
    return Position(Variant.CATCHGAMMON, Color.WHITE, tuple(points), rules=rules)


def test_trapping_the_mother_checker_wins_a_gammon_at_once() -> None:
    position = mother_position()
    play = position.parse_play("5/1*", (4, 1))  # one die: the game is over, the 1 is not played
    assert play is not None and len(play.moves) == 1
    assert play.after_moves.mother_trapped() is Color.BLACK
    result = play.after_moves.result()
    assert result is not None and (result.winner, int(result.kind)) == (Color.WHITE, 2)


def test_the_trap_ends_the_play_so_no_move_may_follow_it() -> None:
    position = mother_position()
    notations = {play.notation() for play in position.legal_plays((4, 1))}
    assert "5/1*" in notations and "5/4 5/1*" in notations  # the trap may come last
    assert "5/1* 24/23" not in notations and "5/1*/0" not in notations
    standard = {play.notation() for play in mother_position(STANDARD).legal_plays((4, 1))}
    assert "5/1*" not in standard and "24/23 5/1*" in standard  # without the rule both dice are played


def test_stopping_short_of_a_die_only_the_trap_can_play_is_no_play() -> None:
    position = mother_position()
    plays = position.legal_plays((4, 4))
    assert all(play.after_moves.mother_trapped() or len(play.moves) == 4 for play in plays)
    assert any(len(play.moves) < 4 for play in plays)
    with pytest.raises(IllegalPlayError):
        position.parse_play("24/20 24/20 24/20", (4, 4))  # three dice and stop, with the trap still there to play


def test_with_my_own_mother_trapped_the_trap_is_a_remi_as_before() -> None:
    position = mother_position(own_mother="wb")  # Black traps White's mother on White's 24-point
    play = position.parse_play("5/1* 11/10", (4, 1))  # an ordinary trap: the play goes on
    assert play is not None and len(play.moves) == 2
    after = play.after_moves
    assert after.mother_trapped() is None and after.result() is None and after.is_remi()


def test_a_match_ends_the_game_with_its_reason_and_the_record_replays_it() -> None:
    ended = []
    for seed in range(40):
        match = random_match(Variant.CATCHGAMMON, 3, MatchOptions(rules=MOTHER), rng=random.Random(seed),
                             cube_rate=0.0, resign_rate=0.0)
        ended += [game for game in match.games if game.reason == "mother_checker"]
        assert replay_record(record_bytes(match)).events == match.events
        if len(ended) >= 3:
            break
    assert len(ended) >= 3 and all(game.kind == "gammon" and game.points == 2 for game in ended)


def state_cases() -> Iterator[tuple[bytes, tuple[int, int]]]:
    corpus = random_positions(Variant.CATCHGAMMON, 3000, 24)
    for position, roll in corpus:
        yield encode(position), roll


def kernel_case(kernel: Any, state: bytes, roll: tuple[int, int]) -> tuple[Any, ...]:
    rules = kernel_rules(Variant.CATCHGAMMON, MOTHER)
    return kernel.plays(state, rules, *roll), kernel.count(state, rules, *roll)


def test_both_kernels_give_the_same_plays_under_the_mother_checker_rule() -> None:
    require("the compiled move-generator kernel", "compiled" in available_kernels(), "pip install -e .")
    from game.movegen import _kernel as compiled

    differing = 0
    for state, roll in state_cases():
        assert kernel_case(compiled, state, roll) == kernel_case(pure_kernel, state, roll), (state.hex(), roll)
        standard = state_plays(state, Variant.CATCHGAMMON, roll)
        differing += state_plays(state, Variant.CATCHGAMMON, roll, MOTHER) != standard
    assert differing > 20  # the corpus does meet the rule
    start = encode(mother_position())
    for roll in ROLLS:
        assert kernel_case(compiled, start, roll) == kernel_case(pure_kernel, start, roll), roll
    assert compiled.count(start, 1 | MOTHER_CHECKER, 4, 1) == state_count(start, Variant.CATCHGAMMON, (4, 1), MOTHER)


def test_a_play_ending_the_game_and_one_not_to_the_same_board_are_one_play_in_both_kernels() -> None:
    """Black's 1-1 takes the three checkers off the 24-point (freeing White's mother checker there)
    and traps it again from the 23-point, or plays 23/24 first and bears off three: the same board,
    one play, whose moves are the trap's (hypothesis found the compiled kernel listing both)."""
    require("the compiled move-generator kernel", "compiled" in available_kernels(), "pip install -e .")
    from game.movegen import _kernel as compiled

    points: list[list[str]] = [["w"] * 11] + [[] for _ in range(21)] + [["b"] * 3, ["w", "b", "b", "b"]]
    position = Position.from_document({"variant": "catchgammon", "turn": "black", "points": points,
                                       "bar": {"white": 0, "black": 0}, "off": {"white": 3, "black": 9}})
    state = encode(position)
    found = kernel_case(compiled, state, (1, 1))
    assert found == kernel_case(pure_kernel, state, (1, 1))
    (states, moves), count = found
    assert count == len(states) == len(set(states)) == 3
    assert moves[-1][-3:] == bytes([2, 1, 1])  # the last move of the play to that board traps the mother


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(Variant.CATCHGAMMON), dice)
def test_both_kernels_agree_under_the_rule_on_arbitrary_positions(position: Position, roll: tuple[int, int]) -> None:
    require("the compiled move-generator kernel", "compiled" in available_kernels(), "pip install -e .")
    from game.movegen import _kernel as compiled

    state = encode(position)
    assert kernel_case(compiled, state, roll) == kernel_case(pure_kernel, state, roll), (position, roll)


@pytest.mark.parametrize("kernel", ["pure", "compiled"])
def test_each_kernel_stops_the_play_at_the_trap(kernel: str) -> None:
    if kernel not in available_kernels():
        require("the compiled move-generator kernel", None, "pip install -e .")
    with use_kernel(kernel):
        plays = mother_position().legal_plays((4, 1))
        assert [p.notation() for p in plays if len(p.moves) == 1] == ["5/1*"]


# -- the table's command line and configuration -------------------------------------------------

def test_the_table_takes_rules_from_its_command_line() -> None:
    args = build_parser().parse_args(["--variant", "catchgammon", "--rules", "mother-checker"])
    assert _settings(args).options.rules == MOTHER
    with pytest.raises(ConfigError, match="--rules: the rule option mother-checker is for catchgammon, not backgammon"):
        _settings(build_parser().parse_args(["--rules", "mother-checker"]))
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--rules", "hypergammon"])


def test_the_table_takes_rules_from_its_configuration(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[board]\nport = "/dev/null"\n[match]\nrules = "nackgammon"\nlength = 5\n')
    assert load_config(path).settings.options == MatchOptions(rules=NACK)
    path.write_text('[board]\nport = "/dev/null"\n[match]\nvariant = "rungammon"\nrules = "nackgammon"\n')
    with pytest.raises(ConfigError, match=r"\[match\] rules: the rule option nackgammon is for backgammon"):
        load_config(path)


def test_the_plays_command_takes_rules(capsys: pytest.CaptureFixture[str]) -> None:
    from game.cli import main

    position = mother_position(STANDARD).to_json()
    for rules, listed in (("mother-checker", True), ("standard", False)):
        out = io.StringIO()
        assert main(["plays", "--position", position, "--dice", "41", "--rules", rules], out) == 0
        assert ("\n5/1*\n" in out.getvalue()) is listed
    assert main(["plays", "--position", position, "--dice", "41", "--rules", "nackgammon"], io.StringIO()) == 2
    assert "nackgammon is for backgammon, not catchgammon" in capsys.readouterr().err


@pytest.mark.slow
def test_the_emulated_table_plays_a_whole_match_by_the_mother_checker_rule(tmp_path: Path) -> None:
    from firmware_host.cli import main as table_main
    from game.cli import main as game_main

    record = tmp_path / "mother"
    assert table_main(["simulate", "--variant", "catchgammon", "--rules", "mother-checker", "--seed", "2",
                       "--match-to", "2", "--record", str(record), "--quiet"]) == 0
    journal = record / "journal.jsonl"
    events = [json.loads(line) for line in journal.read_text().splitlines()]
    assert next(e for e in events if e["type"] == "match_start")["options"]["rules"] == {"mother_checker": True}
    assert [e["points"] for e in events if e.get("reason") == "mother_checker"]  # the people played the rule
    assert game_main(["validate", str(journal)], io.StringIO()) == 0


@pytest.mark.parametrize("level", ["beginner", "expert"])
def test_the_bot_sees_the_trap_win_under_the_rule(level: str) -> None:
    from game.bot import MONEY, make_bot

    bot = make_bot(Variant.CATCHGAMMON, level, seed=1)
    chosen = bot.choose_play(mother_position(), (4, 1), MONEY)
    assert chosen is not None and chosen.after_moves.mother_trapped() is Color.BLACK


def test_the_state_functions_refuse_an_option_of_another_variant() -> None:
    with pytest.raises(RuleOptionError, match="mother-checker is for catchgammon, not backgammon"):
        state_plays(encode(Position.initial()), Variant.BACKGAMMON, (3, 1), MOTHER)
