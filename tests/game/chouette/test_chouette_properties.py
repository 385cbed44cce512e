"""Properties of random chouette sessions: every action the session offers, taken at random.

A walker calls, at each step, one of the methods `awaiting()` lists, with random arguments among
those it names: throws, joins, leaves, partners, doubles, takes, passes, beavers, takebacks and
plays. Whatever the choices: everything adds up to zero, rotation keeps every player once in the
line, a member out of a game never acts in it again, and the record replays to the same events.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from fractions import Fraction
from itertools import count
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from needs import examples

from game.board import Variant
from game.chouette import ChouetteOptions, ChouetteSession, Phase
from game.chouette.awaiting import Awaiting
from game.chouette.replay import replay_session
from game.chouette.sim import simulate

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
SETTINGS = settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def walk(session: ChouetteSession, rng: random.Random, games: int) -> ChouetteSession:
    """Random legal actions, only among those `awaiting()` offers, until `games` games are played."""
    guests = iter(f"Guest{n}" for n in count(1))
    for _ in range(100_000):
        wait = session.awaiting()
        if session.is_over:
            return session
        actions = list(wait.actions)
        if len(session.games) >= games and "stop" in actions:
            session.stop()
            continue
        action = rng.choice(_offered(session, actions))
        _act(session, "play" if action == "accept_illegal_play" else action, wait, rng, guests)
    raise AssertionError("the walk did not end")


def _offered(session: ChouetteSession, actions: list[str]) -> list[str]:
    """The actions a walk may take: never stopping early, at most nine players and at least three."""
    refused = {"stop"} | ({"join"} if len(session.players) >= 9 else set()) | (
        {"leave"} if len(session.players) <= 3 else set())
    return [action for action in actions if action not in refused]


def _act(session: ChouetteSession, action: str, wait: Awaiting, rng: random.Random, guests: Iterator[str]) -> None:
    """Take `action` with random arguments among those `wait` allows."""
    if action == "throw":
        session.throw(rng.choice(wait.throwers), rng.randint(1, 6))
    elif action in ("opening_roll", "roll"):
        getattr(session, action)(rng.randint(1, 6), rng.randint(1, 6))
    elif action == "play":
        plays = session.legal_plays()
        session.play(rng.choice(plays) if plays else [])
    elif action in ("double", "box_double"):
        getattr(session, action)(rng.choice(wait.doublers))
    elif action == "join":
        session.join(next(guests))
    elif action == "leave":
        session.leave(rng.choice(session.players))
    elif action == "take_partner":
        session.take_partner(rng.choice(session.roster.line[1:]))
    elif action == "takeback":
        session.takeback()
    else:  # an answer about the cube awaiting() names
        assert wait.member is not None
        getattr(session, action)(wait.member)


@st.composite
def sessions(draw: st.DrawFn) -> ChouetteSession:
    """A random session: three to seven players, any variant, any options, walked or simulated."""
    players = NAMES[:draw(st.integers(3, 7))]
    variant = draw(st.sampled_from(Variant))
    team_cube = draw(st.booleans())
    options = ChouetteOptions(team_cube=team_cube, jacoby=draw(st.booleans()), beavers=draw(st.booleans()),
                              automatic_doubles=draw(st.booleans()),
                              box_takes_half=not team_cube and draw(st.booleans()), box_partner=draw(st.booleans()))
    seed = draw(st.integers(0, 2**32 - 1))
    games = draw(st.integers(1, 3))
    if draw(st.booleans()):
        return simulate(players, games, seed, variant, options, join_rate=0.3, leave_rate=0.3, takeback_rate=0.05)
    ticks = count()
    session = ChouetteSession(players, variant, options, clock=lambda: float(next(ticks)))
    return walk(session, random.Random(seed), games)


def plain(session: ChouetteSession) -> list[dict[str, Any]]:
    return [dict(event) for event in session.events]


def _games(session: ChouetteSession) -> dict[int, list[dict[str, Any]]]:
    by_game: dict[int, list[dict[str, Any]]] = {}
    for event in plain(session):
        if "game" in event and event["type"] != "rotation":
            by_game.setdefault(int(event["game"]), []).append(event)
    return by_game


@SETTINGS
@given(sessions())
def test_the_sum_of_all_players_results_is_zero(session: ChouetteSession) -> None:
    running = dict.fromkeys(session.totals, Fraction(0))
    for game in session.games:
        assert sum(game.results.values()) == 0
        for name, points in game.results.items():
            running[name] += points
        assert game.totals == {name: running[name] for name in game.totals}  # those who came later: nothing yet
        assert all(running[name] == 0 for name in running.keys() - game.totals.keys())
        for stake in game.stakes:
            assert stake.result is not None and abs(stake.result) % stake.cube.value == 0
    assert sum(session.totals.values()) == 0 and session.totals == running


@SETTINGS
@given(sessions())
def test_rotation_keeps_every_player_in_the_line_exactly_once(session: ChouetteSession) -> None:
    events = plain(session)
    seated = set(events[0]["players"])
    checked = 0
    for event in events:
        kind = event["type"]
        if kind == "join":
            seated.add(event["player"])
        elif kind == "leave":
            seated.discard(event["player"])
        elif kind in ("seating", "game_start", "line", "rotation"):
            box, line = event["box"], list(event["line"])
            assert box not in line and len(set(line)) == len(line)
            assert {box, *line} == seated, event
            if kind != "seating":
                assert event["captain"] == line[0]
            if kind == "line" and event["partner"] is not None:
                assert event["partner"] in line[1:]
            checked += 1
    assert checked >= 2 * len(session.games)


@SETTINGS
@given(sessions())
def test_a_member_out_of_the_game_never_acts_again_in_it(session: ChouetteSession) -> None:
    for events in _games(session).values():
        out: set[str] = set()
        for event in events:
            kind = event["type"]
            if kind in ("roll", "play", "takeback", "double", "take", "pass", "beaver"):
                assert event["player"] not in out, event
            if kind in ("double", "take", "pass", "beaver"):
                assert event["member"] not in out, event
            if kind == "captain":
                assert event["player"] not in out
            if kind == "settle":
                out.add(event["member"])


@SETTINGS
@given(sessions())
def test_the_record_replays_to_the_same_session(session: ChouetteSession) -> None:
    decoded = json.loads(json.dumps(list(session.events)))
    again = replay_session(decoded)
    assert list(again.events) == decoded
    assert again.totals == session.totals and again.phase is Phase.OVER is session.phase
