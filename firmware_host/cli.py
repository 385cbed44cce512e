"""`python -m firmware_host`: a match at a table.

    python -m firmware_host                      the embedded default: an emulated table, live
    python -m firmware_host --chouette "Ann,Bob,Cy,Dee"   an emulated chouette, live
    python -m firmware_host --opponent bot [--variant V] [--level L]   a person against the bot, live
    python -m firmware_host simulate --variant V --seed N --match-to N --record DIR
    python -m firmware_host simulate --bots [white|black|both] --seed N --record DIR   bots at the table
    python -m firmware_host simulate --chouette 5 --games 10 --seed N --record DIR   a chouette, headless
    python -m firmware_host simulate --chouette "Ann,Bob,Cy" --bots Cy --record DIR   a bot at a chouette
    python -m firmware_host run --config FILE    real hardware (see hardware_docs/example-config.toml)
    python -m firmware_host check [--config FILE]   a hardware self-test (without a config: the emulator)
    python -m firmware_host stats DIR [DIR ...]  dice statistics per match and for the session
    python -m firmware_host director --broker URL [--listen 127.0.0.1:8080]   the room's director
    python -m firmware_host room-demo --tables 8  a whole tournament room on this machine
A table joins the room with --broker URL --table ID (or the config's [broker] section).
"""

from __future__ import annotations

import argparse
import logging
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from drivers.errors import DriverError
from drivers.protocol import describe_frame_path
from firmware_host.config import load_config
from firmware_host.controller import Controller
from firmware_host.controller.outputs import flag_line
from firmware_host.emulator.table import EmulatedTable
from firmware_host.errors import ConfigError, TableError
from firmware_host.hardware import run_hardware
from firmware_host.record.journal import JOURNAL_NAME
from firmware_host.record.recorder import ENDS
from firmware_host.room import cli as room_cli
from firmware_host.settings import ChouetteSettings, Profile, Settings
from firmware_host.table_loop import set_aside_from_the_collector, write_mat
from firmware_host.terminal import screen
from game.arguments import OneLineParser
from game.board import Color, Variant
from game.bot.levels import DEFAULT_LEVEL, Level
from game.chouette import MAX_PLAYERS, ChouetteOptions, ChouetteSession
from game.chouette.options import signed
from game.cli import version, version_action
from game.errors import GameError
from game.match import MatchOptions
from game.rules import RuleOptions
from game.zones import Capability

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
"""The players of `--chouette N`, in order."""
HOUSE = tuple(name for name in ChouetteOptions().to_document() if name != "box_partner")
"""The chouette's house options the table plays (a box partner is not taken at the table yet)."""


def _settings(args: argparse.Namespace) -> Settings:
    if args.house and not args.chouette:
        raise ConfigError("--house sets a chouette's house options: give --chouette too "
                          f"(--house {','.join(args.house)} was given for a match)")
    if args.chouette:
        if args.opponent == "bot":
            raise ConfigError("--opponent bot is for a match: a chouette names its bots (--bots Cy)")
        if args.rules:
            raise ConfigError(f"--rules {args.rules.words()}: rule options are for a match, not a chouette")
        options = ChouetteOptions(**{name: True for name in args.house})
        bots = {name: args.level for name in _chouette_bots(args.bots)}
        return Settings(variant=Variant(args.variant), profile=Profile(args.profile), timed=False,
                        chouette=ChouetteSettings(args.chouette, options, args.games, bots), bot_seed=args.seed or 0)
    sides = set(_sides(args.bots)) | ({Color.BLACK} if args.opponent == "bot" else set())
    try:
        args.rules.check(Variant(args.variant))
    except GameError as exc:
        raise ConfigError(f"--rules: {exc}") from None
    return Settings(variant=Variant(args.variant), length=args.match_to or None, options=MatchOptions(rules=args.rules),
                    profile=Profile(args.profile), timed=not args.no_clock,
                    bots={color: args.level for color in Color if color in sides}, bot_seed=args.seed or 0,
                    analyse=args.analyse)


BOTH = ""
"""`--bots` alone: at a match, both sides."""


def _sides(text: str | None) -> tuple[Color, ...]:
    """`--bots` at a match: the sides the bots play: white, black or both (alone: both)."""
    sides = {"white": (Color.WHITE,), "black": (Color.BLACK,), "both": (Color.WHITE, Color.BLACK),
             BOTH: (Color.WHITE, Color.BLACK)}
    if text is None:
        return ()
    if text not in sides:
        raise ConfigError(f"--bots {text!r}: the bots play white, black or both (at a chouette: players' names)")
    return sides[text]


def _chouette_bots(text: str | None) -> tuple[str, ...]:
    """`--bots` at a chouette: the players that are bots, by name, comma-separated."""
    if text is None:
        return ()
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not names:
        raise ConfigError("--bots at a chouette names the players that are bots, comma-separated: --bots Cy")
    return names


def _level(text: str) -> Level:
    try:
        return Level.parse(text)
    except GameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _players(text: str) -> tuple[str, ...]:
    """`--chouette`: the players' names, comma-separated, or how many (named Ann, Bob, Cy, ...)."""
    if text.isascii() and text.isdigit():
        if not 3 <= int(text) <= MAX_PLAYERS:
            raise argparse.ArgumentTypeError(f"{text!r}: a chouette seats 3 to {MAX_PLAYERS} players")
        return NAMES[:int(text)]
    names = tuple(name.strip() for name in text.split(","))
    try:
        ChouetteSettings(names)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def _house(text: str) -> tuple[str, ...]:
    """`--house`: the chouette's house options that are on, comma-separated."""
    names = tuple(name.strip().replace("-", "_") for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in HOUSE]
    if unknown:
        raise argparse.ArgumentTypeError(f"{unknown[0]!r} is not a house option (options: {', '.join(HOUSE)})")
    try:
        ChouetteOptions(**{name: True for name in names})
    except GameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def _games(text: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: the number of games is a whole number (0: no limit)")
    return int(text)


def _speed(text: str) -> float:
    try:
        speed = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(speed) or speed <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the speed is a multiple of real time, more than 0")
    return speed


def _rules(text: str) -> RuleOptions:
    try:
        return RuleOptions.parse(text)
    except GameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _points(text: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: a match length is a whole number of points, 0 for money")
    return int(text)


def _add_table_options(parser: argparse.ArgumentParser, *, seed: int | None, record: str | None) -> None:
    parser.add_argument("--variant", choices=[v.value for v in Variant], default="backgammon")
    parser.add_argument("--rules", type=_rules, default=RuleOptions(), metavar="OPTIONS",
                        help=f"rule options, comma-separated ({', '.join(RuleOptions.known())}; game/RULES.md)")
    parser.add_argument("--match-to", type=_points, default=3, help="match length in points (0: money session)")
    parser.add_argument("--seed", type=int, default=seed, help="makes the whole match reproducible")
    parser.add_argument("--capability", choices=[c.name.lower() for c in Capability], default="stacks",
                        help="what the emulated board senses")
    parser.add_argument("--profile", choices=[p.value for p in Profile], default="tournament")
    parser.add_argument("--no-clock", action="store_true", help="play without the chess clock")
    parser.add_argument("--record", default=record, help="directory for the journal (and match.mat)")
    parser.add_argument("--chouette", type=_players, metavar="PLAYERS",
                        help='a chouette instead of a match: "Ann,Bob,Cy,Dee", or how many players (3 to 9); '
                             "played without the clock")
    parser.add_argument("--games", type=_games, default=5, help="with --chouette: games before the session stops")
    parser.add_argument("--house", type=_house, default=(), metavar="OPTIONS",
                        help=f"with --chouette: house options, comma-separated ({', '.join(HOUSE)})")
    parser.add_argument("--opponent", choices=("person", "bot"), default="person",
                        help="bot: the bot plays Black, the simulated person White and carries out the bot's moves")
    parser.add_argument("--bots", nargs="?", const=BOTH, default=None,
                        metavar="SIDES", help="the sides bots play: white, black or both (--bots alone: both); "
                                              "with --chouette, the players that are bots, by name (--bots Cy); "
                                              "the simulated hands carry out their moves")
    parser.add_argument("--level", type=_level, default=DEFAULT_LEVEL,
                        help=f"the bots' level: {', '.join(level.value for level in Level)} "
                             f"(default {DEFAULT_LEVEL.value})")
    parser.add_argument("--analyse", action=argparse.BooleanOptionalAction, default=None,
                        help="write the analysed report beside the journal at the end of a Backgammon match "
                             "(default: on, live; off, simulate)")
    room_cli.add_table_options(parser)


def _table(args: argparse.Namespace) -> EmulatedTable:
    if args.analyse is None:  # a live match is someone's to read; a simulated one seldom
        args.analyse = args.command != "simulate"
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    record = Path(args.record or f"records/{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}")
    table = EmulatedTable(_settings(args), record, seed, Capability[args.capability.upper()],
                          broker=room_cli.table_broker(args))
    if args.own_process:  # this process runs this one table
        set_aside_from_the_collector()
    return table


def _table_seconds(args: argparse.Namespace) -> float:
    """Table time allowed before a run stops unfinished: 6 hours, or half an hour a chouette game."""
    return max(6 * 3600.0, 1800.0 * args.games) if args.chouette else 6 * 3600.0


def cmd_live(args: argparse.Namespace) -> int:
    """The embedded default: an emulated match shown live in the terminal."""
    logging.getLogger("firmware_host").addHandler(logging.NullHandler())  # the view shows the log; stderr would tear it
    table = _table(args)
    table.controller.outputs.note(f"seed {table.seed}; record in {table.record}; Ctrl-C stops (the record resumes)")

    def frame(t: EmulatedTable) -> None:
        notes = (t.link.phone_line(),) if t.link is not None else ()
        sys.stdout.write(screen(t.controller, t.clock.now(), notes=notes))
        sys.stdout.flush()

    try:
        finished = table.run(max_seconds=_table_seconds(args), speed=args.speed, on_frame=frame)
    except KeyboardInterrupt:
        print(f"\nstopped; the journal in {table.record} resumes the match (--record {table.record})")
        return 130
    finally:
        table.close()
    print()  # below the last frame
    return _finish(table, finished)


def finished_record(directory: Path) -> str | None:
    """Why a record directory cannot take another run (its journal ends a match or a session), or None."""
    path = directory / JOURNAL_NAME
    if not path.exists():
        return None
    with path.open("rb") as journal:
        for line in journal:
            if b'"type":"match_end"' in line or b'"type":"session_end"' in line:
                ended = "session" if b"session_end" in line else "match"
                return (f"{directory} holds a finished {ended} ({path.name} has its {ended}_end): "
                        "give another --record DIR (nothing was written)")
    return None


def cmd_simulate(args: argparse.Namespace) -> int:
    """A whole emulated match, headless and reproducible from its seed."""
    refused = finished_record(Path(args.record))
    if refused:
        print(f"error: {refused}", file=sys.stderr)
        return 2
    table = _table(args)
    started = time.monotonic()

    def progress(t: EmulatedTable) -> None:  # a headless run still says how far it is, on stderr
        print(f"{t.controller.dialogue.where()}, {t.clock.now() - t.started:.0f} s of play", file=sys.stderr)

    try:
        finished = table.run(max_seconds=_table_seconds(args), on_frame=None if args.quiet else progress,
                             frame_every=5.0)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the journal in {table.record} is kept, and the same command resumes it",
              file=sys.stderr)
        return 130
    finally:
        table.close()
    code = _finish(table, finished)
    print(f"{time.monotonic() - started:.1f} s to simulate {table.clock.now() - table.started:.0f} s of play")
    return code


def _finish(table: EmulatedTable, finished: bool) -> int:
    controller: Controller = table.controller
    played = controller.played
    chouette = isinstance(played, ChouetteSession)
    print(f"== summary of the {'chouette' if chouette else 'match'} ({table.record}) ==")
    for event in played.events_from(0):
        if event["type"] in ENDS:
            print(controller.dialogue.describe(event))
    flags = [event for event in table.journal.history() if event.get("type") == "flag"]
    for number, event in enumerate(flags, 1):
        print(flag_line(number, event))
    if isinstance(played, ChouetteSession):
        totals = ", ".join(f"{name} {signed(points)}" for name, points in played.totals.items())
        result = f"{totals} after {len(played.games)} game{'' if len(played.games) == 1 else 's'}"
    else:
        match = controller.match
        result = f"score {match.score[0]}-{match.score[1]}, {len(match.games)} games"
    print(f"{'finished' if finished else 'NOT finished'}: {result}, {controller.flags} referee flags, "
          f"{table.people.mistakes} mistakes made on purpose")
    for kind, seconds in controller.seat.seconds.items():
        if seconds:
            ordered = sorted(seconds)
            print(f"bot {kind} decisions: {len(ordered)}, seconds median {ordered[len(ordered) // 2]:.4f}, "
                  f"worst {ordered[-1]:.4f}")
    print(f"dice: {controller.dice_stats.describe()}")
    if table.loop.errors:
        print(f"{table.loop.errors} events could not be handled (see the log)")
    for path in write_mat(controller, table.record):
        print(f"wrote {path}")
    print(f"record: {table.journal.path}")
    if controller.report.thread is not None:
        print("writing the analysed report ...", flush=True)
        controller.report.wait()
        if controller.report.written is not None:
            print(f"wrote {controller.report.written}")
    return 0 if finished else 1


def cmd_stats(args: argparse.Namespace) -> int:
    """Dice statistics of each match's journal, and of all of them together (the session)."""
    from firmware_host.record.dice_stats import DiceStats
    from firmware_host.record.journal import read_journal

    session = DiceStats()
    counted: dict[Path, str] = {}
    for directory in args.record:
        same = counted.get(Path(directory).resolve())
        if same is not None:  # a match's rolls are the session's once, however often it is named
            print(f"{directory}: the record {same} again, counted once", file=sys.stderr)
            continue
        counted[Path(directory).resolve()] = directory
        events = read_journal(directory)
        if not events:
            print(f"error: no journal in {directory}", file=sys.stderr)
            return 2
        stats = DiceStats.of_events(events)
        session = session.merge(stats)
        print(f"{directory}: {stats.describe()}")
    if len(counted) > 1:
        print(f"session: {session.describe()}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """A match on real hardware, from a configuration file."""
    config = load_config(args.config)
    broker = room_cli.table_broker(args)
    if broker is not None:
        config = replace(config, broker=broker)
    return run_hardware(config, quiet=args.quiet, own_process=args.own_process)


def cmd_check(args: argparse.Namespace) -> int:
    """The hardware self-test: each part of the table's hardware in turn, a summary, exit 0 when all passed."""
    from firmware_host.hardware import open_table
    from firmware_host.selftest import SelfTest, emulated_table

    board = None
    if args.config:
        config = load_config(args.config)
        table, asked, variant = open_table(config), None, config.settings.variant
        roll = config.dice == "roll button"
        print(f"checking the table of {args.config}")
    else:
        table, asked, board = emulated_table(Capability[args.capability.upper()])
        variant, roll = Variant(args.variant), False
        print(f"checking the emulated board ({args.capability}), its buttons pressed by a simulated builder")
    try:
        table.start()
        test = SelfTest(table, variant, say=lambda line: print(line, flush=True), asked=asked,
                        seconds=args.seconds, dwell=args.dwell, button_seconds=args.button_seconds, roll_button=roll)
        test.run()
    finally:
        table.close()
        if board is not None:
            board.close()
    print("\nsummary:")
    for part in test.parts:
        print(f"  {part.line()}")
    failed = [part.name for part in test.parts if part.passed is False]
    print("all passed" if not failed else f"failed: {', '.join(failed)}")
    return 0 if test.passed else 1


def table_version() -> str:
    """`--version`: the rules engine's line, and how the table reads its sensor frames."""
    return f"{version()}; sensor frames: {describe_frame_path()}"


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m firmware_host`."""
    parser = OneLineParser(prog="python -m firmware_host", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action=version_action(table_version), nargs=0,
                        help="print the version, the move-generator kernel and the sensor frames' path, and exit")
    _add_table_options(parser, seed=None, record=None)
    parser.add_argument("--speed", type=_speed, default=8.0, help="table seconds per real second")
    parser.set_defaults(run=cmd_live, own_process=False)  # main(own_process=True) for a process of its own
    commands = parser.add_subparsers(dest="command")
    simulate = commands.add_parser("simulate", help="a whole emulated match, headless and reproducible")
    _add_table_options(simulate, seed=1, record=None)
    simulate.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    simulate.set_defaults(run=cmd_simulate)
    stats = commands.add_parser("stats", help="dice statistics of recorded matches, and of them all")
    stats.add_argument("record", nargs="+", help="record directories (each with journal.jsonl)")
    stats.set_defaults(run=cmd_stats)
    run = commands.add_parser("run", help="a match on real hardware")
    run.add_argument("--config", required=True)
    run.add_argument("--quiet", action="store_true", help="no live view, log lines only")
    room_cli.add_table_options(run)
    run.set_defaults(run=cmd_run)
    check = commands.add_parser("check", help="a hardware self-test, before a match (no config: the emulator)")
    check.add_argument("--config", help="the table's configuration (without it: the emulated board)")
    check.add_argument("--seconds", type=_speed, default=3.0, help="how long the link's counts are watched")
    check.add_argument("--dwell", type=_speed, default=0.15, help="seconds each LED and segment stays lit")
    check.add_argument("--button-seconds", type=_speed, default=10.0, help="how long each button is waited for")
    check.add_argument("--variant", choices=[v.value for v in Variant], default="backgammon",
                       help="the emulated board's starting position (with --config: [match] variant)")
    check.add_argument("--capability", choices=[c.name.lower() for c in Capability], default="stacks",
                       help="what the emulated board senses")
    check.set_defaults(run=cmd_check)
    room_cli.add_commands(commands)
    return parser


def console() -> None:
    """`python -m firmware_host` and its installed short name `gammon-table`: `main` in a process of
    its own, ended by `game.exits` (a reader that left early, `| head`: 141, quietly)."""
    from game.exits import exit_with

    exit_with(lambda: main(own_process=True))


def main(argv: Sequence[str] | None = None, *, own_process: bool = False) -> int:
    """Run the command line; bad input gets one line on stderr and exit status 2. `own_process`:
    the process runs this one command (`python -m firmware_host`), not a caller's many (tests)."""
    args = build_parser().parse_args(argv)
    args.own_process = own_process
    if args.command == "simulate" and args.record is None:
        print("error: simulate needs --record DIR", file=sys.stderr)
        return 2
    try:
        code: int = args.run(args)
    except BrokenPipeError:  # the reader of the output left (`| head`), or not: `exit_with` tells
        raise
    except (TableError, GameError, DriverError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ninterrupted: {args.command or 'the table'} stopped", file=sys.stderr)
        return 130
    return code
