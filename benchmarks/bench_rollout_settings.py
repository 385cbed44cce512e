"""Which truncation the rollout level should play by: its choices at each setting against long
untruncated rollouts of the same decisions.

Run from the repository root:

    python benchmarks/bench_rollout_settings.py --variant catchgammon --positions 40 \\
        --reference-rounds 324 --seconds 0.5 --plies 1,2,3,5,8,none --confidence 0,1,2 \\
        --references cg-references.jsonl

The decisions: positions the expert level meets playing itself (`--seed`), every `--every`-th one
where its filter leaves two or more plays to roll out (`rollout_bot.split_candidates`). The
reference: each of those plays rolled out to the game's end (or its race: the bear-off database's
exact value), luck-adjusted, `--reference-rounds` games a play on the same rotated dice (324: every
first roll nine times); its own error is printed beside it (the standard error of the best play's
lead). Then the rollout level at each setting of `plies` (`none`: to the end) chooses among the
same plays within `--seconds`, its clock the process's CPU time (`time.thread_time`), so that a
setting buys the same work however busy the machine; `--repeats` dice seeds each. Each setting's
rollouts are judged at every `--confidence` (`rollout_bot.overruling`: how many standard errors a
rollout must lead by to overrule the expert's first play), and with `--luck on,off` with its games
luck-adjusted and not. A setting's figures: how often it plays the reference's best, the equity it
gives up by the reference's judgement, a decision, with its standard error, the rounds its budget
bought, and how sure its choice was (`lead se`: the median standard error of its best mean's lead
over its second, paired): the expert alone (no rollout) beside them. Luck adjustment changes the
cost of a game and its spread, not what the games estimate: at one truncation, `lead se` alone says
which of the two buys more certainty with the same CPU. The reference's games are played at
0-ply, as the level's are: a setting's loss measures its agreement with 0-ply play, not its
strength (in Catchgammon five plays deep lost least here and lost clearly to the default level
against the Plakoto program). Measure a setting against an engine before keeping it
(`bench_external.py --ours rollout --rollout-plies N`).

The reference is most of the work (about a minute of CPU a decision in Catchgammon). `--references
FILE` keeps it, a JSON line a decision after a line naming what it was made with: a run that finds
the file goes on from its last decision, and a later run of other settings reuses it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.arguments import count, on_off, output_file, positive, standard_errors, truncation
from game.board import Color, Variant
from game.bot.base import Bot, Level, RankedPlay
from game.bot.factory import make_bot
from game.bot.luck import mean_error
from game.bot.rollout import GameDice, Rollout
from game.bot.rollout_bot import CANDIDATES, RolloutBot, overruling, split_candidates
from game.position import Position


@dataclass(frozen=True, slots=True)
class Decision:
    """A position and roll, the plays the rollout level would roll out, and their reference equities."""

    position: Position
    dice: tuple[int, int]
    head: tuple[RankedPlay, ...]
    reference: tuple[float, ...]
    lead_error: float
    """The standard error of the reference's best play's lead over the second (paired games)."""

    def to_line(self) -> str:
        """The decision as a line of a references file."""
        return json.dumps({"position": self.position.to_document(), "dice": list(self.dice),
                           "plays": [entry.play.notation() for entry in self.head],
                           "reference": list(self.reference), "lead_error": self.lead_error}) + "\n"

    def loss(self, notation: str) -> float:
        """The equity the play `notation` gives up by the reference's judgement."""
        for entry, value in zip(self.head, self.reference, strict=True):
            if entry.play.notation() == notation:
                return max(self.reference) - value
        raise ValueError(f"{notation} is not one of the plays rolled out")


@dataclass(slots=True)
class Tallied:
    """One setting's choices: the losses, how many were the reference's best, and the rounds."""

    losses: list[float] = field(default_factory=list)
    best: int = 0
    rounds: list[int] = field(default_factory=list)
    leads: list[float] = field(default_factory=list)
    """The standard error of the best mean's lead over the second's (paired games), a decision."""

    def line(self, label: str) -> str:
        mean, error = mean_error(self.losses) if len(self.losses) > 1 else (self.losses[0], math.inf)
        rounds = f"{median(self.rounds):>6}" if self.rounds else f"{'-':>6}"
        lead = f"{median(self.leads):9.4f}" if self.leads else f"{'-':>9}"
        return (f"{label:<24} {100 * self.best / len(self.losses):6.1f}% {mean:+9.4f} {error:8.4f} {rounds} {lead}")


def median(values: Sequence[float]) -> float:
    """The middle value (the upper of the two middle ones)."""
    return sorted(values)[len(values) // 2]


def lead_error(games: list[list[float]]) -> float:
    """How sure a rollout's choice was: the standard error of the lead of the best mean over the
    second best, from their paired games (the same dice game by game)."""
    order = sorted(range(len(games)), key=lambda i: -sum(games[i]) / len(games[i]))
    return mean_error([a - b for a, b in zip(games[order[0]], games[order[1]], strict=True)])[1]


class ReferencesError(ValueError):
    """A references file that this run cannot use: the message names the file and line."""


Met = tuple[Position, tuple[int, int], list[RankedPlay]]
"""A decision met in play: the position, the roll and the plays the rollout level would roll out."""


def decisions(bot: Bot, variant: Variant, wanted: int, every: int, seed: int) -> Iterator[Met]:
    """Positions the expert meets playing itself, every `every`-th one with two or more candidates."""
    rng = random.Random(seed)
    met = found = 0
    while found < wanted:
        position = Position.initial(variant, rng.choice((Color.WHITE, Color.BLACK)))
        while position.result() is None and not position.is_remi() and found < wanted:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            ranked = bot.rank_plays(position, dice)
            if not ranked:
                position = position.pass_turn()
                continue
            head, _ = split_candidates(ranked, CANDIDATES)
            if len(head) >= 2:
                met += 1
                if met % every == 0:
                    found += 1
                    yield position, dice, head
            position = ranked[0].play.after_moves
            if position.result() is None and not position.is_remi():
                position = position.pass_turn()


def reference(bot: Bot, position: Position, dice: tuple[int, int], head: list[RankedPlay], rounds: int,
              seed: int) -> Decision:
    """The plays of `head` rolled out to the end, `rounds` games each on the same dice."""
    rollout = Rollout(bot, luck=True, plies=None)
    values: list[list[float]] = [[] for _ in head]
    for game in range(rounds):
        for entry, kept in zip(head, values, strict=True):
            value, luck = rollout.play_out(entry, position.turn, GameDice(seed, game))
            kept.append(value - luck)
    means = [mean_error(kept)[0] for kept in values]
    order = sorted(range(len(head)), key=lambda i: -means[i])
    lead = [a - b for a, b in zip(values[order[0]], values[order[1]], strict=True)]
    return Decision(position, dice, tuple(head), tuple(means), mean_error(lead)[1])


def references_header(args: argparse.Namespace) -> dict[str, Any]:
    """What a references file's decisions were made with: a run with other values cannot use them."""
    return {"variant": args.variant, "seed": args.seed, "every": args.every, "reference_rounds": args.reference_rounds,
            "candidates": CANDIDATES}


def read_references(path: Path, header: dict[str, Any]) -> list[dict[str, Any]]:
    """The decisions kept in `path` (none when it is not there); `ReferencesError` when it was made
    with other values than `header`'s or a line is not a decision's."""
    if not path.exists():
        return []
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ReferencesError(f"{path}:{number}: not a references file's line: {exc}") from None
    if not found:
        return []
    if found[0] != header:
        raise ReferencesError(f"{path}:1: made with {found[0]}, not {header}: name another file for this run")
    for number, line in enumerate(found[1:], start=2):
        if not isinstance(line, dict) or not {"position", "dice", "plays", "reference", "lead_error"} <= line.keys():
            raise ReferencesError(f"{path}:{number}: not a decision's line")
    return found[1:]


def kept_decision(kept: dict[str, Any], met: Met, where: str) -> Decision:
    """A decision read back, checked against the one this run meets in the same place."""
    position, dice, head = met
    if (Position.from_document(kept["position"]) != position or tuple(kept["dice"]) != dice
            or kept["plays"] != [entry.play.notation() for entry in head]):
        raise ReferencesError(f"{where}: not the decision this run meets there ({position.to_json()}, dice "
                              f"{dice[0]}{dice[1]}): made by another network?")
    return Decision(position, dice, tuple(head), tuple(kept["reference"]), kept["lead_error"])


def plies_setting(text: str) -> list[int | None]:
    """--plies: a comma-separated list of numbers of plays, `none` for to the end."""
    return [truncation(part) for part in text.split(",")]


def confidences(text: str) -> list[float]:
    """--confidence: a comma-separated list of standard errors, 0 or more."""
    return [standard_errors(part) for part in text.split(",")]


def luck_settings(text: str) -> list[bool]:
    """--luck: a comma-separated list of `on` (luck-adjusted games) and `off`."""
    try:
        return [on_off(part) for part in text.split(",")]
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{text.strip()!r}: on, off or both (on,off)") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", choices=[v.value for v in Variant if v is not Variant.BACKGAMMON],
                        default="catchgammon")
    parser.add_argument("--positions", type=positive, default=40)
    parser.add_argument("--every", type=positive, default=5, help="take every N-th decision with two candidates")
    parser.add_argument("--reference-rounds", type=positive, default=324)
    parser.add_argument("--seconds", type=float, default=0.5, help="the rollout level's CPU budget a decision")
    parser.add_argument("--plies", type=plies_setting, default=plies_setting("1,2,3,5,8,none"))
    parser.add_argument("--confidence", type=confidences, default=confidences("0"),
                        help="standard errors a rollout must lead by to overrule the expert (a list; default 0)")
    parser.add_argument("--luck", type=luck_settings, default=luck_settings("on"),
                        help="the level's games luck-adjusted (on), not (off), or each in turn (on,off)")
    parser.add_argument("--repeats", type=positive, default=3, help="dice seeds for each setting's choice")
    parser.add_argument("--seed", type=count, default=1)
    parser.add_argument("--references", type=output_file, help="a file to keep the references in and read them from")
    args = parser.parse_args(argv)
    variant = Variant(args.variant)
    expert = make_bot(variant, Level.EXPERT, seed=args.seed)
    print(f"command: python benchmarks/bench_rollout_settings.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(f"{variant.value}: {args.positions} decisions of the expert playing itself (seed {args.seed}), each "
          f"judged by {args.reference_rounds} untruncated luck-adjusted games a play; the rollout level at "
          f"{args.seconds:g} s of CPU a decision, {args.repeats} seeds each")
    try:
        found = references(args, expert, variant)
    except (ReferencesError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    lead = [d.lead_error for d in found]
    print(f"the reference's error on its best play's lead: median {median(lead):.4f}, worst {max(lead):.4f}")
    print(f"{'setting':<24} {'best':>7} {'loss':>9} {'error':>8} {'rounds':>6} {'lead se':>9}")
    alone = Tallied()
    for decision in found:
        loss = decision.loss(decision.head[0].play.notation())
        alone.losses.append(loss)
        alone.best += loss == 0
    print(alone.line("expert"))
    for plies in args.plies:
        for luck in args.luck:
            tallies = {confidence: Tallied() for confidence in args.confidence}
            for repeat in range(args.repeats):
                level = RolloutBot(expert, args.seconds, plies=plies, luck=luck, seed=args.seed * 100 + repeat,
                                   clock=time.thread_time)
                for decision in found:
                    level.rank_plays(decision.position, decision.dice)
                    for confidence, tally in tallies.items():
                        chosen = decision.head[overruling(level.games, confidence)].play.notation()
                        loss = decision.loss(chosen)
                        tally.losses.append(loss)
                        tally.best += loss == 0
                        tally.rounds.append(level.rounds)
                        tally.leads.append(lead_error(level.games))
            name = "to the end" if plies is None else f"{plies} plies"
            for confidence, tally in tallies.items():
                label = name if len(tallies) == 1 else f"{name}, {confidence:g} se"
                print(tally.line(label if len(args.luck) == 1 else f"{label}, luck {'on' if luck else 'off'}"),
                      flush=True)
    return 0


def references(args: argparse.Namespace, expert: Bot, variant: Variant) -> list[Decision]:
    """The decisions and their references: those kept in `--references`, then the rest made and kept."""
    path = None if args.references is None else Path(args.references)
    header = references_header(args)
    kept = [] if path is None else read_references(path, header)
    sink = None
    if path is not None:
        sink = path.open("a", encoding="utf-8")
        if not kept and path.stat().st_size == 0:
            sink.write(json.dumps(header) + "\n")
    found: list[Decision] = []
    started = time.monotonic()
    try:
        for number, met in enumerate(decisions(expert, variant, args.positions, args.every, args.seed), start=1):
            if number <= len(kept):
                found.append(kept_decision(kept[number - 1], met, f"{path}:{number + 1}"))
                continue
            position, dice, head = met
            decision = reference(expert, position, dice, head, args.reference_rounds, args.seed * 1000 + number)
            found.append(decision)
            if sink is not None:
                sink.write(decision.to_line())
                sink.flush()
            print(f"  reference {number} of {args.positions} ({time.monotonic() - started:.0f} s)", file=sys.stderr,
                  flush=True)
    finally:
        if sink is not None:
            sink.close()
    return found


if __name__ == "__main__":
    sys.exit(main())
