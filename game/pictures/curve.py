"""A learning curve: win rate against fixed opponents as training goes on, one line per opponent."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PIL import Image, ImageDraw

from game.pictures import style

WIDTH, HEIGHT = 900, 520
LEFT, RIGHT, TOP, BOTTOM = 80, 190, 56, 60
LINES = (style.BLUE, style.VERMILLION, style.ORANGE, style.INK)


def draw_curve(title: str, points: Sequence[Mapping[str, float]], names: Sequence[str],
               marked: tuple[str, Mapping[str, float]] | None = None) -> Image.Image:
    """Each point is {"games": n, name: win rate (0-1), name + "_low": ..., name + "_high": ...};
    the line of each name with its 95% interval as a band. `marked` is one more point apart from the
    line (an averaged network's figure), drawn as a hollow diamond with its interval, and its label."""
    image = Image.new("RGB", (WIDTH, HEIGHT), style.PAPER)
    draw = ImageDraw.Draw(image)
    small, label = style.font(14), style.font(18, bold=True)
    draw.text((LEFT, 16), title, fill=style.INK, font=label)
    x0, y0, x1, y1 = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    most = max([p["games"] for p in points] + ([marked[1]["games"]] if marked else []), default=1.0) or 1.0

    def at(games: float, rate: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * games / most, y1 - (y1 - y0) * rate

    for tenth in range(11):
        y = y1 - (y1 - y0) * tenth / 10
        draw.line([(x0, y), (x1, y)], fill=style.FIELD if tenth % 5 else style.MUTED_INK, width=1)
        draw.text((x0 - 46, y - 8), f"{10 * tenth}%", fill=style.MUTED_INK, font=small)
    for step in range(6):
        games = most * step / 5
        x = at(games, 0)[0]
        draw.line([(x, y1), (x, y1 + 5)], fill=style.INK)
        draw.text((x - 18, y1 + 10), f"{int(games):,}", fill=style.MUTED_INK, font=small)
    draw.text(((x0 + x1) / 2 - 60, HEIGHT - 28), "training games", fill=style.INK, font=small)
    draw.rectangle([x0, y0, x1, y1], outline=style.INK)
    for index, name in enumerate(names):
        colour = LINES[index % len(LINES)]
        row = [p for p in points if name in p]
        if not row:
            continue
        band = [at(p["games"], p.get(name + "_high", p[name])) for p in row]
        band += [at(p["games"], p.get(name + "_low", p[name])) for p in reversed(row)]
        if len(band) > 2:
            tint = tuple(255 - (255 - c) // 5 for c in colour)
            draw.polygon(band, fill=(tint[0], tint[1], tint[2]))
        line = [at(p["games"], p[name]) for p in row]
        if len(line) > 1:
            draw.line(line, fill=colour, width=3)
        for x, y in line:
            draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
        draw.line([(x1 + 16, y0 + 24 * index + 9), (x1 + 40, y0 + 24 * index + 9)], fill=colour, width=3)
        draw.text((x1 + 46, y0 + 24 * index), f"v {name}", fill=style.INK, font=small)
        if marked and name in marked[1]:
            _diamond(draw, at, marked[1], name, colour)
    if marked:
        y = y0 + 24 * len(names) + 9
        draw.polygon([(x1 + 28, y - 6), (x1 + 34, y), (x1 + 28, y + 6), (x1 + 22, y)], outline=style.INK, width=2)
        draw.text((x1 + 46, y - 9), marked[0], fill=style.INK, font=small)
    return image


def _diamond(draw: ImageDraw.ImageDraw, at: Callable[[float, float], tuple[float, float]],
             point: Mapping[str, float], name: str, colour: tuple[int, int, int]) -> None:
    games = point["games"]
    x, y = at(games, point[name])
    low, high = (at(games, point.get(name + bound, point[name]))[1] for bound in ("_low", "_high"))
    draw.line([(x, low), (x, high)], fill=colour, width=2)
    draw.polygon([(x, y - 8), (x + 8, y), (x, y + 8), (x - 8, y)], fill=style.PAPER, outline=colour, width=3)
