"""Immutable positions of every variant, and the JSON position document."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from game.board import BAR, CHECKERS, OWN_TO_BOARD, Color, Variant
from game.errors import PositionError
from game.rules import STANDARD, RuleOptions
from game.values import Value
from game.values import set_field as _set

if TYPE_CHECKING:
    from game.movegen import LegalPlays
    from game.plays import Play

Pair = tuple[int, int]


class ResultKind(enum.IntEnum):
    """How a finished game scores, as a multiple of the cube."""

    SINGLE = 1
    GAMMON = 2
    TRIPLE = 3  # backgammon, catchgammon or rungammon, by variant


class GameResult(NamedTuple):
    """Who won a game, and how it scores.

    A NamedTuple, not a dataclass: made at every start of `python -m game`, it costs about an eighth as
    much.
    """

    winner: Color
    kind: ResultKind

    def describe(self, variant: Variant) -> str:
        """ "white wins a gammon", with the variant's name for the triple game."""
        names = {ResultKind.SINGLE: "single game", ResultKind.GAMMON: "gammon",
                 ResultKind.TRIPLE: variant.triple_name}
        return f"{self.winner.value} wins a {names[self.kind]}"


class Position(Value):
    """A position: where every checker stands and who is to play.

    `points[i]` is the stack on board point i + 1, bottom to top, one character
    per checker ("w" or "b"); a Catchgammon stack such as "bww" is a black
    checker trapped under two white ones. `bar` and `off` are (white, black). `rules` are the
    rule options played (`game.rules`: Nackgammon, the mother checker), none by default.

    Make one field by field, or from any of its notations (`Position("XGID=...")`, a Position
    ID, a JSON position document), as `repr` writes it; `print(position)` draws the board as text.
    The methods that read or write notations, list plays or draw import their modules when called
    (a lazy facade: a position alone costs nothing more to import):

        >>> from game import Position
        >>> start = Position.initial()
        >>> start
        Position('XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10')
        >>> Position(start.xgid()) == start and Position.from_position_id(start.position_id()) == start
        True
    """

    __slots__ = ("variant", "turn", "points", "bar", "off", "rules")
    _fields = __slots__
    variant: Variant
    turn: Color
    points: tuple[str, ...]
    bar: Pair
    off: Pair
    rules: RuleOptions

    @overload
    def __init__(self, notation: str, /) -> None: ...

    @overload
    def __init__(self, variant: Variant, turn: Color, points: tuple[str, ...], bar: Pair = (0, 0),
                 off: Pair = (0, 0), rules: RuleOptions = STANDARD) -> None: ...

    def __init__(self, variant: Variant | str, turn: Color | None = None, points: tuple[str, ...] | None = None,
                 bar: Pair = (0, 0), off: Pair = (0, 0), rules: RuleOptions = STANDARD) -> None:
        if turn is None or points is None:
            if not (isinstance(variant, str) and turn is None and points is None):
                raise PositionError("a position needs its variant, turn and points, or one notation")
            parsed = Position.parse(variant)
            variant, turn, points, bar, off = parsed.variant, parsed.turn, parsed.points, parsed.bar, parsed.off
            rules = parsed.rules
        _set(self, "variant", variant)  # made by the thousand (a batch of documents, a replay): no loop
        _set(self, "turn", turn)
        _set(self, "points", points)
        _set(self, "bar", bar)
        _set(self, "off", off)
        _set(self, "rules", rules)
        _validate(self)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Position:
            return NotImplemented
        return (self.variant == other.variant and self.turn == other.turn and self.points == other.points
                and self.bar == other.bar and self.off == other.off and self.rules == other.rules)

    def __hash__(self) -> int:
        return hash((self.variant, self.turn, self.points, self.bar, self.off, self.rules))

    # -- construction ---------------------------------------------------

    @classmethod
    def initial(cls, variant: Variant | str = Variant.BACKGAMMON, turn: Color = Color.WHITE,
                rules: RuleOptions = STANDARD) -> Position:
        """The starting position of `variant` (a `Variant` or its name) with `turn` to play (White
        by default; the opening roll decides), under `rules` (Nackgammon has its own start).

            >>> Position.initial("rungammon").stack(12)
            'bbbbbbbbbbbbbbb'
            >>> Position.initial(rules=RuleOptions(nackgammon=True)).stack(23)
            'ww'
        """
        chosen: Variant = variant if isinstance(variant, Variant) else _enum(Variant, variant, "variant")
        points = [""] * 24
        if chosen is Variant.BACKGAMMON:
            start = NACKGAMMON_START if rules.nackgammon else BACKGAMMON_START
            for own, n in start:
                for color in Color:
                    points[OWN_TO_BOARD[chosen, color][own] - 1] = color.char * n
        else:
            for color in Color:
                points[OWN_TO_BOARD[chosen, color][24] - 1] = color.char * CHECKERS
        return cls(chosen, turn, tuple(points), rules=rules)

    @classmethod
    def from_document(cls, doc: Any) -> Position:
        """Read the JSON position document (already decoded)."""
        if type(doc) is not dict and not isinstance(doc, Mapping):
            raise PositionError(f"a position document must be a JSON object, got {type(doc).__name__}")
        if not _DOCUMENT_KEYS.issuperset(doc):
            unknown = set(doc) - _DOCUMENT_KEYS
            raise PositionError(f"position document has unknown keys: {sorted(unknown)}")
        variant = _member(_VARIANTS, Variant, doc.get("variant", "backgammon"), "variant")
        turn = _member(_COLORS, Color, doc.get("turn"), "turn")
        raw_points = doc.get("points")
        if not isinstance(raw_points, list) or len(raw_points) != 24:
            raise PositionError("'points' must be a list of 24 stacks (index 0 = board point 1)")
        # joined and checked in C, not checker by checker: a batch of documents spent most of its time here
        try:
            points = tuple(map("".join, raw_points))
        except TypeError:
            points = ()
        checkers = "".join(points)
        if (len(points) != 24 or checkers.strip("wb") or set(map(type, raw_points)) != {list}
                or len(checkers) != sum(map(len, raw_points))):  # a longer or empty string is no checker
            for index, stack in enumerate(raw_points):  # which stack, for the message
                if not isinstance(stack, list) or any(c not in ("w", "b") for c in stack):
                    raise PositionError(
                        f"points[{index}] (board point {index + 1}) must be a list of \"w\"/\"b\", "
                        f"got {stack!r}")
        rules = RuleOptions.from_document(doc["rules"]) if "rules" in doc else STANDARD
        bar, off = _pair(doc, "bar"), _pair(doc, "off")
        _check_board(variant, rules, points, "|".join(points), bar, off)  # the rest is checked above
        position = object.__new__(cls)
        _set(position, "variant", variant)
        _set(position, "turn", turn)
        _set(position, "points", points)
        _set(position, "bar", bar)
        _set(position, "off", off)
        _set(position, "rules", rules)
        return position

    @classmethod
    def parse(cls, text: str, variant: Variant | None = None) -> Position:
        """Any notation of a position: an XGID, a GNU Backgammon Position ID (White on roll) or
        an inline JSON position document; `variant`, when given, must agree."""
        from game.formats import parse_position

        return parse_position(text, variant)

    @classmethod
    def from_xgid(cls, text: str) -> Position:
        """The position of an XGID (its cube, dice and score are left out: see `game.xgid.Xgid`)."""
        from game.xgid import Xgid

        return Xgid.parse(text).position

    @classmethod
    def from_position_id(cls, text: str, turn: Color = Color.WHITE) -> Position:
        """The position of a GNU Backgammon Position ID, with `turn` on roll (the ID does not say)."""
        from game.gnubg_ids import from_position_id

        return from_position_id(text, turn)

    @classmethod
    def from_json(cls, text: str) -> Position:
        """Read the JSON position document."""
        import json  # here and in to_json: most uses of a position never write or read JSON text

        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PositionError(f"position is not valid JSON: {exc}") from None
        except RecursionError:
            raise PositionError("position JSON nests too deep") from None
        return cls.from_document(doc)

    def to_document(self) -> dict[str, Any]:
        """The JSON position document (not yet encoded); `rules` only when an option is on."""
        doc: dict[str, Any] = {
            "variant": self.variant._value_,  # the members' values without the enum's property: at every play
            "turn": self.turn._value_,
            "points": list(map(list, self.points)),  # after every play: the 24 stacks listed in C
            "bar": {"white": self.bar[0], "black": self.bar[1]},
            "off": {"white": self.off[0], "black": self.off[1]},
        }
        if self.rules:
            doc["rules"] = self.rules.to_document()
        return doc

    def to_json(self) -> str:
        """The JSON position document, compact."""
        import json

        return json.dumps(self.to_document(), separators=(",", ":"))

    def xgid(self) -> str:
        """The XGID of this Backgammon position (cube centred, no dice, money: see `game.xgid.Xgid`
        for the rest of the XGID)."""
        from game.xgid import Xgid

        return str(Xgid(self))

    def position_id(self) -> str:
        """GNU Backgammon's Position ID of this Backgammon position (it does not say who is on roll)."""
        from game.gnubg_ids import position_id

        return position_id(self)

    def with_turn(self, turn: Color) -> Position:
        """The same checkers with `turn` to play."""
        if turn is self.turn:
            return self
        if not isinstance(turn, Color):
            return self.replace(turn=turn)  # validated: refused
        other = object.__new__(Position)  # the same checkers: valid already, not checked again
        _set(other, "variant", self.variant)
        _set(other, "turn", turn)
        _set(other, "points", self.points)
        _set(other, "bar", self.bar)
        _set(other, "off", self.off)
        _set(other, "rules", self.rules)
        return other

    def pass_turn(self) -> Position:
        """The same checkers with the other player to play."""
        return self.with_turn(self.turn.opponent)

    def with_rules(self, rules: RuleOptions) -> Position:
        """The same checkers played under `rules` (refused when an option is for another variant)."""
        return self if rules is self.rules or rules == self.rules else self.replace(rules=rules)

    # -- queries ----------------------------------------------------------

    def stack(self, board_point: int) -> str:
        """The stack on board point `board_point` (1-24), bottom to top."""
        return self.points[board_point - 1]

    def own_stack(self, color: Color, own: int) -> str:
        """The stack on `color`'s own point `own` (1-24)."""
        return self.points[OWN_TO_BOARD[self.variant, color][own] - 1]

    def pip_count(self, color: Color) -> int:
        """The pips `color` must move to bear every checker off (a checker on the bar counts 25)."""
        table = OWN_TO_BOARD[self.variant, color]
        char = color.char
        pips = BAR * self.bar[color.index]
        for own in range(1, 25):
            pips += own * self.points[table[own] - 1].count(char)
        return pips

    def trapped(self, color: Color) -> tuple[int, ...]:
        """Board points where a checker of `color` is trapped (Catchgammon)."""
        return tuple(i + 1 for i, s in enumerate(self.points)
                     if len(s) > 1 and s[0] == color.char and s[-1] != color.char)

    def start_trapped(self, color: Color) -> bool:
        """Whether a checker of `color` is trapped on its own 24-point, its starting point (Catchgammon:
        its last one there, its mother checker)."""
        stack = self.own_stack(color, 24)
        return self.variant is Variant.CATCHGAMMON and stack[:1] == color.char and stack[-1:] != color.char

    def is_remi(self) -> bool:
        """Catchgammon draw: each side has a checker trapped on its own 24-point."""
        return self.variant is Variant.CATCHGAMMON and all(map(self.start_trapped, Color))

    def mother_trapped(self) -> Color | None:
        """Under the mother-checker rule (`rules.mother_checker`), the side whose mother checker is
        trapped while the trapper's own is free: that side has lost a double game. None otherwise."""
        if not self.rules.mother_checker:
            return None
        trapped = [color for color in Color if self.start_trapped(color)]
        return trapped[0] if len(trapped) == 1 else None

    def result(self) -> GameResult | None:
        """The result once a player has borne off all 15 checkers (or, under the mother-checker
        rule, has trapped the opponent's mother checker: a gammon), else None."""
        if self.rules.mother_checker:
            loser = self.mother_trapped()
            if loser is not None:
                return GameResult(loser.opponent, ResultKind.GAMMON)
        if CHECKERS not in self.off:
            return None  # after almost every play: asked without going through the colours
        for winner in Color:
            if self.off[winner.index] == CHECKERS:
                return GameResult(winner, self._result_kind(winner))
        return None

    def _result_kind(self, winner: Color) -> ResultKind:
        loser = winner.opponent
        if self.off[loser.index]:
            return ResultKind.SINGLE
        behind = self.bar[loser.index] > 0 or any(
            loser.char in self.own_stack(winner, own) for own in range(1, 7))
        return ResultKind.TRIPLE if behind else ResultKind.GAMMON

    def legal_plays(self, dice: tuple[int, int] | list[int]) -> LegalPlays:
        """Every legal play for the roll, one per distinct resulting position: a sequence of `Play`
        built as they are looked at (`game.movegen.LegalPlays`)."""
        from game.movegen import legal_plays

        return legal_plays(self, dice)

    def parse_play(self, text: str, dice: tuple[int, int] | list[int]) -> Play | None:
        """The legal play for `dice` that the notation stands for (None: no move written, none possible).

        Every point the text names counts, in the order written; `13/9` may pass either way
        and a star says where it hit (no star, no hit). Raises `IllegalPlayError` when no legal
        play fits and `AmbiguousPlayError` (its `plays` the candidates) when several do; both
        name the position and the dice.

            >>> start = Position.initial()
            >>> start.parse_play("24/23 23/20", (3, 1)).notation()
            '24/20'
            >>> start.parse_play("8/5 6/5", (3, 1)).next_position.xgid()
            'XGID=-b---BD-B---eE---c-e----B-:0:0:-1:00:0:0:0:0:10'
        """
        from game.movegen import check_dice
        from game.play_reader import read_play

        return read_play(self, check_dice(dice), text)

    def play(self, text: str, dice: tuple[int, int] | list[int]) -> Position:
        """The position after the play `text` stands for, the opponent on roll: one step of a game.

        Raises as `parse_play` does when the text names no legal play or several; a roll that
        cannot be played is written as nothing ("") and passes the turn.

            >>> Position.initial().play("8/5 6/5", (3, 1)).play("24/18 13/11", (6, 2)).turn
            <Color.WHITE: 'white'>
        """
        play = self.parse_play(text, dice)
        return self.pass_turn() if play is None else play.next_position

    def __str__(self) -> str:
        """The board as text (`game.text.draw`); `to_json()` gives the position document."""
        from game.text import draw

        return draw(self)

    def _repr_png_(self) -> bytes:
        """The board as a PNG picture, for notebooks (Jupyter shows a position as a picture)."""
        from io import BytesIO

        from game.pictures.board import draw_board

        buffer = BytesIO()
        draw_board(self).save(buffer, format="PNG")
        return buffer.getvalue()

    def notation(self) -> str:
        """The shortest notation that gives this position back: its XGID for Backgammon under the
        standard rules, else its JSON document."""
        return self.xgid() if self.variant is Variant.BACKGAMMON and not self.rules else self.to_json()

    def __repr__(self) -> str:
        return f"Position({self.notation()!r})"


BACKGAMMON_START = ((24, 2), (13, 5), (8, 3), (6, 5))
"""Backgammon's start: (own point, checkers) for each side."""
NACKGAMMON_START = ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4))
"""Nackgammon's start (`RuleOptions.nackgammon`), as GNU Backgammon sets it up."""


def _validate(pos: Position) -> None:
    variant, points = pos.variant, pos.points
    if type(variant) is not Variant or type(pos.turn) is not Color:  # enum members: their class, exactly
        raise PositionError("variant and turn must be a Variant and a Color")
    if len(points) != 24:
        raise PositionError(f"a position has 24 points, got {len(points)}")
    # the stacks checked together in C (a stack holding both colours shows "wb" or "bw" between the
    # separators), one by one only where something is found: positions are made by the thousand
    stacks = "|".join(points)
    if stacks.replace("|", "").strip("wb"):
        bad = next(i for i, stack in enumerate(points) if stack.strip("wb"))
        raise PositionError(f"board point {bad + 1}: stack {points[bad]!r} holds other than w/b")
    _check_board(variant, pos.rules, points, stacks, pos.bar, pos.off)


def _check_board(variant: Variant, rules: RuleOptions, points: tuple[str, ...], stacks: str, bar: Pair,
                 off: Pair) -> None:
    """What a position of 24 stacks of "w" and "b" (`stacks`: joined by "|") must be besides: rules
    of its variant, one colour a point (a trapped checker under its trappers in Catchgammon), no bar
    without one, fifteen checkers a side."""
    if rules is not STANDARD:
        if not isinstance(rules, RuleOptions):
            raise PositionError(f"rules must be RuleOptions, got {rules!r}")
        rules.check(variant)
    if "wb" in stacks or "bw" in stacks:
        for index, stack in enumerate(points):
            if "w" in stack and "b" in stack:
                _check_mixed(variant, index + 1, stack)
    if min(*bar, *off) < 0:
        raise PositionError(f"negative count in bar {bar} or off {off}")
    if (bar[0] or bar[1]) and not variant.has_bar:
        raise PositionError(f"{variant.value} has no bar, got bar {bar}")
    white, black = bar[0] + off[0] + stacks.count("w"), bar[1] + off[1] + stacks.count("b")
    if white != CHECKERS or black != CHECKERS:
        color, count = (Color.WHITE, white) if white != CHECKERS else (Color.BLACK, black)
        raise PositionError(f"{color.value} has {count} checkers, expected {CHECKERS}")


def _check_mixed(variant: Variant, point: int, stack: str) -> None:
    if variant is not Variant.CATCHGAMMON:
        raise PositionError(
            f"board point {point}: both colours on one point ({stack!r}) in {variant.value}")
    if stack[0] == stack[1] or stack[1:].count(stack[1]) != len(stack) - 1:
        raise PositionError(
            f"board point {point}: stack {stack!r} is not one trapped checker under its trappers")


def _enum(kind: Any, value: Any, name: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        choices = "|".join(m.value for m in kind)
        raise PositionError(f"'{name}' must be one of {choices}, got {value!r}") from None


_VARIANTS = {variant.value: variant for variant in Variant}
_COLORS = {color.value: color for color in Color}
_DOCUMENT_KEYS = frozenset({"variant", "turn", "points", "bar", "off", "rules"})


def _member(table: dict[str, Any], kind: Any, value: Any, name: str) -> Any:
    """The member of enum `kind` whose value is `value`, looked up in `table` (its members by value:
    an enum's own call costs more than the rest of reading a position document); `_enum` for anything
    else, which it takes or refuses."""
    member = table.get(value) if type(value) is str else None
    return _enum(kind, value, name) if member is None else member


_ABSENT = object()


def _pair(doc: Mapping[str, Any], key: str) -> Pair:
    raw = doc.get(key, _ABSENT)
    if raw is _ABSENT:
        return (0, 0)
    if type(raw) is dict and len(raw) == 2:  # the usual {"white": n, "black": n}, checked at once
        white, black = raw.get("white"), raw.get("black")
        if type(white) is int and type(black) is int and white >= 0 and black >= 0:
            return (white, black)
    if not isinstance(raw, Mapping) or set(raw) - {"white", "black"}:
        raise PositionError(f"'{key}' must be an object {{\"white\": n, \"black\": n}}, got {raw!r}")
    values = (raw.get("white", 0), raw.get("black", 0))
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
        raise PositionError(f"'{key}' counts must be whole numbers >= 0, got {raw!r}")
    return values

