"""The compact state both kernels search over, and its translation to and from `Position`.

A state is 28 bytes, from the side of the player on roll, indexed by the mover's own point
numbers: [0] my checkers off, [1..24] one code per point, [25] mine on the bar, [26] theirs
on the bar, [27] theirs off. A point's code is n (1-15) for n of mine, 16 + n for n of
theirs, and 32 + n / 48 + n for n of mine / of theirs on top of one checker of the other
colour trapped beneath (Catchgammon). Equal positions (same variant and turn) have equal
states, so a state is a key for a resulting position.

    >>> from game import Position
    >>> start = Position.initial()
    >>> state = encode(start)
    >>> [state[p] for p in (24, 13, 8, 6, 1)]  # 2 of theirs on my 1: 16 + 2
    [2, 5, 3, 5, 18]
    >>> opponent_view(state, start.variant) == encode(start.pass_turn())
    True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any

from game.board import BOARD_TO_OWN, CHECKERS, OWN_TO_BOARD, Color, Variant
from game.position import Position
from game.rules import RuleOptions

State = bytes
MY_OFF, MY_BAR, THEIR_BAR, THEIR_OFF = 0, 25, 26, 27
THEIRS, TRAPPING, TRAPPED = 16, 32, 48
VARIANT_INDEX = {variant: index for index, variant in enumerate(Variant)}
"""The kernels' number for each variant: 0 Backgammon, 1 Catchgammon, 2 Rungammon."""
VARIANT_BITS = 3
MOTHER_CHECKER = 4
"""The bit of the kernels' rules number for `RuleOptions.mother_checker`."""


def kernel_rules(variant: Variant, rules: RuleOptions) -> int:
    """The number both kernels take for the rules: the variant's index, plus a bit for each rule
    option that changes which plays are legal (Nackgammon changes only the start). An option of
    another variant is refused (`RuleOptionError`)."""
    rules.check(variant)
    return VARIANT_INDEX[variant] | (MOTHER_CHECKER if rules.mother_checker else 0)


def _stack(code: int, mine: str, theirs: str) -> str:
    n = code & 15
    return {0: mine * n, THEIRS: theirs * n, TRAPPING: theirs + mine * n,
            TRAPPED: mine + theirs * n}[code & 48]


def _codes() -> tuple[int, ...]:
    """Every code a point of a valid position can hold: empty, mine, theirs, a trap either way."""
    return (0, *(base + n for base in (0, THEIRS, TRAPPING, TRAPPED) for n in range(1, 16)))


_STACKS = {(m, t): tuple(_stack(c, m, t) for c in range(64)) for m, t in (("w", "b"), ("b", "w"))}
_CODE_OF = {mine: {_stack(c, mine, theirs): c for c in _codes()} for mine, theirs in (("w", "b"), ("b", "w"))}


def _getter(indexes: Sequence[int]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    return itemgetter(*indexes)


# Board points (index 0 = board point 1) taken from the mover's own points 1-24.
_OWN_ORDER = {key: _getter([table[p] - 1 for p in range(1, 25)]) for key, table in OWN_TO_BOARD.items()}


def encode(position: Position) -> State:
    """The position as a state, from the side of the player on roll."""
    me = position.turn.index
    code = _CODE_OF[position.turn.char].__getitem__
    stacks = _OWN_ORDER[position.variant, position.turn](position.points)
    return bytes((position.off[me], *map(code, stacks), position.bar[me], position.bar[1 - me], position.off[1 - me]))


def encode_document(doc: Any) -> State | None:
    """The state of a position document (JSON, decoded) in its usual form: a Backgammon position
    under the standard rules, an object of `turn`, the 24 `points` (lists of "w" and "b", one colour
    a point) and, when not left out, `variant` "backgammon" and `bar` and `off` as {"white": n,
    "black": n}, fifteen checkers a side. None for any other document (another variant, rule
    options, any other form, anything `Position.from_document` refuses), which the caller reads the
    long way. For a batch of documents, where building each `Position` would cost more than
    listing its plays; the compiled kernel has the same, in C."""
    if type(doc) is not dict or not _USUAL_KEYS.issuperset(doc):
        return None
    variant, turn, points = doc.get("variant", "backgammon"), doc.get("turn"), doc.get("points")
    if type(variant) is not str or variant != "backgammon" or type(turn) is not str or turn not in _SIDES:
        return None
    bar, off = _usual_pair(doc, "bar"), _usual_pair(doc, "off")
    if bar is None or off is None or type(points) is not list or len(points) != 24:
        return None
    me = _SIDES[turn]
    mine = "w" if me == 0 else "b"
    state = bytearray(28)
    held = [bar[0] + off[0], bar[1] + off[1]]
    for own in range(1, 25):
        stack = points[_BACKGAMMON_INDEX[me][own]]
        if type(stack) is not list:
            return None
        for checker in stack:
            if type(checker) is not str or checker != stack[0] or checker not in ("w", "b"):
                return None
        if stack:
            n = len(stack)
            held[stack[0] == "b"] += n
            if n > CHECKERS:
                return None
            state[own] = n if stack[0] == mine else THEIRS + n
    if held != [CHECKERS, CHECKERS]:
        return None
    state[MY_BAR], state[THEIR_BAR], state[MY_OFF], state[THEIR_OFF] = bar[me], bar[1 - me], off[me], off[1 - me]
    return bytes(state)


def _usual_pair(doc: dict[str, Any], key: str) -> tuple[int, int] | None:
    """`bar` or `off` in its usual form, {"white": n, "black": n} with n from 0 to 15, or left out."""
    if key not in doc:
        return (0, 0)
    pair = doc[key]
    if type(pair) is not dict or len(pair) != 2:
        return None
    white, black = pair.get("white"), pair.get("black")
    if type(white) is not int or type(black) is not int or not (0 <= white <= CHECKERS and 0 <= black <= CHECKERS):
        return None  # (a bool is no count)
    return (white, black)


_USUAL_KEYS = frozenset({"variant", "turn", "points", "bar", "off"})
_SIDES = {"white": 0, "black": 1}
_BACKGAMMON_INDEX = tuple(tuple(OWN_TO_BOARD[Variant.BACKGAMMON, color][own] - 1 if own else 0 for own in range(25))
                          for color in (Color.WHITE, Color.BLACK))  # each own point's index in `points`


Gather = Callable[[State, tuple[tuple[Any, ...], ...], bytes], tuple[Any, ...]]
"""A kernel's `gather(state, tables, order)`: tables[k][state[order[k]]] for each k."""
_BOARD_BYTES = {key: bytes(BOARD_TO_OWN[key][b] for b in range(1, 25)) for key in OWN_TO_BOARD}


def stack_table(turn: Color) -> tuple[str, ...]:
    """The stack (bottom to top, "w"/"b") of each point code, for `turn` on roll."""
    return _STACKS["w", "b"] if turn is Color.WHITE else _STACKS["b", "w"]


def board_order(variant: Variant, turn: Color) -> bytes:
    """The state's byte of each board point 1-24, in board point order."""
    return _BOARD_BYTES[variant, turn]


def decoder(template: Position, gather: Gather) -> Callable[[State], Position]:
    """Turns states into positions with the template's variant, turn and rules."""
    return _decoder(template.variant, template.turn, template.rules, gather)


@lru_cache(maxsize=64)
def _decoder(variant: Variant, turn: Color, rules: RuleOptions, gather: Gather) -> Callable[[State], Position]:
    """Set up once for each variant, turn, rules and kernel: a match asks for one at every play."""
    white_moves = turn is Color.WHITE
    stacks = (stack_table(turn),) * 24
    order = board_order(variant, turn)
    new, setattr_ = object.__new__, object.__setattr__

    def to_position(state: State) -> Position:
        mine_bar, their_bar, mine_off, their_off = state[MY_BAR], state[THEIR_BAR], state[MY_OFF], state[THEIR_OFF]
        # Built from a valid position by legal moves: skip re-validation.
        pos = new(Position)
        setattr_(pos, "variant", variant)
        setattr_(pos, "turn", turn)
        setattr_(pos, "points", gather(state, stacks, order))
        setattr_(pos, "bar", (mine_bar, their_bar) if white_moves else (their_bar, mine_bar))
        setattr_(pos, "off", (mine_off, their_off) if white_moves else (their_off, mine_off))
        setattr_(pos, "rules", rules)
        return pos

    return to_position


# A state's bytes seen from the other side: the trays and bars change places, my own point q
# is the opponent's own point of the same board point (25 - q, or half way round in Rungammon).
_SWAP_ORDER = {variant: _getter([THEIR_OFF, *(OWN_TO_BOARD[variant, Color.BLACK][q] for q in range(1, 25)),
                                 THEIR_BAR, MY_BAR, MY_OFF]) for variant in Variant}
_SWAP_CODES = bytes(c ^ THEIRS if 0 < c < 64 else c for c in range(256))  # mine <-> theirs, traps both ways


def opponent_view(state: State, variant: Variant) -> State:
    """The same checkers from the other player's side: the state they roll in after a play.

    For searching ahead on states alone (a bot's look-ahead); equal to
    `encode(decode(state, template).pass_turn())`.
    """
    swapped = state[:1] + state[1:25].translate(_SWAP_CODES) + state[25:]
    return bytes(_SWAP_ORDER[variant](swapped))
