"""GNU Backgammon's own cube decisions, from its command interface (`gnubg -t`).

The Python bindings give no cube hint ("not yet implemented"); the program does: set the match
(its Match ID: cube, owner, score, length, Crawford, who is on roll) and the board (its Position
ID), and `hint` before the roll prints its cube analysis, ending in the proper cube action:

    Cubeful equities:
    1. No double           +0.084
    2. Double, pass        +1.000  (+0.916)
    3. Double, take        -0.191  (-0.276)
    Proper cube action: No double, take (23.1%)

`GnubgCommandLine` keeps one `gnubg -t -q` running (started at the first question, inside GNU
Backgammon's worker process, so the controller never holds it), writes the commands, and reads
the answer up to a marker (`help` on a topic that does not exist echoes its name). The cube
evaluation's plies are the level's (`set evaluation cubedecision evaluation plies N`).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import IO, Any

from game.errors import EngineError, EngineUnavailable

MARKER = "smartgammon-answer-ends"
PROGRAM = ("gnubg", "/usr/games/gnubg")  # Debian installs it in /usr/games
_EQUITY = re.compile(r"^\s*\d\.\s+(No double|No redouble|Double, take|Redouble, take|Double, pass|Redouble, pass|"
                     r"Double, beaver|Redouble, beaver)\s+([+-]\d+\.\d+)")
_NAMES = {"no double": "no_double", "no redouble": "no_double", "double, take": "double_take",
          "redouble, take": "double_take", "double, pass": "double_pass", "redouble, pass": "double_pass",
          "double, beaver": "double_take", "redouble, beaver": "double_take"}


def program() -> str:
    """The path of GNU Backgammon's program, or `EngineUnavailable`."""
    for name in PROGRAM:
        found = shutil.which(name)
        if found:
            return found
    raise EngineUnavailable("GNU Backgammon's program (gnubg) is not installed: apt-get install gnubg")


def parse_cube_hint(lines: list[str]) -> dict[str, Any]:
    """The cube analysis `hint` printed: the three cubeful equities and the proper action, split
    into the doubler's part and the answer ("No double, take" -> double False, answer "take")."""
    refused = [line for line in lines if "illegal" in line.lower() or "invalid" in line.lower()]
    if refused:
        raise EngineError(f"GNU Backgammon's program refused the position: {refused[0].strip()!r}")
    answer: dict[str, Any] = {}
    proper = None
    for line in lines:
        found = _EQUITY.match(line)
        if found:
            answer[_NAMES[found.group(1).lower()]] = float(found.group(2))
        if line.startswith("Proper cube action:"):
            proper = line.split(":", 1)[1].split("(")[0].strip()
    if proper is None or set(answer) != {"no_double", "double_take", "double_pass"}:
        raise EngineError(f"GNU Backgammon's cube hint could not be read: {' | '.join(lines[-8:])!r}")
    first, _, second = proper.partition(",")
    lowered, reply = first.lower(), second.strip().lower()
    answer["proper"] = proper
    # "Double" and "Redouble" double; "No double", "Too good to double", "Optional double" (no
    # difference: the doubler keeps the cube, as GNU Backgammon's own player does), "Never double" do not.
    answer["double"] = lowered in ("double", "redouble")
    answer["answer"] = next((word for word in ("beaver", "take", "pass") if reply.startswith(word)),
                            "take" if answer["double_take"] <= answer["double_pass"] else "pass")
    return answer


class GnubgCommandLine:
    """One `gnubg -t -q` process answering cube questions."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        command = [program(), "-t", "-q"]
        stdbuf = shutil.which("stdbuf")
        if stdbuf:  # its output line by line through the pipe, not when a block fills
            command = [stdbuf, "-oL", *command]
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True, bufsize=1)
        self._ask(["set player 0 human", "set player 1 human", "new game"])
        return self._process

    def _ask(self, commands: list[str]) -> list[str]:
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        stdin: IO[str] = process.stdin
        stdin.write("".join(f"{command}\n" for command in commands) + f"help {MARKER}\n")
        stdin.flush()
        lines: list[str] = []
        for line in process.stdout:
            if MARKER in line:
                return lines
            lines.append(line.rstrip("\n"))
        raise EngineError(f"GNU Backgammon's program ended answering {commands!r}: {' | '.join(lines[-5:])!r}")

    def cube(self, position_id: str, match_id: str, plies: int, jacoby: bool, beavers: bool) -> dict[str, Any]:
        """GNU Backgammon's cube analysis of the player on roll (in the Match ID) before rolling."""
        if self._process is None or self._process.poll() is not None:
            self._start()
        lines = self._ask([f"set jacoby {'on' if jacoby else 'off'}", f"set beavers {3 if beavers else 0}",
                           f"set evaluation cubedecision evaluation plies {plies}",
                           f"set matchid {match_id}", f"set board {position_id}", "hint"])
        return parse_cube_hint(lines)

    def close(self) -> None:
        """End the program (its input closes)."""
        if self._process is not None:
            if self._process.stdin is not None:
                self._process.stdin.close()
            try:
                self._process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None
