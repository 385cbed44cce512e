"""`python -m game.bot distill`: a network taught its own two-ply judgement.

The default Catchgammon level judges its best plays two plies ahead (`search.two_ply`), and that
look-ahead is most of what it gains over 0-ply. Distilling moves the network itself toward it:
positions from 0-ply self-play (the first plies of each game sampled, as `train --explore` does,
so that the openings vary), and for each roll the best few plays at 0-ply, each labelled with the
network's own two-ply estimate of the position it leaves (`label_position`). The network is then
fitted to those labels (mean squared error of its outputs, Adam; `fit`), with a tenth of the rows
held out to tell how far it came. A network that has learnt its two-ply view at 0-ply looks two
plies ahead from there, as GNU Backgammon's networks were refined on rolled-out positions after
their self-play. Measured on Catchgammon's shipped network (issue 27): the held-out
error fell by a quarter and its play did not gain (game/bot/README.md, "Distilled"); the command
stays for other networks, other teachers and more labels.

Labels cost a two-ply search each (about 35 a second here); `--labels FILE` keeps them, and a run
given an existing file fits from it without playing, so one set of labels serves several fits.
The record names the command, the labels and the held-out error before and after.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from game.arguments import count, output_file, positive
from game.board import Color
from game.bot.base import Level
from game.bot.bearoff import is_race
from game.bot.context import MONEY
from game.bot.encoding import F32, U8, features, flip, states_array
from game.bot.network import Network, mirror
from game.bot.network_bot import FILTER, NetworkBot
from game.bot.search import after_states, estimate_after, final_estimate, two_ply
from game.errors import UsageError, WeightsError
from game.movegen import encode
from game.plays import Play
from game.position import Position

CANDIDATES = 3  # the best plays at 0-ply labelled a roll (within FILTER of the best)
EXPLORE = 10  # plies of each game whose play is sampled
TEMPERATURE = 0.1  # a play 0.1 worse than the best is sampled 1/e as often
MAX_PLIES = 3000
HELD_OUT = 10  # one row in ten is held out of the fit


@dataclass
class Labels:
    """Positions (each the mover's resulting state, `after_states`) and the outcome estimates (N, 5)
    the network should give for them with the opponent on roll."""

    states: U8
    targets: F32
    games: int
    interrupted: bool = False
    """Ctrl-C stopped the labelling: these are the rows made before it."""

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, states=self.states, targets=self.targets, games=np.array(self.games))

    @classmethod
    def load(cls, path: str | Path) -> Labels:
        try:
            with np.load(path, allow_pickle=False) as data:
                labels = cls(data["states"].astype(np.uint8), data["targets"].astype(np.float32), int(data["games"]))
        except (OSError, ValueError, KeyError) as exc:
            raise WeightsError(f"cannot read distillation labels {str(path)!r}: {exc}") from None
        if labels.states.ndim != 2 or labels.targets.shape != (len(labels.states), 5):
            raise WeightsError(f"{str(path)!r}: {labels.states.shape} states and {labels.targets.shape} targets")
        return labels


def label_position(bot: NetworkBot, position: Position, plays: Sequence[Play],
                   candidates: int = CANDIDATES) -> tuple[list[bytes], list[F32], F32]:
    """The labelled rows of one roll's `plays` (one or more, from `position`): for each of the best
    `candidates` at 0-ply (within `FILTER` of the best; none in a race, which the bear-off database
    judges, nor a play that ends the game), the state it leaves and the network's two-ply estimate
    of it for the opponent on roll; then every play's 0-ply equity (for the caller's choice)."""
    net = bot.network

    def equity_of(probs: F32, color: Color) -> F32:
        return bot.equity_of(probs, MONEY, color)

    probs, _ = estimate_after(net, plays, after_states(plays))
    equity = equity_of(probs, position.turn)
    states: list[bytes] = []
    targets: list[F32] = []
    if len(plays) > 1 and not is_race(position):
        order = np.argsort(-equity, kind="stable")
        for index in (int(i) for i in order[:candidates] if equity[i] >= equity[order[0]] - FILTER):
            play = plays[index]
            if final_estimate(play.after_moves) is not None:
                continue
            states.append(encode(play.after_moves))
            targets.append(mirror(two_ply(net, play, equity_of)[None, :])[0])
    return states, targets, equity


def label_games(network: Network, games: int, seed: int, *, candidates: int = CANDIDATES, explore: int = EXPLORE,
                rows: int | None = None, progress: Callable[[int, int], None] | None = None) -> Labels:
    """Labels from `games` games of 0-ply self-play (reproducible from `seed`), or fewer once `rows`
    rows are labelled; `progress(games, rows)` after each game. Ctrl-C ends the labelling with the
    rows made so far (`Labels.interrupted`): an hour of two-ply searches is not thrown away."""
    bot = NetworkBot(network, Level.ADVANCED)
    rng = random.Random(seed)
    states: list[bytes] = []
    targets: list[F32] = []
    played, interrupted = 0, False
    try:
        while played < games and (rows is None or len(states) < rows):
            position, dice = _opening(network, rng)
            for ply in range(MAX_PLIES):
                if position.result() is not None or position.is_remi() or (rows is not None and len(states) >= rows):
                    break
                plays = position.legal_plays(dice)
                if not plays:
                    position = position.pass_turn()
                else:
                    found, labels, equity = label_position(bot, position, plays, candidates)
                    states.extend(found)
                    targets.extend(labels)
                    position = plays[_choose(equity, ply < explore, rng)].next_position
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            played += 1
            if progress:
                progress(played, len(states))
    except KeyboardInterrupt:
        interrupted = True
    kept = len(targets) if rows is None else min(rows, len(targets))  # a row's state and target go in together
    return Labels(states_array(states[:kept]), np.array(targets[:kept], dtype=np.float32).reshape(-1, 5), played,
                  interrupted)


def _opening(network: Network, rng: random.Random) -> tuple[Position, tuple[int, int]]:
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            return Position.initial(network.variant, Color.WHITE if a > b else Color.BLACK), (a, b)


def _choose(equity: F32, sample: bool, rng: random.Random) -> int:
    """The best play, or one drawn with the weight exp((equity - best) / TEMPERATURE)."""
    best = int(np.argmax(equity))
    if not sample or len(equity) == 1:
        return best
    top = float(equity[best])
    weights = [math.exp((float(e) - top) / TEMPERATURE) for e in equity]
    return rng.choices(range(len(equity)), weights=weights)[0]


# -- the fit ---------------------------------------------------------------------------------------


def outputs(network: Network, x: F32) -> F32:
    """The network's raw outputs (before `consistent`) for inputs x (N, inputs)."""
    return network.activations(x)[2]


def error(network: Network, x: F32, targets: F32) -> float:
    """Mean squared error of the raw outputs against the targets."""
    return float(np.mean((outputs(network, x) - targets) ** 2))


def gradients(network: Network, x: F32, targets: F32) -> list[F32]:
    """d error / d each weight array (in `Network.arrays()`'s order) over a batch."""
    h1, h2, y = network.activations(x)
    dz = (2.0 / (len(x) * y.shape[1])) * (y - targets) * y * (1.0 - y)  # (B, 5)
    grads_out = [dz.T @ h1, dz.sum(axis=0)]
    back = dz @ network.w2
    grads_second: list[F32] = []
    if network.second is not None and h2 is not None:
        second = network.second
        dh2 = (dz @ second.out) * h2 * (1.0 - h2)
        grads_second = [dh2.T @ h1, dh2.sum(axis=0), dz.T @ h2]
        back = back + dh2 @ second.w
    dh1 = back * h1 * (1.0 - h1)
    return [dh1.T @ x, dh1.sum(axis=0), *grads_out, *grads_second]


@dataclass
class Fit:
    network: Network
    rows: int
    held_out: int
    before: float
    after: float


def fit(network: Network, labels: Labels, *, rate: float, epochs: int, batch: int = 256, seed: int = 0,
        progress: Callable[[int, float], None] | None = None) -> Fit:
    """A copy of `network` fitted to `labels` by Adam (`rate`, `epochs` passes over the rows in
    batches of `batch`); one row in `HELD_OUT` is kept out and measured before and after."""
    if len(labels.states) < HELD_OUT:
        raise UsageError(f"{len(labels.states)} labelled rows: too few to fit and hold out a tenth")
    net = network.copy()
    x = features(net.variant, flip(net.variant, labels.states))
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    held, used = order[:len(x) // HELD_OUT], order[len(x) // HELD_OUT:]
    before = error(net, x[held], labels.targets[held])
    params = net.arrays()
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    beta1, beta2, eps, step = 0.9, 0.999, 1e-8, 0
    for epoch in range(epochs):
        rng.shuffle(used)
        for start in range(0, len(used), batch):
            rows = used[start:start + batch]
            step += 1
            for p, g, m, v in zip(params, gradients(net, x[rows], labels.targets[rows]), first, second, strict=True):
                m *= beta1
                m += (1.0 - beta1) * g
                v *= beta2
                v += (1.0 - beta2) * g * g
                p -= rate * (m / (1.0 - beta1 ** step)) / (np.sqrt(v / (1.0 - beta2 ** step)) + eps)
        if progress:
            progress(epoch + 1, error(net, x[held], labels.targets[held]))
    return Fit(net, len(used), len(held), before, error(net, x[held], labels.targets[held]))


# -- the command -------------------------------------------------------------------------------------


def distill(args: argparse.Namespace, err: TextIO) -> int:
    """Label (or read `--labels`), fit, write `--out` with its record."""
    network = Network.load(args.init)
    labels_path = Path(args.labels) if args.labels else None
    started = time.perf_counter()
    if labels_path is not None and labels_path.exists():
        labels = Labels.load(labels_path)
        err.write(f"read {len(labels.states)} labelled rows from {labels_path}\n")
    else:
        def told(games: int, rows: int) -> None:
            if err.isatty():
                err.write(f"\r{games}/{args.games} games, {rows} rows labelled, "
                          f"{time.perf_counter() - started:.0f} s")
                err.flush()

        labels = label_games(network, args.games, args.seed, candidates=args.candidates, explore=args.explore,
                             rows=args.rows, progress=told)
        if err.isatty():
            err.write("\n")
        if labels_path is not None:
            labels.save(labels_path)
        if labels.interrupted:
            kept = (f"its {len(labels.states)} labelled rows ({labels.games} games finished) kept in {labels_path}: "
                    "the same command fits them" if labels_path is not None
                    else "nothing kept (--labels FILE keeps the rows)")
            err.write(f"interrupted: distill stopped while labelling; {kept}\n")
            return 130
    labelled = time.perf_counter() - started
    result = fit(network, labels, rate=args.rate, epochs=args.epochs, seed=args.seed)
    net = result.network
    net.record = {
        "command": " ".join(["python -m game.bot distill", f"--init {Path(args.init).name}",
                             f"--games {args.games}", f"--seed {args.seed}", f"--candidates {args.candidates}",
                             f"--explore {args.explore}", f"--rate {args.rate}", f"--epochs {args.epochs}",
                             f"--out {Path(args.out).name}"]
                            + ([f"--rows {args.rows}"] if args.rows else [])
                            + ([f"--labels {labels_path.name}"] if labels_path else [])),
        "hidden": net.hidden,
        "second": 0 if net.second is None else net.second.units,
        "total_games": network.record.get("total_games", 0),
        "distilled": {"games": labels.games, "rows": result.rows, "held_out": result.held_out,
                      "error_before": round(result.before, 7), "error_after": round(result.after, 7),
                      "labelling_seconds": round(labelled, 1)},
        "from": {key: value for key, value in network.record.items() if key != "curve"},
    }
    net.save(args.out)
    err.write(f"wrote {args.out}: {net.describe_shape()} fitted to {result.rows} rows of two-ply labels "
              f"from {labels.games} games; held-out error {result.before:.6f} -> {result.after:.6f} "
              f"({result.held_out} rows)\n")
    return 0


def _rate(text: str) -> float:
    value = float(text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"{text}: a learning rate between 0 and 1")
    return value


def add_parser(commands: Any) -> None:
    """The `distill` command's arguments."""
    p = commands.add_parser("distill", help="teach a network its own two-ply judgement (Catchgammon, Rungammon)")
    p.add_argument("--init", required=True, help="the network to distill (.npz)")
    p.add_argument("--out", required=True, type=output_file, help="the distilled network (.npz)")
    p.add_argument("--games", type=positive, default=600,
                   help="games of 0-ply self-play whose positions are labelled")
    p.add_argument("--rows", type=positive, default=None, help="stop labelling after this many rows")
    p.add_argument("--seed", type=int, default=1, help="the dice and sampled plays; the fit's order")
    p.add_argument("--candidates", type=positive, default=CANDIDATES,
                   help="plays labelled a roll (the best at 0-ply)")
    p.add_argument("--explore", type=count, default=EXPLORE, help="plies of each game whose play is sampled")
    p.add_argument("--rate", type=_rate, default=0.001, help="Adam's learning rate")
    p.add_argument("--epochs", type=positive, default=8, help="passes over the labelled rows")
    p.add_argument("--labels", type=output_file,
                   help="the labels' file (.npz): written, or read instead of playing when it exists")
    p.set_defaults(run=lambda args, out, err: distill(args, err))
