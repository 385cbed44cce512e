"""The bot's parts against outside references: the encoding's flip against the move generator, the
computed match equity table against GNU Backgammon's, the money cube against the textbook points."""

from __future__ import annotations

import gnubg
import numpy as np
import numpy.typing as npt
import pytest

from game.board import Color, Variant
from game.bot.base import Level
from game.bot.context import MatchContext
from game.bot.encoding import features, flip, input_size, states_array
from game.bot.equity import cube_decision, equities
from game.bot.met import MatchEquityTable
from game.bot.network import Network, mirror
from game.bot.search import final_estimate, may_be_over
from game.cube import Cube
from game.errors import WeightsError
from game.movegen import encode
from game.position import Position
from game.rules import RuleOptions
from game.selfplay import random_positions


@pytest.mark.parametrize("variant", list(Variant))
def test_the_flipped_state_is_the_opponents_state(variant: Variant) -> None:
    for position, dice in random_positions(variant, 150, 3):
        plays = position.legal_plays(dice)
        if not plays:
            continue
        after = states_array([encode(p.after_moves) for p in plays])
        theirs = states_array([encode(p.next_position) for p in plays])
        assert np.array_equal(flip(variant, after), theirs)
        assert features(variant, after).shape == (len(plays), input_size(variant))


def test_estimates_mirror_between_the_sides() -> None:
    probs = np.array([[0.6, 0.2, 0.05, 0.1, 0.01]], dtype=np.float32)
    assert np.allclose(mirror(mirror(probs)), probs)
    # the equity of one side is minus the other's, money and match alike
    for context in (MatchContext(), MatchContext(7, (3, 5), Cube(2, Color.WHITE))):
        met = MatchEquityTable.computed(Variant.RUNGAMMON)
        mine = equities(probs, context, Color.WHITE, met)[0]
        theirs = equities(mirror(probs), context, Color.BLACK, met)[0]
        if context.money:
            assert mine == pytest.approx(-theirs, abs=1e-6)
        else:
            white_mwc = met.mwc(4, 2, False)
            assert 0.0 < white_mwc < 1.0 and np.isfinite(theirs)


def test_the_computed_match_equity_table_is_close_to_gnubgs() -> None:
    """GNU Backgammon's default table is Kazaross-XG2, made from rollouts; ours is the cubeless
    recursion, so it may differ by a few percent, never by much, and it keeps the same shape."""
    ours = MatchEquityTable.computed(Variant.BACKGAMMON)
    theirs = MatchEquityTable.from_gnubg()
    for a in range(1, 12):
        for b in range(1, 12):
            assert ours.mwc(a, b, False) == pytest.approx(1 - ours.mwc(b, a, False), abs=1e-9)
            assert ours.mwc(a, b, False) == pytest.approx(theirs.mwc(a, b, False), abs=0.07), (a, b)
        assert ours.mwc(a, 1, True) == pytest.approx(theirs.mwc(a, 1, True), abs=0.07), a
    assert gnubg.met(3)[0][0][0] == theirs.mwc(1, 1, False) == 0.5


def test_money_cube_points_are_the_textbook_ones() -> None:
    """No gammons, fully live cube (Janowski x = 1 would give 20% and 80%); with x = 0.68 the
    take point lies between the dead cube's 25% and the live cube's 20%."""
    met = MatchEquityTable.computed(Variant.BACKGAMMON)

    def decide(p: float) -> tuple[bool, bool]:
        d = cube_decision(np.array([p, 0.0, 0.0, 0.0, 0.0], np.float32), MatchContext(), Color.WHITE, met)
        return d.double, d.take

    assert decide(0.5) == (False, True)
    assert decide(0.70) == (True, True)
    assert decide(0.95) == (True, False)
    take_point = next(1 - p / 1000 for p in range(500, 1001) if not decide(p / 1000)[1])
    assert 0.20 < take_point < 0.25, take_point


def test_match_play_keeps_a_live_cube_rather_than_redouble_into_a_match_decider() -> None:
    """Owning a 2-cube at 0-0 in a 3-point match with 55% (GNU Backgammon's opening-like estimate):
    a redouble makes the game decide the match and gives up the cube, so no redouble (a dead-cube
    model alone redoubled here, and bot matches ended 0-4 after one game)."""
    met = MatchEquityTable.from_gnubg()
    estimate = np.array([0.55, 0.154, 0.008, 0.130, 0.008], np.float32)
    owned = MatchContext(3, (0, 0), Cube(2, Color.WHITE))
    assert not cube_decision(estimate, owned, Color.WHITE, met).double
    centred = MatchContext(7, (0, 0), Cube())
    assert not cube_decision(estimate, centred, Color.WHITE, met).double


def test_match_play_doubles_a_strong_position_and_the_taker_passes_a_hopeless_one() -> None:
    met = MatchEquityTable.from_gnubg()
    context = MatchContext(7, (0, 0), Cube())

    def decide(p: float) -> tuple[bool, bool]:
        d = cube_decision(np.array([p, 0.0, 0.0, 0.0, 0.0], np.float32), context, Color.WHITE, met)
        return d.double, d.take

    assert decide(0.5) == (False, True)
    assert decide(0.72) == (True, True)
    assert decide(0.85) == (True, False)


def test_no_double_in_the_crawford_game() -> None:
    met = MatchEquityTable.from_gnubg()
    context = MatchContext(5, (4, 1), Cube(), crawford=True)
    decision = cube_decision(np.array([0.9, 0.3, 0.0, 0.0, 0.0], np.float32), context, Color.BLACK, met)
    assert not decision.double


def test_weights_of_another_encoding_are_refused(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    network = Network.untrained(Variant.RUNGAMMON, 4)
    network.w1 = network.w1[:, :-1]
    network.save(tmp_path / "w.npz")
    with pytest.raises(WeightsError, match="inputs"):
        Network.load(tmp_path / "w.npz")
    (tmp_path / "x.npz").write_text("not weights")
    with pytest.raises(WeightsError):
        Network.load(tmp_path / "x.npz")


@pytest.mark.slow
@pytest.mark.parametrize("variant", [Variant.CATCHGAMMON, Variant.RUNGAMMON])
def test_one_ply_on_states_is_the_average_over_rolls_of_the_best_reply(variant: Variant) -> None:
    """The look-ahead on the move generator's states gives what the plain reading of it gives: for
    each of the 21 rolls the opponent's best reply (by its own equity), judged from the mover's side,
    weighted by the roll's chance; the mover's own position when the opponent cannot move."""
    from game.bot.context import MONEY
    from game.bot.network_bot import NetworkBot
    from game.bot.search import ROLLS, one_ply

    bot = NetworkBot.shipped(variant, Level.EXPERT)
    net = bot.network
    checked = 0
    for position, dice in random_positions(variant, 10, 8):
        for play in list(position.legal_plays(dice))[:2]:
            if final_estimate(play.after_moves) is not None:
                continue
            expected = np.zeros(5)
            for roll in ROLLS:
                replies = play.next_position.legal_plays(roll)
                if not replies:
                    reading = net.evaluate(states_array([encode(play.after_moves)]))[0]
                else:
                    theirs = np.stack([_reply_estimate(net, r.after_moves) for r in replies])
                    best = int(np.argmax(bot.equity_of(theirs, MONEY, play.next_position.turn)))
                    reading = mirror(theirs[best:best + 1])[0]
                expected += (1 if roll[0] == roll[1] else 2) / 36 * reading
            got = one_ply(net, play, lambda p, c: bot.equity_of(p, MONEY, c))
            assert np.allclose(got, expected, atol=1e-5), (position.to_json(), dice, play.notation())
            checked += 1
    assert checked > 8


@pytest.mark.slow
@pytest.mark.parametrize("variant", [Variant.CATCHGAMMON, Variant.RUNGAMMON, Variant.BACKGAMMON])
def test_two_ply_is_the_average_over_rolls_of_the_best_replys_one_ply_value(variant: Variant) -> None:
    """2-ply on states gives the plain reading of it: for each of the opponent's 21 rolls its best
    reply at 0-ply (by its own equity, `Position.legal_plays`), judged at 1-ply and read from the
    mover's side, weighted by the roll's chance."""
    from game.bot.context import MONEY
    from game.bot.network_bot import NetworkBot
    from game.bot.search import ROLLS, after_states, estimate_after, one_ply, two_ply

    bot = NetworkBot.shipped(variant, Level.EXPERT)
    net = bot.network

    def equity_of(probs: npt.NDArray[np.float32], color: Color) -> npt.NDArray[np.float32]:
        return bot.equity_of(probs, MONEY, color)

    checked = 0
    for position, dice in random_positions(variant, 16, 21):
        plays = position.legal_plays(dice)
        if not plays or final_estimate(plays[0].after_moves) is not None:
            continue
        play = plays[0]
        expected = np.zeros(5)
        for roll in ROLLS:
            replies = play.next_position.legal_plays(roll)
            if not replies:
                break  # the opponent passes: left to the state-level reading (not the plain one here)
            theirs, _ = estimate_after(net, replies, after_states(replies))
            best = replies[int(np.argmax(equity_of(theirs, play.next_position.turn)))]
            expected += (1 if roll[0] == roll[1] else 2) / 36 * mirror(one_ply(net, best, equity_of)[None, :])[0]
        else:
            got = two_ply(net, play, equity_of)
            assert np.allclose(got, expected, atol=1e-5), (position.to_json(), dice, play.notation())
            checked += 1
    assert checked >= 4



def test_a_look_ahead_reads_a_chunk_of_rows_a_pass_and_judges_as_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two-ply batches run to tens of thousands of rows (their memory is the controller's), so
    the network reads them `CHUNK` rows at a time; the estimates are those of one pass."""
    from game.bot import search
    from game.bot.context import MONEY
    from game.bot.network_bot import NetworkBot

    bot = NetworkBot.shipped(Variant.CATCHGAMMON, Level.EXPERT)
    net = bot.network

    def equity_of(probs: npt.NDArray[np.float32], color: Color) -> npt.NDArray[np.float32]:
        return bot.equity_of(probs, MONEY, color)

    passes: list[int] = []
    forward = net.forward

    def counted(x: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        passes.append(len(x))
        return forward(x)

    monkeypatch.setattr(net, "forward", counted)
    position, dice = random_positions(Variant.CATCHGAMMON, 30, 21)[-1]
    play = position.legal_plays(dice)[0]
    monkeypatch.setattr(search, "CHUNK", 10**9)  # each batch in one pass
    whole = [search.one_ply(net, play, equity_of), search.two_ply(net, play, equity_of)]
    assert max(passes) > 500  # the batches are large enough to be cut
    passes.clear()
    monkeypatch.setattr(search, "CHUNK", 500)
    cut = [search.one_ply(net, play, equity_of), search.two_ply(net, play, equity_of)]
    assert max(passes) == 500
    for got, expected in zip(cut, whole, strict=True):
        assert np.allclose(got, expected, atol=1e-6), (position.to_json(), dice, play.notation())

def test_a_bot_looking_two_plies_ahead_ranks_its_best_plays_by_their_two_ply_estimates() -> None:
    from game.bot.context import MONEY
    from game.bot.network_bot import FILTER, NetworkBot
    from game.bot.search import two_ply

    variant = Variant.CATCHGAMMON
    bot, deeper = NetworkBot.shipped(variant, Level.EXPERT), NetworkBot.shipped(variant, Level.EXPERT)
    assert deeper.two_ply == 2  # Catchgammon's expert, the default level, looks at its best 2 so
    bot.two_ply = 0
    compared = 0
    for position, dice in random_positions(variant, 12, 4):
        ranked, ranked_deeper = bot.rank_plays(position, dice), deeper.rank_plays(position, dice)
        close = [r for r in ranked[:2] if r.equity >= ranked[0].equity - FILTER]
        if len(close) < 2:
            assert ranked_deeper == ranked  # one play near the best: nothing to look at further
            continue
        top = {r.play.notation() for r in close}
        assert {r.play.notation() for r in ranked_deeper[:2]} == top and ranked_deeper[2:] == ranked[2:]
        for entry in ranked_deeper[:2]:
            probs = two_ply(bot.network, entry.play, lambda p, c: bot.equity_of(p, MONEY, c))
            assert np.allclose(entry.probs, probs, atol=1e-6)
        assert ranked_deeper[0].equity >= ranked_deeper[1].equity
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize("mother_checker", [False, True])
def test_the_end_of_game_filter_flags_exactly_the_plays_that_end_the_game(mother_checker: bool) -> None:
    # The filter spares the search decoding every row; a trap on a starting point lasts for plies, so
    # flagging it when it ends nothing made a two-ply search decode 100,000 rows.
    rules = RuleOptions(mother_checker=mother_checker)
    flagged = ended = 0
    for position, dice in random_positions(Variant.CATCHGAMMON, 1500, 5):
        plays = position.with_rules(rules).legal_plays(dice)
        if not plays:
            continue
        rows = may_be_over(Variant.CATCHGAMMON, states_array([encode(p.after_moves) for p in plays]), rules)
        over = [final_estimate(p.after_moves) is not None for p in plays]
        assert rows.tolist() == over, (position, dice)
        flagged, ended = flagged + int(rows.sum()), ended + sum(over)
    assert ended > 0 and (flagged > 0)
    trap = Position.initial(Variant.CATCHGAMMON).with_rules(rules)
    one_side = states_array([encode(trap)]).copy()
    one_side[0, 1] = 32 + 1  # their last starting checker trapped under one of mine
    assert bool(may_be_over(Variant.CATCHGAMMON, one_side, rules)[0]) is mother_checker
    both = one_side.copy()
    both[0, 24] = 48 + 1  # and mine trapped on my own start: a Remi under either rule
    assert bool(may_be_over(Variant.CATCHGAMMON, both, rules)[0])


def _reply_estimate(net: Network, after: Position) -> npt.NDArray[np.float32]:
    final = final_estimate(after)
    return final if final is not None else net.evaluate_after(states_array([encode(after)]))[0]


# The textbook shot table: rolls of 36 that hit a blot d pips away on an open board.
_TEXTBOOK_SHOTS = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3,
                   15: 1, 16: 1, 18: 1, 20: 1, 24: 1}


def _one_blot_one_hitter(distance: int) -> npt.NDArray[np.uint8]:
    """A Catchgammon state: my blot on own point 1 + distance, an opposing checker on own point 1."""
    state = np.zeros((1, 28), dtype=np.uint8)
    state[0, 1] = 16 + 1  # theirs, free (THEIRS code + one checker)
    state[0, 1 + distance] = 1
    return state


@pytest.mark.parametrize("distance", range(1, 24))
def test_the_shots_at_a_blot_are_the_textbook_counts(distance: int) -> None:
    from game.bot.encoding import Board, _tactics
    shots = _tactics(Variant.CATCHGAMMON, Board(_one_blot_one_hitter(distance)))[0, 3]
    assert round(float(shots) * 36) == _TEXTBOOK_SHOTS.get(distance, 0)


def test_the_variant_inputs_count_mobility_walls_held_points_and_the_mother_checker() -> None:
    from game.bot.encoding import Board, _tactics
    state = np.zeros((1, 28), dtype=np.uint8)
    state[0, 1 + 5] = 1  # my blot on my 6-point
    state[0, 1 + 0] = 16 + 2  # two of theirs on my 1-point: they hold it
    state[0, 1 + 23] = 1  # my last checker on my starting point
    state[0, 1 + 18] = 16 + 1  # one of theirs 5 pips behind it
    state[0, 0] = 13
    mobility, walled, held, shots, mother = _tactics(Variant.CATCHGAMMON, Board(state))[0]
    # From 6: 5, 4, 3, 2 open, 1 held (4 of 6 dice; 6 would bear off). From 24: 23..19 and 18 open, but
    # 19 holds one of theirs, open to me in Catchgammon (a blot is landed on and trapped): 6.
    assert mobility * 30 == pytest.approx(10)
    assert walled == 0 and held == 0
    assert mother * 36 == pytest.approx(15)  # the blot on 24 is 5 pips from theirs on 19
    assert shots * 36 == pytest.approx(_shot_union(state))


def _shot_union(state: npt.NDArray[np.uint8]) -> int:
    """Rolls of 36 on which some opposing checker reaches some blot of mine: counted roll by roll."""
    mine = [i for i in range(24) if state[0, 1 + i] == 1]
    theirs = [i for i in range(24) if 16 < state[0, 1 + i] < 32]
    hits = 0
    for a in range(1, 7):
        for b in range(1, 7):
            reach = {a, 2 * a, 3 * a, 4 * a} if a == b else {a, b, a + b}
            hits += any(t - h in reach for t in mine for h in theirs)
    return hits


@pytest.mark.parametrize("width", [24, 25])
def test_the_shots_of_many_rows_at_once_are_their_rolls_counted_one_by_one(width: int) -> None:
    """`_shots` works on whole batches (bits of one integer a row); each row's share is the rolls of
    36 on which some hitter reaches some target, counted here roll by roll, row by row."""
    from game.bot.encoding import _shots
    rng = np.random.default_rng(width)
    targets, hitters = rng.random((400, width)) < 0.15, rng.random((400, width)) < 0.2
    shares = _shots(targets, hitters)
    for row in range(len(targets)):
        marks = np.flatnonzero(targets[row])
        starts = np.flatnonzero(hitters[row])
        rolls = 0
        for a in range(1, 7):
            for b in range(1, 7):
                reach = {a, 2 * a, 3 * a, 4 * a} if a == b else {a, b, a + b}
                rolls += any(t - h in reach for t in marks for h in starts)
        assert round(float(shares[row]) * 36) == rolls, row


@pytest.mark.parametrize("distance", range(1, 24))
def test_backgammon_counts_the_shots_at_a_blot_from_a_point_and_from_the_bar(distance: int) -> None:
    """A blot `distance` pips ahead of an opposing checker on a point, then of one on the bar (which
    enters on my 1-point with a 1: the bar stands one pip below it): the textbook table both times."""
    from game.bot.encoding import Board, _tactics
    on_a_point = _one_blot_one_hitter(distance)
    assert round(float(_tactics(Variant.BACKGAMMON, Board(on_a_point))[0, 3]) * 36) == _TEXTBOOK_SHOTS.get(distance, 0)
    from_the_bar = np.zeros((1, 28), dtype=np.uint8)
    from_the_bar[0, 26] = 1  # one of theirs on the bar
    from_the_bar[0, distance] = 1  # my blot on my point `distance`
    shots = _tactics(Variant.BACKGAMMON, Board(from_the_bar))[0, 3]
    assert round(float(shots) * 36) == _TEXTBOOK_SHOTS.get(distance, 0)


def test_weights_for_an_encoding_that_has_since_grown_are_widened_only_when_asked(tmp_path: object) -> None:
    """Backgammon's encoding gained inputs at its end: a network made before loads for training with
    the new inputs at no say (the same estimates), and is refused anywhere else."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    full = Network.untrained(Variant.BACKGAMMON, 8)
    old = Network(Variant.BACKGAMMON, full.w1[:, :-8].copy(), full.b1, full.w2, full.b2)
    old.save(tmp_path / "old.npz")
    with pytest.raises(WeightsError, match="inputs"):
        Network.load(tmp_path / "old.npz")
    widened = Network.load(tmp_path / "old.npz", widen=True)
    assert widened.record["inputs_widened"] == [input_size(Variant.BACKGAMMON) - 8, input_size(Variant.BACKGAMMON)]
    states = states_array([encode(p) for p, _ in random_positions(Variant.BACKGAMMON, 50, 4)])
    x = features(Variant.BACKGAMMON, states)
    assert np.allclose(widened.forward(x)[1], old.forward(x[:, :-8])[1], atol=1e-3)  # float16 weights on disk
    assert not np.allclose(x[:, -8:], 0)  # the new inputs are not all zero: they were ignored


def test_only_catchgammons_network_bots_look_two_plies_ahead_and_more_at_stronger_levels() -> None:
    from game.bot.network_bot import NetworkBot

    def candidates(variant: Variant, level: Level) -> int:
        return NetworkBot.shipped(variant, level).two_ply

    assert [candidates(Variant.CATCHGAMMON, level) for level in (Level.ADVANCED, Level.EXPERT, Level.WORLD_CLASS,
                                                                  Level.GRANDMASTER)] == [0, 2, 3, 4]
    assert {candidates(variant, level) for variant in (Variant.RUNGAMMON, Variant.BACKGAMMON) for level in Level
            if level is not Level.ROLLOUT} == {0}  # Rungammon measured no gain; Backgammon's bot is GNU's
