"""The default bot against engines written elsewhere: an open-source Plakoto program's TD-trained
network (Catchgammon) and an open-source Fevga program (Rungammon), games in pairs on the same dice.

    python benchmarks/bench_external.py --engine-dir /work/external/tavli \\
        --engine-python /work/external/venv-tavli/bin/python --games 300
    python benchmarks/bench_external.py --engine-dir /work/external/fevga --games 300

The engine stays outside this tree and is never a dependency: it runs in a process of its own (its
own Python with its own packages, or node) beside this one, and answers one JSON line a question.
This project's rules decide the legal plays of both sides (Catchgammon's for the Plakoto engine,
Rungammon's for the Fevga engine, the standard rule options); the engine only chooses among them,
by its own judgement of the position each one leaves, translated into its own board (see
`plakoto_board` and `fevga_game`). Each dice sequence is played twice, each side White once, so
the luck of the dice falls on both. Cubeless games; a Catchgammon Remi is played again within its
game, as the project's arena does. Each sequence comes from the seed and its number alone, so a
long measurement can be made in parts: `--from-pair N` goes on where a run of N pairs stopped.
`--games-out FILE` keeps each game's line (its dice, our side, our points): `benchmarks/paired.py`
pools the parts' files into one figure and sets two levels side by side on the games both played.
Each game's luck is read beside it (`game/bot/luck.py`; `--luck off` spares the time): the
luck-adjusted win rate and points a game have the plain figures' means and narrower intervals
(measured: worth 2 times the games in Rungammon, 3 to 4 in Catchgammon), and the games' lines keep
it for `paired.py`. The rollout level (`--ours rollout --seconds S`) also prints what its budget
bought (`Tally`).
Our bot plays for money (a gammon counts twice); `--dmp` seats it as in a 1-point match, playing
for the win alone, which is what the win rate counts.

Engines (`--engine` or found from the folder's files):
- `tavli`: johannesnorbertwolf/tavli, Plakoto, a TD(lambda) self-play network in PyTorch. Its
  1-ply setting (`Agent._evaluate_moves_batch`, the level it uses in its own evaluations against
  its gold models): each play scored as 1 - the network's value of the position after it for the
  opponent on roll; 1 for a play that wins by its rules (all off, or the opponent's last checker
  on its start trapped); the exact value of its bear-off database in a race. `--model` picks the
  checkpoint (default: the one its config names as its reference, `gold_model_path`).
- `fevga`: mvichosfm/fevga, Fevga, `src/engine.js`. Its expert level (5): every play scored by its
  self-play-tuned evaluation, the best 10 searched two plies (the opponent's best reply averaged
  over the 21 rolls, `replyValue`), as its `chooseMove` does for its own plays; `--level 4` is its
  advanced level (the evaluation alone).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from game.arguments import count as pair_number
from game.arguments import new_file, on_off, standard_errors, truncation
from game.board import Color, Variant
from game.bot.arena import Player, Score, play_game
from game.bot.base import DEFAULT_LEVEL, Bot, Level
from game.bot.context import MatchContext
from game.bot.factory import make_bot
from game.bot.luck import Luck, LuckMeter, describe_adjusted, mean_half_width
from game.bot.network import Network
from game.bot.network_bot import NetworkBot
from game.bot.rollout_bot import RolloutBot, Tally
from game.errors import GameError
from game.plays import Play
from game.position import Position

TAVLI_WHITE, TAVLI_BLACK = 1, -1
"""The Plakoto program's colours: its White starts on its point 1 and runs up to 24, its Black
starts on 24 and runs down to 1."""


class EngineFailed(GameError, RuntimeError):
    """The external engine could not be started, or answered what it was not asked."""


# -- translations (pure: tests/game/bot/test_bot_external.py checks them on hand-built positions) --

def tavli_color(color: Color) -> int:
    """The Plakoto program's colour of this project's `color` in Catchgammon.

    This project's White runs from board point 24 down to 1 and bears off below 1, as that
    program's Black does; this project's Black runs from 1 up to 24, as its White does. So the
    board points keep their numbers and the colours swap."""
    return TAVLI_BLACK if color is Color.WHITE else TAVLI_WHITE


def plakoto_board(position: Position) -> dict[str, Any]:
    """A Catchgammon position as the Plakoto program's `Board` holds it: 26 slots, slot i (1-24) =
    board point i, per slot the count of the checkers that own it (`n`), their colour (`color`,
    0 when empty) and whether one opposing checker is trapped under them (`pinned`); slot 0 holds
    the checkers its Black (this project's White) has borne off, slot 25 its White's; `off` is
    borne off per colour, keyed by its colour number as text."""
    if position.variant is not Variant.CATCHGAMMON:
        raise ValueError(f"the Plakoto program plays Catchgammon positions, not {position.variant.value}")
    n = [0] * 26
    color = [0] * 26
    pinned = [False] * 26
    for index, stack in enumerate(position.points, start=1):
        if not stack:
            continue
        owner = Color.WHITE if stack[-1] == Color.WHITE.char else Color.BLACK
        under = len(stack) - len(stack.lstrip(owner.opponent.char))
        n[index] = len(stack) - under
        color[index] = tavli_color(owner)
        pinned[index] = under == 1
        if under > 1:
            raise ValueError(f"point {index} holds {under} trapped checkers ({stack!r}): the program allows one")
    white_off, black_off = position.off
    for slot, count, owner in ((0, white_off, Color.WHITE), (25, black_off, Color.BLACK)):
        n[slot] = count
        color[slot] = tavli_color(owner) if count else 0
    return {"n": n, "color": color, "pinned": pinned,
            "off": {str(tavli_color(Color.WHITE)): white_off, str(tavli_color(Color.BLACK)): black_off}}


def fevga_side(color: Color) -> int:
    """The Fevga program's player number of `color`: 0 White, 1 Black."""
    return color.index


def fevga_game(position: Position) -> dict[str, Any]:
    """A Rungammon position as the Fevga program's game holds it: `pos[p][r]` the checkers of player
    p (0 White, 1 Black) on its own point r (1-24; each side runs its own 24 down to 1, as in
    Rungammon, so this project's own points are the program's), `off` borne off per player."""
    if position.variant is not Variant.RUNGAMMON:
        raise ValueError(f"the Fevga program plays Rungammon positions, not {position.variant.value}")
    pos = []
    for color in (Color.WHITE, Color.BLACK):
        counts = [0] * 25
        for own in range(1, 25):
            counts[own] = position.own_stack(color, own).count(color.char)
        pos.append(counts)
    return {"pos": pos, "off": list(position.off)}


# -- the engines' processes ------------------------------------------------------------------

TAVLI_ADAPTER = r'''
import contextlib, json, os, sys
engine_dir, model = sys.argv[1], sys.argv[2]
os.chdir(engine_dir)
sys.path.insert(0, engine_dir)
import numpy as np
import torch
from config.config_loader import ConfigLoader
from ai.checkpoint_io import load_agent_from_checkpoint
from domain.board import Board
torch.set_num_threads(1)
config = ConfigLoader("config/config.yml")
model = model or config.config["gold_model_path"]
with contextlib.redirect_stdout(sys.stderr):  # what it prints while loading (its bear-off database's
    agent, meta = load_agent_from_checkpoint(model, config)  # first build) stays off the answers' stream
print(json.dumps({"model": model, "encoder": meta.get("encoder_version"), "hidden": meta.get("hidden_sizes"),
                  "bearoff": agent.bearoff is not None}), flush=True)

def board_of(doc):
    board = Board()
    board.n, board.color, board.pinned = list(doc["n"]), list(doc["color"]), list(doc["pinned"])
    board.borne_off = {int(c): k for c, k in doc["off"].items()}
    return board

for line in sys.stdin:
    request = json.loads(line)
    mover = request["mover"]
    opponent_is_white = mover != 1
    scores, encoded, at = [], [], []
    # the steps of its Agent._evaluate_moves_batch (1-ply), on the positions our plays leave
    for index, doc in enumerate(request["afters"]):
        board = board_of(doc)
        if board.has_won(mover):
            scores.append(1.0)
            continue
        exact = agent._exact_value(board, opponent_is_white)
        if exact is not None:
            scores.append(1.0 - exact)
            continue
        scores.append(None)
        encoded.append(agent.board_encoder.encode_board(board, is_whites_turn=opponent_is_white))
        at.append(index)
    if encoded:
        with torch.no_grad():
            values = agent.board_evaluator(torch.from_numpy(np.stack(encoded)).float()).squeeze(1).numpy()
        for j, index in enumerate(at):
            scores[index] = 1.0 - float(values[j])
    print(json.dumps({"scores": scores}), flush=True)
'''

FEVGA_ADAPTER = r'''
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import readline from 'node:readline';
// Its expert level's look-ahead (replyValue) is not exported: load the same file with one line
// added that exports it, so what runs is the program's own code.
const source = readFileSync(process.argv.at(-1), 'utf8');
const folder = mkdtempSync(join(tmpdir(), 'fevga-'));
const copy = join(folder, 'engine.mjs');
const exports = 'export { replyValue as __replyValue, leafView as __leafView, LEVEL_CONFIG as __LEVEL_CONFIG };';
writeFileSync(copy, source + '\n' + exports + '\n');
const E = await import(pathToFileURL(copy).href);
rmSync(folder, { recursive: true });
console.log(JSON.stringify({ levels: Object.keys(E.__LEVEL_CONFIG) }));
const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  const q = JSON.parse(line);
  const g = { pos: [Int8Array.from(q.game.pos[0]), Int8Array.from(q.game.pos[1])], off: q.game.off };
  const v = E.viewOf(g, q.p);
  const finals = q.finals.map((f, i) => ({ i, mine: Int8Array.from(f.mine), myOff: f.myOff }));
  // the steps of its chooseMove at this level (no noise, no random plays), over our legal plays
  const cfg = E.__LEVEL_CONFIG[q.level];
  const W = cfg.W;
  const scored = finals.map((f) => ({ f, s: E.evaluate(E.__leafView(v, f), W) }));
  scored.sort((a, b) => b.s - a.s);
  let best = scored[0], bestV = -Infinity;
  if (cfg.topN) {
    for (const c of scored.slice(0, cfg.topN)) {
      const val = E.__replyValue(v, c.f, W);
      if (val > bestV) { bestV = val; best = c; }
    }
  }
  console.log(JSON.stringify({ choice: best.f.i }));
}
'''


class EngineProcess:
    """One engine process: a JSON line asked, a JSON line answered. The first line it writes says
    what it loaded."""

    def __init__(self, command: Sequence[str], cwd: Path) -> None:
        self.command = list(command)
        try:
            self._process = subprocess.Popen(self.command, cwd=cwd, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, text=True, bufsize=1)
        except OSError as error:
            raise EngineFailed(f"cannot start {self.command[0]}: {error}") from error
        self.loaded = self._read()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The engine's answer to one question."""
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        return self._read()

    def _read(self) -> dict[str, Any]:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise EngineFailed(f"{' '.join(self.command[:2])} ended (exit {self._process.wait()}); "
                               "its error stream above says why")
        try:
            answer: dict[str, Any] = json.loads(line)
        except json.JSONDecodeError:
            raise EngineFailed(f"{' '.join(self.command[:2])} answered a line that is not JSON: "
                               f"{line.strip()[:200]!r}") from None
        return answer

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)


class TavliPlayer:
    """The Plakoto program's network at its 1-ply setting, choosing among Catchgammon's legal plays."""

    variant = Variant.CATCHGAMMON

    def __init__(self, engine_dir: Path, python: str, model: str | None) -> None:
        self.process = EngineProcess([python, "-c", TAVLI_ADAPTER, str(engine_dir), model or ""], engine_dir)
        self.name = f"tavli {self.process.loaded['model']} at 1-ply"

    def choose_play(self, position: Position, dice: tuple[int, int]) -> Play | None:
        plays = list(position.legal_plays(dice))
        if len(plays) <= 1:
            return plays[0] if plays else None
        answer = self.process.ask({"mover": tavli_color(position.turn),
                                   "afters": [plakoto_board(play.after_moves) for play in plays]})
        scores: list[float] = answer["scores"]
        return plays[max(range(len(plays)), key=scores.__getitem__)]

    def close(self) -> None:
        self.process.close()


class FevgaPlayer:
    """The Fevga program at one of its levels (5 expert, 4 advanced), choosing among Rungammon's
    legal plays."""

    variant = Variant.RUNGAMMON

    def __init__(self, engine_dir: Path, level: int) -> None:
        if level not in (4, 5):
            raise ValueError(f"--level {level}: the Fevga program's levels 4 and 5 play without chance")
        self.level = level
        self.process = EngineProcess(["node", "--input-type=module", "-e", FEVGA_ADAPTER, "--",
                                      str(engine_dir / "src" / "engine.js")], engine_dir)
        self.name = f"fevga level {level}"

    def choose_play(self, position: Position, dice: tuple[int, int]) -> Play | None:
        plays = list(position.legal_plays(dice))
        if len(plays) <= 1:
            return plays[0] if plays else None
        side = fevga_side(position.turn)
        finals = []
        for play in plays:
            after = fevga_game(play.after_moves)
            finals.append({"mine": after["pos"][side], "myOff": after["off"][side]})
        answer = self.process.ask({"game": fevga_game(position), "p": side, "finals": finals,
                                   "level": self.level})
        return plays[int(answer["choice"])]

    def close(self) -> None:
        self.process.close()


# -- the rules, checked against the engine's own move generator --------------------------------

FEVGA_FINALS = """
import * as E from '{engine}';
import {{ readFileSync }} from 'node:fs';
const cases = JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify(cases.map((c) => {{
  const g = {{ pos: [Int8Array.from(c.game.pos[0]), Int8Array.from(c.game.pos[1])], off: c.game.off }};
  return E.finalPositions(E.viewOf(g, c.p), E.expandDice(c.dice))
    .map((f) => Array.from(f.mine).join(',') + '|' + f.myOff).sort();
}})));
"""

TAVLI_FINALS = """
import json, sys
sys.path.insert(0, sys.argv[1])
from domain.board import Board
from domain.dice import Dice
from domain.move_generation import legal_moves
out = []
for case in json.load(sys.stdin):
    doc = case["board"]
    board = Board()
    board.n, board.color, board.pinned = list(doc["n"]), list(doc["color"]), list(doc["pinned"])
    board.borne_off = {int(c): k for c, k in doc["off"].items()}
    dice = Dice()
    dice.set(*case["dice"])
    afters = set()
    for move in legal_moves(board, case["color"], dice):
        token = board.apply(move, case["color"])
        afters.add(json.dumps({"n": board.n, "color": board.color, "pinned": board.pinned,
                               "off": {str(c): k for c, k in board.borne_off.items()}}, sort_keys=True))
        board.undo(token)
    out.append(sorted(afters))
print(json.dumps(out))
"""

TAVLI_AGREEMENT = 0.95
"""The share of positions on which the Plakoto program must reach exactly our legal plays'
positions: it also ends a turn after one die when the first die played leaves the second
unplayable (its rules.md), which Catchgammon forbids, so a few positions differ by that alone."""


def check_rules(kind: str, engine_dir: Path, python: str, positions: int = 300, seed: int = 5) -> tuple[int, int]:
    """On `positions` random positions of the engine's variant, how many the engine's own move
    generator, from the translated position, reaches exactly the positions our legal plays reach
    (translated): (agreeing, compared). The Plakoto program is compared outside bear-offs (it bears
    off only with the exact number)."""
    from game.selfplay import random_positions

    if kind == "fevga":
        cases, ours = [], []
        for position, dice in random_positions(Variant.RUNGAMMON, positions, seed):
            side = fevga_side(position.turn)
            cases.append({"game": fevga_game(position), "p": side, "dice": list(dice)})
            keys = set()
            for play in position.legal_plays(dice):
                after = fevga_game(play.after_moves)
                keys.add(",".join(map(str, after["pos"][side])) + "|" + str(after["off"][side]))
            ours.append(sorted(keys))
        script = FEVGA_FINALS.format(engine=(engine_dir / "src" / "engine.js").as_uri())
        command = ["node", "--input-type=module", "-e", script]
    else:
        cases, ours = [], []
        for position, dice in random_positions(Variant.CATCHGAMMON, positions, seed):
            plays = list(position.legal_plays(dice))
            if any(play.after_moves.off != position.off for play in plays):
                continue
            cases.append({"board": plakoto_board(position), "color": tavli_color(position.turn), "dice": list(dice)})
            ours.append(sorted({json.dumps(plakoto_board(play.after_moves), sort_keys=True) for play in plays}))
        command = [python, "-c", TAVLI_FINALS, str(engine_dir)]
    try:
        done = subprocess.run(command, input=json.dumps(cases), capture_output=True, text=True, timeout=600,
                              check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise EngineFailed(f"{kind}: its move generator could not be asked ({exc})") from None
    theirs = json.loads(done.stdout)
    return sum(a == b for a, b in zip(ours, theirs, strict=True)), len(cases)


# -- the match -------------------------------------------------------------------------------

def engine_kind(engine_dir: Path) -> str:
    """Which engine a folder holds, from its files."""
    if (engine_dir / "ai" / "agent.py").is_file() and (engine_dir / "domain" / "board.py").is_file():
        return "tavli"
    if (engine_dir / "src" / "engine.js").is_file():
        return "fevga"
    raise EngineFailed(f"{engine_dir}: neither the Plakoto program (ai/agent.py) nor the Fevga program "
                       "(src/engine.js)")


def fingerprint(path: Path) -> str:
    """The first 12 hex digits of a file's SHA-256: which weights or code were measured."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


PROGRESS_SECONDS = 120.0
"""A progress line every 25 pairs, or after the first pair that ends this long after the last line
(the rollout level plays a pair in about 40 s)."""


def paired_match(ours: Player, theirs: Player, variant: Variant, pairs: int, seed: int,
                 progress: bool = True, first: int = 0, games_out: TextIO | None = None,
                 luck: LuckMeter | None = None) -> Score:
    """`pairs` dice sequences, each played twice: our bot White, then Black. Score is ours. The
    sequences are those numbered `first`, `first` + 1, ... of the seed's (each from the seed and its
    number alone), so that a run from `first` = N goes on where one of N pairs stopped. `games_out`:
    each game's line as it ends (`benchmarks/paired.py` pools such files and sets two apart).
    `luck`: each game's luck for our side read beside it (the games are the same), kept in its
    `games` and on the game's line."""
    wins = points = squares = remis = 0
    started = said = time.monotonic()
    for played, pair in enumerate(range(first, first + pairs), start=1):
        for color in (Color.WHITE, Color.BLACK):
            if luck is not None:
                luck.start(color)
            outcome = play_game(ours, theirs, variant, random.Random(seed * 1_000_003 + pair), color, luck)
            game = luck.finish(outcome.points) if luck is not None else None
            if games_out is not None:
                games_out.write(game_line(seed, pair, color, outcome.points, outcome.remis,
                                          game.luck if game is not None else None))
                games_out.flush()  # a run stopped part way keeps the games it played
            wins += outcome.won
            points += outcome.points
            squares += outcome.points * outcome.points
            remis += outcome.remis
        if progress and (played % 25 == 0 or time.monotonic() - said >= PROGRESS_SECONDS):
            so_far = Score(wins, 2 * played, points, squares, remis)
            adjusted = "" if luck is None else \
                f"; luck-adjusted {100 * mean_half_width([g.wins for g in luck.games[-2 * played:]])[0]:.1f}%"
            print(f"  {so_far.describe()}{adjusted} ({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)
            said = time.monotonic()
    return Score(wins, 2 * pairs, points, squares, remis)


def game_line(seed: int, pair: int, ours: Color, points: int, remis: int, luck: Luck | None = None) -> str:
    """One game of a measurement as a JSON line: its dice (seed, pair), our side, our points, and
    with `luck` our luck in the chance of winning and in points."""
    line: dict[str, Any] = {"seed": seed, "pair": pair, "ours": ours.value, "points": points, "remis": remis}
    if luck is not None:
        line |= {"luck_wins": round(luck.wins, 5), "luck_points": round(luck.points, 5)}
    return json.dumps(line) + "\n"


DOUBLE_MATCH_POINT = MatchContext(length=1)
"""A 1-point match: whoever wins the game wins the match, so a gammon or triple is worth no more
than a single win and the bot plays for the win alone (`--dmp`)."""


class AtScore:
    """This project's bot choosing its plays as at a match score (`context`) rather than for money."""

    def __init__(self, bot: Bot, context: MatchContext) -> None:
        self.bot, self.context = bot, context

    def choose_play(self, position: Position, dice: tuple[int, int]) -> Play | None:
        return self.bot.choose_play(position, dice, self.context)


def our_bot(args: argparse.Namespace, variant: Variant, error: Callable[[str], NoReturn]) -> tuple[Bot, str]:
    """This project's bot as the arguments ask, and what its line says of it beside its name."""
    ours: Bot = make_bot(variant, args.ours, seed=1, seconds=args.seconds) if args.ours_weights is None else \
        NetworkBot(Network.load(args.ours_weights), Level.parse(args.ours), seed=1)
    if ours.variant is not variant:
        error(f"--ours-weights {args.ours_weights}: a {ours.variant.value} network, not {variant.value}")
    if args.two_ply is not None:
        if not isinstance(ours, NetworkBot):
            error(f"--two-ply {args.two_ply}: only this project's network bot looks two plies ahead")
        ours.two_ply = args.two_ply
    deeper = ours.two_ply if isinstance(ours, NetworkBot) else 0
    weights = f" from {args.ours_weights}" if args.ours_weights else ""
    if isinstance(ours, RolloutBot):
        if args.rollout_plies is not False:
            ours.plies = args.rollout_plies
        ours.confidence = args.confidence
        if args.rollout_luck is not None:
            ours.luck = args.rollout_luck
        truncated = "to the end" if ours.plies is None else f"{ours.plies} plays deep"
        weights += f", its games {truncated}{'' if ours.luck else ' without luck adjustment'}, " + (
            f"the expert's play overruled by a lead of more than {ours.confidence:g} standard errors" if ours.confidence
            else "the best mean played")
    if deeper:
        weights += f", its best {deeper} plays two plies ahead"
    elif args.two_ply == 0:
        weights += ", no play two plies ahead"
    return ours, weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine-dir", type=Path, required=True, help="the engine's folder, outside this tree")
    parser.add_argument("--engine", choices=("tavli", "fevga"), help="default: found from the folder's files")
    parser.add_argument("--engine-python", default=sys.executable,
                        help="the Python that has the Plakoto program's packages (torch, numpy, pyyaml)")
    parser.add_argument("--model", help="the Plakoto program's checkpoint (default: its config's gold_model_path)")
    parser.add_argument("--level", type=int, default=5, help="the Fevga program's level (5 expert, 4 advanced)")
    parser.add_argument("--ours", default=DEFAULT_LEVEL.value, help="this project's level (default: the default)")
    parser.add_argument("--ours-weights", type=Path,
                        help="this project's network from this file instead of the shipped one (a candidate)")
    parser.add_argument("--two-ply", type=int, default=None, metavar="N",
                        help="this project's network bot judges its best N plays again two plies ahead "
                             "(0: none; default: its level's, Catchgammon's expert 2)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="the rollout level's budget a play (`--ours rollout`; default: its own)")
    parser.add_argument("--rollout-plies", type=truncation, default=False, metavar="N",
                        help="the rollout level's games judged after N plays (none: to the end; default: its own)")
    parser.add_argument("--rollout-luck", type=on_off, default=None, metavar="on|off",
                        help="the rollout level's games luck-adjusted or not (default: its own, on for its network)")
    parser.add_argument("--confidence", type=standard_errors, default=0.0, metavar="Z",
                        help="the rollout level plays a rolled-out play over the expert's first only when it "
                             "leads by more than Z standard errors (default 0: the best mean)")
    parser.add_argument("--dmp", action="store_true",
                        help="this project's bot plays each game as a 1-point match (double match point): for "
                             "the win alone, which the win rate measures (default: for money, gammons double)")
    parser.add_argument("--luck", type=on_off, default=True, metavar="on|off",
                        help="read each game's luck for our side beside it (the shipped network's 0-ply values) and "
                             "print the luck-adjusted figures: the same means, smaller intervals, a quarter to a "
                             "half more time (default on)")
    parser.add_argument("--games", type=int, default=300, help="games, an even number (pairs on the same dice)")
    parser.add_argument("--seed", type=int, default=1, help="the dice")
    parser.add_argument("--from-pair", type=pair_number, default=0, metavar="N",
                        help="start at the seed's pair N (0 first): go on where a run of N pairs stopped")
    parser.add_argument("--games-out", type=new_file, metavar="FILE",
                        help="each game's line (JSON: seed, pair, our side, our points), for benchmarks/paired.py")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--check-only", action="store_true",
                        help="only check the engine's rules against ours (done before every measurement)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games {args.games}: an even number of at least 2 (each dice sequence twice)")
    if args.seconds is not None and (args.ours != Level.ROLLOUT.value or args.ours_weights is not None):
        parser.error(f"--seconds {args.seconds}: a budget is for the rollout level (--ours rollout) only")
    for given, name in ((args.rollout_plies is not False, "--rollout-plies"), (args.confidence != 0, "--confidence"),
                        (args.rollout_luck is not None, "--rollout-luck")):
        if given and (args.ours != Level.ROLLOUT.value or args.ours_weights is not None):
            parser.error(f"{name}: for the rollout level (--ours rollout) only")
    engine_dir: Path = args.engine_dir.resolve()
    kind = args.engine or engine_kind(engine_dir)
    agree, compared = check_rules(kind, engine_dir, args.engine_python)
    needed = compared if kind == "fevga" else TAVLI_AGREEMENT * compared
    print(f"{kind}'s own move generator reaches our legal plays' positions on {agree} of {compared} random "
          f"positions (needed: {needed:.0f})")
    if agree < needed:
        print(f"bench_external: {kind}'s rules and ours disagree beyond what is known: not measured", file=sys.stderr)
        return 1
    if args.check_only:
        return 0
    theirs: TavliPlayer | FevgaPlayer
    if kind == "tavli":
        theirs = TavliPlayer(engine_dir, args.engine_python, args.model)
        measured = engine_dir / str(theirs.process.loaded["model"])
    else:
        theirs = FevgaPlayer(engine_dir, args.level)
        measured = engine_dir / "src" / "engine.js"
    variant = theirs.variant
    ours, weights = our_bot(args, variant, parser.error)
    dice = f"seed {args.seed}" + (f", from pair {args.from_pair}" if args.from_pair else "")
    playing_for = "as 1-point matches (for the win alone)" if args.dmp else "for money"
    print(f"{variant.value}: this project's {ours.name}{weights} against {theirs.name} "
          f"({measured.name} sha256 {fingerprint(measured)}), {args.games} cubeless games in pairs on the same "
          f"dice ({dice}), this project's rules for both sides, ours playing {playing_for}")
    tally = None  # what the rollout level's budget bought, play by play
    if isinstance(ours, RolloutBot):
        ours.tally = tally = Tally()
    meter = LuckMeter.shipped(variant) if args.luck else None
    started = time.monotonic()
    games_out = open(args.games_out, "x", encoding="utf-8") if args.games_out else None
    try:
        seated: Player = AtScore(ours, DOUBLE_MATCH_POINT) if args.dmp else ours
        score = paired_match(seated, theirs, variant, args.games // 2, args.seed, not args.no_progress,
                             args.from_pair, games_out, meter)
    finally:
        theirs.close()
        if games_out is not None:
            games_out.close()
    low, high = score.interval()
    print(f"  ours: {score.describe()}")
    print(f"  win rate {100 * score.rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}] (Wilson 95%), "
          f"{score.equity:+.3f} +- {score.equity_half_width():.3f} points per game, "
          f"{time.monotonic() - started:.0f} s")
    if meter is not None:
        print(f"  {describe_adjusted(meter.games)}")
    if tally is not None:
        print(f"  the rollout level: {tally.describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
