"""The live view in a terminal: the board as sensed, the dice, the cube display, the clocks,
the score, what the table is waiting for, and the referee's log."""

from __future__ import annotations

from firmware_host.controller import Controller
from firmware_host.physical import zones_position
from game.board import Color
from game.errors import GameError
from game.text import draw

CLEAR = "\x1b[H\x1b[2J"


def render(controller: Controller, now: float, log_lines: int = 8, keys: str | None = None) -> str:
    """The live view as text: the match line, the board as sensed, the dice, the display, the link and
    its counts of what went wrong, the clocks, the prompt, the key map (`keys`, when the buttons are
    the terminal's keys) and the last lines of the log."""
    match = controller.match
    length = f"match to {match.length}" if match.length else "money session"
    crawford = ", Crawford game" if match.crawford else ""
    head = (f"{match.variant.value}, {length}{crawford} | game {match.game_number} | "
            f"score {match.players[0]} {match.score[0]} - {match.score[1]} {match.players[1]}")
    lines = [head, ""]
    lines.append(_board(controller))
    prompt = controller.prompt
    dice = f"{prompt.dice[0]}-{prompt.dice[1]}" if prompt.dice else "  -  "
    display = "".join(controller.display.text) if controller.display is not None else "--"
    cube = match.cube
    owner = cube.owner.value if cube.owner else "centre"
    lines.append(f"dice {dice} | cube display [{display}] (cube {cube.value}, {owner}) | "
                 f"link {'up' if controller.link_up else 'DOWN'} | flags {controller.flags}")
    health = controller.links.status()
    if health:
        lines.append(f"link counts  {health}")
    if controller.clock is not None:
        lines.append("clock  " + "   ".join(
            f"{c.value} {controller.clock.show(c, now)}{' <' if controller.clock.running is c else ''}"
            for c in Color))
    lines.append(f">> {prompt.describe()}")
    if keys is not None:
        lines.append(keys)
    lines.append("")
    lines.extend(list(controller.log)[-log_lines:])
    return "\n".join(lines)


def _board(controller: Controller) -> str:
    """The board as the sensors see it when it forms a position, else the match's position."""
    match = controller.match
    stable = controller.stable
    if stable is not None and all(r.stack is not None for r in stable):
        try:
            sensed = zones_position([r.stack or "" for r in stable], match.variant, match.position.turn)
            return draw(sensed)
        except (GameError, ValueError):
            pass
    return draw(match.position)
