"""The discrepancy picture: sensed zones compared with the expected position, as far as each sensor tells."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from game.board import Color, Variant
from game.pictures import Geometry, SensedZone, compare_zones, draw_discrepancy, style
from game.pictures.discrepancy import Reading, board_origins
from game.position import Position

START = Position.initial(Variant.BACKGAMMON)


def all_zones(position: Position) -> dict[int, Reading]:
    """A perfect ordered reading of every zone of `position`."""
    readings: dict[int, Reading] = {zone: stack for zone, stack in enumerate(position.points, start=1)}
    readings.update({25: "w" * position.bar[0], 26: "b" * position.bar[1], 27: "w" * position.off[0],
                     28: "b" * position.off[1]})
    return readings


def test_short_forms_of_a_reading() -> None:
    assert SensedZone.of("bww") == SensedZone(3, 2, 1, "bww")
    assert SensedZone.of((2, 1)) == SensedZone(3, 2, 1)
    assert SensedZone.of(4) == SensedZone(4)
    assert SensedZone.of(SensedZone(0)) == SensedZone(0)


@pytest.mark.parametrize("fields", [(-1, None, None, None), (3, 2, None, None), (3, 2, 2, None),
                                    (2, None, None, "www"), (3, 1, 2, "bww"), (1, None, None, "x")])
def test_inconsistent_readings_are_refused(fields: tuple[int, int | None, int | None, str | None]) -> None:
    with pytest.raises(ValueError):
        SensedZone(*fields)


def test_a_perfect_reading_has_no_differences() -> None:
    assert compare_zones(START, all_zones(START)) == []


def test_each_sensor_is_judged_only_on_what_it_can_tell() -> None:
    catch = Position(Variant.CATCHGAMMON, Color.WHITE,
                     ("bww",) + ("",) * 22 + ("b" * 14,), off=(13, 0))
    swapped = {1: "wbw"}  # the same checkers, trapped the wrong way round
    assert [str(d) for d in compare_zones(catch, swapped)] == [
        "point 1: has 1w on 1b on 1w, expected 2w on 1b"]
    assert compare_zones(catch, {1: (2, 1)}) == []  # colour counts cannot see the order
    assert [str(d) for d in compare_zones(catch, {1: (1, 2)})] == ["point 1: has 1w 2b, expected 2w 1b"]
    assert compare_zones(catch, {1: 3, 24: 14, 27: 13}) == []  # counts cannot see colours
    assert [str(d) for d in compare_zones(catch, {24: 13})] == ["point 24: has 13, expected 14"]


def test_differences_name_zones_as_the_picture_numbers_them() -> None:
    readings = all_zones(START) | {24: "w", 23: "w", 25: "w", 28: 1}
    diffs = compare_zones(START, readings)
    assert [d.zone for d in diffs] == [23, 24, 25, 28]
    assert [str(d) for d in diffs] == [
        "point 23: has 1w, expected empty", "point 24: has 1w, expected 2w",
        "White's bar: has 1w, expected empty", "Black's tray: has 1, expected empty"]
    black_view = compare_zones(START, readings, perspective=Color.BLACK)
    assert [d.name for d in black_view] == ["point 2", "point 1", "White's bar", "Black's tray"]


def test_unsensed_zones_are_not_compared_and_unknown_zones_refused() -> None:
    assert compare_zones(START, {}) == []
    with pytest.raises(ValueError, match="zones are 1-28"):
        compare_zones(START, {29: 0})


def _outline_pixel(readings: Mapping[int, Reading], zone: int, board: int) -> tuple[int, ...]:
    """The pixel on the left edge of a zone's outline, on the sensed (0) or expected (1) board."""
    geometry = Geometry(0.8)
    image = draw_discrepancy(START, readings)
    x, y = board_origins(geometry, titled=False)[board]
    x0, y0, _, _ = geometry.zone_box(zone)
    pixel = image.getpixel((x + x0 + 1, y + y0 + geometry.px(40)))
    assert isinstance(pixel, tuple)
    return pixel


@pytest.mark.parametrize("board", [0, 1])
def test_a_differing_zone_is_outlined_on_both_boards_and_others_are_not(board: int) -> None:
    readings = all_zones(START) | {13: (4, 1), 8: 2}
    for zone in (13, 8):
        assert _outline_pixel(readings, zone, board) == style.VERMILLION
    for zone in (12, 6, 24):
        assert _outline_pixel(readings, zone, board) != style.VERMILLION


def test_the_picture_lists_every_difference_below_the_boards() -> None:
    few = draw_discrepancy(START, all_zones(START) | {13: (4, 1)})
    many = draw_discrepancy(START, {zone: 1 for zone in range(1, 25)})  # 24 lines in two columns
    none = draw_discrepancy(START, all_zones(START))
    assert few.size == none.size  # one line either way: a difference, or "every zone agrees"
    assert many.height == few.height + 11 * Geometry(0.8).px(24)
    assert draw_discrepancy(START, {}, title="Flag 1").height > none.height
