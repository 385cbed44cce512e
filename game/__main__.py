"""`python -m game`: the rules engine's command line (game/cli.py)."""

import sys

from game.cli import main

sys.exit(main())
