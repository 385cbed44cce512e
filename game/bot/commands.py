"""`python -m game play-bot` and `python -m game analyse`: the bot on the command line.

The engines (numpy, gnubg: the `bot` extra) are imported only when one of these commands runs,
so the rest of `python -m game` works without them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from game.board import Variant
from game.errors import UsageError
from game.position import Position

if TYPE_CHECKING:
    from game.bot.context import MatchContext


def add_parsers(commands: Any, variants: list[str]) -> None:
    """Add `play-bot` and `analyse` to `python -m game`'s commands."""
    play = commands.add_parser("play-bot", help="the bot's play for a position and roll")
    play.add_argument("--position", help="XGID (its cube and score are used), Position ID, inline JSON, @file or start")
    play.add_argument("--dice", help="the roll, e.g. 31")
    play.add_argument("--variant", choices=variants)
    play.add_argument("--level", default=None, help="beginner ... grandmaster, or rollout (default: expert)")
    play.add_argument("--seconds", type=float, default=None,
                      help="the rollout level's budget a play (default 2); for --level rollout only")
    play.add_argument("--json", action="store_true",
                      help="print the play as `plays --json` prints one, with its equity and the ranked alternatives")
    play.add_argument("--hint", type=int, metavar="N", default=None,
                      help="rank the best N plays with their equities, as GNU Backgammon's hint (JSON: 5 unless told)")
    play.add_argument("--batch", metavar="FILE.jsonl", help='lines of {"position": POS, "dice": [d1, d2]}')
    play.add_argument("--seed", type=int, default=None, help="fixes the noise of the weaker levels")
    play.set_defaults(run=cmd_play_bot)

    analyse = commands.add_parser("analyse", help="every play and cube decision of a match judged by the bot")
    analyse.add_argument("record", help="a JSON Lines record or a .mat file")
    analyse.add_argument("--level", default=None, help="the judging bot's level (default: expert)")
    analyse.add_argument("--out", help="also write the analysed match sheet (.pdf or .png)")
    analyse.add_argument("--biggest", type=int, default=5, help="how many of the biggest errors to list")
    analyse.set_defaults(run=cmd_analyse)


def context_of(text: str, position: Position) -> MatchContext:
    """The match context an XGID carries (cube, score, length, Crawford, options); money otherwise."""
    from game.bot.context import MONEY, MatchContext  # here: `python -m game` adds these commands to every run

    if position.variant is not Variant.BACKGAMMON or ":" not in text:
        return MONEY
    from game.cube import Cube
    from game.match import MatchOptions
    from game.xgid import Xgid

    xgid = Xgid.parse(text)
    options = MatchOptions(jacoby=xgid.jacoby, beavers=xgid.beavers) if not xgid.match_length else MatchOptions()
    return MatchContext(xgid.match_length or None, xgid.score, Cube(xgid.cube_value, xgid.cube_owner),
                        xgid.crawford, False, options)


def play_document(position: Position, play: Any, ranked: Sequence[Any] = (), alternatives: int = 0) -> dict[str, Any]:
    """The bot's play as `plays --json` prints a play; a roll that cannot be played is "(no play)".
    With a ranking: the play's equity in it and the best `alternatives` plays ("ranking", as
    `game.bot.hint.entries` gives them)."""
    if play is None:
        return {"notation": "(no play)", "moves": [], "position": position.to_document(), "ranking": []}
    document: dict[str, Any] = play.to_document()
    if ranked:
        from game.bot.hint import entries

        document["equity"] = next(round(r.equity, 4) for r in ranked if r.play.after_moves == play.after_moves)
        document["ranking"] = entries(ranked, alternatives)
    return document


def checked_alternatives(count: int | None) -> int:
    """How many alternatives to rank (`--hint`), refusing a count below one."""
    from game.bot.hint import DEFAULT_ALTERNATIVES

    if count is None:
        return DEFAULT_ALTERNATIVES
    if count < 1:
        raise UsageError(f"--hint needs at least one play, not {count}")
    return count


def cmd_play_bot(args: argparse.Namespace, out: TextIO) -> int:
    """Print the bot's play (notation, or JSON with the position after it); --batch answers a file."""
    from game.arguments import read_dice, read_position, run_batch
    from game.bot.factory import make_bot
    from game.bot.levels import DEFAULT_LEVEL, Level

    variant = Variant(args.variant) if args.variant else None
    level = Level.parse(args.level) if args.level else DEFAULT_LEVEL
    alternatives = checked_alternatives(args.hint)
    bots: dict[Variant, Any] = {}

    def bot_for(position: Position) -> Any:
        if position.variant not in bots:
            bots[position.variant] = make_bot(position.variant, level, args.seed, args.seconds)
        return bots[position.variant]

    if args.batch:
        def answer(position: Position, dice: tuple[int, int]) -> dict[str, Any]:
            bot = bot_for(position)
            return play_document(position, bot.choose_play(position, dice), bot.rank_plays(position, dice),
                                 alternatives)

        return run_batch(args.batch, variant, answer, out)
    if not args.position or not args.dice:
        raise UsageError("play-bot needs --position and --dice, or --batch FILE.jsonl")
    position = read_position(args.position, variant)
    dice = read_dice(args.dice)
    bot, context = bot_for(position), context_of(args.position, position)
    play = bot.choose_play(position, dice, context)
    if args.json:
        import json  # here: `python -m game` adds these commands to every run

        ranked = bot.rank_plays(position, dice, context)
        out.write(json.dumps(play_document(position, play, ranked, alternatives)) + "\n")
    elif args.hint is not None:
        from game.bot.hint import render

        out.write(render(bot.rank_plays(position, dice, context), alternatives))
    else:
        out.write((play.notation() if play else "(no play)") + "\n")
    return 0


def cmd_analyse(args: argparse.Namespace, out: TextIO) -> int:
    """Analyse a record or .mat: each player's error rate, luck, the biggest errors; --out the sheet."""
    from game.arguments import image_file
    from game.bot.analysis import analyse_file
    from game.bot.levels import DEFAULT_LEVEL, Level

    level = Level.parse(args.level) if args.level else DEFAULT_LEVEL
    if args.out:
        image_file(args.out, (".pdf", ".png"))
    progress = None
    if sys.stderr.isatty():  # from the first second: the engine's start and the first decisions take a while
        from game.progress import ProgressBar

        sys.stderr.write(f"analysing {args.record} at the {level.value} level...\n")
        progress = ProgressBar(_count_events(args.record), sys.stderr, unit="events")
    analysis = analyse_file(args.record, level, progress)
    out.write(analysis.render(args.biggest))
    if args.out:
        from game.bot.annotate import write_sheet

        try:
            written = write_sheet(analysis, args.out)
        except OSError as exc:
            raise UsageError(f"cannot write {args.out!r}: {exc.strerror or exc}") from None
        out.write("".join(f"wrote {path}\n" for path in written))
    return 0


def _count_events(path: str) -> int:
    """How many events a record or .mat holds (for the progress bar's total)."""
    from game.bot.analysis import read_events

    return len(read_events(path)[0])
