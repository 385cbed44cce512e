"""A match analysed by a bot: every checker play and cube decision judged, error rates, luck.

The record (JSON Lines or .mat) is walked with `game.replay.Replayer`; before each action the
match's state gives the decision the player faced:
- a checker play: the equity lost against the bot's best play (at the analysis level), and the
  luck of the roll (the best play's equity for this roll minus its average over the 21 rolls,
  both at 0-ply);
- a double or a roll with the cube available: no double against double (the opponent answering
  as well as it can); a take or pass: take against pass. Doubles count as decisions when they
  were made or when doubling was within 0.2 of right; takes and passes always count.
Resignations are not judged.

Equity is per unit of the cube in play (GNU Backgammon's normalised equity). The error rate of
Backgammon is GNU Backgammon's PR scale: 500 times the equity lost per unforced decision (a
play with more than one choice, or a cube decision counted as above). The variants have no PR:
their rate is the network error rate, NER, 1000 times the equity lost per unforced decision by
this project's own evaluator, named apart so that nobody compares it with a PR.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from game.board import Color, Variant
from game.bot.base import Bot, Level, RankedPlay
from game.bot.context import MatchContext
from game.bot.factory import make_bot
from game.bot.search import ROLL_WEIGHTS, ROLLS
from game.errors import UsageError
from game.match import Match, Phase
from game.plays import Play
from game.position import Position
from game.replay import Replayer

BLUNDER = 0.08  # equity lost that marks a play "??" (GNU Backgammon's very bad threshold is 0.08 too)
ERROR = 0.02  # "?" (GNU Backgammon's "bad" starts at 0.04 normalised, "doubtful" at 0.02)
CLOSE_DOUBLE = 0.2


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one player and the bot's judgement of it."""

    index: int  # the event's place in the record's events
    game: int
    player: Color
    kind: str  # "play", "double" (a double decision) or "take" (a take decision)
    position: Position  # before the decision, the player on roll (the doubler for a take decision)
    dice: tuple[int, int] | None
    chosen: str
    best: str
    error: float  # equity lost against the best choice, >= 0
    unforced: bool
    luck: float | None = None
    chosen_play: Play | None = None
    best_play: Play | None = None

    def describe(self) -> str:
        """ "game 2, white 31: 24/21 13/12, better 8/5 6/5 (-0.123)" """
        roll = f" {self.dice[0]}{self.dice[1]}" if self.dice else ""
        return (f"game {self.game}, {self.player.value}{roll}: {self.chosen}, better {self.best} "
                f"(-{self.error:.3f})")


@dataclass
class PlayerStats:
    """One player's totals."""

    plays: int = 0
    cube: int = 0
    unforced: int = 0
    error: float = 0.0
    luck: float = 0.0

    def rate(self, scale: float) -> float:
        """Equity lost per unforced decision, times `scale` (500 for PR, 1000 for NER)."""
        return scale * self.error / self.unforced if self.unforced else 0.0


@dataclass
class Analysis:
    """A whole match's decisions and the totals of each player."""

    variant: Variant
    players: tuple[str, str]
    judge: str
    events: list[dict[str, Any]]
    decisions: list[Decision] = field(default_factory=list)

    @property
    def scale(self) -> tuple[str, float]:
        """The rate's name and factor: GNU Backgammon's PR for Backgammon, NER for the variants."""
        return ("PR", 500.0) if self.variant is Variant.BACKGAMMON else ("NER", 1000.0)

    def stats(self) -> dict[Color, PlayerStats]:
        """Each player's totals."""
        totals = {color: PlayerStats() for color in Color}
        for d in self.decisions:
            s = totals[d.player]
            s.plays += d.kind == "play"
            s.cube += d.kind != "play"
            s.unforced += d.unforced
            s.error += d.error if d.unforced else 0.0
            s.luck += d.luck or 0.0
        return totals

    def biggest(self, count: int) -> list[Decision]:
        """The costliest decisions, costliest first."""
        return sorted((d for d in self.decisions if d.error > 0), key=lambda d: -d.error)[:count]

    def summary(self) -> list[tuple[str, str, str]]:
        """The totals as rows of (what, White's, Black's): the table `render` and the sheet show."""
        name, factor = self.scale
        stats = self.stats()
        rows: list[tuple[str, Callable[[PlayerStats], str]]] = [
                ("checker plays", lambda s: f"{s.plays}"), ("cube decisions", lambda s: f"{s.cube}"),
                ("unforced decisions", lambda s: f"{s.unforced}"),
                ("equity lost", lambda s: f"{s.error:.3f}"),
                (f"error rate ({name})", lambda s: f"{s.rate(factor):.1f}"),
                ("luck (equity)", lambda s: f"{s.luck:+.3f}")]
        return [(label, cell(stats[Color.WHITE]), cell(stats[Color.BLACK])) for label, cell in rows]

    def scale_note(self) -> str:
        """What the rate is, for a variant's NER (empty for GNU Backgammon's PR)."""
        if self.scale[0] != "NER":
            return ""
        return ("NER: thousandths of a point lost per unforced decision, judged by this project's network; "
                "not GNU Backgammon's PR")

    def render(self, biggest: int = 5) -> str:
        """The analysis as text: the totals of each player in aligned columns, then the biggest errors."""
        header = ("", *(side if name.casefold() == side else f"{side} ({name})"  # "white", not "white (White)"
                        for side, name in zip(("white", "black"), self.players, strict=True)))
        rows = [header, *self.summary()]
        first = max(len(row[0]) for row in rows) + 2
        second, third = (max(len(row[i]) for row in rows) + 2 for i in (1, 2))
        lines = [f"analysis by {self.judge}: {self.variant.value}, {len(self.decisions)} decisions"]
        lines += [f"{label:{first}}{white:>{second}}{black:>{third}}".rstrip() for label, white, black in rows]
        if self.scale_note():
            lines.append(self.scale_note())
        lines.append("biggest errors:" if self.biggest(biggest) else "no errors found")
        lines.extend("  " + d.describe() for d in self.biggest(biggest))
        return "\n".join(lines) + "\n"


def read_events(path: str) -> tuple[list[dict[str, Any]], bool]:
    """The events of a JSON Lines record, a .mat transcript or GNU Backgammon's .sgf, and whether it
    was a transcript (.mat or .sgf)."""
    from game.mat import mat_events
    from game.record import read_lines
    from game.transcripts import replay_sgf
    from game.transcripts.other_formats import file_kind

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    kind = file_kind(data, path)
    if kind == "record":
        events = [line.event for line in read_lines(data) if line.event is not None]
        return events, False
    text = data.decode("utf-8", errors="replace")
    if kind == "sgf":  # GNU Backgammon's own match file: the match it replays to (its moves are not notation)
        match = replay_sgf(text).replayer.match
        return ([dict(event) for event in match.events] if match is not None else []), False
    return [dict(event) for _, event in mat_events(text)], True


def analyse_file(path: str, level: Level, progress: Progress | None = None) -> Analysis:
    """Analyse the match in a record or .mat file at `level` (`progress(done, elapsed)` after each event)."""
    events, mat = read_events(path)
    start = next((e for e in events if e.get("type") == "match_start"), None)
    if start is None:
        raise UsageError(f"{path!r} holds no match (no match_start event)")
    variant = Variant(start.get("variant", "backgammon"))
    return analyse_events(events, make_bot(variant, level, seed=0), lenient=mat, progress=progress)


Progress = Callable[[int, float], None]


def analyse_events(events: list[dict[str, Any]], bot: Bot, lenient: bool = False,
                   progress: Progress | None = None) -> Analysis:
    """Analyse a match's events with `bot` (its level decides how deep plays are judged)."""
    replayer = Replayer(lenient=lenient)
    luck_bot = make_bot(bot.variant, Level.ADVANCED) if bot.level is not Level.ADVANCED else bot
    players = ("White", "Black")
    analysis = Analysis(bot.variant, players, bot.name, events)
    started = time.perf_counter()
    for index, event in enumerate(events):
        match = replayer.match
        kind = event.get("type")
        if match is not None and not match.is_over and match.game_number:
            analysis.decisions.extend(_decisions(index, kind, event, match, bot, luck_bot, replayer))
        else:
            replayer.feed(event, index + 1)
        if kind == "match_start" and isinstance(event.get("players"), Mapping):
            names = event["players"]
            analysis.players = (str(names.get("white", "White")), str(names.get("black", "Black")))
        if progress:
            progress(index + 1, time.perf_counter() - started)
    return analysis


def _decisions(index: int, kind: Any, event: Mapping[str, Any], match: Match, bot: Bot, luck_bot: Bot,
               replayer: Replayer) -> Iterator[Decision]:
    """Judge the decision `event` makes in `match` (before feeding it), then feed it."""
    game, phase = match.game_number, match.phase
    context = MatchContext.of(match)
    position = match.position
    if kind in ("roll", "double") and phase is Phase.ROLL and context.may_double(position.turn):
        decision = bot.cube_decision(position, context)
        doubled = kind == "double"
        best_value = max(decision.no_double, min(decision.double_take, decision.double_pass))
        chosen_value = min(decision.double_take, decision.double_pass) if doubled else decision.no_double
        close = doubled or min(decision.double_take, decision.double_pass) > decision.no_double - CLOSE_DOUBLE
        best = "double" if decision.double else "no double"
        yield Decision(index, game, position.turn, "double", position, None, "double" if doubled else "no double",
                       best, max(0.0, best_value - chosen_value), close)
    elif kind in ("take", "pass", "beaver") and phase in (Phase.DOUBLED, Phase.BEAVERED) and \
            context.cube.offered_by is not None and not context.cube.beavered:
        doubler = context.cube.offered_by
        decision = bot.cube_decision(position.with_turn(doubler), context)
        take_value, pass_value = -decision.double_take, -decision.double_pass
        chosen = "pass" if kind == "pass" else "take"
        best = "take" if decision.take else "pass"
        error = max(take_value, pass_value) - (pass_value if chosen == "pass" else take_value)
        yield Decision(index, game, doubler.opponent, "take", position.with_turn(doubler), None, chosen, best,
                       max(0.0, error), True)
    elif kind == "play" and phase is Phase.MOVE and match.dice is not None:
        before = match.event_count
        replayer.feed(event, index + 1)
        made: list[Mapping[str, Any]] = [dict(e) for e in match.events_from(before)]
        if not made or made[0].get("type") != "play":
            return
        after = Position.from_document(made[0]["position"])
        dice = match_dice(made[0])
        ranked = bot.rank_plays(position, dice, context)
        made_play = next((r for r in ranked if r.play.after_moves == after), None)
        if made_play is None or not ranked:
            return
        error = max(0.0, ranked[0].equity - made_play.equity)
        yield Decision(index, game, position.turn, "play", position, dice, made_play.play.notation(),
                       ranked[0].play.notation(), error, len(ranked) > 1, _luck(luck_bot, position, dice, context),
                       made_play.play, ranked[0].play)
        return
    replayer.feed(event, index + 1)


def match_dice(event: Mapping[str, Any]) -> tuple[int, int]:
    """The dice of a play event."""
    dice = event.get("dice") or (0, 0)
    return int(dice[0]), int(dice[1])


def _best_equity(bot: Bot, position: Position, dice: tuple[int, int], context: MatchContext) -> float:
    ranked: list[RankedPlay] = bot.rank_plays(position, dice, context)
    if ranked:
        return ranked[0].equity
    probs = bot.estimate(position.pass_turn(), context)
    mine = np.array([[1 - probs[0], probs[3], probs[4], probs[1], probs[2]]], dtype=np.float32)
    return float(bot.equity_of(mine, context, position.turn)[0])


def _luck(bot: Bot, position: Position, dice: tuple[int, int], context: MatchContext) -> float:
    """The roll's luck for the player on roll: its best equity less the average over all rolls."""
    values = np.array([_best_equity(bot, position, roll, context) for roll in ROLLS], dtype=np.float32)
    rolled = values[ROLLS.index((min(dice), max(dice)))]
    return float(rolled - ROLL_WEIGHTS @ values)
