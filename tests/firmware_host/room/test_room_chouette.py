"""A chouette table in the room, on a real Mosquitto: its session in its retained state, and its
members' decisions from their phones going director -> broker -> table, applied only when they
answer the decision asked now, of that member (whichever of the button and the phone comes first)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from chouette_builders import box_doubles_bob_and_cy, journal, of_type, press
from room_fixtures import Runner, documented_acl_broker, publish, raw_client, serving, text, wait_until

from drivers.events import ButtonKind
from firmware_host.emulator.table import EmulatedTable
from firmware_host.room.auth import Sessions
from firmware_host.room.broker import BrokerConfig
from firmware_host.room.chouette_room import phone_code, table_key
from firmware_host.room.director import Director
from firmware_host.room.messages import Decision, seal
from firmware_host.room.mosquitto import Mosquitto
from firmware_host.room.table_link import TableLink
from firmware_host.room.topics import Topics
from firmware_host.room.web import create_app
from firmware_host.settings import ChouetteSettings, Settings
from firmware_host.terminal import render
from game.bot.levels import Level
from game.chouette import ChouetteSession
from game.chouette.validate import validate_chouette

pytestmark = pytest.mark.room

Room = Callable[..., Any]
CHOUETTE = Settings(timed=False, chouette=ChouetteSettings(("Ann", "Bob", "Cy", "Dee")))
WITH_A_BOT = Settings(timed=False, chouette=ChouetteSettings(("Ann", "Bob", "Cy", "Dee"), bots={"Cy": Level.EXPERT}))
"""Cy is a bot (game.bot, the `bot` extra): a member in the order the tests throw (Ann the box, Bob captain)."""


def link(table: EmulatedTable) -> TableLink:
    assert table.link is not None
    return table.link


def state_of(director: Director, table: str) -> dict[str, Any]:
    with director.lock:
        record = director.tables.get(table)
        return dict(record.state) if record is not None and record.state else {}


def asked_at(director: Director, table: str) -> dict[str, Any] | None:
    chouette = state_of(director, table).get("chouette") or {}
    asked = chouette.get("asked")
    return asked if isinstance(asked, dict) else None


def outcome(director: Director, table: str, decision_id: str) -> dict[str, Any] | None:
    with director.lock:
        found = [d for d in director.tables[table].decisions if d["id"] == decision_id and d["outcome"] is not None]
    return found[0] if found else None


def pace(table: EmulatedTable) -> Callable[[], None]:
    return lambda: table.wait(0.02)


@pytest.fixture
def chouette_room(shared_mosquitto: Mosquitto, room: Room) -> tuple[Director, EmulatedTable]:
    director = room("director", shared_mosquitto.url)
    table = room("table", shared_mosquitto.url, "t01", settings=CHOUETTE, players=False, line_noise=0.0,
                 flicker_rate=0.0, seed=1)
    table.wait(1.0)
    return director, table


def test_the_state_shows_every_members_cube_the_totals_and_whose_decision_is_asked(
        chouette_room: tuple[Director, EmulatedTable]) -> None:
    director, table = chouette_room
    box_doubles_bob_and_cy(table)
    wait_until(lambda: (asked_at(director, "t01") or {}).get("player") == "Bob", 10, "Bob's decision in t01's state",
               step=pace(table))
    state = state_of(director, "t01")
    chouette = state["chouette"]
    assert (chouette["box"], chouette["captain"], chouette["line"]) == ("Ann", "Bob", ["Bob", "Cy", "Dee"])
    assert [(m["code"], m["name"], m["cube"], m["offered"], m["out"]) for m in chouette["members"]] == [
        ("P1", "Bob", 1, True, False), ("P2", "Cy", 1, True, False), ("P3", "Dee", 1, False, False)]
    assert chouette["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0}
    assert chouette["asked"]["player"] == "Bob" and chouette["asked"]["answers"] == ["take", "pass"]
    assert state["players"] == {"white": "Bob", "black": "Ann"} and state["length"] == 0
    assert set(chouette["phones"]) == {"Ann", "Bob", "Cy", "Dee"}  # verifiers only: the codes stay at the table
    assert link(table).phones["Bob"] not in json.dumps(state)
    view = render(table.controller, table.clock.now(), 200, 60, notes=(link(table).phone_line(),))
    assert f"Bob {link(table).phones['Bob']}" in view and "director's page for table t01" in view


def test_a_members_take_from_the_phone_is_applied_and_journaled_and_the_button_after_it_is_not_hers(
        chouette_room: tuple[Director, EmulatedTable]) -> None:
    director, table = chouette_room
    box_doubles_bob_and_cy(table)
    wait_until(lambda: (asked_at(director, "t01") or {}).get("player") == "Bob", 10, "Bob's decision asked",
               step=pace(table))
    bobs = asked_at(director, "t01")
    assert bobs is not None
    assert director.member_may_decide("t01", "Bob", link(table).phones["Bob"].lower())
    assert not director.member_may_decide("t01", "Bob", link(table).phones["Cy"])  # Cy's code is not Bob's

    # Cy, with her own code, answers Bob's decision: refused by the table, counted, never applied
    wrong = director.decide("t01", "Cy", bobs["ask"], "pass")
    wait_until(lambda: outcome(director, "t01", wrong.id), 10, "the table's answer to Cy", step=pace(table))
    refused = outcome(director, "t01", wrong.id)
    assert refused is not None and refused["applied"] is False and refused["outcome"].startswith("wrong-member")
    assert link(table).decisions.refused["wrong-member"] == 1 and of_type(table, "pass", "decision") == []
    wait_until(lambda: state_of(director, "t01")["chouette"]["refused"] == {"wrong-member": 1}, 10,
               "the refusal counted in t01's state", step=pace(table))
    assert any("refused: wrong-member" in line for line in table.controller.log)

    # Bob takes from his phone
    take = director.decide("t01", "Bob", bobs["ask"], "take")
    wait_until(lambda: outcome(director, "t01", take.id), 10, "the table's answer to Bob", step=pace(table))
    applied = outcome(director, "t01", take.id)
    assert applied is not None and applied["applied"] is True
    [decision] = of_type(table, "decision")
    assert (decision["source"], decision["player"], decision["answer"], decision["id"]) == ("phone", "Bob", "take",
                                                                                             take.id)
    assert journal(table)[applied["seq"] - 1] == decision  # the line the table's answer names
    [taken] = of_type(table, "take")
    assert (taken["player"], taken["member"], taken["value"]) == ("Bob", "Bob", 2)
    assert (table.controller.prompt.code, table.controller.prompt.asked) == ("P2", "Cy")  # next: Cy's decision
    verdict = validate_chouette(str(table.journal.path), table.journal.path.read_bytes())
    assert verdict.problems == []


def test_a_phone_answer_after_the_button_answered_is_stale_ignored_and_counted(
        chouette_room: tuple[Director, EmulatedTable], shared_mosquitto: Mosquitto) -> None:
    director, table = chouette_room
    box_doubles_bob_and_cy(table)
    press(table, "white", ButtonKind.TAKE)  # Bob takes at the table
    wait_until(lambda: (asked_at(director, "t01") or {}).get("player") == "Cy", 10, "Cy's decision asked",
               step=pace(table))
    cys = asked_at(director, "t01")
    assert cys is not None
    press(table, "white", ButtonKind.PASS)  # Cy passes with the button first ...
    late = director.decide("t01", "Cy", cys["ask"], "take")  # ... then her phone's take arrives
    wait_until(lambda: outcome(director, "t01", late.id), 10, "the table's answer to the late take", step=pace(table))
    answer = outcome(director, "t01", late.id)
    assert answer is not None and answer["applied"] is False and answer["outcome"].startswith("stale")
    assert link(table).decisions.refused["stale"] == 1
    assert [(d["source"], d["player"], d["answer"]) for d in of_type(table, "decision")] == [
        ("button", "Bob", "take"), ("button", "Cy", "pass")]
    assert [(e["type"], e["member"]) for e in of_type(table, "take", "pass")] == [("take", "Bob"), ("pass", "Cy")]

    # the same decision delivered again (a resend) is answered as before, counted, not applied
    again = raw_client(shared_mosquitto.port, "resender")
    resent = seal(late.encode(), director.config.venue, "t01", director.key.sign_bytes)
    publish(again, Topics(director.config.venue).table("t01", "decision"), resent)
    wait_until(lambda: link(table).decisions.refused["duplicate"] == 1, 10, "the resend refused", step=pace(table))
    assert len(of_type(table, "take", "pass")) == 2 and outcome(director, "t01", late.id) == answer
    again.loop_stop()
    again.disconnect()


@contextmanager
def doubled_on_the_page(shared_mosquitto: Mosquitto, room: Room, browser: Any,
                        settings: Settings) -> Iterator[tuple[Director, EmulatedTable, dict[str, str], str, Runner,
                                                              Callable[[Callable[[Any], Any]], Any]]]:
    """A chouette table whose box has doubled Bob and Cy, its director's pages served at a URL and
    the table running meanwhile: (director, table, the phone codes, url, runner, the browser's `until`)."""
    from selenium.webdriver.support.ui import WebDriverWait

    director = room("director", shared_mosquitto.url)
    table = room("table", shared_mosquitto.url, "t01", settings=settings, players=False, line_noise=0.0,
                 flicker_rate=0.0, seed=1)
    table.wait(1.0)
    box_doubles_bob_and_cy(table)
    with serving(create_app(director, Sessions({}))) as url:
        runner = Runner([table])
        until = WebDriverWait(browser, 15, poll_frequency=0.05).until
        try:
            yield director, table, link(table).phones, url, runner, until
        finally:
            runner.stop()


def test_a_member_decides_from_the_table_page_in_a_real_browser(shared_mosquitto: Mosquitto, room: Room,
                                                                  browser: Any) -> None:
    from selenium.webdriver.common.by import By

    with doubled_on_the_page(shared_mosquitto, room, browser, CHOUETTE) as (director, table, codes, url, runner, until):
        # a spectator sees every member's cube, who is asked, and the running totals; no buttons to press
        browser.get(url + "/table/t01")
        until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .chouette tr.member"))
        until(lambda d: "P1: Bob to take or pass on Bob's cube" in text(d, "#board .turn"))
        members = browser.execute_script("return [...document.querySelectorAll('#board tr.member')]"
                                         ".map((r) => r.textContent)")
        assert members == ["P1Bob (captain)1 offered", "P2Cy1 offered", "P3Dee1"]
        assert "totals: Ann 0 · Bob 0 · Cy 0 · Dee 0" in text(browser, "#board .chouette .totals")
        assert not browser.find_elements(By.CSS_SELECTOR, "button.decide")
        assert browser.find_element(By.ID, "status").is_displayed()  # a spectator: the director's diagnostics
        assert browser.find_element(By.ID, "login").is_displayed()
        assert "captain Bob (White)" in text(browser, "#board") and "box Ann (Black)" in text(browser, "#board")
        post = """const [ask, player, code, done] = arguments;
            fetch('/api/table/t01/decision', {method: 'POST', headers: {'Content-Type': 'application/json'},
                  body: JSON.stringify({player, code, ask, answer: 'pass'})}).then((r) => done(r.status));"""
        ask = asked_at(director, "t01")
        assert ask is not None and ask["player"] == "Bob"
        assert browser.execute_async_script(post, ask["ask"], "Bob", "AAAAA-AAAAA") == 403  # a spectator's guess
        assert browser.execute_async_script(post, ask["ask"], "Bob", codes["Cy"]) == 403  # Cy's code as Bob's
        assert browser.execute_async_script(post, ask["ask"], "Cy", codes["Cy"]) == 200  # Cy, as herself ...
        wait_until(lambda: link(table).decisions.refused["wrong-member"] == 1, 10, "the table to refuse Cy")
        assert runner.do(lambda: of_type(table, "decision", "take", "pass")) == []  # ... is not Bob
        until(lambda d: "phone answers refused: wrong-member 1" in text(d, "#board .chouette"))

        # Bob opens the link with his code: his decision's buttons; he takes
        browser.get(url + f"/table/t01#player=Bob&code={codes['Bob']}")
        until(lambda d: d.find_elements(By.ID, "decide-take"))
        assert "code=" not in browser.current_url  # the code is kept in the phone, not in the address
        # a member's phone shows the decision and the match, not the director's status, the referee's
        # login, rulings or a command-line hint
        assert all(browser.find_element(By.ID, name).is_displayed() for name in ("phone", "board"))
        hidden = ["#status", "#login", "#rulings", "#rulings-heading", "#penalty", "#notation .referee-only"]
        shown = browser.execute_script("return arguments[0].filter((s) => document.querySelector(s) && "
                                       "document.querySelector(s).offsetParent !== null)", hidden)
        assert shown == [], shown
        assert "python -m" not in browser.find_element(By.TAG_NAME, "body").text
        browser.find_element(By.ID, "decide-take").click()
        wait_until(lambda: runner.do(lambda: of_type(table, "take")), 10, "Bob's take in the journal")
        [decision] = runner.do(lambda: of_type(table, "decision"))
        assert (decision["source"], decision["player"], decision["answer"]) == ("phone", "Bob", "take")
        until(lambda d: d.find_elements(By.CSS_SELECTOR, "#phone-answers li.applied"))
        assert "applied: Bob take (P1)" in text(browser, "#phone-answers")
        until(lambda d: "waiting for P2 Cy" in text(d, "#phone-ask"))  # Cy's decision is not Bob's to make
        assert not browser.find_elements(By.CSS_SELECTOR, "button.decide")


def cys_would_be_code(table: EmulatedTable) -> str:
    """The code the table would give Cy were Cy a person (the same secret, match and name)."""
    return phone_code(table_key(table.journal.directory), link(table).match, "Cy")


def test_a_bot_at_the_chouette_gets_no_phone_code_and_the_state_names_it_a_bot(shared_mosquitto: Mosquitto,
                                                                                room: Room) -> None:
    director = room("director", shared_mosquitto.url)
    table = room("table", shared_mosquitto.url, "t01", settings=WITH_A_BOT, players=False, line_noise=0.0,
                 flicker_rate=0.0, seed=1)
    table.wait(1.0)
    box_doubles_bob_and_cy(table)
    wait_until(lambda: (asked_at(director, "t01") or {}).get("player") == "Bob", 10, "Bob's decision in t01's state",
               step=pace(table))
    chouette = state_of(director, "t01")["chouette"]
    assert chouette["bots"] == {"Cy": "expert"}
    assert set(chouette["phones"]) == set(link(table).phones) == {"Ann", "Bob", "Dee"}  # the people's only
    assert not director.member_may_decide("t01", "Cy", cys_would_be_code(table))  # no code decides for a bot
    line = link(table).phone_line()
    assert line.endswith("; Cy (bot, expert) decides at the table, with no code") and "Cy " not in line.split(";")[0]
    view = render(table.controller, table.clock.now(), 200, 60, notes=(line,))
    assert f"Bob {link(table).phones['Bob']}" in view and cys_would_be_code(table) not in view

    # Bob takes from his phone; Cy's cube, the next asked, the bot answers at once at the table
    bobs = asked_at(director, "t01")
    assert bobs is not None
    take = director.decide("t01", "Bob", bobs["ask"], "take")
    wait_until(lambda: outcome(director, "t01", take.id), 10, "the table's answer to Bob", step=pace(table))
    assert (outcome(director, "t01", take.id) or {}).get("applied") is True
    assert [(d["source"], d["player"]) for d in of_type(table, "decision")] == [("phone", "Bob"), ("bot", "Cy")]
    wait_until(lambda: (state_of(director, "t01")["chouette"]["asked"] or {}).get("player") != "Bob", 10,
               "the state past Bob's decision", step=pace(table))
    assert link(table).decisions.refused == {} and director.rejected == {}
    verdict = validate_chouette(str(table.journal.path), table.journal.path.read_bytes())
    assert verdict.problems == []


def test_the_table_page_and_a_members_phone_show_the_bot_as_a_bot_in_a_real_browser(shared_mosquitto: Mosquitto,
                                                                                     room: Room, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    with doubled_on_the_page(shared_mosquitto, room, browser, WITH_A_BOT) as (director, table, codes, url, runner,
                                                                               until):
        browser.get(url + "/table/t01")  # the director's page (a spectator)
        until(lambda d: "P1: Bob to take or pass on Bob's cube" in text(d, "#board .turn"))
        members = browser.execute_script("return [...document.querySelectorAll('#board tr.member')]"
                                         ".map((r) => [r.textContent, r.classList.contains('bot')])")
        assert members == [["P1Bob (captain)1 offered", False], ["P2Cy (bot, expert)1 offered", True],
                           ["P3Dee1", False]]
        assert "line Bob, Cy (bot, expert), Dee" in text(browser, "#board .chouette")
        # a member's phone: Cy is not among the names to pick, and the page says why
        browser.get(url + f"/table/t01#player=Bob&code={codes['Bob']}")
        until(lambda d: d.find_elements(By.ID, "decide-take"))
        names = browser.execute_script("return [...document.querySelectorAll('#phone-player option')]"
                                       ".map((o) => o.value)")
        assert names == ["", "Ann", "Bob", "Dee"]
        assert text(browser, "#phone-bots") == "Cy (bot, expert) decides at the table, with no code"
        assert "Cy (bot, expert)" in text(browser, "#board .chouette")
        post = """const [ask, code, done] = arguments;
            fetch('/api/table/t01/decision', {method: 'POST', headers: {'Content-Type': 'application/json'},
                  body: JSON.stringify({player: 'Cy', code, ask, answer: 'take'})})
              .then(async (r) => done([r.status, (await r.json()).error]));"""
        ask = asked_at(director, "t01")
        assert ask is not None
        assert browser.execute_async_script(post, ask["ask"], cys_would_be_code(table)) == [
            403, "Cy is a bot (expert) at table t01: it decides at the table, and no phone decides for it"]
        browser.find_element(By.ID, "decide-take").click()  # Bob takes; Cy, the bot, answers its own at once
        wait_until(lambda: len(runner.do(lambda: of_type(table, "decision"))) == 2, 10, "Bob's and Cy's")
        decisions = runner.do(lambda: of_type(table, "decision"))
        assert [(d["source"], d["player"]) for d in decisions] == [("phone", "Bob"), ("bot", "Cy")]
        until(lambda d: d.find_elements(By.CSS_SELECTOR, "#phone-answers li.applied"))


def test_behind_the_documented_acl_only_the_director_decides_for_a_member(tmp_path: Path) -> None:
    with documented_acl_broker(tmp_path, {"director": "dpw", "t01": "p1", "t02": "p2"}) as broker:
        director = Director(BrokerConfig.from_url(f"mqtt://director:dpw@127.0.0.1:{broker.port}", venue="hall"),
                            tmp_path / "data", ack_interval=0.05)
        director.start()
        table = EmulatedTable(CHOUETTE, tmp_path / "t01", 1, players=False, line_noise=0.0, flicker_rate=0.0,
                              broker=BrokerConfig.from_url(f"mqtt://t01:p1@127.0.0.1:{broker.port}", venue="hall",
                                                           table="t01", director_key=director.key.public))
        try:
            table.wait(1.0)
            box_doubles_bob_and_cy(table)
            wait_until(lambda: (asked_at(director, "t01") or {}).get("player") == "Bob", 10, "Bob's decision asked",
                       step=pace(table))
            bobs = asked_at(director, "t01")
            assert bobs is not None
            # another table's login may not write t01's decisions: the broker drops it
            intruder = raw_client(broker.port, "t02-evil", "t02", "p2")
            forged = Decision("f0rged", "t01", bobs["ask"], "Bob", "pass")
            publish(intruder, Topics("hall").table("t01", "decision"), forged.encode())
            table.wait(0.5)
            assert link(table).decisions.applied == 0 and of_type(table, "pass", "decision") == []
            intruder.loop_stop()
            intruder.disconnect()
            # the director's does, and the table's answer comes back
            take = director.decide("t01", "Bob", bobs["ask"], "take")
            wait_until(lambda: outcome(director, "t01", take.id), 10, "the table's answer", step=pace(table))
            assert (outcome(director, "t01", take.id) or {}).get("applied") is True
            assert [(e["source"], e["answer"]) for e in of_type(table, "decision")] == [("phone", "take")]
        finally:
            table.close()
            director.close()


def test_a_simulated_chouette_reaches_the_director_whole_with_every_state_accepted(shared_mosquitto: Mosquitto,
                                                                                   room: Room) -> None:
    director = room("director", shared_mosquitto.url)
    settings = Settings(timed=False, chouette=ChouetteSettings(("Ann", "Bob", "Cy", "Dee", "Eve"), games=2))
    table = room("table", shared_mosquitto.url, "t01", settings=settings, seed=4)
    assert table.run(max_seconds=4 * 3600)
    wait_until(lambda: (c := director.store.find("t01", link(table).match)) is not None
               and c.held == table.journal.sequence, 20, "the whole session at the director", step=pace(table))
    copy = director.store.find("t01", link(table).match)
    assert copy is not None and copy.path.read_bytes() == table.journal.path.read_bytes()
    assert director.rejected == {} and director.counts["states"] > 0
    wait_until(lambda: state_of(director, "t01").get("over") is True, 10, "the last state", step=pace(table))
    chouette = state_of(director, "t01")["chouette"]
    assert chouette["phase"] == "over" and chouette["games"] == 2 and chouette["asked"] is None
    session = table.controller.played
    assert isinstance(session, ChouetteSession)
    assert chouette["totals"] == {name: float(points) for name, points in session.totals.items()}
    assert sum(chouette["totals"].values()) == 0
    sources = {e["source"] for e in of_type(table, "decision")}
    assert sources == {"button"}  # the simulated members press; nobody's phone decided
