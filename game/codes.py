"""The table's codes, one list: what the two-digit cube display can show, with the words a person at
the table reads beside each (the live view, the log: hardware_docs/referee.md's words, cut to the
clause that says what happened), and the kinds of flag.

Every module that shows a code names it here (`Code.SET_CHECKERS`, never ``"SC"``), and
hardware_docs/referee.md lists the same codes with the same meanings (tests/test_referee_doc.py
compares the two both ways). A `Code` is a `str`, so it is written into the journal and compared
with what a display shows as the two characters themselves.

Some codes come in numbered families (a partial play's dice left, a chouette member's place, a
choice among look-alike plays, a resignation's kind, the opening roll's dice): the functions below
make them, and `FAMILIES` lists them for the documentation.

>>> Code.SET_CHECKERS, Code.SET_CHECKERS.meaning
(<Code.SET_CHECKERS: 'SC'>, 'set checkers')
>>> describe('P2'), describe('P2', chouette=True)
('a partial play, 2 dice still to play', 'member 2 in team order decides')
>>> describe('3-')
"opening roll: White's die 3, Black's die not landed"
>>> Code.NO_PLAY.momentary, Code.SET_CHECKERS.momentary
(True, False)
>>> partial(2), choice(12), opening(3, None)
('P2', 'C9', '3-')
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple

from game.errors import CodeError

FLASH_SECONDS = 3.0
"""How long a code that tells of a moment (`Code.momentary`) shows before the display returns to what stands."""

BLANK = "  "
"""The display with no code (the cube's value shows instead)."""


class Code(enum.StrEnum):
    """A code the cube display shows; its value is the two characters."""

    # the board and the play
    SET_CHECKERS = "SC"
    LEGAL_PLAY_STANDS = "GO"
    CHOOSE = "CH"
    NO_PLAY = "NP"
    # rules a play breaks (game.explain.Breach)
    BLOCKED_POINT = "BP"
    TRAPPED_CHECKER_MOVED = "TR"
    BEAR_OFF_TOO_EARLY = "BO"
    BEAR_OFF_NOT_HIGHEST = "BH"
    BAR_FIRST = "BR"
    DIE_UNUSED = "DU"
    LARGER_DIE_REQUIRED = "LD"
    PRIME_START_TABLE = "PT"
    PRIME_BLOCKS_OPPONENT = "PR"
    FIRST_CHECKER_RULE = "FC"
    # agreements and the cube
    TAKEBACK = "TB"
    DOUBLE_OFFERED = "DB"
    RESIGNATION_OFFERED = "RE"
    # moments
    COCKED_DIE = "CO"
    EARLY_ROLL = "ER"
    NOT_ALLOWED = "NO"
    RULING = "RF"
    # the links
    CABLE_DOWN = "CA"
    # the bot
    BOT_PLAY = "AI"
    NOT_THE_BOT_PLAY = "AE"
    BOT_ROLLS = "AR"
    BOT_TAKES = "AT"
    BOT_PASSES = "AP"
    BOT_BEAVERS = "AB"
    BOT_ACCEPTS = "AA"
    BOT_DECLINES = "AD"
    HINT = "HI"
    NO_HINT = "NH"

    @property
    def meaning(self) -> str:
        """What the code tells the people at the table, in a few words."""
        return _MEANINGS[self]

    @property
    def momentary(self) -> bool:
        """The code tells of a moment: it shows for `FLASH_SECONDS`, then what stands shows again."""
        return self in _MOMENTARY


_MEANINGS: dict[Code, str] = {
    Code.SET_CHECKERS: "set checkers",
    Code.LEGAL_PLAY_STANDS: "a legal play stands; press done",
    Code.CHOOSE: "the sensors cannot tell legal plays apart",
    Code.NO_PLAY: "no play: the roll cannot be played",
    Code.BLOCKED_POINT: "a checker landed on a blocked point",
    Code.TRAPPED_CHECKER_MOVED: "a trapped checker was moved",
    Code.BEAR_OFF_TOO_EARLY: "bearing off before every checker is home",
    Code.BEAR_OFF_NOT_HIGHEST: "bearing off with a larger die while a checker stands higher",
    Code.BAR_FIRST: "another checker moved while one is on the bar",
    Code.DIE_UNUSED: "a die left unused",
    Code.LARGER_DIE_REQUIRED: "the smaller die played where the larger was required",
    Code.PRIME_START_TABLE: "a Rungammon prime of the whole starting table",
    Code.PRIME_BLOCKS_OPPONENT: "a Rungammon six-prime with opponents behind and none ahead",
    Code.FIRST_CHECKER_RULE: "a second checker left the start before the first passed the opponent's start",
    Code.TAKEBACK: "a takeback is asked",
    Code.DOUBLE_OFFERED: "a double is offered",
    Code.RESIGNATION_OFFERED: "a resignation is offered",
    Code.COCKED_DIE: "a cocked die",
    Code.EARLY_ROLL: "dice thrown before the opponent pressed done",
    Code.NOT_ALLOWED: "the button pressed is not allowed now",
    Code.RULING: "a referee's ruling arrived",
    Code.CABLE_DOWN: "a link (the cable) is down",
    Code.BOT_PLAY: "carry out the bot's play",
    Code.NOT_THE_BOT_PLAY: "the board is not the bot's play",
    Code.BOT_ROLLS: "the bot rolls, throw the dice for it",
    Code.BOT_TAKES: "the bot takes the double",
    Code.BOT_PASSES: "the bot passes the double",
    Code.BOT_BEAVERS: "the bot beavers the double",
    Code.BOT_ACCEPTS: "the bot accepts the resignation",
    Code.BOT_DECLINES: "the bot declines the resignation",
    Code.HINT: "a hint is shown",
    Code.NO_HINT: "no hint",
}

_MOMENTARY = frozenset({
    Code.NO_PLAY, Code.COCKED_DIE, Code.EARLY_ROLL, Code.NOT_ALLOWED, Code.RULING, Code.BOT_TAKES,
    Code.BOT_PASSES, Code.BOT_BEAVERS, Code.BOT_ACCEPTS, Code.BOT_DECLINES, Code.HINT, Code.NO_HINT,
})


class FlagKind(enum.StrEnum):
    """What a flag in the journal is about (its ``kind``; the code says which rule or moment)."""

    ILLEGAL = "illegal"
    """A play no legal play of the roll explains."""
    MISPLACED = "misplaced"
    """A board that is no play at all (checkers where no sequence of the roll puts them)."""
    SET_BOARD = "set_board"
    """Checkers moved between turns."""
    BOT_PLAY = "bot_play"
    """The board is not the bot's play that a person carried out."""
    EARLY_ROLL = "early_roll"
    """Dice thrown before the opponent pressed done."""
    COCKED = "cocked"
    """A cocked die."""


class Family(NamedTuple):
    """A numbered family of codes: a letter and the numbers it takes, with what they mean."""

    letter: str
    numbers: range
    meaning: str

    def members(self) -> tuple[str, ...]:
        """Every code of the family."""
        return tuple(f"{self.letter}{number}" for number in self.numbers)


MAX_CHOICES = 9
"""Look-alike plays are numbered C1 to C9 on the display; a tenth and more show as C9 (the view numbers them all)."""

PARTIAL = Family("P", range(0, 4), "a partial play: that many dice still to play (P0: a hit to finish)")
MEMBER = Family("P", range(1, 9), "a chouette member's decision, by place in the team order")
BOX = Family("B", range(1, 9), "the box decides about that chouette member's cube")
CHOICE = Family("C", range(1, MAX_CHOICES + 1), "the look-alike play being chosen")
RESIGNATION = Family("R", range(1, 4), "choosing a resignation: a single game, a gammon, a triple game")
FAMILIES = (PARTIAL, MEMBER, BOX, CHOICE, RESIGNATION)


def partial(dice_left: int) -> str:
    """A partial play's code: P and the number of dice still to play."""
    return _member(PARTIAL, dice_left)


def member(place: int) -> str:
    """A chouette member's code, by place in the team order (1 = first)."""
    return _member(MEMBER, place)


def box(place: int) -> str:
    """The box deciding about the chouette member at `place` (the display shows it in lower case)."""
    return _member(BOX, place)


def choice(number: int) -> str:
    """The code of the `number`-th look-alike play (1-based), at most C9."""
    return _member(CHOICE, min(number, MAX_CHOICES))


def resignation(kind: int) -> str:
    """The code of the resignation being chosen (1 single game, 2 gammon, 3 triple game)."""
    return _member(RESIGNATION, kind)


def opening(white: int | None, black: int | None) -> str:
    """The opening roll as it lands: White's die left, Black's right, '-' until a die lands."""
    return "".join("-" if die is None else str(die) for die in (white, black))


def _member(family: Family, number: int) -> str:
    if number not in family.numbers:
        raise CodeError(f"{family.letter}{number}: not a code of the family {family.meaning!r} "
                         f"({family.members()[0]}-{family.members()[-1]})")
    return f"{family.letter}{number}"


RESIGNATIONS = {"1": "a single game", "2": "a gammon", "3": "a triple game"}
"""`R1`-`R3`: what the resignation being chosen gives up."""


def describe(text: str, *, chouette: bool = False) -> str:
    """The words for what the display shows (`text`, its two characters); "" for what is not a code.
    `chouette`: `P1`-`P8` name the member who decides (elsewhere: a casual partial play)."""
    code = text.strip() if len(text.strip()) == 2 else text
    if code in Code._value2member_map_:
        return Code(code).meaning
    letter, digit = code[:1], code[1:2]
    if re.fullmatch(r"[0-6-][0-6-]", code) and code != "00":
        return "opening roll: " + ", ".join(f"{who}'s die {'not landed' if face == '-' else face}"
                                            for who, face in (("White", code[0]), ("Black", code[1])))
    if not digit.isdigit():
        return ""
    if letter == "P" and chouette:
        return f"member {digit} in team order decides"
    if letter == "P":
        return "a partial play: a hit to finish" if digit == "0" else f"a partial play, {digit} dice still to play"
    if letter in "Bb" and digit != "0":
        return f"the box decides about member {digit}'s cube"
    if letter == "C" and digit != "0":
        return f"choose with double, confirm with done: choice {digit}"
    if letter == "R" and digit in RESIGNATIONS:
        return f"choosing a resignation: {RESIGNATIONS[digit]}"
    return ""
