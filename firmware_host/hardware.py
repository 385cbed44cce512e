"""A table of real hardware: the drivers opened from a configuration, run by the table loop."""

from __future__ import annotations

import logging
import queue
import sys

from drivers.clock import SYSTEM_CLOCK
from drivers.events import Event
from drivers.keyboard import KeyboardButtons
from drivers.pin_factories import open_pin_factory
from firmware_host.config import HardwareConfig
from firmware_host.controller import Controller
from firmware_host.errors import MisfitBoard
from firmware_host.record.journal import Journal
from firmware_host.record.signing import TableKey
from firmware_host.table import Table
from firmware_host.table_loop import TableLoop, set_aside_from_the_collector, write_mat
from firmware_host.terminal import screen


def open_table(config: HardwareConfig) -> Table:
    """The table's drivers as the configuration says: the pin factory by gpiozero's name (one line,
    not a traceback, when there is no GPIO), the board's port, the dice, the buttons (GPIO or the
    terminal's keys) and the display."""
    pin_factory = open_pin_factory(config.pin_factory)
    return Table.open(config.board_port, dice=config.dice, pin_factory=pin_factory, clock=SYSTEM_CLOCK,
                      button_pins=config.button_pins, cube_pins=config.cube_pins,
                      buttons="keyboard" if config.buttons == "keyboard" else "gpio",
                      keys=sys.stdin.fileno() if config.buttons == "keyboard" else None,
                      reply_timeout=config.reply_seconds)


def run_hardware(config: HardwareConfig, *, quiet: bool = False, max_seconds: float | None = None,
                 own_process: bool = False) -> int:
    """Play a match (or a chouette) at a real table until it is over (or Ctrl-C); the journal resumes it.
    Exit status: 0 when it finished, 1 when it stopped first, 130 on Ctrl-C. A board that
    lacks what the configuration needs (`firmware_host.controller.links`) raises `MisfitBoard` (one line).
    `own_process`: this process runs only this table (`set_aside_from_the_collector`)."""
    logging.basicConfig(level=logging.INFO if quiet else logging.WARNING, format="%(asctime)s %(message)s")
    with open_table(config) as table, \
            Journal(config.record, key=TableKey.load_or_create(config.key_path)) as journal:  # no GPIO: nothing made
        host_dice = table.host_dice  # a roll-button board: the host throws the bot's dice
        controller = Controller.open(config.settings, journal, display=table.display,
                                     zone_leds=table.board.light_zones, stacks=table.board.set_stacks,
                                     needs=table.needs, roll=host_dice.roll if host_dice is not None else None,
                                     read_board=table.board.read_afresh)
        keys = table.buttons.describe() if isinstance(table.buttons, KeyboardButtons) else None
        if keys is not None:
            controller.outputs.note(keys)
        table.start()

        def next_events() -> list[Event]:
            try:
                return [table.events.get(timeout=0.05), *table.drain()]
            except queue.Empty:
                return []

        def frame() -> None:
            notes = (link.phone_line(),) if link is not None else ()
            sys.stdout.write(screen(controller, SYSTEM_CLOCK.now(), keys=keys, notes=notes))
            sys.stdout.flush()

        def after_step(now: float) -> None:
            if controller.links.unfit is not None:  # it would wait for what this board cannot give
                raise MisfitBoard(f"the board does not fit the configuration: {controller.links.unfit}")
            if link is not None:
                link.poll(now)

        link = None
        if config.broker is not None:  # the room: publishing never blocks this loop
            from firmware_host.room.table_link import connect_table

            link = connect_table(controller, config.broker)
        loop = TableLoop(controller, next_events, SYSTEM_CLOCK.now, after_step=after_step)
        if own_process:
            set_aside_from_the_collector()
        try:
            finished = loop.run(max_seconds=max_seconds, on_frame=None if quiet else frame, frame_every=0.5)
        except KeyboardInterrupt:
            print(f"\nstopped; run again with the same config to resume from {journal.path}")
            return 130
        finally:
            if link is not None:
                link.close()
            controller.close()
    _after_the_match(controller, config, quiet)
    return 0 if finished else 1


def _after_the_match(controller: Controller, config: HardwareConfig, quiet: bool) -> None:
    """The match's transcript written, and its analysed report awaited (the table is done: the
    analysis may finish before the exit)."""
    if not quiet:
        print()  # below the last frame
    write_mat(controller, config.record)
    if controller.report.thread is not None:
        print("writing the analysed report ...", flush=True)
        controller.report.wait()
        print(controller.log[-1])
