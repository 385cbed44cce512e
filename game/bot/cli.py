"""The command line of `python -m game.bot`: `train`, `average`, `distill`, `bearoff`, `rollout`, `opening`."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from game.arguments import OneLineParser
from game.bot import average, bearoff, distill, opening_rollouts, rollout_command, train
from game.errors import GameError


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; bad input is one line on stderr and exit status 2."""
    parser = OneLineParser(prog="python -m game.bot", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    train.add_parser(commands)
    average.add_parser(commands)
    distill.add_parser(commands)
    bearoff.add_parser(commands)
    rollout_command.add_parser(commands)
    opening_rollouts.add_parser(commands)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args, sys.stdout, sys.stderr))
    except BrokenPipeError:  # the reader of the output left (`| head`), or not: `exit_with` tells
        raise
    except (GameError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except KeyboardInterrupt:  # a command that keeps work catches it first and says what it kept
        sys.stderr.write(f"\ninterrupted: {args.command} stopped\n")
        return 130
