"""The one place where a table meets the room: a controller attached to a `TablePublisher`.

What it relies on of the controller (and nothing else):
- `controller.journal`: `settle()` then `path` (read once, to offer the lines already written, all
  durable), `sequence` (lines written), `heard` (lines told), `listen(callback)` (each new line once
  durable, its number and its hash) and `deliver()` (the lines made durable since);
- for the state: `match` (variant, length, players, game_number, score, crawford, position,
  dice, cube, is_over, winner), `prompt` (asks, player, dice, code, message, serial),
  `clock` (remaining, running, delay_left; None without a clock), `link_up`, `settings.profile`;
- for a ruling: `controller.referee(name, action, flag=, player=, seconds=, ruling=)`;
- at a chouette: `played` (the session) and `contest` (its `asked`, and `decide` for a member's decision
  from a phone: firmware_host/room/chouette_room.py), `settings.chouette.bots` (the players who are
  bots: no code, named as bots), and `outputs.note` for a refused one.
Everything runs on the table's own thread: the journal calls back at an action's end or from
`deliver`, and the table's loop calls `poll(now)` (state out, rulings and decisions in) once per turn of the loop.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from firmware_host.controller.bot_seat import bot_label
from firmware_host.controller.cube.chouette import ChouetteDialogue
from firmware_host.room.broker import BrokerConfig
from firmware_host.room.chouette_room import PhoneDecisions, chouette_state, phone_code, table_key
from firmware_host.room.flags import FlagBook
from firmware_host.room.messages import Reply, Ruling, encode_state, match_id, phone_verifier
from firmware_host.room.publisher import TablePublisher
from game.board import Color
from game.chouette import ChouetteSession, Phase
from game.match import Match
from game.record import line_hash, read_record

if TYPE_CHECKING:
    from firmware_host.controller import Controller

_log = logging.getLogger(__name__)


def table_state(controller: Controller, now: float) -> dict[str, Any]:
    """What the room shows of a table: the match, what the table waits for, the clocks, the link. At a
    chouette: the team's captain plays White, the box Black, the cube is the highest in play, the score
    stays 0-0 (everyone's running total is in the `chouette` field, which `TableLink` adds)."""
    played, prompt, clock = controller.played, controller.prompt, controller.clock
    dice = prompt.dice or played.dice
    if isinstance(played, ChouetteSession):
        seated = played.phase is not Phase.SEATING
        cube, _ = controller.dialogue.cube()
        players = (played.captain if seated else "the team", played.box if seated else "the box")
        length, score, crawford = 0, (0, 0), False
    else:
        match = controller.match
        cube, players, length, score, crawford = (match.cube, match.players, match.length or 0, match.score,
                                                  match.crawford)
    return {
        "variant": played.variant.value, "length": length,
        "players": {"white": players[0], "black": players[1]},
        "game": played.game_number, "score": {"white": score[0], "black": score[1]},
        "crawford": crawford, "position": played.position.to_document(),
        "dice": list(dice) if dice else None,
        "cube": {"value": cube.value, "owner": cube.owner.value if cube.owner else None},
        "turn": prompt.player.value if prompt.player else None, "waiting": prompt.asks,
        "code": prompt.code, "message": prompt.message,
        "clock": None if clock is None else {
            "white": round(clock.remaining(Color.WHITE, now), 2), "black": round(clock.remaining(Color.BLACK, now), 2),
            "running": clock.running.value if clock.running else None, "delay_left": round(clock.delay_left(now), 2)},
        "link": "up" if controller.link_up else "down", "over": played.is_over,
        "winner": played.winner.value if isinstance(played, Match) and played.winner else None,
        "profile": controller.settings.profile.value,
    }


class TableLink:
    """Relays a controller's journal and state to a publisher, and its rulings back to the controller."""

    def __init__(self, controller: Controller, publisher: TablePublisher,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.controller = controller
        self.publisher = publisher
        self._wall = wall_clock
        journal = controller.journal
        journal.settle()  # the room is offered no line a power cut could still take back
        lines = read_record(journal.path)
        if not lines or len(lines) != journal.sequence:
            raise ValueError(f"{journal.path}: {len(lines)} lines read, the journal says {journal.sequence}")
        self.match = match_id(lines[0].raw)
        self.flags = FlagBook()
        for line in lines:
            if line.event is not None:
                self.flags.add(line.number, line.event)
        publisher.open_match(self.match, [(line.raw, line_hash(line.raw)) for line in lines])
        journal.listen(self._written)
        self._shown: tuple[int, int, bool, int] | None = None
        self._answered: dict[str, tuple[int, dict[str, Any]]] = {}
        self.decisions = PhoneDecisions(publisher.table, self.match)
        chouette = controller.settings.chouette
        self.bots = {name: level.value for name, level in chouette.bots.items()} if chouette is not None else {}
        """At a chouette: the players who are bots, and their levels (they decide at the table: no code)."""
        self.phones: dict[str, str] = {}
        """At a chouette: each person's code for deciding from a phone (shown on the table's view)."""
        if isinstance(controller.played, ChouetteSession):
            secret = table_key(journal.directory)
            self.phones = {name: phone_code(secret, self.match, name) for name in controller.played.totals
                           if name not in self.bots}
        table = publisher.table
        self._verifiers = {name: phone_verifier(table, self.match, name, code) for name, code in self.phones.items()}
        if self.phones:
            controller.outputs.note(self.phone_line())
        self.unreachable = False
        """The log said the broker does not answer (and has not said since that it does)."""
        self._failed_seen = 0

    def phone_line(self) -> str:
        """At a chouette: the line that shows each person's code, and the bots, which have none ("" elsewhere)."""
        if not self.phones:
            return ""
        codes = ", ".join(f"{name} {code}" for name, code in self.phones.items())
        bots = "".join(f"; {bot_label(name, level)} decides at the table, with no code"
                       for name, level in self.bots.items())
        return f"phone codes (decide on the director's page for table {self.publisher.table}): {codes}{bots}"

    def _written(self, seq: int, line: bytes, digest: str) -> None:
        self.publisher.offer(self.match, seq, line, digest)
        self.flags.add(seq, json.loads(line))

    def poll(self, now: float) -> None:
        """Say when the broker cannot be reached and when it is again; apply the rulings that came in;
        publish the state when it changed."""
        self._say_reach()
        controller = self.controller
        controller.journal.deliver()
        for ruling in self.publisher.take_rulings():
            self._apply(ruling)
        for decision in self.publisher.take_decisions():
            self.publisher.reply(self.decisions.apply(controller, decision))
        refused = sum(self.decisions.refused.values())
        shown = (controller.journal.heard, controller.prompt.serial, controller.link_up, refused)
        if shown != self._shown:
            self._shown = shown
            state = {"table": self.publisher.table, "match": self.match, "seq": shown[0],
                     **table_state(controller, now), "flags": self.flags.standing(), "sent": round(self._wall(), 3)}
            played, contest = controller.played, controller.dialogue
            if isinstance(played, ChouetteSession) and isinstance(contest, ChouetteDialogue):
                state["chouette"] = {**chouette_state(played, contest, self.match, self._verifiers, self.bots),
                                     "refused": dict(self.decisions.refused)}
            self.publisher.set_state(encode_state(state))

    def _say_reach(self) -> None:
        """One line (the log, and stderr through logging when nothing else shows it) the first time an
        attempt finds no broker, and one when a connection is made after that; paho keeps retrying."""
        publisher = self.publisher
        connected, failed = publisher.connected, publisher.stats.failed_connects
        failed_again, self._failed_seen = failed > self._failed_seen, failed
        line = None
        if failed_again and not connected and not self.unreachable:
            self.unreachable = True
            line = (f"room: the broker {publisher.config.describe()} does not answer; retrying every few seconds, "
                    "the match goes on and its record is sent when it answers")
        elif connected and self.unreachable:
            self.unreachable = False
            line = f"room: the broker {publisher.config.describe()} answers: table {publisher.table} is in the room"
        if line is not None:
            self.controller.outputs.note(line)
            _log.warning("%s", line)

    def _apply(self, ruling: Ruling) -> None:
        # a ruling delivered twice is applied once, and answered again: the book knows the rulings of
        # the lines heard, `_answered` those whose line may not be durable yet
        done = self.flags.rulings.get(ruling.id) or self._answered.get(ruling.id)
        if done is None:
            seq = self.controller.journal.sequence + 1  # the referee event is the ruling's first line
            event = self.controller.referee(ruling.referee, ruling.action, flag=ruling.flag,
                                            player=Color(ruling.player) if ruling.player else None,
                                            seconds=ruling.seconds, ruling=ruling.id)
            done = self._answered[ruling.id] = (seq, event)
        seq, event = done
        self.publisher.reply(Reply(ruling.id, bool(event["applied"]), str(event["outcome"]), seq))

    def close(self, flush_timeout: float = 2.0) -> None:
        """Stop publishing, once every line written is offered (made durable first: the table's last
        lines may still be on their way to the disk) and after up to `flush_timeout` s for the director
        to acknowledge what is outstanding."""
        self.controller.journal.settle(flush_timeout)
        self.publisher.close(flush_timeout)


def connect_table(controller: Controller, config: BrokerConfig) -> TableLink:
    """Attach `controller` to the broker of `config` and start publishing (in the background)."""
    publisher = TablePublisher(config)
    link = TableLink(controller, publisher)
    publisher.start()
    return link
