"""When the dice's reports make a throw, across the link going down and coming back
(firmware_host/controller/dice.py; hardware_docs/protocol.md, "A die at power-up")."""

from __future__ import annotations

from drivers.events import DieState
from drivers.protocol import DieStatus
from firmware_host.controller.dice import Cocked, DiceCollector, Thrown

SETTLED, ROLLING = DieStatus.SETTLED, DieStatus.ROLLING


def die(die_id: int, status: DieStatus, face: int | None, throw: int, *, resync: bool = False) -> DieState:
    return DieState(source="dice", timestamp=0.0, die_id=die_id, status=status, face=face, battery_pct=90,
                    throw=throw, resync=resync)


def outcomes(collector: DiceCollector, *states: DieState) -> list[object]:
    """What each report comes to while a roll is asked for."""
    return [collector.report(state, throw_expected=True, moving=False) for state in states]


def thrown_once(collector: DiceCollector, faces: tuple[int, int], throw: int) -> None:
    """Both dice thrown and settled with the link up (each die's count now `throw`)."""
    collector.expect()
    result = outcomes(collector, die(1, ROLLING, None, throw), die(2, ROLLING, None, throw),
                      die(1, SETTLED, faces[0], throw), die(2, SETTLED, faces[1], throw))
    assert result[-1] == Thrown(faces)


def test_dice_lying_as_they_lay_when_the_link_comes_back_are_not_a_throw() -> None:
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=3)
    collector.expect()  # the next player is to roll; the cable is pulled and plugged back in
    assert outcomes(collector, die(1, SETTLED, 6, 3, resync=True), die(2, SETTLED, 2, 3, resync=True)) == [None, None]


def test_dice_thrown_while_the_link_was_down_are_the_roll() -> None:
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=3)
    collector.expect()
    assert outcomes(collector, die(1, SETTLED, 4, 4, resync=True), die(2, SETTLED, 1, 4, resync=True)) == [
        None, Thrown((4, 1))]


def test_the_first_reports_ever_are_how_the_dice_lie() -> None:
    collector = DiceCollector(rethrow_cocked=False)
    collector.expect()
    assert outcomes(collector, die(1, SETTLED, 5, 17, resync=True), die(2, SETTLED, 3, 9, resync=True)) == [
        None, None]


def test_dice_that_restarted_with_the_board_lying_on_faces_are_not_a_throw() -> None:
    """A board powered off and on between two rolls: its dice start again from throw count 0, and a
    die that can sense its face reports it. That is a die's power-up, not a roll (protocol.md)."""
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=3)
    collector.expect()
    assert outcomes(collector, die(1, SETTLED, 5, 0, resync=True), die(2, SETTLED, 3, 0, resync=True)) == [
        None, None]
    # the next throw after the restart counts as any throw does
    assert outcomes(collector, die(1, ROLLING, None, 1), die(2, ROLLING, None, 1),
                    die(1, SETTLED, 3, 1), die(2, SETTLED, 3, 1)) == [None, None, None, Thrown((3, 3))]


def test_dice_that_restarted_and_were_thrown_while_the_link_was_down_are_the_roll() -> None:
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=3)
    collector.expect()
    assert outcomes(collector, die(1, SETTLED, 2, 1, resync=True), die(2, SETTLED, 5, 1, resync=True)) == [
        None, Thrown((2, 5))]


def test_a_throw_whose_rolling_reports_were_lost_on_the_line_is_the_roll() -> None:
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=3)
    collector.expect()
    assert outcomes(collector, die(1, SETTLED, 6, 4), die(2, SETTLED, 5, 4)) == [None, Thrown((6, 5))]


def test_a_die_reported_again_as_it_lies_is_not_a_throw() -> None:
    """A report that changes the battery alone (a real die's charge falls as it lies), or the same
    faces answered again after a lost frame, is how the dice lie, not a throw of them."""
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=3)
    collector.expect()
    lower = [DieState(source="dice", timestamp=1.0, die_id=n, status=SETTLED, face=face, battery_pct=89, throw=3)
             for n, face in ((1, 6), (2, 2))]
    assert outcomes(collector, *lower, die(1, SETTLED, 6, 3), die(2, SETTLED, 2, 3)) == [None] * 4


def test_dice_that_restarted_are_not_a_throw_when_the_link_never_went_down() -> None:
    """The board restarted between two of the host's reads: the host, seeing a frame lost, asks for
    the dice, and they answer from throw count 0, lying on their faces, with no reconnection."""
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=3)
    collector.expect()
    assert outcomes(collector, die(1, SETTLED, 6, 0), die(2, SETTLED, 2, 0)) == [None, None]


def test_a_throw_that_wraps_the_count_to_0_counts_when_it_is_seen_rolling() -> None:
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=65535)
    thrown_once(collector, (1, 1), throw=0)


def test_a_cocked_die_laid_flat_by_hand_completes_the_throw() -> None:
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=3)
    collector.expect()
    assert outcomes(collector, die(1, ROLLING, None, 4), die(2, ROLLING, None, 4), die(1, SETTLED, 4, 4),
                    die(2, DieStatus.COCKED, None, 4), die(2, SETTLED, 3, 4)) == [
        None, None, None, Cocked(rethrow=False), Thrown((4, 3))]


def test_a_die_put_down_by_hand_on_a_face_is_not_a_throw() -> None:
    collector = DiceCollector(rethrow_cocked=False)
    thrown_once(collector, (6, 2), throw=3)
    collector.expect()
    assert outcomes(collector, die(1, DieStatus.REMOVED, None, 3), die(2, DieStatus.REMOVED, None, 3),
                    die(1, SETTLED, 6, 3), die(2, SETTLED, 6, 3)) == [None] * 4
