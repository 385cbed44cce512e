"""GNU Backgammon in a worker process, so that its networks and bear-off databases (about 38 MB
once imported) stay out of the controller's memory.

The worker is `python -m game.bot.gnubg_worker`: it imports `gnubg` and answers requests on its
standard input and output, one JSON object a line each way:

    -> {"call": "findbestmoves", "args": [board, cube, context, dice]}
    <- {"ok": [{"move": [8, 5, 6, 5], "score": 0.1597}, ...]}
    <- {"error": "TypeError: Invalid board format"}            (the call failed; the worker lives on)

`board` is `game.gnubg_ids.gnubg_board`'s pair of 25-point lists; `cube` and `context` are the
arguments of `gnubg.cubeinfo` and `gnubg.evalcontext` (the worker builds them). The calls are
`CALLS`: `findbestmoves`, `evaluate` (one board), `evaluate_many` (a list of [board, cube, context]:
one round trip for every play of a roll), `met`, and `cube` (GNU Backgammon's own cube analysis,
from its program `gnubg -t`, which the worker starts when first asked: `game.bot.gnubg_cli`).

`GnubgWorker` is the controller's side: it starts the worker at the first call, sends each
request and reads its answer (one at a time, under a lock), and stops it on `close` (or when it
is garbage-collected, or when the controller exits: the worker ends when its input closes). If the
worker dies during a call, the call is tried once more on a new worker; if that one dies too,
`EngineDied` says which call and what the worker last wrote on its error stream. A call the
worker answers with an error raises `EngineError` (the worker lives on).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import weakref
from collections.abc import Callable, Sequence
from typing import IO, Any

from game.errors import EngineDied, EngineError

CALLS = ("findbestmoves", "evaluate", "evaluate_many", "met", "cube")
COMMAND = (sys.executable, "-m", "game.bot.gnubg_worker")
Board = list[list[int]]


def _handlers(gnubg: Any) -> dict[str, Callable[..., Any]]:
    def evaluate(board: Board, cube: list[Any], context: list[Any]) -> Any:
        return gnubg.evaluate(_board(board), gnubg.cubeinfo(*_cube(cube)), gnubg.evalcontext(*context))

    def findbestmoves(board: Board, cube: list[Any], context: list[Any], dice: list[int]) -> Any:
        return gnubg.findbestmoves(_board(board), gnubg.cubeinfo(*_cube(cube)), gnubg.evalcontext(*context),
                                   tuple(dice))

    from game.bot.gnubg_cli import GnubgCommandLine

    program = GnubgCommandLine()  # GNU Backgammon's own program, for its cube hint: started when first asked
    return {"findbestmoves": findbestmoves, "evaluate": evaluate,
            "evaluate_many": lambda requests: [evaluate(*request) for request in requests],
            "met": lambda size: gnubg.met(size), "cube": program.cube}


def _board(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(board[0]), tuple(board[1])


def _cube(cube: list[Any]) -> list[Any]:
    return [tuple(value) if isinstance(value, list) else value for value in cube]  # the score is a pair


def serve(requests: IO[str], answers: IO[str]) -> None:
    """The worker's loop: answer each request line until the input ends."""
    import gnubg

    handlers = _handlers(gnubg)
    for line in requests:
        try:
            request = json.loads(line)
            answer = {"ok": handlers[request["call"]](*request["args"])}
        except Exception as exc:  # any failure of one call is that call's answer
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


class GnubgWorker:
    """The controller's handle on the worker process (started at the first call)."""

    def __init__(self, command: Sequence[str] = COMMAND) -> None:
        """`command` starts a worker (this module's `main`, unless a test stands in for it)."""
        self.command = tuple(command)
        self._process: subprocess.Popen[str] | None = None
        self._errors: IO[bytes] | None = None
        self._lock = threading.Lock()
        self._finalizer: weakref.finalize[Any, Any] | None = None

    @property
    def pid(self) -> int | None:
        """The worker's process id while it runs (for measuring it), else None."""
        return None if self._process is None else self._process.pid

    def call(self, name: str, *args: Any) -> Any:
        """The result of `gnubg.<name>` (see `CALLS`) computed by the worker."""
        if name not in CALLS:
            raise ValueError(f"no worker call {name!r} (calls: {', '.join(CALLS)})")
        line = json.dumps({"call": name, "args": list(args)}) + "\n"
        with self._lock:
            try:
                answer = self._exchange(line)
            except EngineDied:
                self._stop()  # once more on a new worker
                answer = self._exchange(line, retried=True)
        if "error" in answer:
            raise EngineError(f"GNU Backgammon's worker could not answer {name}{_short(args)}: {answer['error']}")
        return answer["ok"]

    def start(self) -> None:
        """Start the worker now if it is not running, without waiting for it to load GNU Backgammon
        (which takes most of a second): a table does it as a match begins, so that the first
        question is answered at full speed."""
        with self._lock:
            if self._process is None:
                self._start()

    def close(self) -> None:
        """Stop the worker (a later call starts a new one)."""
        with self._lock:
            self._stop()

    def __enter__(self) -> GnubgWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _exchange(self, line: str, retried: bool = False) -> dict[str, Any]:
        process = self._process or self._start()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(line)
            process.stdin.flush()
            reply = process.stdout.readline()
        except (BrokenPipeError, OSError):
            reply = ""
        if not reply:
            again = " (after a restart)" if retried else ""
            raise EngineDied(f"GNU Backgammon's worker (pid {process.pid}) died{again} answering "
                             f"{line.strip()[:120]}; it last wrote: {self._last_words()!r}")
        answer: dict[str, Any] = json.loads(reply)
        return answer

    def _start(self) -> subprocess.Popen[str]:
        self._errors = tempfile.TemporaryFile()
        self._process = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=self._errors, text=True, bufsize=1)
        self._finalizer = weakref.finalize(self, _terminate, self._process)
        return self._process

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # closes the worker's input and waits for it
            self._finalizer = None
        self._process = None
        if self._errors is not None:
            self._errors.close()
            self._errors = None

    def _last_words(self) -> str:
        if self._errors is None:
            return ""
        self._errors.seek(0)
        return self._errors.read().decode(errors="replace").strip()[-300:]


def _terminate(process: subprocess.Popen[str]) -> None:
    """End a worker: close its input (it exits at the end of it), kill it if it lingers."""
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            try:
                stream.close()
            except OSError:
                pass
    try:
        process.wait(timeout=2)
    except (subprocess.TimeoutExpired, KeyboardInterrupt):  # Ctrl-C while it closes: end it, no traceback
        process.kill()
        process.wait()


def _short(args: tuple[Any, ...]) -> str:
    text = json.dumps(list(args))
    return f"({text[:160]}{'...' if len(text) > 160 else ''})"


def main() -> None:
    """Serve on this process's standard input and output. GNU Backgammon may print on import or
    during a call: its output goes to the error stream, so that only answers reach the channel."""
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin, channel)


if __name__ == "__main__":
    main()
