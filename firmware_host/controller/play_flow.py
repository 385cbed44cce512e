"""A player's turn: the PLAY prompt (or, when the roll cannot be played, the turn passed at once),
then from the done press on the play committed, the look-alike plays offered to choose from,
or the board flagged; while a flagged play is corrected, the display and the zone LEDs follow
the board; under the traditional profile the opponent accepts an illegal play or has it
corrected (hardware_docs/referee.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_host.controller.dialogue import DialogueHost
from firmware_host.controller.prompts import Waiting
from firmware_host.controller.resign_takeback import Takeback
from firmware_host.controller.turn import Choose, Commit, Flag, Turn
from game import codes
from game.board import Color
from game.codes import Code, FlagKind
from game.errors import GameError
from game.hands import zones_position
from game.plays import Play, format_roll
from game.reconcile import Illegal, Misplaced, Verdict
from game.zones import Capability, ZoneReading, zone_diff


class PlayFlow:
    """Turns a done press into a committed play, a choice or a flag; `traditional` lets the
    opponent accept an illegal play, and has a player who cannot play press done all the same."""

    def __init__(self, controller: DialogueHost, takeback: Takeback, *, traditional: bool) -> None:
        self.controller = controller
        self.takeback = takeback
        self.traditional = traditional

    def begin(self, player: Color, dice: tuple[int, int], capability: Capability | None) -> Turn | None:
        """`player` is to play `dice`: the PLAY prompt and the turn to judge. A roll that cannot be
        played is said at once (`NP`) and the turn passes without a done press, unless the profile
        (traditional) wants the press; then None (the turn is over)."""
        played = self.controller.played
        position = played.position
        turn = Turn(position, dice, capability) if capability is not None else None
        if played.legal_plays():
            self.controller.publish(Waiting.PLAY, player=player, dice=dice, position=position)
            return turn
        cannot = f"{player.value} cannot play {format_roll(dice)}"
        if self.traditional:
            self.controller.publish(Waiting.PLAY, player=player, dice=dice, position=position, code=Code.NO_PLAY,
                                    message=f"{cannot}: press done to pass the turn")
            return turn
        self.controller.publish(Waiting.PLAY, player=player, dice=dice, position=position, code=Code.NO_PLAY,
                                message=f"{cannot}: the turn passes")
        self.commit(Play((), position))
        self.controller.flash(Code.NO_PLAY)  # over the next prompt, for a moment: why the turn passed
        return None

    def correcting(self, verdict: Verdict) -> None:
        """A settled board while a flagged play is corrected: the code and the zones concerned while
        the board is still wrong, the cube and dark zones as soon as it is right again."""
        wrong = isinstance(verdict, Illegal | Misplaced)
        self.controller.show(verdict.short_code() if wrong else "")
        self.controller.outputs.light(verdict.zones() if wrong else frozenset())

    def done(self, player: Color, turn: Turn, zones: Sequence[ZoneReading]) -> None:
        """`player` pressed done with the settled board standing as `zones`."""
        decision = turn.done(zones)
        if isinstance(decision, Commit):
            self.commit(decision.play)
            if decision.among:  # after the play: a kill between the two never leaves a choice of no play
                self.controller.outputs.write({"type": "choice", "player": player.value,
                                               "play": decision.play.notation(),
                                               "among": [p.notation() for p in decision.among]})
        elif isinstance(decision, Choose):
            self.controller.outputs.note(decision.verdict.describe())
            self.show_choice(turn)
        elif isinstance(decision, Flag):
            self._flag(player, turn, decision.verdict, zones)

    def commit(self, play: Play) -> None:
        """Play `play` on what is played."""
        played = self.controller.played
        before = played.position
        self.controller.act(lambda: played.play(play))
        self.takeback.played(before)

    def show_choice(self, turn: Turn) -> None:
        """Show which look-alike play a done press would confirm (C1, C2, ...)."""
        choice, choices = turn.choice, turn.choices
        self.controller.show(codes.choice(choice + 1))
        self.controller.outputs.note(f"choice {choice + 1} of {len(choices)}: {choices[choice].notation()} "
                                     "(double: next, done: confirm)")

    def _flag(self, player: Color, turn: Turn, verdict: Verdict, zones: Sequence[ZoneReading]) -> None:
        before = turn.position
        assert isinstance(verdict, Illegal | Misplaced), verdict  # what a done press flags
        board, because = turn.reconciler.expected(verdict)
        message = verdict.describe()
        if isinstance(verdict, Illegal):  # the words of the picture's list: what differs from the nearest legal play
            perspective = (before.variant, player)
            wrong = "; ".join(d.describe(perspective) for d in zone_diff(board, zones, turn.reconciler.capability))
            message += f" (nearest: {because}; {wrong})"
        kind = FlagKind.ILLEGAL if isinstance(verdict, Illegal) else FlagKind.MISPLACED
        self.controller.flag(kind, player, message, verdict.short_code(), before, board, because)
        if isinstance(verdict, Illegal) and self.traditional:
            turn.illegal = verdict
            self.controller.publish(Waiting.ACCEPT_ILLEGAL, player=player.opponent, position=before, dice=turn.dice,
                                    code=verdict.short_code(), zones=verdict.zones(),
                                    message=f"{verdict.describe()}: {player.opponent.value} accepts (take) or "
                                      "requires correction (pass)")
            return
        self.controller.publish(Waiting.CORRECT, player=player, position=before, dice=turn.dice,
                                code=verdict.short_code(), message=verdict.describe(), zones=verdict.zones())

    def accept_illegal(self, turn: Turn) -> None:
        """The opponent accepts the illegal play on the board: it stands as played."""
        assert turn.illegal is not None
        explanation = turn.illegal.explanation
        played = self.controller.played
        before = played.position
        try:
            after = zones_position(explanation.result, before.variant, before.turn)
        except (GameError, ValueError):  # e.g. two colours on one Backgammon point: no position to accept
            self.controller.outputs.note("this board is no position of the game: the play must be corrected")
            self.require_correction(turn)
            return
        steps = [(m.move.source, m.move.target) for m in explanation.moves]
        game = played.game_number
        self.controller.act(lambda: played.accept_illegal_play(after, steps, explanation.describe()))
        self.takeback.played(before)
        self.controller.outputs.write({"type": "illegal_accepted", "player": before.turn.opponent.value, "game": game,
                                 "breach": explanation.describe()})

    def require_correction(self, turn: Turn) -> None:
        """The opponent requires the illegal play on the board to be corrected."""
        assert turn.illegal is not None
        illegal, turn.illegal = turn.illegal, None
        played = self.controller.played
        player = played.position.turn
        self.controller.outputs.write({"type": "correction_required", "player": player.opponent.value,
                                 "game": played.game_number})
        self.controller.publish(Waiting.CORRECT, player=player, position=turn.position, dice=turn.dice,
                                code=illegal.short_code(), message=illegal.describe())
