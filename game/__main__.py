"""`python -m game`: the rules engine's command line (game/cli.py)."""

import gc
import sys

# Importing the command line makes tens of thousands of objects that live as long as the process
# and no garbage: the cyclic collector, run while they are made, only costs start-up time (about a
# tenth of validating a .mat). Frozen afterwards, they are left out of every later collection.
gc.disable()
from game.cli import main  # noqa: E402

gc.freeze()
gc.enable()
sys.exit(main())
