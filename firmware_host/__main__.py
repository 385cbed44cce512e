"""`python -m firmware_host`: the table's command line (firmware_host/cli.py)."""

import sys

from firmware_host.cli import main

sys.exit(main(own_process=True))
