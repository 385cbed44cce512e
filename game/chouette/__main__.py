"""`python -m game.chouette`: the chouette's command line (game/chouette/cli.py)."""

import os

# One BLAS thread, set before numpy is first imported (OpenBLAS reads it then): the bot's batches are
# small, and a thread a core made a play slower and the process larger (game/bot/README.md, "Memory").
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from game.chouette.cli import main
from game.exits import exit_with

exit_with(main)
