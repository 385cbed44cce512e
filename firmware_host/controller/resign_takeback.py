"""What the players agree on at the table outside the rules of play: a resignation chosen with
the buttons and offered, and a takeback of the last play by agreement (hardware_docs/referee.md).
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_host.controller.dialogue import DialogueHost
from firmware_host.controller.prompts import Waiting
from game import codes
from game.board import Color
from game.codes import Code
from game.match import Match
from game.position import Position, ResultKind


class Resignation:
    """A resignation being chosen in `match`: pass shows the next kind (R1, R2, R3), done offers it,
    take cancels."""

    def __init__(self, controller: DialogueHost, match: Match) -> None:
        self.controller = controller
        self.match = match
        self.kind: ResultKind | None = None

    def choose(self, player: Color, kind: ResultKind = ResultKind.SINGLE) -> None:
        """Show `kind` as what `player` would resign."""
        self.kind = kind
        match = self.match
        name = {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
                ResultKind.TRIPLE: f"a {match.variant.triple_name}"}[kind]
        self.controller.publish(Waiting.RESIGN_KIND, player=player, position=match.position,
                                code=codes.resignation(int(kind)),
                                message=f"{player.value} resigns {name}?")

    def more(self, player: Color) -> None:
        """The next kind: single, gammon, triple, and round again."""
        assert self.kind is not None
        self.choose(player, ResultKind(self.kind % 3 + 1))

    def offer(self, player: Color) -> None:
        """Offer the kind shown to the opponent."""
        kind = self.kind
        assert kind is not None
        match = self.match
        self.controller.act(lambda: match.resign(player, kind))


class Takeback:
    """The position before the last play, while it may still be taken back, and who has agreed."""

    def __init__(self, controller: DialogueHost) -> None:
        self.controller = controller
        self.before: Position | None = None
        self.votes: set[Color] = set()
        # The sides that answer for themselves (bots): asker -> {side: agrees}, asked as a takeback is.
        self.voters: Callable[[Color], dict[Color, bool]] | None = None

    def played(self, before: Position) -> None:
        """A play was made from `before`: the board going back to it asks for a takeback."""
        self.before = before

    def ask(self) -> None:
        """The board went back to the position before the last play: both press take to agree."""
        last, played = self.before, self.controller.played
        assert last is not None
        self.votes.clear()
        self.controller.publish(Waiting.TAKEBACK, player=last.turn, position=last, code=Code.TAKEBACK,
                                message=f"{last.turn.value} takes back the last play: both press take to agree")
        self.controller.outputs.write({"type": "takeback_request", "player": last.turn.value,
                                       "game": played.game_number})
        for player, agrees in (self.voters(last.turn) if self.voters else {}).items():
            if not agrees:
                self.refuse(player)
                return
            self.agree(player)

    def agree(self, player: Color) -> None:
        """`player` agrees; with both, the play is taken back."""
        self.votes.add(player)
        if len(self.votes) == 2 and self.before is not None:
            self.before = None
            self.controller.act(self.controller.played.takeback)

    def refuse(self, player: Color) -> None:
        """`player` refuses: the board must be set back as the play left it."""
        played = self.controller.played
        self.controller.outputs.write({"type": "takeback_refused", "player": player.value, "game": played.game_number})
        self.controller.outputs.note(f"{player.value} refuses the takeback: set the board back")
        self.controller.publish(Waiting.SET_BOARD, position=played.position, code=Code.SET_CHECKERS,
                                message="takeback refused: set the board as it was")
