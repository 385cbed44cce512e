"""`python -m game validate FILE [--json]`: replay a whole match record or .mat through the rules.

Prints, for a .mat transcript, who wrote it and its dialect (game/TRANSCRIPTS.md); every game's
result and score; each problem (illegal play, wrong score, impossible cube action or result,
broken hash chain) with its line, game, move and position; each note (what a careful referee
remarks on without calling it a problem: a play read by looking ahead, points capped at what
counted toward the match, a match that starts mid-way); and apart from the rules the record's
integrity (game/integrity.py): who signed it, whether every line is covered, whether it is
complete or cut. `--json` gives the same as one JSON object. Exit code 0 when all is legal and
the match is complete, 1 when something is not (an illegal play, a cut or unfinished record, a
broken chain or signature, a key not trusted), 2 when the file cannot be read.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import TYPE_CHECKING, Any, TextIO

from game.board import Color
from game.errors import GameError
from game.match import GameSummary, Match, Phase
from game.replay import Problem, Replayer
from game.transcripts import Dialect, replay_sgf, replay_transcript
from game.transcripts.other_formats import file_kind

if TYPE_CHECKING:
    from game.integrity import Integrity

LEGAL, ILLEGAL, UNREADABLE = 0, 1, 2
KIND_NAMES = {"record": "JSON Lines record", "mat": ".mat transcript", "sgf": "GNU Backgammon .sgf match file"}


class Verdict:
    """A careful referee's verdict on one file: readable, legal, complete, and signed by whom.

    A plain class, not a dataclass: made at every start of `python -m game`, a dataclass costs half a
    millisecond.
    """

    def __init__(self, path: str, kind: str = "", error: str | None = None, match: Match | None = None,
                 games: list[GameSummary] | None = None, skipped_games: list[int] | None = None,
                 problems: list[Problem] | None = None, unknown: Counter[str] | None = None,
                 integrity: Integrity | None = None, notes: list[Problem] | None = None,
                 dialect: Dialect | None = None) -> None:
        self.path = path
        self.kind = kind
        """"record" (JSON Lines), "mat" or "sgf" (GNU Backgammon's match file)."""
        self.error = error
        """Why the file cannot be read."""
        self.match = match
        self.games: list[GameSummary] = [] if games is None else games
        self.skipped_games: list[int] = [] if skipped_games is None else skipped_games
        self.problems: list[Problem] = [] if problems is None else problems
        self.unknown: Counter[str] = Counter() if unknown is None else unknown
        self.integrity = integrity
        """The chain, the signatures and the cut, for a JSON Lines record (None for a .mat)."""
        self.notes: list[Problem] = [] if notes is None else notes
        self.dialect = dialect
        """How a .mat transcript is written, and by whom as far as it says (None for a record)."""

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
        """The verdict as `validate` prints it."""
        if self.error is not None:
            return f"{self.path}: cannot read: {self.error}\nverdict: UNREADABLE\n"
        m = self.match
        lines = [f"{self.path}: {KIND_NAMES.get(self.kind, '.mat transcript')}"]
        if m is not None:
            white, black = m.players
            length = f"{m.length}-point match" if m.length else "money session"
            lines[0] += f", {m.variant.value} {length}, white {white} v black {black}"
            if m.options.money_only:
                lines.append("options: " + ", ".join(f"{k} {v}" for k, v in m.options.to_document().items()
                                                     if k != "rules"))
            if m.options.rules:
                lines.append(f"rules: {m.options.rules.words()} (game/RULES.md, \"Rule options\")")
        if self.dialect is not None:
            lines.append(self.dialect.describe())
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
        for n, note in enumerate(self.notes, 1):
            lines.append(f"note {n}: {note.describe()}")
        lines.append(self.integrity_line())
        lines.append(f"verdict: {self.verdict()}")
        return "\n".join(lines) + "\n"

    def integrity_line(self) -> str:
        """The record's integrity in one line, as validate, report and convert print it."""
        if self.integrity is not None:
            return self.integrity.describe()
        kind = "an .sgf match file" if self.kind == "sgf" else "a .mat transcript"
        return f"integrity: {kind} carries no chain or signature"

    def verdict(self) -> str:
        """LEGAL, LEGAL so far, ILLEGAL (n problems), or UNREADABLE, with the reason when not intact."""
        if self.error is not None:
            return "UNREADABLE"
        verdict = "LEGAL" if not self.problems else f"ILLEGAL ({len(self.problems)} problems)"
        if not self.problems and not self.complete:
            verdict += " so far: the match is not finished"
        elif not self.problems and self.integrity is not None and self.integrity.problems:
            verdict += " by the rules, but the record is not intact: " + "; ".join(self.integrity.problems)
        return verdict

    def to_document(self) -> dict[str, Any]:
        """The verdict as `validate --json` prints it: the same facts as `render`, for scripts."""
        m = self.match
        doc: dict[str, Any] = {"path": self.path, "kind": self.kind or None, "exit_code": self.exit_code,
                               "verdict": self.verdict(), "error": self.error}
        if self.dialect is not None:
            doc["producer"] = self.dialect.producer
            doc["dialect"] = self.dialect.to_document()
        if m is not None:
            doc["match"] = {"variant": m.variant.value, "length": m.length or 0,
                            "players": {"white": m.players[0], "black": m.players[1]},
                            "options": m.options.to_document()}
            doc["final"] = {"score": {"white": m.score[0], "black": m.score[1]}, "complete": self.complete,
                            "winner": m.winner.value if m.is_over and m.winner else None}
        doc["games"] = [{"game": g.number, "winner": g.winner.value if g.winner else None, "kind": g.kind,
                         "points": g.points, "reason": g.reason,
                         "score": {"white": g.score[0], "black": g.score[1]}} for g in self.games]
        doc["skipped_games"] = list(self.skipped_games)
        doc["problems"] = [_problem_document(p) for p in self.problems]
        doc["notes"] = [_problem_document(n) for n in self.notes]
        doc["ignored"] = dict(sorted(self.unknown.items()))
        doc["integrity"] = self.integrity_line()
        return doc


def _problem_document(problem: Problem) -> dict[str, Any]:
    return {"rule": problem.rule, "line": problem.line, "game": problem.game, "move": problem.move,
            "position": problem.position}


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
    try:
        verdict.kind = file_kind(data, path)
        if verdict.kind == "record":
            # a record's chain and signatures: hashing and base64 a transcript does not pay for
            from game.integrity import check
            from game.record import read_lines, replay_lines

            lines = list(read_lines(data))
            replayer = replay_lines(lines, strict=False)
            verdict.integrity = check(lines, trusted)
        else:
            text = data.decode("utf-8", errors="replace")
            transcript = replay_sgf(text) if verdict.kind == "sgf" else replay_transcript(text)
            replayer = transcript.replayer
            verdict.dialect = transcript.transcript.dialect
    except GameError as exc:
        verdict.error = str(exc)
        return verdict
    if replayer.match is None:
        verdict.error = "; ".join(p.rule for p in replayer.problems) or "no match_start event"
        return verdict
    _fill(verdict, replayer)
    return verdict


def _fill(verdict: Verdict, replayer: Replayer) -> None:
    m = replayer.match
    if (verdict.kind in ("mat", "sgf") and m is not None and m.length is None and m.phase is Phase.OPENING
            and m.games and not replayer.problems):
        m.stop()  # a money session's transcript that ends between games is the whole session
    verdict.match = replayer.match
    verdict.games = list(replayer.match.games) if replayer.match else []
    verdict.skipped_games = replayer.skipped_games
    verdict.problems = replayer.problems
    verdict.notes = replayer.notes
    verdict.unknown = replayer.unknown


def main(path: str, out: TextIO, trusted: frozenset[str] | None = None, *, as_json: bool = False) -> int:
    """Print the verdict on `path` to `out` (one JSON object with `as_json`); return the exit code
    (0 legal, 1 illegal, 2 unreadable)."""
    if not _is_record(path):  # a transcript: no chouette, and none of the chouette's imports to pay for
        verdict = validate_file(os.fspath(path), trusted)
        _write(verdict, out, as_json)
        return verdict.exit_code
    from game.chouette.validate import main as chouette  # a chouette session's record has its own rules

    if as_json:
        import json

        chouette_doc = _chouette_document(os.fspath(path), trusted)
        if chouette_doc is not None:
            out.write(json.dumps(chouette_doc, ensure_ascii=False) + "\n")
            return int(chouette_doc["exit_code"])
    else:
        code = chouette(path, out, trusted)
        if code is not None:
            return code
    verdict = validate_file(os.fspath(path), trusted)
    _write(verdict, out, as_json)
    return verdict.exit_code


def _write(verdict: Verdict, out: TextIO, as_json: bool) -> None:
    """The verdict as one JSON object (`--json`), or as text."""
    if as_json:
        import json  # here, not at the top: validating a .mat without --json needs none of it

        out.write(json.dumps(verdict.to_document(), ensure_ascii=False) + "\n")
    else:
        out.write(verdict.render())


def _is_record(path: str) -> bool:
    """Whether the file is a JSON Lines record (it starts with `{`), as `validate_file` tells them
    apart; an unreadable file counts as a record, so its error is said the one way it always is."""
    try:
        with open(path, "rb") as file:
            start = file.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    except OSError:
        return True
    return start in (b"{", b"")


def _chouette_document(path: str, trusted: frozenset[str] | None) -> dict[str, Any] | None:
    """`validate --json` for a chouette session's record; None when the file is not one."""
    from game.chouette.replay import is_chouette_record
    from game.chouette.validate import validate_chouette
    from game.record import read_lines

    try:
        data = open(path, "rb").read()
    except OSError:
        return None
    if not is_chouette_record(line.event for line in read_lines(data)):
        return None
    verdict = validate_chouette(path, data, trusted)
    said = verdict.render().rstrip("\n").splitlines()
    return {"path": path, "kind": "chouette", "exit_code": verdict.exit_code,
            "verdict": said[-1].removeprefix("verdict: "), "error": verdict.error,
            "problems": [_problem_document(p) for p in verdict.problems],
            "integrity": verdict.integrity.describe() if verdict.integrity is not None else None}
