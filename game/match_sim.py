"""Random matches: every action the rules allow, chosen by a seeded rng (tests, benchmarks)."""

from __future__ import annotations

import random
from itertools import count

from game.board import Variant
from game.match import NO_OPTIONS, Match, MatchOptions, Phase
from game.position import ResultKind


def random_match(variant: Variant = Variant.BACKGAMMON, length: int | None = 5,
                 options: MatchOptions = NO_OPTIONS, rng: random.Random | None = None,
                 cube_rate: float = 0.05, resign_rate: float = 0.003, money_games: int = 4) -> Match:
    """Play a whole match (or `money_games` games of a money session) with random legal actions.

    Now and then the player on roll doubles (`cube_rate`), a player resigns
    (`resign_rate`); answers to offers are random. Timestamps count 0, 1, 2, ...
    """
    rng = rng or random.Random(0)
    ticks = count()
    match = Match(variant, length, options, ("Wendy", "Boris"), clock=lambda: float(next(ticks)))
    while not match.is_over:
        if length is None and match.phase is Phase.OPENING and len(match.games) >= money_games:
            match.stop()
            break
        step(match, rng, cube_rate, resign_rate)
    return match


def step(match: Match, rng: random.Random, cube_rate: float, resign_rate: float) -> None:
    """One random legal action."""
    phase = match.phase
    if phase is Phase.OPENING:
        match.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
    elif phase in (Phase.ROLL, Phase.MOVE) and rng.random() < resign_rate:
        player = rng.choice([match.on_roll, match.on_roll.opponent]) if match.on_roll else None
        assert player is not None
        match.resign(player, rng.choice(list(ResultKind)))
    elif phase is Phase.ROLL:
        player = match.on_roll
        assert player is not None
        if rng.random() < cube_rate and match.may_double(player):
            match.double(player)
        else:
            match.roll(rng.randint(1, 6), rng.randint(1, 6))
    elif phase is Phase.MOVE:
        plays = match.legal_plays()
        match.play(rng.choice(plays) if plays else [])
    elif phase is Phase.DOUBLED:
        player = match.expected
        assert player is not None
        top = match.cube.max_value
        if match.options.beavers and (top is None or 4 * match.cube.value <= top) and rng.random() < 0.2:
            match.beaver(player)
            return
        (match.take if rng.random() < 0.7 else match.pass_)(player)
    elif phase is Phase.BEAVERED:
        player = match.expected
        assert player is not None
        (match.take if rng.random() < 0.7 else match.pass_)(player)
    elif phase is Phase.RESIGNED:
        player = match.expected
        assert player is not None
        (match.accept_resignation if rng.random() < 0.5 else match.decline_resignation)(player)
