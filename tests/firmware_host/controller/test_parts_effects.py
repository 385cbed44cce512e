"""The controller's parts on their own, with no controller: each hands back what should happen
(firmware_host/controller/effects.py), read from what is played; acting on it is the controller's."""

from __future__ import annotations

from chouette_builders import box_on_roll, seated

from drivers.events import ButtonKind
from firmware_host.controller.board_checks import BoardChecks
from firmware_host.controller.cube.chouette import ChouetteDialogue
from firmware_host.controller.effects import Act, Advance, Effects, Flash, Note, Publish, RaiseFlag, Refuse, Write
from firmware_host.controller.play_flow import PlayFlow
from firmware_host.controller.prompts import Waiting
from firmware_host.controller.resign_takeback import Resignation, Takeback
from firmware_host.controller.sensed_board import SensedBoard
from game.board import Color, Variant
from game.chouette import ChouetteSession, Phase
from game.codes import Code, FlagKind
from game.match import Match
from game.match import Phase as MatchPhase
from game.zones import Capability, layout, sensed_view, view_of

W, B = Color.WHITE, Color.BLACK


def press(dialogue: ChouetteDialogue, waiting: Waiting, button: ButtonKind, player: Color) -> Effects:
    return dialogue.buttons()[waiting][button](player)


def acted(effects: Effects) -> Effects:
    """Run the one action among `effects` as the controller would, and what follows from it."""
    [act] = [e for e in effects if isinstance(e, Act)]
    act.action()
    return list(act.then()) if act.then is not None else []


def box_doubles_only_bob(session: ChouetteSession) -> ChouetteDialogue:
    """The box (Ann) turns the captain Bob's cube and lets Cy's and Dee's be: Bob is asked to answer."""
    dialogue = ChouetteDialogue(session)
    [asked] = dialogue.prompt() or []
    assert isinstance(asked, Publish) and (asked.waiting, asked.player, asked.code) == (Waiting.ROLL_OR_DOUBLE, B, "B1")
    acted(press(dialogue, Waiting.ROLL_OR_DOUBLE, ButtonKind.DOUBLE, B))
    for member in ("Cy", "Dee"):
        dialogue.prompt()
        assert press(dialogue, Waiting.TURN_CUBE, ButtonKind.PASS, B) == [
            Note(f"{member}'s cube is let be this turn"), Advance()]
    return dialogue


def test_a_chouette_members_take_is_handed_back_as_its_record_and_the_action_on_the_session() -> None:
    session = seated("Ann", "Bob", "Cy", "Dee")
    box_on_roll(session)
    dialogue = box_doubles_only_bob(session)
    assert dialogue.prompt() == [Publish(Waiting.CUBE_RESPONSE, player=W, position=session.position, code="P1",
                                         message="Bob (P1): the box doubles to 2: take or pass", asked="Bob",
                                         member="Bob", answers=frozenset({"take", "pass"}))]
    effects = press(dialogue, Waiting.CUBE_RESPONSE, ButtonKind.TAKE, W)
    assert effects[0] == Write({"type": "decision", "source": "button", "player": "Bob", "member": "Bob",
                                "kind": "answer", "answer": "take", "game": 1, "move": 1})
    assert session.cube("Bob").value == 1  # nothing is done until the action is run
    assert acted(effects) == []  # the captain stays: nothing to flash
    assert (session.cube("Bob").value, session.cube("Bob").owner, session.phase) == (2, W, Phase.ROLL)


def test_a_chouette_captain_who_passes_hands_back_the_new_captains_code_once_the_pass_is_done() -> None:
    session = seated("Ann", "Bob", "Cy", "Dee")
    box_on_roll(session)
    dialogue = box_doubles_only_bob(session)
    dialogue.prompt()
    effects = press(dialogue, Waiting.CUBE_RESPONSE, ButtonKind.PASS, W)
    assert session.captain == "Bob"
    assert acted(effects) == [Flash("P2")]  # Cy, second in this game's team, moves the checkers now
    assert session.captain == "Cy"


def test_a_press_the_house_rules_do_not_allow_is_handed_back_refused_and_changes_nothing() -> None:
    session = seated("Ann", "Bob", "Cy", "Dee")
    box_on_roll(session)
    dialogue = box_doubles_only_bob(session)
    dialogue.prompt()
    events = len(session.events)
    assert press(dialogue, Waiting.CUBE_RESPONSE, ButtonKind.DOUBLE, W) == [
        Refuse(W, ButtonKind.DOUBLE, "the house rules allow pass, take now, not beaver")]
    assert len(session.events) == events and session.phase is Phase.DOUBLED


def test_a_resignation_is_chosen_kind_by_kind_then_offered_on_the_match() -> None:
    match = Match(Variant.BACKGAMMON, 3)
    match.opening_roll(3, 1)
    match.play(match.legal_plays()[0])
    resignation = Resignation(match)
    assert resignation.choose(B) == [Publish(Waiting.RESIGN_KIND, player=B, position=match.position, code="R1",
                                             message="black resigns a single game?")]
    [gammon] = resignation.more(B)
    assert isinstance(gammon, Publish) and (gammon.code, gammon.message) == ("R2", "black resigns a gammon?")
    effects = resignation.offer(B)
    assert match.resignation is None  # nothing is done until the action is run
    assert acted(effects) == []
    assert match.phase is MatchPhase.RESIGNED and match.resignation == (B, 2)


def test_a_double_press_with_no_look_alike_plays_is_refused_by_the_play() -> None:
    match = Match(Variant.BACKGAMMON, 3)
    plays = PlayFlow(match, SensedBoard(0.3), Takeback(match), traditional=False)
    assert plays.next_choice(W) == [Refuse(W, ButtonKind.DOUBLE, "there are no look-alike plays to choose from")]


def test_both_players_agreeing_hand_back_the_takeback_of_the_last_play() -> None:
    match = Match(Variant.BACKGAMMON, 3)
    match.opening_roll(3, 1)
    before = match.position
    match.play(match.legal_plays()[0])
    takeback = Takeback(match)
    takeback.played(before)
    asked = takeback.ask()
    assert asked == [Publish(Waiting.TAKEBACK, player=W, position=before, code="TB",
                             message="white takes back the last play: both press take to agree"),
                     Write({"type": "takeback_request", "player": "white", "game": 1})]
    assert takeback.agree(W) == []
    effects = takeback.agree(B)
    assert acted(effects) == [] and match.position == before and takeback.before is None


def test_a_checker_moved_between_turns_is_flagged_and_a_board_set_back_asks_for_a_takeback() -> None:
    match = Match(Variant.BACKGAMMON, 3)
    match.opening_roll(3, 1)
    before = match.position
    match.play(match.legal_plays()[0])
    board, takeback = SensedBoard(0.3), Takeback(match)
    takeback.played(before)
    checks = BoardChecks(match, board, takeback)
    moved = list(layout(match.position))
    source = next(zone for zone, stack in enumerate(moved, 1) if stack.startswith("b"))
    target = next(zone for zone, stack in enumerate(moved, 1) if not stack)
    moved[source - 1], moved[target - 1] = moved[source - 1][1:], "b"
    board.snapshot(Capability.STACKS, view_of(tuple(moved), Capability.STACKS), 0.0)
    flag, prompt = checks.still(view_of(tuple(moved), Capability.STACKS))
    assert isinstance(flag, RaiseFlag) and (flag.kind, flag.player, flag.code, flag.expected) == (
        FlagKind.SET_BOARD, B, Code.SET_CHECKERS, match.position)
    assert isinstance(prompt, Publish) and (prompt.waiting, prompt.zones) == (Waiting.SET_BOARD,
                                                                              frozenset({source, target}))
    assert checks.still(sensed_view(match.position, Capability.STACKS)) == []  # as it should be: nothing
    assert checks.still(sensed_view(before, Capability.STACKS)) == takeback.ask()
