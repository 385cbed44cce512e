"""A player's turn: the PLAY prompt (or, when the roll cannot be played, the turn passed at once),
each settled board judged, then from the done press on the play committed, the look-alike plays
offered to choose from, or the board flagged; while a flagged play is corrected, the display and
the zone LEDs follow the board; under the traditional profile the opponent accepts an illegal play
or has it corrected (hardware_docs/referee.md). Each moment hands back its effects
(firmware_host/controller/effects.py) for the controller to apply.
"""

from __future__ import annotations

from collections.abc import Sequence

from drivers.events import ButtonKind
from firmware_host.controller.effects import Act, Effects, Flash, Light, Note, Publish, RaiseFlag, Refuse, Show, Write
from firmware_host.controller.prompts import Prompt, Waiting
from firmware_host.controller.resign_takeback import Takeback
from firmware_host.controller.sensed_board import SensedBoard
from firmware_host.controller.session import Session
from firmware_host.controller.turn import Choose, Commit, Flag, Turn
from game import codes
from game.board import Color
from game.codes import Code, FlagKind
from game.errors import GameError
from game.hands import zones_position
from game.plays import Play, format_roll
from game.reconcile import Illegal, Misplaced, Verdict
from game.zones import Capability, View, ZoneReading, zone_diff


class PlayFlow:
    """The turns played in `session` on the sensed `board`: a done press into a committed play, a
    choice or a flag. `traditional` lets the opponent accept an illegal play, and has a player who
    cannot play press done all the same; `casual` shows each settled board's verdict as it comes."""

    def __init__(self, session: Session, board: SensedBoard, takeback: Takeback, *, traditional: bool,
                 casual: bool = False) -> None:
        self.session = session
        self.board = board
        self.takeback = takeback
        self.traditional = traditional
        self.casual = casual
        self.turn: Turn | None = None
        """The play in progress (while the prompt is PLAY, CORRECT or ACCEPT_ILLEGAL)."""

    def begin(self, player: Color, dice: tuple[int, int], capability: Capability | None) -> Effects:
        """`player` is to play `dice`: the PLAY prompt and the turn to judge. A roll that cannot be
        played is said at once (`NP`) and the turn passes without a done press, unless the profile
        (traditional) wants the press; then there is no turn to judge."""
        played = self.session
        position = played.position
        self.turn = Turn(position, dice, capability) if capability is not None else None
        if self.turn.reconciler.plays if self.turn is not None else played.legal_plays():  # listed once a turn
            return [Publish(Waiting.PLAY, player=player, dice=dice, position=position)]
        cannot = f"{player.value} cannot play {format_roll(dice)}"
        if self.traditional:
            return [Publish(Waiting.PLAY, player=player, dice=dice, position=position, code=Code.NO_PLAY,
                            message=f"{cannot}: press done to pass the turn")]
        self.turn = None
        return [Publish(Waiting.PLAY, player=player, dice=dice, position=position, code=Code.NO_PLAY,
                        message=f"{cannot}: the turn passes"),
                *self.commit(Play((), position)),
                Flash(Code.NO_PLAY)]  # over the next prompt, for a moment: why the turn passed

    def settled(self, view: View, prompt: Prompt) -> Effects:
        """A settled board during the play (PLAY, CORRECT): judged; its verdict shown (casual), or
        followed while a flagged play is corrected; a done press that waited for it is taken now."""
        turn = self.turn
        if turn is None:
            return []
        verdict = turn.judge(view)
        effects: Effects = []
        if self.casual and not turn.choices:
            effects += [Show(verdict.short_code()), Light(verdict.zones())]
        elif prompt.waiting is Waiting.CORRECT:
            effects += self.correcting(verdict)
        if turn.done_press.take(self.board):
            effects += self.done(prompt.player or self.session.position.turn)
        return effects

    def correcting(self, verdict: Verdict) -> Effects:
        """A settled board while a flagged play is corrected: the code and the zones concerned while
        the board is still wrong, the cube and dark zones as soon as it is right again."""
        wrong = isinstance(verdict, Illegal | Misplaced)
        return [Show(verdict.short_code() if wrong else ""), Light(verdict.zones() if wrong else frozenset())]

    def pressed_done(self, player: Color) -> Effects:
        """`player` pressed done: the board is read afresh, then judged once that reading has settled
        (`done`; `DonePress`); where the board cannot be asked and stands still, judged now."""
        turn = self.turn
        if turn is None or not turn.done_press.press(self.board):
            return []  # taken when the reading comes (`pending`) or, if it differs, settles (`settled`)
        return self.done(player)

    def done(self, player: Color) -> Effects:
        """The settled board is judged for `player`'s done press."""
        turn, zones = self.turn, self.board.zones
        if turn is None or zones is None:
            return []
        decision = turn.done(zones)
        if isinstance(decision, Commit):
            effects = self.commit(decision.play)
            if decision.among:  # after the play: a kill between the two never leaves a choice of no play
                effects.append(Write({"type": "choice", "player": player.value, "play": decision.play.notation(),
                                      "among": [p.notation() for p in decision.among]}))
            return effects
        if isinstance(decision, Choose):
            return [Note(decision.verdict.describe()), *self.show_choice(turn)]
        assert isinstance(decision, Flag)
        return self._flag(player, turn, decision.verdict, zones)

    def pending(self, prompt: Prompt) -> Effects:
        """The board settled again as it stood (a flicker): a done press that waited for it is taken now."""
        turn = self.turn
        if turn is None or not turn.done_press.take(self.board):
            return []
        return self.done(prompt.player or self.session.position.turn)

    def forget_done(self) -> None:
        """The board is out of reach: a done press waiting for it to settle is forgotten."""
        if self.turn is not None:
            self.turn.done_press.forget()

    def commit(self, play: Play) -> Effects:
        """Play `play` on what is played (the board going back to before it asks for a takeback)."""
        played = self.session
        self.takeback.played(played.position)
        return [Act(lambda: played.play(play))]

    def next_choice(self, player: Color) -> Effects:
        """The double button during a play: the next look-alike play, when there is a choice."""
        turn = self.turn
        if turn is None or turn.next_choice() is None:
            return [Refuse(player, ButtonKind.DOUBLE, "there are no look-alike plays to choose from")]
        return self.show_choice(turn)

    def show_choice(self, turn: Turn) -> Effects:
        """Show which look-alike play a done press would confirm (C1, C2, ...)."""
        choice, choices = turn.choice, turn.choices
        return [Show(codes.choice(choice + 1)),
                Note(f"choice {choice + 1} of {len(choices)}: {choices[choice].notation()} "
                     "(double: next, done: confirm)")]

    def _flag(self, player: Color, turn: Turn, verdict: Verdict, zones: Sequence[ZoneReading]) -> Effects:
        before = turn.position
        assert isinstance(verdict, Illegal | Misplaced), verdict  # what a done press flags
        board, because = turn.reconciler.expected(verdict)
        message = verdict.describe()
        if isinstance(verdict, Illegal):  # the words of the picture's list: what differs from the nearest legal play
            perspective = (before.variant, player)
            wrong = "; ".join(d.describe(perspective) for d in zone_diff(board, zones, turn.reconciler.capability))
            message += f" (nearest: {because}; {wrong})"
        kind = FlagKind.ILLEGAL if isinstance(verdict, Illegal) else FlagKind.MISPLACED
        flag = RaiseFlag(kind, player, message, verdict.short_code(), before, board, because)
        if isinstance(verdict, Illegal) and self.traditional:
            turn.illegal = verdict
            return [flag, Publish(Waiting.ACCEPT_ILLEGAL, player=player.opponent, position=before, dice=turn.dice,
                                  code=verdict.short_code(), zones=verdict.zones(),
                                  message=f"{verdict.describe()}: {player.opponent.value} accepts (take) or "
                                          "requires correction (pass)")]
        return [flag, Publish(Waiting.CORRECT, player=player, position=before, dice=turn.dice,
                              code=verdict.short_code(), message=verdict.describe(), zones=verdict.zones())]

    def accept_illegal(self, player: Color | None = None) -> Effects:
        """The opponent accepts the illegal play on the board: it stands as played."""
        turn = self.turn
        assert turn is not None and turn.illegal is not None
        explanation = turn.illegal.explanation
        played = self.session
        before = played.position
        try:
            after = zones_position(explanation.result, before.variant, before.turn)
        except (GameError, ValueError):  # e.g. two colours on one Backgammon point: no position to accept
            return [Note("this board is no position of the game: the play must be corrected"),
                    *self.require_correction()]
        steps = [(m.move.source, m.move.target) for m in explanation.moves]
        game = played.game_number
        self.takeback.played(before)
        return [Act(lambda: played.accept_illegal_play(after, steps, explanation.describe())),
                Write({"type": "illegal_accepted", "player": before.turn.opponent.value, "game": game,
                       "breach": explanation.describe()})]

    def require_correction(self, player: Color | None = None) -> Effects:
        """The opponent requires the illegal play on the board to be corrected."""
        turn = self.turn
        assert turn is not None and turn.illegal is not None
        illegal, turn.illegal = turn.illegal, None
        played = self.session
        mover = played.position.turn
        return [Write({"type": "correction_required", "player": mover.opponent.value, "game": played.game_number}),
                Publish(Waiting.CORRECT, player=mover, position=turn.position, dice=turn.dice,
                        code=illegal.short_code(), message=illegal.describe())]
