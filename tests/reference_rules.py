"""A slow, independent statement of the rules, for differential tests of game.movegen.

It works on board points and stacks directly, one checker at a time, and tries every
order of the dice with no deduplication along the way: simple enough to check by eye
against the issue text.
"""

from __future__ import annotations

from itertools import permutations

from game.board import OWN_TO_BOARD, Color, Variant
from game.position import Position

Board = tuple[list[str], list[int], list[int]]  # stacks, bar, off


def _free_top(stack: str, char: str) -> bool:
    return bool(stack) and stack[-1] == char


def _landing(v: Variant, stack: str, c: str, o: str) -> str | None:
    """The new stack where a checker of `c` lands on `stack`, or None if it may not land there."""
    theirs = stack.count(o)
    if v is Variant.RUNGAMMON:
        return None if theirs else stack + c
    if v is Variant.BACKGAMMON:
        return None if theirs >= 2 else ("" if theirs else stack) + c
    if not stack or stack[-1] == c:
        return stack + c
    if len(stack) == 1:
        return stack + c  # trap the lone checker
    return None  # two or more of theirs, or their trapper holding mine


def _may_bear_off(mine_at: dict[int, str], stacks: list[str], on_bar: int, c: str, o: str,
                  source: int, target: int) -> bool:
    """Every checker home and free, and a larger die only from the highest point."""
    outside = [p for p in range(7, 25) if c in mine_at[p]] or on_bar
    trapped = any(s[:1] == c and s[-1:] == o for s in stacks)
    higher = any(c in mine_at[p] for p in range(source + 1, 7))
    return not (outside or trapped or (target < 0 and higher))


def _single_moves(pos: Position, stacks: list[str], bar: list[int], off: list[int],
                  die: int) -> list[Board]:
    v, me = pos.variant, pos.turn
    c, o = me.char, me.opponent.char
    to_board = OWN_TO_BOARD[v, me]
    results: list[Board] = []
    mine_at = {p: stacks[to_board[p] - 1] for p in range(1, 25)}
    sources = [25] if v is Variant.BACKGAMMON and bar[me.index] else range(24, 0, -1)
    for source in sources:
        if source != 25 and not _free_top(mine_at[source], c):
            continue
        if v is Variant.RUNGAMMON and source == 24:
            left = sum(s.count(c) for p, s in mine_at.items() if p != 24)
            passed = off[me.index] > 0 or any(c in mine_at[p] for p in range(1, 12))
            if left and not passed:
                continue
        target = source - die
        new_stacks, new_bar, new_off = list(stacks), list(bar), list(off)
        if source == 25:
            new_bar[me.index] -= 1
        else:
            new_stacks[to_board[source] - 1] = mine_at[source][:-1]
        if target >= 1:
            landed = _landing(v, mine_at[target], c, o)
            if landed is None:
                continue
            if v is Variant.BACKGAMMON and o in mine_at[target]:
                new_bar[me.opponent.index] += 1
            new_stacks[to_board[target] - 1] = landed
        else:
            if not _may_bear_off(mine_at, stacks, bar[me.index], c, o, source, target):
                continue
            new_off[me.index] += 1
        results.append((new_stacks, new_bar, new_off))
    return results


def _prime_ok(pos: Position, stacks: list[str], off: list[int]) -> bool:
    me, them = pos.turn, pos.turn.opponent
    mine = OWN_TO_BOARD[Variant.RUNGAMMON, me]
    theirs = OWN_TO_BOARD[Variant.RUNGAMMON, them]
    if all(me.char in stacks[mine[p] - 1] for p in range(19, 25)):
        return False
    held = [False] + [me.char in stacks[theirs[q] - 1] for q in range(1, 25)]
    at = [False] + [them.char in stacks[theirs[q] - 1] for q in range(1, 25)]
    for low in range(1, 20):
        if all(held[low:low + 6]):
            behind = any(at[low + 6:])
            ahead = off[them.index] > 0 or any(at[1:low])
            if behind and not ahead:
                return False
    return True


def reference_results(pos: Position, dice: tuple[int, int]) -> set[Position]:
    """The set of positions the legal plays produce (empty when no checker can move)."""
    a, b = dice
    orders = [(a, a, a, a)] if a == b else list(set(permutations((a, b))))
    by_used: dict[int, set[tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]]] = {}

    def walk(stacks: list[str], bar: list[int], off: list[int], rest: tuple[int, ...],
             used: tuple[int, ...]) -> None:
        if used:
            by_used.setdefault(len(used), set()).add((tuple(stacks), tuple(bar), tuple(off), used))
        if not rest:
            return
        for nxt in _single_moves(pos, stacks, bar, off, rest[0]):
            walk(*nxt, rest[1:], used + (rest[0],))

    for order in orders:
        walk(list(pos.points), list(pos.bar), list(pos.off), order, ())

    def allowed(item: tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]) -> bool:
        return pos.variant is not Variant.RUNGAMMON or _prime_ok(pos, list(item[0]), list(item[2]))

    for count in sorted(by_used, reverse=True):
        items = [i for i in by_used[count] if allowed(i)]
        if count == 1 and a != b:
            larger = [i for i in items if i[3][0] == max(a, b)]
            items = larger or items
        if items:
            return {Position(pos.variant, pos.turn, s, (bar[0], bar[1]), (off[0], off[1]))
                    for s, bar, off, _ in items}
    return set()


__all__ = ["reference_results", "Color"]
