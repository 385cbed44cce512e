"""Result lines of a transcript, in every form seen, and the money session's game headers.

`Wins N points` ends a game already over (a bear-off, a pass) or is a resignation (before the
opening roll too), the smallest worth N. Written points may be what counted toward the match,
capped at what the winner needed or at the match's length (Backgammon Galaxy): accepted with a
note where the rules give at least that. More than a game can be worth is the match conceded
when it is exactly the rest of the match, or when any result at the cube gives the winner the
match (Backgammon Studio's `Wins 4016 point`). A gammon with the cube never turned written as 1 is
the Jacoby rule of money play (Backgammon Galaxy's money games, written as 16-point matches).
Anything else is impossible, and a problem. A money session whose games are each headed with their
own score (0 : 0) is taken as written: money games do not depend on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from game.board import Color
from game.errors import MatchActionError, RecordError
from game.events import MatchEvent
from game.match import Match, Phase, kind_from_name, kind_name
from game.position import ResultKind
from game.replay import Replayer, event_color


class TranscriptReplayer(Replayer):
    """A `Replayer` for transcripts: lenient about derived events, and reading result lines."""

    def __init__(self, *, strict: bool = False) -> None:
        super().__init__(strict=strict, lenient=True)

    def _other_start(self, expected: MatchEvent, event: Mapping[str, Any], line: int | None) -> bool:
        """A transcript of a money session that heads a game with a score other than the session's
        tally (each game at 0 : 0, say): money games do not depend on it, so it is taken as written."""
        score, game = event.get("score"), event.get("game")
        if self._match().length is not None or not isinstance(score, Mapping) or score == dict(expected).get("score"):
            return False
        white, black = score.get("white"), score.get("black")
        if not isinstance(game, int) or not isinstance(white, int) or not isinstance(black, int):
            return False
        m = self._match()
        rules = cast(Mapping[str, Any], expected)["score"]
        m.restore_game(game, (white, black))
        self._compare(m.events_from(m.event_count - 1)[0], event)
        self.note(f"game {game} of the money session is headed white {white} black {black}, not the session's "
                  f"white {rules['white']} black {rules['black']}: taken as written", line)
        return True

    def _wins(self, event: Mapping[str, Any], line: int | None) -> None:
        """A .mat "Wins N points": the end of a game already over, or else a resignation (before the
        opening roll too). Points written as what counted toward the match, capped at what the winner
        needed, are accepted with a note where the rules give at least that."""
        m = self._match()
        winner, points = event_color(event, "player"), event.get("points")
        if not isinstance(points, int) or points < 1:
            raise RecordError(f"Wins needs a number of points, got {points!r}")
        if self._pending and self._pending[0]["type"] == "game_end":
            end = self._pending.popleft()
            ended = cast(Mapping[str, Any], end)
            if ended.get("winner") == winner.value:
                points = self._counted(m, winner, points, int(ended.get("points") or 0), line)
            self._compare(end, {"winner": winner.value, "points": points})
            return
        cube = m.cube.value
        kind = ResultKind(min(3, max(1, -(-points // cube))))
        conceded = self._conceded(m, winner, points) if points > 3 * cube else None
        if conceded is not None:
            self.note(f"Wins {points}{conceded}: {winner.opponent.value} conceded the match", line)
            self._run(lambda: m.forfeit(winner.opponent, "conceded the match"),
                      {"type": "forfeit", "player": winner.opponent.value}, line)
            return
        if m.phase is Phase.OPENING:
            self.note(f"{winner.opponent.value} resigned game {m.game_number} before its opening roll", line)
        rules = m.value_of(kind)
        if points != rules:
            if not self._capped(m, points, rules, m.score[winner.index]):
                raise MatchActionError(f"Wins {points} cannot be: with the cube at {cube} a game is worth "
                                       f"{cube}, {2 * cube} or {3 * cube} (a resignation of "
                                       f"{kind_name(kind, m.variant)} gives {rules})")
            self.note(f"Wins {points}: the points that counted toward the match (the resignation gives {rules}, "
                      f"{winner.value} needed {points})", line)
            points = rules
        before = m.event_count
        m.resign(winner.opponent, kind)
        m.accept_resignation(winner)
        _, _, end, *derived = m.events_from(before)
        self._compare(end, {"winner": winner.value, "points": points})
        self._pending.extend(derived)

    def _counted(self, m: Match, winner: Color, points: int, rules: int, line: int | None) -> int:
        """The rules' points when the written ones are what counted toward the match (or a gammon
        counted single by the Jacoby rule, money play written as a match), else as written."""
        if points == rules:
            return points
        last = m.games[-1] if m.games else None  # the game that ended: the next may have begun
        game = last.number if last is not None else None
        if self._capped(m, points, rules, m.score[winner.index] - rules):
            self.note(f"Wins {points}: the points that counted toward the match (the game gives {rules})", line,
                      game)
            return rules
        if (last is not None and last.kind in ("gammon", m.variant.triple_name) and points == 1
                and rules == int(kind_from_name(last.kind, m.variant))):  # cube 1: never turned
            self.note(f"Wins {points}: a {last.kind} with the cube never turned counted single, as the "
                      f"Jacoby rule of money play has it (the game gives {rules} in match play)", line, game)
            return rules
        return points

    @staticmethod
    def _capped(m: Match, points: int, rules: int, before: int) -> bool:
        """Points written as what counted toward the match: capped at what the winner needed, or at the
        match's length (Backgammon Galaxy), where the rules give at least that."""
        return m.length is not None and points in (m.length - before, m.length) and rules >= points

    @staticmethod
    def _conceded(m: Match, winner: Color, points: int) -> str | None:
        """Why points more than a game can be worth are the match conceded, or None: they are the rest
        of the match, or even a single game at the cube gives the winner the match, so what was
        resigned cannot matter (Backgammon Studio writes such a resignation as `Wins 4016 point`)."""
        if m.length is None:
            return None
        needed = m.length - m.score[winner.index]
        if points in (needed, m.length):
            return f" and the match, more than a game can be worth at cube {m.cube.value}"
        if needed <= m.cube.value:
            return (f", no game's worth at cube {m.cube.value}, but any result there gives {winner.value} "
                    f"the match ({needed} needed)")
        return None
