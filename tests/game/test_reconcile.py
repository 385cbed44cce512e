"""game.reconcile: the verdict on each stable board of a turn, at every sensing
capability, with boards made by hand on the board emulator (the physical model the drivers
are tested against) and read through its sensors.
"""

from __future__ import annotations

import random

import pytest
from builders import board
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from needs import examples
from strategies import positions

from drivers.cube_display import CubeDisplay
from firmware_host.controller.sensed_board import Debouncer
from firmware_host.emulator.board import BoardEmulator
from game.board import Color, Variant
from game.explain import Breach
from game.movegen import single_moves
from game.plays import Play
from game.position import Position
from game.reconcile import Ambiguous, Illegal, Legal, Misplaced, Partial, TurnReconciler, Untouched, Verdict
from game.reconcile.boards_on_the_way import board_key, colours_code, colours_of, sensed_key, view_key
from game.selfplay import random_positions
from game.zones import (
    BLACK_BAR,
    ZONE_COUNT,
    Capability,
    Layout,
    View,
    ZoneDiff,
    ZoneReading,
    layout,
    sensed_view,
    view_of,
    zone_diff,
)

BG, CG, RG = Variant.BACKGAMMON, Variant.CATCHGAMMON, Variant.RUNGAMMON
W, B = Color.WHITE, Color.BLACK
SCAN = 0.02  # the emulator's scan period, seconds
CAPABILITIES = list(Capability)


def emulated(position: Position | Layout, capability: Capability) -> BoardEmulator:
    """A board standing as `position`, whose MCU has been told the order of its stacks (SET_STACKS)."""
    stacks = layout(position) if isinstance(position, Position) else position
    emulator = BoardEmulator(stacks, capability=capability, dice="none")
    if capability is Capability.STACKS:
        emulator.teach_stacks(stacks)
        emulator.scan()
    return emulator


def read(emulator: BoardEmulator) -> tuple[ZoneReading, ...]:
    """The board as the sensors read it at a scan now."""
    emulator.scan()
    return emulator.sensed()


def play_named(position: Position, dice: tuple[int, int], notation: str) -> Play:
    named = position.parse_play(notation, dice)
    assert named is not None
    (play,) = [p for p in position.legal_plays(dice) if p.after_moves == named.after_moves]
    return play


# -- what the sensors report ---------------------------------------------------------

SENSING_CORPUS = [turn[0] for variant in Variant for turn in random_positions(variant, 60, seed=3)]


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_sensed_view_is_what_the_emulated_board_reports(capability: Capability) -> None:
    for position in SENSING_CORPUS:
        assert sensed_view(position, capability) == emulated(position, capability).sensed()


def test_a_trapped_checker_reads_at_the_bottom_of_its_stack() -> None:
    position = board(CG, W, {24: 13, 7: 2}, {7: 1, 1: 14}, trapped={7: "b"})
    stacks, colours, counts = (sensed_view(position, c)[6] for c in
                               (Capability.STACKS, Capability.COLOR_COUNTS, Capability.COUNTS))
    assert (stacks.stack, (colours.white, colours.black), counts.count) == ("bww", (2, 1), 3)
    assert colours.stack is None and counts.white is None


# -- the verdicts, at every capability -------------------------------------------------

@pytest.mark.parametrize("capability", CAPABILITIES)
def test_untouched_then_partial_then_legal(capability: Capability) -> None:
    start = Position.initial(BG)
    reconciler = TurnReconciler(start, (6, 1), capability)
    emulator = emulated(start, capability)
    assert reconciler.judge(read(emulator)) == Untouched()
    emulator.move(13, 7)
    partial = reconciler.judge(read(emulator))
    assert isinstance(partial, Partial)
    assert [(str(m.move), m.die) for m in partial.moves] == [("13/7", 6)] and partial.dice_left == (1,)
    assert partial.short_code() == "P1"
    emulator.move(8, 7)
    assert reconciler.judge(read(emulator)) == Legal(play_named(start, (6, 1), "13/7 8/7"))
    assert reconciler.judge(read(emulator), done=True).short_code() == "GO"


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_the_other_order_of_the_same_play_is_partial_too(capability: Capability) -> None:
    start = Position.initial(BG)
    reconciler = TurnReconciler(start, (6, 1), capability)
    emulator = emulated(start, capability)
    emulator.move(8, 7)
    partial = reconciler.judge(read(emulator))
    assert isinstance(partial, Partial) and partial.dice_left == (6,)
    assert "still to play: 6" in partial.describe()


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_doubles_count_down_the_dice_left(capability: Capability) -> None:
    start = Position.initial(BG)
    reconciler = TurnReconciler(start, (3, 3), capability)
    emulator = emulated(start, capability)
    codes = []
    for source, target in ((8, 5), (8, 5), (6, 3)):
        emulator.move(source, target)
        codes.append(reconciler.judge(read(emulator)).short_code())
    emulator.move(6, 3)
    assert codes == ["P3", "P2", "P1"]
    assert reconciler.judge(read(emulator)) == Legal(play_named(start, (3, 3), "8/5(2) 6/3(2)"))


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_illegal_play_onto_a_blocked_point(capability: Capability) -> None:
    position = board(BG, W, {13: 5, 24: 10}, {7: 2, 1: 13})
    reconciler = TurnReconciler(position, (6, 1), capability)
    emulator = emulated(position, capability)
    emulator.move(13, 7)
    emulator.move(24, 23)
    verdict = reconciler.judge(read(emulator))
    assert isinstance(verdict, Illegal)
    assert [r.breach for r in verdict.explanation.broken] == [Breach.BLOCKED_POINT]
    assert verdict.short_code() == "BP" and verdict.zones() == {7}
    assert verdict.describe() == "illegal play 24/23 13/7: 13/7: point 7 is held by two black checkers"
    assert reconciler.judge(read(emulator), done=True) == verdict


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_a_board_no_dice_move_explains_is_misplaced(capability: Capability) -> None:
    start = Position.initial(BG)
    reconciler = TurnReconciler(start, (6, 1), capability)
    emulator = emulated(start, capability)
    emulator.move(13, 9)  # a 4: not on the dice
    verdict = reconciler.judge(read(emulator))
    assert isinstance(verdict, Misplaced)
    # as near (two zones) as 13/7 7/6, but during the turn the least played board is nearest
    assert verdict.nearest.moves == () and verdict.nearest.result == layout(start)
    assert verdict.zones() == {9, 13} and verdict.short_code() == "SC"
    words = {Capability.COUNTS: ["point 9 has 1, expected none", "point 13 has 4, expected 5"],
             Capability.COLOR_COUNTS: ["point 9 has 1 white, expected none", "point 13 has 4 white, expected 5 white"],
             Capability.STACKS: ["point 9 has 1 white, expected none", "point 13 has 4 white, expected 5 white"]}
    assert [d.describe() for d in verdict.diffs] == words[capability]
    assert verdict.describe().startswith(f"set checkers: {'; '.join(words[capability])} (nearest: illegal play")
    at_done = reconciler.judge(read(emulator), done=True)  # the player says the play is made: finish it
    assert isinstance(at_done, Misplaced) and at_done.nearest.notation() == "13/6" and at_done.zones() == {6, 9}


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_a_lifted_checker_is_misplaced_nearest_the_start(capability: Capability) -> None:
    start = Position.initial(BG)
    reconciler = TurnReconciler(start, (6, 1), capability)
    emulator = emulated(start, capability)
    emulator.lift(13)
    verdict = reconciler.judge(read(emulator))
    assert isinstance(verdict, Misplaced) and verdict.zones() == {13}


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_a_checker_held_in_the_hand_mid_play_is_misplaced_nearest_the_board_on_the_way(
        capability: Capability) -> None:
    start = Position.initial(BG)
    reconciler = TurnReconciler(start, (6, 1), capability)
    emulator = emulated(start, capability)
    emulator.move(13, 7)
    assert isinstance(reconciler.judge(read(emulator)), Partial)
    emulator.lift(8)
    held = read(emulator)
    verdicts = [reconciler.judge(held) for _ in range(3)]  # the hand holds it over several settled boards
    assert all(isinstance(v, Misplaced) for v in verdicts) and verdicts[0] == verdicts[1] == verdicts[2]
    verdict = verdicts[0]
    assert isinstance(verdict, Misplaced)
    # the board on the way, its one move made and the other die not yet played
    assert verdict.nearest.notation() == "13/7" and verdict.zones() == {8}
    assert [rule.breach for rule in verdict.nearest.broken] == [Breach.DIE_UNUSED]
    assert verdict.describe() == verdicts[2].describe()
    emulator.place(7)  # set down beside the checker moved: the play is made
    made = reconciler.judge(read(emulator))
    assert isinstance(made, Legal) and made.play.notation() == "13/7 8/7"


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_done_with_dice_left_is_an_illegal_play(capability: Capability) -> None:
    start = Position.initial(BG)
    reconciler = TurnReconciler(start, (6, 1), capability)
    emulator = emulated(start, capability)
    untouched = reconciler.judge(read(emulator), done=True)
    assert isinstance(untouched, Illegal) and untouched.short_code() == "DU"
    emulator.move(13, 7)
    partial = reconciler.judge(read(emulator), done=True)
    assert isinstance(partial, Illegal)
    assert partial.describe() == "illegal play 13/7: only the 6 played where both dice can be played"


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_with_no_legal_play_the_unmoved_board_is_the_play(capability: Capability) -> None:
    closed = board(BG, W, {13: 14}, {24: 2, 19: 2, 1: 11}, bar=(1, 0))
    reconciler = TurnReconciler(closed, (6, 1), capability)
    emulator = emulated(closed, capability)
    assert reconciler.judge(read(emulator), done=True) == Legal(Play((), closed))
    assert Legal(Play((), closed)).describe() == "no legal play: the roll cannot be played"
    emulator.move(13, 7)
    verdict = reconciler.judge(read(emulator), done=True)
    assert isinstance(verdict, Illegal) and verdict.short_code() == "BR"


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_catchgammon_trap_is_legal_and_a_trapped_checker_moved_is_not(capability: Capability) -> None:
    position = board(CG, W, {24: 14, 10: 1}, {7: 1, 1: 14})
    reconciler = TurnReconciler(position, (2, 1), capability)
    emulator = emulated(position, capability)
    emulator.move(10, 8)
    emulator.move(8, 7)
    assert reconciler.judge(read(emulator)) == Legal(play_named(position, (2, 1), "10/7*"))
    black = TurnReconciler(emulated_position(position, (2, 1), "10/8 8/7*"), (6, 5), capability)
    emulator.lift(7)  # the white trapper, then the black checker beneath it
    emulator.lift(7)
    emulator.place(13)  # black's own 18/12, the trapped checker pulled out
    emulator.place(7)
    emulator.move(1, 6)  # 24/19
    verdict = black.judge(read(emulator))
    assert isinstance(verdict, Illegal) and verdict.short_code() == "TR"
    assert verdict.describe() == ("illegal play 24/19 18/12: 18/12: the black checker on point 18 is trapped "
                                  "under a white checker")


def emulated_position(position: Position, dice: tuple[int, int], notation: str) -> Position:
    """The position after the named play, the other player to move."""
    return play_named(position, dice, notation).after_moves.pass_turn()


# -- two plays alike to the sensors --------------------------------------------------

# Found by grouping the legal plays of random_positions(Variant.BACKGAMMON, 3000, seed=1) by
# what a COUNTS board reports for their results: turn 522, White to play 5-3, has two pairs of
# plays that end alike, each hitting two blots. The boards after one whole move of either
# play also look alike (12 one fewer, Black's bar one more), so order can tell them apart only
# when the player pauses halfway through a hit: the hitting checker down on the blot, or the
# blot on the bar before the hitter moves. Over 3000 random turns of each variant (seed 5) at
# COUNTS and COLOR_COUNTS, look-alike plays came up only in Backgammon at COUNTS (7 turns), all
# of this kind: plays that swap which blots two checkers hit.
TWO_HITS = Position.from_json(
    '{"variant":"backgammon","turn":"white","points":[["b"],[],["b"],["b"],["b"],["w","w","w","w","w","w","w"],'
    '["b"],["w"],["b"],["b"],["w"],["w"],["w"],["b","b"],[],["w"],["w","w"],[],["b","b"],["w"],[],["b"],["b"],'
    '["b","b"]],"bar":{"white":0,"black":0},"off":{"white":0,"black":0}}')
HIT_7_AND_5 = play_named(TWO_HITS, (5, 3), "12/7* 8/5*")
HIT_9_AND_3 = play_named(TWO_HITS, (5, 3), "12/9* 8/3*")


def hit(emulator: BoardEmulator, source: int, target: int, judge: TurnReconciler | None = None,
        hitter_first: bool = True) -> list[Verdict]:
    """A hit made by hand in two steps, judged in between when `judge` is given."""
    seen = []
    if hitter_first:
        emulator.move(source, target)
        if judge:
            seen.append(judge.judge(read(emulator)))
        emulator.lift(target)  # the hitter off the blot, the blot to the bar, the hitter back
        emulator.move(target, BLACK_BAR)
        emulator.place(target)
    else:
        emulator.move(target, BLACK_BAR)
        if judge:
            seen.append(judge.judge(read(emulator)))
        emulator.move(source, target)
    return seen


def test_counts_alone_cannot_tell_two_hitting_plays_apart() -> None:
    reconciler = TurnReconciler(TWO_HITS, (5, 3), Capability.COUNTS)
    emulator = emulated(TWO_HITS, Capability.COUNTS)
    hit(emulator, 12, 7)
    assert isinstance(reconciler.judge(read(emulator)), Partial)
    hit(emulator, 8, 5)
    verdict = reconciler.judge(read(emulator))
    assert isinstance(verdict, Ambiguous) and set(verdict.plays) == {HIT_7_AND_5, HIT_9_AND_3}
    assert verdict.short_code() == "CH" and verdict.zones() == {3, 5, 7, 9}
    assert reconciler.judge(read(emulator), done=True) == verdict
    colours = TurnReconciler(TWO_HITS, (5, 3), Capability.COLOR_COUNTS)  # the same board, seen in colour
    assert colours.judge(emulated(emulator.zones(), Capability.COLOR_COUNTS).sensed()) == Legal(HIT_7_AND_5)


@pytest.mark.parametrize("hitter_first", [True, False])
@pytest.mark.parametrize(("play", "hits"), [(HIT_7_AND_5, ((12, 7), (8, 5))), (HIT_9_AND_3, ((12, 9), (8, 3)))])
def test_a_pause_halfway_through_a_hit_tells_them_apart(play: Play, hits: tuple[tuple[int, int], ...],
                                                        hitter_first: bool) -> None:
    reconciler = TurnReconciler(TWO_HITS, (5, 3), Capability.COUNTS)
    emulator = emulated(TWO_HITS, Capability.COUNTS)
    (halfway,) = hit(emulator, *hits[0], judge=reconciler, hitter_first=hitter_first)
    assert isinstance(halfway, Partial)
    hit(emulator, *hits[1])
    assert reconciler.judge(read(emulator)) == Legal(play)


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_a_last_hit_left_half_done_is_partial_then_misplaced_at_done(capability: Capability) -> None:
    reconciler = TurnReconciler(TWO_HITS, (5, 3), capability)
    emulator = emulated(TWO_HITS, capability)
    hit(emulator, 12, 7)
    emulator.move(8, 5)  # the hitter down on the blot, the blot not yet on the bar
    verdict = reconciler.judge(read(emulator))
    assert isinstance(verdict, Partial) and verdict.short_code() == "P0"
    assert verdict.describe() == "partial play 12/7* 8/5*, still to play: no die, the hit checker to the bar"
    at_done = reconciler.judge(read(emulator), done=True)
    assert isinstance(at_done, Misplaced) and at_done.zones() == {5, BLACK_BAR}
    assert at_done.nearest.legal and at_done.nearest.notation() == "12/7* 8/5*"


def test_a_board_seen_again_undoes_what_followed_it() -> None:
    reconciler = TurnReconciler(TWO_HITS, (5, 3), Capability.COUNTS)
    emulator = emulated(TWO_HITS, Capability.COUNTS)
    emulator.move(12, 7)  # halfway through 12/7*, then taken back
    assert isinstance(reconciler.judge(read(emulator)), Partial)
    emulator.move(7, 12)
    assert reconciler.judge(read(emulator)) == Untouched()
    hit(emulator, 12, 9, judge=reconciler)
    hit(emulator, 8, 3)
    assert reconciler.judge(read(emulator)) == Legal(HIT_9_AND_3)


# -- start-up and differences -----------------------------------------------------------

def test_start_up_shows_the_differences_until_the_board_is_set() -> None:
    start = Position.initial(BG)
    emulator = emulated(tuple([""] * ZONE_COUNT), Capability.COLOR_COUNTS)
    diffs = zone_diff(start, read(emulator), Capability.COLOR_COUNTS)
    assert {d.zone for d in diffs} == {1, 6, 8, 12, 13, 17, 19, 24}
    emulator.set_zones(layout(start))
    emulator.move(6, 5)
    assert [d.describe() for d in zone_diff(start, read(emulator), Capability.COLOR_COUNTS)] == [
        "point 5 has 1 white, expected none", "point 6 has 4 white, expected 5 white"]
    emulator.move(5, 6)
    assert zone_diff(start, read(emulator), Capability.COLOR_COUNTS) == ()


@pytest.mark.parametrize(("sensed", "expected", "words"), [
    (ZoneReading.of_count(3), ZoneReading.of_count(2), "point 7 has 3, expected 2"),
    (ZoneReading.of_colours(2, 1), ZoneReading.of_colours(2, 0), "point 7 has 3 (2 white, 1 black), expected 2 white"),
    (ZoneReading.of_stack("bww"), ZoneReading.of_stack("wb"),
     "point 7 has 3 (2 white on 1 black), expected 2 (1 black on 1 white)"),
    (ZoneReading.of_stack(""), ZoneReading.of_stack("bb"), "point 7 has none, expected 2 black"),
])
def test_zone_differences_in_words(sensed: ZoneReading, expected: ZoneReading, words: str) -> None:
    assert ZoneDiff(7, sensed, expected).describe() == words


def test_readings_must_be_28_and_know_enough() -> None:
    reconciler = TurnReconciler(Position.initial(BG), (6, 1), Capability.COLOR_COUNTS)
    with pytest.raises(ValueError, match="28 zones"):
        reconciler.judge(sensed_view(Position.initial(BG), Capability.COLOR_COUNTS)[:27])
    with pytest.raises(ValueError, match="cannot be told"):
        reconciler.judge(sensed_view(Position.initial(BG), Capability.COUNTS))
    stacks = sensed_view(Position.initial(BG), Capability.STACKS)
    assert reconciler.judge(stacks) == Untouched()  # a better board read as this one


def test_a_reading_below_the_capability_is_refused_among_better_ones() -> None:
    readings = list(sensed_view(Position.initial(BG), Capability.STACKS))
    readings[5] = readings[5].at(Capability.COLOR_COUNTS)
    with pytest.raises(ValueError, match="a COLOR_COUNTS reading cannot be told at STACKS"):
        TurnReconciler(Position.initial(BG), (6, 1), Capability.STACKS).judge(readings)


@pytest.mark.parametrize("capability", [Capability.COUNTS, Capability.COLOR_COUNTS])
def test_a_board_read_by_better_sensors_is_judged_and_told_as_the_capability_tells_it(capability: Capability) -> None:
    start = Position.initial(BG)
    held = list(layout(start))
    held[23] = held[23][:-1]  # a checker in the hand
    better = [ZoneReading.of_stack(stack) for stack in held]
    verdict = TurnReconciler(start, (6, 1), capability).judge(better)
    told = TurnReconciler(start, (6, 1), capability).judge(view_of(tuple(held), capability))
    assert isinstance(verdict, Misplaced) and verdict == told and verdict.describe() == told.describe()
    assert [diff.sensed.capability for diff in verdict.diffs] == [capability]


def test_every_verdict_code_shows_on_the_cube_display() -> None:
    start = Position.initial(BG)
    partial = TurnReconciler(start, (3, 3), Capability.STACKS)
    verdicts: list[Verdict] = [Untouched(), Legal(start.legal_plays((6, 1))[0]),
                               Ambiguous((HIT_7_AND_5, HIT_9_AND_3))]
    emulator = emulated(start, Capability.STACKS)
    for source, target in ((8, 5), (8, 5), (6, 3)):
        emulator.move(source, target)
        verdicts.append(partial.judge(read(emulator)))
    emulator.move(13, 9)
    verdicts.append(partial.judge(read(emulator)))
    factory = MockFactory()
    try:
        with CubeDisplay(pin_factory=factory, plex_delay=0.0005) as display:
            for verdict in verdicts:
                code = verdict.short_code()
                display.show_text(code)
                assert display.text == (code[0], code[1]), verdict
    finally:
        factory.reset()
    assert [v.short_code() for v in verdicts] == ["  ", "GO", "CH", "P3", "P2", "P1", "SC"]


# -- debounce ------------------------------------------------------------------------------

class Table:
    """A board emulator scanned every SCAN seconds on a manual timeline, through a Debouncer."""

    def __init__(self, position: Position, capability: Capability = Capability.STACKS, settle: float = 0.3) -> None:
        self.emulator = emulated(position, capability)
        self.debouncer = Debouncer(settle)
        self.now = 0.0
        self.reported: list[View] = []

    def wait(self, seconds: float) -> None:
        for _ in range(round(seconds / SCAN)):
            self.now += SCAN
            self.emulator.scan()
            stable = self.debouncer.update(self.emulator.sensed(), self.now)
            if stable is not None:
                self.reported.append(stable)


def test_the_first_board_is_reported_once_settled_and_not_again() -> None:
    table = Table(Position.initial(BG))
    table.wait(0.28)
    assert table.reported == []
    table.wait(0.1)
    assert table.reported == [sensed_view(Position.initial(BG), Capability.STACKS)]
    table.wait(2.0)
    assert len(table.reported) == 1


def test_a_checker_held_briefly_is_never_reported() -> None:
    table = Table(Position.initial(BG))
    table.wait(0.5)
    table.emulator.lift(13)
    table.wait(0.2)  # in the hand for less than the settle time
    table.emulator.place(7)
    table.wait(0.5)
    start = Position.initial(BG)
    after = single_moves(start, 6)
    (moved,) = [p.after_moves for p in after if str(p.moves[0]) == "13/7"]
    assert table.reported == [sensed_view(start, Capability.STACKS), sensed_view(moved, Capability.STACKS)]


def test_a_checker_held_long_is_reported_but_never_judged_a_play() -> None:
    start = Position.initial(BG)
    table = Table(start)
    reconciler = TurnReconciler(start, (6, 1), Capability.STACKS)
    table.wait(0.5)
    table.emulator.lift(13)
    table.wait(1.0)
    assert isinstance(reconciler.judge(table.reported[-1]), Misplaced)


@pytest.mark.parametrize("capability", CAPABILITIES)
def test_a_slide_across_points_is_reported_only_where_it_ends(capability: Capability) -> None:
    start = Position.initial(BG)
    table = Table(start, capability)
    reconciler = TurnReconciler(start, (5, 2), capability)
    table.wait(0.5)
    table.emulator.slide(13, 8)  # over 12 (black's), 11, 10, 9, one scan each
    table.wait(0.5)
    assert len(table.reported) == 2
    verdict = reconciler.judge(table.reported[1])
    assert isinstance(verdict, Partial) and [str(m.move) for m in verdict.moves] == ["13/8"]


def test_flicker_and_a_crooked_checker_are_never_reported() -> None:
    table = Table(Position.initial(BG))
    table.wait(0.5)
    table.emulator.flicker(6, scans=5)
    table.wait(0.5)
    table.emulator.straighten(13)
    table.wait(0.5)
    table.emulator.flicker(20, scans=3, sensed="b")  # a checker that is not there
    table.wait(0.5)
    assert len(table.reported) == 1


def test_a_board_that_changes_back_within_the_settle_time_is_not_reported() -> None:
    debouncer = Debouncer(0.3)
    a = sensed_view(Position.initial(BG), Capability.COUNTS)
    b = (ZoneReading.of_count(1), *a[1:])
    assert debouncer.update(a, 0.0) is None and debouncer.poll(0.29) is None
    assert debouncer.poll(0.3) == a and debouncer.stable == a
    assert debouncer.update(b, 1.0) is None
    assert debouncer.update(a, 1.2) is None
    assert debouncer.poll(5.0) is None  # back to the stable board: nothing new
    assert debouncer.change(1, ZoneReading.of_count(1), 6.0) is None
    assert debouncer.poll(6.25) is None and debouncer.poll(6.5) == b


def test_the_debouncer_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="negative"):
        Debouncer(-1)
    debouncer = Debouncer(0.3)
    with pytest.raises(ValueError, match="before any whole board"):
        debouncer.change(1, ZoneReading.of_count(0), 0.0)
    debouncer.update(sensed_view(Position.initial(BG), Capability.COUNTS), 5.0)
    with pytest.raises(ValueError, match="time went back"):
        debouncer.update(sensed_view(Position.initial(CG), Capability.COUNTS), 4.0)


# -- properties ------------------------------------------------------------------------------

SETTINGS = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
CORPUS = [turn for variant in Variant for turn in random_positions(variant, 200, seed=17)]
turns = st.one_of(st.sampled_from(CORPUS), st.tuples(st.sampled_from(Variant).flatmap(positions),
                                                       st.tuples(st.integers(1, 6), st.integers(1, 6))))


@SETTINGS
@given(turns, st.sampled_from(CAPABILITIES))
def test_every_legal_result_is_legal(turn: tuple[Position, tuple[int, int]], capability: Capability) -> None:
    position, dice = turn
    reconciler = TurnReconciler(position, dice, capability)
    for play in position.legal_plays(dice):
        verdict = reconciler.judge(sensed_view(play.after_moves, capability))
        if capability is Capability.STACKS:
            assert verdict == Legal(play)
        else:
            assert verdict == Legal(play) or (isinstance(verdict, Ambiguous) and play in verdict.plays)


@SETTINGS
@given(turns, st.sampled_from(CAPABILITIES), st.randoms(use_true_random=False))
def test_every_prefix_of_a_legal_play_is_partial(turn: tuple[Position, tuple[int, int]], capability: Capability,
                                                 rng: random.Random) -> None:
    position, dice = turn
    plays = position.legal_plays(dice)
    if not plays:
        return
    play = rng.choice(plays)
    reconciler = TurnReconciler(position, dice, capability)
    legal_views = {sensed_view(p.after_moves, capability) for p in plays}
    step = position
    for done, move in enumerate(play.moves[:-1], start=1):
        step = next(p.after_moves for die in set(dice) for p in single_moves(step, die) if p.moves[0] == move)
        view = sensed_view(step, capability)
        verdict = reconciler.judge(view)
        if view in legal_views:  # another play's result (4/off on the way, 4/3/off done), or alike to one
            assert isinstance(verdict, Legal | Ambiguous)
        else:
            assert isinstance(verdict, Partial) and len(verdict.moves) == done, verdict


@SETTINGS
@given(turns, st.sampled_from(CAPABILITIES))
def test_a_partial_verdict_tells_its_dice_left_before_its_moves_are_found(
        turn: tuple[Position, tuple[int, int]], capability: Capability) -> None:
    """The dice left (its code) come from the board's node; the moves, found when first read, agree with them."""
    position, dice = turn
    reconciler = TurnReconciler(position, dice, capability)
    ways = reconciler._ways
    for node in ways.nodes():  # every board on the way, a hit half done included
        assert ways.played(node) == len(ways.way(node)), node
    most = reconciler.plays.dice_played
    for nodes in ways._partial.values():
        board = ways.board(nodes[0])
        verdict = reconciler.judge(view_of(board, capability))
        if isinstance(verdict, Partial):
            left = verdict.dice_left
            assert verdict == Partial(verdict.moves, verdict.dice_left, verdict.board)
            assert left == ways.dice_left(nodes[0])[:most - len(verdict.moves)] and verdict.board == board


@SETTINGS
@given(turns, st.randoms(use_true_random=False))
def test_a_checker_put_on_a_wrong_zone_is_never_legal(turn: tuple[Position, tuple[int, int]],
                                                      rng: random.Random) -> None:
    position, dice = turn
    plays = position.legal_plays(dice)
    results = {layout(p.after_moves) for p in plays} or {layout(position)}
    stacks = list(rng.choice(sorted(results)))
    source = rng.choice([z for z, stack in enumerate(stacks) if stack])
    target = rng.choice([z for z in range(ZONE_COUNT) if z != source])
    stacks[target] += stacks[source][-1]
    stacks[source] = stacks[source][:-1]
    moved = tuple(stacks)
    verdict = TurnReconciler(position, dice, Capability.STACKS).judge(emulated(moved, Capability.STACKS).sensed())
    assert isinstance(verdict, Legal) == (moved in results)
    if moved not in results:
        assert not isinstance(verdict, Legal | Ambiguous)


@given(st.lists(st.tuples(*[st.integers(0, 20) | st.integers(0, 2**40)] * 2), min_size=2, max_size=2))
def test_a_zones_colours_are_keyed_by_one_value_equal_exactly_when_the_counts_are(
        pairs: list[tuple[int, int]]) -> None:
    (w1, b1), (w2, b2) = pairs
    assert (colours_code(w1, b1) == colours_code(w2, b2)) == ((w1, b1) == (w2, b2))
    assert colours_of(colours_code(w1, b1)) == (w1, b1)
    # told apart from a huge black count's neighbour, where a plain shift would not
    assert colours_code(1, 0) != colours_code(0, 16) and colours_of(colours_code(0, 16)) == (0, 16)


@given(turns)
def test_readings_of_colours_are_keyed_as_the_board_they_show(turn: tuple[Position, tuple[int, int]]) -> None:
    position, _ = turn
    board = layout(position)
    readings = sensed_view(position, Capability.COLOR_COUNTS)
    assert sensed_key(readings, Capability.COLOR_COUNTS) == board_key(board, Capability.COLOR_COUNTS)
    assert view_key(readings, Capability.COLOR_COUNTS) == board_key(board, Capability.COLOR_COUNTS)
    assert [colours_of(code) for code in board_key(board, Capability.COLOR_COUNTS)] == [
        (stack.count("w"), stack.count("b")) for stack in board]


def test_a_zone_read_with_a_huge_count_is_misplaced_and_told_as_read() -> None:
    start = Position.initial(BG)
    readings = list(sensed_view(start, Capability.COLOR_COUNTS))
    readings[7] = ZoneReading.of_colours(1, 16)  # no board holds it; a plain shift would read it as (2, 0)
    verdict = TurnReconciler(start, (6, 1), Capability.COLOR_COUNTS).judge(readings)
    assert isinstance(verdict, Misplaced)
    assert [(diff.zone, diff.sensed) for diff in verdict.diffs] == [(8, ZoneReading.of_colours(1, 16))]
