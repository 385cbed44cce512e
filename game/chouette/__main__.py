"""`python -m game.chouette`: the chouette's command line (game/chouette/cli.py)."""

import sys

from game.chouette.cli import main

sys.exit(main())
