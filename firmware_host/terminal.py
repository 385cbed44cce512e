"""The live view in a terminal: the match and the score, the board as sensed with every point,
beside it the dice, the cube and what the display shows (in words), the clocks, the link and the
flags; below, what the table is waiting for and the referee's log. At a chouette: the box, the
captain, every member's cube (who is out, and how), and everyone's running total; the header
names each player who is a bot as one (`box Cy (bot, expert)`).

Laid out for the terminal it is drawn in: 80 columns by 24 lines at the least (`MIN_SIZE`), the
log longer and its lines less cut when there is more room. Narrower, the side panel goes below
the board; smaller, the view is cut and says what it needs.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Mapping, Sequence
from itertools import zip_longest

from drivers.cube_display import cube_digits
from firmware_host.controller import Controller
from firmware_host.controller.bot_seat import bot_label
from game import codes
from game.board import Color
from game.chouette import ChouetteSession, Phase, Side
from game.chouette.options import signed
from game.errors import GameError
from game.hands import zones_position
from game.plays import format_roll
from game.position import Position
from game.text import draw

MIN_SIZE = (80, 24)
"""Columns and lines the view needs to show everything: the header, the score, all 24 points."""
GAP = 2
"""Columns between the board and the side panel."""
SIDE_MIN = 30
"""Columns the side panel needs beside the board; with fewer, it goes below."""
KEEP = "\u00a0"
"""A space that wrapping keeps (textwrap breaks at ASCII whitespace only)."""
HOME, CLEAR_LINE, CLEAR_BELOW = "\x1b[H", "\x1b[K", "\x1b[J"
CLEAR = HOME + "\x1b[2J"


def terminal_size() -> tuple[int, int]:
    """The terminal's columns and lines (80x24 when it cannot tell: not a terminal)."""
    size = shutil.get_terminal_size(MIN_SIZE)
    return size.columns, size.lines


def screen(controller: Controller, now: float, size: tuple[int, int] | None = None, *, keys: str | None = None,
           notes: Sequence[str] = (), hint: str = "Ctrl-C stops") -> str:
    """The view as one write to a terminal of `size` (the terminal's own when None): each line drawn
    over the last frame's, the rest of the screen cleared, no line scrolled."""
    columns, lines = size or terminal_size()
    text = view_lines(controller, now, columns, lines, keys=keys, notes=notes, hint=hint)
    return HOME + "".join(line + CLEAR_LINE + "\n" for line in text[:-1]) + text[-1] + CLEAR_LINE + CLEAR_BELOW


def render(controller: Controller, now: float, columns: int = MIN_SIZE[0], lines: int = MIN_SIZE[1], *,
           keys: str | None = None, notes: Sequence[str] = (), hint: str = "") -> str:
    """The view as text, its lines joined (`view_lines`)."""
    return "\n".join(view_lines(controller, now, columns, lines, keys=keys, notes=notes, hint=hint))


def view_lines(controller: Controller, now: float, columns: int = MIN_SIZE[0], lines: int = MIN_SIZE[1], *,
               keys: str | None = None, notes: Sequence[str] = (), hint: str = "") -> list[str]:
    """The view as at most `lines` lines of at most `columns` characters: the header (what is played,
    the game, the score; `hint` at its right when it fits), the board beside the side panel, the prompt,
    the key map (`keys`, when the buttons are the terminal's keys), standing `notes` (a chouette's phone
    codes in the room), and as much of the log, newest last, as the lines left hold."""
    played = controller.played
    if isinstance(played, ChouetteSession):
        chouette = controller.settings.chouette
        head = _chouette_head(played, {name: level.value for name, level in chouette.bots.items()} if chouette else {})
    else:
        head = _match_head(controller)
    if columns < MIN_SIZE[0] or lines < MIN_SIZE[1]:
        head = f"[{columns}x{lines}: the view needs {MIN_SIZE[0]}x{MIN_SIZE[1]}] " + head
    elif hint and len(head) + 2 + len(hint) <= columns:
        head += " " * (columns - len(head) - len(hint)) + hint
    board, counts = _board(controller)
    side = counts + _side(controller, now)
    width = max(len(line) for line in board)
    if columns - width - GAP >= SIDE_MIN:
        side = [part for line in side for part in _wrap(line, columns - width - GAP)]
        body = [f"{left:<{width + GAP}}{right}".rstrip() for left, right in zip_longest(board, side, fillvalue="")]
    else:
        body = board + [part for line in side for part in _wrap(line, columns)]
    heading = _wrap(head, columns)[:3]  # a chouette's (nine players, the house's options, its bots) may take three
    top = heading + body
    below = _wrap(f">> {controller.prompt.describe()}", columns)
    for line in (keys, *notes):
        if line:
            below += _wrap(line, columns)
    top = top[:max(lines - len(below), len(heading) + len(board))]  # the prompt before the side's overflow
    room = lines - len(top) - len(below)
    log = [wrapped for entry in controller.log for wrapped in _wrap(entry, columns)]
    view = top + below + (log[-room:] if room > 0 else [])
    return [line[:columns].replace(KEEP, " ") for line in view[:lines]]


def _wrap(text: str, columns: int) -> list[str]:
    """`text` in lines of `columns`, the later ones indented (never broken at a `KEEP`)."""
    return textwrap.wrap(text, columns, subsequent_indent="  ", break_on_hyphens=False) or [""]


def _match_head(controller: Controller) -> str:
    match = controller.match
    length = f"match to {match.length}" if match.length else "money session"
    crawford = ", Crawford game" if match.crawford else ""
    return (f"{match.variant.value}, {length}{crawford}, game {match.game_number} | "
            f"{match.players[0]} {match.score[0]} - {match.score[1]} {match.players[1]}")


def _chouette_head(session: ChouetteSession, bots: Mapping[str, str]) -> str:
    """What is played, the game, the box and the captain; each player who is a bot (`bots`: name, level)
    named as one where the header names them, and otherwise at its end."""
    def named(name: str | None) -> str:
        return bot_label(name, bots[name]) if name is not None and name in bots else str(name)

    head = f"chouette, {session.variant.value}, {session.options.describe()} | "
    if session.phase is Phase.SEATING:
        return head + session.seating.describe() + (f" | {', '.join(map(named, bots))}" if bots else "")
    partner = f" (partner {named(session.partner)})" if session.partner else ""
    members = [named(name) for name in bots if name not in (session.box, session.captain, session.partner)]
    return (head + f"game {session.game_number} | box {named(session.box)}{partner} (black) v captain "
            f"{named(session.captain)} (white)" + (f" | {'members' if len(members) > 1 else 'member'} "
                                                   f"{', '.join(members)}" if members else ""))


def _side(controller: Controller, now: float) -> list[str]:
    """Beside the board: the dice, the cube and what the display shows, the clocks, the link, the flags;
    at a chouette, every member's cube and everyone's total."""
    played, prompt = controller.played, controller.prompt
    chouette = isinstance(played, ChouetteSession)
    dice = prompt.dice or played.dice
    on_roll = f"{prompt.player.value} " if prompt.player else ""
    lines = [f"dice  {on_roll}{format_roll(dice) if dice else '-'}"]
    cube, _ = controller.dialogue.cube()
    owner = f"{cube.owner.value}'s" if cube.owner else "centred"
    lines.append(f"cube  {'highest ' * chouette}{cube.value}, {owner}")
    display = controller.display
    if display is not None:
        text = "".join(display.text)
        code = controller.outputs.code
        words = controller.outputs.words() if code or text != "".join(cube_digits(cube.value)) else "the cube"
        lines.append(f"display [{text}] {words}")
    clock = controller.clock
    if clock is not None:
        lines.append(f"clock: reserve, {clock.delay:g} s a turn free")
        lines.append("  " + "  ".join(f"{c.value} {clock.show(c, now)}{' <' if clock.running is c else ''}"
                                      for c in Color))
    health = controller.links.status().split("; ")
    lines.append(f"link  {'up' if controller.link_up else 'DOWN'}" + (f", {health[0]}" if health[0] else ""))
    lines.extend("  " + ", ".join(item.replace(" ", KEEP) for item in part.split(", ")) for part in health[1:])
    lines.append(f"referee flags {controller.flags}")
    if isinstance(played, ChouetteSession):
        lines.extend(_chouette_lines(played))
    return lines


def _chouette_lines(session: ChouetteSession) -> list[str]:
    """Every member's cube in team order (who is out, and how), and everyone's running total."""
    lines = []
    for number, member in enumerate(session.team, 1):
        text = f"{codes.member(number)} {member}"
        if session.stakes is not None:
            stake = session.stakes[member]
            cube = stake.cube
            text += f" {cube.value}"
            if cube.owner is not None:
                text += f" ({Side.of(cube.owner).value}'s)"
            if cube.offered_by is not None:
                text += f" offered by the {Side.of(cube.offered_by).value}"
            if stake.result is not None:
                how = {"pass": "passed", "box_pass": "the box passed"}.get(stake.reason, stake.reason)
                text += f" OUT ({how}, {signed(stake.result)})"
            if member == session.captain:
                text += " *captain*"
        lines.append(text)
    lines.append("totals  " + "  ".join(f"{name} {signed(points)}" for name, points in session.totals.items()))
    return lines


def _board(controller: Controller) -> tuple[list[str], list[str]]:
    """The board as the sensors see it when it forms a position, else the position played: its grid
    (points numbered, top to bottom), and the lines that count each side's checkers."""
    position: Position = controller.played.position
    stable = controller.stable
    drawn = draw(position)
    if stable is not None and all(r.stack is not None for r in stable):
        try:
            drawn = draw(zones_position([r.stack or "" for r in stable], position.variant, position.turn))
        except (GameError, ValueError):
            pass
    lines = drawn.splitlines()[1:]  # the first says whose turn it is: the prompt says more
    last_rule = max(i for i, line in enumerate(lines) if line.startswith("+"))
    return lines[:last_rule + 2], lines[last_rule + 2:]
