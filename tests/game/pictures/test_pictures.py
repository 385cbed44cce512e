"""Board and play pictures, and the golden images every picture kind is checked against.

Golden images live in tests/golden/ and are compared pixel for pixel. After a
deliberate change to the drawing, look at the new pictures and regenerate them:

    UPDATE_GOLDEN=1 python3 -m pytest tests/test_pictures*.py

A mismatch fails with the path of the picture actually drawn, to compare by eye.
They are tied to Pillow's rasteriser: a new Pillow release may call for regenerating them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import readings
from goldens import assert_golden
from PIL import Image, ImageChops

from game.board import OWN_TO_BOARD, Color, Variant
from game.errors import IllegalPlayError
from game.pictures import (
    CubeView,
    Geometry,
    ScoreView,
    draw_board,
    draw_discrepancy,
    draw_play,
    find_play,
    play_arrows,
    render_command,
    style,
)
from game.position import Position
from game.selfplay import random_positions
from game.zones import BLACK_BAR, BLACK_OFF, WHITE_BAR, WHITE_OFF, ZONES

# A Catchgammon middle game: two checkers of each side trapped, Black on roll.
CATCHGAMMON_TRAPS = Position.from_json(
    '{"variant":"catchgammon","turn":"black","points":[[],["w"],[],[],[],["b","b"],["b","b"],'
    '["w","b","b"],["b","w"],["b","w","w","w"],["w"],["w","w","w"],[],[],["w"],[],["w"],["w","w"],[],[],'
    '["b","b"],["w","b"],["b","b","b","b"],[]],"bar":{"white":0,"black":0},"off":{"white":0,"black":0}}')
# Backgammon: White's 24/22 hits Black's blot on White's 22 point.
BACKGAMMON_BLOT = Position.from_json(
    '{"variant":"backgammon","turn":"white","points":[["b","b"],["w"],["w","w"],["w"],[],["w","w","w"],[],'
    '["w"],[],[],[],["b","b","b","b"],["w","w","w","w","w"],[],[],[],["b","b"],[],["b","b","b","b"],[],[],'
    '["b"],["b","b"],["w","w"]],"bar":{"white":0,"black":0},"off":{"white":0,"black":0}}')


# -- golden images --------------------------------------------------------------------------------

GOLDEN_BOARDS: dict[str, Any] = {
    "backgammon_start": lambda: draw_board(Position.initial(Variant.BACKGAMMON), dice=(3, 1),
                                           cube=CubeView(2, Color.BLACK), score=ScoreView(2, 4, 7)),
    "catchgammon_start_both_sides": lambda: draw_board(Position.initial(Variant.CATCHGAMMON),
                                                       both_sides=True),
    "rungammon_start_black_small": lambda: draw_board(Position.initial(Variant.RUNGAMMON, Color.BLACK),
                                                      dice=(6, 5), scale=0.6),
    "catchgammon_trapped_crawford": lambda: draw_board(CATCHGAMMON_TRAPS, dice=(2, 1),
                                                       cube=CubeView(1, None, crawford=True),
                                                       score=ScoreView(6, 5, 7)),
    "backgammon_play_hit": lambda: draw_play(BACKGAMMON_BLOT, "24/22*/20 13/9", dice=(2, 2)),
    "catchgammon_play_trap": lambda: draw_play(CATCHGAMMON_TRAPS, "19/14* 17/14", dice=(5, 3)),
    "discrepancy": lambda: draw_discrepancy(
        Position.initial(Variant.BACKGAMMON),
        readings({**{z: s for z, s in enumerate(Position.initial(Variant.BACKGAMMON).points, 1)},
                  24: "w", 23: "w", 13: (4, 1), 8: 2, WHITE_BAR: 0, BLACK_BAR: 0, 27: 0}),
        title="Flag 3: the sensed board is not a legal play"),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_BOARDS))
def test_golden_pictures(name: str, tmp_path: Path) -> None:
    assert_golden(GOLDEN_BOARDS[name](), name, tmp_path)


def test_a_golden_mismatch_fails_and_keeps_the_drawn_picture(tmp_path: Path) -> None:
    reference = GOLDEN_BOARDS["rungammon_start_black_small"]()
    reference.save(tmp_path / "small.png")
    assert_golden(reference, "small", tmp_path, directory=tmp_path, update=False)
    wrong = reference.copy()
    wrong.putpixel((5, 5), (255, 0, 0))
    with pytest.raises(pytest.fail.Exception, match=r"pixels differ within \(5, 5, 6, 6\)"):
        assert_golden(wrong, "small", tmp_path, directory=tmp_path, update=False)
    with Image.open(tmp_path / "small-actual.png") as kept:
        assert kept.getpixel((5, 5)) == (255, 0, 0)
    width, height = reference.size
    taller = wrong.crop((0, 0, width, height + 1))
    with pytest.raises(pytest.fail.Exception, match=rf"size \({width}, {height + 1}\), golden \({width}, "):
        assert_golden(taller, "small", tmp_path, directory=tmp_path, update=False)


# -- the board ------------------------------------------------------------------------------------

def _near(pixel: Any, colour: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


@pytest.mark.parametrize("variant", list(Variant))
def test_every_stack_is_drawn_on_its_own_point(variant: Variant) -> None:
    geometry = Geometry()
    corpus = [position for position, _ in random_positions(variant, 120, seed=5)[::6]]
    if variant is Variant.BACKGAMMON:
        assert any(any(position.bar) for position in corpus)
    if variant is Variant.CATCHGAMMON:
        assert any(position.trapped(Color.WHITE) for position in corpus)
    for position in corpus:
        image = draw_board(position)
        trapped = set(position.trapped(Color.WHITE) + position.trapped(Color.BLACK))
        stacks = {**dict(enumerate(position.points, start=1)), WHITE_BAR: "w" * position.bar[0],
                  BLACK_BAR: "b" * position.bar[1]}
        for zone, stack in stacks.items():
            pixel = image.getpixel(geometry.checker_centre(zone, 0))
            if not stack:
                assert not any(_near(pixel, fill) for fill in style.CHECKER_FILL.values()), (zone, position)
            elif zone in trapped:
                assert _near(pixel, style.ORANGE, 40), (zone, position)
            else:
                assert _near(pixel, style.CHECKER_FILL[Color.from_char(stack[0])]), (zone, position)


def test_borne_off_checkers_lie_in_their_owners_trays() -> None:
    points = [""] * 24
    points[0], points[23] = "w" * 5, "b" * 12
    position = Position(Variant.BACKGAMMON, Color.WHITE, tuple(points), off=(10, 3))
    image, geometry = draw_board(position), Geometry()
    for zone, color, count in ((27, Color.WHITE, 10), (28, Color.BLACK, 3)):
        assert _near(image.getpixel(geometry.checker_centre(zone, count - 1)), style.CHECKER_FILL[color], 30)
        assert _near(image.getpixel(geometry.checker_centre(zone, count + 1)), style.TRAY, 30)


def test_trapped_checkers_get_the_orange_cross_only_where_trapped() -> None:
    image, geometry = draw_board(CATCHGAMMON_TRAPS), Geometry()
    trapped = set(CATCHGAMMON_TRAPS.trapped(Color.WHITE) + CATCHGAMMON_TRAPS.trapped(Color.BLACK))
    assert len(trapped) == 4
    for point in range(1, 25):
        crossed = _near(image.getpixel(geometry.checker_centre(point, 0)), style.ORANGE, 40)
        assert crossed == (point in trapped), point


def test_size_follows_scale_and_the_second_row_of_numbers() -> None:
    start = Position.initial(Variant.BACKGAMMON)
    assert draw_board(start).size == Geometry().size == (748, 596)
    assert draw_board(start, scale=0.5).size == Geometry(0.5).size == (374, 298)
    assert draw_board(start, both_sides=True).size == (748, 636)


def test_zones_do_not_overlap_and_every_checker_stays_in_its_zone() -> None:
    geometry = Geometry()
    boxes = {zone: geometry.zone_box(zone) for zone in ZONES}
    for a in ZONES:
        for b in ZONES:
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[a], boxes[b]
            assert a == b or ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0, (a, b)
        x0, y0, x1, y1 = boxes[a]
        for slot in range(15):
            x, y = geometry.checker_centre(a, slot)
            assert x0 <= x < x1 and y0 <= y < y1, (a, slot)


def test_the_roller_s_dice_lie_on_the_roller_s_half() -> None:
    geometry = Geometry()
    for color, right in ((Color.WHITE, True), (Color.BLACK, False)):
        image = draw_board(Position.initial(Variant.BACKGAMMON, color), dice=(5, 2))
        x0, y0, x1, y1 = geometry.half(right)
        (dx, dy), _ = geometry.dice_centres(color)
        assert x0 < dx < x1 and y0 < dy < y1
        assert _near(image.getpixel((dx - 4, dy - 4)), style.CHECKER_FILL[color], 20)


# -- plays ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", list(Variant))
def test_one_arrow_per_move_from_source_to_target(variant: Variant) -> None:
    geometry = Geometry()
    checked = 0
    for position, dice in random_positions(variant, 40, seed=9):
        for play in position.legal_plays(dice)[:3]:
            arrows = play_arrows(position, play.moves, geometry)
            assert len(arrows.moves) == len(play.moves)
            hits = sum(m.hit for m in play.moves)
            assert len(arrows.knocked) == (hits if variant is Variant.BACKGAMMON else 0)
            table = OWN_TO_BOARD[variant, position.turn]
            for arrow, move in zip(arrows.moves, play.moves, strict=True):
                white = position.turn is Color.WHITE
                source = (25 if white else 26) if move.source == 25 else table[move.source]
                target = (27 if white else 28) if move.target == 0 else table[move.target]
                assert _inside(arrow.start, geometry.zone_box(source)), (move, source)
                assert _inside(arrow.end, geometry.zone_box(target)), (move, target)
                checked += 1
    assert checked > 100


def _inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def _count(image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> int:
    counts = image.crop(box).getcolors(1 << 24) or []
    return sum(n for n, pixel in counts if pixel == colour)


def test_a_play_draws_blue_arrows_and_marks_its_hit() -> None:
    play, _ = find_play(BACKGAMMON_BLOT, "24/22*/20 13/9", (2, 2))
    field = Geometry().field()
    plain = draw_board(play.after_moves)
    drawn = draw_play(BACKGAMMON_BLOT, play, dice=(2, 2))
    assert _count(plain, style.BLUE, field) == 0 and _count(plain, style.VERMILLION, field) == 0
    assert _count(drawn, style.BLUE, field) > 500
    assert _count(drawn, style.VERMILLION, field) > 100  # the burst, the word "hit", the way to the bar
    quiet, _ = find_play(BACKGAMMON_BLOT, "13/9 6/2", (2, 2))
    assert _count(draw_play(BACKGAMMON_BLOT, quiet), style.VERMILLION, field) == 0


def test_notation_resolves_to_the_legal_play_and_its_roll() -> None:
    start = Position.initial(Variant.BACKGAMMON)
    play, roll = find_play(start, "13/8 6/5")
    assert play.notation() == "13/8 6/5" and roll == (5, 1)
    chained, _ = find_play(start, "24/14", (6, 4))
    assert {str(m) for m in chained.moves} in ({"24/18", "18/14"}, {"24/20", "20/14"})
    _, ambiguous_roll = find_play(start, "24/18 13/11")  # 62, or 22 played 24/22/20/18 13/11
    assert ambiguous_roll is None
    with pytest.raises(IllegalPlayError, match="not a legal play"):
        find_play(start, "24/18 13/11", (5, 1))


def test_no_move_is_the_play_of_a_roll_that_cannot_be_played() -> None:
    points = [""] * 24
    points[5], points[7], points[12], points[11] = "w" * 5, "w" * 3, "w" * 6, "bbb"
    for point in range(18, 24):  # Black holds its whole home board: White cannot enter from the bar
        points[point] = "bb"
    closed = Position(Variant.BACKGAMMON, Color.WHITE, tuple(points), (1, 0), (0, 0))
    play, roll = find_play(closed, [], (6, 5))
    assert (play.moves, play.after_moves, roll) == ((), closed, (6, 5))
    with pytest.raises(IllegalPlayError, match="must be played"):
        find_play(Position.initial(Variant.BACKGAMMON), [], (6, 5))


def test_the_hit_mark_chooses_between_two_ways_to_the_same_point() -> None:
    points = list(Position.initial(Variant.BACKGAMMON).points)
    points[18], points[20] = "bbbb", "b"  # a black blot on White's 21 point
    position = Position(Variant.BACKGAMMON, Color.WHITE, tuple(points))
    with pytest.raises(IllegalPlayError, match="ambiguous"):
        find_play(position, [(24, 15)], (6, 3))  # bare steps say nothing of hits
    hitting, _ = find_play(position, "24/21*/15", (6, 3))
    quiet, _ = find_play(position, "24/18/15", (6, 3))
    assert hitting.after_moves.bar == (0, 1) and quiet.after_moves.bar == (0, 0)
    assert find_play(position, "24/15", (6, 3))[0] == quiet  # no star: no hit


def test_render_command_writes_the_picture(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    render_command(BACKGAMMON_BLOT, "24/22*/20 13/9", (2, 2), out, both_sides=False)
    expected = draw_play(BACKGAMMON_BLOT, "24/22*/20 13/9", dice=(2, 2), cube=CubeView())  # the cube, centred
    with Image.open(out) as written:
        assert ImageChops.difference(written.convert("RGB"), expected).getbbox() is None
    render_command(Position.initial(Variant.RUNGAMMON), None, None, out, both_sides=True)
    with Image.open(out) as written:
        assert written.size == (748, 636)
    with pytest.raises(IllegalPlayError):
        render_command(BACKGAMMON_BLOT, "24/12", (2, 2), out, both_sides=False)


@pytest.mark.parametrize("zone", [WHITE_OFF, BLACK_OFF])
def test_a_trays_count_stands_clear_of_its_slabs_even_when_all_fifteen_are_off(zone: int) -> None:
    geometry = Geometry()
    x0, y0, x1, y1 = geometry.zone_box(zone)
    half_slab = 11 // 2 + 1  # the slabs are 11 units high
    for count in range(16):
        x, y = geometry.tray_count_centre(zone, count)
        assert x0 < x < x1 and y0 < y < y1, count  # within its tray
        for slot in range(count):
            _, slab = geometry.checker_centre(zone, slot)
            assert abs(y - slab) >= half_slab + 4, (count, slot)  # not on a slab: about 6 units of text beside it


def test_a_finished_games_final_position_has_no_one_on_roll() -> None:
    from game.pictures.board import position_parts

    done = Position(Variant.BACKGAMMON, Color.WHITE, tuple([""] * 23 + ["bbbbbbbbbbbbbbb"]), off=(15, 0))
    assert done.result() is not None
    assert all("on roll" not in text for text, _, _ in position_parts(done, Color.WHITE))
    going = Position.initial(Variant.BACKGAMMON, Color.WHITE)
    assert any("on roll" in text for text, _, _ in position_parts(going, Color.WHITE))
