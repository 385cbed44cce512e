"""A bot's turn in a running `Match`: every decision it owes, applied through the match's own rules.

This is the loop a table runs for a bot seat (the controller calls the same `Bot` methods), and
what `bot_match` uses to play whole matches bot against bot (tests, benchmarks).
"""

from __future__ import annotations

import random
from itertools import count

from game.board import Color, Variant
from game.bot.base import Bot
from game.bot.context import CubeAction, MatchContext
from game.match import Match, Phase


def act(match: Match, bots: dict[Color, Bot], rng: random.Random) -> None:
    """Make the one action the match waits for, by the bot whose action it is (dice from `rng`)."""
    phase = match.phase
    if phase is Phase.OPENING:
        match.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        return
    player = match.expected
    assert player is not None
    bot = bots[player]
    context = MatchContext.of(match)
    position = match.position
    if phase is Phase.ROLL:
        kind = bot.offer_resignation(position, context)
        if kind is not None:
            match.resign(player, kind)
        elif bot.cube_action(position, context) is CubeAction.DOUBLE:
            match.double(player)
        else:
            match.roll(rng.randint(1, 6), rng.randint(1, 6))
    elif phase is Phase.MOVE:
        dice = match.dice
        assert dice is not None
        play = bot.choose_play(position, dice, context)
        match.play(play if play is not None else [])
    elif phase in (Phase.DOUBLED, Phase.BEAVERED):
        action = bot.cube_action(position, context)
        {CubeAction.TAKE: match.take, CubeAction.PASS: match.pass_,
         CubeAction.BEAVER: match.beaver}[action](player)
    elif phase is Phase.RESIGNED:
        offer = match.resignation
        assert offer is not None
        accept = bot.accept_resignation(position, context, offer[0], offer[1])
        (match.accept_resignation if accept else match.decline_resignation)(player)


def bot_match(white: Bot, black: Bot, variant: Variant, length: int | None, seed: int,
              money_games: int = 1, max_actions: int = 20_000) -> Match:
    """A whole match (or `money_games` money games) between two bots, reproducibly from `seed`."""
    rng = random.Random(seed)
    ticks = count()
    match = Match(variant, length, players=(white.name, black.name), clock=lambda: float(next(ticks)))
    bots = {Color.WHITE: white, Color.BLACK: black}
    for _ in range(max_actions):
        if match.is_over:
            break
        if length is None and match.phase is Phase.OPENING and len(match.games) >= money_games:
            match.stop()
            break
        act(match, bots, rng)
    return match
