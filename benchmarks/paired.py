"""The games of measurements against an engine written elsewhere (`bench_external.py --games-out`),
pooled into one figure, and two levels' games set side by side on the games both played.

Run from the repository root:

    python benchmarks/paired.py part1.jsonl part2.jsonl              # one level's games, pooled
    python benchmarks/paired.py rollout-*.jsonl --against default-*.jsonl

A game is known by its dice and our side (seed, pair, side): a measurement made in parts
(`--from-pair`) pools into the figure one run would have made, and a game found twice among the
files is refused. Two levels that played the same games (the same dice, the same side) differ by
less than their own intervals say: each game's difference in points is what is averaged, so the
luck both met cancels (common random numbers), and the games one won and the other lost are
counted each way. Games kept with their luck (`bench_external.py --luck`) also give the
luck-adjusted figures: the same means, narrower intervals.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from game.bot.arena import Score
from game.bot.luck import Adjusted, Luck, describe_adjusted, mean_half_width

Key = tuple[int, int, str]
"""A game's dice and our side: (seed, pair, "white" or "black")."""


class GamesError(ValueError):
    """A file of games that cannot be pooled: the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Game:
    points: int
    remis: int
    luck: Luck | None = None
    """Our luck in the game, when it was read (`bench_external.py --luck`)."""


def read_games(paths: Iterable[Path]) -> dict[Key, Game]:
    """Every game of the files, by its key; `GamesError` for a malformed line or a game found twice."""
    games: dict[Key, Game] = {}
    where: dict[Key, str] = {}
    for path in paths:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise GamesError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
        for number, line in enumerate(lines, start=1):
            try:
                event = json.loads(line)
                key = (int(event["seed"]), int(event["pair"]), str(event["ours"]))
                luck = Luck(float(event["luck_wins"]), float(event["luck_points"])) if "luck_wins" in event else None
                game = Game(int(event["points"]), int(event.get("remis", 0)), luck)
            except (ValueError, KeyError, TypeError) as exc:
                raise GamesError(f"{path}:{number}: not a game's line ({exc}): {line[:80]!r}") from None
            if key[2] not in ("white", "black") or not -3 <= game.points <= 3 or (
                    luck is not None and not (math.isfinite(luck.wins) and math.isfinite(luck.points))):
                raise GamesError(f"{path}:{number}: not a game's line: {line[:80]!r}")
            if key in games:
                raise GamesError(f"{path}:{number}: the game of seed {key[0]}, pair {key[1]}, ours {key[2]} "
                                 f"is in {where[key]} already")
            games[key], where[key] = game, f"{path}:{number}"
    return games


def score(games: Mapping[Key, Game]) -> Score:
    """The games as one figure: wins, points and their squares, Remis played again."""
    values = list(games.values())
    return Score(sum(g.points > 0 for g in values), len(values), sum(g.points for g in values),
                 sum(g.points * g.points for g in values), sum(g.remis for g in values))


@dataclass(frozen=True, slots=True)
class Paired:
    """Two levels on the games both played: each one's wins and points, and their difference."""

    games: int
    first: Score
    second: Score
    only_first_won: int
    only_second_won: int
    difference: float
    """Points a game, the first's less the second's."""
    half_width: float
    """Half the 95% interval of `difference`, from the spread of each game's difference."""


def paired(first: Mapping[Key, Game], second: Mapping[Key, Game]) -> Paired:
    """The two sets on their common games (`GamesError` when they have fewer than two)."""
    common = sorted(first.keys() & second.keys())
    if len(common) < 2:
        raise GamesError(f"the two sets have {len(common)} games in common: nothing to set side by side")
    differences = [first[key].points - second[key].points for key in common]
    mean, half_width = mean_half_width([float(d) for d in differences])
    return Paired(len(differences), score({k: first[k] for k in common}), score({k: second[k] for k in common}),
                  sum(first[k].points > 0 >= second[k].points for k in common),
                  sum(second[k].points > 0 >= first[k].points for k in common),
                  mean, half_width)


def adjusted(games: Mapping[Key, Game]) -> list[Adjusted] | None:
    """The games with their luck, in key order; None unless every one has it."""
    if not games or any(game.luck is None for game in games.values()):
        return None
    return [Adjusted(game.points > 0, game.points, game.luck) for _, game in sorted(games.items())
            if game.luck is not None]


def adjusted_difference(first: Mapping[Key, Game], second: Mapping[Key, Game]) -> str | None:
    """The luck-adjusted differences on the games both played (win rate, points a game), each with
    its 95% half-width; None unless every such game of both has its luck. Each side's luck is read
    on its own game (the same dice, other plays), so each adjusted figure keeps its mean."""
    common = sorted(first.keys() & second.keys())
    ones = adjusted({key: first[key] for key in common})
    others = adjusted({key: second[key] for key in common})
    if ones is None or others is None:
        return None
    wins, wins_width = mean_half_width([a.wins - b.wins for a, b in zip(ones, others, strict=True)])
    points, points_width = mean_half_width([a.adjusted_points - b.adjusted_points
                                            for a, b in zip(ones, others, strict=True)])
    return (f"luck-adjusted difference: win rate {100 * wins:+.1f} +- {100 * wins_width:.1f} points of percentage, "
            f"{points:+.3f} +- {points_width:.3f} points a game (95%)")


LUCK_BANDS = (0.2, 0.0, -0.2, -0.4, -0.6)
"""Where `by_luck` cuts the games: our luck in the chance of winning, from the best dice down."""


def by_luck(games: Sequence[Adjusted]) -> list[str]:
    """The games by how their dice went for us (their luck in the chance of winning, in bands):
    how many there were and how many we won, each band's line and all the games down to it. Where
    the games a level loses lie: with the dice against it, or not."""
    lines = ["our luck (chance of winning) | games | won | win rate | games down to it | won | win rate"]
    edges = (math.inf, *LUCK_BANDS, -math.inf)
    for high, low in zip(edges, edges[1:], strict=False):
        band = [game for game in games if low <= game.luck.wins < high]
        upto = [game for game in games if game.luck.wins >= low]
        name = (f"{low:+.1f} and more" if high == math.inf else f"below {high:+.1f}" if low == -math.inf
                else f"{low:+.1f} to {high:+.1f}")
        lines.append(f"{name} | {len(band)} | {sum(g.won for g in band)} | {_rate(band)} | "
                     f"{len(upto)} | {sum(g.won for g in upto)} | {_rate(upto)}")
    return lines


def _rate(games: Sequence[Adjusted]) -> str:
    return f"{100 * sum(g.won for g in games) / len(games):.1f}%" if games else "-"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="+", type=Path, help="files of games (bench_external.py --games-out)")
    parser.add_argument("--against", nargs="+", type=Path, default=[], metavar="FILE",
                        help="another level's games: the two set side by side on the games both played")
    parser.add_argument("--by-luck", action="store_true",
                        help="the games kept with their luck, by how their dice went for us: where the losses lie")
    args = parser.parse_args(argv)
    try:
        first = read_games(args.games)
        print(f"pooled: {score(first).describe()} ({len(args.games)} files)")
        if (lucky := adjusted(first)) is not None:
            print(f"  {describe_adjusted(lucky)}")
            if args.by_luck:
                print("\n".join(by_luck(lucky)))
        elif args.by_luck:
            raise GamesError("--by-luck: some of these games were kept without their luck (bench_external.py --luck)")
        if args.against:
            second = read_games(args.against)
            print(f"against: {score(second).describe()} ({len(args.against)} files)")
            if (lucky := adjusted(second)) is not None:
                print(f"  {describe_adjusted(lucky)}")
            both = paired(first, second)
            print(f"on the {both.games} games both played: {both.first.wins} won against {both.second.wins} "
                  f"({both.only_first_won} won by the first alone, {both.only_second_won} by the second alone); "
                  f"points a game {both.first.equity:+.3f} against {both.second.equity:+.3f}, "
                  f"difference {both.difference:+.3f} +- {both.half_width:.3f} (95%)")
            if (difference := adjusted_difference(first, second)) is not None:
                print(difference)
    except GamesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
