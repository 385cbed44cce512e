"""A bot in a chouette (game/bot/chouette.py): the box or a member, each cube its own money game in
the chouette's rules; whole simulated sessions with bots seated."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import count

import pytest
from bot_fixtures import shipped

from game.board import Variant
from game.bot.base import Level
from game.bot.chouette import LARGEST_CUBE, ChouetteBot
from game.bot.context import MatchContext
from game.chouette import ChouetteOptions, ChouetteSession, Phase, Side
from game.chouette.replay import replay_session
from game.chouette.sim import SimulatedChouette
from game.chouette.state import SessionState
from game.cube import Cube
from game.match import MatchOptions


class Recorded(ChouetteBot):
    """A bot seat that keeps what it was asked and what it said."""

    def __init__(self, name: str, variant: Variant) -> None:
        super().__init__(shipped(variant, Level.ADVANCED))
        self.name = name
        self.answers: list[tuple[str, str, MatchContext, Sequence[str]]] = []
        self.roles: set[str] = set()

    def answer(self, session: SessionState, side: Side, member: str, verbs: Sequence[str]) -> str:
        self.roles.add("box" if side is Side.BOX else "team")
        verb = super().answer(session, side, member, verbs)
        self.answers.append((member, verb, self.context(session, member), tuple(verbs)))
        return verb

    def doubles(self, session: SessionState, side: Side, member: str) -> bool:
        self.roles.add("box" if side is Side.BOX else "team")
        return super().doubles(session, side, member)


def run(options: ChouetteOptions, seed: int, games: int) -> tuple[ChouetteSession, list[Recorded]]:
    ticks = count()
    players = ["Ann", "Bot1", "Bot2", "Dee"]
    session = ChouetteSession(players, Variant.RUNGAMMON, options, clock=lambda: float(next(ticks)))
    bots = [Recorded("Bot1", Variant.RUNGAMMON), Recorded("Bot2", Variant.RUNGAMMON)]
    SimulatedChouette(session, random.Random(seed), games, seated={b.name: b for b in bots}).run()
    return session, bots


@pytest.mark.parametrize("options", [ChouetteOptions(), ChouetteOptions(team_cube=True),
                                     ChouetteOptions(jacoby=True, beavers=True, box_takes_half=True)],
                         ids=["own cubes", "team cube", "house rules"])
@pytest.mark.slow
def test_sessions_with_bots_seated_are_played_to_their_end_and_replay(options: ChouetteOptions) -> None:
    session, bots = run(options, seed=5, games=4)
    assert session.is_over and session.phase is Phase.OVER and len(session.games) >= 4
    assert sum(session.totals.values()) == Fraction(0)
    decoded = json.loads(json.dumps(list(session.events)))
    again = replay_session(decoded)  # every action the bots took is one the rules allow
    assert again.totals == session.totals
    for bot in bots:
        for _member, verb, context, verbs in bot.answers:
            assert verb in verbs  # a house rule's refusal obeyed
            assert context.cube.offered and context.money  # asked about that member's cube, a double pending
            assert context.options == MatchOptions(jacoby=options.jacoby, beavers=options.beavers)


@pytest.mark.slow
def test_the_bots_take_both_roles_as_the_box_rotates() -> None:
    _, bots = run(ChouetteOptions(), seed=2, games=8)
    assert set().union(*(bot.roles for bot in bots)) == {"box", "team"}
    assert any(bot.answers for bot in bots)


def test_a_cube_beyond_the_engines_range_is_decided_as_the_largest_it_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beavers and redoubles can run a chouette's cube to 2^17, past what GNU Backgammon's match ID
    holds (2^15): a money cube's decision does not depend on its value, so the bot decides it as
    `LARGEST_CUBE` instead of failing."""
    session = ChouetteSession(["Ann", "Bob", "Cy"], Variant.BACKGAMMON, clock=lambda: 0.0)
    for player, die in (("Ann", 6), ("Bob", 4), ("Cy", 2)):
        session.throw(player, die)
    session.opening_roll(6, 1)
    session.play(session.legal_plays()[0])
    member = session.team[-1]
    bot = ChouetteBot(shipped(Variant.BACKGAMMON, Level.EXPERT))
    owned = Cube(2**17, Side.BOX.color)
    monkeypatch.setattr(session, "cube", lambda name: owned)
    assert bot.context(session, member).cube == Cube(LARGEST_CUBE, Side.BOX.color)
    decided = bot.doubles(session, Side.BOX, member)  # raised NotationError before: "cube = 17 does not fit"
    monkeypatch.setattr(session, "cube", lambda name: Cube(LARGEST_CUBE, Side.BOX.color))
    assert decided is bot.doubles(session, Side.BOX, member)
