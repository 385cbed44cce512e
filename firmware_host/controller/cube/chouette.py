"""A chouette at the table (issue 16): the box against a team whose captain moves the checkers,
every member with a cube of their own, on a normal board with its two sides' buttons.

The captain plays with White's buttons (`Side.TEAM.color`), the box with Black's. Every cube
decision is asked of one person at a time, in team order, and the display shows whose it is:
`P1`..`P8` a member (the n-th of this game's team, in team order: `P1` is the captain the game
began with), `B1`..`B8` the box deciding about that member's cube. A member presses White's
buttons, the box Black's (hardware_docs/referee.md, "A chouette at the table"):

- the side on roll is asked, cube by cube in team order, whether it turns it: **double** turns
  it, **pass** lets it be and asks about the next; a throw of the dice instead rolls (the cubes
  not yet asked are let be), as long as no cube is turned this turn;
- each cube turned is then answered in team order: **take**, **pass**, **double** (a beaver, when
  the house plays them); a beaver is answered at once by the doubler.

A member's own decisions (the team side's) may also come from the member's phone through the
tournament room (`decide`, firmware_host/room/chouette_room.py); whichever answer comes first
counts, and a `decision` event in the journal says where each came from (`button` or `phone`).
A bot seated at the chouette (box or member, firmware_host/controller/bot_seat.py) answers the
decisions asked of it at once (`answer`, a `decision` event with the source `bot`).

The seating comes first: the players throw one die each for the order, two at a time (the die
with the lower id is the first named player's). The session stops by itself after the games the
settings ask for. Checker play, board checks, dice, flags and the record are the table's. Each
moment hands back its effects (firmware_host/controller/effects.py) for the controller to apply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from drivers.cube_display import LARGEST_VALUE
from drivers.events import ButtonKind
from firmware_host.controller.buttons import Action
from firmware_host.controller.effects import Act, Advance, Effects, Flash, Note, Publish, Refuse, Write
from firmware_host.controller.prompts import Waiting
from firmware_host.errors import JournalError
from firmware_host.record.journal import Journal
from firmware_host.settings import Settings
from game import codes
from game.board import Color
from game.chouette import ChouetteSession, Phase, Side
from game.chouette.events import EVENT_TYPES
from game.chouette.options import signed
from game.chouette.replay import resume
from game.cube import Cube

_VERBS = {ButtonKind.TAKE: "take", ButtonKind.PASS: "pass", ButtonKind.DOUBLE: "beaver"}
_TEAM_ANSWERS = {"take": "take", "pass": "pass_", "beaver": "beaver"}
_BOX_ANSWERS = {"take": "box_take", "pass": "box_pass", "beaver": "box_beaver"}


@dataclass(frozen=True, slots=True)
class Asked:
    """The one cube decision the table asks now: of `player` (a member, or the box) on `side`'s
    buttons, about `member`'s cube, shown as `code`; `kind` "turn" (double or pass: let it be) or
    "answer" (take, pass, beaver); `value` the cube's value now ("turn") or offered ("answer")."""

    side: Side
    player: str
    member: str
    code: str
    kind: Literal["turn", "answer"]
    answers: tuple[str, ...]
    value: int
    game: int
    move: int


class ChouetteDialogue:
    """A chouette session's own moments at the table; it stops after `games` games (0: never by itself)."""

    event_types = frozenset(EVENT_TYPES)

    def __init__(self, session: ChouetteSession, games: int = 0) -> None:
        self.session = session
        self.games = games
        self._turn: tuple[int, int, Side] | None = None
        """The turn the cubes let be are about (game, move, side on roll)."""
        self._let_be: set[str] = set()
        """Members whose cube the side on roll has let be this turn."""
        self._asked: tuple[Side, str] | None = None
        """The side whose buttons decide now, and the member whose cube it is about."""
        self._answers: frozenset[str] = frozenset()
        self.asked: Asked | None = None
        """The cube decision asked now, if any (what a member's phone may answer)."""

    # -- codes and names -------------------------------------------------------------

    def number(self, member: str) -> int:
        """`member`'s place in this game's team order, from 1."""
        return self.session.team.index(member) + 1

    def code(self, member: str) -> str:
        """`member`'s display code."""
        return codes.member(self.number(member))

    # -- the contest -------------------------------------------------------------------

    def buttons(self) -> Mapping[Waiting, Mapping[ButtonKind, Action]]:
        """double or pass when asked whether a cube is turned; take, pass or beaver when it is answered."""
        turn = {ButtonKind.DOUBLE: self._turn_cube, ButtonKind.PASS: self._let_it_be}
        answer = {button: self._answer_with(verb) for button, verb in _VERBS.items()}
        return {Waiting.ROLL_OR_DOUBLE: turn, Waiting.TURN_CUBE: turn, Waiting.CUBE_RESPONSE: answer}

    def throws(self) -> Mapping[Waiting, Callable[[int, int], Effects]]:
        """The throws for the order."""
        return {Waiting.SEATING: self._seat}

    def prompt(self) -> Effects | None:
        """The seating, the cubes to turn or let be, their answers, the captain's or the box's roll;
        the session's stop after its games; None at a game's opening."""
        s = self.session
        self._asked, self._answers, self.asked = None, frozenset(), None
        if s.phase is Phase.SEATING:
            return self._seating()
        if s.phase is Phase.OPENING:
            if s.stakes is not None or not self.games or len(s.games) < self.games:
                return None
            return [Act(s.stop)]
        return self._cubes()

    def context(self) -> None:
        """A chouette tells no match's score with its prompts."""
        return None

    def cube(self) -> tuple[Cube, bool]:
        """The highest cube in play and its owner's side (a chouette has no Crawford game). A chouette's
        cubes have no ceiling (beavers and redoubles ran one to 2^20 between a bot and people who beaver
        every double); past the display's largest ("52.") it shows that, and the view every cube's value."""
        value, owner = self.session.highest_cube()
        return Cube(min(value, LARGEST_VALUE), owner.color if owner is not None else None), False

    def over(self) -> str:
        """The session's end: the games played and everyone's total."""
        s = self.session
        return f"the chouette is over after {_games(len(s.games))}: {_totals(s.totals)}"

    def where(self) -> str:
        """The game, the box, the captain and the totals."""
        s = self.session
        if s.phase is Phase.SEATING:
            return f"seating ({s.seating.describe()})"
        return f"game {s.game_number}, box {s.box}, captain {s.captain}, totals {_totals(s.totals)}"

    def phase(self) -> str:
        """The session's phase, as the record says it."""
        return self.session.phase.value

    def describe(self, event: Mapping[str, Any]) -> str | None:
        """The log's line for the seating, the cubes' actions, a takeback, a captain change, a game's end, a
        rotation and the session's end; None for the rest (the plays are the recorder's)."""
        kind = event["type"]
        whose = f"{event.get('member')}'s cube"
        cube = {"double": f"{event.get('player')} turns {whose} to {event.get('value')}",
                "beaver": f"{event.get('player')} beavers {whose} to {event.get('value')}",
                "take": f"{event.get('player')} takes {whose}: it is {event.get('value')}",
                "pass": f"{event.get('player')} passes {whose}",
                "takeback": f"{event.get('player')} ({event.get('side')}): the last play is taken back"}
        if kind in cube:
            return cube[kind]
        if kind == "seating":
            return f"seating: box {event['box']}, line {' '.join(event['line'])}"
        if kind == "captain":
            return f"{event['previous']} is out of game {event['game']}: {event['player']} is captain now"
        if kind == "game_end":
            outcome = "a Remi" if event["winner"] is None else f"the {event['winner']} wins {event['kind']}"
            results, totals = _totals(event["results"]), _totals(event["totals"])
            return f"game {event['game']} over: {outcome}; {results}; totals {totals}"
        if kind == "rotation":
            return f"next game: box {event['box']}, captain {event['captain']}, line {' '.join(event['line'])}"
        if kind == "session_end":
            return f"session over after {_games(event['games'])}: {_totals(event['totals'])}"
        return None

    def time_loss(self, loser: Color) -> Effects:
        """Never: a chouette is played without the clock (`Settings` refuses one)."""
        raise AssertionError(f"a chouette has no clock to run out ({loser.value})")

    # -- the throws for the order -----------------------------------------------------

    def _seating(self) -> Effects:
        pending = self.session.seating.pending
        first, second = pending[0], pending[1] if len(pending) > 1 else ""
        others = f", {second} the other" if second else " (the other die does not count)"
        return [Publish(Waiting.SEATING, asked=first,
                        message=f"for the order: {first} throws the die with the lower id{others}")]

    def _seat(self, first: int, second: int) -> Effects:
        s = self.session
        pending = s.seating.pending

        def throw() -> None:
            s.throw(pending[0], first)
            if len(pending) > 1:
                s.throw(pending[1], second)

        return [Act(throw), Flash(f"{first}{second}" if len(pending) > 1 else f"{first}-")]

    # -- the cubes ------------------------------------------------------------------------

    def _cubes(self) -> Effects:
        s = self.session
        wait = s.awaiting()
        side = s.on_roll  # who may turn cubes (wait.side is who answers, once one is turned)
        assert side is not None and s.stakes is not None
        if self._turn != (s.game_number, s.move_number, side):
            self._turn, self._let_be = (s.game_number, s.move_number, side), set()
        ask = next((m for m in wait.doublers if m not in self._let_be), None)
        if ask is not None:
            return self._ask_to_turn(side, ask, first=s.phase is Phase.ROLL)
        if s.phase is Phase.DOUBLED:
            assert wait.member is not None and wait.side is not None and wait.player is not None
            return self._ask_to_answer(wait.side, wait.member, wait.player,
                                       frozenset(a.removeprefix("box_").rstrip("_") for a in wait.actions
                                                 if "double" not in a))
        roller = f"the captain {s.captain}" if side is Side.TEAM else f"the box {s.box}"
        return [Publish(Waiting.ROLL_OR_DOUBLE, player=side.color, position=s.position, asked=s.roller(),
                        message=f"{roller} rolls")]

    def _ask_to_turn(self, side: Side, member: str, *, first: bool) -> Effects:
        s = self.session
        code, value = self.code(member), 2 * s.cube(member).value
        self._asked = (side, member)
        roll = f"; or {'the captain ' + s.captain if side is Side.TEAM else 'the box'} rolls" if first else ""
        if side is Side.TEAM:
            who, text = member, f"{member} ({code}): double your cube to {value} (double), or let it be (pass){roll}"
            shown = code
        else:
            who, text = s.box, (f"the box {s.box}: double {member}'s cube ({code}) to {value} (double), "
                                f"or let it be (pass){roll}")
            shown = codes.box(self.number(member))
        self.asked = Asked(side, who, member, shown, "turn", ("double", "pass"), s.cube(member).value,
                           s.game_number, s.move_number)
        return [Publish(Waiting.ROLL_OR_DOUBLE if first else Waiting.TURN_CUBE, player=side.color,
                        position=s.position, code=shown, message=text, asked=who, member=member, can_double=True)]

    def _ask_to_answer(self, side: Side, member: str, who: str, answers: frozenset[str]) -> Effects:
        s = self.session
        cube = s.cube(member)
        number = self.number(member)
        self._asked, self._answers = (side, member), answers
        beaver = " (or beaver: double)" if "beaver" in answers else ""
        choice = " or ".join(a for a in ("take", "pass") if a in answers) + beaver
        offered = f"{'beavers' if cube.beavered else 'doubles'} to {2 * cube.value}"
        if side is Side.TEAM:  # the member (with one team cube, the captain) answers the box
            text = f"{member} ({codes.member(number)}): the box {offered}: {choice}"
            code = codes.member(number)
        else:
            text = f"the box {s.box}: {member} ({codes.member(number)}) {offered}: {choice}"
            code = codes.box(number)
        ordered = tuple(a for a in ("take", "pass", "beaver") if a in answers)
        self.asked = Asked(side, who, member, code, "answer", ordered, 2 * cube.value, s.game_number, s.move_number)
        return [Publish(Waiting.CUBE_RESPONSE, player=side.color, position=s.position, code=code, message=text,
                        asked=who, member=member, answers=answers, can_beaver="beaver" in answers)]

    # -- a decision from a phone, or from a bot ----------------------------------------------

    def decide(self, answer: str, **record: Any) -> Effects | str:
        """A member's `answer` to the decision asked now, from their phone (the room's director
        checked who sent it): the effects of the member's press; else why not.
        `record` goes into the journal's `decision` event (the director's id for it)."""
        asked = self.asked
        if asked is None or asked.side is not Side.TEAM:
            return "no member's decision is asked now"
        return self.answer(answer, "phone", record)

    def answer(self, answer: str, source: str, record: Mapping[str, Any] | None = None) -> Effects | str:
        """`answer` ("double" or "pass" to turn a cube or let it be; "take", "pass" or "beaver" to a
        double) to the decision asked now, from `source` ("phone", or "bot": a bot seated at the
        chouette, box or member): the effects of the press on the asked side's buttons; else why not."""
        asked = self.asked
        if asked is None:
            return "no cube decision is asked now"
        if answer not in asked.answers:
            return f"{asked.player} may answer {' or '.join(asked.answers)} now, not {answer}"
        buttons = asked.side.color
        if asked.kind == "turn":
            return (self._turn_cube if answer == "double" else self._let_it_be)(buttons, source, record)
        return self._answer_with(answer, source, record)(buttons)

    def _decided(self, answer: str, source: str, record: Mapping[str, Any]) -> Effects:
        """A member's decision (or a bot's, the box's too), into the journal with where it came from
        (a person in the box decides with its buttons, not recorded apart)."""
        asked = self.asked
        if asked is None or (asked.side is not Side.TEAM and source != "bot"):
            return []
        return [Write({"type": "decision", "source": source, "player": asked.player, "member": asked.member,
                       "kind": asked.kind, "answer": answer, "game": asked.game, "move": asked.move, **record})]

    # -- presses ----------------------------------------------------------------------------

    def _turn_cube(self, player: Color, source: str = "button", record: Mapping[str, Any] | None = None) -> Effects:
        asked = self._asked
        if asked is None:
            return [Refuse(player, ButtonKind.DOUBLE, "no cube may be turned now: the side on roll rolls")]
        side, member = asked
        s = self.session
        return [*self._decided("double", source, record or {}),
                Act(lambda: (s.double if side is Side.TEAM else s.box_double)(member))]

    def _let_it_be(self, player: Color, source: str = "button", record: Mapping[str, Any] | None = None) -> Effects:
        asked = self._asked
        if asked is None:
            return [Refuse(player, ButtonKind.PASS, "no cube is asked about now: the side on roll rolls")]
        decided = self._decided("pass", source, record or {})
        self._let_be.add(asked[1])
        return [*decided, Note(f"{asked[1]}'s cube is let be this turn"), Advance()]

    def _answer_with(self, verb: str, source: str = "button", record: Mapping[str, Any] | None = None) -> Action:
        def answer(player: Color) -> Effects:
            asked = self._asked
            button = next(b for b, v in _VERBS.items() if v == verb)
            if asked is None or verb not in self._answers:
                allowed = ", ".join(sorted(self._answers)) or "nothing"
                return [Refuse(player, button, f"the house rules allow {allowed} now, not {verb}")]
            side, member = asked
            s = self.session
            captain = s.captain
            method = getattr(s, (_TEAM_ANSWERS if side is Side.TEAM else _BOX_ANSWERS)[verb])

            def new_captain() -> Effects:  # for a moment: the new captain moves the checkers now
                if s.phase in (Phase.ROLL, Phase.DOUBLED, Phase.MOVE) and s.captain != captain:
                    return [Flash(self.code(s.captain))]
                return []

            return [*self._decided(verb, source, record or {}), Act(lambda: method(member), then=new_captain)]
        return answer


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"


def _totals(points: Mapping[str, Any]) -> str:
    return ", ".join(f"{name} {signed(value)}" for name, value in points.items())


def start_chouette(settings: Settings, wall_time: Callable[[], float]) -> ChouetteSession:
    """A new chouette session as the settings say (the players still to throw for the order)."""
    chouette = settings.chouette
    assert chouette is not None
    return ChouetteSession(chouette.players, settings.variant, chouette.options, clock=wall_time)


def resume_chouette(settings: Settings, journal: Journal, history: list[dict[str, Any]]) -> ChouetteSession:
    """The session of a journal, replayed (the derived events its last action still owes are the
    session's last, which the recorder writes first); only with the settings it began with."""
    session, _ = resume(history)
    start = next(e for e in history if e.get("type") == "chouette_start")

    def described(variant: str, players: Any, options: str) -> str:
        return f"a {variant} chouette of {', '.join(map(str, players))} ({options})"

    recorded = described(session.variant.value, start["players"], session.options.describe())
    chouette = settings.chouette
    asked = "a match" if chouette is None else described(settings.variant.value, chouette.players,
                                                         chouette.options.describe())
    if recorded != asked:
        raise JournalError(f"{journal.directory} holds {recorded}, not {asked}: give another record directory, "
                           "or the settings it began with, to go on with it")
    return session
