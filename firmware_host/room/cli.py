"""The room's commands and options, for `python -m firmware_host`:

    python -m firmware_host director --broker URL [--listen 127.0.0.1:8080] [--config director.toml]
    python -m firmware_host director --hash-password          (a password's stored form, for the config)
    python -m firmware_host room-demo [--tables 8] [--speed 4] [--broker URL]
    python -m firmware_host --broker URL --table t01 ...      (an emulated table that publishes; also `simulate`)
"""

from __future__ import annotations

import argparse
import getpass
import socket
import sys
from pathlib import Path
from typing import Any

from firmware_host.errors import ConfigError
from firmware_host.folders import make_directory
from firmware_host.room.broker import DEFAULT_VENUE, BrokerConfig, accepts_anonymous
from firmware_host.room.serving import page_sites
from game.arguments import above_zero


def listen_address(text: str) -> tuple[str, int]:
    """--listen's type: HOST:PORT as (host, port), else argparse's usage error."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT, e.g. 127.0.0.1:8080")
    return host, int(port)


INSECURE_HELP = ("connect to a broker without a login, or one that lets anyone in: anyone on the network can "
                 "then read the room and write its topics (a test's broker only)")


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """--broker, --table, --venue, --director-key, --insecure-anonymous-broker: publish this table to the room."""
    parser.add_argument("--broker", help="publish to the room on this broker, e.g. mqtts://t07:PASSWORD@10.0.0.2")
    parser.add_argument("--table", help="this table's id in the room (with --broker)")
    parser.add_argument("--venue", default=None, help=f"the room's venue id (default {DEFAULT_VENUE!r})")
    parser.add_argument("--director-key", help="the director's public key (ed25519:..., it prints it at start): "
                        "the table follows only rulings and decisions it signed")
    parser.add_argument("--insecure-anonymous-broker", action="store_true", help=INSECURE_HELP)


def table_broker(args: argparse.Namespace) -> BrokerConfig | None:
    """The broker a table was given on the command line (None: no room)."""
    if not args.broker:
        if args.table:
            raise ConfigError("--table needs --broker")
        return None
    if not args.table:
        raise ConfigError("--broker needs --table ID (this table's id in the room)")
    config = BrokerConfig.from_url(args.broker, table=args.table, venue=args.venue, director_key=args.director_key,
                                   insecure_anonymous=args.insecure_anonymous_broker or None)
    config.require_login()
    return config


def check_listen(listen: tuple[str, int]) -> None:
    """Refuse, in one line, an address the pages cannot be served on (in use, or not this host's),
    before anything starts."""
    host, port = listen
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise ConfigError(f"cannot serve the pages on {host}:{port}: {exc.strerror or exc} "
                          "(another director or demo? choose another with --listen)") from None


def ask_password() -> str:
    """A new referee's password: asked twice at a terminal (ConfigError if the two differ), else one line
    of stdin; ConfigError if it is shorter than `auth.MIN_PASSWORD`."""
    from firmware_host.room.auth import check_new_password

    if not sys.stdin.isatty():
        return check_new_password(sys.stdin.readline().rstrip("\n"))
    password = check_new_password(getpass.getpass("password: "))
    if getpass.getpass("the same password again: ") != password:
        raise ConfigError("the two passwords differ: nothing stored")
    return password


def cmd_director(args: argparse.Namespace) -> int:
    """`director`: run the director on --broker and serve its pages on --listen until Ctrl-C, then close it.
    With --hash-password, print the stored form of a password (asked for, or one line of stdin) instead.
    ConfigError without --broker, or for a bad broker URL or --config."""
    if args.hash_password:
        from firmware_host.room.auth import hash_password

        print(hash_password(ask_password()))
        return 0
    if not args.broker:
        raise ConfigError("director needs --broker mqtt://HOST[:PORT]")
    from firmware_host.room.auth import DirectorConfig, Sessions
    from firmware_host.room.director import Director
    from firmware_host.room.serving import serve, sigterm_as_interrupt
    from firmware_host.room.web import create_app

    config = DirectorConfig.load(args.config) if args.config else DirectorConfig()
    sites = page_sites(args.listen, args.site)
    check_listen(args.listen)
    venue = args.venue or config.venue or DEFAULT_VENUE
    data = Path(args.data or config.data or f"room-data/{venue}")
    make_directory(data, "director's data directory")  # before its key is made there
    broker = BrokerConfig.from_url(args.broker, venue=venue, insecure_anonymous=args.insecure_anonymous_broker or None)
    broker.require_login()
    if not broker.insecure_anonymous and accepts_anonymous(broker):
        raise ConfigError(f"broker {broker.describe()} lets anyone in without a login: set allow_anonymous false "
                          "(hardware_docs/room.md, The broker), or --insecure-anonymous-broker")
    director = Director(broker, data, enrolled=config.tables)
    director.start()
    referees = ", ".join(config.referees) or "none configured (--config): spectators only"
    tables = ", ".join(config.tables) or "NONE enrolled (--config [[table]]): no match will count in the results"
    print(f"director of venue {venue!r} on {director.config.describe()}; copies in {data}; referees: {referees}; "
          f"tables: {tables}")
    print(f"the director's key (each table's [broker] director_key): {director.key.public}")
    print(f"the page: http://{args.listen[0]}:{args.listen[1]}/", flush=True)
    try:
        with sigterm_as_interrupt():
            serve(create_app(director, Sessions(config.referees), sites=sites), args.listen)
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM
        pass
    finally:
        director.close()
    return 0


def cmd_room_demo(args: argparse.Namespace) -> int:
    """`room-demo`: a whole room on this machine (`demo.run_demo`); ConfigError for --tables outside 1 to 99."""
    from firmware_host.room.demo import run_demo

    if not 1 <= args.tables <= 99:
        raise ConfigError(f"--tables {args.tables}: 1 to 99")
    page_sites(args.listen, None)
    check_listen(args.listen)
    return run_demo(args.tables, args.speed, args.listen, args.broker, Path(args.dir) if args.dir else None,
                    args.seconds, insecure_anonymous=args.insecure_anonymous_broker)


def add_commands(commands: Any) -> None:
    """The `director` and `room-demo` subcommands."""
    director = commands.add_parser("director", help="the room's director: every table's match, live, on a web page")
    director.add_argument("--broker", help="the room's broker, e.g. mqtt://192.168.1.10:1883")
    director.add_argument("--listen", type=listen_address, default=("127.0.0.1", 8080), help="HOST:PORT of the page")
    director.add_argument("--config", help="director.toml: venue, data, [[referee]] name and password hash, "
                          "[[table]] id and public key")
    director.add_argument("--venue", help=f"the venue's id (default: the config's, else {DEFAULT_VENUE!r})")
    director.add_argument("--data", help="where the director keeps its copies (default room-data/VENUE)")
    director.add_argument("--hash-password", action="store_true", help="print a password's stored form and exit")
    director.add_argument("--insecure-anonymous-broker", action="store_true", help=INSECURE_HELP)
    director.add_argument("--site", help="the address browsers open, e.g. https://room.club.org (behind a TLS proxy): "
                          "referees' requests must come from it (default: the --listen address)")
    director.set_defaults(run=cmd_director)
    demo = commands.add_parser("room-demo", help="a whole room on this machine: broker, tables, director")
    demo.add_argument("--tables", type=int, default=8)
    demo.add_argument("--speed", type=above_zero, default=4.0, help="table seconds per real second")
    demo.add_argument("--listen", type=listen_address, default=("127.0.0.1", 8080))
    demo.add_argument("--broker", help="use this broker instead of starting Mosquitto")
    demo.add_argument("--dir", help="where the tables' records and the director's copies go (default: a temp dir)")
    demo.add_argument("--seconds", type=above_zero, default=None, help="stop after this many seconds")
    demo.add_argument("--insecure-anonymous-broker", action="store_true", help=INSECURE_HELP)
    demo.set_defaults(run=cmd_room_demo)
