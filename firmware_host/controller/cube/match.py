"""A match between two players at the table: the cube (double, take, pass, beaver), resigning,
a loss on time, and how the record's ends are told (hardware_docs/referee.md).

The checker play, the board checks, the dice and the outputs are the table's, alike for every
contest (`firmware_host.controller.session`); this part holds only what a match adds to them, and
hands back the effects of each moment (firmware_host/controller/effects.py) for the controller to apply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from drivers.events import ButtonKind
from firmware_host.controller.buttons import Action
from firmware_host.controller.effects import Act, Advance, Effects, Publish, Write
from firmware_host.controller.prompts import Waiting
from firmware_host.controller.resign_takeback import Resignation
from firmware_host.errors import JournalError
from firmware_host.record.journal import Journal
from firmware_host.settings import Settings
from game.board import Color
from game.bot.context import MatchContext
from game.codes import Code
from game.cube import Cube
from game.events import MATCH_EVENT_TYPES
from game.match import Match, Phase


class MatchDialogue:
    """The match's own moments at the table."""

    event_types = frozenset(MATCH_EVENT_TYPES)

    def __init__(self, match: Match) -> None:
        self.match = match
        self.resignation = Resignation(match)

    def buttons(self) -> Mapping[Waiting, Mapping[ButtonKind, Action]]:
        """double, take, pass (and beaver) on the cube; choosing, offering and answering a resignation."""
        match = self.match

        def act(action: Callable[[Color], object]) -> Action:
            return lambda player: [Act(lambda: action(player))]

        return {
            Waiting.ROLL_OR_DOUBLE: {ButtonKind.DOUBLE: act(match.double), ButtonKind.PASS: self.resignation.choose},
            Waiting.RESIGN_KIND: {ButtonKind.PASS: self.resignation.more, ButtonKind.TAKE: lambda p: [Advance()],
                                  ButtonKind.DONE: self.resignation.offer},
            Waiting.CUBE_RESPONSE: {ButtonKind.TAKE: act(match.take), ButtonKind.PASS: act(match.pass_),
                                    ButtonKind.DOUBLE: act(match.beaver)},
            Waiting.RESIGN_RESPONSE: {ButtonKind.TAKE: act(match.accept_resignation),
                                      ButtonKind.PASS: act(match.decline_resignation)},
        }

    def throws(self) -> Mapping[Waiting, Callable[[int, int], Effects]]:
        """A match has no throws of its own (the opening roll and the rolls are the table's)."""
        return {}

    def prompt(self) -> Effects | None:
        """Roll or double, a double or a resignation to answer; None at a game's opening."""
        match = self.match
        player = match.expected
        if match.phase is Phase.ROLL:
            assert player is not None
            return [Publish(Waiting.ROLL_OR_DOUBLE, player=player, position=match.position,
                            can_double=match.may_double(player))]
        if match.phase in (Phase.DOUBLED, Phase.BEAVERED):
            return [Publish(Waiting.CUBE_RESPONSE, player=player, position=match.position,
                            can_beaver=match.phase is Phase.DOUBLED and match.options.beavers,
                            code=Code.DOUBLE_OFFERED)]
        if match.phase is Phase.RESIGNED:
            return [Publish(Waiting.RESIGN_RESPONSE, player=player, position=match.position,
                            code=Code.RESIGNATION_OFFERED)]
        return None

    def context(self) -> MatchContext:
        """The score, the length, the cube and the Crawford game, told with every prompt."""
        return MatchContext.of(self.match)

    def cube(self) -> tuple[Cube, bool]:
        """The match's cube, and whether this is the Crawford game."""
        return self.match.cube, self.match.crawford

    def over(self) -> str:
        """Who won the match, and the score."""
        match = self.match
        winner = match.winner.value if match.winner else "nobody"
        return f"{winner} wins the match, score {match.score[0]}-{match.score[1]} (white-black)"

    def where(self) -> str:
        """The game and the score."""
        return f"game {self.match.game_number}, score {self.match.score}"

    def phase(self) -> str:
        """The match's phase, as the record says it."""
        return self.match.phase.value

    def describe(self, event: Mapping[str, Any]) -> str | None:
        """The log's line for the cube's actions, a resignation, a takeback, a forfeit, and who won the
        game (or the match), how, and the score; None for the rest (the plays are the recorder's)."""
        kind, who = event["type"], event.get("player")
        cube = {"double": f"{who} doubles to {event.get('value')}", "beaver": f"{who} beavers to {event.get('value')}",
                "take": f"{who} takes: the cube is {event.get('value')}", "pass": f"{who} passes the cube",
                "resign": f"{who} resigns {_resigned(event.get('kind'))}",
                "resign_accept": f"{who} accepts the resignation", "resign_decline": f"{who} declines the resignation",
                "takeback": f"{who}'s last play is taken back", "forfeit": f"{who} forfeits ({event.get('reason')})"}
        if kind in cube:
            return cube[kind]
        if kind not in ("game_end", "match_end"):
            return None
        score = event["score"]
        points = f"{score['white']}-{score['black']} (white-black)"
        if kind == "match_end":
            return f"match over: {event['winner'] or 'nobody'} wins, score {points}"
        winner = event["winner"] or "nobody (remi)"
        return f"game {event['game']} over: {winner} wins {event['points']} ({event['kind']}), score {points}"

    def decide(self, answer: str, **record: Any) -> Effects | str:
        """A match has no members to decide from their phones."""
        return f"a match asks no member's decision (not {answer})"

    def time_loss(self, loser: Color) -> Effects:
        """`loser` forfeits the match on time."""
        match = self.match
        return [Act(lambda: match.forfeit(loser, "time")),
                Write({"type": "time_loss", "player": loser.value, "game": match.game_number})]


def _resigned(kind: object) -> str:
    """What a resignation gives up, as a person says it: a single game, a gammon, a backgammon."""
    return "a single game" if kind == "single" else f"a {kind}"


def start_match(settings: Settings, wall_time: Callable[[], float]) -> Match:
    """A new match as the settings say."""
    return Match(settings.variant, settings.length, settings.options, settings.players, clock=wall_time)


def resume_match(settings: Settings, journal: Journal, history: list[dict[str, Any]]) -> Match:
    """The match of a journal, replayed; only with the settings it began with."""
    match = Match.replay(history)

    def described(variant: str, length: int | None) -> str:
        return f"a {variant} {f'{length}-point match' if length else 'money session'}"

    recorded = described(match.variant.value, match.length)
    asked = "a chouette" if settings.chouette is not None else described(settings.variant.value, settings.length)
    if recorded != asked or match.options != settings.options:
        raise JournalError(f"{journal.directory} holds {recorded}, not {asked}: give another record directory, "
                           "or the settings it began with, to go on with it")
    return match
