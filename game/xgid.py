"""eXtreme Gammon's XGID: a Backgammon position with its cube, dice and score.

`XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`: 26 characters for the
checkers (index 0 = Black's bar, 1-24 = board points, 25 = White's bar; "-" is
empty, A-O are 1-15 white checkers, a-o black), then cube exponent, cube owner
(1 White, -1 Black, 0 centred), player on roll (1 White, -1 Black), dice ("00"
not rolled, "D" double offered, "B" beaver, "R" raccoon, or two faces), White's
score, Black's score, Crawford (match) or Jacoby + 2 x beavers (money), match
length (0 = money), maximum cube exponent. White is XG's bottom player.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.board import CHECKERS, Color, Variant
from game.errors import NotationError, PositionError
from game.position import Position

_COLOR_SIGN = {Color.WHITE: 1, Color.BLACK: -1}


@dataclass(frozen=True, slots=True)
class Xgid:
    """An XGID's fields: the position, the cube, the dice, the score and the match's settings."""

    position: Position
    cube_value: int = 1
    cube_owner: Color | None = None
    dice: tuple[int, int] | None = None
    cube_action: str = ""  # "", "D" (double offered), "B" (beaver), "R" (raccoon)
    score: tuple[int, int] = (0, 0)  # (white, black)
    match_length: int = 0  # 0 = money
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 1024

    @classmethod
    def parse(cls, text: str) -> Xgid:
        """Read an XGID (with or without `XGID=`); raises `NotationError` naming the field."""
        body = text.strip()
        if body.upper().startswith("XGID="):
            body = body[5:]
        fields = body.split(":")
        if len(fields) != 10:
            raise NotationError(f"an XGID has 10 fields separated by ':', got {len(fields)} in {text!r}")
        try:
            return cls._from_fields(fields)
        except (ValueError, IndexError) as exc:
            raise NotationError(f"cannot read XGID {text!r}: {exc}") from None

    @classmethod
    def _from_fields(cls, fields: list[str]) -> Xgid:
        board, cube, owner, turn, dice, white, black, flags, length, max_cube = fields
        if len(board) != 26:
            raise ValueError(f"checker field has {len(board)} characters, expected 26")
        counts = [_count(c) for c in board]
        points = []
        for index in range(1, 25):
            color, n = counts[index]
            points.append((color.char * n) if color else "")
        bar = (counts[25][1] if counts[25][0] is Color.WHITE else 0,
               counts[0][1] if counts[0][0] is Color.BLACK else 0)
        on_board = [sum(n for c, n in counts if c is color) for color in Color]
        for color in Color:
            if on_board[color.index] > CHECKERS:
                raise ValueError(f"{color.value} has {on_board[color.index]} checkers, at most {CHECKERS}")
        off = (CHECKERS - on_board[0], CHECKERS - on_board[1])
        try:
            position = Position(Variant.BACKGAMMON, _color(int(turn)), tuple(points), bar, off)
        except PositionError as exc:
            raise ValueError(str(exc)) from None
        money = int(length) == 0
        return cls(
            position=position,
            cube_value=2 ** int(cube),
            cube_owner=None if int(owner) == 0 else _color(int(owner)),
            dice=None if not dice.isdigit() or dice == "00" else _dice(dice),
            cube_action=dice if dice in ("D", "B", "R") else "",
            score=(int(white), int(black)),
            match_length=int(length),
            crawford=not money and int(flags) == 1,
            jacoby=money and bool(int(flags) & 1),
            beavers=money and bool(int(flags) & 2),
            max_cube=2 ** int(max_cube),
        )

    def __str__(self) -> str:
        pos = self.position
        if pos.variant is not Variant.BACKGAMMON:
            raise PositionError(f"XGID describes backgammon only, not {pos.variant.value}")
        if pos.rules:  # an XGID has no field for a rule option: written, it would claim the standard game
            raise PositionError(f"an XGID cannot say the rule options {pos.rules.words()}: use the JSON position "
                                f"document ({pos.to_json()})")
        chars = [_char(Color.BLACK, pos.bar[1])]
        for stack in pos.points:
            chars.append(_char(Color.from_char(stack[0]), len(stack)) if stack else "-")
        chars.append(_char(Color.WHITE, pos.bar[0]))
        if self.match_length:
            flags = int(self.crawford)
        else:
            flags = int(self.jacoby) + 2 * int(self.beavers)
        dice = self.cube_action or (f"{self.dice[0]}{self.dice[1]}" if self.dice else "00")
        owner = _COLOR_SIGN[self.cube_owner] if self.cube_owner else 0
        return (f"XGID={''.join(chars)}:{self.cube_value.bit_length() - 1}:{owner}:"
                f"{_COLOR_SIGN[pos.turn]}:{dice}:{self.score[0]}:{self.score[1]}:{flags}:"
                f"{self.match_length}:{self.max_cube.bit_length() - 1}")


def _count(char: str) -> tuple[Color | None, int]:
    if char == "-":
        return None, 0
    if "A" <= char <= "O":
        return Color.WHITE, ord(char) - ord("A") + 1
    if "a" <= char <= "o":
        return Color.BLACK, ord(char) - ord("a") + 1
    raise ValueError(f"{char!r} is not a checker count (-, A-O, a-o)")


def _char(color: Color, n: int) -> str:
    if not n:
        return "-"
    return chr((ord("A") if color is Color.WHITE else ord("a")) + n - 1)


def _color(sign: int) -> Color:
    if sign not in (1, -1):
        raise ValueError(f"player must be 1 or -1, got {sign}")
    return Color.WHITE if sign == 1 else Color.BLACK


def _dice(text: str) -> tuple[int, int]:
    if len(text) != 2 or not all("1" <= c <= "6" for c in text):
        raise ValueError(f"dice {text!r} must be two faces 1-6")
    return int(text[0]), int(text[1])
