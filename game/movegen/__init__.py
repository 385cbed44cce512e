"""Legal play generation for every variant, by one of two kernels that give the same plays in
the same order.

The kernels search over compact 28-byte states (`game.movegen.state`): the compiled one
(`_kernel.c`, built by the package's setup.py where a C compiler and Python's headers exist)
and the pure-Python one (`pure.py`), used where the compiled one is not built or when the
environment says `SMARTGAMMON_KERNEL=pure`. `kernel()` names the one in use (as
`python -m game --version` does); `use_kernel` switches for a while (tests, benchmarks).

The compiled kernel also searches a hand's relaxed moves on physical boards for `game.explain`
(`kernel_relaxed`; where the pure kernel is in use the Explainer searches in Python, the same way).

For positions and plays: `legal_plays` (a lazy sequence of `Play`, see `LegalPlays`),
`count_plays`, `legal_states`, `single_moves`, `single_move_walk`, `complete_play`, `play_allowed`.

For searching many positions without building objects (a bot's look-ahead): `state_plays`
gives each legal play's resulting state and raw moves, `state_count` their number,
`state_steps` the single moves of one die, `opponent_view` the state the opponent rolls in
after a play, `moves_of` and `MOVES` the `Move`s of raw moves, `encode`/`decode` the way
between positions and states:

    >>> from game import Position, Variant, format_moves
    >>> start = encode(Position.initial())
    >>> results, raw = state_plays(start, Variant.BACKGAMMON, (3, 1))
    >>> len(results), state_count(start, Variant.BACKGAMMON, (3, 1)), format_moves(moves_of(raw[0]))
    (16, 16, '24/23 24/21')
    >>> after = opponent_view(results[0], Variant.BACKGAMMON)  # the opponent to roll
    >>> after == encode(decode(results[0], Position.initial()).pass_turn())
    True
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, cast

from game.board import Variant
from game.errors import DiceError, KernelError
from game.movegen import pure
from game.movegen import state as _state
from game.movegen.legal import MOVES, LegalPlays, moves_of
from game.movegen.state import State, kernel_rules, opponent_view
from game.plays import Move, Play
from game.position import Position
from game.rules import STANDARD, RuleOptions

__all__ = [
    "ENV", "MOVES", "LegalPlays", "State", "available_kernels", "check_dice", "complete_play", "count_plays", "decode",
    "decoder", "describe_kernel", "encode", "encode_document", "kernel", "kernel_gather", "kernel_index",
    "kernel_relaxed", "kernel_steps", "kernel_walk",
    "legal_plays_indexed",
    "legal_plays", "legal_states", "moves_of", "opponent_view", "play_allowed", "single_move_walk", "single_moves",
    "state_count", "state_plays", "state_steps", "use_kernel",
]

ENV = "SMARTGAMMON_KERNEL"
"""The environment variable that chooses the kernel: `pure`, `compiled`, or unset (`auto`):
the compiled one where it is built."""


Turn = tuple[tuple[State, ...], tuple[bytes, ...], dict[pure.Key, list[int]],
             dict[pure.Key, list[bytes | pure.HalfNode]]]
"""A roll's plays (each one's resulting state and raw moves) and the index of their results and of
the boards on the way to them (`pure.index`'s legal and partial)."""


class Kernel(Protocol):
    """What each kernel provides (see game/movegen/pure.py for what each function returns)."""

    def encode(self, position: Position, /) -> bytes:
        """The position from the mover's side."""

    def encode_document(self, doc: object, /) -> bytes | None:
        """A position document in its usual form as a state; None for any other (`encode_document`)."""

    def plays(self, state: bytes, rules: int, d1: int, d2: int, /) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
        """Each legal play's resulting state and its moves, in the order found."""

    def count(self, state: bytes, rules: int, d1: int, d2: int, /) -> int:
        """How many legal plays."""

    def steps(self, state: bytes, rules: int, die: int, /) -> tuple[tuple[bytes, bytes], ...]:
        """Each legal single move of one die: the new state and the move."""

    def gather(self, state: bytes, tables: tuple[tuple[Any, ...], ...], order: bytes, /) -> tuple[Any, ...]:
        """tables[k][state[order[k]]] for each k."""

    def walk(self, root: bytes, rules: int, most: int, /) -> pure.Walked:
        """Every single move of the dice left, `most` deep, from a state then its dice."""

    def index(self, root: bytes, rules: int, most: int, results: tuple[State, ...],
              tables: tuple[tuple[Any, ...], ...], order: bytes, hits: pure.Hits | None, /) -> pure.Index:
        """The results and the boards on the way to them, by what the sensors tell of them."""

    def turn(self, state: bytes, rules: int, d1: int, d2: int, tables: tuple[tuple[Any, ...], ...], order: bytes,
             hits: pure.Hits | None, /) -> Turn:
        """`plays`, then `index` of their results from the state with the roll's dice, at once."""


def _load_compiled() -> tuple[Kernel | None, str]:
    """The compiled kernel, configured with the pure kernel's tables; or None and why not."""
    try:
        compiled = importlib.import_module("game.movegen._kernel")
    except ImportError as exc:
        return None, f"the compiled kernel is not built ({exc})"
    missing = [name for name in ("encode_document", "walk", "index") if not hasattr(compiled, name)]
    if missing:  # a build older than _kernel.c: taken as it is, it would fail where it is used
        return None, (f"the compiled kernel was built from an older _kernel.c (it has no {', '.join(missing)}): "
                      "build it again (pip install -e .)")
    compiled.configure(*pure.configure_args())
    return cast(Kernel, compiled), ""


_KERNELS: dict[str, Kernel] = {"pure": pure}
_compiled, _why_not_compiled = _load_compiled()
if _compiled is not None:
    _KERNELS["compiled"] = _compiled


class _Refused:
    """Stands in for the kernel the environment asks for when it cannot be had: every use raises
    `KernelError`, so a bad setting is one error where plays are listed, never a failed import."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def encode(self, position: Position, /) -> bytes:
        raise KernelError(self.reason)

    def encode_document(self, doc: object, /) -> bytes | None:
        raise KernelError(self.reason)

    def plays(self, state: bytes, rules: int, d1: int, d2: int, /) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
        raise KernelError(self.reason)

    def count(self, state: bytes, rules: int, d1: int, d2: int, /) -> int:
        raise KernelError(self.reason)

    def steps(self, state: bytes, rules: int, die: int, /) -> tuple[tuple[bytes, bytes], ...]:
        raise KernelError(self.reason)

    def gather(self, state: bytes, tables: tuple[tuple[Any, ...], ...], order: bytes, /) -> tuple[Any, ...]:
        raise KernelError(self.reason)

    def walk(self, root: bytes, rules: int, most: int, /) -> pure.Walked:
        raise KernelError(self.reason)

    def index(self, root: bytes, rules: int, most: int, results: tuple[State, ...],
              tables: tuple[tuple[Any, ...], ...], order: bytes, hits: pure.Hits | None, /) -> pure.Index:
        raise KernelError(self.reason)

    def turn(self, state: bytes, rules: int, d1: int, d2: int, tables: tuple[tuple[Any, ...], ...], order: bytes,
             hits: pure.Hits | None, /) -> Turn:
        raise KernelError(self.reason)


def _chosen() -> tuple[str, Kernel, str]:
    """The kernel the environment asks for: its name, itself, and a word on why when it is not
    the compiled one."""
    setting = os.environ.get(ENV, "")
    wanted = setting.strip().lower() or "auto"
    if wanted not in ("auto", "pure", "compiled"):
        reason = f"{ENV}={setting!r}: expected pure, compiled or auto"
        return "refused", _Refused(reason), reason
    if wanted == "pure":
        return "pure", pure, f"{ENV}=pure"
    if _compiled is not None:
        return "compiled", _compiled, ""
    if wanted == "compiled":
        reason = f"{ENV}=compiled, but {_why_not_compiled}"
        return "refused", _Refused(reason), reason
    return "pure", pure, _why_not_compiled


_name, _active, _why = _chosen()


def kernel() -> str:
    """The kernel in use: "compiled", "pure", or "refused" when SMARTGAMMON_KERNEL asks for
    one that cannot be had (every use then raises `KernelError`)."""
    return _name


def available_kernels() -> tuple[str, ...]:
    """The kernels this installation has: "pure", and "compiled" where it was built."""
    return tuple(_KERNELS)


def describe_kernel() -> str:
    """The kernel in use in a few words, and why when it is not the compiled one."""
    if _name == "compiled":
        return "compiled kernel (game/movegen/_kernel.c)"
    if _name == "pure":
        return f"pure-Python kernel ({_why})"
    return f"no kernel: {_why}"


@contextmanager
def use_kernel(name: str) -> Iterator[None]:
    """Lists plays with kernel `name` ("pure" or "compiled") inside the block, then as before."""
    global _active, _name, _why
    if name not in _KERNELS:
        raise KernelError(f"no {name!r} kernel here (have {', '.join(_KERNELS)}; {_why_not_compiled or 'built'})")
    saved = _active, _name, _why
    _active, _name, _why = _KERNELS[name], name, f"use_kernel({name!r})"
    try:
        yield
    finally:
        _active, _name, _why = saved


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """The two faces of a roll, refused unless both are whole numbers from 1 to 6."""
    if len(dice) == 2:
        a, b = dice
        if type(a) is int and type(b) is int and 1 <= a <= 6 and 1 <= b <= 6:
            return a, b
    if len(dice) != 2 or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
        raise DiceError(f"dice must be two faces from 1 to 6, got {list(dice)!r}")
    return dice[0], dice[1]


# -- positions and plays ------------------------------------------------------------

def legal_plays(position: Position, dice: Sequence[int]) -> LegalPlays:
    """Every legal play, one per distinct resulting position (empty when none), built when looked at."""
    a, b = check_dice(dice)
    states, raw = _active.plays(_active.encode(position), kernel_rules(position.variant, position.rules), a, b)
    return LegalPlays(position, (a, b), states, raw, _active.gather)


def count_plays(position: Position, dice: Sequence[int]) -> int:
    """The number of legal plays, without building their positions."""
    a, b = check_dice(dice)
    return _active.count(_active.encode(position), kernel_rules(position.variant, position.rules), a, b)


def single_moves(position: Position, die: int) -> tuple[Play, ...]:
    """Each way one checker can move by `die`, judged alone (not as part of a whole play)."""
    check_dice([die, die])
    to_position = decoder(position)
    rules = kernel_rules(position.variant, position.rules)
    return tuple(Play((MOVES[move],), to_position(state))
                 for state, move in _active.steps(encode(position), rules, die))


Walk = tuple[State, Callable[..., list[tuple[State, Move]]], Callable[[State], Position]]


def single_move_walk(position: Position) -> Walk:
    """For walking many single moves fast: the position as a state, a function listing each legal
    single move of a die from a state (the new state and the Move; `moves(state, die, source)`
    only those from own point `source`), and one turning a state back into a position."""
    rules = kernel_rules(position.variant, position.rules)
    steps = _active.steps

    def moves(state: State, die: int, source: int = 0) -> list[tuple[State, Move]]:
        # a list, not a generator: a transcript's plays walk tens of thousands of these, a few moves each
        if source:
            return [(new, MOVES[raw]) for new, raw in steps(state, rules, die) if raw[0] == source]
        return [(new, MOVES[raw]) for new, raw in steps(state, rules, die)]

    return encode(position), moves, decoder(position)


def complete_play(position: Position, dice: Sequence[int],
                  moves: Sequence[Move]) -> tuple[State, tuple[Move, ...]] | None:
    """The state `moves` produce, and the moves with their hits, when they are legal single moves, one
    die each, using every die of the roll (and, in Rungammon, breaking no prime rule): such a play is
    legal without a search. None when they are not, or leave a die unused (only the full search can
    tell then). A move that ends the game at once (the mother checker) before the last ends the
    play there: only the full search tells what is legal then."""
    a, b = check_dice(dice)
    left = [a] * 4 if a == b else [a, b]
    if len(moves) != len(left):
        return None
    rules = kernel_rules(position.variant, position.rules)
    ends = pure.mother_trapped if position.rules.mother_checker else None
    state = encode(position)
    made: list[Move] = []
    for move in moves:
        for die in sorted(set(left), key=lambda d: d != move.source - move.target):  # the exact die first
            found = next(((new, raw) for new, raw in _active.steps(state, rules, die)
                          if raw[0] == move.source and raw[1] == move.target), None)
            if found is not None and ends is not None and ends(*found) and len(made) + 1 < len(moves):
                return None
            if found is not None:
                state = found[0]
                made.append(MOVES[found[1]])
                left.remove(die)
                break
        else:
            return None
    return (state, tuple(made)) if play_allowed(position.variant, state) else None


def play_allowed(variant: Variant, state: State) -> bool:
    """Whether a state that used every die is a legal play's result (the Rungammon prime rules)."""
    return variant is not Variant.RUNGAMMON or pure.prime_allowed(state)


def legal_states(position: Position, dice: Sequence[int]) -> dict[State, tuple[Move, ...]]:
    """The legal plays as the states they produce (see `encode`) and their moves, without building
    positions: for checking a play's result fast. `encode(play.after_moves)` is a play's state."""
    a, b = check_dice(dice)
    states, raw = _active.plays(_active.encode(position), kernel_rules(position.variant, position.rules), a, b)
    return dict(zip(states, map(moves_of, raw), strict=True))


def encode(position: Position) -> State:
    """The position as a state, from the side of the player on roll."""
    return _active.encode(position)


def encode_document(doc: object) -> State | None:
    """A position document (JSON, decoded) as a state, without building its `Position`, when it is
    in its usual form: a Backgammon position under the standard rules, each stack a list of one
    colour, `bar` and `off` as {"white": n, "black": n} or left out. None for any other document,
    which `Position.from_document` reads (or refuses, saying why). A batch of documents
    (`python -m game plays --batch --moves`) spent more on building positions than on their plays."""
    return _active.encode_document(doc)


def decoder(template: Position) -> Callable[[State], Position]:
    """Turns states into positions with the template's variant and turn (set up once per roll)."""
    return _state.decoder(template, _active.gather)


def decode(state: State, template: Position) -> Position:
    """The position a state stands for, with the template's variant and turn."""
    return _state.decoder(template, _active.gather)(state)


def kernel_gather() -> _state.Gather:
    """The kernel in use's `gather(state, tables, order)`: tables[k][state[order[k]]] for each
    k, for turning many states into what they stand for (`game.zones.state_views`)."""
    return _active.gather


# -- states, for searching without objects ----------------------------------------------

def state_plays(state: State, variant: Variant, dice: Sequence[int], rules: RuleOptions = STANDARD
                ) -> tuple[tuple[State, ...], tuple[bytes, ...]]:
    """Each legal play from `state` (the mover on roll) under `rules`: its resulting state (the
    mover still on roll; `opponent_view` turns it) and its moves, 3 bytes a move (`moves_of`
    makes them `Move`s). In the order `legal_plays` lists them."""
    a, b = check_dice(dice)
    return _active.plays(state, kernel_rules(variant, rules), a, b)


def state_count(state: State, variant: Variant, dice: Sequence[int], rules: RuleOptions = STANDARD) -> int:
    """How many legal plays from `state`."""
    a, b = check_dice(dice)
    return _active.count(state, kernel_rules(variant, rules), a, b)


def kernel_walk() -> Callable[[bytes, int, int], pure.Walked]:
    """The kernel in use's `walk(root, rules, most)`: every single move of the dice left from a
    state then its dice (`game.reconcile.boards_on_the_way`'s boards on the way)."""
    return _active.walk


def kernel_index() -> Callable[[bytes, int, int, tuple[State, ...], tuple[tuple[Any, ...], ...], bytes,
                                 pure.Hits | None], pure.Index]:
    """The kernel in use's `index(root, rules, most, results, tables, order, hits)`: the legal
    plays' results and the boards on the way to them by what the sensors tell of them, at once
    (`game.movegen.pure.index` says what it gives; `legal_plays_indexed` gives it with the plays
    themselves, from one walk, as `game.reconcile.boards_on_the_way` uses it)."""
    return _active.index


def legal_plays_indexed(position: Position, dice: tuple[int, int], tables: tuple[tuple[Any, ...], ...], order: bytes,
                        hits: pure.Hits | None) -> tuple[LegalPlays, pure.Index]:
    """`legal_plays`, and the kernel's `index` of their results and the boards on the way to them
    (what `kernel_index` gives from the position's state with the dice, larger first, each of a
    double), in one call: the compiled kernel finds both by one walk of the roll's single moves
    (`game.reconcile.boards_on_the_way`, at every roll)."""
    a, b = check_dice(dice)
    turn = getattr(_active, "turn", pure.turn)  # a build older than turn(): the pure kernel's, the same
    states, raw, legal, partial = turn(_active.encode(position), kernel_rules(position.variant, position.rules),
                                       a, b, tables, order, hits)
    return LegalPlays(position, (a, b), states, raw, _active.gather), (legal, partial)


Relaxed = Callable[[tuple[str, ...], tuple[int, ...], int, str, str, tuple[int, ...], int,
                    Callable[[tuple[str, ...], int], bool] | None], dict[Any, Any]]
"""The compiled relaxed search: `relaxed(start, dice, variant, me, them, at, their_bar, admit)`."""


def kernel_relaxed() -> Relaxed | None:
    """The compiled kernel's relaxed search of a hand's single moves on physical boards
    (`game.explain.Explainer`'s, the same dict in the same order), or None where the pure kernel is
    in use: the Explainer then searches in Python."""
    relaxed: Relaxed | None = getattr(_active, "relaxed", None)
    return relaxed


def kernel_steps() -> Callable[[State, int, int], tuple[tuple[State, bytes], ...]]:
    """The kernel in use's `steps(state, rules, die)` (`rules`: `game.movegen.state.kernel_rules`),
    for a walk of thousands of single moves (`state_steps` without the look-up on each call)."""
    return _active.steps


def state_steps(state: State, variant: Variant, die: int) -> tuple[tuple[State, bytes], ...]:
    """Each legal single move of `die` from `state`, judged alone: the new state and the raw
    move (`MOVES[raw]` is its `Move`)."""
    return _active.steps(state, kernel_rules(variant, STANDARD), die)
