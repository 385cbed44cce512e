"""The chouette score sheet: games by players with running totals, as clubs keep it on paper,
then each game's plays and cube actions.

`chouette_sheet_from_events` reads a chouette record (decoded events, `game/RECORD.md`), and
relies on the derived events alone (`game_start`, `line`, `settle`, `captain`, `game_end`), so
it draws any record, a cut or invalid one too; `python -m game validate` judges it. The table
has a column per player in the order they came and a row per game: each cell shows the
player's role (B box, P partner, C captain, C2 a captain taking over), the member's cube and
how it settled, the game's result and, large, the running total. The plays follow in the
match sheet's layout (`game.pictures.sheet`): the team (White) on the left, the box (Black)
on the right, each member's cube action named.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from game.board import Variant
from game.chouette.options import ChouetteOptions, signed
from game.pictures import style
from game.pictures.pen import Pen, Surface
from game.pictures.sheet import (
    _LINE,
    _MARGIN,
    PAGE_SIZE,
    Block,
    Pages,
    SheetGame,
    _fit,
    game_blocks,
    paginate,
    sheet_from_events,
)

_ROW = 50
_HEADER = 36
_TITLE = 110
_GAME_COLUMN = 70
_BOARD = frozenset({"opening_roll", "roll", "play", "takeback"})


@dataclass(frozen=True, slots=True)
class ScoreCell:
    """One player's part in one game."""

    role: str  # "B" box, "P" partner, "C" captain, "C2" captain from a later point, "" member, "-" not seated
    points: float | None  # the game's result; None: not in this game
    total: float  # the running total after the game
    cube: int | None = None  # a member's cube when it settled
    how: str = ""  # "pass" (the member passed), "box_pass" (the box passed), "" (played out)


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One game of the table: every player's cell; `finished` False for a game the record cuts off."""

    game: int
    cells: dict[str, ScoreCell]
    finished: bool = True


@dataclass(frozen=True, slots=True)
class ChouetteSheet:
    """What the score sheet shows: the table, the totals, and each game's heading and plays."""

    variant: Variant
    options: str
    players: tuple[str, ...]  # every player, in the order they came
    rows: tuple[ScoreRow, ...]
    totals: dict[str, float]
    games: tuple[tuple[tuple[str, str], SheetGame], ...]  # each game's heading, who played, the plays


@dataclass
class _Game:
    number: int
    box: str
    line: list[str]
    partner: str | None = None
    captains: list[str] = field(default_factory=list)
    settles: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    end: Mapping[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)  # as a two-player record


def chouette_sheet_from_events(events: Iterable[Mapping[str, Any]]) -> ChouetteSheet:
    """The score sheet of a chouette record's events, in order; unknown event types are skipped."""
    variant, options, players = Variant.BACKGAMMON, ChouetteOptions(), []
    totals: dict[str, float] = {}
    games: list[_Game] = []
    for event in events:
        kind = event.get("type")
        if kind == "chouette_start":
            variant = Variant(event.get("variant", "backgammon"))
            options = ChouetteOptions.from_document(event.get("options", {}))
            players = [str(p) for p in event.get("players", [])]
            totals = dict.fromkeys(players, 0.0)
        elif kind == "join" and event.get("player") not in totals:
            totals[str(event["player"])] = 0.0
        elif kind == "game_start":
            games.append(_Game(int(event["game"]), str(event["box"]), list(event["line"])))
            games[-1].events.append({"type": "game_start", "position": event.get("position")})
        if games:
            _game_event(games[-1], event, totals)
    rows = tuple(_row(game, list(totals)) for game in games if game.end is not None or game.captains)
    plays = tuple((_heading(game), _plays(game, variant)) for game in games if game.captains)
    return ChouetteSheet(variant, options.describe(), tuple(totals), rows, totals, plays)


def _game_event(game: _Game, event: Mapping[str, Any], totals: dict[str, float]) -> None:
    """One event of the game being played, kept for its row and its plays (`totals` after a game's end)."""
    kind = event.get("type")
    if kind == "line":
        game.box, game.line, game.partner = str(event["box"]), list(event["line"]), event.get("partner")
    elif kind == "opening_roll" and not game.captains:
        game.captains.append(next(p for p in game.line if p != game.partner))
    elif kind == "captain":
        game.captains.append(str(event["player"]))
    elif kind == "settle":
        game.settles[str(event["member"])] = event
    elif kind == "game_end":
        game.end = event
        totals.update({str(k): float(v) for k, v in event.get("totals", {}).items()})
        game.events.append({"type": "game_end"})
    if kind == "takeback":  # the play taken back is not on the sheet; the one made again is
        taken = [i for i, e in enumerate(game.events) if e["type"] == "play"]
        if taken:
            del game.events[taken[-1]]
    elif kind in _BOARD or kind in ("double", "take", "pass", "beaver"):
        game.events.append(_two_player(event, game.box))


def _two_player(event: Mapping[str, Any], box: str) -> dict[str, Any]:
    """A chouette event as the match sheet reads it: the team White, the box Black, cube actions named."""
    kind = event["type"]
    if kind == "opening_roll":
        return {"type": "opening_roll"}
    if kind in _BOARD:
        return {**event, "player": "white" if event.get("side") == "team" else "black"}
    actor, member, value = event.get("player"), event.get("member"), event.get("value")
    by_box = actor == box
    text = {
        ("double", True): f"doubles {member} to {value}", ("double", False): f"{member} doubles to {value}",
        ("take", True): f"takes {member}'s {value}", ("take", False): f"{member} takes {value}",
        ("pass", True): f"passes {member}'s cube", ("pass", False): f"{member} passes",
        ("beaver", True): f"beavers {member} to {value}", ("beaver", False): f"{member} beavers to {value}",
    }[kind, by_box]
    return {"type": "double" if kind == "beaver" else kind, "player": "black" if by_box else "white",
            "value": value, "notation": text}


def _row(game: _Game, players: Sequence[str]) -> ScoreRow:
    end = game.end or {}
    results = end.get("results", {})
    totals = end.get("totals", {})
    seated = {game.box, *game.line}
    cells = {}
    for name in players:
        role = ("B" if name == game.box else "P" if name == game.partner else
                "C" if game.captains[:1] == [name] else "C2" if name in game.captains else
                "" if name in seated else "-")
        settle = game.settles.get(name)
        cells[name] = ScoreCell(role, results.get(name), float(totals.get(name, 0.0)),
                                int(settle["cube"]) if settle else None,
                                str(settle["reason"]) if settle and settle["reason"] in ("pass", "box_pass") else "")
    return ScoreRow(game.number, cells, game.end is not None)


def _heading(game: _Game) -> tuple[str, str]:
    """The game's heading (box against captain) and the line under it (the team, the partner)."""
    captains = ", then ".join(game.captains)
    team = [p for p in game.line if p != game.partner]
    partner = f"; the box's partner: {game.partner}" if game.partner else ""
    return (f"Game {game.number}: {game.box} (box) v {captains} (captain)",
            f"Team, in order (White, left): {', '.join(team)}; box (Black, right): {game.box}{partner}")


def _plays(game: _Game, variant: Variant) -> SheetGame:
    sheet = sheet_from_events([{"type": "match_start", "variant": variant.value}, *game.events])
    played = sheet.games[0]
    end = game.end
    if end is None:
        return replace(played, number=game.number, result="")
    captain, kind = end.get("captain"), end.get("kind")
    if end.get("winner") == "team":
        text = f"{captain} (captain) beats the box, {kind}"
    elif end.get("winner") == "box":
        text = f"The box beats {captain} (captain), {kind}"
    else:
        text = "A Remi"
    if end.get("reason") == "pass":
        text += ", cubes passed"
    return replace(played, number=game.number, result=text)


# -- drawing -------------------------------------------------------------------------------

def draw_chouette_sheet(sheet: ChouetteSheet, *, diagram_scale: float = 0.7) -> Pages:
    """The score sheet as A4 pages: the table of games by players, a legend, then each game's plays."""
    widths = _columns(len(sheet.players))
    blocks = [_title(sheet)]
    room = PAGE_SIZE[1] - 2 * _MARGIN - _LINE - _HEADER  # a page's height for rows under the header
    rows, fits = list(sheet.rows), (room - _TITLE) // _ROW  # the first page has the title above
    while True:  # the table in page-sized pieces, each under its own header row
        piece, rows = rows[:fits], rows[fits:]
        blocks.append(_stacked([_table_row(sheet.players, None, widths, sheet),
                                *(_table_row(sheet.players, row, widths, sheet) for row in piece)]))
        if not rows:
            break
        fits = room // _ROW
    blocks.append(_totals_row(sheet, widths))
    blocks.append(_legend())
    for (heading, team), game in sheet.games:
        played = game_blocks(game, heading, None, diagram_scale)
        blocks += [played[0], _text_line(team), *played[1:]]
    return paginate(blocks, f"Chouette, {sheet.variant.value}: {', '.join(sheet.players)}")


def _stacked(blocks: Sequence[Block]) -> Block:
    """Blocks one under the other as one block, so that no page break falls between them."""
    def paint(page: Surface, draw: Pen, y: int) -> None:
        for block in blocks:
            block.paint(page, draw, y)
            y += block.height

    return Block(sum(block.height for block in blocks), paint)


def _columns(count: int) -> int:
    return min(150, (PAGE_SIZE[0] - 2 * _MARGIN - _GAME_COLUMN) // max(count, 1))


def _title(sheet: ChouetteSheet) -> Block:
    games = f"{len(sheet.rows)} game{'' if len(sheet.rows) == 1 else 's'}"

    def paint(page: Surface, draw: Pen, y: int) -> None:
        draw.text((_MARGIN, y), f"Chouette: {len(sheet.players)} players", fill=style.INK,
                  font=style.font(38, bold=True), anchor="la")
        draw.text((_MARGIN, y + 60), f"{sheet.variant.value.capitalize()}, {sheet.options}, {games}",
                  fill=style.INK, font=style.font(22), anchor="la")

    return Block(_TITLE, paint)


def _table_row(players: Sequence[str], row: ScoreRow | None, width: int, sheet: ChouetteSheet) -> Block:
    """The header (row None) or one game's row of the table."""
    height = _HEADER if row is None else _ROW

    def paint(page: Surface, draw: Pen, y: int) -> None:
        small, big = style.font(15), style.font(22, bold=True)
        x = _MARGIN
        label = "Game" if row is None else str(row.game) + ("" if row.finished else "*")
        draw.text((x + 6, y + height // 2), label, fill=style.MUTED_INK if row is None else style.INK,
                  font=style.font(18, bold=row is None), anchor="lm")
        x += _GAME_COLUMN
        for name in players:
            box = (x, y, x + width, y + height)
            if row is None:
                draw.rectangle(box, fill=style.FRAME)
                draw.text((x + width // 2, y + height // 2), _fit(draw, name, width - 8, style.font(18, True)),
                          fill=style.FRAME_TEXT, font=style.font(18, bold=True), anchor="mm")
            else:
                _cell(draw, box, row.cells[name], small, big)
            x += width
        draw.line((_MARGIN, y + height, x, y + height), fill=style.MUTED_INK, width=1)

    return Block(height, paint)


def _cell(draw: Pen, box: tuple[int, int, int, int], cell: ScoreCell, small: Any, big: Any) -> None:
    x0, y0, x1, y1 = box
    if cell.role == "-":
        draw.rectangle((x0, y0, x1, y1), fill=(242, 242, 242))
        draw.text(((x0 + x1) // 2, (y0 + y1) // 2), "\u2013", fill=style.MUTED_INK, font=small, anchor="mm")
        return
    if cell.role in ("B", "P"):
        draw.rectangle((x0, y0, x1, y1), fill=style.FIELD)
    draw.line((x0, y0, x0, y1), fill=style.MUTED_INK, width=1)
    note = cell.role
    if cell.cube is not None and cell.how:
        note += f" {'pass' if cell.how == 'pass' else 'won'} {cell.cube}"
    elif cell.cube is not None and cell.cube > 1:
        note += f" \u00d7{cell.cube}"
    draw.text((x0 + 5, y0 + 4), note.strip(), fill=style.BLUE if cell.role.startswith("C") else style.MUTED_INK,
              font=small, anchor="la")
    if cell.points is not None:
        fill = style.VERMILLION if cell.points < 0 else style.INK
        draw.text((x1 - 5, y0 + 4), _signed(cell.points), fill=fill, font=small, anchor="ra")
    draw.text((x1 - 5, y1 - 5), _signed(cell.total), fill=style.INK, font=big, anchor="rs")


def _totals_row(sheet: ChouetteSheet, width: int) -> Block:
    def paint(page: Surface, draw: Pen, y: int) -> None:
        draw.line((_MARGIN, y + 2, _MARGIN + _GAME_COLUMN + width * len(sheet.players), y + 2), fill=style.INK,
                  width=3)
        draw.text((_MARGIN + 6, y + 30), "Total", fill=style.INK, font=style.font(20, bold=True), anchor="lm")
        for i, name in enumerate(sheet.players):
            x1 = _MARGIN + _GAME_COLUMN + (i + 1) * width
            draw.text((x1 - 5, y + 30), _signed(sheet.totals.get(name, 0.0)), fill=style.INK,
                      font=style.font(24, bold=True), anchor="rm")

    return Block(64, paint)


def _text_line(text: str) -> Block:
    def paint(page: Surface, draw: Pen, y: int) -> None:
        font = style.font(18)
        draw.text((_MARGIN, y), _fit(draw, text, PAGE_SIZE[0] - 2 * _MARGIN, font), fill=style.MUTED_INK,
                  font=font, anchor="la")

    return Block(34, paint)


def _legend() -> Block:
    text = ("B box, P the box's partner (shares the box's result), C captain, C2 a captain taking over; "
            "pass n: passed a cube at n, won n: the box passed the member's cube at n, \u00d7n: the cube played "
            "to the end. Small figures: the game's result; large: the running total. * a game not finished.")

    def paint(page: Surface, draw: Pen, y: int) -> None:
        font = style.font(16)
        words, line, row = text.split(), "", 0
        for word in words:
            trial = f"{line} {word}".strip()
            if draw.textlength(trial, font=font) > PAGE_SIZE[0] - 2 * _MARGIN:
                draw.text((_MARGIN, y + 8 + row * 22), line, fill=style.MUTED_INK, font=font, anchor="la")
                line, row = word, row + 1
            else:
                line = trial
        draw.text((_MARGIN, y + 8 + row * 22), line, fill=style.MUTED_INK, font=font, anchor="la")

    return Block(96, paint)


def _signed(points: float) -> str:
    text = signed(Fraction(points))
    return text.replace("-", "\u2212")
