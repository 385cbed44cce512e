"""The words the live view and the log give beside each code of the cube display are
hardware_docs/referee.md's: every code of its table has words, and a lettered code's words are
taken from that code's row."""

import re
from pathlib import Path

import pytest

from firmware_host.display_codes import WORDS, meaning

DOC = (Path(__file__).resolve().parent.parent / "hardware_docs" / "referee.md").read_text()
ROWS = re.findall(r"^\| `([A-Z0-9]{2})`(?:[–…,]* ?`[A-Z0-9]{2}`)*[^|]* \| (.+?) \|", DOC, re.MULTILINE)


def test_every_code_of_the_doc_has_words_and_no_other() -> None:
    listed = {code for code, _ in ROWS}
    assert len(listed) > 30 and all(meaning(code) for code in listed)
    assert set(WORDS) <= listed, set(WORDS) - listed


@pytest.mark.parametrize("code", sorted(WORDS))
def test_a_lettered_codes_words_come_from_its_row(code: str) -> None:
    rows = [text.lower() for listed, text in ROWS if listed == code]
    assert any(WORDS[code].lower() in text for text in rows), (code, rows)


@pytest.mark.parametrize(("text", "chouette", "words"), [
    ("P2", False, "a partial play, 2 dice still to play"), ("P0", False, "a partial play: a hit to finish"),
    ("P2", True, "member 2 in team order decides"), ("b3", True, "the box decides about member 3's cube"),
    ("C2", False, "choose with double, confirm with done: choice 2"),
    ("R2", False, "choosing a resignation: a gammon"),
    ("3-", False, "opening roll: White's die 3, Black's die not landed"),
    ("25", False, "opening roll: White's die 2, Black's die 5"), ("SC", True, "set checkers"),
    (" 2", False, ""), ("X9", False, ""),
])
def test_numbered_codes_and_the_opening_dice_are_said(text: str, chouette: bool, words: str) -> None:
    assert meaning(text, chouette=chouette) == words
