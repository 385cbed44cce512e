"""The referee flags of one match and where each stands, read from its journal events in order.

The table (for its state) and the director (for its pages) read flags the same way:
- a `flag` event raises flag n (the n-th of the match: its picture is flags/flag-000n.png);
- a referee's applied `acknowledge` marks it acknowledged (by that referee); an applied
  `correct`, `accept` or `time_penalty` naming it marks it ruled;
- a match event after it (a roll, a play, a cube action, ...) means the table moved past it:
  every flag still open or acknowledged is then resolved at the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.events import MATCH_EVENT_TYPES

STANDING = ("open", "acknowledged")


@dataclass
class FlagBook:
    """The flags of one match and the rulings answered, from its journal events `add`ed in order."""

    flags: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Flag number -> {number, seq, kind, code, message, player, game, move, status, referee}."""
    rulings: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    """Ruling id -> (journal line, referee event): the rulings the table has answered."""

    def add(self, seq: int, event: dict[str, Any]) -> None:
        """Take journal line `seq`, whose event is `event`: a flag raises the next flag, a match event
        resolves the standing ones, a referee event records its ruling and, if applied, marks the flag it names."""
        kind = event.get("type")
        if kind == "flag":
            number = len(self.flags) + 1
            self.flags[number] = {"number": number, "seq": seq, "status": "open", "referee": None,
                                  **{k: event.get(k) for k in ("kind", "code", "message", "player", "game", "move")}}
        elif kind in MATCH_EVENT_TYPES:
            for flag in self.flags.values():
                if flag["status"] in STANDING:
                    flag["status"] = "resolved"
        elif kind == "referee":
            if event.get("ruling"):
                self.rulings[str(event["ruling"])] = (seq, event)
            named = self.flags.get(event.get("flag") or 0)
            if named is not None and event.get("applied") and named["status"] in STANDING:
                ruled = event.get("action") != "acknowledge"
                named.update(status="ruled" if ruled else "acknowledged", referee=event.get("referee"))

    def standing(self) -> list[dict[str, Any]]:
        """The flags still open or acknowledged, for the table's state (without the line number)."""
        return [{k: v for k, v in f.items() if k != "seq"} for f in self.flags.values() if f["status"] in STANDING]
