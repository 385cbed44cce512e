"""Judging candidate plays with a network: 0-ply (the position after each play), 1-ply (the
average over the opponent's 21 rolls of the position after its best reply) and 2-ply (the same,
each position after the best reply judged at 1-ply: the mover's 21 rolls and best answers).

The candidates of a roll are `Position.legal_plays` (the table needs `Play`s); the opponent's
replies in the 1-ply look-ahead stay the move generator's 28-byte states (`state_plays`), never
built into positions unless one ends the game. The network reads all candidates of a roll as one
numpy batch, and a look-ahead's replies and answers as one batch `CHUNK` rows a pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from game.board import CHECKERS, Color, Variant
from game.bot.encoding import F32, TRAPPED, TRAPPING, U8, features, flip, states_array
from game.bot.network import Network, consistent, mirror
from game.movegen import State, decode, encode, opponent_view, state_plays
from game.plays import Play
from game.position import Position, ResultKind
from game.rules import RuleOptions

ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
ROLL_WEIGHTS = np.array([1.0 if a == b else 2.0 for a, b in ROLLS], dtype=np.float32) / 36.0
EquityOf = Callable[[F32, Color], F32]  # estimates (N, 5) for a colour -> equities (N,)
DRAW = np.array([0.5, 0.0, 0.0, 0.0, 0.0], dtype=np.float32)  # a Catchgammon Remi: nothing won
CHUNK = 512
"""The most rows the network reads in one pass of a look-ahead. A Catchgammon two-ply batch reaches
27,000 rows (30 MB of inputs at once; read whole, they made the bot add 116 MB to the controller over
400 positions of random games), and the bot's memory is the controller's. 512 rows of a 160-unit
network's inputs and activations fit a core's 1 MB second-level cache here: 2,048 rows took 1.5
times as long a play (60 positions, ad hoc), 1,024 and 256 as long as 512."""


def after_states(plays: Sequence[Play]) -> U8:
    """The state of each play's resulting position, read from the mover's side."""
    return states_array([encode(play.after_moves) for play in plays])


def final_estimate(position: Position) -> F32 | None:
    """The exact outcome for the side that just made the play that left `position`, if the game
    is over (borne off, a Catchgammon Remi, a mother checker trapped under that rule); None while
    it goes on."""
    result = position.result()
    if result is not None:
        kind = result.kind
        won = result.winner is position.turn
        outcome = [1.0, float(kind >= ResultKind.GAMMON), float(kind is ResultKind.TRIPLE)]
        probs = outcome + [0.0, 0.0] if won else [0.0, 0.0, 0.0, *outcome[1:]]
        return np.array(probs, dtype=np.float32)
    return DRAW.copy() if position.is_remi() else None


def may_be_over(variant: Variant, states: U8, rules: RuleOptions) -> npt.NDArray[np.bool_]:
    """Rows that may end the game: all borne off, or (Catchgammon) a Remi (each side's checker
    trapped on its starting point) or, under the mother-checker rule, either one trapped there
    (`final_estimate` tells, from the position). A trap on a starting point can last for many
    plies, so the filter must not flag it alone when it ends nothing: every flagged row is decoded."""
    done: npt.NDArray[np.bool_] = states[:, 0] == CHECKERS
    if variant is Variant.CATCHGAMMON:
        theirs = (states[:, 1] > TRAPPING) & (states[:, 1] < TRAPPED)  # theirs under mine on their start
        mine = states[:, 24] > TRAPPED  # mine under theirs on my start
        done |= (theirs | mine) if rules.mother_checker else (theirs & mine)
    return done


def estimate_after(net: Network, plays: Sequence[Play], states: U8) -> tuple[F32, F32]:
    """Estimates (N, 5) for the mover after each play, and the network's input rows of the positions
    the opponent then rolls in (for training)."""
    rules = plays[0].after_moves.rules if plays else RuleOptions()
    return estimate_after_states(net, states, rules, lambda row: plays[row].after_moves)


def estimate_after_states(net: Network, states: U8, rules: RuleOptions,
                          position_of: Callable[[int], Position]) -> tuple[F32, F32]:
    """`estimate_after` for resulting states (the mover's side), played under `rules`;
    `position_of(row)` gives the position of a row that may end the game, the mover as its turn
    (the others are never built)."""
    x = features(net.variant, flip(net.variant, states))
    probs = mirror(consistent(net.forward(x)[1]))
    return _settle_finished(net.variant, probs, states, rules, position_of), x


def lookahead_estimates(net: Network, states: U8, rules: RuleOptions, position_of: Callable[[int], Position]) -> F32:
    """`estimate_after_states`'s estimates alone, read `CHUNK` rows at a time: for a look-ahead's
    batches, whose inputs are never learnt from."""
    probs = mirror(network_estimates(net, flip(net.variant, states)))
    return _settle_finished(net.variant, probs, states, rules, position_of)


def network_estimates(net: Network, rows: U8) -> F32:
    """The network's estimates (N, 5), made consistent, for the side on roll in each state row,
    `CHUNK` rows a pass."""
    if not len(rows):
        return np.empty((0, 5), dtype=np.float32)
    return np.concatenate([consistent(net.forward(features(net.variant, rows[first:first + CHUNK]))[1])
                           for first in range(0, len(rows), CHUNK)])


def _settle_finished(variant: Variant, probs: F32, states: U8, rules: RuleOptions,
                     position_of: Callable[[int], Position]) -> F32:
    """`probs` with each row whose play ended the game set to the game's result."""
    for row in np.flatnonzero(may_be_over(variant, states, rules)):
        final = final_estimate(position_of(int(row)))
        if final is not None:
            probs[row] = final
    return probs


def one_ply(net: Network, play: Play, equity_of: EquityOf) -> F32:
    """The mover's estimates after `play`, averaged over the opponent's rolls and best replies
    (each judged at 0-ply by the opponent's own equity). The replies are the move generator's
    states (no `Play` objects), and all replies of all 21 rolls, with the position the mover rolls
    in when the opponent cannot move, go through the network in one batch."""
    final = final_estimate(play.after_moves)
    if final is not None:
        return final
    variant, after = net.variant, play.next_position
    start = encode(after)
    replies: list[bytes] = []
    bounds: list[tuple[int, int]] = []  # each roll's slice of `replies`; (n, n) when it cannot be played
    for dice in ROLLS:
        found, _ = state_plays(start, variant, dice, after.rules)
        bounds.append((len(replies), len(replies) + len(found)))
        replies.extend(found)
    states = states_array(replies)
    # The replies read from the mover's side (the mover then on roll), and the play's own position.
    rows = np.concatenate([flip(variant, states), states_array([encode(play.after_moves)])])
    estimates = network_estimates(net, rows)
    stuck = estimates[-1]  # the opponent cannot move: the mover rolls again in the play's position
    theirs = mirror(estimates[:-1])
    for row in np.flatnonzero(may_be_over(variant, states, after.rules)):
        final = final_estimate(decode(replies[int(row)], after))
        if final is not None:
            theirs[row] = final
    value = equity_of(theirs, after.turn) if replies else np.empty(0, dtype=np.float32)
    out = np.empty((len(ROLLS), 5), dtype=np.float32)
    for index, (first, end) in enumerate(bounds):
        if first == end:
            out[index] = stuck
        else:
            best = first + int(np.argmax(value[first:end]))
            out[index] = mirror(theirs[best:best + 1])[0]
    return (ROLL_WEIGHTS @ out).astype(np.float32)


def two_ply(net: Network, play: Play, equity_of: EquityOf) -> F32:
    """The mover's estimates after `play` two plies ahead: for each of the opponent's 21 rolls its
    best reply at 0-ply (by its own equity), and the position after it judged at 1-ply (the mean
    over the mover's 21 rolls of the estimate after the mover's best 0-ply answer), as GNU
    Backgammon's 2-ply. A side that cannot move passes (its reply: the same checkers). All replies
    go through the network in one batch, then all answers in another."""
    final = final_estimate(play.after_moves)
    if final is not None:
        return final
    variant, after, mine = net.variant, play.next_position, play.after_moves
    replies, reply_bounds = _best_candidates(encode(after), variant, after)
    their_probs = lookahead_estimates(net, states_array(replies), after.rules, lambda row: decode(replies[row], after))
    chosen = best_rows(equity_of(their_probs, after.turn), reply_bounds)
    may_end = may_be_over(variant, states_array(replies), after.rules)
    out = np.empty((len(ROLLS), 5), dtype=np.float32)
    answers: list[State] = []
    answer_bounds: list[tuple[int, int]] = []
    open_rolls: list[int] = []
    for index, row in enumerate(chosen):
        if may_end[row] and final_estimate(decode(replies[row], after)) is not None:
            out[index] = mirror(their_probs[row:row + 1])[0]  # the opponent's reply ended the game
            continue
        found, bounds = _best_candidates(opponent_view(replies[row], variant), variant, mine)
        answer_bounds.extend((first + len(answers), end + len(answers)) for first, end in bounds)
        answers.extend(found)
        open_rolls.append(index)
    if answers:
        probs = lookahead_estimates(net, states_array(answers), mine.rules, lambda row: decode(answers[row], mine))
        best = np.array(best_rows(equity_of(probs, mine.turn), answer_bounds)).reshape(len(open_rolls), len(ROLLS))
        out[open_rolls] = np.einsum("r,grk->gk", ROLL_WEIGHTS, probs[best])
    return (ROLL_WEIGHTS @ out).astype(np.float32)


def _best_candidates(start: State, variant: Variant, position: Position) -> tuple[list[State], list[tuple[int, int]]]:
    """The resulting states of every play of each of the 21 rolls from `start` (the side on roll's
    state; `position` gives the rules), the state itself for a roll that cannot be played, and each
    roll's slice of them."""
    states: list[State] = []
    bounds: list[tuple[int, int]] = []
    for dice in ROLLS:
        found = state_plays(start, variant, dice, position.rules)[0] or (start,)
        bounds.append((len(states), len(states) + len(found)))
        states.extend(found)
    return states, bounds


def best_rows(equity: F32, bounds: Sequence[tuple[int, int]]) -> list[int]:
    """The row of the best equity within each slice (first, end) of `equity`."""
    return [first + int(np.argmax(equity[first:end])) for first, end in bounds]
