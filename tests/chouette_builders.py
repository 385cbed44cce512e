"""Helpers for the chouette tests: a session seated in a chosen order, turns brought about quickly."""

from __future__ import annotations

import random
from itertools import count

from game.board import Variant
from game.chouette import ChouetteOptions, ChouetteSession, Phase
from game.position import Position


def new_session(*names: str, variant: Variant = Variant.BACKGAMMON, **options: bool) -> ChouetteSession:
    """A session not yet seated, time-stamped 0, 1, 2, ..."""
    ticks = count()
    return ChouetteSession(names, variant, ChouetteOptions(**options), clock=lambda: float(next(ticks)))


def seat_in_order(session: ChouetteSession) -> None:
    """Throw so that the players end up box, captain, ... in the order they were given."""
    while session.phase is Phase.SEATING:
        for index, player in enumerate(session.seating.pending):
            session.throw(player, max(1, 6 - index))


def seated(*names: str, variant: Variant = Variant.BACKGAMMON, **options: bool) -> ChouetteSession:
    """A session with `names[0]` the box, `names[1]` the captain, the rest in line, at game 1."""
    session = new_session(*names, variant=variant, **options)
    seat_in_order(session)
    return session


def team_on_roll(session: ChouetteSession) -> None:
    """The box wins the opening roll (2 against 1) and plays; the team is to roll."""
    session.opening_roll(1, 2)
    session.play(session.legal_plays()[0])


def box_on_roll(session: ChouetteSession) -> None:
    """The team wins the opening roll (2 against 1) and plays; the box is to roll."""
    session.opening_roll(2, 1)
    session.play(session.legal_plays()[0])


def roll_and_play(session: ChouetteSession, rng: random.Random) -> None:
    """The side on roll rolls and plays a random legal play."""
    session.roll(rng.randint(1, 6), rng.randint(1, 6))
    if session.phase is Phase.MOVE:
        plays = session.legal_plays()
        session.play(rng.choice(plays) if plays else [])


def play_out(session: ChouetteSession, rng: random.Random) -> Position:
    """Roll and play at random, no cube action, until the game ends; the final position."""
    game = session.game_number
    while session.game_number == game:
        assert session.phase in (Phase.ROLL, Phase.MOVE), session.awaiting().describe()
        if session.phase is Phase.ROLL:
            session.roll(rng.randint(1, 6), rng.randint(1, 6))
        plays = session.legal_plays()
        session.play(rng.choice(plays) if plays else [])
    last = next(e for e in reversed(session.events) if e["type"] == "play")
    return Position.from_document(last["position"])
