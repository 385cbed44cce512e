"""A bot's seat at the table: a person plays the board against a bot (game.bot), in every variant.

The bot decides (its play for a roll, doubles, takes, passes, resignations) the moment the table
asks its side; a person's hands do the rest. Its dice are thrown for it on the electronic dice
(`AR` on the display), or by the host's random source on a roll-button board. Its play is shown
where the person can follow it: the display shows `AI`, the view and the log print the play in
GNU Backgammon's notation, and the zone LEDs light the from and to zones of one checker move after
another as the person carries them out. The board is checked against the bot's play exactly:
when it shows that play the turn passes, with no press; any other complete board (another legal
play too) is a flag (`AE`) with the usual difference, and the zones to set right lit, until the
board is the bot's play. Its answers to the person's cube and resignations are flashed (`AT`,
`AP`, `AB`, `AA`, `AD`). In the casual profile a person's **take** press during their own play
asks for a hint (`HI`: the bot's best play lit and in the view); elsewhere it is refused (`NH`).

At a chouette a bot is one of the players, by name (`game.bot.chouette.ChouetteBot`), and plays
whatever role the rotation gives it: in the box it throws (`AR`) and plays Black's checkers, as
captain White's, each carried out by a person as above; box or member, every cube decision the
chouette asks of it (turn a cube or let it be, take, pass, beaver, in the house's rules) is
made the moment it is asked, through the chouette's dialogue as a press or a phone would make it
(firmware_host/controller/cube/chouette.py: a `decision` event with the source `bot`).
Codes and buttons: hardware_docs/referee.md. Each moment hands back its effects
(firmware_host/controller/effects.py) for the controller to apply.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from firmware_host.controller.cube.chouette import Asked, ChouetteDialogue
from firmware_host.controller.effects import Act, Effects, Flash, Light, Note, Publish, RaiseFlag, Restate, Show, Write
from firmware_host.controller.prompts import Prompt, Waiting
from firmware_host.controller.sensed_board import DonePress, SensedBoard
from firmware_host.controller.session import CubeDialogue, Session
from firmware_host.errors import ConfigError
from firmware_host.settings import Settings
from game.board import Color, Variant
from game.bot.context import CubeAction, MatchContext
from game.chouette import ChouetteSession, Phase, Side
from game.codes import Code, FlagKind
from game.errors import EngineUnavailable
from game.hands import HandMove, hand_moves
from game.match import Match
from game.plays import Play, format_roll
from game.position import Position, ResultKind
from game.reconcile import Partial, TurnReconciler, Untouched, Verdict
from game.zones import Capability, View, layout, normalised, sensed_view, view_diff, view_of

if TYPE_CHECKING:
    from game.bot.base import Bot
    from game.bot.chouette import ChouetteBot

ANSWERS = {CubeAction.TAKE: Code.BOT_TAKES, CubeAction.PASS: Code.BOT_PASSES, CubeAction.BEAVER: Code.BOT_BEAVERS}
"""The bot's answer to a double, flashed."""

T = TypeVar("T")
Roll = Callable[[], object]
"""Throws the host's virtual dice (a roll-button board); the throw arrives as the dice's events."""


class Standing(Protocol):
    """Where the standing prompt is read (the table's `Prompter`)."""

    @property
    def prompt(self) -> Prompt:
        """What the table waits for now."""


def make_bots(settings: Settings) -> dict[Color, Bot]:
    """The bots of the settings' bot seats (`EngineUnavailable` without the bot extra), their
    engines warming up in the background (GNU Backgammon's worker takes a second or two to load)."""
    from game.bot.factory import make_bot

    bots = {color: make_bot(settings.variant, level, settings.bot_seed + (color is Color.BLACK))
            for color, level in settings.bots.items()}
    for bot in bots.values():
        bot.warm_up()
    return bots


def make_chouette_bots(settings: Settings) -> dict[str, ChouetteBot]:
    """The bots of the chouette's players that are bots, by name, their engines warming up; a
    `ConfigError` naming them when no bot can be made (the bot extra is not installed)."""
    chouette = settings.chouette
    if chouette is None or not chouette.bots:
        return {}
    try:
        from game.bot.chouette import ChouetteBot
        from game.bot.factory import make_bot

        bots = {name: ChouetteBot(make_bot(settings.variant, level, settings.bot_seed + chouette.players.index(name)))
                for name, level in chouette.bots.items()}
    except EngineUnavailable as exc:
        raise ConfigError(f"the chouette's bot {', '.join(chouette.bots)} cannot be seated: {exc}") from None
    except ImportError as exc:  # numpy, the network bots' one need, is missing
        raise ConfigError(f"the chouette's bot {', '.join(chouette.bots)} cannot be seated: {exc.name or exc} "
                          "is not installed (pip install -e '.[bot]')") from None
    for seated_bot in bots.values():
        seated_bot.bot.warm_up()
    return bots


def bot_label(name: str, level: str) -> str:
    """A chouette's player who is a bot, as the views and the room's pages name it.

    >>> bot_label("Cy", "expert")
    'Cy (bot, expert)'
    """
    return f"{name} (bot, {level})"


def seated(players: tuple[str, str], bots: Mapping[Color, Bot]) -> tuple[str, str]:
    """The players' names with each bot seat named by its engine and level (as the journal records them)."""
    white, black = (bots[c].name if c in bots else name for c, name in zip(Color, players, strict=True))
    return white, black


@dataclass
class CarryOut:
    """The bot's `play` of `dice` from `before`, as a person carries it out on a board of `capability`."""

    bot: Bot
    before: Position
    dice: tuple[int, int]
    play: Play
    capability: Capability
    flagged: bool = False
    """A wrong board was flagged and is not yet back on the way to the play."""
    done_press: DonePress = field(default_factory=DonePress)
    """A done press waiting for the board to be read afresh or to settle."""
    seat: str = ""
    """Who the bot is at the table, as the prompts name it (a chouette's player; "": the bot's own name)."""
    steps: list[HandMove] = field(init=False)
    views: list[View] = field(init=False)
    """The board after none, one, two ... of the steps, as the sensors read it."""

    def __post_init__(self) -> None:
        self.steps = hand_moves(self.before, self.play.moves)
        board = list(layout(self.before))
        boards = [tuple(board)]
        for step in self.steps:
            checker = board[step.source - 1][-1:]
            board[step.source - 1] = board[step.source - 1][:-1]
            board[step.target - 1] += checker
            boards.append(tuple(board))
        self.views = [view_of(b, self.capability) for b in boards]
        self.final = sensed_view(self.play.after_moves, self.capability)
        self._reconciler = TurnReconciler(self.before, self.dice, self.capability)
        self._checkers = sum(reading.count for reading in self.views[0])

    @property
    def player(self) -> Color:
        """The bot's side."""
        return self.before.turn

    @property
    def name(self) -> str:
        """The bot as the prompts and flags name it."""
        return self.seat or self.bot.name

    def is_the_play(self, view: View) -> bool:
        """The board shows the bot's play (whatever the order the person made its moves in)."""
        return view == self.final or view == self.views[-1]

    def reached(self, view: View) -> int | None:
        """How many of the steps the board shows made, in order (None: not a board of the way)."""
        matches = [k for k, seen in enumerate(self.views) if seen == view]
        return matches[-1] if matches else None

    def zones(self, step: int) -> frozenset[int]:
        """The from and to zones of the step to make next (none when all are made)."""
        if step >= len(self.steps):
            return frozenset()
        return frozenset({self.steps[step].source, self.steps[step].target})

    def wrong(self, view: View) -> Verdict | None:
        """The verdict on a board that is no way to the bot's play: every checker down (none in a
        hand) and neither untouched nor a play on the way; None while it may still become it."""
        if sum(reading.count for reading in view) != self._checkers:
            return None  # a checker in the hand: the person is moving
        verdict = self._reconciler.judge(view)
        return None if isinstance(verdict, Untouched | Partial) else verdict


class BotSeat:
    """The sides a bot plays in `session` at one table, on the sensed `board`; `prompts` is where the
    standing prompt is read, `commit` plays a play as the table commits any, `roll` (a roll-button
    board) throws the host's dice for the bot, `casual` gives hints. At a chouette, `chouette` are
    the players that are bots, by name, and `dialogue` the chouette's, which asks their cube decisions."""

    def __init__(self, session: Session, bots: Mapping[Color, Bot], board: SensedBoard, *, prompts: Standing,
                 commit: Callable[[Play], Effects], roll: Roll | None = None, casual: bool = False,
                 chouette: Mapping[str, ChouetteBot] | None = None, dialogue: CubeDialogue | None = None) -> None:
        self.session = session
        self.bots = dict(bots)
        self.chouette = dict(chouette or {})
        self.dialogue = dialogue if isinstance(dialogue, ChouetteDialogue) else None
        self.board = board
        self.prompts = prompts
        self._commit = commit
        self.roll = roll
        self.casual = casual
        self.carry: CarryOut | None = None
        """The bot's play being carried out (while the prompt is BOT_PLAY)."""
        self._hinter: Bot | None = None
        self.seconds: dict[str, list[float]] = {"play": [], "cube": [], "resignation": [], "hint": []}
        """Seconds each of the bots' decisions took at this table, by kind (the log says each play's)."""

    def plays(self, color: Color | None) -> bool:
        """Whether a bot plays `color` now."""
        return self.at(color) is not None

    def at(self, color: Color | None) -> Bot | None:
        """The bot that plays `color` now: a match's bot of that side; at a chouette, the box's
        (Black) or the captain's (White) when a bot is in that seat this game."""
        if color is None:
            return None
        played = self.session
        if isinstance(played, ChouetteSession):
            seated_bot = self.chouette.get(self._in_seat(played, color) or "")
            return seated_bot.bot if seated_bot is not None else None
        return self.bots.get(color)

    @staticmethod
    def _in_seat(session: ChouetteSession, color: Color) -> str | None:
        """Who sits on `color`'s side of the board this game (None before the first game's order)."""
        if session.phase in (Phase.SEATING, Phase.OVER):
            return None
        return session.box if Side.of(color) is Side.BOX else session.captain

    # -- the cube, resignations and the dice ------------------------------------------------

    def asked(self, prompt: Prompt) -> Effects:
        """The contest's prompt stands: when it asks a bot's side, the bot answers it now."""
        match = self.session
        player = prompt.player
        if isinstance(match, ChouetteSession):
            return self._chouette_asked(match, prompt)
        if not isinstance(match, Match) or player is None or player not in self.bots:
            return []
        bot, context = self.bots[player], MatchContext.of(match)
        if prompt.waiting is Waiting.ROLL_OR_DOUBLE:
            return self._before_rolling(bot, player, match, context, prompt.can_double)
        if prompt.waiting is Waiting.CUBE_RESPONSE:
            action = self._timed("cube", lambda: bot.cube_action(match.position, context))
            answer = {CubeAction.TAKE: match.take, CubeAction.BEAVER: match.beaver}.get(action, match.pass_)
            return [Note(f"{bot.name} answers the double: {action.value}"), Act(lambda: answer(player)),
                    Flash(ANSWERS.get(action, ANSWERS[CubeAction.PASS]))]
        if prompt.waiting is Waiting.RESIGN_RESPONSE and match.resignation is not None:
            resigner, kind = match.resignation
            accept = self._timed("resignation", lambda: bot.accept_resignation(match.position, context, resigner, kind))
            return [Note(f"{bot.name} {'accepts' if accept else 'declines'} the resignation"),
                    Act(lambda: (match.accept_resignation if accept else match.decline_resignation)(player)),
                    Flash(Code.BOT_ACCEPTS if accept else Code.BOT_DECLINES)]
        return []

    def _before_rolling(self, bot: Bot, player: Color, match: Match, context: MatchContext,
                        can_double: bool) -> Effects:
        position = match.position
        kind = None if _declined_this_game(match) else self._timed("resignation",
                                                                    lambda: bot.offer_resignation(position, context))
        if kind is not None:
            said = f"{bot.name} resigns {_result(kind, match.variant)}"
            return [Note(said), Act(lambda: match.resign(player, kind), then=lambda: self._tell(
                Waiting.RESIGN_RESPONSE, f"{said}: take accepts, pass declines"))]
        if can_double and self._timed("cube", lambda: bot.cube_action(position, context)) is CubeAction.DOUBLE:
            return [Note(f"{bot.name} doubles to {2 * match.cube.value}"),
                    Act(lambda: match.double(player),
                        then=lambda: self._tell(Waiting.CUBE_RESPONSE, f"{bot.name} doubles: take or pass"))]
        who = "the host rolls" if self.roll is not None else "throw the dice"
        if self.roll is not None:
            self.roll()  # the throw comes back as the dice's events, after the prompt below
        return [Publish(Waiting.BOT_ROLL, player=player, position=position, code=Code.BOT_ROLLS,
                        message=f"{who} for {bot.name}")]

    def _chouette_asked(self, session: ChouetteSession, prompt: Prompt) -> Effects:
        """A chouette's cube decision asked of a bot (box or member) is made now, as the chouette's
        rules allow; a bot that rolls for its side has its dice thrown."""
        dialogue = self.dialogue
        asked = dialogue.asked if dialogue is not None else None
        if dialogue is not None and asked is not None:
            seated_bot = self.chouette.get(asked.player)
            if seated_bot is None:
                return []
            side, member = asked.side, asked.member
            if asked.kind == "turn":
                answer = "double" if self._timed("cube", lambda: seated_bot.doubles(session, side, member)) else "pass"
            else:
                answer = self._timed("cube", lambda: seated_bot.answer(session, side, member, asked.answers))
            decided = dialogue.answer(answer, "bot", {"engine": seated_bot.bot.name})
            assert not isinstance(decided, str), decided  # the bot answers within the answers asked
            said = _said(answer, asked, team_cube=session.options.team_cube)
            return [Note(f"{asked.player} ({_role(session, asked.player)}) {said} "
                         f"({self.seconds['cube'][-1]:.3f} s to decide)"), *decided]
        roller = prompt.asked
        if prompt.waiting is not Waiting.ROLL_OR_DOUBLE or prompt.member or roller not in self.chouette:
            return []
        who = "the host rolls" if self.roll is not None else "throw the dice"
        if self.roll is not None:
            self.roll()  # the throw comes back as the dice's events, after the prompt below
        return [Publish(Waiting.BOT_ROLL, player=prompt.player, position=session.position, code=Code.BOT_ROLLS,
                        asked=roller, message=f"{who} for {roller} ({_role(session, roller)})")]

    def _tell(self, waiting: Waiting, message: str) -> Effects:
        """Say the bot's action in the prompt it led to (a person's to answer)."""
        prompt = self.prompts.prompt
        if prompt.waiting is waiting and not self.plays(prompt.player):
            return [Restate(message)]
        return []

    # -- the bot's play, carried out by a person ------------------------------------------------

    def begin(self, player: Color, dice: tuple[int, int], capability: Capability | None) -> Effects | None:
        """`player` is to play `dice`: when a bot plays that side and the roll can be played, its play
        is chosen and shown; otherwise the turn is a person's (None)."""
        played = self.session
        self.carry = None
        bot = self.at(player)
        if bot is None or capability is None or not played.legal_plays():
            return None
        before, seat, who = played.position, "", bot.name
        if isinstance(played, ChouetteSession):
            seat = played.roller()
            who = f"{seat} ({_role(played, seat)})"
            seated_bot = self.chouette[seat]
            play = self._timed("play", lambda: seated_bot.play(played))
        else:
            assert isinstance(played, Match)
            play = self._timed("play", lambda: bot.choose_play(before, dice, MatchContext.of(played)))
        if play is None:
            return None
        carry = self.carry = CarryOut(bot, before, dice, play, capability, seat=seat)
        return [Note(f"{who} plays {format_roll(dice)}: {play.notation()} "
                     f"({self.seconds['play'][-1]:.3f} s to choose)"),
                self._show(carry, Code.BOT_PLAY, f"{carry.name} plays {play.notation()}: carry it out", carry.zones(0))]

    def _show(self, carry: CarryOut, code: str, message: str, zones: frozenset[int]) -> Publish:
        return Publish(Waiting.BOT_PLAY, player=carry.player, dice=carry.dice, position=carry.before,
                       code=code, message=message, zones=zones, play=carry.play)

    def settled(self, view: View, prompt: Prompt | None = None) -> Effects:
        """A settled board while the bot's play is carried out: the turn passes when it is the play;
        the next move lit when it is a board of the way; a flag when it is any other complete board."""
        carry = self.carry
        if carry is None:
            return []
        if carry.is_the_play(view):
            return self._committed(carry)
        if carry.done_press.take(self.board):
            return self._flag(carry, view, None)
        step = carry.reached(view)
        if step is not None:
            shown: Effects = []
            if carry.flagged:  # back on the way: the flag's code and zones give way to the next move
                carry.flagged = False
                shown.append(Show(Code.BOT_PLAY))
            return [*shown, Light(carry.zones(step))]
        if carry.flagged:
            return [Light(frozenset(d.zone for d in view_diff(view, carry.final)))]
        verdict = carry.wrong(view)
        return self._flag(carry, view, verdict) if verdict is not None else []

    def pressed_done(self, player: Color) -> Effects:
        """Done pressed while the bot's play is carried out: the board is read afresh, then judged
        once that reading has settled (`done`; `DonePress`), as a person's done press is."""
        carry = self.carry
        if carry is None or not carry.done_press.press(self.board):
            return []  # taken when the reading comes (`pending`) or, if it differs, settles (`settled`)
        return self.done(player)

    def done(self, player: Color) -> Effects:
        """The settled board is judged against the bot's play."""
        carry, zones = self.carry, self.board.zones
        if carry is None or zones is None:
            return []
        view = normalised(zones, carry.capability)
        if carry.is_the_play(view):
            return self._committed(carry)
        return self._flag(carry, view, None)

    def pending(self) -> Effects:
        """The board settled again as it stood (a flicker, or the reading asked for was the board
        already judged): a done press that waited for it is taken now."""
        carry = self.carry
        if carry is None or not carry.done_press.take(self.board):
            return []
        return self.done(carry.player)

    def forget_done(self) -> None:
        """The board is out of reach: a done press waiting for it to settle is forgotten."""
        if self.carry is not None:
            self.carry.done_press.forget()

    def _committed(self, carry: CarryOut) -> Effects:
        self.carry = None
        return self._commit(carry.play)

    def _flag(self, carry: CarryOut, view: View, verdict: Verdict | None) -> Effects:
        carry.flagged = True
        diffs = view_diff(view, carry.final)
        perspective = (carry.play.after_moves.variant, carry.player)
        wrong = "; ".join(d.describe(perspective) for d in diffs[:4]) + (" ..." if len(diffs) > 4 else "")
        what = f" ({verdict.describe()})" if verdict is not None else ""
        name, notation = carry.name, carry.play.notation()
        return [RaiseFlag(FlagKind.BOT_PLAY, carry.player, f"the board is not {name}'s play {notation}{what}: {wrong}",
                          Code.NOT_THE_BOT_PLAY, carry.play.after_moves),
                self._show(carry, Code.NOT_THE_BOT_PLAY, f"set the board to {name}'s play {notation}: {wrong}",
                           frozenset(d.zone for d in diffs))]

    # -- takebacks ---------------------------------------------------------------------------

    def takeback_votes(self, asker: Color) -> tuple[dict[Color, bool], Effects]:
        """The bots' answers when `asker` wants their last play back (the board set back to before
        it): a bot opposite the person agrees in the casual profile, as a friendly opponent does,
        and refuses in the others; a bot whose own play it was keeps it. With them, what each says."""
        votes: dict[Color, bool] = {}
        said: Effects = []
        for color in Color:
            bot = self.at(color)
            if bot is None:
                continue
            votes[color] = color is not asker and self.casual
            said.append(Note(f"{self._seat_name(color, bot)} {'agrees to' if votes[color] else 'refuses'} "
                             "the takeback"))
        return votes, said

    def _seat_name(self, color: Color, bot: Bot) -> str:
        played = self.session
        return (self._in_seat(played, color) or bot.name) if isinstance(played, ChouetteSession) else bot.name

    # -- hints ------------------------------------------------------------------------------

    def hint(self, player: Color) -> Effects:
        """`player`, playing a roll, asks for the bot's best play: lit and in the view (casual profile
        only; refused elsewhere, and where no bot can be made)."""
        match = self.session
        prompt = self.prompts.prompt
        if not self.casual:
            return self._no_hint(player, "hints are given in the casual profile only")
        if not isinstance(match, Match) or prompt.dice is None:
            return self._no_hint(player, "no roll to hint")
        bot = self._hint_bot(match.variant)
        if bot is None:
            return self._no_hint(player, "no bot at this table (install the bot extra)")
        position, dice = match.position, prompt.dice
        ranked = self._timed("hint", lambda: bot.rank_plays(position, dice, MatchContext.of(match)))
        if not ranked:
            return self._no_hint(player, "the roll cannot be played")
        from game.bot.hint import entries as hint_entries  # here: the bot's modules load with a bot

        best = ranked[0]
        zones = frozenset(z for step in hand_moves(position, best.play.moves) for z in (step.source, step.target))
        return [Write({"type": "hint", "player": player.value, "game": match.game_number, "dice": list(dice),
                       "play": best.play.notation(), "engine": bot.name, "ranking": hint_entries(ranked)}),
                Note(f"hint for {player.value}: {best.describe()} ({bot.name})"),
                Restate(f"hint: {best.play.notation()}"), Light(zones), Flash(Code.HINT)]

    def close(self) -> None:
        """Release the bots' engines (GNU Backgammon's worker processes)."""
        engines = (*self.bots.values(), *(seated_bot.bot for seated_bot in self.chouette.values()), self._hinter)
        for bot in {id(b): b for b in engines if b is not None}.values():
            bot.close()

    def _no_hint(self, player: Color, why: str) -> Effects:
        return [Note(f"{player.value} asked for a hint: {why}"), Flash(Code.NO_HINT)]

    def _hint_bot(self, variant: Variant) -> Bot | None:
        if self._hinter is None:
            self._hinter = next(iter(self.bots.values()), None)
        if self._hinter is None:
            from game.bot.factory import make_bot

            try:
                self._hinter = make_bot(variant)
            except EngineUnavailable:
                return None
        return self._hinter

    def _timed(self, kind: str, decide: Callable[[], T]) -> T:
        started = time.perf_counter()
        try:
            return decide()
        finally:
            self.seconds[kind].append(time.perf_counter() - started)


def _declined_this_game(match: Match) -> bool:
    """A resignation was declined in this game: the bot plays it out rather than offer again at every roll."""
    for event in reversed(match.events):
        if event["type"] == "game_start":
            return False
        if event["type"] == "resign_decline":
            return True
    return False


def _result(kind: ResultKind, variant: Variant) -> str:
    return {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
            ResultKind.TRIPLE: f"a {variant.triple_name}"}[kind]


def _role(session: ChouetteSession, name: str) -> str:
    """Where `name` sits this game: "box", "captain" or "member"."""
    return "box" if name == session.box else "captain" if name == session.captain else "member"


def _said(answer: str, asked: Asked, *, team_cube: bool) -> str:
    """A chouette bot's cube decision in words: "doubles Ann's cube to 2", "takes its cube at 4"."""
    whose = ("the team's cube" if team_cube else "its cube" if asked.member == asked.player
             else f"{asked.member}'s cube")
    if asked.kind == "turn":
        return f"doubles {whose} to {2 * asked.value}" if answer == "double" else f"lets {whose} be"
    return {"take": f"takes {whose} at {asked.value}", "pass": f"passes {whose}",
            "beaver": f"beavers {whose} to {2 * asked.value}"}[answer]
