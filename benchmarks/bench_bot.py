"""The bot's figures: strength with confidence intervals, time to choose a play, training speed, memory,
the bear-off database (size, build time, agreement with GNU Backgammon's), GNU Backgammon's cube
decisions (time), rollouts (time a game, errors with and without luck adjustment), the rollout
level against the default level (`--only rollout-level --seconds S`: games, rounds and time a play),
the learner check alone (`--only learner --bg-weights A.npz B.npz ... --dice-seed S`), a variant's
trained networks against its shipped one (`--only against-shipped --weights A.npz B.npz ... --dice-seed S`);
`--luck` adds those two's luck-adjusted figures (the same means, narrower intervals).

    python benchmarks/bench_bot.py                      # everything, default sample sizes
    python benchmarks/bench_bot.py --games 100 --only strength,speed

Strength: cubeless games, each pairing played the same number of times from each side, win rate
with Wilson's 95% interval and points per game with its 95% half-width. "default" is the level
`make_bot` gives without one (expert). The Backgammon-trained network (--bg-weights) plays GNU
Backgammon at 0-ply (its expert level), which tells how far the learner gets.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from game.board import Variant
from game.bot import lockstep
from game.bot.arena import match_up
from game.bot.base import DEFAULT_LEVEL, Bot, Level
from game.bot.baselines import HeuristicBot, RandomBot
from game.bot.encoding import describe_encoder
from game.bot.factory import make_bot
from game.bot.lockstep import Lockstep
from game.bot.luck import LuckMeter, describe_adjusted
from game.bot.network import Network
from game.bot.network_bot import NetworkBot
from game.bot.td import Settings, Trainer
from game.selfplay import random_positions

ROOT = Path(__file__).resolve().parents[1]


PAIRINGS = ("default v random", "default v heuristic", "expert v advanced", "advanced v beginner",
            "grandmaster v heuristic")
DEFAULT_PAIRINGS = PAIRINGS[:4]  # the strongest level against the heuristic only when asked (slow in Backgammon)


def strength(games: int, variants: list[Variant], bg_weights: Path | None, chosen: set[str]) -> None:
    """Default bot against the random and heuristic players, and level against level."""
    print(f"strength: {games} cubeless games per pairing, 95% intervals")
    for variant in variants:
        default = make_bot(variant, DEFAULT_LEVEL, seed=1)
        pairings: list[tuple[str, Bot, Bot]] = [
            ("default v random", default, RandomBot(variant, 2)),
            ("default v heuristic", default, HeuristicBot(variant, 3)),
            ("expert v advanced", default, make_bot(variant, Level.ADVANCED, seed=4)),
            ("advanced v beginner", make_bot(variant, Level.ADVANCED, seed=5),
             make_bot(variant, Level.BEGINNER, seed=6)),
            ("grandmaster v heuristic", make_bot(variant, Level.GRANDMASTER, seed=1), HeuristicBot(variant, 3)),
        ]
        for name, first, second in pairings:
            if name in chosen:
                _timed(f"  {variant.value:12} {name:22}", partial(match_up, first, second, variant, games, 7))
    if bg_weights is not None:
        network = NetworkBot(Network.load(bg_weights), Level.ADVANCED)
        gnubg0 = make_bot(Variant.BACKGAMMON, Level.EXPERT)
        print(f"  backgammon   TD network ({network.network.record.get('games')} games) v GNU Backgammon 0-ply:")
        _timed("  backgammon   network 0-ply v gnubg 0-ply",
               lambda: match_up(network, gnubg0, Variant.BACKGAMMON, games, 8))
        _timed("  backgammon   network 0-ply v random    ",
               lambda: match_up(network, RandomBot(Variant.BACKGAMMON, 9), Variant.BACKGAMMON, games, 9))
        _timed("  backgammon   network 0-ply v heuristic ",
               lambda: match_up(network, HeuristicBot(Variant.BACKGAMMON, 9), Variant.BACKGAMMON, games, 9))


def _judged(label: str, first: Bot, second: Bot, variant: Variant, games: int, seed: int, luck: bool) -> None:
    """`match_up`'s figure timed, and with `luck` its luck-adjusted figure below it (`game/bot/luck.py`)."""
    meter = LuckMeter.shipped(variant) if luck else None
    _timed(label, partial(match_up, first, second, variant, games, seed, meter))
    if meter is not None:
        print(f"{' ' * 4}{describe_adjusted(meter.games)}", flush=True)


def learner(games: int, weights: list[Path], seed: int, level: Level = Level.ADVANCED, luck: bool = False) -> None:
    """The learner check alone: each Backgammon-trained network at 0-ply (the advanced level; races
    by the bear-off database) against GNU Backgammon 0-ply, the same dice for each, to compare a
    run's checkpoints (choose on one seed, then measure the chosen one on another). `level`: the
    network's bot at another level (expert and up look one ply further at the best plays)."""
    print(f"learner check: {games} cubeless games per network, its bot at the {level.value} level, against "
          f"GNU Backgammon 0-ply, dice seed {seed}")
    gnubg0 = make_bot(Variant.BACKGAMMON, Level.EXPERT)
    for path in weights:
        network = NetworkBot(Network.load(path), level)
        behind = network.network.record.get("total_games", network.network.record.get("games"))
        _judged(f"  {path.name:28} ({behind} games)", network, gnubg0, Variant.BACKGAMMON, games, seed, luck)
    gnubg0.close()


def against_shipped(games: int, weights: list[Path], seed: int, luck: bool = False) -> None:
    """Each network (checkpoints of a run) at 0-ply (the advanced level) against the shipped network of its
    variant at 0-ply, the same dice for each: a cheap way to choose among a run's checkpoints before
    measuring the chosen one against an outside engine."""
    from game.bot.network_bot import shipped_weights

    print(f"against the shipped network: {games} cubeless games per network, both at 0-ply (advanced), "
          f"dice seed {seed}")
    for path in weights:
        network = Network.load(path, widen=True)  # one made before inputs were added plays as it did
        shipped = NetworkBot(Network.load(shipped_weights(network.variant)), Level.ADVANCED)
        _judged(f"  {path.name:28} vs shipped (advanced):", NetworkBot(network, Level.ADVANCED), shipped,
                network.variant, games, seed, luck)


def _timed(label: str, run: Callable[[], object]) -> None:
    start = time.perf_counter()
    score = run()
    describe = getattr(score, "describe", lambda: str(score))
    print(f"{label} {describe()}  ({time.perf_counter() - start:.0f} s)", flush=True)


def speed(positions: int, variants: list[Variant]) -> None:
    """Seconds to choose a play at each level over a corpus of positions met in random games."""
    print(f"time to choose a play: {positions} positions per variant (random games, seed 21), seconds; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; the {describe_encoder()}")
    for variant in variants:
        corpus = random_positions(variant, positions, 21)
        for level in Level:
            if level is Level.ROLLOUT:
                continue  # its time is its budget: see --only rollout-level
            bot = make_bot(variant, level, seed=1)
            start = time.perf_counter()
            bot.choose_play(*corpus[0])  # the engine made ready (GNU Backgammon's worker started)
            if level is Level.BEGINNER and variant is Variant.BACKGAMMON:
                print(f"  {variant.value:12} the first answer of a new bot, its worker process starting: "
                      f"{time.perf_counter() - start:.3f} s (bot.warm_up() as a match begins hides it)")
            times, cpu = [], []
            for position, dice in corpus:
                start, used = time.perf_counter(), _cpu_seconds(bot)
                bot.choose_play(position, dice)
                times.append(time.perf_counter() - start)
                cpu.append(_cpu_seconds(bot) - used)
            bot.close()
            mark = "  <- default" if level is DEFAULT_LEVEL else ""
            print(f"  {variant.value:12} {level.value:13} median {statistics.median(times):.4f} "
                  f"worst {max(times):.4f}; CPU median {statistics.median(cpu):.4f} worst {max(cpu):.4f}{mark}",
                  flush=True)


def _cpu_seconds(bot: Bot) -> float:
    """CPU seconds used so far by this process and the bot's engine worker, if it has one. On a
    shared machine the wall time also holds the waits for a core; the CPU time is what a play costs
    (the worker's is counted in the kernel's 10 ms ticks)."""
    used = time.process_time()
    pid = getattr(getattr(bot, "worker", None), "pid", None)
    if pid is not None:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        used += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    return used


def bearoff_figures(races: int) -> None:
    """The one-sided bear-off database: size, build time, agreement with GNU Backgammon's own."""
    import random

    import numpy as np

    from game.bot import bearoff

    shipped = bearoff.shipped_path()
    print(f"bear-off database: {bearoff.POSITIONS:,} positions; shipped file {shipped.stat().st_size:,} bytes")
    cpu = time.process_time()
    seconds, off, first = bearoff.timed_build()
    print(f"  built in {seconds:.1f} s wall, {time.process_time() - cpu:.1f} s CPU; "
          f"load average {os.getloadavg()[0]:.1f}")
    gnubg_file = Path("/usr/share/gnubg/gnubg_os0.bd")
    if gnubg_file.exists():
        theirs_off, theirs_first = bearoff.read_gnubg(gnubg_file)
        same = int(np.count_nonzero(np.all(theirs_off == off, axis=1) & np.all(theirs_first == first, axis=1)))
        print(f"  against {gnubg_file} ({gnubg_file.stat().st_size:,} bytes): {same:,} of {bearoff.POSITIONS:,} "
              "positions equal in both distributions, entry for entry")
    races_against_the_network(races)
    try:
        import gnubg
    except ImportError:
        return
    database, rng = bearoff.load(), random.Random(4)
    worst, start = 0.0, time.perf_counter()
    for _ in range(races):
        def home(n: int) -> tuple[int, ...]:
            board = [0] * 6
            for _ in range(n):
                board[rng.randrange(6)] += 1
            return tuple(board)
        mine, theirs = home(rng.randint(7, 15)), home(rng.randint(1, 15))
        ours = database.estimate(mine, theirs)
        expected = gnubg.evaluate((theirs + (0,) * 19, mine + (0,) * 19), gnubg.cubeinfo(),
                                  gnubg.evalcontext(0, 0, 1, 1, 0))[:5]
        worst = max(worst, float(np.max(np.abs(ours - np.array(expected)))))
    print(f"  {races} random races (one side above 6 checkers) against gnubg.evaluate: largest difference "
          f"{worst:.2e} ({time.perf_counter() - start:.1f} s with GNU Backgammon's own evaluations)")


def races_against_the_network(races: int) -> None:
    """What the database changes: in random races of each variant, how often the network's own
    choice (at the default level) differs from the database's, and the equity it loses by it."""
    import random

    from game.board import CHECKERS, OWN_TO_BOARD, Color
    from game.bot.network_bot import shipped_weights
    from game.position import Position

    for variant in (Variant.CATCHGAMMON, Variant.RUNGAMMON):
        network_bot = NetworkBot(Network.load(shipped_weights(variant)), DEFAULT_LEVEL)
        exact_bot = NetworkBot(network_bot.network, DEFAULT_LEVEL)
        network_bot.exact_races = False
        rng, differ, lost, asked = random.Random(9), 0, 0.0, 0
        while asked < races:
            homes = []
            for _ in range(2):
                board = [0] * 6
                for _ in range(rng.randint(3, 15)):
                    board[rng.randrange(6)] += 1
                homes.append(board)
            points = [""] * 24
            for color, home in zip(Color, homes, strict=True):
                for own, n in enumerate(home, start=1):
                    points[OWN_TO_BOARD[variant, color][own] - 1] = color.char * n
            off = (CHECKERS - sum(homes[0]), CHECKERS - sum(homes[1]))
            position = Position(variant, Color.WHITE, tuple(points), (0, 0), off)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            exact = exact_bot.rank_plays(position, dice)
            if len(exact) < 2:
                continue
            asked += 1
            chosen = network_bot.rank_plays(position, dice)[0].play.after_moves
            value = {entry.play.after_moves: entry.equity for entry in exact}
            if chosen != exact[0].play.after_moves:
                differ += 1
                lost += exact[0].equity - value[chosen]
        print(f"  {variant.value:12} {races} race decisions with a choice: the network alone (default level) "
              f"differs from the database's play in {differ} ({100 * differ / races:.1f}%), "
              f"{1000 * lost / races:.1f} thousandths of a point lost a decision on average")


def cube_figures(positions: int) -> None:
    """GNU Backgammon's own cube decisions through its program: seconds per decision at each level."""
    corpus = [p for p, _ in random_positions(Variant.BACKGAMMON, positions, 21)]
    print(f"GNU Backgammon's cube decisions (its program's hint, via the worker): {len(corpus)} positions")
    for level in (Level.EXPERT, Level.WORLD_CLASS, Level.GRANDMASTER):
        bot = make_bot(Variant.BACKGAMMON, level)
        bot.cube_decision(corpus[0])  # the worker and the program started
        times = []
        for position in corpus:
            start = time.perf_counter()
            bot.cube_decision(position)
            times.append(time.perf_counter() - start)
        bot.close()
        print(f"  {level.value:13} median {statistics.median(times):.4f} worst {max(times):.4f} s", flush=True)


def rollout_figures(games: int, variants: list[Variant]) -> None:
    """Rollouts from each variant's opening 42: CPU seconds a game, and the errors with and without luck."""
    from game.bot.rollout import Rollout
    from game.position import Position

    print(f"rollouts: the opening 42's best two candidates, {games} games each, plain and luck-adjusted")
    for variant in variants:
        bot = make_bot(variant, Level.EXPERT, seed=1)
        for luck in (False, True):
            start = _cpu_seconds(bot)
            results = Rollout(bot, luck=luck).run(Position.initial(variant), (4, 2), games, 2, seed=1)
            used = _cpu_seconds(bot) - start
            best = results[0]
            gap = f", difference {results[1].difference:+.3f} +/- {results[1].difference_error:.3f}" if len(
                results) > 1 else ""
            print(f"  {variant.value:12} luck {'on ' if luck else 'off'}: {used / (games * len(results)):.3f} CPU s "
                  f"a game; {best.play.play.notation()} {best.equity:+.3f} +/- {best.error:.3f}{gap}", flush=True)
            if variant is Variant.BACKGAMMON:
                break  # no luck adjustment through GNU Backgammon's worker
        bot.close()


def rollout_level(games: int, variants: list[Variant], seconds: float, minutes: float | None, seed: int = 7) -> None:
    """The rollout level (`seconds` a play) against the default level, cubeless, as `match_up` plays
    them (the first bot White in every other game, dice from `seed`), until `games` are played or
    `minutes` have passed (a whole number of pairs: as many games from each side); the rounds of the
    plays it rolled out and the wall seconds they took (`Tally`)."""
    import random

    from game.board import Color
    from game.bot.arena import Outcome, Score, play_game
    from game.bot.rollout_bot import RolloutBot, Tally

    limit = f", or {minutes:g} minutes" if minutes else ""
    print(f"the rollout level ({seconds:g} s a play) v the default level: up to {games} cubeless games{limit}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    for variant in variants:
        rollout, default = RolloutBot(make_bot(variant, Level.EXPERT, seed=1), seconds, seed=1), \
            make_bot(variant, DEFAULT_LEVEL, seed=2)
        rollout.tally = tally = Tally()
        rng, outcomes = random.Random(seed), list[Outcome]()
        start = time.perf_counter()
        deadline = start + 60 * minutes if minutes else float("inf")
        while len(outcomes) < games and (len(outcomes) % 2 or time.perf_counter() < deadline):
            color = Color.WHITE if len(outcomes) % 2 == 0 else Color.BLACK
            outcomes.append(play_game(rollout, default, variant, rng, color))
        points = [o.points for o in outcomes]
        score = Score(sum(o.won for o in outcomes), len(outcomes), sum(points), sum(p * p for p in points),
                      sum(o.remis for o in outcomes))
        print(f"  {variant.value:12} rollout v default: {score.describe()} ({time.perf_counter() - start:.0f} s)")
        print(f"  {variant.value:12} {tally.describe()}", flush=True)
        rollout.close()


def training(games: int, hidden: int, parallel: int, on_games: int) -> None:
    """Self-play training games per second (TD(lambda), from the untrained network): games one after
    another (`Trainer.play_game`), then `parallel` games at once (`train --parallel`, `Lockstep`)."""
    together = max(2 * games, 4 * parallel)
    print(f"training speed, {hidden} hidden units: {games} games from the untrained network, then {games} more; "
          f"then {together} games {parallel} at a time; the {describe_encoder()}")
    for variant in Variant:
        trainer = Trainer(Settings(variant, 2 * games, seed=1, hidden=hidden))
        start = time.perf_counter()
        for game in range(games):
            trainer.play_game(game)
        first = time.perf_counter() - start
        plies = trainer.plies
        start = time.perf_counter()
        for game in range(games, 2 * games):
            trainer.play_game(game)
        second = time.perf_counter() - start
        print(f"  {variant.value:12} {games / first:.2f} games/s at first, {games / second:.2f} games/s after "
              f"{games} games ({(trainer.plies - plies) / second:.0f} plies/s)", flush=True)
        batched = Trainer(Settings(variant, together, seed=1, hidden=hidden, parallel=parallel))
        elapsed = Lockstep(batched).run()
        # Plies, not games, per second compare the two: untrained games vary much in length.
        ratio = (batched.plies / elapsed) / ((trainer.plies - plies) / second)
        print(f"  {variant.value:12} {together / elapsed:.2f} games/s {parallel} at a time "
              f"({batched.plies / elapsed:.0f} plies/s, {ratio:.1f} times one after another)", flush=True)
    training_on(on_games, parallel)


def training_on(games: int, parallel: int) -> None:
    """Games a second training on from each shipped network (its own width and layers, as `train
    --init` goes on), `parallel` at a time in one block, with the compiled traces and then numpy's
    on the same games: the ratio, and whether the two learnt the same weights. A block's last
    steps, as its games end one by one, cost numpy more (it copies the traces of the games still
    on), so a short run flatters the compiled traces: a run's blocks are 10,000 games."""
    from game.bot.network_bot import shipped_weights

    print(f"training on from the shipped networks: {games} games {parallel} at a time, the "
          f"{lockstep.describe_traces()}, then numpy's")
    for variant in Variant:
        seconds, weights = [], []
        for compiled in (True, False):
            start = Network.load(shipped_weights(variant))
            trainer = Trainer(Settings(variant, games, seed=1, hidden=start.hidden, parallel=parallel), start)
            seconds.append(Lockstep(trainer, compiled).run())
            weights.append(trainer.network.arrays())
        same = all(np.array_equal(a, b) for a, b in zip(*weights, strict=True))
        print(f"  {variant.value:12} ({start.describe_shape()}) {games / seconds[0]:.2f} games/s, numpy's "
              f"{games / seconds[1]:.2f}: {seconds[1] / seconds[0]:.2f} times as fast; "
              f"{'the same weights to the bit' if same else 'THE WEIGHTS DIFFER'}", flush=True)


# What the table's process loads: the controller, and the flags' pictures it draws. The match sheet
# and its analysis are drawn in processes of their own (firmware_host/record/match_report.py).
MEMORY = """
import sys
import firmware_host.controller, game.pictures.flag
from game.board import Variant
from game.position import Position

def peak(pid="self"):
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across fork and exec.
    return next(line.split()[1] for line in open(f"/proc/{pid}/status") if line.startswith("VmHWM:"))

worker = 0
if sys.argv[1] != "none":
    from game.bot import make_bot
    from game.selfplay import random_positions
    variant = Variant(sys.argv[1])
    with make_bot(variant) as bot:
        # The opening, then positions met in random games: the middle game's look-ahead batches
        # and a race's bear-off database are what cost memory, not the first rolls.
        position = Position.initial(variant)
        for dice in ((3, 1), (6, 6), (5, 2)):
            bot.choose_play(position, dice)
        for position, dice in random_positions(variant, int(sys.argv[2]), 21):
            bot.choose_play(position, dice)
            bot.cube_action(position)
        pid = getattr(getattr(bot, "worker", None), "pid", None)
        worker = peak(pid) if pid else 0
print(peak(), worker)
"""


def memory(positions: int) -> None:
    """Peak RSS of a process with the controller loaded, alone and with the bot of each variant (a
    table loads the bot of the variant it plays) made and playing the opening and `positions`
    positions of random games; GNU Backgammon's own worker process is measured apart (it is not
    the controller's memory)."""
    def peak(mode: str) -> tuple[int, int]:
        done = subprocess.run([sys.executable, "-c", MEMORY, mode, str(positions)], capture_output=True, text=True,
                              check=True, cwd=ROOT)
        controller, worker = done.stdout.split()
        return int(controller), int(worker)  # kilobytes

    without, _ = peak("none")
    print(f"memory: the controller alone, peak RSS {without / 1024:.1f} MB")
    for variant in Variant:
        controller, worker = peak(variant.value)
        beside = f"; its engine's worker process {worker / 1024:.1f} MB beside it" if worker else ""
        print(f"  {variant.value:12} bot loaded, {positions} positions played: "
              f"controller peak RSS {controller / 1024:.1f} MB, adds {(controller - without) / 1024:.1f} MB "
              f"(target 30 MB){beside}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per strength pairing")
    parser.add_argument("--positions", type=int, default=100, help="positions per variant (timing, memory)")
    parser.add_argument("--train-games", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=80, help="hidden units of the trained network (training speed)")
    parser.add_argument("--parallel", type=int, default=32, help="games at once (training speed, train --parallel)")
    parser.add_argument("--train-on-games", type=int, default=1000,
                        help="games training on from each shipped network, each way (training speed)")
    parser.add_argument("--only", default="strength,speed,training,memory,bearoff,cube,rollout")
    parser.add_argument("--races", type=int, default=200, help="random races checked against GNU Backgammon")
    parser.add_argument("--rollout-games", type=int, default=72, help="games a candidate (rollout figures)")
    parser.add_argument("--seconds", type=float, default=1.0, help="the rollout level's budget a play (rollout-level)")
    parser.add_argument("--minutes", type=float, default=None, help="stop the rollout-level games after this long")
    parser.add_argument("--dice-seed", type=int, default=7, help="the rollout-level games' dice")
    parser.add_argument("--variants", default=",".join(v.value for v in Variant))
    parser.add_argument("--pairings", default=",".join(DEFAULT_PAIRINGS),
                        help=f"strength pairings, comma-separated among: {', '.join(PAIRINGS)}")
    parser.add_argument("--bg-weights", type=Path, nargs="+", default=None,
                        help="the Backgammon-trained network (python -m game.bot train --variant backgammon); "
                             "--only learner: one or more")
    parser.add_argument("--weights", type=Path, nargs="+", default=None,
                        help="--only against-shipped: variant networks (a run's checkpoints) to play the shipped one")
    parser.add_argument("--bg-level", type=Level.parse, default=Level.ADVANCED,
                        help="--only learner: the network's bot's level (advanced: 0-ply, the learner check's own)")
    parser.add_argument("--luck", action="store_true",
                        help="--only learner, against-shipped: also each figure luck-adjusted (game/bot/luck.py: "
                             "the same mean, a narrower interval)")
    args = parser.parse_args()
    only = set(args.only.split(","))
    variants = [Variant(v) for v in args.variants.split(",")]
    if "strength" in only:
        chosen = {name.strip() for name in args.pairings.split(",")}
        unknown = chosen - set(PAIRINGS)
        if unknown:
            parser.error(f"no pairing {', '.join(sorted(unknown))} (pairings: {', '.join(PAIRINGS)})")
        strength(args.games, variants, args.bg_weights[0] if args.bg_weights else None, chosen)
    if "speed" in only:
        speed(args.positions, variants)
    if "training" in only:
        training(args.train_games, args.hidden, args.parallel, args.train_on_games)
    if "memory" in only:
        memory(args.positions)
    if "bearoff" in only:
        bearoff_figures(args.races)
    if "cube" in only:
        cube_figures(args.positions)
    if "rollout" in only:
        rollout_figures(args.rollout_games, variants)
    if "rollout-level" in only:
        rollout_level(args.games, variants, args.seconds, args.minutes, args.dice_seed)
    _networks(parser, args, only)


def _networks(parser: argparse.ArgumentParser, args: argparse.Namespace, only: set[str]) -> None:
    """The figures of trained networks named on the command line."""
    if "learner" in only:
        if not args.bg_weights:
            parser.error("--only learner needs --bg-weights")
        learner(args.games, args.bg_weights, args.dice_seed, args.bg_level, args.luck)
    if "against-shipped" in only:
        if not args.weights:
            parser.error("--only against-shipped needs --weights")
        against_shipped(args.games, args.weights, args.dice_seed, args.luck)


if __name__ == "__main__":
    main()
