"""The match sheet: a game or match as pages of moves, with small boards at the moments that matter.

`sheet_from_events` reads the JSON Lines record (already decoded, one dict per
event) and skips event types it does not know. The fields it reads:

- match_start: variant, length, players {"white": name, "black": name}
- game_start: position (position document; default the variant's start), score {"white", "black"},
  crawford
- roll: player, dice
- play: player, dice (else the last roll), moves [[from, to], ...], position (the document after),
  notation (else worked out from the moves), flagged, note
- double: player, value; take / pass (or drop): player; each may carry its own `notation`
- game_end: winner, kind, points;  match_end: score
- from an analysis (`python -m game analyse --out`): on a play or cube action, mark ("?" or "??") and
  analysis (the text beside it); on a play, better [[from, to], ...] (drawn beside the play made)
- flag: note (or reason / message), image (the discrepancy picture beside the record); the referee
  flags before a play is committed, so a flag marks the next line of the game (the play made after
  it), or a line of its own when the game ends first

Lines follow the .mat layout: White's turn on the left, Black's on the right.
A board is drawn after every flagged line and at the end of every game.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, overload

from PIL import Image, ImageDraw, ImageFont

from game.board import Color, Variant
from game.errors import GameError
from game.pictures import style
from game.pictures.arrows import draw_play, find_play
from game.pictures.board import CubeView, ScoreView, draw_board
from game.pictures.pen import Pen, Surface
from game.plays import Move, Play
from game.position import Position

PAGE_SIZE = (1240, 1754)  # A4 at 150 dots per inch
DPI = 150
_MARGIN = 90
_LINE = 30
_FLAG = "\u2691"
_GAME_EVENTS = frozenset({"roll", "play", "double", "take", "pass", "drop", "game_end", "flag"})


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One entry: a play, a cube action or a note, and the position after it."""

    number: int  # the sheet's line: White's and Black's turns share one, as in a .mat file
    player: Color | None  # None: a note of the referee's, on a line of its own
    dice: tuple[int, int] | None
    notation: str  # "24/18 13/11", "doubles to 2", "takes", ...
    position: Position | None = None
    flagged: bool = False
    note: str = ""
    before: Position | None = None  # with `moves`, lets the diagram draw the play's arrows
    moves: tuple[Move, ...] = ()
    cube: CubeView | None = None
    mark: str = ""  # an analysis's "?" (error) or "??" (blunder), written beside the play
    better: Play | None = None  # the analysis's better play, drawn beside the one made


@dataclass(frozen=True, slots=True)
class SheetGame:
    """One game on the match sheet: the score before it, its rows of plays, its result."""

    number: int
    score: tuple[int, int]  # (white, black) before the game
    rows: tuple[SheetRow, ...]
    result: str = ""  # "White wins 2 points (gammon)"; empty while unfinished
    final: Position | None = None
    crawford: bool = False


@dataclass(frozen=True, slots=True)
class MatchSheet:
    """What a match sheet shows: the players, the match and its games (read from a record)."""

    players: tuple[str, str]  # (white, black)
    variant: Variant
    length: int  # 0: money play
    score: tuple[int, int]  # (white, black) at the end of the record
    games: tuple[SheetGame, ...]


# -- reading the record -----------------------------------------------------------

@dataclass
class _GameBuilder:
    number: int
    score: tuple[int, int]
    crawford: bool
    position: Position | None
    rows: list[SheetRow] = field(default_factory=list)
    result: str = ""
    cube: CubeView = CubeView()
    pending: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.crawford:
            self.cube = CubeView(crawford=True)

    def add(self, player: Color | None, dice: tuple[int, int] | None, notation: str, **extra: Any) -> None:
        last = self.rows[-1] if self.rows else None
        number = last.number if last else 1
        if last and (player is not Color.BLACK or last.player is not Color.WHITE):
            number += 1
        if self.pending:
            notes = [n for n in (extra.get("note", ""), *self.pending) if n]
            extra = {**extra, "flagged": True, "note": _joined(notes)}
            self.pending = []
        self.rows.append(SheetRow(number, player, dice, notation, self.position, cube=self.cube, **extra))

    def flag(self, note: str) -> None:
        self.pending.append(note)

    def freeze(self) -> SheetGame:
        if self.pending:  # flags after the last play of the game
            self.add(None, None, "")
        return SheetGame(self.number, self.score, tuple(self.rows), self.result, self.position, self.crawford)


def sheet_from_events(events: Iterable[Mapping[str, Any]]) -> MatchSheet:
    """A match sheet from the record's events, in order; unknown event types are skipped."""
    players = ("White", "Black")
    variant = Variant.BACKGAMMON
    length = 0
    score = [0, 0]
    final_score: tuple[int, int] | None = None
    games: list[_GameBuilder] = []
    rolled: dict[Color, tuple[int, int]] = {}
    for event in events:
        kind = event.get("type")
        if kind == "match_start":
            variant = Variant(event.get("variant", variant.value))
            length = int(event.get("length", 0))
            players = _players(event.get("players"), players)
            continue
        if kind == "game_start":
            doc = event.get("position")
            games.append(_GameBuilder(len(games) + 1, _pair(event.get("score")) or (score[0], score[1]),
                                      bool(event.get("crawford", False)),
                                      Position.from_document(doc) if doc else Position.initial(variant)))
            continue
        if kind in _GAME_EVENTS and not games:  # a record that starts in the middle of a game
            games.append(_GameBuilder(1, (score[0], score[1]), False, None))
        if kind == "match_end":
            final_score = _pair(event.get("score"))
            continue
        if not games:
            continue
        _game_event(games[-1], event, rolled, score)
    return MatchSheet(players, variant, length, final_score or (score[0], score[1]),
                      tuple(g.freeze() for g in games))


def _game_event(game: _GameBuilder, event: Mapping[str, Any], rolled: dict[Color, tuple[int, int]],
                score: list[int]) -> None:
    """One event of the game being played onto its sheet (`rolled`: each side's last roll, for a play
    whose event has no dice; `score` grows at the game's end)."""
    kind = event.get("type")
    player = _color(event.get("player"))
    dice = _dice(event.get("dice"))
    if kind == "roll" and player and dice:
        rolled[player] = dice
    elif kind == "play" and player:
        _add_play(game, event, player, dice or rolled.pop(player, None))
    elif kind in ("double", "take", "pass", "drop") and player:
        _add_cube_action(game, event, player)
    elif kind == "game_end":
        game.result = _result(event)
        winner, points = _color(event.get("winner")), event.get("points")
        if winner and isinstance(points, int):
            score[winner.index] += points
    elif kind == "flag":
        note = str(event.get("note") or event.get("reason") or event.get("message") or "flagged")
        if event.get("image"):
            note += f" (picture: {event['image']})"
        game.flag(note)


def _add_cube_action(game: _GameBuilder, event: Mapping[str, Any], player: Color) -> None:
    kind, value = event.get("type"), event.get("value")
    if kind == "double":
        game.add(player, None, str(event.get("notation") or (f"doubles to {value}" if value else "doubles")),
                 **_analysis(event))
        if value:
            game.cube = CubeView(int(value), game.cube.owner)
        return
    game.add(player, None, str(event.get("notation") or ("takes" if kind == "take" else "passes")),
             **_analysis(event))
    if kind == "take":
        game.cube = CubeView(game.cube.value, player)


def _add_play(game: _GameBuilder, event: Mapping[str, Any], player: Color,
              dice: tuple[int, int] | None) -> None:
    steps = [(int(a), int(b)) for a, b in event.get("moves") or []]
    before = game.position.with_turn(player) if game.position else None
    resolved: Play | None = None
    if before and dice:
        try:
            resolved, _ = find_play(before, steps, dice)
        except GameError:
            resolved = None  # the record's own notation and position still make a sheet
    notation = event.get("notation")
    if not isinstance(notation, str):
        notation = resolved.notation() if resolved else " ".join(f"{a}/{b}" for a, b in steps) or "(no play)"
    doc = event.get("position")
    game.position = (Position.from_document(doc) if doc else resolved.after_moves if resolved else None)
    extra = _analysis(event)
    if before and dice and event.get("better"):
        try:
            extra["better"], _ = find_play(before, [(int(a), int(b)) for a, b in event["better"]], dice)
        except GameError:
            pass  # the mark and the text still say it
    note = "; ".join(n for n in (str(event.get("note", "")), extra.pop("note", "")) if n)
    game.add(player, dice, notation, flagged=bool(event.get("flagged", False)), note=note,
             before=before if resolved else None, moves=resolved.moves if resolved else (), **extra)


def _analysis(event: Mapping[str, Any]) -> dict[str, Any]:
    """An analysis's mark and text on a line, as SheetRow fields."""
    mark = str(event.get("mark", ""))
    text = str(event.get("analysis", ""))
    return {"mark": mark, "note": text} if mark or text else {}


def _seated(name: str, colour: str) -> str:
    """A player and the side they played, the side once when the name is the side's ("White")."""
    return name if name.casefold() == colour.casefold() else f"{name} ({colour})"


def _joined(notes: Sequence[str]) -> str:
    """Notes of one line in order, each once: one said again (a cocked die twice) counted, not repeated."""
    counts: dict[str, int] = {}
    for note in notes:
        counts[note] = counts.get(note, 0) + 1
    return "; ".join(note if n == 1 else f"{note} ({'twice' if n == 2 else f'{n} times'})"
                     for note, n in counts.items())


def _players(raw: Any, default: tuple[str, str]) -> tuple[str, str]:
    if isinstance(raw, Mapping):
        return str(raw.get("white", default[0])), str(raw.get("black", default[1]))
    if isinstance(raw, Sequence) and not isinstance(raw, str) and len(raw) == 2:
        return str(raw[0]), str(raw[1])
    return default


def _pair(raw: Any) -> tuple[int, int] | None:
    if isinstance(raw, Mapping):
        return int(raw.get("white", 0)), int(raw.get("black", 0))
    if isinstance(raw, Sequence) and not isinstance(raw, str) and len(raw) == 2:
        return int(raw[0]), int(raw[1])
    return None


def _color(raw: Any) -> Color | None:
    try:
        return Color(raw)
    except ValueError:
        return None


def _dice(raw: Any) -> tuple[int, int] | None:
    if isinstance(raw, Sequence) and not isinstance(raw, str) and len(raw) == 2:
        return int(raw[0]), int(raw[1])
    return None


def _result(event: Mapping[str, Any]) -> str:
    winner = _color(event.get("winner"))
    if winner is None:
        return str(event.get("kind", "game over")).capitalize()
    points = event.get("points")
    text = f"{winner.value.capitalize()} wins"
    if isinstance(points, int):
        text += f" {points} point{'' if points == 1 else 's'}"
    kind = event.get("kind")
    if kind and kind not in ("single", "single game"):
        text += f" ({kind})"
    return text


# -- drawing the pages --------------------------------------------------------------

Paint = Callable[[Surface, Pen, int], None]


@dataclass(frozen=True, slots=True)
class _Block:
    height: int
    paint: Paint  # draws the block with its top at the given y


Block = _Block  # a piece of a page, for other sheets laid out the same way (game.pictures.chouette_sheet)


@dataclass(frozen=True, slots=True)
class SheetSummary:
    """A table put first on the sheet (an analysis: error rates, luck), then lines of notes (the
    biggest errors)."""

    heading: str
    columns: tuple[str, str, str]  # ("", "White", "Black")
    rows: tuple[tuple[str, str, str], ...]
    notes: tuple[str, ...] = ()


def draw_sheet(sheet: MatchSheet, *, diagram_scale: float = 0.7, summary: SheetSummary | None = None) -> Pages:
    """The sheet as A4 pages at 150 dpi: the header, the summary if any, then each game's lines,
    boards where flagged."""
    blocks = [_header(sheet)]
    if summary is not None:
        blocks.extend(_summary_blocks(summary))
    for game in sheet.games:
        blocks.extend(_game_blocks(sheet, game, diagram_scale))
    return paginate(blocks, f"{sheet.players[0]} \u2013 {sheet.players[1]}, {sheet.variant.value}")


def paginate(blocks: Sequence[Block], title: str) -> Pages:
    """Blocks laid out top to bottom on A4 pages, a block never split, `title` and page numbers below."""
    pages: list[list[tuple[int, _Block]]] = [[]]
    bottom = PAGE_SIZE[1] - _MARGIN - _LINE
    y = _MARGIN
    for block in blocks:
        if y + block.height > bottom and pages[-1]:
            pages.append([])
            y = _MARGIN
        pages[-1].append((y, block))
        y += block.height
    return Pages(tuple(tuple(page) for page in pages), title)


class Pages(Sequence[Image.Image]):
    """A laid-out sheet: each page as a Pillow image (painted when first asked for), or the whole
    as a PDF with its text as text (`pdf`)."""

    def __init__(self, placed: tuple[tuple[tuple[int, Block], ...], ...], title: str) -> None:
        self.placed = placed
        self.title = title
        self._images: dict[int, Image.Image] = {}

    def __len__(self) -> int:
        return len(self.placed)

    @overload
    def __getitem__(self, index: int) -> Image.Image: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Image.Image]: ...

    def __getitem__(self, index: int | slice) -> Image.Image | Sequence[Image.Image]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        number = range(len(self))[index]
        if number not in self._images:
            page = Image.new("RGB", PAGE_SIZE, style.PAPER)
            self._paint(number, page, ImageDraw.Draw(page))
            self._images[number] = page
        return self._images[number]

    def pdf(self) -> bytes:
        """The sheet as a PDF: A4 pages, text as text, boards as embedded pictures."""
        from game.pictures.pdf import PdfDocument  # fpdf2, needed only here

        document = PdfDocument(PAGE_SIZE, self.title)
        for number in range(len(self)):
            page = document.page()
            self._paint(number, page, page)
        return document.bytes()

    def _paint(self, number: int, page: Surface, draw: Pen) -> None:
        for y, block in self.placed[number]:
            block.paint(page, draw, y)
        y = PAGE_SIZE[1] - _MARGIN // 2
        footer = style.font(16)
        page_number = f"page {number + 1} of {len(self)}"
        room = PAGE_SIZE[0] - 2 * _MARGIN - draw.textlength(page_number, font=footer) - 30
        draw.text((_MARGIN, y), _fit(draw, self.title, round(room), footer), fill=style.MUTED_INK, font=footer,
                  anchor="ls")
        draw.text((PAGE_SIZE[0] - _MARGIN, y), page_number, fill=style.MUTED_INK, font=footer, anchor="rs")


def _header(sheet: MatchSheet) -> _Block:
    white, black = sheet.players
    kind = f"match to {sheet.length}" if sheet.length else "money play"
    games = f"{len(sheet.games)} game{'' if len(sheet.games) == 1 else 's'}"
    lines = (f"{sheet.variant.value.capitalize()}, {kind}, {games}",
             f"Score: {white} {sheet.score[0]}, {black} {sheet.score[1]}")
    title_font = style.font(38, bold=True)
    title = wrap(f"{_seated(white, 'White')} \u2013 {_seated(black, 'Black')}", title_font, PAGE_SIZE[0] - 2 * _MARGIN)
    below = 50 * len(title) + 10

    def paint(page: Surface, draw: Pen, y: int) -> None:
        for i, line in enumerate(title):
            draw.text((_MARGIN, y + i * 50), line, fill=style.INK, font=title_font, anchor="la")
        for i, line in enumerate(lines):
            draw.text((_MARGIN, y + below + i * _LINE), line, fill=style.INK, font=style.font(22), anchor="la")
        draw.line((_MARGIN, y + below + 70, PAGE_SIZE[0] - _MARGIN, y + below + 70), fill=style.INK, width=2)

    return _Block(below + 90, paint)


def wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """`text` in lines no wider than `width` pixels, broken between words (a word too long for a
    line of its own is shortened with an ellipsis)."""
    lines: list[str] = []
    for word in text.split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and font.getlength(trial) <= width:
            lines[-1] = trial
        else:
            lines.append(word)
    fitted = []
    for line in lines or [""]:
        while font.getlength(line) > width and len(line) > 1:
            line = line[:-2] + "\u2026"
        fitted.append(line)
    return fitted


def _summary_blocks(summary: SheetSummary) -> list[_Block]:
    """The summary's heading, its table (label, then White's and Black's figures right-aligned) and notes."""
    blocks = [_text_block(summary.heading, bold=True, size=26, height=56, gap_above=12)]
    table_font, bold = style.font(20), style.font(20, bold=True)
    right = PAGE_SIZE[0] - _MARGIN
    column = 260

    def row_block(cells: tuple[str, str, str], strong: bool) -> _Block:
        def paint(page: Surface, draw: Pen, y: int) -> None:
            text_font = bold if strong else table_font
            draw.text((_MARGIN, y), cells[0], fill=style.INK, font=text_font, anchor="la")
            for i, cell in enumerate(cells[1:]):
                x = right - (1 - i) * column
                draw.text((x, y), _fit(draw, cell, column - 20, text_font), fill=style.INK, font=text_font,
                          anchor="ra")

        return _Block(_LINE, paint)

    blocks.append(row_block(summary.columns, True))
    blocks.extend(row_block(row, False) for row in summary.rows)
    note_font = style.font(18)
    for note in summary.notes:
        for line in wrap(note, note_font, PAGE_SIZE[0] - 2 * _MARGIN):
            blocks.append(_text_block(line, bold=False, size=18, height=26, gap_above=4))
    return blocks


def _game_blocks(sheet: MatchSheet, game: SheetGame, scale: float) -> list[_Block]:
    white, black = sheet.players
    heading = f"Game {game.number}: {white} {game.score[0]}, {black} {game.score[1]}"
    if game.crawford:
        heading += " (Crawford)"
    return game_blocks(game, heading, ScoreView(game.score[0], game.score[1], sheet.length), scale)


def game_blocks(game: SheetGame, heading: str, score: ScoreView | None, scale: float = 0.7) -> list[Block]:
    """One game's blocks: `heading`, its numbered lines, a board after each flagged line and at the end."""
    blocks = [_text_block(heading, bold=True, size=26, height=56, gap_above=12)]
    lines: dict[int, list[SheetRow]] = {}
    for row in game.rows:
        lines.setdefault(row.number, []).append(row)
    for number, rows in lines.items():
        blocks.append(_line_block(number, rows))
        for row in rows:
            if row.flagged:
                blocks.append(_flag_block(row, score, scale))
            elif row.better is not None and row.before is not None and row.position is not None:
                blocks.append(error_block(row, score, scale))
    if game.result or game.final:
        text = game.result or "Game not finished"
        blocks.append(_text_block(text, bold=True, size=22, height=44, gap_above=8))
        if game.final:
            final = draw_board(game.final, score=score, scale=scale)
            blocks.append(_diagram_block(final, "Final position", ""))
    return blocks


def _text_block(text: str, *, bold: bool, size: int, height: int, gap_above: int) -> _Block:
    def paint(page: Surface, draw: Pen, y: int) -> None:
        draw.text((_MARGIN, y + gap_above), text, fill=style.INK, font=style.font(size, bold), anchor="la")

    return _Block(height, paint)


def _cell(row: SheetRow) -> str:
    dice = f"{row.dice[0]}{row.dice[1]}: " if row.dice else ""
    return f"{_FLAG} " * row.flagged + dice + row.notation + (f" {row.mark}" if row.mark else "")


def _line_block(number: int, rows: Sequence[SheetRow]) -> _Block:
    column = (PAGE_SIZE[0] - 2 * _MARGIN - 70) // 2

    def paint(page: Surface, draw: Pen, y: int) -> None:
        text_font = style.font(20)
        draw.text((_MARGIN + 50, y), f"{number})", fill=style.MUTED_INK, font=text_font, anchor="ra")
        for row in rows:
            x = _MARGIN + 70 + (column if row.player is Color.BLACK else 0)
            fill = style.VERMILLION if row.flagged or row.mark else style.INK
            text = _cell(row) if row.player else f"{_FLAG} {row.note}"
            text = _fit(draw, text, column - 16, text_font)
            draw.text((x, y), text, fill=fill, font=text_font, anchor="la")

    return _Block(_LINE, paint)


def _fit(draw: Pen, text: str, width: int, text_font: ImageFont.FreeTypeFont) -> str:
    while draw.textlength(text, font=text_font) > width and len(text) > 1:
        text = text[:-2] + "\u2026"
    return text


def _flag_block(row: SheetRow, score: ScoreView | None, scale: float) -> _Block:
    who = row.player.value.capitalize() if row.player else "Referee"
    caption = f"Line {row.number}, {who}: {_cell(row).lstrip(_FLAG + ' ')}".rstrip(": ")
    if row.position is None:
        return _text_block(f"{_FLAG} {caption}. {row.note}", bold=False, size=20, height=_LINE, gap_above=0)
    if row.before is not None and row.moves:
        image = draw_play(row.before, Play(row.moves, row.position), dice=row.dice, cube=row.cube,
                          score=score, scale=scale)
    else:
        image = draw_board(row.position, cube=row.cube, score=score, perspective=row.player, scale=scale)
    return _diagram_block(image, caption, row.note)


def error_block(row: SheetRow, score: ScoreView | None, scale: float) -> Block:
    """An analysed error: the play made and the better play, each drawn on its own board."""
    assert row.before is not None and row.position is not None and row.better is not None
    small = scale * 0.62
    made = draw_play(row.before, Play(row.moves, row.position), dice=row.dice, cube=row.cube, score=score,
                     scale=small)
    better = draw_play(row.before, row.better, dice=row.dice, cube=row.cube, score=score, scale=small)
    who = row.player.value.capitalize() if row.player else ""
    caption = f"Line {row.number}, {who}: played {row.notation} {row.mark}, better {row.better.notation()}"
    labels = ("played", "better")

    def paint(page: Surface, draw: Pen, y: int) -> None:
        draw.text((_MARGIN, y + 6), caption, fill=style.INK, font=style.font(20, bold=True), anchor="la")
        draw.text((_MARGIN, y + 6 + _LINE), row.note, fill=style.INK, font=style.font(18), anchor="la")
        x = _MARGIN
        for label, board in zip(labels, (made, better), strict=True):
            page.paste(board, (x, y + 2 * _LINE + 14))
            draw.text((x, y + 2 * _LINE + 18 + board.height), label, fill=style.MUTED_INK, font=style.font(18),
                      anchor="la")
            x += board.width + 30

    return Block(max(made.height, better.height) + 3 * _LINE + 24, paint)


def _diagram_block(board: Image.Image, caption: str, note: str) -> _Block:
    def paint(page: Surface, draw: Pen, y: int) -> None:
        page.paste(board, (_MARGIN, y + 10))
        x = _MARGIN + board.width + 30
        draw.text((x, y + 30), caption, fill=style.INK, font=style.font(20, bold=True), anchor="la")
        width = (PAGE_SIZE[0] - _MARGIN - x) // 11  # characters of about 11 px at 20 px
        for i, line in enumerate(textwrap.wrap(note, width)):
            draw.text((x, y + 30 + (i + 1) * _LINE), line, fill=style.INK, font=style.font(20), anchor="la")

    return _Block(board.height + 24, paint)


def save_sheet(pages: Sequence[Image.Image], path: str | Path) -> list[Path]:
    """Write the pages: one PDF for a .pdf path (with its text as text when `pages` is a laid-out
    `Pages`); for .png the first page at `path`, page n at name-n.png."""
    target = Path(path)
    if not pages:
        raise ValueError("a sheet has at least one page")
    suffix = target.suffix.lower()
    if suffix == ".pdf":
        if isinstance(pages, Pages):
            target.write_bytes(pages.pdf())
        else:
            pages[0].save(target, "PDF", save_all=True, append_images=list(pages[1:]), resolution=DPI)
        return [target]
    if suffix == ".png":
        written = []
        for number, page in enumerate(pages, start=1):
            out = target if number == 1 else target.with_name(f"{target.stem}-{number}{target.suffix}")
            page.save(out, "PNG", dpi=(DPI, DPI))
            written.append(out)
        return written
    raise ValueError(f"write a sheet as .pdf or .png, not {target.name!r}")
