"""`python -m firmware_host`: the table's command line (firmware_host/cli.py)."""

from firmware_host.cli import main
from game.exits import exit_with

exit_with(lambda: main(own_process=True))
