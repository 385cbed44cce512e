"""The discrepancy picture: sensed zones compared with the expected position, as far as each sensor tells."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from builders import readings

from game.board import Color, Variant
from game.pictures import Geometry, compare_zones, draw_discrepancy, style
from game.pictures.discrepancy import board_origins
from game.position import Position
from game.zones import ZoneReading

START = Position.initial(Variant.BACKGAMMON)


def all_zones(position: Position) -> dict[int, ZoneReading]:
    """A perfect ordered reading of every zone of `position`."""
    stacks: dict[int, str | tuple[int, int] | int] = dict(enumerate(position.points, start=1))
    stacks.update({25: "w" * position.bar[0], 26: "b" * position.bar[1], 27: "w" * position.off[0],
                   28: "b" * position.off[1]})
    return readings(stacks)


def test_a_perfect_reading_has_no_differences() -> None:
    assert compare_zones(START, all_zones(START)) == []


def test_each_sensor_is_judged_only_on_what_it_can_tell() -> None:
    catch = Position(Variant.CATCHGAMMON, Color.WHITE,
                     ("bww",) + ("",) * 22 + ("b" * 14,), off=(13, 0))
    swapped = readings({1: "wbw"})  # the same checkers, trapped the wrong way round
    assert [d.describe() for d in compare_zones(catch, swapped)] == [
        "point 1 has 3 (1 white on 1 black on 1 white), expected 3 (2 white on 1 black)"]
    assert compare_zones(catch, readings({1: (2, 1)})) == []  # colour counts cannot see the order
    assert [d.describe() for d in compare_zones(catch, readings({1: (1, 2)}))] == [
        "point 1 has 3 (1 white, 2 black), expected 3 (2 white, 1 black)"]
    assert compare_zones(catch, readings({1: 3, 24: 14, 27: 13})) == []  # counts cannot see colours
    assert [d.describe() for d in compare_zones(catch, readings({24: 13}))] == ["point 24 has 13, expected 14"]


def test_differences_name_zones_as_the_picture_numbers_them() -> None:
    sensed = all_zones(START) | readings({24: "w", 23: "w", 25: "w", 28: 1})
    diffs = compare_zones(START, sensed)
    assert [d.zone for d in diffs] == [23, 24, 25, 28]
    assert [d.describe() for d in diffs] == [
        "point 23 has 1 white, expected none", "point 24 has 1 white, expected 2 white",
        "White's bar has 1 white, expected none", "Black's tray has 1, expected none"]
    black_view = [d.describe((Variant.BACKGAMMON, Color.BLACK)).split(" has")[0] for d in diffs]
    assert black_view == ["point 2", "point 1", "White's bar", "Black's tray"]


def test_unsensed_zones_are_not_compared_and_unknown_zones_refused() -> None:
    assert compare_zones(START, {}) == []
    with pytest.raises(ValueError, match="zones are 1-28"):
        compare_zones(START, readings({29: 0}))


def _outline_pixel(sensed: Mapping[int, ZoneReading], zone: int, board: int) -> tuple[int, ...]:
    """The pixel on the left edge of a zone's outline, on the sensed (0) or expected (1) board."""
    geometry = Geometry(0.8)
    image = draw_discrepancy(START, sensed)
    x, y = board_origins(geometry, titled=False)[board]
    x0, y0, _, _ = geometry.zone_box(zone)
    pixel = image.getpixel((x + x0 + 1, y + y0 + geometry.px(40)))
    assert isinstance(pixel, tuple)
    return pixel


@pytest.mark.parametrize("board", [0, 1])
def test_a_differing_zone_is_outlined_on_both_boards_and_others_are_not(board: int) -> None:
    sensed = all_zones(START) | readings({13: (4, 1), 8: 2})
    for zone in (13, 8):
        assert _outline_pixel(sensed, zone, board) == style.VERMILLION
    for zone in (12, 6, 24):
        assert _outline_pixel(sensed, zone, board) != style.VERMILLION


def test_the_picture_lists_every_difference_below_the_boards() -> None:
    few = draw_discrepancy(START, all_zones(START) | readings({13: (4, 1)}))
    many = draw_discrepancy(START, readings({zone: 1 for zone in range(1, 25)}))  # 24 lines in two columns
    none = draw_discrepancy(START, all_zones(START))
    assert few.size == none.size  # one line either way: a difference, or "every zone agrees"
    assert many.height == few.height + 11 * Geometry(0.8).px(24)
    assert draw_discrepancy(START, {}, title="Flag 1").height > none.height
