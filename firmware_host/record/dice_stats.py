"""Dice statistics a referee can show when players ask whether the dice are fair.

Counts faces and doubles, and tests them with Pearson's chi-square: faces against 1/6 each
(5 degrees of freedom) and doubles against 1/6 of rolls (1 degree of freedom). A p-value
below `UNUSUAL` (0.01) means dice this uneven turn up in fewer than 1 % of sessions with fair dice.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

UNUSUAL = 0.01
"""The p-value below which either test calls the dice unusual."""


def chi2_survival(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable with `dof` degrees of freedom (exact for integers)."""
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        term = total = math.exp(-half)
        for k in range(1, dof // 2):
            term *= half / k
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(half))
    term = math.exp(-half) / math.sqrt(math.pi * half)
    for k in range(1, (dof + 1) // 2):
        term *= half / (k - 0.5)
        total += term
    return min(1.0, total)


@dataclass
class DiceStats:
    """Faces and doubles counted over a match or session, with the chi-square tests of fairness."""

    faces: list[int] = field(default_factory=lambda: [0] * 6)
    rolls: int = 0
    doubles: int = 0

    @classmethod
    def of_events(cls, events: Iterable[Mapping[str, Any]]) -> DiceStats:
        """The dice of a record (a match's or a chouette's): see `count`."""
        stats = cls()
        for event in events:
            stats.count(event)
        return stats

    def count(self, event: Mapping[str, Any]) -> None:
        """The dice of one record event: a roll; an opening roll's two dice (one a player: faces,
        not a roll; a chouette's are the captain's and the box's); a chouette's throw for the order."""
        kind = event.get("type")
        if kind == "roll":
            self.record(event["dice"])
        elif kind == "opening_roll":
            for side in ("white", "black") if "white" in event else ("team", "box"):
                self.record([event[side]])
        elif kind == "seat_throw":
            self.record([event["die"]])

    def record(self, dice: Iterable[int]) -> None:
        """Count one roll (two dice), or one die of an opening roll."""
        values = list(dice)
        for face in values:
            self.faces[face - 1] += 1
        if len(values) == 2:
            self.rolls += 1
            self.doubles += values[0] == values[1]

    def merge(self, other: DiceStats) -> DiceStats:
        """The counts of both together (a session of several matches)."""
        return DiceStats([a + b for a, b in zip(self.faces, other.faces, strict=True)],
                         self.rolls + other.rolls, self.doubles + other.doubles)

    def faces_chi2(self) -> tuple[float, float]:
        """(statistic, p-value) of the faces against a fair die."""
        n = sum(self.faces)
        if n == 0:
            return 0.0, 1.0
        expected = n / 6
        stat = sum((f - expected) ** 2 / expected for f in self.faces)
        return stat, chi2_survival(stat, 5)

    def doubles_chi2(self) -> tuple[float, float]:
        """Pearson's chi-square of the doubles against 1/6 of rolls, and its p-value."""
        if self.rolls == 0:
            return 0.0, 1.0
        expected = [self.rolls / 6, self.rolls * 5 / 6]
        seen = [self.doubles, self.rolls - self.doubles]
        stat = sum((s - e) ** 2 / e for s, e in zip(seen, expected, strict=True))
        return stat, chi2_survival(stat, 1)

    def summary(self) -> dict[str, Any]:
        """The counts and tests as the journal's `dice_stats` event records them."""
        faces_stat, faces_p = self.faces_chi2()
        doubles_stat, doubles_p = self.doubles_chi2()
        return {"rolls": self.rolls, "faces": list(self.faces), "doubles": self.doubles,
                "faces_chi2": round(faces_stat, 3), "faces_p": round(faces_p, 4),
                "doubles_chi2": round(doubles_stat, 3), "doubles_p": round(doubles_p, 4)}

    def describe(self) -> str:
        """One line for a person: counts, the doubles expected of fair dice, tests, and whether the
        dice look fair (each test against `UNUSUAL`, said in the line)."""
        s = self.summary()
        fair = min(s["faces_p"], s["doubles_p"]) >= UNUSUAL
        verdict = (f"looks fair (both p >= {UNUSUAL})" if fair
                   else f"is unusual (p < {UNUSUAL}: fair dice do this less than once in {round(1 / UNUSUAL)})")
        return (f"{s['rolls']} rolls, faces {s['faces']}, {s['doubles']} doubles ({s['rolls'] / 6:.1f} expected, "
                f"1 in 6); faces chi2 {s['faces_chi2']} (p={s['faces_p']}), doubles chi2 {s['doubles_chi2']} "
                f"(p={s['doubles_p']}): {verdict}")
