"""A chouette table in the room: its state for the pages, and its members' decisions from their phones.

Who may decide for a member (hardware_docs/room.md, "A member's decision from a phone"): the
table gives each person of the session a code of their own (a player who is a bot gets none: it
decides at the table, and the state names it among the `bots`), derived from a secret kept beside
the journal (`phones.key`, never published) and the match, and shows the codes on its own view
when it joins the room. Its retained state carries, for each player, only a verifier
(SHA-256 of table, match, name and code), which the director checks a phone's code against;
the pages never show the verifiers. The table then applies a decision only if it answers the
decision asked now (`ask`), of that member, with an answer allowed now; anything else is
refused, counted by reason and logged in one line, and never applied.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_host.controller.cube.chouette import Asked, ChouetteDialogue
from firmware_host.room.messages import Decided, Decision
from game import codes
from game.chouette import ChouetteSession, Phase, Side
from game.cube import Cube

if TYPE_CHECKING:
    from firmware_host.controller import Controller

KEY_NAME = "phones.key"
"""The table's secret for its members' codes, beside the journal (created on first use, mode 0600)."""
CODE_LETTERS = 10
"""A code's length: 10 letters of base32 (50 bits), shown as two groups of five."""
REMEMBERED = 1000
"""Decisions whose answer the table keeps, to answer a resend as before (the latest; a session asks a few hundred)."""
REASONS = ("stale", "duplicate", "wrong-member", "table-id", "answer", "out-of-reach")
"""Why a table refuses a decision (what it counts)."""


def table_key(directory: Path) -> bytes:
    """The secret the members' codes are made from: `directory`/phones.key, made once (32 random bytes)."""
    path = directory / KEY_NAME
    try:
        return path.read_bytes()
    except FileNotFoundError:
        secret = secrets.token_bytes(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(secret)
        return secret


def phone_code(secret: bytes, match: str, name: str) -> str:
    """`name`'s code in the session `match`: the same after a restart, another in the next session.

    >>> phone_code(bytes(32), "6554b9c575440794", "Ann")
    'SHRMU-ZJVWG'
    """
    digest = hmac.new(secret, f"chouette-phone\0{match}\0{name}".encode(), hashlib.sha256).digest()
    letters = base64.b32encode(digest).decode()[:CODE_LETTERS]
    return f"{letters[:5]}-{letters[5:]}"


def ask_id(match: str, asked: Asked) -> str:
    """The decision asked now, named so that an answer to another (earlier, or in another session) never fits:
    match, game, move, kind, code, value.

    >>> from game.chouette import Side
    >>> ask_id("6554b9c575440794", Asked(Side.TEAM, "Bob", "Bob", "P1", "answer", ("take", "pass"), 2, 1, 2))
    '6554b9c575440794-g1-m2-answer-P1-2'
    """
    return f"{match}-g{asked.game}-m{asked.move}-{asked.kind}-{asked.code}-{asked.value}"


def chouette_state(session: ChouetteSession, contest: ChouetteDialogue, match: str,
                   phones: Mapping[str, str], bots: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The state's `chouette` field: phase, box, captain, line, every member's cube (who is out), everyone's
    running total, the decision asked now (`ask`, and whether a phone may answer: the team side's), the
    verifiers of the people's codes and the players who are `bots` (name: level)."""
    seated = session.phase is not Phase.SEATING
    members = []
    if seated:
        for number, name in enumerate(session.team, 1):
            stake = session.stakes[name] if session.stakes is not None else None
            cube = stake.cube if stake is not None else Cube()  # between games: every cube centred at 1
            members.append({"name": name, "code": codes.member(number), "cube": cube.value,
                            "owner": Side.of(cube.owner).value if cube.owner is not None else None,
                            "offered": cube.offered_by is not None,
                            "out": stake is not None and stake.result is not None,
                            "result": _points(stake.result) if stake is not None and stake.result is not None else None,
                            "captain": name == session.captain})
    asked = contest.asked
    return {"phase": session.phase.value, "box": session.box if seated else None,
            "captain": session.captain if seated else None,
            "line": list(session.roster.line) if seated else [],
            "members": members, "totals": {name: _points(p) for name, p in session.totals.items()},
            "games": len(session.games),
            "asked": None if asked is None else {
                "ask": ask_id(match, asked), "side": asked.side.value, "player": asked.player,
                "member": asked.member, "code": asked.code, "kind": asked.kind, "answers": list(asked.answers)},
            "phones": dict(phones), "bots": dict(bots or {})}


def _points(value: Any) -> int | float:
    number = float(value)
    return int(number) if number.is_integer() else number


class PhoneDecisions:
    """The table's side of members' decisions from phones: each applied once, if it is the one asked."""

    def __init__(self, table: str, match: str) -> None:
        self.table = table
        self.match = match
        self.refused: Counter[str] = Counter()
        """Decisions refused, by reason (`REASONS`)."""
        self.applied = 0
        self._done: dict[str, Decided] = {}

    def apply(self, controller: Controller, decision: Decision) -> Decided:
        """Apply `decision` if it answers the decision asked now, from that member; the table's answer either
        way. Delivered again, a decision is answered again as it was (and counted as a duplicate)."""
        done = self._done.get(decision.id)
        if done is not None:
            return self._refuse(controller, decision, "duplicate", f"decision {decision.id} came before: "
                                f"{done.outcome}", answered=done)
        contest = controller.dialogue
        asked = contest.asked if isinstance(contest, ChouetteDialogue) else None
        if decision.table != self.table:
            return self._refuse(controller, decision, "table-id", f"for table {decision.table}, not {self.table}")
        if asked is None or asked.side is not Side.TEAM or ask_id(self.match, asked) != decision.ask:
            now = "nothing" if asked is None or asked.side is not Side.TEAM else ask_id(self.match, asked)
            return self._refuse(controller, decision, "stale", f"{decision.ask} is not asked now (asked: {now})")
        if decision.player != asked.player:
            return self._refuse(controller, decision, "wrong-member",
                                f"{decision.player} answered {asked.player}'s decision ({asked.code})")
        if controller.outage.out:  # as a press is not taken then
            return self._refuse(controller, decision, "out-of-reach", "the board is out of reach (a link is down): "
                                "answer again when it is back")
        assert isinstance(contest, ChouetteDialogue)
        seq = controller.journal.sequence + 1  # the decision event is the first line it writes
        why = controller.decide(decision.answer, id=decision.id)
        if why is not None:
            return self._refuse(controller, decision, "answer", why)
        self.applied += 1
        return self._remember(Decided(decision.id, True, f"applied: {decision.player} {decision.answer} "
                                                         f"({asked.code})", seq))

    def _remember(self, done: Decided) -> Decided:
        self._done[done.id] = done
        if len(self._done) > REMEMBERED:
            del self._done[next(iter(self._done))]
        return done

    def _refuse(self, controller: Controller, decision: Decision, reason: str, why: str,
                answered: Decided | None = None) -> Decided:
        self.refused[reason] += 1
        controller.outputs.note(f"phone decision {decision.id} ({decision.player}: {decision.answer}) refused: "
                                f"{reason}: {why}")
        if answered is not None:
            return answered
        return self._remember(Decided(decision.id, False, f"{reason}: {why}", None))
