"""The sensing model: zone readings, their text form, zone names and differences."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from needs import examples

from game import zones
from game.board import Color, Variant
from game.errors import ZoneError
from game.position import Position
from game.zones import (
    MAX_STACK,
    ZONE_COUNT,
    ZONES,
    Capability,
    ZoneReading,
    implausible_board,
    layout,
    normalised,
    sensed_view,
    zone_diff,
    zone_name,
)


@pytest.mark.parametrize("fields", [(-1, None, None, None), (3, 2, None, None), (3, 2, 2, None),
                                    (2, None, None, "www"), (3, 1, 2, "bww"), (1, None, None, "x")])
def test_inconsistent_readings_are_refused(fields: tuple[int, int | None, int | None, str | None]) -> None:
    with pytest.raises(ZoneError):
        ZoneReading(*fields)


@given(st.text("wb", max_size=30), st.sampled_from(Capability))
def test_a_reading_reads_back_from_its_text(stack: str, capability: Capability) -> None:
    reading = ZoneReading.of_stack(stack).at(capability)
    assert ZoneReading.parse(reading.text()) == reading


@pytest.mark.parametrize("text", ["2w", "w1b", "3x", "-1", "²", "1w1bb"])
def test_text_that_is_no_reading_is_refused(text: str) -> None:
    with pytest.raises(ZoneError, match="is not a zone reading"):
        ZoneReading.parse(text)


def test_a_reading_cannot_be_told_at_more_than_its_sensor_knows() -> None:
    with pytest.raises(ZoneError, match="a COUNTS reading cannot be told at STACKS"):
        ZoneReading.of_count(2).at(Capability.STACKS)


def test_zone_names_by_board_number_or_a_players_own() -> None:
    assert [zone_name(z) for z in (1, 24, 25, 26, 27, 28)] == [
        "point 1", "point 24", "White's bar", "Black's bar", "White's tray", "Black's tray"]
    assert zone_name(1, (Variant.BACKGAMMON, Color.BLACK)) == "point 24"
    assert zone_name(1, (Variant.RUNGAMMON, Color.BLACK)) == "point 13"
    with pytest.raises(ZoneError):
        zone_name(29)


def test_a_position_stands_on_the_zones_with_bars_and_trays() -> None:
    position = Position(Variant.BACKGAMMON, Color.WHITE, ("w" * 13,) + ("",) * 22 + ("b" * 12,),
                        bar=(1, 2), off=(1, 1))
    stacks = layout(position)
    assert len(stacks) == len(ZONES)
    assert stacks[24:] == ("w", "bb", "w", "b")


def test_differences_are_told_only_as_far_as_the_sensor_can() -> None:
    start = Position.initial()
    moved = list(sensed_view(start, Capability.STACKS))
    moved[12], moved[7] = ZoneReading.of_stack("wwwwb"), ZoneReading.of_stack("ww")
    assert [d.describe() for d in zone_diff(start, moved, Capability.COUNTS)] == [
        "point 8 has 2, expected 3"]
    assert [d.describe() for d in zone_diff(start, moved, Capability.STACKS)] == [
        "point 8 has 2 white, expected 3 white", "point 13 has 5 (1 black on 4 white), expected 5 white"]


@st.composite
def boards(draw: st.DrawFn) -> tuple[list[ZoneReading], Capability]:
    """28 readings of checkers put anywhere, mostly within each side's 15, sometimes a checker too
    many or a reading of another capability than the board's."""
    capability = draw(st.sampled_from(Capability))
    stacks = [""] * ZONE_COUNT
    for colour in "wb":
        count = draw(st.sampled_from([0, 1, 7, 14, 15, 15, 16, 17, 30]))  # about each limit
        for zone in draw(st.lists(st.integers(0, ZONE_COUNT - 1), min_size=count, max_size=count)):
            stacks[zone] += colour
    readings = [ZoneReading.of_stack(stack[:MAX_STACK]).at(capability) for stack in stacks]
    if draw(st.booleans()):
        zone = draw(st.integers(0, ZONE_COUNT - 1))
        readings[zone] = ZoneReading.of_stack(stacks[zone][:MAX_STACK]).at(draw(st.sampled_from(Capability)))
    return readings, capability


@settings(max_examples=examples(400))
@given(boards())
def test_a_board_told_plausible_at_a_glance_is_plausible_zone_by_zone(
        board: tuple[list[ZoneReading], Capability]) -> None:
    readings, capability = board
    assert implausible_board(readings, capability) == zones._why_implausible(readings, capability)


@pytest.mark.parametrize("variant", list(Variant))
def test_every_position_of_a_game_is_a_plausible_board(variant: Variant) -> None:
    for capability in Capability:
        assert implausible_board(sensed_view(Position.initial(variant), capability), capability) is None
        assert zones._why_implausible(sensed_view(Position.initial(variant), capability), capability) is None


@given(boards(), st.sampled_from(Capability))
def test_a_board_normalised_at_a_glance_is_normalised_reading_by_reading(
        board: tuple[list[ZoneReading], Capability], capability: Capability) -> None:
    readings, _ = board
    try:
        expected: object = tuple(reading.at(capability) for reading in readings)
    except ZoneError as error:
        expected = str(error)
    try:
        found: object = normalised(readings, capability)
    except ZoneError as error:
        found = str(error)
    assert found == expected
