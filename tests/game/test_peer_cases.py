"""Test cases from other Plakoto and Fevga implementations (tests/data/peer-cases), where the
rules agree with ours.

Left out, with the reason kept next to each:
- cases whose checker counts are not 15 a side, or that a legal game cannot reach
  (our positions always hold 15 checkers a side);
- cases that check single-die moves with no roll, or state after moves applied without a
  legality check (our engine judges whole plays for a roll);
- the known rule differences of tests/data/peer-cases/README.md ("mother checker", choosing
  the smaller die, a 14-checker virtual start point).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from repo import TESTS

from game.board import CHECKERS, Color, Variant
from game.movegen import single_moves
from game.plays import Play
from game.position import Position

pytestmark = pytest.mark.usefixtures("each_kernel")  # the rules, by each kernel

# A copy of shared/peer-cases, kept with the tests so that they run in any checkout.
CASES_FILE = TESTS / "data" / "peer-cases" / "plakoto-fevga-cases.json"
VARIANTS = {"plakoto": Variant.CATCHGAMMON, "fevga": Variant.RUNGAMMON}
DIFFERENT_RULES = ("mother_checker_rule", "conflicts_with_reference_rules", "reinterpreted_homebar",
                   "opponent_homebar_dropped")
CHECKS = ("legal_moves", "illegal_moves", "legal_combined_moves", "expected_plays_count",
          "expected_plays_count_min", "illegal_plays", "legal_plays")


def _load() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(CASES_FILE.read_text())
    return cases


def _why_left_out(case: dict[str, Any]) -> str | None:
    flags = " ".join(case.get("flags", []))
    for reason in DIFFERENT_RULES:
        if reason in flags:
            return f"known rule difference: {reason}"
    if "nonstandard_checker_count" in flags or "degenerate_position" in flags:
        return "not 15 checkers a side"
    if not case.get("dice") or len(case["dice"]) != 2:
        return "no roll of two dice: single-die checks"
    if not any(key in case for key in CHECKS):
        return "checks state after moves applied without a roll"
    return None


def _position(case: dict[str, Any]) -> Position:
    variant = VARIANTS[case["variant"]]
    points = []
    trapped = {entry["point"]: entry["under"][0] for entry in case["pinned"]}
    for p in range(1, 25):
        white, black = case["white"].get(str(p), 0), case["black"].get(str(p), 0)
        under = trapped.get(p)
        if under == "w":
            points.append("w" + "b" * black)
        elif under == "b":
            points.append("b" + "w" * white)
        else:
            points.append("w" * white + "b" * black)
    off = (case["off"]["white"], case["off"]["black"])
    return Position(variant, Color(case["turn"]), tuple(points), (0, 0), off)


Step = tuple[int, int]


def _sequences(position: Position, dice: tuple[int, int], plays: Sequence[Play]) -> list[list[Step]]:
    """Every order of single moves that plays a legal play (plays keep only one order)."""
    if not plays:
        return []
    targets = {p.after_moves for p in plays}
    length = len(plays[0].moves)
    all_dice = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    found: list[list[Step]] = []

    def walk(here: Position, left: list[int], done: list[Step]) -> None:
        if len(done) == length:
            if here in targets:
                found.append(done)
            return
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for step in single_moves(here, die):
                move = step.moves[0]
                walk(step.after_moves, rest, [*done, (move.source, move.target)])

    walk(position, all_dice, [])
    return found


def _chains(sequence: list[Step]) -> set[Step]:
    """(start, end) of one checker's consecutive moves within a sequence."""
    found = set(sequence)
    for _ in sequence:
        found |= {(a, d) for a, b in found for c, d in sequence if b == c and d != a}
    return found


CASES = _load()
USED = [c for c in CASES if _why_left_out(c) is None]


def test_most_cases_are_used() -> None:
    reasons = [_why_left_out(c) for c in CASES]
    assert len(CASES) == 110
    assert len(USED) >= 50, sorted(str(r) for r in reasons if r)


@pytest.mark.parametrize("case", USED, ids=[c["source"].split(":")[-1][:80] for c in USED])
def test_peer_case(case: dict[str, Any]) -> None:
    position = _position(case)
    assert sum(s.count("w") for s in position.points) + position.off[0] == CHECKERS
    plays = position.legal_plays(tuple(case["dice"]))
    sequences = _sequences(position, tuple(case["dice"]), plays)
    steps = {step for seq in sequences for step in seq}
    first_steps = {seq[0] for seq in sequences}
    chains = {chain for seq in sequences for chain in _chains(seq)}
    where = f"{case['source']}: {position.to_json()} dice {case['dice']}; plays {[p.notation() for p in plays]}"
    for move in case.get("legal_moves", []):
        assert tuple(move) in steps, f"{move} should be playable: {where}"
    for move in case.get("illegal_moves", []):
        assert tuple(move) not in steps, f"{move} should not be playable: {where}"
    for move in case.get("legal_combined_moves", []):
        assert tuple(move) in chains, f"{move} should be playable by one checker: {where}"
    if case.get("exact_move_set") and "legal_moves" in case:
        assert first_steps == {tuple(m) for m in case["legal_moves"]}, where
    if "expected_plays_count" in case:
        assert len(plays) == case["expected_plays_count"], where
    if "expected_plays_count_min" in case:
        assert len(plays) >= case["expected_plays_count_min"], where
    as_moves = {tuple(sorted(seq)) for seq in sequences}
    for wanted in case.get("legal_plays", []):
        assert tuple(sorted(tuple(m) for m in wanted)) in as_moves, where
    for unwanted in case.get("illegal_plays", []):
        assert tuple(sorted(tuple(m) for m in unwanted)) not in as_moves, where
