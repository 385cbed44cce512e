"""`python -m game`: the rules engine's command line (game/cli.py)."""

import gc
import os
import sys

# One BLAS thread, set before numpy is first imported (OpenBLAS reads it then): the bot's batches are
# small, and a thread a core made a play slower and the process larger (game/bot/README.md, "Memory").
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Importing the command line makes tens of thousands of objects that live as long as the process
# and no garbage: the cyclic collector, run while they are made, only costs start-up time (about a
# tenth of validating a .mat). Frozen afterwards, they are left out of every later collection.
gc.disable()
from game.cli import main  # noqa: E402
from game.exits import exit_with  # noqa: E402

gc.freeze()
one_shot = sys.argv[1:2] == ["validate"]
if not one_shot:
    gc.enable()


def run() -> int:
    code = main()
    if one_shot:
        # A one-shot check, run once for each of many files, makes no garbage cycles worth collecting
        # (see `game.cli`): the collector stays off, and with its verdict written the process ends
        # without the interpreter's teardown (freeing every object of the match one by one). Each is
        # about 2% of validating a long match. A verdict that cannot be written is reported as ever.
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BrokenPipeError:
            raise
        except OSError:
            return code
        os._exit(code)
    return code


exit_with(run)
