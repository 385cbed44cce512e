"""`python -m firmware_host`: the table's command line (firmware_host/cli.py)."""

from firmware_host.cli import console

console()
