"""game.explain: each broken rule named in every variant where it applies, the simplest
explanation, and properties over random and arbitrary positions.

Boards are made by `hand`: a person moving checkers, written in the mover's notation, with
no rules at all; only the hit of a Backgammon blot (the hit checker to its bar) is done for
the player, as the hit notation asks.
"""

from __future__ import annotations

import re

import pytest
from builders import board
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from needs import examples
from strategies import dice, positions

from drivers.cube_display import CubeDisplay
from game import explain as explain_module
from game.board import BAR, OFF, Color, Variant, board_point
from game.explain import Breach, DieMove, Explainer, Explanation, explain
from game.movegen import single_moves
from game.plays import parse_moves
from game.position import Position
from game.selfplay import random_positions
from game.zones import BAR_ZONE, BLACK_BAR, BLACK_OFF, OFF_ZONE, WHITE_BAR, WHITE_OFF, Layout, layout

pytestmark = pytest.mark.usefixtures("each_kernel")  # the relaxed search, by each kernel
BG, CG, RG = Variant.BACKGAMMON, Variant.CATCHGAMMON, Variant.RUNGAMMON
W, B = Color.WHITE, Color.BLACK


def zone(position: Position, own: int) -> int:
    """The zone of the mover's own location (25 bar, 0 tray)."""
    if own == BAR:
        return BAR_ZONE[position.turn]
    if own == OFF:
        return OFF_ZONE[position.turn]
    return board_point(position.variant, position.turn, own)


def hand(position: Position, notation: str, pulled: tuple[bool, ...] = ()) -> Layout:
    """The board after the mover's checkers are moved as written, one step at a time: the top
    checker of the source, or the mover's checker beneath when the top is the opponent's or
    `pulled[i]` says so."""
    stacks = list(layout(position))
    me, them = position.turn.char, position.turn.opponent.char
    for i, (source, target) in enumerate(parse_moves(notation)):
        a, b = zone(position, source) - 1, zone(position, target) - 1
        if stacks[a].endswith(me) and not (i < len(pulled) and pulled[i]):
            stacks[a] = stacks[a][:-1]
        else:
            assert stacks[a].startswith(me), f"no {me} checker on {source}"
            stacks[a] = stacks[a][1:]
        if position.variant is BG and stacks[b] == them:
            stacks[b] = ""
            stacks[BAR_ZONE[position.turn.opponent] - 1] += them
        stacks[b] += me
    return tuple(stacks)


def breaches(explanation: Explanation | None) -> list[Breach]:
    assert explanation is not None, "no explanation"
    return [rule.breach for rule in explanation.broken]


# -- one named case per rule and variant ---------------------------------------

CASES = {
    # A checker put on a point the opponent holds sits on top of the stack there.
    "backgammon-blocked-point": (
        board(BG, W, {13: 5, 24: 10}, {7: 2, 1: 13}), (6, 1), "13/7 24/23",
        [Breach.BLOCKED_POINT], "13/7: point 7 is held by two black checkers"),
    "catchgammon-blocked-point-two-checkers": (
        board(CG, W, {24: 14, 20: 1}, {16: 2, 1: 13}), (4, 1), "20/16 24/23",
        [Breach.BLOCKED_POINT], "20/16: point 16 is held by two black checkers"),
    "catchgammon-blocked-point-trapper": (
        board(CG, W, {24: 13, 20: 1, 16: 1}, {16: 1, 1: 14}, trapped={16: "w"}), (4, 1), "20/16 24/23",
        [Breach.BLOCKED_POINT], "20/16: point 16 is held by a black checker trapping a white one"),
    "rungammon-blocked-point": (
        board(RG, W, {24: 13, 20: 1, 5: 1}, {16: 1, 12: 14}), (4, 1), "20/16 24/23",
        [Breach.BLOCKED_POINT], "20/16: point 16 is held by a black checker"),
    "catchgammon-trapped-checker-moved": (
        board(CG, W, {24: 14, 16: 1}, {16: 1, 1: 14}, trapped={16: "w"}), (3, 1), "16/13 24/23",
        [Breach.TRAPPED_CHECKER_MOVED], "16/13: the white checker on point 16 is trapped under a black checker"),
    "backgammon-bear-off-too-early": (
        board(BG, W, {8: 1, 6: 14}, {24: 15}), (6, 2), "6/off 6/4",
        [Breach.BEAR_OFF_TOO_EARLY], "6/off: bearing off while a white checker stands on point 8, "
                                     "outside the home board"),
    "catchgammon-bear-off-too-early-outside": (
        board(CG, W, {8: 1, 6: 14}, {24: 15}), (6, 2), "6/off 6/4",
        [Breach.BEAR_OFF_TOO_EARLY], "6/off: bearing off while a white checker stands on point 8, "
                                     "outside the home board"),
    "catchgammon-bear-off-too-early-trapped": (
        board(CG, W, {6: 13, 3: 1}, {3: 1, 24: 14}, trapped={3: "w"}, off=(1, 0)), (6, 5), "6/off 6/1",
        [Breach.BEAR_OFF_TOO_EARLY], "6/off: bearing off while the white checker on point 3 is trapped"),
    "rungammon-bear-off-too-early": (
        board(RG, W, {8: 1, 6: 14}, {12: 15}), (6, 2), "6/off 6/4",
        [Breach.BEAR_OFF_TOO_EARLY], "6/off: bearing off while a white checker stands on point 8, "
                                     "outside the home board"),
    "backgammon-bear-off-not-highest": (
        board(BG, W, {6: 2, 3: 13}, {24: 15}), (5, 1), "3/off 3/2",
        [Breach.BEAR_OFF_NOT_HIGHEST], "3/off: a 5 bears off from point 3 only when no white checker "
                                       "stands higher, and point 6 holds one"),
    "catchgammon-bear-off-not-highest": (
        board(CG, W, {6: 2, 3: 13}, {19: 15}), (5, 1), "3/off 3/2",
        [Breach.BEAR_OFF_NOT_HIGHEST], "3/off: a 5 bears off from point 3 only when no white checker "
                                       "stands higher, and point 6 holds one"),
    "rungammon-bear-off-not-highest": (
        board(RG, W, {6: 2, 3: 13}, {12: 15}), (5, 1), "3/off 3/2",
        [Breach.BEAR_OFF_NOT_HIGHEST], "3/off: a 5 bears off from point 3 only when no white checker "
                                       "stands higher, and point 6 holds one"),
    # Both entry points held: no legal play, and the player moves another checker.
    "backgammon-bar-first": (
        board(BG, W, {13: 14}, {24: 2, 19: 2, 1: 11}, bar=(1, 0)), (6, 1), "13/7",
        [Breach.BAR_FIRST], "13/7: the white checker on the bar must enter before any other moves"),
    "backgammon-die-unused": (
        Position.initial(BG), (6, 1), "13/7",
        [Breach.DIE_UNUSED], "only the 6 played where both dice can be played"),
    "catchgammon-die-unused": (
        Position.initial(CG), (6, 1), "24/18",
        [Breach.DIE_UNUSED], "only the 6 played where both dice can be played"),
    "rungammon-die-unused": (
        Position.initial(RG), (3, 1), "24/21",
        [Breach.DIE_UNUSED], "only the 3 played where both dice can be played"),
    "backgammon-doubles-die-unused": (
        Position.initial(BG), (3, 3), "8/5 6/3",
        [Breach.DIE_UNUSED], "two of the four 3s played where four can be played"),
    # One checker can move by either die, but not by both: 9 is held.
    "backgammon-larger-die-required": (
        board(BG, W, {20: 1, 1: 14}, {9: 2, 24: 13}), (6, 5), "20/15",
        [Breach.LARGER_DIE_REQUIRED], "20/15 plays the 5, but when only one die can be played it must be "
                                      "the larger, the 6"),
    "catchgammon-larger-die-required": (
        board(CG, W, {20: 1, 1: 14}, {9: 2, 24: 13}), (6, 5), "20/15",
        [Breach.LARGER_DIE_REQUIRED], "20/15 plays the 5, but when only one die can be played it must be "
                                      "the larger, the 6"),
    "rungammon-larger-die-required": (
        board(RG, W, {20: 1, 1: 14}, {9: 1, 12: 14}), (6, 5), "20/15",
        [Breach.LARGER_DIE_REQUIRED], "20/15 plays the 5, but when only one die can be played it must be "
                                      "the larger, the 6"),
    # A black checker ahead (its own 2 is board 14): holding 19-24 is not a prime against it.
    "rungammon-prime-start-table": (
        board(RG, W, {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {12: 14, 14: 1}), (5, 1), "24/19 5/4",
        [Breach.PRIME_START_TABLE], "the play holds all six points 19-24 of white's starting table"),
    "rungammon-prime-blocks-opponent": (
        board(RG, W, {24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 13: 1}, {12: 15}), (6, 1), "13/7 7/6",
        [Breach.PRIME_BLOCKS_OPPONENT], "the play makes six points in a row (6, 7, 8, 9, 10, 11) with black "
                                        "checkers behind them and none ahead"),
    "rungammon-first-checker-rule": (
        board(RG, W, {24: 14, 18: 1}, {12: 15}), (3, 1), "24/21 18/17",
        [Breach.FIRST_CHECKER_RULE], "24/21: a second checker may leave point 24 only once one has passed "
                                     "black's start on point 12"),
}


@pytest.mark.parametrize("case", CASES)
def test_each_rule_is_named_with_its_message(case: str) -> None:
    position, roll, notation, expected, message = CASES[case]
    target = hand(position, notation)
    assert target not in {layout(p.after_moves) for p in position.legal_plays(roll)}
    explanation = explain(position, roll, target)
    assert breaches(explanation) == expected
    assert explanation is not None and explanation.broken[0].message == message
    assert explanation.result == target
    assert explanation.short_code() == expected[0].code


def test_every_rule_has_a_case() -> None:
    assert {rule for _, _, _, rules, _ in CASES.values() for rule in rules} == set(Breach)


def test_messages_use_the_movers_numbering_and_light_the_board_points() -> None:
    # Black's own 13 is board point 12; its own 7 is board 18, held by two white checkers.
    position = board(BG, B, {18: 2, 1: 13}, {12: 5, 24: 10})
    target = hand(position, "13/7 1/off")
    explanation = explain(position, (6, 1), target)
    assert breaches(explanation) == [Breach.BLOCKED_POINT, Breach.BEAR_OFF_TOO_EARLY]
    assert explanation is not None
    assert explanation.broken[0].message == "13/7: point 7 is held by two white checkers"
    assert explanation.broken[0].zones == (18,)
    assert explanation.zones() == {18, 24, 12}  # the blocked point, then 1/off: black's own 1 and 13


def test_a_legal_plays_result_is_explained_with_no_broken_rule() -> None:
    start = Position.initial(BG)
    for play in start.legal_plays((6, 1)):
        explanation = explain(start, (6, 1), play.after_moves)
        assert explanation is not None and explanation.legal
        assert explanation.short_code() == "  "
        assert explanation.describe() == f"legal play {explanation.notation()}"
        assert explanation.result == layout(play.after_moves)


def test_when_no_play_is_legal_the_unmoved_board_is_legal() -> None:
    closed = board(BG, W, {13: 14}, {24: 2, 19: 2, 1: 11}, bar=(1, 0))
    assert closed.legal_plays((6, 1)) == ()
    explanation = explain(closed, (6, 1), closed)
    assert explanation is not None and explanation.legal and explanation.moves == ()


def test_a_board_no_sequence_of_the_roll_makes_is_not_explained() -> None:
    start = Position.initial(BG)
    assert explain(start, (6, 1), hand(start, "13/9")) is None  # a 4 is not on the dice
    assert explain(start, (6, 1), hand(start, "13/7 13/7")) is None  # a die used twice
    stray = list(layout(start))
    stray[0], stray[5] = "", stray[5] + "bb"  # a black checker moved by the player on roll
    assert explain(start, (6, 1), tuple(stray)) is None


def test_the_unmoved_board_leaves_both_dice_unused() -> None:
    start = Position.initial(BG)
    explanation = explain(start, (6, 1), start)
    assert breaches(explanation) == [Breach.DIE_UNUSED]
    assert explanation is not None and explanation.broken[0].message == "no die played where both dice can be played"


def test_the_explanation_breaking_fewest_rules_wins() -> None:
    # 24/13 with 6-5: 24/18/13 lands on 18, which black holds; 24/19/13 passes by an open 19
    position = board(BG, W, {24: 2, 6: 13}, {18: 2, 1: 13})
    explanation = explain(position, (6, 5), hand(position, "24/19 19/13"))
    assert explanation is not None and explanation.legal
    assert [(m.move.source, m.move.target, m.die) for m in explanation.moves] == [(24, 19, 5), (19, 13, 6)]
    # with 19 held as well, either way lands on a held point: one broken rule, not two
    both_held = board(BG, W, {24: 2, 6: 13}, {18: 2, 19: 2, 1: 11})
    blocked = explain(both_held, (6, 5), hand(both_held, "24/18 18/13"))
    assert breaches(blocked) == [Breach.BLOCKED_POINT]


def test_two_broken_rules_in_one_move_are_both_named() -> None:
    # on the bar, and bearing off from outside: the hand breaks the bar rule and bears off early
    position = board(BG, W, {6: 13, 4: 1}, {24: 2, 19: 2, 1: 11}, bar=(1, 0))
    explanation = explain(position, (6, 1), hand(position, "6/off"))
    assert breaches(explanation) == [Breach.BAR_FIRST, Breach.BEAR_OFF_TOO_EARLY]
    assert explanation is not None and explanation.broken[1].message == (
        "6/off: bearing off while a white checker is on the bar")


def test_zone_numbers_are_the_sensor_zones() -> None:
    assert (BAR_ZONE[W], BAR_ZONE[B], OFF_ZONE[W], OFF_ZONE[B]) == (WHITE_BAR, BLACK_BAR, WHITE_OFF, BLACK_OFF)
    position = board(BG, W, {6: 14}, {1: 13}, bar=(0, 2), off=(1, 0))
    stacks = layout(position)
    assert (stacks[WHITE_BAR - 1], stacks[BLACK_BAR - 1], stacks[WHITE_OFF - 1], stacks[BLACK_OFF - 1]) == (
        "", "bb", "w", "")


# -- display codes ------------------------------------------------------------------

def test_the_code_table_in_the_docstring_is_the_enum() -> None:
    doc = explain_module.__doc__ or ""
    table = re.findall(r"^ {4}([A-Z0-9]{2}) {4}([A-Z_]+) ", doc, re.MULTILINE)
    assert table == [(rule.code, rule.name) for rule in Breach]


def test_every_code_shows_on_the_cube_display() -> None:
    factory = MockFactory()
    try:
        with CubeDisplay(pin_factory=factory, plex_delay=0.0005) as display:
            for rule in Breach:
                display.show_text(rule.code)
                assert display.text == (rule.code[0], rule.code[1])
    finally:
        factory.reset()


# -- properties -------------------------------------------------------------------

SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
CORPUS = [turn for variant in Variant for turn in random_positions(variant, 150, seed=11)]
any_position = st.sampled_from(Variant).flatmap(positions)


def replay(position: Position, explanation: Explanation) -> Layout:
    """The explanation's moves made by hand, and the dice they use are dice of the roll."""
    return hand(position, " ".join(f"{_name(m.move.source)}/{_name(m.move.target)}" for m in explanation.moves),
                tuple(m.trapped for m in explanation.moves))


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _check_outcomes(position: Position, roll: tuple[int, int]) -> None:
    explainer = Explainer(position, roll)
    outcomes = explainer.outcomes()
    legal = {layout(p.after_moves) for p in explainer.plays} or {layout(position)}
    assert {b for b, e in outcomes.items() if e.legal} == legal
    all_dice = sorted(roll * 2 if roll[0] == roll[1] else roll)
    ranked = explainer.ranked_outcomes()
    assert list(ranked) == list(outcomes)
    for result, explanation in outcomes.items():
        # the search counts the rules it does not word: as many as the explanation words
        rank, steps = ranked[result]
        assert rank == (len(explanation.broken), len(explanation.moves))
        assert explainer.worded(result, steps) == explanation and explanation.result == result
        assert replay(position, explanation) == result
        used = sorted(m.die for m in explanation.moves)
        assert all(used.count(d) <= all_dice.count(d) for d in used)
        for m in explanation.moves:
            distance = m.move.source - m.move.target
            assert distance == m.die or (m.move.target == OFF and distance < m.die)


@pytest.mark.slow
@SETTINGS
@given(st.sampled_from(CORPUS))
def test_outcomes_replay_and_only_legal_results_break_no_rule(turn: tuple[Position, tuple[int, int]]) -> None:
    _check_outcomes(*turn)


@SETTINGS
@given(any_position, dice)
def test_outcomes_on_arbitrary_positions(position: Position, roll: tuple[int, int]) -> None:
    _check_outcomes(position, roll)


@SETTINGS
@given(st.sampled_from(CORPUS), st.data())
def test_the_search_toward_a_board_finds_the_simplest_explanation(turn: tuple[Position, tuple[int, int]],
                                                                  data: st.DataObject) -> None:
    position, roll = turn
    outcomes = Explainer(position, roll).outcomes()
    target = data.draw(st.sampled_from(sorted(outcomes)))
    found = explain(position, roll, target)
    expected = outcomes[target]
    assert found is not None and found.result == target
    assert (len(found.broken), len(found.moves)) == (len(expected.broken), len(expected.moves))


@SETTINGS
@given(any_position, dice)
def test_the_search_counts_the_rules_each_hand_move_breaks(position: Position, roll: tuple[int, int]) -> None:
    explainer = Explainer(position, roll)
    board = layout(position)
    for die in set(roll):
        worded = list(explainer.hand_moves(board, die))
        counted = list(explainer._lifts(board, die, None, 0))
        assert [made for made, _, _ in worded] == [made for made, _, _, _ in counted]
        assert [len(broken) for _, _, broken in worded] == [broken for _, _, _, broken in counted]


@SETTINGS
@given(any_position, st.integers(1, 6))
def test_the_hands_moves_that_break_no_rule_are_the_legal_single_moves(position: Position, die: int) -> None:
    explainer = Explainer(position, (die, die))
    found = [(board, move) for board, move, broken in explainer.hand_moves(layout(position), die) if not broken]
    assert sorted(found, key=repr) == sorted(
        ((layout(p.after_moves), DieMove(p.moves[0], die)) for p in single_moves(position, die)), key=repr)


def _sensed(board: Layout) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """What sensors of counts and of colours tell of a board."""
    return tuple(map(len, board)), tuple((stack.count("w"), stack.count("b")) for stack in board)


@SETTINGS
@given(st.one_of(st.sampled_from(CORPUS), st.tuples(any_position, dice)), st.data())
def test_the_search_toward_sensed_boards_finds_what_the_whole_search_finds_for_them(
        turn: tuple[Position, tuple[int, int]], data: st.DataObject) -> None:
    position, roll = turn
    explainer = Explainer(position, roll)
    outcomes = list(explainer.outcomes().items())
    board = list(data.draw(st.sampled_from([board for board, _ in outcomes])))
    if data.draw(st.booleans(), label="a checker set elsewhere"):  # most likely a board no sequence makes
        source = data.draw(st.sampled_from([z for z, stack in enumerate(board) if stack]))
        target = data.draw(st.integers(0, len(board) - 1))
        board[target] += board[source][-1]
        board[source] = board[source][:-1]
    counts, colours = _sensed(tuple(board))
    for told, admit in ((0, explainer.toward_counts(counts)), (1, explainer.toward_colours(colours))):
        sensed = (counts, colours)[told]
        whole = [(b, e) for b, e in outcomes if _sensed(b)[told] == sensed]
        if admit is None:  # no sequence of the roll makes such a board
            assert whole == []
            continue
        toward = [(b, e) for b, e in explainer.outcomes(admit).items() if _sensed(b)[told] == sensed]
        assert toward == whole
    found = explainer.explain(tuple(board))
    assert (found is None) == (tuple(board) not in dict(outcomes))
