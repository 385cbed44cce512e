"""A chouette session: one board, the box against a team whose captain moves the checkers.

`ChouetteSession` is driven action by action, as `game.match.Match` is: the caller hands it
the dice and each player's decision; each action checks that the rules allow it, raises a
specific `MatchActionError` naming where the session stands when they do not, and appends
typed events (`game.chouette.events`) to `ChouetteSession.events`, derived events after the
action that causes them. `awaiting()` says who acts next and with which methods. Checker
play is the two-player game's (`Position.legal_plays`); the cubes are each member's own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from fractions import Fraction

from game.board import Variant
from game.errors import (
    DuplicatePlayer,
    IllegalMove,
    IllegalPlayError,
    InvalidDice,
    NotYourTurn,
    OptionDisabled,
    PartnerNotAllowed,
    SessionSize,
    UnknownPlayer,
    WrongPhase,
)
from game.match import _match_play, kind_name, throw_dice
from game.play_reader import read_play
from game.plays import Play, WrittenPlay
from game.position import Position

from . import events as ev
from .awaiting import Phase
from .options import MAX_PLAYERS, MIN_PLAYERS, PARTNER_PLAYERS, RECORD_VERSION, ChouetteOptions, Side, number
from .roster import Roster
from .stakes import Stake, Stakes
from .state import BoardState, ChouetteGame, SessionState, _name

__all__ = ["ChouetteGame", "ChouetteSession", "Phase"]


class ChouetteSession(SessionState):
    """A chouette of three to nine players, from the throws for the order until `stop()`."""

    def __init__(self, players: Sequence[str], variant: Variant = Variant.BACKGAMMON,
                 options: ChouetteOptions | None = None, clock: Callable[[], float] = time.time) -> None:
        super().__init__(players, variant, options, clock)
        self._emit(ev.ChouetteStart(type="chouette_start", t=self._clock(), variant=variant.value,
                                    options=self.options.to_document(), players=list(self._totals),
                                    version=RECORD_VERSION))

    def use_clock(self, clock: Callable[[], float]) -> None:
        """Time-stamp the events from now on with `clock` (a replayed session goes on live)."""
        self._clock = clock

    # -- the order, joining, leaving ----------------------------------------------------

    def throw(self, player: str, die: int) -> None:
        """`player` throws one die for the order; ties throw again among themselves."""
        self._require(Phase.SEATING)
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise InvalidDice(f"{player}'s throw must be a face from 1 to 6, got {die!r}", self._context())
        if player not in self._totals:
            raise UnknownPlayer(f"{player} is not a player of this chouette", self._context())
        if player not in self._seating.pending:
            waiting = ", ".join(self._seating.pending)
            raise NotYourTurn(f"{player} does not throw now (waiting for {waiting})", self._context())
        self._emit(ev.SeatThrow(type="seat_throw", t=self._clock(), player=player, die=die))
        self._seating.throw(player, die)
        if self._seating.done:
            self._roster = Roster.seated(self._seating.order)
            self._emit(ev.Seating(type="seating", t=self._clock(), box=self._roster.box,
                                  line=list(self._roster.line)))
            self._start_game()

    def join(self, player: str) -> None:
        """A player arrives between games and joins at the end of the line."""
        self._between_games("join")
        player = _name(player, self._context())
        if player in self._roster.players:
            raise DuplicatePlayer(f"{player} is already seated", self._context())
        if len(self._roster.players) >= MAX_PLAYERS:
            raise SessionSize(f"a chouette seats at most {MAX_PLAYERS} players", self._context())
        self._emit(ev.Join(type="join", t=self._clock(), player=player))
        self._totals.setdefault(player, Fraction(0))
        self._set_roster(self._roster.joined(player), "join")

    def leave(self, player: str) -> None:
        """A player leaves between games (the box's place goes to the captain); the total stands."""
        self._between_games("leave")
        if player not in self._roster.players:
            raise UnknownPlayer(f"{player} is not seated", self._context())
        if len(self._roster.players) <= MIN_PLAYERS:
            raise SessionSize(f"a chouette needs {MIN_PLAYERS} players: stop the session instead",
                              self._context())
        self._emit(ev.Leave(type="leave", t=self._clock(), player=player))
        roster = self._roster.left(player)
        if len(roster.players) < PARTNER_PLAYERS:
            roster = roster.with_partner(None)
        self._set_roster(roster, "leave")

    def take_partner(self, player: str) -> None:
        """The box takes `player` (not the captain) as partner for this game (option, six or more)."""
        if not self.options.box_partner:
            raise OptionDisabled("this chouette plays without box partners", self._context())
        self._between_games("take a partner")
        roster = self._roster
        if len(roster.players) < PARTNER_PLAYERS:
            raise SessionSize(f"the box takes a partner from {PARTNER_PLAYERS} players on, "
                              f"there are {len(roster.players)}", self._context())
        if player not in roster.line:
            raise UnknownPlayer(f"{player} is not in the line", self._context())
        if roster.partner is not None or player == roster.captain:
            why = f"{roster.partner} is the partner" if roster.partner else f"{player} is the captain"
            raise PartnerNotAllowed(f"{player} cannot be the box's partner: {why}", self._context())
        self._emit(ev.Partner(type="partner", t=self._clock(), player=player))
        self._set_roster(roster.with_partner(player), "partner")

    def stop(self) -> None:
        """End the session between games; the totals stand."""
        self._between_games("stop")
        self._board.phase = Phase.OVER
        self._emit(ev.SessionEnd(type="session_end", t=self._clock(), games=len(self._games),
                                 totals=self._totals_doc()))

    # -- the board ---------------------------------------------------------------------------

    def opening_roll(self, team_die: int, box_die: int) -> None:
        """The captain and the box throw one die each; equal dice throw again, the higher starts."""
        self._require(Phase.OPENING)
        self._check_dice((team_die, box_die), "opening roll")
        if self._stakes is None:
            self._stakes = Stakes(self._roster.team, self.options)
            self._captain = self._stakes.order[0]
        self._emit(ev.OpeningRoll(type="opening_roll", t=self._clock(), game=self._game, team=team_die,
                                  box=box_die))
        if team_die == box_die:
            if self.options.automatic_doubles:
                value = self._stakes.automatic_double()
                if value is not None:
                    self._emit(ev.AutomaticDouble(type="automatic_double", t=self._clock(), game=self._game,
                                                  value=value))
            return
        starter = Side.TEAM if team_die > box_die else Side.BOX
        b = self._board
        b.position = b.position.with_turn(starter.color)
        b.dice = (max(team_die, box_die), min(team_die, box_die))
        b.phase = Phase.MOVE

    def roll(self, d1: int | None = None, d2: int | None = None) -> tuple[int, int]:
        """The side on roll rolls (instead of turning cubes, or after the answers): the dice given,
        or two thrown here when none are, as `Match.roll`; returns the dice."""
        self._require(Phase.ROLL)
        if d1 is None and d2 is None:
            d1, d2 = throw_dice()
        elif d1 is None or d2 is None:
            raise InvalidDice(f"roll: give both dice or none, got {d1!r} and {d2!r}", self._context())
        self._check_dice((d1, d2), "roll")
        b = self._board
        b.dice, b.phase = (d1, d2), Phase.MOVE
        side = Side.of(b.position.turn)
        self._emit(ev.Roll(type="roll", t=self._clock(), game=self._game, side=side.value, player=self.roller(),
                           dice=[d1, d2]))
        return d1, d2

    def play(self, moves: Play | Sequence[tuple[int, int]] | str, hits: Iterable[int] | None = None) -> Play | None:
        """The captain or the box plays the dice, as in `Match.play`; returns the play (None: no play)."""
        self._require(Phase.MOVE)
        b = self._board
        assert b.dice is not None
        try:
            if isinstance(moves, Play):
                chosen = _match_play(b.position, b.dice, moves)
            else:
                written = WrittenPlay.of(moves if isinstance(moves, str) else list(moves),
                                         None if hits is None else frozenset(hits))
                chosen = read_play(b.position, b.dice, written)
        except IllegalMove as exc:
            raise IllegalMove(exc.reason, self._context()) from None
        except IllegalPlayError as exc:
            raise IllegalMove(str(exc), self._context()) from None
        after = chosen.after_moves if chosen else b.position
        self._played([[m.source, m.target] for m in chosen.moves] if chosen else [], after)
        return chosen

    def accept_illegal_play(self, after: Position, steps: Sequence[tuple[int, int]], breach: str) -> None:
        """The traditional rule: the other side lets an illegal play stand (see `Match`)."""
        self._require(Phase.MOVE)
        b = self._board
        if after.variant is not b.position.variant or after.turn is not b.position.turn:
            raise IllegalMove(f"an accepted play must leave a {b.position.variant.value} position with "
                              f"{b.position.turn.value} to move", self._context())
        self._played([[s, t] for s, t in steps], after, accepted_illegal=breach)

    def takeback(self) -> None:
        """The sides agree to take back the last play before anything else happened."""
        self._require(Phase.ROLL)
        undo = self._undo
        if undo is None:
            raise WrongPhase("there is no play to take back", self._context())
        self._board, self._undo = undo, None
        side = Side.of(undo.position.turn)
        self._emit(ev.Takeback(type="takeback", t=self._clock(), game=self._game, side=side.value,
                               player=self.roller()))

    # -- the cubes -----------------------------------------------------------------------

    def double(self, member: str) -> None:
        """`member`, the team on roll, turns their own cube against the box (team cube: the captain)."""
        self._turn(Side.TEAM, member)

    def box_double(self, member: str) -> None:
        """The box, on roll, turns `member`'s cube; several members one after another, in team order."""
        self._turn(Side.BOX, member)

    def take(self, member: str) -> None:
        """`member` takes the box's double (or the box's beaver of `member`'s double)."""
        self._answer(Side.TEAM, member, "take")

    def pass_(self, member: str) -> None:
        """`member` passes: pays the cube before the double and is out of this game."""
        self._answer(Side.TEAM, member, "pass")

    def beaver(self, member: str) -> None:
        """`member`, doubled by the box, takes and at once redoubles, keeping the cube (option)."""
        self._answer(Side.TEAM, member, "beaver")

    def box_take(self, member: str) -> None:
        """The box takes `member`'s double (or `member`'s beaver)."""
        self._answer(Side.BOX, member, "take")

    def box_pass(self, member: str) -> None:
        """The box passes `member`'s double: pays `member` the cube before it; `member` is out."""
        self._answer(Side.BOX, member, "pass")

    def box_beaver(self, member: str) -> None:
        """The box, doubled by `member`, takes and at once redoubles, keeping the cube (option)."""
        self._answer(Side.BOX, member, "beaver")

    # -- internals --------------------------------------------------------------------------

    def _turn(self, side: Side, member: str) -> None:
        self._check_double(side, member)
        stakes = self._stakes_now()
        value = self._op(lambda: stakes.double(side, member))
        self._board.phase = Phase.DOUBLED
        actor = self.box if side is Side.BOX else member
        self._emit(ev.Double(type="double", t=self._clock(), game=self._game, player=actor, member=member,
                             value=value))

    def _answer(self, side: Side, member: str, verb: str) -> None:
        self._require(Phase.DOUBLED)
        if verb == "beaver" and not self.options.beavers:
            raise OptionDisabled("this chouette plays no beavers", self._context())
        stakes = self._stakes_now()
        self._member_acts_for(member, stakes)
        settled = self._op(lambda: stakes.answer(side, member, verb))
        actor, value, now = self.box if side is Side.BOX else member, stakes[member].cube.value, self._clock()
        if verb == "take":
            self._emit(ev.Take(type="take", t=now, game=self._game, player=actor, member=member, value=value))
        elif verb == "beaver":
            self._emit(ev.Beaver(type="beaver", t=now, game=self._game, player=actor, member=member,
                                 value=2 * value))
        else:
            self._emit(ev.Pass(type="pass", t=now, game=self._game, player=actor, member=member))
        for stake in settled:
            self._settled(stake)
            if stake.member == self._captain and stake.reason == "pass":
                self._lost.append(stake.member)
        exchange = stakes.exchange
        assert exchange is not None
        if not exchange.complete:
            return
        stakes.exchange = None
        self._board.phase, self._board.doubled = Phase.ROLL, True
        still = stakes.in_game()
        if not still:
            self._end_game("pass")
        elif self._captain not in still:
            previous, self._captain = self._captain, still[0]
            self._emit(ev.Captain(type="captain", t=self._clock(), game=self._game, player=self._captain,
                                  previous=previous))

    def _played(self, moves: list[list[int]], after: Position, **extra: str) -> None:
        b = self._board
        assert b.dice is not None
        undo = replace(b)
        side = Side.of(b.position.turn)
        b.move_number += 1
        event = ev.PlayMade(type="play", t=self._clock(), game=self._game, side=side.value, player=self.roller(),
                        dice=list(b.dice), moves=moves, position=after.to_document())
        if "accepted_illegal" in extra:
            event["accepted_illegal"] = extra["accepted_illegal"]
        self._emit(event)
        self._undo = undo
        b.position, b.dice, b.doubled = after, None, False
        result = after.result()
        if result is not None:
            team_won = Side.of(result.winner) is Side.TEAM
            for stake in self._stakes_now().settle_all(result.kind, team_won, kind_name(result.kind, self.variant)):
                self._settled(stake)
            self._end_game("bearoff")
        elif after.is_remi():
            for stake in self._stakes_now().settle_all(None, False, "remi"):
                self._settled(stake)
            self._end_game("remi")
        else:
            b.position, b.phase = after.pass_turn(), Phase.ROLL

    def _settled(self, stake: Stake) -> None:
        assert stake.result is not None
        self._emit(ev.Settle(type="settle", t=self._clock(), game=self._game, member=stake.member,
                             points=number(stake.result), cube=stake.cube.value, reason=stake.reason,
                             kind=stake.kind))

    def _end_game(self, reason: str) -> None:
        stakes = self._stakes_now()
        roster = self._roster
        final = self._captain
        results: dict[str, Fraction] = {}
        for member in stakes.order:
            result = stakes[member].result
            assert result is not None
            results[member] = result
        box_result = -sum(results.values(), Fraction(0))
        if roster.partner is not None:
            results[roster.box] = results[roster.partner] = box_result / 2
        else:
            results[roster.box] = box_result
        for name, points in results.items():
            self._totals[name] += points
        captain_result = results[final]
        box_beaten = captain_result > 0
        winner = None if reason == "remi" else Side.TEAM if box_beaten else Side.BOX
        kind = stakes[final].kind
        self._emit(ev.GameEnd(type="game_end", t=self._clock(), game=self._game,
                              winner=winner.value if winner else None, kind=kind, reason=reason, captain=final,
                              results={n: number(p) for n, p in results.items()}, totals=self._totals_doc()))
        self._games.append(ChouetteGame(self._game, roster.box, stakes.order, roster.partner, final, winner, kind,
                                        reason, results, dict(self._totals),
                                        tuple(replace(stakes[m]) for m in stakes.order)))
        losers = self._lost + ([final] if captain_result < 0 and final not in self._lost else [])
        self._roster, to_end = roster.rotated(final, box_beaten, losers)
        self._emit(ev.Rotation(type="rotation", t=self._clock(), game=self._game, box=self._roster.box,
                               captain=self._roster.captain, line=list(self._roster.line), to_end=list(to_end)))
        self._start_game()

    def _start_game(self) -> None:
        self._game += 1
        self._stakes, self._lost, self._undo = None, [], None
        self._board = BoardState(Position.initial(self.variant), Phase.OPENING)
        self._captain = self._roster.captain
        self._emit(ev.GameStart(type="game_start", t=self._clock(), game=self._game, box=self._roster.box,
                                captain=self._roster.captain, line=list(self._roster.line),
                                totals=self._totals_doc(), position=self._board.position.to_document()))

    def restore_game(self, game: int, roster: Roster, totals: dict[str, Fraction]) -> None:
        """Start game `game` with the roles and totals a record gives, after a problem left the rules behind."""
        self._roster = roster
        self._totals = {**{name: Fraction(0) for name in self._totals}, **totals}
        self._game = game - 1
        self._start_game()

    def _set_roster(self, roster: Roster, reason: str) -> None:
        self._roster = roster
        self._captain = roster.captain
        self._emit(ev.Line(type="line", t=self._clock(), box=roster.box, captain=roster.captain,
                           line=list(roster.line), partner=roster.partner, reason=reason))

    def _between_games(self, what: str) -> None:
        self._require(Phase.OPENING)
        if self._stakes is not None:
            raise WrongPhase(f"cannot {what} now: game {self._game} has begun with its opening roll",
                             self._context())

