"""hardware_docs/referee.md lists every code the cube display can show for the referee, and for how long."""

import re
from pathlib import Path

from firmware_host.controller.cube.chouette import box_code, member_code
from firmware_host.controller.prompts import FLASH_SECONDS
from game.chouette import MAX_PLAYERS
from game.explain import Breach

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "hardware_docs" / "referee.md").read_text()
LISTED = set(re.findall(r"^\| `([A-Z0-9]{2})`", DOC, re.MULTILINE))
ROWS = re.findall(r"^\| `([A-Z0-9]{2})`.*\| (.+) \|$", DOC, re.MULTILINE)
CODE_ROWS = re.findall(r"^\| `[A-Z0-9]{2}`", DOC, re.MULTILINE)
SOURCE = "\n".join(path.read_text() for path in sorted((ROOT / "firmware_host" / "controller").rglob("*.py")))


def test_every_rule_code_is_listed() -> None:
    assert {breach.code for breach in Breach} <= LISTED


def test_every_code_the_controller_and_its_parts_show_is_listed() -> None:
    shown = set(re.findall(r'code="([A-Z0-9]{2})"|(?:show|flash)\((?:"([A-Z0-9]{2})" if [^)]* else )?"([A-Z0-9]{2})"\)'
                           r'|"([A-Z]{2})", (?:self\.match|played|None)|^[A-Z_]+ = "([A-Z]{2})"', SOURCE, re.MULTILINE))
    codes = {c for group in shown for c in group if c}
    assert {"SC", "NO", "RF", "CA", "NP", "ER", "CO", "DB", "RE", "TB", "AI", "AE", "AR", "HI", "NH"} <= codes
    assert codes <= LISTED, codes - LISTED


def test_every_chouette_code_is_listed() -> None:
    """A chouette's codes are made from a member's place in team order: P1.. a member decides, B1.. the box
    decides about that member's cube; a team has at most MAX_PLAYERS - 1 members."""
    rows = re.findall(r"^\| `([A-Z0-9]{2})`(.*)$", DOC, re.MULTILINE)
    last = MAX_PLAYERS - 1
    member_row = next(row for code, row in rows if code == member_code(1) and "chouette" in row)
    box_row = next(row for code, row in rows if code == box_code(1))
    assert member_row.startswith(f"–`{member_code(last)}` |"), member_row
    assert box_row.startswith(f"–`{box_code(last)}` |") and "box" in box_row, box_row


def test_the_doc_says_how_long_each_code_shows() -> None:
    assert len(ROWS) == len(CODE_ROWS)
    assert {code for code, _ in ROWS} == LISTED
    moments = {code for code, shown in ROWS if shown.startswith(f"{FLASH_SECONDS:g} s")}
    assert {"NO", "ER", "CO", "RF", "NP"} <= moments
    assert f"**shown for {FLASH_SECONDS:g} s**" in DOC


def test_every_answer_of_the_bot_is_listed_and_shown_for_a_moment() -> None:
    from firmware_host.controller.bot_seat import ACCEPTS, ANSWERS, DECLINES

    answers = {*ANSWERS.values(), ACCEPTS, DECLINES}
    assert answers <= LISTED
    assert all(shown.startswith(f"{FLASH_SECONDS:g} s") for code, shown in ROWS if code in answers | {"HI", "NH"})
