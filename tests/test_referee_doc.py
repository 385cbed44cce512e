"""hardware_docs/referee.md lists every code the cube display can show, and for how long; game/codes.py
is the one list in the code. The two agree both ways, and no module writes a code as a literal."""

import re
from pathlib import Path

import pytest

from game import codes
from game.chouette import MAX_PLAYERS
from game.codes import FAMILIES, FLASH_SECONDS, Code
from game.explain import Breach

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "hardware_docs" / "referee.md").read_text()
ROWS = re.findall(r"^\| (`[A-Za-z0-9-]{2}`.*?) \| (.+) \| (.+) \|$", DOC, re.MULTILINE)
CODE_ROWS = re.findall(r"^\| `[A-Za-z0-9-]{2}`", DOC, re.MULTILINE)
LISTED = {code for cell, _, _ in ROWS for code in re.findall(r"`([A-Z][A-Z0-9])`", cell)}
"""Every code a row of the table names (a family's row names its first and last; the opening roll's dice are digits)."""


def _shown(code: str) -> str:
    return str(next(shown for cell, _, shown in ROWS if f"`{code}`" in cell))


def test_every_row_of_the_table_is_read() -> None:
    assert len(ROWS) == len(CODE_ROWS) > 30


def test_every_code_is_documented_with_its_meaning() -> None:
    for code in Code:
        assert code.value in LISTED, f"{code!r} is not in hardware_docs/referee.md"
        meaning = next(meaning for cell, meaning, _ in ROWS if f"`{code.value}`" in cell)
        first_words = code.meaning.split(":")[0].split("(")[0].strip()
        assert first_words.lower() in meaning.lower(), (code, meaning)


def test_every_documented_code_exists() -> None:
    family_codes = {member for family in FAMILIES for member in family.members()}
    for listed in LISTED:
        assert listed in {code.value for code in Code} | family_codes, f"referee.md lists {listed}; game/codes.py not"


def test_every_family_is_documented_from_first_to_last() -> None:
    for family in FAMILIES:
        first, last = family.members()[0], family.members()[-1]
        assert any(f"`{first}`" in cell + meaning for cell, meaning, _ in ROWS), family
        if family is not codes.CHOICE and family is not codes.PARTIAL:  # "C1…" and "P1–P3 (P0: ...)" rows
            assert any(f"`{last}`" in cell for cell, _, _ in ROWS), (family, last)


def test_the_chouette_families_span_the_largest_team() -> None:
    assert codes.MEMBER.numbers == range(1, MAX_PLAYERS)
    assert codes.BOX.numbers == range(1, MAX_PLAYERS)
    with pytest.raises(ValueError, match="P9: not a code"):
        codes.member(MAX_PLAYERS)


def test_each_rule_shows_the_code_of_its_own_name() -> None:
    for breach in Breach:
        assert breach.code == Code[breach.name]


def test_the_doc_says_how_long_each_code_shows() -> None:
    assert f"**shown for {FLASH_SECONDS:g} s**" in DOC
    for code in Code:
        says_moment = _shown(code.value).startswith(f"{FLASH_SECONDS:g} s")
        assert says_moment == code.momentary, (code, _shown(code.value))


def test_the_opening_roll_and_a_choice_are_drawn_as_documented() -> None:
    assert (codes.opening(None, None), codes.opening(3, None), codes.opening(2, 5)) == ("--", "3-", "25")
    assert any("`--`, `3-`, `25`" in cell for cell, _, _ in ROWS)
    assert [codes.choice(n) for n in (1, 9, 10, 30)] == ["C1", "C9", "C9", "C9"]


SCANNED = [*sorted((ROOT / "firmware_host").rglob("*.py")), *sorted((ROOT / "game").rglob("*.py")),
           *sorted((ROOT / "drivers").rglob("*.py"))]
LITERAL = re.compile(r"""["']([A-Z][A-Z0-9])["']""")
KNOWN = {code.value for code in Code} | {member for family in FAMILIES for member in family.members()}
ALLOWED = {
    # two capitals that are not display codes
    ("game/pictures/chouette_sheet.py", "C2"),  # a spreadsheet's cell
    ("game/bot/analysis.py", "PR"),  # GNU Backgammon's performance rating
    ("drivers/cube_display.py", "E1"),  # the display's own error pattern
    ("firmware_host/room/chouette_room.py", "P1"),  # a doctest's example
    *(("game/transcripts/sgf.py", name) for name in ("AB", "AE", "AP", "RE")),  # SGF's properties (add black, ...)
}


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_writes_a_code_as_a_literal(path: Path) -> None:
    name = str(path.relative_to(ROOT))
    if name == "game/codes.py":
        return
    found = {code for code in LITERAL.findall(path.read_text()) if code in KNOWN and (name, code) not in ALLOWED}
    assert not found, f"{name} writes {sorted(found)}: name them from game.codes"
