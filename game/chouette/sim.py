"""A simulated chouette: seeded players who throw, move and make their own cube decisions.

Each simulated player has a `CubeStyle`, a simple rule on the race: turn the cube when the
side's lead in pips is large enough, pass when it is too far behind, beaver when a double looks
wrong. Checker plays are random legal plays. Between games players may join from a bench,
leave, and the box may take a partner. Everything follows from the seed (tests, benchmarks,
and the emulated table, which asks the same styles for its members' decisions).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import Protocol

from game.board import Variant
from game.plays import Play
from game.position import Position

from .options import ChouetteOptions, Side
from .session import ChouetteSession, Phase


def lead(position: Position, side: Side, on_roll: Side | None) -> float:
    """`side`'s race lead as a fraction of the longer race; being on roll is worth 4 pips."""
    mine, theirs = position.pip_count(side.color), position.pip_count(side.other.color)
    tempo = 0 if on_roll is None else 4 if on_roll is side else -4
    return (theirs - mine + tempo) / max(mine, theirs, 40)


@dataclass(frozen=True, slots=True)
class CubeStyle:
    """A player's cube rule on the race: double at a lead of `double_at`, take down to `-pass_at`,
    beaver a double that leaves them behind by less than `beaver_at` (it looks early)."""

    double_at: float = 0.10
    pass_at: float = 0.15
    beaver_at: float = 0.04

    @classmethod
    def drawn(cls, rng: random.Random) -> CubeStyle:
        """A style between timid and bold."""
        return cls(rng.uniform(0.08, 0.18), rng.uniform(0.12, 0.25), rng.uniform(0.0, 0.12))

    def doubles(self, position: Position, side: Side, on_roll: Side | None) -> bool:
        """Whether this player turns the cube for `side` now."""
        return lead(position, side, on_roll) >= self.double_at

    def answer(self, position: Position, side: Side, on_roll: Side | None, beavers: bool) -> str:
        """"take", "pass" or "beaver" to a double offered to `side`."""
        ahead = lead(position, side, on_roll)
        if beavers and ahead > -self.beaver_at:
            return "beaver"
        return "take" if ahead >= -self.pass_at else "pass"


class SeatedPlayer(Protocol):
    """A player who decides for themselves (a bot: `game.bot.chouette.ChouetteBot`)."""

    def doubles(self, session: ChouetteSession, side: Side, member: str) -> bool: ...

    def answer(self, session: ChouetteSession, side: Side, member: str, verbs: Sequence[str]) -> str: ...

    def play(self, session: ChouetteSession) -> Play | None: ...


@dataclass
class SimulatedChouette:
    """Plays a session one action at a time (`step`), every decision drawn from `rng` and the styles."""

    session: ChouetteSession
    rng: random.Random
    games: int  # stop between games once this many are played
    bench: list[str] = field(default_factory=list)  # players who may arrive between games
    join_rate: float = 0.0
    leave_rate: float = 0.0
    partner_rate: float = 0.5
    takeback_rate: float = 0.0
    styles: dict[str, CubeStyle] = field(default_factory=dict)
    seated: dict[str, SeatedPlayer] = field(default_factory=dict)  # players who decide for themselves (bots)
    _between: int = 0  # the game whose between-games choices are made
    _plan: list[str] = field(default_factory=list)  # cubes the side on roll turns this turn
    _turn: tuple[int, int] | None = None

    def style(self, player: str) -> CubeStyle:
        """`player`'s cube style, drawn from the seed the first time it is asked."""
        if player not in self.styles:
            self.styles[player] = CubeStyle.drawn(random.Random(f"{self.rng.random()}:{player}"))
        return self.styles[player]

    def run(self, max_actions: int = 1_000_000) -> ChouetteSession:
        """Step until the session stops (at most `max_actions` steps)."""
        for _ in range(max_actions):
            if self.session.is_over:
                break
            self.step()
        return self.session

    def step(self) -> None:
        """One action of whoever the session waits for."""
        s, rng = self.session, self.rng
        wait = s.awaiting()
        if s.phase is Phase.SEATING:
            s.throw(rng.choice(wait.throwers), rng.randint(1, 6))
        elif s.phase is Phase.OPENING:
            if s.stakes is None and self._between != s.game_number:
                self._between = s.game_number
                if len(s.games) >= self.games:
                    s.stop()
                    return
                self._between_games()
            s.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif s.phase is Phase.MOVE:
            roller = self.seated.get(s.roller())
            plays = s.legal_plays()
            chosen = roller.play(s) if roller is not None else rng.choice(plays) if plays else None
            s.play(chosen if chosen is not None else [])
        elif "takeback" in wait.actions and rng.random() < self.takeback_rate:
            s.takeback()
        else:
            self._cube_or_roll(wait.actions, wait.doublers)

    def _between_games(self) -> None:
        s, rng = self.session, self.rng
        if self.bench and rng.random() < self.join_rate and len(s.players) < 9:
            s.join(self.bench.pop(0))
        if rng.random() < self.leave_rate and len(s.players) > 3:
            leaver = rng.choice(s.players)
            s.leave(leaver)
            self.bench.append(leaver)
        if "take_partner" in s.awaiting().actions and rng.random() < self.partner_rate:
            s.take_partner(rng.choice(s.roster.line[1:]))

    def _cube_or_roll(self, actions: Sequence[str], doublers: Sequence[str]) -> None:
        s = self.session
        side = s.on_roll
        assert side is not None
        turn = (s.game_number, s.move_number)
        if self._turn != turn:  # a new turn: the side on roll decides which cubes it turns
            self._turn = turn
            self._plan = [m for m in doublers if self._doubles(side, m)]
        self._plan = [m for m in self._plan if m in doublers]
        if self._plan and ("double" in actions or "box_double" in actions):
            member = self._plan.pop(0)
            (s.double if side is Side.TEAM else s.box_double)(member)
            return
        self._plan = []
        wait = s.awaiting()
        if wait.member is None:
            s.roll(self.rng.randint(1, 6), self.rng.randint(1, 6))
            return
        assert wait.side is not None and wait.player is not None
        verbs = [a.removeprefix("box_").rstrip("_") for a in wait.actions if "double" not in a]
        seated = self.seated.get(wait.player)
        if seated is not None:
            verb = seated.answer(s, wait.side, wait.member, verbs)
        else:
            verb = self.style(wait.player).answer(s.position, wait.side, side, "beaver" in verbs)
        if verb not in verbs:  # a house rule refuses it (the box must take half)
            verb = "take" if "take" in verbs else verbs[0]
        method = {"take": "take", "pass": "pass_", "beaver": "beaver"}[verb]
        getattr(s, method if wait.side is Side.TEAM else "box_" + verb)(wait.member)

    def _doubles(self, side: Side, member: str) -> bool:
        s = self.session
        decider = s.box if side is Side.BOX else member
        # With one team cube the captain turns it for all.
        seated = self.seated.get(s.captain if s.options.team_cube and side is Side.TEAM else decider)
        if seated is not None:
            return seated.doubles(s, side, member)
        return self.style(decider).doubles(s.position, side, side)


def simulate(players: Sequence[str], games: int, seed: int, variant: Variant = Variant.BACKGAMMON,
             options: ChouetteOptions | None = None, **rates: float) -> ChouetteSession:
    """A whole simulated session of `games` games, time-stamped 0, 1, 2, ...; rates as `SimulatedChouette`."""
    ticks = count()
    session = ChouetteSession(players, variant, options, clock=lambda: float(next(ticks)))
    bench = [f"Guest{n}" for n in range(1, 5)]
    sim = SimulatedChouette(session, random.Random(seed), games, bench=bench, **rates)  # type: ignore[arg-type]
    return sim.run()
