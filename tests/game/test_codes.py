"""The words the live view and the log give beside each code of the cube display: referee.md's words for
every lettered code (tests/test_referee_doc.py compares the lists), and the numbered codes and the
opening roll's dice said in full."""

import pytest

from game.codes import FAMILIES, Code, describe


def test_every_code_and_family_member_has_words() -> None:
    assert all(describe(code) for code in Code)
    assert all(describe(member, chouette=family.letter == "P" and family.numbers.start == 1)
               for family in FAMILIES for member in family.members())


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
    assert describe(text, chouette=chouette) == words
