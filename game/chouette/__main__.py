"""`python -m game.chouette`: the chouette's command line (game/chouette/cli.py)."""

from game.chouette.cli import main
from game.exits import exit_with

exit_with(main)
