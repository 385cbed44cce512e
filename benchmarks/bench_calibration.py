"""Is a variant's network calibrated? Self-play games at 0-ply; after every play the network's
winning chance and cubeless equity for the side to roll, against how the game ended, by tenths
of the predicted chance.

    python benchmarks/bench_calibration.py --variant rungammon --games 120

A calibrated network wins about as often as it predicts in each tenth; an analysis that marks
most plays of a player as errors then says something of the player, not of the judge.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from game.board import Color, Variant
from game.bot.base import Bot
from game.bot.factory import make_bot
from game.bot.levels import Level
from game.position import Position


def game_rows(bot: Bot, variant: Variant, rng: random.Random) -> list[tuple[float, float, float, float]]:
    """One self-play game: (predicted win, predicted equity, won, points) for the side to roll
    after every play; none for a game that does not end (a Remi)."""
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    position, dice = Position.initial(variant, Color.WHITE if a > b else Color.BLACK), (a, b)
    seen: list[tuple[Color, float, float]] = []
    for _ in range(1000):
        play = bot.choose_play(position, dice)
        after = play.after_moves if play else position
        result = after.result()
        if result is not None:
            points = int(result.kind)
            return [(win, equity, float(result.winner is side), points if result.winner is side else -points)
                    for side, win, equity in seen]
        if after.is_remi():
            return []
        position = after.pass_turn()
        p = bot.estimate(position)
        seen.append((position.turn, float(p[0]), float(2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4])))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="rungammon", choices=["catchgammon", "rungammon"])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    variant = Variant(args.variant)
    bot = make_bot(variant, Level.ADVANCED, seed=0)
    rng = random.Random(args.seed)
    rows = np.array([row for _ in range(args.games) for row in game_rows(bot, variant, rng)])
    print(f"{variant.value}: {args.games} self-play games, {len(rows)} positions (0-ply)")
    print("predicted win   positions  mean predicted  won     predicted equity  points scored")
    for low in np.arange(0.0, 1.0, 0.1):
        tenth = (rows[:, 0] >= low) & (rows[:, 0] < low + 0.1)
        if tenth.sum():
            print(f"{low:.1f}-{low + 0.1:.1f}       {tenth.sum():9d}  {rows[tenth, 0].mean():14.3f}  "
                  f"{rows[tenth, 2].mean():.3f}   {rows[tenth, 1].mean():+16.3f}  {rows[tenth, 3].mean():+13.3f}")


if __name__ == "__main__":
    main()
