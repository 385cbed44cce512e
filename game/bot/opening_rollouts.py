"""Making the opening book (`opening.py`) by rollouts: `python -m game.bot opening`.

For each opening roll of a variant the expert level ranks the plays from the starting position,
and its best `--candidates` are rolled out (`rollout.py`: the same dice for each, the first two
rolls rotated, played out at 0-ply, cubeless money; `--luck` adjusts for luck with the variants'
networks). The rollout's best overrules the bot's own choice only when that choice trails it by
more than two standard errors of their paired difference (`entry_document`): a small rollout
cannot tell close plays apart, and where it cannot the bot's judgement stands. A roll with one
legal play (every Rungammon opening) is recorded as forced, without a rollout. One run makes one
variant's section, with the command that remakes it, and keeps the book's other sections.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from game.arguments import output_file
from game.board import Variant
from game.bot.opening import OPENING_ROLLS, OpeningBook, roll_key
from game.errors import UsageError
from game.position import Position

OVERRULE = 2.0  # standard errors of the paired difference by which the bot's own choice must trail


def entry_document(candidates: list[dict[str, Any]], own: str) -> dict[str, Any]:
    """A roll's book entry from its candidates' rollouts (best first) and the bot's own choice
    `own` (one of them): the play is the rollout's best when it is the bot's choice too, or when
    the bot's choice trails it by more than `OVERRULE` standard errors of their paired difference;
    otherwise the rollout cannot tell them apart and the bot's choice stands."""
    best = candidates[0]["notation"]
    trailing = next(c for c in candidates if c["notation"] == own)
    margin = -trailing["difference"] / trailing["difference_error"] if trailing["difference_error"] else 0.0
    play = best if best == own or margin > OVERRULE else own
    return {"play": play, "forced": False, "rollout_best": best, "network_choice": own,
            "margin_in_errors": round(margin, 2), "candidates": candidates}


def build_section(variant: Variant, games: int, candidates: int, seed: int, luck: bool, command: str,
                  progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Roll out the best `candidates` plays of every opening roll of `variant` (the expert level's
    ranking), `games` games each, played out by the bot at 0-ply; the variant's book section."""
    from game.bot.factory import make_bot
    from game.bot.levels import Level
    from game.bot.network_bot import NetworkBot
    from game.bot.rollout import Rollout

    if games < 1 or candidates < 1:
        raise UsageError(f"an opening book needs at least one game and one candidate, not {games} and {candidates}")
    start = Position.initial(variant)
    began = time.perf_counter()
    rolls: dict[str, Any] = {}
    with make_bot(variant, Level.EXPERT, seed=seed) as bot:
        bot.use_book = False  # the book is what is being made
        rollout = Rollout(bot, luck=luck)
        for roll in OPENING_ROLLS:
            ranked = bot.rank_plays(start, roll)
            if len(ranked) == 1:
                only = ranked[0].play.notation()
                rolls[roll_key(roll)] = {"play": only, "forced": True, "rollout_best": only, "network_choice": only,
                                         "margin_in_errors": 0.0, "candidates": []}
            else:
                results = rollout.run(start, roll, games, candidates, seed)
                rolls[roll_key(roll)] = entry_document([r.to_document() for r in results],
                                                       ranked[0].play.notation())
            if progress is not None:
                progress(f"{variant.value} {roll_key(roll)}: {rolls[roll_key(roll)]['play']}")
        player = bot.name
        luck_adjusted = rollout.luck and isinstance(bot, NetworkBot)
    return {"command": command, "player": f"{player}, 0-ply play-outs, cubeless money", "games": games,
            "candidates": candidates, "seed": seed, "luck_adjusted": luck_adjusted, "overrule_beyond": OVERRULE,
            "seconds": round(time.perf_counter() - began, 1), "rolls": rolls}


def add_parser(commands: Any) -> None:
    """`python -m game.bot opening`: make (or remake) one variant's section of an opening book."""
    parser = commands.add_parser("opening", help="make a variant's opening book by rollouts")
    parser.add_argument("--variant", required=True, choices=[v.value for v in Variant])
    parser.add_argument("--out", required=True, type=output_file,
                        help="the book (JSON); its other variants' sections are kept")
    parser.add_argument("--games", type=int, default=144, help="games a candidate (default 144)")
    parser.add_argument("--candidates", type=int, default=3, help="how many of the best plays (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the dice of the rollouts")
    parser.add_argument("--luck", action="store_true", help="adjust each game for the luck of its rolls")
    parser.set_defaults(run=run_command)


def run_command(args: Any, out: TextIO, err: TextIO) -> int:
    """Make the section, write it into the book at `--out`, print each roll's play."""
    variant = Variant(args.variant)
    command = (f"python -m game.bot opening --variant {variant.value} --out {args.out} --games {args.games} "
               f"--candidates {args.candidates} --seed {args.seed}" + (" --luck" if args.luck else ""))
    path = Path(args.out)
    document: dict[str, Any] = {"variants": {}}
    if path.exists():
        document = OpeningBook.load(path).document
    section = build_section(variant, args.games, args.candidates, args.seed, args.luck, command,
                            lambda line: (err.write(line + "\n"), err.flush()) and None)
    document["variants"] = {**document["variants"], variant.value: section}
    document["about"] = ("The opening book (game/bot/opening.py): per variant and opening roll, the best play by "
                         "rollout among the expert level's best candidates; equities cubeless money, for the mover, "
                         "with standard errors; each section's command remakes it.")
    OpeningBook(document)  # what is written must read back
    try:
        path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {args.out!r}: {exc.strerror or exc}") from None
    for key, entry in section["rolls"].items():
        out.write(f"{variant.value} {key}: {entry['play']}{'  (forced)' if entry['forced'] else ''}\n")
    return 0
