"""`python -m game.bot`: train a network (`train`)."""

import os

# One BLAS thread: the batches are small, and on a shared machine more threads only wait.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from game.bot.cli import main
from game.exits import exit_with

exit_with(main)
