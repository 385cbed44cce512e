"""What each code on the cube display means, in words a person at the table reads beside it
(the live view, the log). The words are those of hardware_docs/referee.md's table of codes,
cut to the clause that says what happened; tests/test_display_codes.py keeps them so.
"""

from __future__ import annotations

import re

WORDS = {
    "SC": "set checkers",
    "GO": "a legal play stands; press done",
    "BP": "a checker landed on a blocked point",
    "TR": "a trapped checker was moved",
    "BO": "bearing off before every checker is home",
    "BH": "bearing off with a larger die while a checker stands higher",
    "BR": "another checker moved while one is on the bar",
    "DU": "a die left unused",
    "LD": "the smaller die played where the larger was required",
    "PT": "a Rungammon prime of the whole starting table",
    "PR": "a Rungammon six-prime with opponents behind and none ahead",
    "FC": "a second checker left the start before the first passed the opponent's start",
    "CH": "the sensors cannot tell legal plays apart",
    "TB": "a takeback is asked",
    "DB": "a double is offered",
    "RE": "a resignation is offered",
    "NP": "no play: the roll cannot be played",
    "CO": "a cocked die",
    "ER": "dice thrown before the opponent pressed done",
    "NO": "the button pressed is not allowed now",
    "CA": "a link (the cable) is down",
    "RF": "a referee's ruling arrived",
    "AI": "carry out the bot's play",
    "AE": "the board is not the bot's play",
    "AR": "the bot rolls, throw the dice for it",
    "AT": "the bot takes the double",
    "AP": "the bot passes the double",
    "AB": "the bot beavers the double",
    "AA": "the bot accepts the resignation",
    "AD": "the bot declines the resignation",
    "HI": "a hint is shown",
    "NH": "no hint",
}
"""Each lettered code's words."""

RESIGNATIONS = {"1": "a single game", "2": "a gammon", "3": "a triple game"}
"""`R1`-`R3`: what the resignation being chosen gives up."""


def meaning(text: str, *, chouette: bool = False) -> str:
    """The words for what the display shows (`text`, its two characters); "" for what is not a
    code. `chouette`: `P1`-`P8` name the member who decides (elsewhere: a casual partial play)."""
    code = text.strip() if len(text.strip()) == 2 else text
    if code in WORDS:
        return WORDS[code]
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
