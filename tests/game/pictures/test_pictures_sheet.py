"""The match sheet: read from record events, drawn as A4 pages, written as PNG or PDF."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from goldens import assert_golden
from needs import pdf_text
from PIL import Image

from game.board import Color, Variant
from game.pictures import CubeView, MatchSheet, draw_sheet, report_command, save_sheet, sheet_from_events
from game.pictures.sheet import PAGE_SIZE
from game.position import Position

# A two-game match to 3: a hit, cube actions, a referee flag with its picture, a flagged play,
# and events of a kind the sheet does not know.
RECORD: list[dict[str, Any]] = [
    {"type": "match_start", "variant": "backgammon", "length": 3,
     "players": {"white": "Ann", "black": "Bob"}},
    {"type": "game_start"},
    {"type": "roll", "player": "white", "dice": [3, 1]},
    {"type": "play", "player": "white", "dice": [3, 1], "moves": [[8, 5], [6, 5]]},
    {"type": "roll", "player": "black", "dice": [6, 4]},
    {"type": "play", "player": "black", "moves": [[24, 18], [13, 9]]},
    {"type": "roll", "player": "white", "dice": [6, 2]},
    {"type": "play", "player": "white", "dice": [6, 2], "moves": [[13, 7], [13, 11]]},
    {"type": "sensor_snapshot", "zones": {}},
    {"type": "double", "player": "black", "value": 2},
    {"type": "take", "player": "white"},
    {"type": "roll", "player": "black", "dice": [4, 3]},
    {"type": "play", "player": "black", "dice": [4, 3], "moves": [[25, 21], [13, 10]]},
    {"type": "flag", "note": "a black checker was lifted and put back", "image": "flags/game1-5.png"},
    {"type": "roll", "player": "white", "dice": [5, 5]},
    {"type": "play", "player": "white", "dice": [5, 5], "moves": [[13, 3], [13, 3]], "flagged": True,
     "note": "checked by the referee"},
    {"type": "double", "player": "white", "value": 4},
    {"type": "pass", "player": "black"},
    {"type": "game_end", "winner": "white", "kind": "single", "points": 2},
    {"type": "game_start", "score": {"white": 2, "black": 0}, "crawford": True},
    {"type": "roll", "player": "black", "dice": [5, 2]},
    {"type": "play", "player": "black", "dice": [5, 2], "moves": [[13, 8], [13, 11]]},
    {"type": "game_end", "winner": "black", "kind": "gammon", "points": 2},
    {"type": "match_end", "score": {"white": 2, "black": 2}},
]


@pytest.fixture(scope="module")
def sheet() -> MatchSheet:
    return sheet_from_events(RECORD)


@pytest.fixture(scope="module")
def pages(sheet: MatchSheet) -> Sequence[Image.Image]:
    return draw_sheet(sheet)


def test_the_record_becomes_games_of_lines(sheet: MatchSheet) -> None:
    assert (sheet.players, sheet.variant, sheet.length, sheet.score) == (("Ann", "Bob"), Variant.BACKGAMMON,
                                                                         3, (2, 2))
    first, second = sheet.games
    lines = [(r.number, r.player, r.dice, r.notation) for r in first.rows]
    white, black = Color.WHITE, Color.BLACK
    assert lines == [
        (1, white, (3, 1), "8/5 6/5"), (1, black, (6, 4), "24/18 13/9"),  # Black's dice from its roll
        (2, white, (6, 2), "13/11 13/7*"), (2, black, None, "doubles to 2"),
        (3, white, None, "takes"), (3, black, (4, 3), "bar/21 13/10"),
        (4, white, (5, 5), "13/3(2)"),  # one checker's steps joined, as GNU Backgammon writes them
        (5, white, None, "doubles to 4"), (5, black, None, "passes")]
    # a flag marks the play made after it (the referee flags before a play is committed)
    assert [r.number for r in first.rows if r.flagged] == [4]
    assert first.rows[6].note == ("checked by the referee; "
                                  "a black checker was lifted and put back (picture: flags/game1-5.png)")
    assert first.result == "White wins 2 points" and first.score == (0, 0) and not first.crawford
    assert second.result == "Black wins 2 points (gammon)" and second.score == (2, 0) and second.crawford
    assert second.rows[0].number == 1 and second.rows[0].player is black


def test_positions_follow_the_plays(sheet: MatchSheet) -> None:
    rows = sheet.games[0].rows
    after_hit = rows[2].position
    assert after_hit is not None and after_hit.bar == (0, 1)  # 13/7* sent a black checker to the bar
    assert rows[5].before is not None and rows[5].before.turn is Color.BLACK and len(rows[5].moves) == 2
    assert rows[5].cube == CubeView(2, Color.WHITE)  # White took the cube
    assert sheet.games[0].final == rows[-1].position


def test_a_record_read_from_the_middle_still_makes_a_sheet() -> None:
    after = Position.initial(Variant.RUNGAMMON).to_document()
    events: list[dict[str, Any]] = [
        {"type": "mystery"},
        {"type": "play", "player": "white", "dice": [6, 5], "moves": [[24, 13]], "position": after,
         "notation": "24/13"},
        {"type": "flag", "reason": "board lifted"}]
    sheet = sheet_from_events(events)
    (game,) = sheet.games
    assert (game.rows[0].notation, game.rows[0].flagged) == ("24/13", False)
    assert (game.rows[1].notation, game.rows[1].flagged, game.rows[1].note) == ("", True, "board lifted")
    assert game.rows[0].position == Position.from_document(after)
    assert len(draw_sheet(sheet)) == 1


def test_a_flag_before_any_line_is_a_note_of_its_own() -> None:
    sheet = sheet_from_events([{"type": "game_start"}, {"type": "flag", "message": "dice cocked"}])
    (row,) = sheet.games[0].rows
    assert (row.player, row.flagged, row.note) == (None, True, "dice cocked")


def test_pages_are_a4_and_boards_appear_where_flagged(pages: list[Image.Image]) -> None:
    assert len(pages) == 2 and all(page.size == PAGE_SIZE for page in pages)
    plain = draw_sheet(sheet_from_events([e for e in RECORD if e["type"] != "flag" and not e.get("flagged")]))
    assert len(plain) == 1  # without the two flagged boards the match fits one page


def test_golden_sheet_page(pages: list[Image.Image], tmp_path: Path) -> None:
    assert_golden(pages[0], "sheet_page_1", tmp_path)


def test_save_as_pdf_with_every_page(pages: list[Image.Image], tmp_path: Path) -> None:
    (written,) = save_sheet(pages, tmp_path / "match.pdf")
    data = written.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == len(pages)


def test_save_as_png_one_file_per_page(pages: list[Image.Image], tmp_path: Path) -> None:
    written = save_sheet(pages, tmp_path / "match.png")
    assert written == [tmp_path / "match.png", tmp_path / "match-2.png"]
    with Image.open(written[1]) as second:
        assert second.size == PAGE_SIZE
    with pytest.raises(ValueError, match="pdf or .png"):
        save_sheet(pages, tmp_path / "match.gif")


def test_report_command_reads_json_lines(tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    record.write_text("\n".join(json.dumps(event) for event in RECORD) + "\n\n", encoding="utf-8")
    written = report_command(record, tmp_path / "match.pdf")
    assert len(re.findall(rb"/Type\s*/Page\b", written[0].read_bytes())) == 2
    record.write_text('{"type": "game_start"}\nnot json\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"match.jsonl:2: not a JSON event"):
        report_command(record, tmp_path / "bad.pdf")


def test_the_pdf_has_its_text_as_text(sheet: MatchSheet, tmp_path: Path) -> None:
    pages = draw_sheet(sheet)
    (written,) = save_sheet(pages, tmp_path / "match.pdf")
    text = pdf_text(written)
    white, black = sheet.players
    assert f"{white} (White) \u2013 {black} (Black)" in text
    assert text.count("\f") == len(pages) and f"page {len(pages)} of {len(pages)}" in text
    played = [row.notation for game in sheet.games for row in game.rows if row.player and row.notation]
    assert played
    at = 0
    for notation in played:  # every play, in the order played
        at = text.index(notation, at)
    assert written.stat().st_size < 60_000 * len(pages)  # text and a few small boards, not page scans


def test_a_long_title_wraps_within_the_page(tmp_path: Path) -> None:
    long = "GNU Backgammon 1.1.0a16 (expert) (the world-class evaluation, two plies, a long name)"
    events = [{**e, "players": {"white": long, "black": long}} if e["type"] == "match_start" else e for e in RECORD]
    pages = draw_sheet(sheet_from_events(events))
    (written,) = save_sheet(pages, tmp_path / "long.pdf")
    first = pdf_text(written).split("\f")[0]
    assert " ".join(first.split()).startswith(f"{long} (White) \u2013 {long} (Black)")  # all of it, wrapped
    bbox = subprocess.run(["pdftotext", "-bbox", str(written), "-"], capture_output=True, text=True, check=True)
    page_width = float(re.search(r'<page width="([\d.]+)"', bbox.stdout).group(1))  # type: ignore[union-attr]
    right_edges = [float(x) for x in re.findall(r'xMax="([\d.]+)"', bbox.stdout)]
    assert max(right_edges) < page_width  # nothing runs off the page


def test_the_same_flag_twice_on_a_line_is_counted_not_repeated() -> None:
    cocked = "a cocked die: roll both dice again"
    sheet = sheet_from_events([{"type": "game_start"}, {"type": "flag", "note": cocked},
                               {"type": "flag", "note": "board lifted"}, {"type": "flag", "note": cocked},
                               {"type": "roll", "player": "white", "dice": [6, 1]},
                               {"type": "play", "player": "white", "dice": [6, 1], "moves": [[13, 7], [8, 7]]},
                               {"type": "flag", "note": cocked}, {"type": "flag", "note": cocked},
                               {"type": "flag", "note": cocked}])
    first, second = sheet.games[0].rows
    assert first.note == f"{cocked} (twice); board lifted"
    assert second.note == f"{cocked} (3 times)"


def test_players_named_as_their_sides_are_titled_once(tmp_path: Path) -> None:
    events = [{**e, "players": {"white": "White", "black": "black"}} if e["type"] == "match_start" else e
              for e in RECORD]
    (written,) = save_sheet(draw_sheet(sheet_from_events(events)), tmp_path / "sides.pdf")
    assert " ".join(pdf_text(written).split()).startswith("White \u2013 black Backgammon, match to 3")


DRAW_IN_A_FRESH_PROCESS = """
import json, sys
from game.pictures import draw_sheet, save_sheet, sheet_from_events
pages = draw_sheet(sheet_from_events(json.loads(sys.argv[1])))
save_sheet(pages, sys.argv[2])
print(" ".join(module for module in ("fpdf", "numpy") if module in sys.modules))
"""


@pytest.mark.parametrize(("name", "loaded"), [("match.png", ""), ("match.pdf", "fpdf numpy")])
def test_only_a_pdf_loads_the_pdf_library(tmp_path: Path, name: str, loaded: str) -> None:
    # The room draws sheets as pictures; fpdf2 (and the numpy it imports) would cost it about 38 MB,
    # so it loads only when a PDF is asked for.
    done = subprocess.run([sys.executable, "-c", DRAW_IN_A_FRESH_PROCESS, json.dumps(RECORD), str(tmp_path / name)],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == loaded
    assert (tmp_path / name).exists()
