"""The Backgammon bot's cube decisions are GNU Backgammon's own: compared here with its program's
`hint`, given each position as an XGID (GNU Backgammon's own reader of it), in money play and at
match scores, for the doubler and for the player doubled."""

from __future__ import annotations

import random
import re
import subprocess

import pytest

from game.board import Color, Variant
from game.bot.base import Level
from game.bot.context import CubeAction, MatchContext
from game.bot.factory import make_bot
from game.bot.gnubg_bot import GnubgBot
from game.bot.gnubg_cli import parse_cube_hint
from game.cube import Cube
from game.errors import EngineError
from game.match import MatchOptions
from game.position import Position
from game.xgid import Xgid

GNUBG = "/usr/games/gnubg"
PROPER = re.compile(r"^Proper cube action: (.*?)(?: \(|$)")
EQUITY = re.compile(r"^\d\. (No double|No redouble|Double, take|Redouble, take|Double, pass|Redouble, pass|"
                    r"Double, beaver|Redouble, beaver)\s+([+-]\d\.\d+)")

pytestmark = [pytest.mark.gnubg, pytest.mark.subprocess]


def gnubg_hints(xgids: list[str], plies: int, jacoby: bool = False, beavers: bool = False) -> list[list[str]]:
    """GNU Backgammon's cube analysis of each XGID, from its program directly."""
    commands = ["set player 0 human", "set player 1 human", "new game",
                f"set evaluation cubedecision evaluation plies {plies}",
                f"set jacoby {'on' if jacoby else 'off'}", f"set beavers {3 if beavers else 0}"]
    for index, xgid in enumerate(xgids):
        commands += [f"set xgid {xgid}", "hint", f"help answer-{index}-ends"]
    done = subprocess.run([GNUBG, "-t", "-q"], input="\n".join(commands) + "\n", capture_output=True,
                          text=True, timeout=300)
    answers: list[list[str]] = []
    lines: list[str] = []
    for line in done.stdout.splitlines():
        if "answer-" in line and "-ends" in line:
            answers.append(lines)
            lines = []
        else:
            lines.append(line)
    assert len(answers) == len(xgids), done.stdout[-2000:]
    return answers


def positions(seed: int, count: int) -> list[Position]:
    """Backgammon positions met in random games (random plays), the player on roll before rolling."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial(Variant.BACKGAMMON, rng.choice(list(Color)))
        for _ in range(rng.randint(6, 40)):
            plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            if plays and plays[0].after_moves.result() is not None:
                break
            position = rng.choice(list(plays)).next_position if plays else position.with_turn(position.turn.opponent)
        if position.result() is None:
            found.append(position)
    return found


def checked(bot: GnubgBot, position: Position, context: MatchContext, lines: list[str]) -> str:
    proper = next(PROPER.match(line).group(1) for line in lines if PROPER.match(line))  # type: ignore[union-attr]
    equities = {m.group(1).split(",")[0].replace("Re", "").replace("No re", "No ").lower(): float(m.group(2))
                for m in map(EQUITY.match, lines) if m}
    decision = bot.cube_decision(position, context)
    assert decision.no_double == pytest.approx(equities["no double"], abs=5e-4)
    assert decision.double_pass == pytest.approx(1.0)
    doubles = proper.startswith(("Double", "Redouble"))
    assert decision.double is (doubles and context.may_double(position.turn)), proper
    assert decision.take is ("pass" not in proper.split(",")[-1]), proper
    return proper


@pytest.fixture(scope="module")
def bot() -> GnubgBot:
    made = make_bot(Variant.BACKGAMMON, Level.EXPERT)
    assert isinstance(made, GnubgBot) and made.own_cube
    return made


def test_money_cube_actions_equal_gnubgs_own(bot: GnubgBot) -> None:
    found = positions(1, 24)
    xgids = [str(Xgid(p)) for p in found]
    seen = set()
    for position, lines in zip(found, gnubg_hints(xgids, 0), strict=True):
        seen.add(checked(bot, position, MatchContext(), lines))
    assert len(seen) >= 3, seen  # random games give no doubles, doubles and passes


def test_match_cube_actions_with_the_cube_owned_equal_gnubgs_own(bot: GnubgBot) -> None:
    found = positions(2, 12)
    contexts = [MatchContext(7, (2, 4), Cube(2, position.turn)) for position in found]
    xgids = [str(Xgid(p, cube_value=2, cube_owner=p.turn, score=(2, 4), match_length=7)) for p in found]
    for position, context, lines in zip(found, contexts, gnubg_hints(xgids, 0), strict=True):
        checked(bot, position, context, lines)


def test_the_doubled_player_answers_as_gnubg_says(bot: GnubgBot) -> None:
    found = positions(3, 12)
    for position, lines in zip(found, gnubg_hints([str(Xgid(p)) for p in found], 0), strict=True):
        proper = next(PROPER.match(line).group(1) for line in lines if PROPER.match(line))  # type: ignore[union-attr]
        doubled = MatchContext(cube=Cube().double(position.turn))
        answer = bot.cube_action(position.with_turn(position.turn.opponent), doubled)
        assert answer is (CubeAction.PASS if proper.endswith("pass") else CubeAction.TAKE), proper


def test_beavers_in_money_play_are_gnubgs(bot: GnubgBot) -> None:
    position = Position.initial(Variant.BACKGAMMON, Color.WHITE)
    context = MatchContext(options=MatchOptions(beavers=True))
    lines = gnubg_hints([str(Xgid(position, beavers=True))], 0, beavers=True)[0]
    assert "beaver" in checked(bot, position, context, lines)  # the opening position: no double, beaver


def test_an_unreadable_hint_is_a_clear_error() -> None:
    with pytest.raises(EngineError, match="could not be read"):
        parse_cube_hint(["Cube analysis", "nothing else"])
    with pytest.raises(EngineError, match="refused the position"):
        parse_cube_hint(["Illegal position."])


def test_bear_off_cube_equities_from_the_database_equal_gnubgs_own() -> None:
    # In a bear-off, the project's bots judge by the one-sided database (equal to GNU Backgammon's)
    # and its cube model takes GNU Backgammon's cube efficiency there (0.6): the network bot (here the
    # Backgammon learner, whose network plays no part in a race) finds GNU Backgammon's 0-ply
    # cubeful equities and actions.
    from test_bot_bearoff import race

    from game.bot.network import Network
    from game.bot.network_bot import NetworkBot, shipped_weights

    bot = NetworkBot(Network.load(shipped_weights(Variant.BACKGAMMON)), Level.EXPERT)
    rng = random.Random(3)

    def home(checkers: int) -> tuple[int, ...]:
        board = [0] * 6
        for _ in range(checkers):
            board[rng.randrange(6)] += 1
        return tuple(board)

    found = [race(Variant.BACKGAMMON, home(rng.randint(7, 15)), home(rng.randint(7, 15))) for _ in range(30)]
    actions = set()
    for position, lines in zip(found, gnubg_hints([str(Xgid(p)) for p in found], 0), strict=True):
        equities = {m.group(1).lower(): float(m.group(2)) for m in map(EQUITY.match, lines) if m}
        decision = bot.cube_decision(position, MatchContext())
        assert decision.no_double == pytest.approx(equities["no double"], abs=1.5e-3)
        assert decision.double_take == pytest.approx(equities["double, take"], abs=1.5e-3)
        proper = next(PROPER.match(line).group(1) for line in lines if PROPER.match(line))  # type: ignore[union-attr]
        if abs(decision.double_take - decision.no_double) > 2e-3 and abs(decision.double_take - 1.0) > 2e-3:
            assert decision.double is proper.startswith("Double"), (proper, decision)
            assert decision.take is proper.endswith("take"), (proper, decision)
        actions.add(proper)
    assert len(actions) >= 3, actions


def test_a_double_on_a_dead_cube_is_still_answered(bot: GnubgBot) -> None:
    # 2-2 in a 3-point match: the doubler wins the match with the cube as it is, and GNU Backgammon's
    # program answers "You cannot double"; a table lets the double be made, and the analysis judges
    # the answer to it (the README's own match, seed 7, has one).
    position = Position("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:2:0:3:10")
    context = MatchContext(3, (2, 2), Cube(1, None))
    assert not context.may_double(Color.WHITE)
    decision = bot.cube_decision(position, context)
    assert not decision.double and decision.take  # nothing to gain by doubling; nothing to lose by taking
