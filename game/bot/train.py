"""`python -m game.bot train`: a reproducible TD(lambda) run, its progress bar and its learning curve.

With `--init` a run continues a saved network (more games for a shipped one): the learning rate
goes on from the games behind it, and the record keeps the run it continues, so a chain of
commands, each from its seed, remakes the weights.

Every `--every` games the network, as it then is, plays `--eval-games` games at 0-ply against
each fixed opponent (random, heuristic); the win rates with their 95% intervals make the curve,
drawn beside the weights as a PNG and written into the weights' record. The weights are saved at
each of those points too, so a run stopped early still leaves a usable network; with `--keep`
each point's weights are also kept in a file of their own, to be averaged (`average.py`).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any, TextIO

from game.arguments import above_zero, count, fraction, output_file, positive
from game.board import Variant
from game.bot.arena import match_up
from game.bot.base import Level
from game.bot.baselines import HeuristicBot, RandomBot
from game.bot.errors import WeightsError
from game.bot.lockstep import Lockstep
from game.bot.network import Network
from game.bot.network_bot import NetworkBot
from game.bot.td import DEFAULT_TEMPERATURE, Settings, Trainer
from game.errors import UsageError
from game.pictures.curve import draw_curve
from game.progress import ProgressBar

BASELINES = ("random", "heuristic")
DEFAULT_HIDDEN = 64
# Measured: Catchgammon, 128 hidden units, 32 games at once from an untrained network, 5,000 games.
UNTRAINED_PARALLEL = ("warning: --parallel without --init: the untrained network takes the summed updates of "
                      "many games at once and can saturate (Catchgammon, 128 hidden units, 32 at once: 3% against "
                      "the heuristic after 5,000 games); train the first games one at a time, then continue\n")


def curve_point(network: Network, games: int, eval_games: int, seed: int) -> dict[str, float]:
    """The network's win rates against each baseline (0-ply, no noise), with 95% intervals."""
    variant = network.variant
    bot = NetworkBot(network, Level.ADVANCED)
    point: dict[str, float] = {"games": float(games)}
    for name, opponent in (("random", RandomBot(variant, seed)), ("heuristic", HeuristicBot(variant, seed))):
        score = match_up(bot, opponent, variant, eval_games, seed)
        low, high = score.interval()
        point.update({name: score.rate, f"{name}_low": low, f"{name}_high": high,
                      f"{name}_points": score.equity})
    return point


def train(args: argparse.Namespace, err: TextIO) -> int:
    """Run the training the arguments describe; write the weights, the curve and the record."""
    if args.temperature != DEFAULT_TEMPERATURE and not args.explore:
        raise UsageError(f"--temperature {args.temperature}: it sets how --explore draws; add --explore PLIES")
    initial = Network.load(args.init, widen=True) if args.init else None
    if initial is None and args.parallel > 1:
        err.write(UNTRAINED_PARALLEL)
    start = _games_played(initial)
    hidden = _hidden(args, initial)
    settings = Settings(Variant(args.variant), args.games, args.seed, hidden=hidden, second=args.second,
                        alpha=args.alpha, alpha_end=args.alpha_end, lam=args.lam, start=start,
                        parallel=args.parallel, expected=args.expected_target, explore=args.explore,
                        temperature=args.temperature)
    trainer = Trainer(settings, initial)
    runner = Lockstep(trainer) if args.parallel > 1 else trainer
    out = Path(args.out)
    curve_path = Path(args.curve) if args.curve else out.with_suffix(".png")
    # A continued run's curve goes on from the one it continues.
    points: list[dict[str, float]] = list(initial.record.get("curve", [])) if initial else []
    started = time.perf_counter()
    command = " ".join(["python -m game.bot train", f"--variant {args.variant}", f"--games {args.games}",
                        f"--seed {args.seed}", f"--out {out.name}", f"--every {args.every}",
                        f"--eval-games {args.eval_games}"] + _shape_options(args) + ["--keep"] * args.keep)

    def checkpoint(done: int) -> None:
        if args.eval_games and not (done == 0 and initial is not None and initial.record.get("curve")):
            points.append(curve_point(trainer.network, start + done, args.eval_games, args.seed + start + done))
            title = curve_title(settings, initial)
            draw_curve(title, points, BASELINES).save(curve_path)
        trainer.network.record = _record(settings, command, done, time.perf_counter() - started, trainer,
                                         points, initial)
        trainer.network.save(out)
        if args.keep and done:
            trainer.network.save(kept(out, start + done))

    bar = ProgressBar(args.games, err) if args.progress and err.isatty() else None
    played = [0]

    def progress(done: int, elapsed: float) -> None:
        played[0] = done
        if bar:
            bar(done, elapsed)

    if bar and args.eval_games and not initial:
        err.write("the first point of the curve: the untrained network's evaluation games...\n")
        err.flush()
    try:
        runner.run(progress, checkpoint, args.every or args.games)
    except KeyboardInterrupt:
        return _interrupted(args, trainer, settings, command, played[0], started, points, initial, out, err)
    if args.every and args.games % args.every:
        checkpoint(args.games)
    last = points[-1] if points else {}
    seconds = time.perf_counter() - started
    err.write(f"wrote {out} and {curve_path}: {args.games} games ({start + args.games} in all) in {seconds:.0f} s"
              + "".join(f", v {name} {100 * last[name]:.1f}%" for name in BASELINES if name in last) + "\n")
    return 0


def _hidden(args: argparse.Namespace, initial: Network | None) -> int:
    """The first hidden layer's units: --hidden, else the initial network's; a network is only ever
    widened, and deepened once."""
    hidden: int = args.hidden or (initial.hidden if initial else DEFAULT_HIDDEN)
    if initial is not None and hidden < initial.hidden:
        raise WeightsError(f"--hidden {hidden}: {args.init} has {initial.hidden} hidden units, and a network is "
                           "only ever widened")
    if initial is not None and args.second and initial.second is not None:
        raise WeightsError(f"--second {args.second}: {args.init} already has a second hidden layer "
                           f"({initial.describe_shape()})")
    return hidden


def _interrupted(args: argparse.Namespace, trainer: Trainer, settings: Settings, command: str, done: int,
                 started: float, points: list[dict[str, float]], initial: Network | None, out: Path,
                 err: TextIO) -> int:
    """Ctrl-C: keep what the run has learnt so far, its record saying where it stopped; exit 130."""
    record = _record(settings, command, done, time.perf_counter() - started, trainer, points, initial)
    record["interrupted"] = {"after_games": done, "of": args.games}
    trainer.network.record = record
    trainer.network.save(out)
    err.write(f"\ninterrupted after {done} of {args.games} games: wrote {out} as learnt so far (its record says "
              "so: interrupted)\n")
    return 130


def kept(out: Path, games: int) -> Path:
    """Where `--keep` saves the network as it was after `games` self-play games in all."""
    return out.with_name(f"{out.stem}-{games}{out.suffix}")


def _shape_options(args: argparse.Namespace) -> list[str]:
    """The options that shape the weights beyond the seed, as the command line takes them: a run's
    record must name every one to remake it (a continued run takes its hidden layer from --init)."""
    options = [f"--init {Path(args.init).name}"] if args.init else []
    if args.hidden or not args.init:
        options.append(f"--hidden {args.hidden or DEFAULT_HIDDEN}")
    if args.second:
        options.append(f"--second {args.second}")
    for name, default in (("alpha", 0.1), ("alpha_end", 0.02), ("lam", 0.7), ("parallel", 1)):
        if getattr(args, name) != default:
            options.append(f"--{name.replace('_', '-')} {getattr(args, name)}")
    if args.expected_target:
        options.append("--expected-target")
    if args.explore:
        options.append(f"--explore {args.explore} --temperature {args.temperature}")
    return options


def curve_title(settings: Settings, initial: Network | None) -> str:
    """The curve's title: the variant, TD(lambda) and the seeds of the runs behind it."""
    title = f"{settings.variant.value}: TD({settings.lam}) self-play, seed {settings.seed}"
    if initial is None:
        return title
    if "averaged" in initial.record:
        return f"{title} from game {settings.start:,} (the mean of {len(initial.record['averaged'])} networks)"
    return f"{title} from game {settings.start:,} (games before: seed {initial.record.get('seed', '?')})"


def _games_played(network: Network | None) -> int:
    """Self-play games behind a saved network (its own run's and those of the runs it continued)."""
    if network is None:
        return 0
    record = network.record
    return int(record.get("total_games", record.get("games", 0)))


def _record(settings: Settings, command: str, games: int, seconds: float, trainer: Trainer,
            points: list[dict[str, float]], initial: Network | None) -> dict[str, Any]:
    remi, single, gammon, triple = trainer.results
    record: dict[str, Any] = {
        "command": command, "games": games, "total_games": settings.start + games, "seconds": round(seconds, 1),
        "seed": settings.seed, "hidden": trainer.network.hidden,
        "second": 0 if trainer.network.second is None else trainer.network.second.units,
        "lambda": settings.lam, "parallel": settings.parallel,
        "target": "the mean over the 21 rolls" if settings.expected else "the roll thrown",
        "explore": {"plies": settings.explore, "temperature": settings.temperature},
        "alpha": [settings.alpha, settings.alpha_end, settings.alpha_games],
        "self_play_results": {"remi": remi, "single": single, "gammon": gammon, "triple": triple},
        "curve": points}
    if initial is not None:  # the run it continues, and through it every earlier one
        record["continues"] = {key: value for key, value in initial.record.items() if key != "curve"}
    return record


def add_parser(commands: Any) -> None:
    """The `train` command's arguments."""
    p = commands.add_parser("train", help="train a variant's network by TD(lambda) self-play")
    p.add_argument("--variant", required=True, choices=[v.value for v in Variant])
    p.add_argument("--games", type=positive, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, type=output_file,
                   help="the weights file (.npz); the curve goes beside it as .png")
    p.add_argument("--curve", help="where to draw the learning curve (default: OUT with .png)")
    p.add_argument("--every", type=positive, default=1000, help="games between points of the curve")
    p.add_argument("--eval-games", type=count, default=200, help="games against each baseline per point")
    p.add_argument("--init", help="continue from these weights (a run's .npz): the learning rate goes on from "
                   "the games behind them, and the record keeps the run it continues")
    p.add_argument("--hidden", type=positive, default=None, help=f"hidden units (default {DEFAULT_HIDDEN}; with "
                   "--init, the network's own, or more to widen it: the new units start with no say in the output)")
    p.add_argument("--second", type=count, default=0, metavar="UNITS", help="add a second hidden layer of UNITS "
                   "on the first, at no say in the output (training goes on from what the network knows)")
    p.add_argument("--alpha", type=above_zero, default=0.1, help="the learning rate at the start")
    p.add_argument("--alpha-end", type=above_zero, default=0.02, help="the learning rate it falls to")
    p.add_argument("--lam", type=fraction, default=0.7, help="TD's lambda, from 0 to 1")
    p.add_argument("--parallel", type=positive, default=1, help="games played at once, learning from all of them "
                   "at every step (several times faster; the run then repeats from its seed and this number)")
    p.add_argument("--expected-target", action="store_true", help="learn toward the mean over the 21 rolls of "
                   "the estimate after each roll's greedy play (a 1-ply backup, free of the dice's luck; about ten "
                   "times the time a game; with --parallel)")
    p.add_argument("--explore", type=count, default=0, metavar="PLIES", help="in each game's first PLIES plies, "
                   "draw the play (each candidate weighted exp(equity / temperature) relative to the best) instead "
                   "of taking the greedy one, so that the run meets more openings (with --parallel)")
    p.add_argument("--temperature", type=above_zero, default=DEFAULT_TEMPERATURE, help="--explore's temperature, in "
                   "points of equity (default 0.1: a play 0.1 worse is drawn 1/e as often as the best)")
    p.add_argument("--keep", action="store_true", help="also keep the weights of every point of the curve, as "
                   "OUT-GAMES.npz (GAMES: the games behind them in all), to average with `python -m game.bot average`")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    p.set_defaults(run=lambda args, out, err: train(args, err))




