"""GNU Backgammon's Match ID: the cube, score and turn of a Backgammon match in 12 characters.

67 bits, least significant first, in 9 bytes, base64 without padding:
cube log2 (4), cube owner (2: 0/1 = player, 3 = centred), player on roll (1),
Crawford game (1), game state (3), player to act (1), double offered (1),
resignation (2), die 1 (3), die 2 (3), match length (15), score of player 0
(15), score of player 1 (15), Jacoby rule (1, GNU Backgammon 1.x). GNU Backgammon's player 0 is Black here and
player 1 White (XGID's and GNU Backgammon's bottom player).
"""

from __future__ import annotations

import base64
import binascii
import enum
from dataclasses import dataclass

from game.board import Color
from game.errors import NotationError
from game.match import Match, Phase
from game.xgid import Xgid

_FIELDS = (("cube", 4), ("owner", 2), ("on_roll", 1), ("crawford", 1), ("state", 3), ("turn", 1),
           ("doubled", 1), ("resigned", 2), ("die1", 3), ("die2", 3), ("length", 15), ("score0", 15),
           ("score1", 15), ("jacoby", 1))
_CENTRED = 3


class GameState(enum.IntEnum):
    """The game's state as GNU Backgammon's Match ID encodes it."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


def player(color: Color) -> int:
    """GNU Backgammon's player number: Black 0, White 1."""
    return 1 if color is Color.WHITE else 0


def color(number: int) -> Color:
    """The colour of a Match ID player number (1 White, 0 Black)."""
    return Color.WHITE if number else Color.BLACK


@dataclass(frozen=True, slots=True)
class MatchIdState:
    """What a Match ID says. Scores are (white, black); `length` 0 is money play."""

    cube_value: int = 1
    cube_owner: Color | None = None
    on_roll: Color = Color.WHITE
    crawford: bool = False
    state: GameState = GameState.PLAYING
    turn: Color = Color.WHITE  # the player to act: the doubled player while a double is offered
    doubled: bool = False
    resigned: int = 0  # 0 none, 1 single, 2 gammon, 3 backgammon
    dice: tuple[int, int] = (0, 0)  # (0, 0) before the roll
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def encode(self) -> str:
        """The 12-character Match ID."""
        values = {
            "cube": self.cube_value.bit_length() - 1,
            "owner": _CENTRED if self.cube_owner is None else player(self.cube_owner),
            "on_roll": player(self.on_roll), "crawford": int(self.crawford), "state": int(self.state),
            "turn": player(self.turn), "doubled": int(self.doubled), "resigned": self.resigned,
            "die1": self.dice[0], "die2": self.dice[1], "length": self.length,
            # GNU Backgammon's bit 66 is set when the Jacoby rule is NOT in use (its matchid.c stores
            # !fJacoby): `set matchid` with the bit clear reports "played with the Jacoby rule".
            "score0": self.score[1], "score1": self.score[0], "jacoby": int(not self.jacoby),
        }
        key, shift = 0, 0
        for name, width in _FIELDS:
            value = values[name]
            if not 0 <= value < 1 << width:
                raise NotationError(f"Match ID field {name} = {value} does not fit in {width} bits")
            key |= value << shift
            shift += width
        return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def decode(cls, text: str) -> MatchIdState:
        """Read a 12-character Match ID (raises `NotationError`)."""
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise NotationError(f"{text!r} is not a Match ID (base64)") from None
        if len(text) != 12 or len(raw) != 9:
            raise NotationError(f"{text!r} is not a Match ID (12 characters, 9 bytes)")
        key = int.from_bytes(raw, "little")
        values = {}
        for name, width in _FIELDS:
            values[name] = key & ((1 << width) - 1)
            key >>= width
        if values["owner"] == 2 or values["state"] > GameState.DROPPED:
            raise NotationError(f"Match ID {text!r} has an impossible cube owner or game state")
        return cls(
            cube_value=1 << values["cube"],
            cube_owner=None if values["owner"] == _CENTRED else color(values["owner"]),
            on_roll=color(values["on_roll"]), crawford=bool(values["crawford"]),
            state=GameState(values["state"]), turn=color(values["turn"]), doubled=bool(values["doubled"]),
            resigned=values["resigned"], dice=(values["die1"], values["die2"]), length=values["length"],
            score=(values["score1"], values["score0"]), jacoby=not values["jacoby"],
        )

    @classmethod
    def of_match(cls, match: Match) -> MatchIdState:
        """The state of a match as GNU Backgammon would describe it (no score in money play)."""
        cube = match.cube
        phase = match.phase
        position = match.position
        on_roll = cube.offered_by or position.turn
        if cube.beavered:  # the beaver is an offer by the player just doubled
            on_roll = on_roll.opponent
        resignation = match.resignation
        if phase is Phase.OVER:  # as the last game ended
            last = match.games[-1].reason if match.games else ""
            state = {"pass": GameState.DROPPED, "resign": GameState.RESIGNED}.get(last, GameState.OVER)
        elif phase is Phase.OPENING:
            state = GameState.NONE
        else:
            state = GameState.RESIGNED if resignation else GameState.PLAYING
        return cls(
            cube_value=cube.value, cube_owner=cube.owner, on_roll=on_roll, crawford=match.crawford,
            state=state, turn=match.expected or position.turn, doubled=cube.offered,
            resigned=int(resignation[1]) if resignation else 0, dice=_high_first(match.dice),
            length=match.length or 0, score=match.score if match.length else (0, 0),
            jacoby=match.options.jacoby)

    @classmethod
    def of_xgid(cls, xgid: Xgid) -> MatchIdState:
        """The cube, score and turn fields of an XGID (with no double pending)."""
        turn = xgid.position.turn
        return cls(cube_value=xgid.cube_value, cube_owner=xgid.cube_owner, on_roll=turn,
                   crawford=xgid.crawford, turn=turn, dice=_high_first(xgid.dice),
                   length=xgid.match_length, score=xgid.score, jacoby=xgid.jacoby)


def _high_first(dice: tuple[int, int] | None) -> tuple[int, int]:
    """Dice as GNU Backgammon writes them in a Match ID: the higher first; (0, 0) before the roll."""
    return (max(dice), min(dice)) if dice else (0, 0)


def match_id(match: Match) -> str:
    """GNU Backgammon's Match ID of a Backgammon match as it stands."""
    return MatchIdState.of_match(match).encode()
