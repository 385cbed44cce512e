"""Equity from outcome estimates, and cube and resignation decisions, for every engine.

An estimate is five numbers for the side on roll (GNU Backgammon's order): win, win a gammon or
more, win a triple, lose a gammon or more, lose a triple.

Equity is per unit of the cube now in play. In money play it is the cubeless equity (single 1,
gammon 2, triple 3; with the Jacoby rule a centred cube counts every win single). In match play
it is GNU Backgammon's normalised match equity: the match-winning chance (from the match
equity table) mapped linearly so that losing the cube's points is -1 and winning them +1.

Cube decisions (doubler on roll, before the roll):
- money: Janowski's model. The cubeful equity is x times the equity of a fully live cube (linear
  between the take and cash points) plus 1 - x times the dead-cube equity, with the cube
  efficiency x = 0.68 (GNU Backgammon's value for contact positions; 0.6, its value, in bear-offs
  the one-sided database judges); no double, double/take and
  double/pass are compared as usual;
- match: the same blend of a dead and a live cube, in normalised match equity: the dead cube is
  the match equity table at each outcome (no double at the cube's value, take at twice it, pass =
  the doubler wins the cube's points); the live cube is Janowski's piecewise-linear equity through
  the take and cash points read from the table (gammonless, with the taker's recube vig as the live
  cube counts it), each only where the player who would double could still gain by it. Never in
  the Crawford game. (A dead cube alone redoubled at 55% in a 3-point match at 0-0, giving up a
  live 2-cube for a match decider.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.board import Color
from game.bot.context import CubeAction, MatchContext
from game.bot.encoding import F32
from game.bot.met import MatchEquityTable
from game.position import ResultKind

CUBE_EFFICIENCY = 0.68
BEAROFF_EFFICIENCY = 0.6  # GNU Backgammon's for positions of its one-sided bear-off database (rOSCubeX)
SURE = 0.002  # below this an estimated chance counts as none (for resigning)


def distribution(probs: F32) -> F32:
    """(N, 5) estimates to the six exact outcomes: win 1, 2, 3, lose 1, 2, 3 (each row sums to 1)."""
    win, wg, wt, lg, lt = probs.T
    return np.stack([win - wg, wg - wt, wt, 1.0 - win - lg, lg - lt, lt], axis=1).astype(np.float32)


def outcome_values(context: MatchContext, me: Color, met: MatchEquityTable, cube: int | None = None) -> F32:
    """What each of the six outcomes is worth to `me`, in equity per unit of the cube now in play."""
    value = context.cube.value if cube is None else cube
    if context.length is None:
        jacoby = context.options.jacoby and context.cube.owner is None and value == context.cube.value
        single = np.array([1, 1, 1, -1, -1, -1] if jacoby else [1, 2, 3, -1, -2, -3], np.float32)
        return (single * np.float32(value / context.cube.value)).astype(np.float32)
    post = context.crawford or context.post_crawford
    a, b = context.away(me), context.away(me.opponent)
    mwcs = [met.mwc(a - k * value, b, post) for k in (1, 2, 3)] + [met.mwc(a, b - k * value, post) for k in (1, 2, 3)]
    return np.array([to_equity(m, context, me, met) for m in mwcs], np.float32)


def to_equity(mwc: float, context: MatchContext, me: Color, met: MatchEquityTable) -> float:
    """A match-winning chance as normalised equity at the cube now in play (GNU Backgammon's mwc2eq)."""
    post = context.crawford or context.post_crawford
    a, b, c = context.away(me), context.away(me.opponent), context.cube.value
    win, lose = met.mwc(a - c, b, post), met.mwc(a, b - c, post)
    return 2.0 * (mwc - lose) / (win - lose) - 1.0 if win > lose else 0.0


def equities(probs: F32, context: MatchContext, me: Color, met: MatchEquityTable) -> F32:
    """Equity of each estimate (N, 5) for `me`, in the units of `outcome_values`."""
    return distribution(probs) @ outcome_values(context, me, met)


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """The doubler's three equities (per unit of the cube now in play) and what follows from them."""

    no_double: float
    double_take: float
    double_pass: float
    double: bool  # the doubler should double
    take: bool  # the opponent should take (if doubled)
    beaver: bool  # the opponent should beaver (money play with beavers only)

    def action(self, answering: bool) -> CubeAction:
        """The action for the doubler (`answering` False) or for the player doubled."""
        if not answering:
            return CubeAction.DOUBLE if self.double else CubeAction.NO_DOUBLE
        if not self.take:
            return CubeAction.PASS
        return CubeAction.BEAVER if self.beaver else CubeAction.TAKE

    def describe(self) -> str:
        """GNU Backgammon's way of saying it: "No double 0.312, Double/take 0.287, Double/pass 1.000"."""
        verdict = ("Double, take" if self.take else "Double, pass") if self.double else (
            "Too good to double" if self.double_pass < self.no_double else "No double")
        return (f"{verdict} (no double {self.no_double:+.3f}, double/take {self.double_take:+.3f}, "
                f"double/pass {self.double_pass:+.3f})")


def cube_decision(probs: F32, context: MatchContext, doubler: Color, met: MatchEquityTable,
                  efficiency: float = CUBE_EFFICIENCY) -> CubeDecision:
    """The cube decision for `doubler`, on roll with estimates `probs` (5,) before rolling, at cube
    efficiency `efficiency` (the contact value unless told: `BEAROFF_EFFICIENCY` in bear-offs)."""
    if context.length is None:
        nd, dt = _janowski(probs, context, doubler, efficiency)
    else:
        nd, dt = _match_cubeful(probs, context, doubler, met, efficiency)
    dp = 1.0
    may = context.may_double(doubler)
    take = dt <= dp
    beaver = take and context.length is None and context.options.beavers and dt < 0.0
    return CubeDecision(nd, dt, dp, may and min(dt, dp) > nd, take, beaver)


def _janowski(probs: F32, context: MatchContext, doubler: Color, x: float) -> tuple[float, float]:
    """Money: cubeful equities of no double and double/take (per unit of the cube now in play)."""
    d = distribution(probs[None, :])[0]
    p = float(probs[0])

    def win_loss(jacoby: bool) -> tuple[float, float]:
        w = 1.0 if jacoby else float(d[0] + 2 * d[1] + 3 * d[2]) / max(p, 1e-9)
        loss = 1.0 if jacoby else float(d[3] + 2 * d[4] + 3 * d[5]) / max(1.0 - p, 1e-9)
        return max(w, 1.0), max(loss, 1.0)

    owner = context.cube.owner
    jacoby = context.options.jacoby and owner is None
    w, loss = win_loss(jacoby)
    state = "centred" if owner is None else "mine" if owner is doubler else "theirs"
    nd = x * _live(p, w, loss, state) + (1 - x) * (p * (w + loss) - loss)
    w2, loss2 = win_loss(False)
    dt = 2.0 * (x * _live(p, w2, loss2, "theirs") + (1 - x) * (p * (w2 + loss2) - loss2))
    return nd, dt


def _match_cubeful(probs: F32, context: MatchContext, doubler: Color, met: MatchEquityTable,
                   x: float) -> tuple[float, float]:
    """Match: no double and double/take for `doubler`, per unit of the cube now in play."""
    d = distribution(probs[None, :])[0]
    p = float(probs[0])
    me, them = doubler, doubler.opponent
    value = context.cube.value
    owner = context.cube.owner
    now, doubled, redoubled = (outcome_values(context, me, met, cube=value * k) for k in (1, 2, 4))

    def gains(color: Color, cube: int) -> bool:  # a double of `cube` could still matter to `color`
        return context.away(color) > cube

    def cash_points(values: F32, above: F32, cube: int) -> tuple[float, float]:
        """My take point and my cash point at the cube of `values`, the double going to `cube`
        (`above`): where the taker is indifferent, the taker's recube vig counted as Janowski's
        live cube counts it (a quarter of the doubled cube's single swing: 20% for money, not 25%)."""
        a, b = float(above[0]), float(above[3])
        vig = (a - b) / 4
        mine, theirs = (vig if gains(me, cube) else 0.0), (vig if gains(them, cube) else 0.0)
        return (float(values[3]) - b) / (a + mine - b), (float(values[0]) - b + theirs) / (a - b + theirs)

    take_now, cash_now = cash_points(now, doubled, 2 * value)
    anchors_nd = []
    if owner is not me and gains(them, value):
        anchors_nd.append((take_now, float(now[3])))
    if owner is not them and gains(me, value):
        anchors_nd.append((cash_now, float(now[0])))
    nd = x * _through(p, d, now, anchors_nd) + (1 - x) * float(d @ now)
    take_doubled, _ = cash_points(doubled, redoubled, 4 * value)
    anchors_dt = [(take_doubled, float(doubled[3]))] if gains(them, 2 * value) else []
    dt = x * _through(p, d, doubled, anchors_dt) + (1 - x) * float(d @ doubled)
    return nd, dt


def _through(p: float, d: F32, values: F32, anchors: list[tuple[float, float]]) -> float:
    """A live cube's equity at winning chance `p`: piecewise linear from the average loss at 0,
    through the (take or cash point, equity there) anchors, to the average win at 1."""
    win = float(d[:3] @ values[:3]) / max(p, 1e-9)
    lose = float(d[3:] @ values[3:]) / max(1.0 - p, 1e-9)
    points = [(0.0, lose)] + sorted(a for a in anchors if 0.0 < a[0] < 1.0) + [(1.0, win)]
    if any(later[0] <= earlier[0] for earlier, later in zip(points, points[1:], strict=False)):
        points = [points[0], points[-1]]  # points that cross say nothing: no live cube to draw
    xs, ys = zip(*points, strict=True)
    return float(np.interp(p, xs, ys))


def _live(p: float, w: float, loss: float, owner: str) -> float:
    """Janowski's fully live cube: equity piecewise linear through -L at 0, the take point (-1) and
    the cash point (+1) where they apply, and W at 1 (too good to cash: playing on for more)."""
    take_point = (loss - 0.5) / (w + loss + 0.5)
    cash_point = (loss + 1.0) / (w + loss + 0.5)
    low = -loss + (loss - 1.0) * p / take_point if p < take_point else None  # they would cash
    high = 1.0 + (w - 1.0) * (p - cash_point) / (1.0 - cash_point) if p > cash_point else None
    if owner == "mine":
        return high if high is not None else -loss + (loss + 1.0) * p / cash_point
    if owner == "theirs":
        return low if low is not None else -1.0 + (w + 1.0) * (p - take_point) / (1.0 - take_point)
    if low is not None:
        return low
    return high if high is not None else -1.0 + 2.0 * (p - take_point) / (cash_point - take_point)


def accept_resignation(probs: F32, context: MatchContext, me: Color, kind: ResultKind,
                       met: MatchEquityTable) -> bool:
    """Whether `me`, with estimates `probs` for `me`, should accept the opponent's resignation of `kind`."""
    values = outcome_values(context, me, met)
    offered = float(values[int(kind) - 1])
    playing_on = float(distribution(probs[None, :])[0] @ values)
    return offered >= playing_on - 1e-6


def resignation(probs: F32) -> ResultKind | None:
    """What `me`, with estimates `probs` for `me`, should resign now: None while the game is alive."""
    win, _, _, lose_gammon, lose_triple = (float(v) for v in probs)
    if win > SURE:
        return None
    if lose_gammon <= SURE:
        return ResultKind.SINGLE
    return ResultKind.GAMMON if lose_triple <= SURE else ResultKind.TRIPLE
