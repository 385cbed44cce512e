"""The analysed report of a match, written beside its journal when the match ends at the table
(`[record] analyse`, `--analyse`): every play and cube decision judged (`python -m game analyse`,
game/bot/README.md) by GNU Backgammon in Backgammon, each player's error rate on its PR scale, or
by the project's network in Catchgammon and Rungammon, on the network's own scale (NER, named apart:
it is no PR); the biggest errors, luck, and the match sheet with the errors marked.

The analysis runs in a process of its own, started when the match ends: the table goes on at
once (the next command, a resume) and GNU Backgammon's memory stays out of the controller's. A
thread waits for it and says in the log where the report was written, or why not.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from game.board import Variant

REPORT = "analysis.txt"
"""The report's text (error rates, luck, the biggest errors), beside the journal."""
SHEET = "analysis.pdf"
"""The analysed match sheet, beside the journal."""


def available(variant: Variant = Variant.BACKGAMMON) -> bool:
    """The judge of `variant` is installed (the `bot` extra): GNU Backgammon's bindings for
    Backgammon, numpy for the variants' network."""
    return importlib.util.find_spec("gnubg" if variant is Variant.BACKGAMMON else "numpy") is not None


class MatchReport:
    """Writes one match's analysed report once, in the background; `note` tells the log."""

    def __init__(self, note: Callable[[str], None]) -> None:
        self.note = note
        self.thread: threading.Thread | None = None
        self.written: Path | None = None
        """The report, once written."""

    def match_over(self, variant: Variant, journal: Path) -> None:
        """The match of `journal` is over: start its analysis (with its judge installed: GNU
        Backgammon for Backgammon, the project's network for Catchgammon and Rungammon)."""
        if self.thread is not None:
            return
        if not available(variant):
            judge = "GNU Backgammon's bindings are" if variant is Variant.BACKGAMMON else "numpy is"
            self.note(f"no analysed report: {judge} not installed (pip install -e '.[bot]')")
            return
        directory = journal.parent
        command = [sys.executable, "-m", "game", "analyse", str(journal), "--out", str(directory / SHEET)]
        self.note(f"analysing the match in the background: the report goes to {directory / REPORT}")
        self.thread = threading.Thread(target=self._run, args=(command, directory / REPORT), daemon=True,
                                       name="match-report")
        self.thread.start()

    def _run(self, command: list[str], report: Path) -> None:
        try:
            with report.open("w", encoding="utf-8") as out:
                done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, text=True, check=False)
        except OSError as exc:
            self.note(f"no analysed report: {exc}")
            return
        if done.returncode != 0:
            self.note(f"no analysed report: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
            return
        self.written = report
        self.note(f"wrote the analysed report {report} and the match sheet {report.parent / SHEET}")

    def wait(self, seconds: float | None = None) -> bool:
        """Wait for the analysis (a command that exits, a test); True when none runs any more."""
        if self.thread is not None:
            self.thread.join(seconds)
        return self.thread is None or not self.thread.is_alive()
