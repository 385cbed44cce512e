"""What the players agree on at the table outside the rules of play: a resignation chosen with
the buttons and offered, and a takeback of the last play by agreement (hardware_docs/referee.md).
Each press hands back its effects (firmware_host/controller/effects.py) for the controller to apply.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_host.controller.effects import Act, Effects, Note, Publish, Write
from firmware_host.controller.prompts import Waiting
from firmware_host.controller.session import Session
from game import codes
from game.board import Color
from game.codes import Code
from game.match import Match
from game.position import Position, ResultKind


class Resignation:
    """A resignation being chosen in `match`: pass shows the next kind (R1, R2, R3), done offers it,
    take cancels."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.kind: ResultKind | None = None

    def choose(self, player: Color, kind: ResultKind = ResultKind.SINGLE) -> Effects:
        """Show `kind` as what `player` would resign."""
        self.kind = kind
        match = self.match
        name = {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
                ResultKind.TRIPLE: f"a {match.variant.triple_name}"}[kind]
        return [Publish(Waiting.RESIGN_KIND, player=player, position=match.position, code=codes.resignation(int(kind)),
                        message=f"{player.value} resigns {name}?")]

    def more(self, player: Color) -> Effects:
        """The next kind: single, gammon, triple, and round again."""
        assert self.kind is not None
        return self.choose(player, ResultKind(self.kind % 3 + 1))

    def offer(self, player: Color) -> Effects:
        """Offer the kind shown to the opponent."""
        kind = self.kind
        assert kind is not None
        match = self.match
        return [Act(lambda: match.resign(player, kind))]


Voters = Callable[[Color], tuple[dict[Color, bool], Effects]]
"""The sides that answer a takeback for themselves (bots): asker -> ({side: agrees}, what they say)."""


class Takeback:
    """In `session`, the position before the last play, while it may still be taken back, and who has agreed."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.before: Position | None = None
        self.votes: set[Color] = set()
        self.voters: Voters | None = None
        """The sides that answer for themselves, asked as a takeback is."""

    def played(self, before: Position) -> None:
        """A play was made from `before`: the board going back to it asks for a takeback."""
        self.before = before

    def ask(self) -> Effects:
        """The board went back to the position before the last play: both press take to agree."""
        last, played = self.before, self.session
        assert last is not None
        self.votes.clear()
        effects: Effects = [
            Publish(Waiting.TAKEBACK, player=last.turn, position=last, code=Code.TAKEBACK,
                    message=f"{last.turn.value} takes back the last play: both press take to agree"),
            Write({"type": "takeback_request", "player": last.turn.value, "game": played.game_number})]
        votes, said = self.voters(last.turn) if self.voters else ({}, [])
        effects += said
        for player, agrees in votes.items():
            if not agrees:
                return effects + self.refuse(player)
            effects += self.agree(player)
        return effects

    def agree(self, player: Color) -> Effects:
        """`player` agrees; with both, the play is taken back."""
        self.votes.add(player)
        if len(self.votes) == 2 and self.before is not None:
            self.before = None
            return [Act(self.session.takeback)]
        return []

    def refuse(self, player: Color) -> Effects:
        """`player` refuses: the board must be set back as the play left it."""
        played = self.session
        return [Write({"type": "takeback_refused", "player": player.value, "game": played.game_number}),
                Note(f"{player.value} refuses the takeback: set the board back"),
                Publish(Waiting.SET_BOARD, position=played.position, code=Code.SET_CHECKERS,
                        message="takeback refused: set the board as it was")]
