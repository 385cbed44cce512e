"""The live view in a terminal: the board as sensed, the dice, the cube display, the clocks,
the score, what the table is waiting for, and the referee's log. At a chouette: the box, the
captain, every member's cube (who is out, and how), and everyone's running total."""

from __future__ import annotations

from firmware_host.controller import Controller
from game import codes
from game.board import Color
from game.chouette import ChouetteSession, Phase, Side
from game.chouette.options import signed
from game.errors import GameError
from game.hands import zones_position
from game.position import Position
from game.text import draw

CLEAR = "\x1b[H\x1b[2J"


def render(controller: Controller, now: float, log_lines: int = 8, keys: str | None = None,
           notes: tuple[str, ...] = ()) -> str:
    """The live view as text: the match line, the board as sensed, the dice, the display, the link and
    its counts of what went wrong, the clocks, the prompt, the key map (`keys`, when the buttons are
    the terminal's keys), standing `notes` (a chouette's phone codes in the room) and the last lines
    of the log."""
    played = controller.played
    chouette = isinstance(played, ChouetteSession)
    lines = [_chouette_head(played) if isinstance(played, ChouetteSession) else _match_head(controller), ""]
    lines.append(_board(controller))
    prompt = controller.prompt
    dice = f"{prompt.dice[0]}-{prompt.dice[1]}" if prompt.dice else "  -  "
    display = "".join(controller.display.text) if controller.display is not None else "--"
    cube, _ = controller.dialogue.cube()
    owner = cube.owner.value if cube.owner else "centre"
    lines.append(f"dice {dice} | cube display [{display}] ({'highest ' * chouette}cube {cube.value}, {owner}) | "
                 f"link {'up' if controller.link_up else 'DOWN'} | flags {controller.flags}")
    if isinstance(played, ChouetteSession):
        lines.extend(_chouette_lines(played))
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
    lines.extend(note for note in notes if note)
    lines.append("")
    lines.extend(list(controller.log)[-log_lines:])
    return "\n".join(lines)


def _match_head(controller: Controller) -> str:
    match = controller.match
    length = f"match to {match.length}" if match.length else "money session"
    crawford = ", Crawford game" if match.crawford else ""
    return (f"{match.variant.value}, {length}{crawford} | game {match.game_number} | "
            f"score {match.players[0]} {match.score[0]} - {match.score[1]} {match.players[1]}")


def _chouette_head(session: ChouetteSession) -> str:
    head = f"chouette, {session.variant.value}, {session.options.describe()} | "
    if session.phase is Phase.SEATING:
        return head + session.seating.describe()
    partner = f" (partner {session.partner})" if session.partner else ""
    return (head + f"game {session.game_number} | box {session.box}{partner} (black) v captain {session.captain} "
            f"(white)")


def _chouette_lines(session: ChouetteSession) -> list[str]:
    """Every member's cube in team order (who is out, and how), and everyone's running total."""
    lines = []
    if session.stakes is not None:
        cubes = []
        for number, member in enumerate(session.team, 1):
            stake = session.stakes[member]
            cube = stake.cube
            text = f"{codes.member(number)} {member} {cube.value}"
            if cube.owner is not None:
                text += f" ({Side.of(cube.owner).value}'s)"
            if cube.offered_by is not None:
                text += f" offered by the {Side.of(cube.offered_by).value}"
            if stake.result is not None:
                how = {"pass": "passed", "box_pass": "the box passed"}.get(stake.reason, stake.reason)
                text += f" OUT ({how}, {signed(stake.result)})"
            cubes.append(text + (" *captain*" if member == session.captain else ""))
        lines.append("cubes   " + " | ".join(cubes))
    elif session.phase is not Phase.SEATING:
        lines.append("team    " + " | ".join(f"{codes.member(n)} {m}" for n, m in enumerate(session.team, 1)))
    lines.append("totals  " + "  ".join(f"{name} {signed(points)}" for name, points in session.totals.items()))
    return lines


def _board(controller: Controller) -> str:
    """The board as the sensors see it when it forms a position, else the position played."""
    position: Position = controller.played.position
    stable = controller.stable
    if stable is not None and all(r.stack is not None for r in stable):
        try:
            sensed = zones_position([r.stack or "" for r in stable], position.variant, position.turn)
            return draw(sensed)
        except (GameError, ValueError):
            pass
    return draw(position)
