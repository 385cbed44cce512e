"""Helpers for the chouette tests: a session seated in a chosen order, turns brought about quickly;
at the emulated table, a session scripted press by press to a member's decision."""

from __future__ import annotations

import json
import random
from itertools import count
from typing import Any

from drivers.events import ButtonKind, Player
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.table import EmulatedTable
from game.board import Variant
from game.chouette import ChouetteOptions, ChouetteSession, Phase
from game.hands import hand_moves
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


# -- at the emulated table ------------------------------------------------------------------


def journal(table: EmulatedTable) -> list[dict[str, Any]]:
    """The table's journal, event by event."""
    return [json.loads(line) for line in table.journal.path.read_text().splitlines()]


def of_type(table: EmulatedTable, *kinds: str) -> list[dict[str, Any]]:
    """The table's journal events of these types, in order."""
    return [e for e in journal(table) if e["type"] in kinds]


def roll(table: EmulatedTable, a: int, b: int) -> None:
    table.emulator.roll(a, b)
    table.wait(0.6)


def press(table: EmulatedTable, player: Player, button: ButtonKind) -> None:
    table.press(player, button)
    table.wait(0.6)


def play_first(table: EmulatedTable) -> None:
    """The side on roll plays its first legal play by hand and presses done."""
    session = table.controller.played
    assert isinstance(session, ChouetteSession)
    assert table.controller.prompt.waiting is Waiting.PLAY, table.controller.prompt.describe()
    before, play = session.position, session.legal_plays()[0]
    for step in hand_moves(before, play.moves):
        table.emulator.move(step.source, step.target)
        table.wait(0.1)
    table.wait(0.6)
    press(table, "white" if before.turn.value == "white" else "black", ButtonKind.DONE)


def box_doubles_bob_and_cy(table: EmulatedTable) -> None:
    """Ann the box, Bob the captain, then Cy and Dee; the team plays first, then the box turns Bob's and
    Cy's cubes and lets Dee's be: Bob (P1) is asked to take or pass."""
    roll(table, 6, 5)
    roll(table, 4, 3)
    roll(table, 2, 1)  # the team wins the opening roll
    play_first(table)
    press(table, "black", ButtonKind.DOUBLE)  # B1: Bob's cube
    press(table, "black", ButtonKind.DOUBLE)  # B2: Cy's
    press(table, "black", ButtonKind.PASS)  # B3: Dee's is let be
    assert (table.controller.prompt.code, table.controller.prompt.asked) == ("P1", "Bob")
