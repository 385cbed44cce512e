"""Whether the boards that answered fit the table's configuration: what each link must announce
in its HELLO for the table to work as configured, checked at every handshake.

A board without electronic dice on a table set to read them from the board would leave the
table waiting for an opening roll that never comes; a port that is no sensor board would leave
it waiting for a board that never sets. Each misfit is said in one line, naming the port, the
board, what it lacks and the setting that needs it (hardware_docs/protocol.md, "Conversation").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from drivers.protocol import Features, Hello


@dataclass(frozen=True, slots=True)
class Need:
    """A feature the configuration needs of one link, why, and what to do without it."""

    feature: Features
    because: str
    """The setting that needs it, as the config file says it: '[dice] source = "board"'."""
    otherwise: str
    """What to do, or what the table does, without it."""
    required: bool = True
    """False: the table works without it (says so once, and does without)."""


Needs = Mapping[str, tuple[Need, ...]]
"""What each link (by its source name) must announce."""


def table_needs(board_source: str, dice: str, dice_source: str | None) -> dict[str, tuple[Need, ...]]:
    """What a table opened with these settings needs: the sensor board on its port (and the dice
    there when `dice` is "board"), or the dice on their own port `dice_source`."""
    board = [Need(Features.ZONES, f'[board] port = "{board_source}"', "this port is not a sensor board"),
             Need(Features.ZONE_LEDS, "the referee lights the zones concerned",
                  "the zones concerned will not be lit", required=False)]
    needs = {board_source: board}
    if dice == "board":
        board.append(Need(Features.DICE, '[dice] source = "board"',
                          'set [dice] source = "roll button" for a board without dice, or the dice\'s own port'))
    elif dice_source is not None:
        needs[dice_source] = [Need(Features.DICE, f'[dice] source = "{dice_source}"',
                                   "this port is not the dice's")]
    return {source: tuple(listed) for source, listed in needs.items()}


def describe_board(hello: Hello) -> str:
    """The board as its HELLO names it: "board 0x5a0001, firmware 1.0.0"."""
    return f"board {hello.board_id:#x}, firmware {'.'.join(map(str, hello.firmware))}"


def misfits(needs: Needs, source: str, hello: Hello) -> tuple[tuple[str, bool], ...]:
    """What the board that answered on `source` lacks of what the table needs, each as one line
    and whether the table cannot work without it."""
    return tuple((f"{source} ({describe_board(hello)}) announced no {need.feature.name}, but {need.because}: "
                  f"{need.otherwise}", need.required)
                 for need in needs.get(source, ()) if need.feature not in hello.features)
