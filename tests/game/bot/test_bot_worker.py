"""GNU Backgammon runs in a worker process: the bot's process never imports it, a dead worker is
replaced once, a worker that dies again is a clear error, and closing the bot stops the worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import gnubg
import pytest
from repo import ROOT

from game.board import Variant
from game.bot import make_bot
from game.bot.base import Level
from game.bot.gnubg_bot import GnubgBot
from game.bot.gnubg_worker import GnubgWorker
from game.errors import BotError, EngineDied, EngineError
from game.gnubg_ids import gnubg_board
from game.position import Position

pytestmark = [pytest.mark.gnubg, pytest.mark.subprocess]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (ended, not yet reaped) counts as ended.
    return Path(f"/proc/{pid}/status").read_text().find("State:\tZ") < 0


def test_the_worker_starts_at_the_first_question_and_answers_as_gnubg_does() -> None:
    with GnubgBot(Level.EXPERT) as bot:
        assert bot.worker.pid is None  # nothing started by making the bot
        found = bot.best_moves(Position.initial(), (3, 1))
        assert bot.worker.pid is not None
        theirs = gnubg.findbestmoves(gnubg_board(Position.initial()), gnubg.cubeinfo(),
                                     gnubg.evalcontext(0, 0, 1, 1, 0), (3, 1))
        assert [(f["move"], round(f["score"], 6)) for f in found] == \
            [(t["move"], round(t["score"], 6)) for t in theirs]
        pid = bot.worker.pid
    assert bot.worker.pid is None and not _alive(pid)  # the with block closed the bot and its worker


def test_a_killed_worker_is_replaced_and_the_question_answered() -> None:
    with GnubgBot(Level.EXPERT) as bot:
        bot.use_book = False  # the question must go to the worker, not to the opening book
        first = bot.choose_play(Position.initial(), (6, 5))
        pid = bot.worker.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        again = bot.choose_play(Position.initial(), (6, 5))
        assert again == first and bot.worker.pid not in (None, pid)


def test_a_worker_that_dies_again_is_engine_died_with_what_it_wrote() -> None:
    dying = (sys.executable, "-c", "import sys; sys.stderr.write('no networks here'); sys.exit(3)")
    with GnubgWorker(dying) as worker, pytest.raises(EngineDied) as caught:
        worker.call("met", 3)
    message = str(caught.value)
    assert "after a restart" in message and "no networks here" in message and '"met"' in message
    assert isinstance(caught.value, BotError) and isinstance(caught.value, RuntimeError)


def test_a_call_gnubg_refuses_is_an_engine_error_and_the_worker_lives_on() -> None:
    with GnubgWorker() as worker:
        with pytest.raises(EngineError, match="evaluate.*Invalid board") as caught:
            worker.call("evaluate", [[0] * 3, [0] * 3], [1, -1, 0, 0, [0, 0], 0, 0], [0, 0, 1, 1, 0.0])
        assert not isinstance(caught.value, EngineDied)
        pid = worker.pid
        assert worker.call("met", 3)[0][0][0] == 0.5 and worker.pid == pid
        with pytest.raises(ValueError, match="no worker call"):
            worker.call("command", "quit")  # only the listed calls reach GNU Backgammon


def test_the_bots_process_never_imports_gnubg() -> None:
    script = ("import sys\nfrom game.board import Variant\nfrom game.bot import make_bot\n"
              "from game.position import Position\n"
              "with make_bot(Variant.BACKGAMMON) as bot:\n"
              "    bot.choose_play(Position.initial(), (3, 1)); bot.cube_action(Position.initial())\n"
              "    print(bot.engine, bot.met.name)\n"
              "print('gnubg' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False"
    assert done.stdout.startswith("GNU Backgammon 1.1.0a16")


def test_every_bot_is_a_context_manager() -> None:
    with make_bot(Variant.CATCHGAMMON) as bot:
        assert bot.choose_play(Position.initial(Variant.CATCHGAMMON), (3, 1)) is not None
    bot.close()  # closing twice is harmless


def test_warm_up_starts_the_worker_before_the_first_question() -> None:
    with GnubgBot(Level.EXPERT) as bot:
        bot.warm_up()
        pid = bot.worker.pid
        assert pid is not None and _alive(pid)
        bot.warm_up()  # already running: the same worker
        assert bot.worker.pid == pid and bot.choose_play(Position.initial(), (4, 2)) is not None
