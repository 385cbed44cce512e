"""GNU Backgammon's own `.mat` reader, run as Debian's `/usr/games/gnubg` (test-only reference).

`gnubg_import(paths)` starts one gnubg process (`-t -q -r -p script`) that imports each file with
`import mat` and hands back, per file, the time its import took, what it printed (warnings about
plays it could not read) and the match it holds: each game's moves with the dice and the board
before the move, as `gnubg.match(boards=1)` gives them. `our_boards` gives the same from the
project's replay, so the two can be compared play by play.

GNU Backgammon's left column is its player X (Black here), the right its player O (White); a
board is the Position ID from the side of the player on roll, as `Position.position_id` writes it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from game.board import Color
from game.match import Match
from game.position import Position

GNUBG = "/usr/games/gnubg"
INSTALL_HINT = "Debian's gnubg package: apt-get install gnubg (.ci/run installs it)"
MARK = "@@gnubg-reader@@"

_SCRIPT = r'''
import gnubg, json, os, sys, time
paths = json.load(open(os.environ["GNUBG_READER_LIST"]))
out = open(os.environ["GNUBG_READER_OUT"], "w")
gnubg.command("set display off")
for path in paths:
    sys.stdout.write("\n%s %s\n" % (MARK, path)); sys.stdout.flush()
    start = time.perf_counter()
    gnubg.command('%s "%s"' % (os.environ.get("GNUBG_READER_COMMAND", "import mat"), path))
    seconds = time.perf_counter() - start
    sys.stdout.flush()
    try:
        match = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    except Exception as exc:
        match = {"error": str(exc)}
    out.write(json.dumps({"path": path, "seconds": seconds, "match": match}) + "\n")
    out.flush()
sys.stdout.write("\n%s end\n" % MARK); sys.stdout.flush()
'''


@dataclass
class GnubgImport:
    """What GNU Backgammon made of one transcript."""

    path: str
    seconds: float
    games: list[list[tuple[Color, tuple[int, int], str]]]  # per game: (mover, dice, board before), per move
    variation: str
    printed: str = ""  # what gnubg said while importing it (warnings about unreadable plays)
    scores: list[tuple[int, int]] = field(default_factory=list)  # per game: (white, black) at its start
    cube_actions: list[list[tuple[Color, str]]] = field(default_factory=list)  # per game: (player, double/take/drop)
    results: list[tuple[Color | None, int, bool]] = field(default_factory=list)  # per game: winner, points, resigned
    crashed: bool = False  # gnubg died importing it

    @property
    def warned(self) -> bool:
        """GNU Backgammon complained: a play it could not read or apply, a line it did not know."""
        return (self.crashed or "WARNING" in self.printed or "Invalid" in self.printed
                or self.variation != "Standard")


def gnubg_found() -> str | None:
    """The path of Debian's gnubg, or None."""
    return GNUBG if os.access(GNUBG, os.X_OK) else shutil.which("gnubg")


def gnubg_import(paths: Sequence[Path | str], timeout: float = 600.0, command: str = "import mat") -> list[GnubgImport]:
    """Import each transcript into GNU Backgammon (`command`: "import mat", or "load match" for its
    own .sgf), one process for as many files as it lasts; one result per path, in order. A file
    that crashes gnubg (it has a buffer overflow on some names) gets a result with `crashed` set,
    and a new process goes on with the next."""
    program = gnubg_found()
    if program is None:
        raise FileNotFoundError(INSTALL_HINT)
    todo = [str(Path(p).resolve()) for p in paths]
    results: list[GnubgImport] = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "reader.py").write_text(f"MARK = {MARK!r}\n" + _SCRIPT)
        while todo:
            (work / "list.json").write_text(json.dumps(todo))
            out = work / "out.jsonl"
            out.write_text("")
            env = dict(os.environ, HOME=str(work), GNUBG_READER_LIST=str(work / "list.json"),
                       GNUBG_READER_OUT=str(out), GNUBG_READER_COMMAND=command)
            run = subprocess.run([program, "-t", "-q", "-r", "-p", str(work / "reader.py")], cwd=work, env=env,
                                 stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
            printed = _printed_per_file(run.stdout)
            done = [_result(json.loads(line), printed.get(json.loads(line)["path"], ""))
                    for line in out.read_text().splitlines()]
            results += done
            todo = todo[len(done):]
            if todo:  # gnubg died on the next file
                results.append(GnubgImport(todo[0], 0.0, [], "none", printed.get(todo[0], "") + run.stderr,
                                           crashed=True))
                todo = todo[1:]
    return results


def _printed_per_file(stdout: str) -> dict[str, str]:
    found: dict[str, str] = {}
    current = None
    for line in stdout.splitlines():
        if line.startswith(MARK):
            current = line[len(MARK) + 1:]
            found[current] = ""
        elif current is not None:
            found[current] += line + "\n"
    return found


def _result(record: dict[str, Any], printed: str) -> GnubgImport:
    match = record.get("match") or {}
    games: list[list[tuple[Color, tuple[int, int], str]]] = []
    scores: list[tuple[int, int]] = []
    cube_actions: list[list[tuple[Color, str]]] = []
    results: list[tuple[Color | None, int, bool]] = []
    for game in match.get("games", []):
        info = game.get("info", {})
        scores.append((int(info.get("score-O", 0)), int(info.get("score-X", 0))))
        winner = info.get("winner")
        results.append((None if winner is None else Color.BLACK if winner == "X" else Color.WHITE,
                        int(info.get("points-won") or 0), bool(info.get("resigned"))))
        moves = []
        cube = []
        for action in game.get("game", []):
            player = Color.BLACK if action.get("player") == "X" else Color.WHITE
            if action.get("action") == "move" and "board" in action:
                moves.append((player, (int(action["dice"][0]), int(action["dice"][1])), str(action["board"])))
            elif action.get("action") in ("double", "take", "drop"):
                cube.append((player, str(action["action"])))
        games.append(moves)
        cube_actions.append(cube)
    variation = str(match.get("match-info", {}).get("variation", "Standard")) if match else "none"
    return GnubgImport(str(record["path"]), float(record["seconds"]), games, variation, printed, scores,
                       cube_actions=cube_actions, results=results)


def our_cube_actions(match: Match) -> list[list[tuple[Color, str]]]:
    """Per game, (player, double/take/drop) for every cube action the match holds, as gnubg names them."""
    games: list[list[tuple[Color, str]]] = []
    for raw in match.events:
        event = cast(Mapping[str, Any], raw)
        if event["type"] == "game_start":
            games.append([])
        elif event["type"] in ("double", "take", "pass") and games:
            games[-1].append((Color(event["player"]), {"pass": "drop"}.get(event["type"], event["type"])))
    return games


def our_results(match: Match) -> list[tuple[Color | None, int, bool]]:
    """Per game that ended: the winner, the points and whether it was resigned."""
    return [(game.winner, game.points, game.reason == "resign") for game in match.games]


def our_boards(match: Match) -> list[list[tuple[Color, tuple[int, int], str]]]:
    """Per game, (mover, dice, Position ID before the play) for every play the match holds."""
    games: dict[int, list[tuple[Color, tuple[int, int], str]]] = {}
    position: Position | None = None
    number = 0
    for raw in match.events:
        event = cast(Mapping[str, Any], raw)
        kind = event["type"]
        if kind == "game_start":  # a record that starts mid-match restarts its first game at its score
            number = int(event["game"])
            games[number] = []
            position = Position.from_document(event["position"])
        elif kind == "play" and "accepted_illegal" in event:
            position = Position.from_document(event["position"])  # gnubg sets the board: no move of its own
        elif kind == "play" and position is not None:
            mover = Color(event["player"])
            before = position.with_turn(mover)
            dice = (int(event["dice"][0]), int(event["dice"][1]))
            games[number].append((mover, dice, before.position_id()))
            position = Position.from_document(event["position"])
    return list(games.values())


def compare(ours: list[list[tuple[Color, tuple[int, int], str]]],
            theirs: list[list[tuple[Color, tuple[int, int], str]]]) -> tuple[int, list[str]]:
    """Plays compared and the differences, game by game over the plays both hold (GNU Backgammon
    stops a game at a play it cannot read; the project stops at a problem)."""
    compared = 0
    differences = []
    for number, (mine, gnu) in enumerate(zip(ours, theirs, strict=False), 1):
        for index, (a, b) in enumerate(zip(mine, gnu, strict=False), 1):
            compared += 1
            if (a[0], sorted(a[1]), a[2]) != (b[0], sorted(b[1]), b[2]):
                differences.append(f"game {number} play {index}: ours {a[0].value} {a[1]} {a[2]}, "
                                   f"gnubg {b[0].value} {b[1]} {b[2]}")
                break
    return compared, differences


_PLAY = r'''
import gnubg, json, os
jobs = json.load(open(os.environ["GNUBG_READER_JOBS"]))
gnubg.command("set display off")
for player in (0, 1):
    for command in ("gnubg", "chequerplay evaluation plies 0", "cubedecision evaluation plies 0"):
        gnubg.command("set player %d %s" % (player, command))
for job in jobs:
    gnubg.command("set rng mersenne")
    gnubg.command("set seed %d" % job["seed"])
    gnubg.command("set variation %s" % job["variation"])
    gnubg.command("new match %d" % job["length"])
    for _ in range(20000):
        match = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
        won = {"X": 0, "O": 0}
        for game in match.get("games", []):
            if game["info"].get("winner"):
                won[game["info"]["winner"]] += game["info"]["points-won"]
        if max(won.values()) >= job["length"]:
            break
        gnubg.command("play")
    gnubg.command('export match mat "%s"' % job["mat"])
    gnubg.command('save match "%s"' % job["mat"].replace(".mat", ".sgf"))
    json.dump(match, open(job["boards"], "w"))
'''


def gnubg_self_play(seeds: Sequence[int], length: int, folder: Path, timeout: float = 600.0,
                    variation: str = "standard") -> list[tuple[Path, list[list[tuple[Color, tuple[int, int], str]]]]]:
    """GNU Backgammon plays a `length`-point match against itself for each seed (0-ply, fast) and
    exports it as .mat; returns each file with the boards gnubg itself recorded while playing.
    `variation` is GNU Backgammon's (`standard`, `nackgammon`)."""
    program = gnubg_found()
    if program is None:
        raise FileNotFoundError(INSTALL_HINT)
    jobs: list[dict[str, Any]] = [{"seed": seed, "length": length, "variation": variation,
                                   "mat": str(folder / f"gnubg-{length}p-{seed}.mat"),
                                   "boards": str(folder / f"gnubg-{length}p-{seed}.json")} for seed in seeds]
    (folder / "play.py").write_text(_PLAY)
    (folder / "jobs.json").write_text(json.dumps(jobs))
    env = dict(os.environ, HOME=str(folder), GNUBG_READER_JOBS=str(folder / "jobs.json"))
    subprocess.run([program, "-t", "-q", "-r", "-p", str(folder / "play.py")], cwd=folder, env=env,
                   stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, check=True)
    played = []
    for job in jobs:
        mat, boards = Path(str(job["mat"])), Path(str(job["boards"]))
        record = {"path": str(mat), "seconds": 0.0, "match": json.loads(boards.read_text())}
        played.append((mat, _result(record, "").games))
    return played
