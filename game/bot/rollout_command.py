"""`python -m game.bot rollout`: a roll's best plays rolled out (`rollout.py`), printed as a table
or as JSON."""

from __future__ import annotations

from typing import Any, TextIO

from game.board import Variant
from game.bot.network_bot import NetworkBot
from game.bot.rollout import Rollout, RolloutResult


def render(results: list[RolloutResult], luck: bool) -> str:
    """The rollout as a table: each candidate's equity with its standard error and its paired
    difference from the best."""
    width = max(len(r.play.play.notation()) for r in results)
    games = results[0].games
    note = "luck-adjusted, " if luck else ""
    lines = [f"rollout: {games} games a candidate, the same dice for each ({note}cubeless, 0-ply both sides)"]
    for rank, r in enumerate(results, start=1):
        behind = "" if rank == 1 else f"  ({r.difference:+.3f} +/- {r.difference_error:.3f})"
        plain = f"  [plain {r.raw_equity:+.3f} +/- {r.raw_error:.3f}]" if luck else ""
        lines.append(f"{rank:>5}. {r.play.play.notation():<{width}}  Eq.: {r.equity:+.3f} +/- {r.error:.3f}"
                     f"{behind}{plain}")
    return "\n".join(lines) + "\n"


def add_parser(commands: Any) -> None:
    """`python -m game.bot rollout`: the candidate plays of a roll rolled out."""
    parser = commands.add_parser("rollout", help="roll out the best plays of a roll (Monte Carlo, with errors)")
    parser.add_argument("--position", required=True, help="XGID, Position ID, inline JSON, @file or start")
    parser.add_argument("--dice", required=True, help="the roll, e.g. 31")
    parser.add_argument("--variant", choices=[v.value for v in Variant])
    parser.add_argument("--games", type=int, default=144, help="games a candidate (default 144)")
    parser.add_argument("--candidates", type=int, default=3, help="how many of the best plays (default 3)")
    parser.add_argument("--level", default=None, help="the level that picks the candidates (default: expert)")
    parser.add_argument("--seed", type=int, default=1, help="the dice of the rollout")
    parser.add_argument("--luck", action="store_true",
                        help="adjust each game for the luck of its rolls (the variants: 21 rolls judged a ply)")
    parser.add_argument("--json", action="store_true", help="one JSON object: the candidates, best first")
    parser.set_defaults(run=run_command)


def run_command(args: Any, out: TextIO, err: TextIO) -> int:
    """Roll out and print the table (or JSON)."""
    import json

    from game.arguments import read_dice, read_position
    from game.bot.commands import context_of
    from game.bot.factory import make_bot
    from game.bot.levels import DEFAULT_LEVEL, Level

    position = read_position(args.position, Variant(args.variant) if args.variant else None)
    dice = read_dice(args.dice)
    level = Level.parse(args.level) if args.level else DEFAULT_LEVEL
    context = context_of(args.position, position)
    with make_bot(position.variant, level, seed=args.seed) as judge:
        # The games are played at 0-ply: GNU Backgammon's expert level, or the network itself.
        player = judge if isinstance(judge, NetworkBot) or level is Level.EXPERT else make_bot(
            position.variant, Level.EXPERT, seed=args.seed)
        rollout = Rollout(player, context, luck=args.luck)

        def progress(done: int, total: int) -> None:
            err.write(f"\rrolled out {done} of {total} candidates")
            if done == total:
                err.write("\n")
            err.flush()

        try:  # progress on a terminal only, as every long command shows it: a log gets the answer alone
            results = rollout.run(position, dice, args.games, args.candidates, args.seed,
                                  progress if err.isatty() else None, judge)
        finally:
            if player is not judge:
                player.close()
    if args.json:
        out.write(json.dumps({"games": args.games, "luck_adjusted": rollout.luck, "seed": args.seed,
                              "candidates": [r.to_document() for r in results]}) + "\n")
    else:
        out.write(render(results, rollout.luck))
    return 0
