"""Replaying a transcript through the rules: every written play read by the project's one resolver,
ambiguous ones settled by reading on, each dialect feature taken for what it is, and every real
fault reported as a problem with its line.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, NamedTuple

from game.board import BAR, CHECKERS, OWN_TO_BOARD, Color, Variant
from game.errors import AmbiguousPlayError, GameError, IllegalPlayError, IncompletePlayError, PositionError
from game.match import NO_OPTIONS, Match, MatchOptions, Phase
from game.play_reader import describe, read_play
from game.plays import Play, WrittenPlay
from game.position import Position
from game.replay import MAT_WINS, Replayer
from game.transcripts.lookahead import choose
from game.transcripts.reading import ILLEGAL_PLAY, Entry, Transcript, read_transcript
from game.transcripts.results import TranscriptReplayer
from game.transcripts.sgf import SGF_MOVES, read_sgf, resolve_moves


class TranscriptReplay(NamedTuple):
    """A transcript and its replay: the replayer holds the match, the problems and the notes.

    A NamedTuple, not a dataclass: made at every start of `python -m game`, it costs about an eighth as much.
    """

    transcript: Transcript
    replayer: Replayer


def replay_transcript(text: str, options: MatchOptions = NO_OPTIONS, *, strict: bool = False) -> TranscriptReplay:
    """Read and replay a transcript (strict: raise `ReplayError` at the first problem)."""
    return replay_read(read_transcript(text, options), strict=strict)


def replay_sgf(text: str, options: MatchOptions = NO_OPTIONS, *, strict: bool = False) -> TranscriptReplay:
    """Read and replay GNU Backgammon's `.sgf` (strict: raise `ReplayError` at the first problem)."""
    return replay_read(read_sgf(text, options), strict=strict)


def replay_read(transcript: Transcript, *, strict: bool = False) -> TranscriptReplay:
    """Replay a transcript already read, from a `.mat` or an `.sgf`."""
    replayer = TranscriptReplayer(strict=strict)
    driver = _Driver(transcript, replayer)
    for index, (line, event) in enumerate(transcript.entries):
        driver.step(index, line, event)
        if index == 0:
            for at, note in transcript.notes:
                replayer.note(note, at)
    replayer.finish()
    return TranscriptReplay(transcript, replayer)


class _Driver:
    def __init__(self, transcript: Transcript, replayer: Replayer) -> None:
        self.transcript = transcript
        self.replayer = replayer
        self.entries = transcript.entries
        self.dialect = transcript.dialect
        self.games_seen = 0

    def step(self, index: int, line: int, event: dict[str, Any]) -> None:
        kind = event["type"]
        r = self.replayer
        if kind == "game_start":
            self._game_start(index, line, event)
        elif kind == "play" and self._playable(event):
            self._play(index, line, event)
        elif kind == ILLEGAL_PLAY and self._playable(event):
            self._illegal_play(line, event)
        else:
            r.feed(event, line)

    def _game_start(self, index: int, line: int, event: dict[str, Any]) -> None:
        r, m = self.replayer, self.replayer.match
        self.games_seen += 1
        if m is not None and self.games_seen == 1:
            score = (int(event["score"]["white"]), int(event["score"]["black"]))
            if m.length is not None and m.length - 1 in score and (event["game"], score) != (1, (0, 0)):
                # A transcript that starts mid-match does not say whether the Crawford game is behind: a double does.
                if any(e["type"] == "double" for _, e in self._rest_of_game(index)):
                    event = {**event, "crawford": False}
        elif m is not None and not r.skipping and m.phase not in (Phase.OPENING, Phase.OVER):
            r.report(f"game {m.game_number} ends with no result: the transcript goes on to game {event['game']} "
                     f"while {_awaiting(m)}", line)
        r.feed(event, line)

    def _playable(self, event: dict[str, Any]) -> bool:
        m = self.replayer.match
        return (m is not None and not self.replayer.skipping and m.phase is Phase.MOVE
                and m.on_roll is not None and m.on_roll._value_ == event.get("player"))

    def _play(self, index: int, line: int, event: dict[str, Any]) -> None:
        r = self.replayer
        m = r.match
        assert m is not None and m.dice is not None
        text = str(event.get("text", ""))
        if event.get(SGF_MOVES):
            resolved = resolve_moves(m.position, m.dice, event[SGF_MOVES])
            if resolved is None:
                r.report(f"{text} is no legal play of {m.dice[0]}{m.dice[1]} for {event['player']}: no legal play "
                         f"leaves the board these moves leave", line)
                return
            r.feed({"type": "play", "player": event["player"], "resolved": resolved}, line)
            return
        try:
            written = WrittenPlay.parse(text, marks_hits=self.dialect.marks_hits)
        except GameError as exc:
            r.report(f"cannot read the play {text!r}: {exc}", line)
            return
        if not written.chains:
            self._no_move(index, line, event, m)
            return
        try:
            play = read_play(m.position, m.dice, written)
        except AmbiguousPlayError as exc:
            choice = choose(exc.plays, self._rest_of_game(index), written.marks_hits, m.cube.value)
            play = choice.play
            r.note(f"{text!r} may be {describe(exc.plays)}: {choice.reason}", line)
        except IncompletePlayError as exc:
            if not self._resigned_during_turn(index, line, event, text):
                r.report(str(exc), line)
            return
        except IllegalPlayError as exc:
            r.report(str(exc), line)
            return
        if play is not None:
            self._observe(line, event, written, play)
        r.feed({"type": "play", "player": event["player"], "resolved": play}, line)

    def _resigned_during_turn(self, index: int, line: int, event: dict[str, Any], text: str) -> bool:
        """A play cut short (`64: 22/16`, one die of two) right before the opponent's result line: the
        player resigned in the middle of the turn, so the play is not made and the result is the
        resignation. Anywhere else a play cut short is a problem."""
        following = self._rest_of_game(index)
        if not following or following[0][1]["type"] != MAT_WINS or following[0][1].get("player") == event["player"]:
            return False
        m = self.replayer.match
        assert m is not None and m.dice is not None
        self.dialect.saw("a play cut short by a resignation during the turn", line, text)
        self.replayer.note(f"{text!r} stops before the roll {m.dice[0]}{m.dice[1]} is played out: "
                           f"{event['player']} resigned during the turn, as the result after it says; "
                           f"the play is not made", line)
        return True

    def _no_move(self, index: int, line: int, event: dict[str, Any], m: Match) -> None:
        r = self.replayer
        assert m.dice is not None
        legal = m.position.legal_plays(m.dice)
        if not legal:
            r.feed({"type": "play", "player": event["player"], "resolved": None}, line)
            return
        following = self._rest_of_game(index)
        if not following or following[0][1]["type"] == MAT_WINS:
            return  # the roll only: a resignation follows, or the transcript stops before the play
        written = "'????'" if event.get("unrecorded") else "'Cannot Move'" if event.get("cannot_move") else "no move"
        dice = f"{m.dice[0]}{m.dice[1]}"
        if len(legal) == 1 and not event.get("unrecorded"):
            r.note(f"the roll {dice} has one legal play, {legal[0].notation()}, written as {written}: taken as "
                   f"played", line)
            r.feed({"type": "play", "player": event["player"], "resolved": legal[0]}, line)
            return
        r.report(f"the play of {dice} is missing: {written} is written where {len(legal)} legal plays exist "
                 f"(and no resignation follows)", line)

    def _observe(self, line: int, event: dict[str, Any], written: WrittenPlay, play: Play) -> None:
        text = str(event.get("text", ""))
        if len(play.moves) > len(written.steps):
            self.dialect.saw("a step of several dice written as one (13/9)", line, text)
        hits = frozenset(m.target for m in play.moves if m.hit)
        if self.dialect.marks_hits and not hits <= written.stars:
            self.dialect.saw("a hit left unmarked at times", line, text)
        if written.stars - hits:
            self.dialect.saw("a star where nothing was hit", line, text)

    def _illegal_play(self, line: int, event: dict[str, Any]) -> None:
        """Snowie's `Illegal play (...)`: the position after an illegal play that was let stand."""
        r = self.replayer
        m = r.match
        assert m is not None and m.dice is not None
        mover = Color(event["player"])
        try:
            after = snowie_position(str(event["snowie"]), mover)
        except (GameError, ValueError) as exc:
            r.report(f"Snowie's record of an illegal play gives no position: {exc}", line)
            return
        impossible = _not_a_play(m.position, after, mover)
        if impossible:
            r.report(f"Snowie's record of an illegal play by {mover.value} cannot follow from the position "
                     f"before it: {impossible}", line)
            return
        legal = [p for p in m.position.legal_plays(m.dice) if p.after_moves == after]
        if legal:
            r.note(f"Snowie records an 'illegal play' that is the legal play {legal[0].notation()}", line)
            r.feed({"type": "play", "player": mover.value, "resolved": legal[0]}, line)
            return
        r.note("an illegal play let stand (the traditional rule), as Snowie records it: the position after it "
               "is taken from the record", line)
        r.feed({"type": "play", "player": mover.value, "moves": [], "position": after.to_document(),
                "accepted_illegal": "a play the rules do not allow, recorded by Snowie and let stand"}, line)

    def _rest_of_game(self, index: int) -> Sequence[Entry]:
        """The entries after `index` up to the next game's start."""
        starts = self.transcript.game_starts
        end = starts[bisect_right(starts, index)] if bisect_right(starts, index) < len(starts) else len(self.entries)
        return self.entries[index + 1:end]


def _not_a_play(before: Position, after: Position, mover: Color) -> str | None:
    """Why `after` cannot follow `before` by any play of `mover`, legal or not, or None: a play moves
    the mover's checkers on (none come back from off) and the opponent's only to the bar, by hits.
    Snowie's records of a game whose plays were lost jump from the opening to a bear-off."""
    other = mover.opponent
    if after.off[mover.index] < before.off[mover.index]:
        return (f"{mover.value} has {after.off[mover.index]} checkers off after it, "
                f"{before.off[mover.index]} before")
    if after.off[other.index] != before.off[other.index]:
        return (f"{other.value} has {after.off[other.index]} checkers off after it, {before.off[other.index]} "
                f"before")
    moved = [n + 1 for n, (a, b) in enumerate(zip(before.points, after.points, strict=True))
             if b.count(other.char) > a.count(other.char)]
    if moved:
        return f"{other.value}'s checkers appear on point {', '.join(map(str, moved))} (white's numbering)"
    hit = sum(a.count(other.char) - b.count(other.char) for a, b in zip(before.points, after.points, strict=True))
    if after.bar[other.index] != before.bar[other.index] + hit:
        return (f"{other.value} has {after.bar[other.index]} checkers on the bar after it, "
                f"{before.bar[other.index]} before and {hit} hit")
    return None


def _awaiting(m: Match) -> str:
    who = m.expected.value if m.expected else "nobody"
    return {Phase.ROLL: f"{who} is to double or roll", Phase.MOVE: f"{who} is to play",
            Phase.DOUBLED: f"{who} is to take or pass", Phase.BEAVERED: f"{who} is to take or pass the beaver",
            Phase.RESIGNED: f"{who} is to answer a resignation"}.get(m.phase, m.phase.value)


def snowie_position(fields: str, mover: Color) -> Position:
    """The position in Snowie's semicolon fields (its .txt position format) with `mover` to move.

    Fields 13-36 are points 1-24 as the player on roll (the mover's opponent, after the play)
    numbers them, positive for that player's checkers; 12 and 37 are the two bars. GNU Backgammon
    reads 12 as the bar of the player on roll; the illegal-play records seen in real transcripts
    have them the other way round, so the order that leaves each side 15 checkers is taken.
    """
    values = fields.split(";")
    if len(values) < 40:
        raise PositionError(f"Snowie's position has {len(values)} fields, not 40")
    on_roll = mover.opponent
    points = [""] * 24
    for i, raw in enumerate(values[13:37]):
        count = int(raw)
        own, color = (i + 1, on_roll) if count > 0 else (BAR - (i + 1), mover)
        if count:
            points[OWN_TO_BOARD[Variant.BACKGAMMON, color][own] - 1] = color.char * abs(count)
    bars = abs(int(values[12])), abs(int(values[37]))
    problem: PositionError | None = None
    for on_roll_bar, mover_bar in (bars, bars[::-1]):
        bar = [0, 0]
        bar[on_roll.index], bar[mover.index] = on_roll_bar, mover_bar
        off = [CHECKERS - bar[c.index] - sum(s.count(c.char) for s in points) for c in Color]
        try:
            return Position(Variant.BACKGAMMON, mover, tuple(points), (bar[0], bar[1]), (off[0], off[1]))
        except PositionError as exc:
            problem = problem or exc
    assert problem is not None
    raise problem
