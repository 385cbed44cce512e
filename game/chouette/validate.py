"""`python -m game validate FILE` for a chouette record: replay it and judge every action.

Every throw, cube action, settlement, game result, rotation and running total is recomputed by
the rules and compared with the record; the hash chain is checked line by line. Prints each
game (who was box and captain, how it ended, every player's result) and the totals, then each
problem with its line, game, move and position. Exit code 0 legal, 1 illegal, 2 unreadable.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO

from game.errors import GameError
from game.integrity import Integrity, check
from game.record import chain_problems, read_lines
from game.replay import Problem

from .options import signed
from .replay import ChouetteReplayer, is_chouette_record
from .session import ChouetteGame, ChouetteSession

LEGAL, ILLEGAL, UNREADABLE = 0, 1, 2


@dataclass
class ChouetteVerdict:
    """What the replay of a chouette record found."""

    path: str
    error: str | None = None
    session: ChouetteSession | None = None
    skipped_games: list[int] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unknown: Counter[str] = field(default_factory=Counter)
    integrity: Integrity | None = None
    """The chain, the signatures and the cut (game/integrity.py)."""

    @property
    def exit_code(self) -> int:
        """0 legal (and intact), 1 illegal or not intact, 2 unreadable."""
        if self.error is not None:
            return UNREADABLE
        return ILLEGAL if self.problems or (self.integrity is not None and self.integrity.problems) else LEGAL

    def render(self) -> str:
        """The verdict as the command prints it."""
        if self.error is not None:
            return f"{self.path}: cannot read: {self.error}\nverdict: UNREADABLE\n"
        s = self.session
        assert s is not None
        seated = list(s.totals)
        lines = [f"{self.path}: JSON Lines record, chouette session, {s.variant.value}, "
                 f"{len(seated)} players: {', '.join(seated)}",
                 f"options: {s.options.describe()}"]
        first = next((e for e in s.events if e["type"] == "seating"), None)
        if first is not None:
            lines.append(f"seating: box {first['box']}, line {' '.join(first['line'])}")
        rows = [(game.number, _game_line(game)) for game in s.games]
        rows += [(n, f"game {n:>3}  not counted: see the problem below") for n in self.skipped_games]
        lines += [text for _, text in sorted(rows)]
        lines.append(_final_line(s))
        if self.unknown:
            ignored = ", ".join(f"{kind} x{n}" for kind, n in sorted(self.unknown.items()))
            lines.append(f"ignored {sum(self.unknown.values())} events of other types: {ignored}")
        for n, problem in enumerate(self.problems, 1):
            lines.append(f"problem {n}: {problem.describe()}")
        if self.integrity is not None:
            lines.append(self.integrity.describe())
        lines.append("verdict: " + ("LEGAL" if not self.problems else f"ILLEGAL ({len(self.problems)} problems)"))
        return "\n".join(lines) + "\n"


def _game_line(game: ChouetteGame) -> str:
    if game.winner is None:
        outcome = "a Remi"
    else:
        outcome = f"{game.winner.value} wins {game.kind}" + (" (cubes passed)" if game.reason == "pass" else "")
    partner = f" (partner {game.partner})" if game.partner else ""
    head = f"game {game.number:>3}  box {game.box}{partner} v captain {game.team[0]}"
    if game.captain != game.team[0]:
        head += f" then {game.captain}"
    results = []
    for stake in game.stakes:
        how = {"pass": f" passed at {stake.cube.value}", "box_pass": f" box passed at {stake.cube.value}"}
        results.append(f"{stake.member} {signed(game.results[stake.member])}{how.get(stake.reason, '')}")
    box_side = [game.box] + ([game.partner] if game.partner else [])
    results = [f"{name} {signed(game.results[name])}" for name in box_side] + results
    return f"{head}: {outcome}; " + ", ".join(results)


def _final_line(s: ChouetteSession) -> str:
    totals = ", ".join(f"{name} {signed(points)}" for name, points in s.totals.items())
    games = f"{len(s.games)} game{'' if len(s.games) == 1 else 's'}"
    if s.is_over:
        return f"final: {totals} after {games}, the session ended"
    return (f"final: {totals} after {games}, not finished: the record ends in game {s.game_number} "
            f"({s.phase.value})")


def validate_chouette(path: str, data: bytes, trusted: frozenset[str] | None = None) -> ChouetteVerdict:
    """Replay the chouette record `data` (read from `path`) and judge it; `trusted` as for validate."""
    verdict = ChouetteVerdict(path)
    lines = list(read_lines(data))
    verdict.integrity = check(lines, trusted)
    replayer = ChouetteReplayer(strict=False)
    replayer.problems.extend(chain_problems(lines))
    try:
        for line in lines:
            if line.event is None:
                replayer.report(f"line {line.number} is not a JSON object", line.number)
                continue
            replayer.feed(line.event, line.number)
        replayer.finish()
    except GameError as exc:
        verdict.error = str(exc)
        return verdict
    if replayer.session is None:
        verdict.error = "; ".join(p.rule for p in replayer.problems) or "no chouette_start event"
        return verdict
    verdict.session = replayer.session
    verdict.skipped_games = replayer.skipped_games
    verdict.problems = replayer.problems
    verdict.unknown = replayer.unknown
    return verdict


def main(path: str, out: TextIO, trusted: frozenset[str] | None = None) -> int | None:
    """Judge `path` when it is a chouette record (print, return the exit code); None when it is not."""
    try:
        data = open(os.fspath(path), "rb").read()
    except OSError:
        return None  # the match validator says why it cannot be read
    if not is_chouette_record(line.event for line in read_lines(data)):
        return None
    verdict = validate_chouette(os.fspath(path), data, trusted)
    out.write(verdict.render())
    return verdict.exit_code
