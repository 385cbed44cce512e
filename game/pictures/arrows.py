"""A play drawn on the board: the position after it, with an arrow for every checker moved.

Each arrow runs from the checker's place before the play (left behind as a
faded checker) to where it landed. A hit is marked with a burst, the word
"hit" and a thin arrow to the bar; a Catchgammon trap with a burst and "trap".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from game.board import BAR, OFF, OWN_TO_BOARD, Color, Variant
from game.errors import AmbiguousPlayError, IllegalPlayError
from game.pictures import style
from game.pictures.board import (
    POINT_SLOTS,
    Centre,
    Contents,
    CubeView,
    Geometry,
    ScoreView,
    draw_board,
    zone_slots,
)
from game.play_reader import candidates, describe
from game.plays import Move, Play, WrittenPlay
from game.position import Position
from game.zones import BAR_ZONE, OFF_ZONE

Step = tuple[int, int]
ROLLS = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))


@dataclass(frozen=True, slots=True)
class Arrow:
    """One checker's way across the picture, in pixels."""

    start: Centre
    end: Centre
    hit: bool = False  # the move hit (Backgammon) or trapped (Catchgammon) a checker


@dataclass(frozen=True, slots=True)
class PlayArrows:
    """Where a play's arrows go: one per move, one per hit checker sent to the bar, the places left empty and
    the hit or trap labels."""

    moves: tuple[Arrow, ...]  # one per move of the play, in order
    knocked: tuple[Arrow, ...]  # from each hit point to the bar (Backgammon only)
    ghosts: tuple[tuple[Centre, Color], ...]  # places left empty by the play
    labels: tuple[Centre, ...]  # where "hit" or "trap" is written: just past the stack on the point


# -- from notation to a play ---------------------------------------------------

def find_play(position: Position, play: str | Sequence[Move | Step],
              dice: tuple[int, int] | None = None) -> tuple[Play, tuple[int, int] | None]:
    """The legal play of the player on roll that `play` describes, and the roll it needs.

    `play` is notation ("24/18 13/11", "24/21*/15") or (source, target) steps in the mover's
    numbering, read by the project's one resolver (`game.play_reader`): a step may span several
    dice, and stars say where it hit ("24/21*/15" hits, "24/15" does not); bare steps say
    nothing of hits. Without `dice` every roll is tried, and the roll is returned only when a
    single one fits. Raises IllegalPlayError when no legal play fits or several different ones do.
    """
    if isinstance(play, str):
        written = WrittenPlay.parse(play)
    else:
        steps = [(m.source, m.target) if isinstance(m, Move) else m for m in play]
        hits = frozenset(m.target for m in play if isinstance(m, Move) and m.hit) or None
        written = WrittenPlay.of_steps(steps, hits)
    found: dict[Position, tuple[Play, list[tuple[int, int]]]] = {}
    problems: list[IllegalPlayError] = []
    for roll in (dice,) if dice else ROLLS:
        try:
            fitting = candidates(position, roll, written) or [Play((), position)]  # none written, none possible
        except IllegalPlayError as exc:
            problems.append(exc)
            continue
        for candidate in fitting:
            found.setdefault(candidate.after_moves, (candidate, []))[1].append(roll)
    if not found:
        raise problems[0] if dice else IllegalPlayError(
            f"no legal play for {position.turn.value} with any roll matches {written.text!r} in {position.notation()}")
    if len(found) > 1:
        plays = tuple(p for p, _ in found.values())
        where = f"with {dice[0]}{dice[1]}" if dice else "with the rolls that fit"
        raise AmbiguousPlayError(f"{written.text!r} is ambiguous for {position.turn.value} {where}: "
                                 f"{describe(plays)} (name the points in between)", plays)
    (chosen, fitting_rolls), = found.values()
    return chosen, (fitting_rolls[0] if len(fitting_rolls) == 1 else None)


# -- geometry of the arrows ----------------------------------------------------

def play_arrows(before: Position, moves: Sequence[Move], geometry: Geometry) -> PlayArrows:
    """Where each moved checker started and landed, following the stacks move by move."""
    mover = before.turn
    table = OWN_TO_BOARD[before.variant, mover]
    heights = [len(stack) for stack in Contents.of_position(before).stacks]
    arrows: list[Arrow] = []
    knocked: list[Arrow] = []
    sources: list[tuple[int, int]] = []
    for move in moves:
        source = BAR_ZONE[mover] if move.source == BAR else table[move.source]
        target = OFF_ZONE[mover] if move.target == OFF else table[move.target]
        heights[source] -= 1
        start = geometry.checker_centre(source, heights[source])
        sources.append((source, heights[source]))
        if move.hit and before.variant is Variant.BACKGAMMON:
            victim = BAR_ZONE[mover.opponent]
            knocked.append(Arrow(geometry.checker_centre(target, 0),
                                 geometry.checker_centre(victim, heights[victim]), hit=True))
            heights[victim] += 1
            heights[target] = 0
        arrows.append(Arrow(start, geometry.checker_centre(target, heights[target]), move.hit))
        heights[target] += 1
    ghosts = tuple((geometry.checker_centre(zone, slot), mover) for zone, slot in sources
                   if min(slot, zone_slots(zone) - 1) >= min(heights[zone], zone_slots(zone)))
    labels = []
    for move in moves:
        if move.hit:
            point = table[move.target]
            x, y = geometry.checker_centre(point, max(min(heights[point], POINT_SLOTS), 1) - 1)
            labels.append((x, y + geometry.checker if point > 12 else y - geometry.checker))
    return PlayArrows(tuple(arrows), tuple(knocked), ghosts, tuple(labels))


def draw_play(before: Position, play: Play | str | Sequence[Move | Step], *,
              dice: tuple[int, int] | None = None, cube: CubeView | None = None,
              score: ScoreView | None = None, perspective: Color | None = None, both_sides: bool = False,
              scale: float = 1.0) -> Image.Image:
    """The position after `play` with its arrows; `play` may also be notation or steps to resolve."""
    if not isinstance(play, Play):
        play, roll = find_play(before, play, dice)
        dice = dice or roll
    geometry = Geometry(scale, both_sides)
    image = draw_board(play.after_moves.with_turn(before.turn), dice=dice, cube=cube, score=score,
                       perspective=perspective or before.turn, both_sides=both_sides, scale=scale)
    paint_arrows(image, geometry, play_arrows(before, play.moves, geometry),
                 "trap" if before.variant is Variant.CATCHGAMMON else "hit")
    return image


def paint_arrows(image: Image.Image, geometry: Geometry, arrows: PlayArrows, hit_word: str) -> None:
    """Draw a play's arrows, the checkers' ghosts where they left, and the hit or trap labels."""
    diameter = geometry.checker
    for centre, color in arrows.ghosts:
        ghost = _ghost_sprite(diameter, color)
        image.paste(ghost, (centre[0] - diameter // 2, centre[1] - diameter // 2), ghost)
    every = arrows.moves + arrows.knocked
    if not every:
        return
    # Arrows are drawn twice as large, then reduced, for smooth edges; only over the box they span.
    k, bow = 2, geometry.px(60)
    margin = diameter + bow
    x0 = max(0, min(min(a.start[0], a.end[0]) for a in every) - margin)
    y0 = max(0, min(min(a.start[1], a.end[1]) for a in every) - margin)
    x1 = min(image.width, max(max(a.start[0], a.end[0]) for a in every) + margin)
    y1 = min(image.height, max(max(a.start[1], a.end[1]) for a in every) + margin)
    overlay = Image.new("RGBA", ((x1 - x0) * k, (y1 - y0) * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    middle_y = (geometry.field()[1] + geometry.field()[3]) / 2
    pen = _Pen(draw, k, (x0, y0), middle_y, bow, diameter * 0.3)
    for arrow in arrows.knocked:
        pen.arrow(arrow, geometry.px(2.5), style.VERMILLION)
    for arrow in arrows.moves:
        pen.arrow(arrow, geometry.px(5), style.BLUE)
    for arrow in arrows.moves:
        if arrow.hit:
            pen.burst(arrow.end, diameter)
    small = overlay.reduce(k)
    image.paste(small, (x0, y0), small)
    text = ImageDraw.Draw(image)
    label_font = style.font(geometry.px(12), bold=True)
    for x, y in arrows.labels:
        box = text.textbbox((x, y), hit_word, font=label_font, anchor="mm")
        pad = geometry.px(3)
        text.rounded_rectangle((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad), radius=pad,
                               fill=style.VERMILLION)
        text.text((x, y), hit_word, fill=style.PAPER, font=label_font, anchor="mm")


@lru_cache(maxsize=8)
def _ghost_sprite(diameter: int, color: Color) -> Image.Image:
    checker = style.checker_sprite(diameter, color).copy()
    checker.putalpha(checker.getchannel("A").point(lambda a: a * 2 // 5))
    return checker


@dataclass(frozen=True, slots=True)
class _Pen:
    """Draws on an overlay `k` times larger than the picture, whose corner is at `origin`."""

    draw: ImageDraw.ImageDraw
    k: int
    origin: Centre
    middle_y: float  # arrows along one side of the board bow toward this line
    bow: float  # the largest bow
    trim: float  # arrows start and end this far from the checkers' centres, to keep counts readable

    def _at(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.origin[0]) * self.k, (y - self.origin[1]) * self.k

    def arrow(self, arrow: Arrow, width: int, colour: style.RGB) -> None:
        x0, y0 = float(arrow.start[0]), float(arrow.start[1])
        x1, y1 = float(arrow.end[0]), float(arrow.end[1])
        span = math.hypot(x1 - x0, y1 - y0)
        if span > 2 * self.trim:
            dx, dy = (x1 - x0) * self.trim / span, (y1 - y0) * self.trim / span
            x0, y0, x1, y1 = x0 + dx, y0 + dy, x1 - dx * 0.6, y1 - dy * 0.6
        same_side = (y0 < self.middle_y) == (y1 < self.middle_y)
        bow = min(abs(x1 - x0) * 0.3, self.bow) if same_side else 0.0
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + (bow if y0 < self.middle_y else -bow)
        length = math.hypot(x1 - cx, y1 - cy)
        if length < 1:
            return
        ux, uy = (x1 - cx) / length, (y1 - cy) / length
        head = width * 3.2
        bx, by = x1 - ux * head, y1 - uy * head
        wx, wy = -uy * head * 0.6, ux * head * 0.6
        shaft = [self._at(*_bezier((x0, y0), (cx, cy), (bx, by), t / 16)) for t in range(17)]
        triangle = [self._at(x1, y1), self._at(bx + wx, by + wy), self._at(bx - wx, by - wy)]
        halo = style.PAPER + (235,)
        self.draw.line(shaft, fill=halo, width=(width + 4) * self.k, joint="curve")
        self.draw.polygon(triangle, fill=halo, outline=halo, width=2 * self.k)
        self.draw.line(shaft, fill=colour + (255,), width=width * self.k, joint="curve")
        self.draw.polygon(triangle, fill=colour + (255,))

    def burst(self, centre: Centre, diameter: int) -> None:
        """A spiky outline around a checker that hit or trapped."""
        points = []
        for i in range(24):
            radius = diameter * (0.78 if i % 2 == 0 else 0.56)
            angle = math.pi * i / 12
            x, y = centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle)
            points.append(self._at(x, y))
        self.draw.polygon(points, outline=style.VERMILLION + (255,), width=max(2, diameter // 12) * self.k)


def _bezier(a: tuple[float, float], c: tuple[float, float], b: tuple[float, float],
            t: float) -> tuple[float, float]:
    u = 1 - t
    return (u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1])
