"""`python -m firmware_host`: the table's command line (firmware_host/cli.py)."""

import os

# One BLAS thread, set before numpy is first imported (OpenBLAS reads it then): the bot's batches are
# small, and a thread a core made a play slower and the process larger (game/bot/README.md, "Memory").
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from firmware_host.cli import console

console()
