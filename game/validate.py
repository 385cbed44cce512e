"""`python -m game validate FILE`: replay a whole match record or .mat through the rules.

Prints every game's result and score, then each problem (illegal play, wrong
score, impossible cube action, broken hash chain) with its line, game, move and
position, and apart from the rules the record's integrity (game/integrity.py): who
signed it, whether every line is covered, whether it is complete or cut. Exit code 0
when all is legal and the match is complete, 1 when something is not (an illegal play,
a cut or unfinished record, a broken chain or signature, a key not trusted), 2 when the
file cannot be read.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO

from game.board import Color
from game.errors import GameError
from game.integrity import Integrity, check
from game.mat import replay_mat
from game.match import GameSummary, Match
from game.record import read_lines, replay_lines
from game.replay import Problem, Replayer

LEGAL, ILLEGAL, UNREADABLE = 0, 1, 2


@dataclass
class Verdict:
    path: str
    kind: str = ""  # "record" (JSON Lines) or "mat"
    error: str | None = None  # why the file cannot be read
    match: Match | None = None
    games: list[GameSummary] = field(default_factory=list)
    skipped_games: list[int] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unknown: Counter[str] = field(default_factory=Counter)
    integrity: Integrity | None = None
    """The chain, the signatures and the cut, for a JSON Lines record (None for a .mat)."""

    @property
    def exit_code(self) -> int:
        """0 legal and complete, 1 illegal, unfinished or not intact, 2 unreadable."""
        if self.error is not None:
            return UNREADABLE
        broken = self.integrity is not None and bool(self.integrity.problems)
        return ILLEGAL if self.problems or broken or not self.complete else LEGAL

    @property
    def complete(self) -> bool:
        """The match in the record has ended."""
        return self.match is not None and self.match.is_over

    def render(self) -> str:
        if self.error is not None:
            return f"{self.path}: cannot read: {self.error}\nverdict: UNREADABLE\n"
        m = self.match
        lines = [f"{self.path}: {'JSON Lines record' if self.kind == 'record' else '.mat transcript'}"]
        if m is not None:
            white, black = m.players
            length = f"{m.length}-point match" if m.length else "money session"
            lines[0] += f", {m.variant.value} {length}, white {white} v black {black}"
            if m.options.jacoby or m.options.beavers or m.options.automatic_doubles or m.options.max_cube:
                lines.append("options: " + ", ".join(f"{k} {v}" for k, v in m.options.to_document().items()))
        rows = [(game.number, _game_line(game)) for game in self.games]
        rows += [(n, f"game {n:>3}  not counted: see problem below") for n in self.skipped_games]
        lines += [text for _, text in sorted(rows)]
        if m is not None:
            lines.append(_final_line(m))
        if self.unknown:
            ignored = ", ".join(f"{kind} x{n}" for kind, n in sorted(self.unknown.items()))
            lines.append(f"ignored {sum(self.unknown.values())} events of other types: {ignored}")
        for n, problem in enumerate(self.problems, 1):
            lines.append(f"problem {n}: {problem.describe()}")
        lines.append(self.integrity.describe() if self.integrity is not None
                     else "integrity: a .mat transcript carries no chain or signature")
        verdict = "LEGAL" if not self.problems else f"ILLEGAL ({len(self.problems)} problems)"
        if not self.problems and not self.complete:
            verdict += " so far: the match is not finished"
        elif not self.problems and self.integrity is not None and self.integrity.problems:
            verdict += " by the rules, but the record is not intact: " + "; ".join(self.integrity.problems)
        lines.append(f"verdict: {verdict}")
        return "\n".join(lines) + "\n"


def _game_line(game: GameSummary) -> str:
    score = f"score white {game.score[0]} black {game.score[1]}"
    if game.winner is None:
        return f"game {game.number:>3}  remi, replayed{'':<26}{score}"
    how = {"bearoff": "", "pass": " (pass)", "resign": " (resigned)"}.get(game.reason, "")
    won = f"{game.winner.value} wins {game.kind}{how}"
    return f"game {game.number:>3}  {won:<32} {game.points:>3} pt  {score}"


def _final_line(m: Match) -> str:
    white, black = m.score
    if m.is_over:
        winner = m.winner
        name = "" if winner is None else m.players[0 if winner is Color.WHITE else 1]
        who = "a tie" if winner is None else f"{winner.value} ({name}) wins"
        return f"final: white {white} black {black}, {who}"
    return (f"final: white {white} black {black}, not finished: the record ends in game {m.game_number} "
            f"({m.phase.value})")


def validate_file(path: str, trusted: frozenset[str] | None = None) -> Verdict:
    """Replay a record or .mat file and judge it; `trusted` are the keys of a trust file."""
    verdict = Verdict(path)
    try:
        data = open(path, "rb").read()
    except OSError as exc:
        verdict.error = exc.strerror or str(exc)
        return verdict
    start = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    try:
        if start == b"{":
            verdict.kind = "record"
            lines = list(read_lines(data))
            replayer = replay_lines(lines, strict=False)
            verdict.integrity = check(lines, trusted)
        else:
            verdict.kind = "mat"
            replayer = replay_mat(data.decode("utf-8", errors="replace"), strict=False)
    except GameError as exc:
        verdict.error = str(exc)
        return verdict
    if replayer.match is None:
        verdict.error = "; ".join(p.rule for p in replayer.problems) or "no match_start event"
        return verdict
    _fill(verdict, replayer)
    return verdict


def _fill(verdict: Verdict, replayer: Replayer) -> None:
    verdict.match = replayer.match
    verdict.games = list(replayer.match.games) if replayer.match else []
    verdict.skipped_games = replayer.skipped_games
    verdict.problems = replayer.problems
    verdict.unknown = replayer.unknown


def main(path: str, out: TextIO, trusted: frozenset[str] | None = None) -> int:
    """Print the verdict on `path` to `out`; return the exit code (0 legal, 1 illegal, 2 unreadable)."""
    from game.chouette.validate import main as chouette  # a chouette session's record has its own rules

    code = chouette(path, out, trusted)
    if code is not None:
        return code
    verdict = validate_file(os.fspath(path), trusted)
    out.write(verdict.render())
    return verdict.exit_code
