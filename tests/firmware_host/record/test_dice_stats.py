import random
from typing import Any

import pytest

from firmware_host.record.dice_stats import DiceStats, chi2_survival


@pytest.mark.parametrize(("x", "dof", "p"), [
    (11.0705, 5, 0.05), (15.0863, 5, 0.01), (3.8415, 1, 0.05), (6.6349, 1, 0.01), (9.4877, 4, 0.05),
    (0.0, 5, 1.0),
])
def test_chi2_survival_matches_the_tables(x: float, dof: int, p: float) -> None:
    assert chi2_survival(x, dof) == pytest.approx(p, abs=2e-5)


def test_counts_faces_doubles_and_merges() -> None:
    stats = DiceStats()
    for roll in [(3, 1), (6, 6), (2, 5)]:
        stats.record(roll)
    assert stats.faces == [1, 1, 1, 0, 1, 2] and stats.rolls == 3 and stats.doubles == 1
    both = stats.merge(stats)
    assert both.faces == [2, 2, 2, 0, 2, 4] and both.rolls == 6 and both.doubles == 2


def test_fair_dice_look_fair_and_loaded_dice_do_not() -> None:
    rng = random.Random(5)
    fair, loaded = DiceStats(), DiceStats()
    for _ in range(3000):
        fair.record((rng.randint(1, 6), rng.randint(1, 6)))
        loaded.record((rng.choice([1, 2, 3, 4, 5, 6, 6]), rng.randint(1, 6)))
    assert fair.faces_chi2()[1] > 0.01 and "looks fair" in fair.describe()
    assert loaded.faces_chi2()[1] < 1e-6 and "unusual" in loaded.describe()
    assert loaded.summary()["rolls"] == 3000


def test_the_doubles_test_says_what_it_expects_and_its_threshold() -> None:
    stats = DiceStats()
    for roll in [(face, face) for face in range(1, 7)] * 3 + [(1, 2), (3, 4), (5, 6)] * 14:
        stats.record(roll)
    line = stats.describe()
    assert stats.doubles_chi2()[1] < 0.01 and stats.faces_chi2()[1] > 0.01  # the doubles alone are unusual
    assert "18 doubles (10.0 expected, 1 in 6)" in line and "is unusual (p < 0.01" in line
    assert "(both p >= 0.01)" in DiceStats([1] * 6, 3, 0).describe()


def test_a_records_dice_counts_opening_dice_as_faces_only() -> None:
    events: list[dict[str, Any]] = [
        {"type": "opening_roll", "white": 3, "black": 3}, {"type": "opening_roll", "white": 5, "black": 2},
        {"type": "roll", "dice": [4, 4]}, {"type": "play"}]
    stats = DiceStats.of_events(events)
    assert stats.faces == [0, 1, 2, 2, 1, 0] and stats.rolls == 1 and stats.doubles == 1
