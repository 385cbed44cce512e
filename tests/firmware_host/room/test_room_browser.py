"""The director's page in a real browser (Debian's chromium through chromedriver): tiles
appear, a play made at an emulated table shows within a second, a flag sorts its table first,
a referee logs in and acknowledges it and the table's journal records it; a spectator cannot act."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from room_fixtures import Runner, attribute, serving, text, wait_until

from drivers.events import ButtonKind
from firmware_host.controller.prompts import Waiting
from firmware_host.emulator.table import EmulatedTable
from firmware_host.room.auth import Sessions, hash_password
from firmware_host.room.mosquitto import Mosquitto
from firmware_host.room.web import create_app
from firmware_host.settings import Settings

pytestmark = [pytest.mark.room, pytest.mark.browser]


@pytest.fixture
def site(shared_mosquitto: Mosquitto, room: Callable[..., Any]) -> Iterator[dict[str, Any]]:
    director = room("director", shared_mosquitto.url)
    tables = [room("table", shared_mosquitto.url, name, players=False, settings=Settings(length=3, players=(w, b)))
              for name, (w, b) in (("t01", ("Anna", "Bram")), ("t02", ("Chen", "Dara")))]
    app = create_app(director, Sessions({"Anna Berg": hash_password("s3cret-pass")}))
    with serving(app) as url:
        runner = Runner(tables)
        yield {"url": url, "director": director, "tables": tables, "runner": runner}
        runner.stop()


def referee_events(table: EmulatedTable) -> list[dict[str, Any]]:
    return [e for e in map(json.loads, table.journal.path.read_text().splitlines()) if e["type"] == "referee"]


def test_the_room_live_in_a_browser(site: dict[str, Any], browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    url, runner = site["url"], site["runner"]
    first, second = site["tables"]
    runner.wait(1.0)  # both boards set: each waits for the opening roll
    browser.get(url + "/")
    until = WebDriverWait(browser, 10, poll_frequency=0.02).until
    until(lambda d: d.execute_script("return [...document.querySelectorAll('#tiles .tile')]"
                                     ".map((e) => e.dataset.table)") == ["t01", "t02"])
    assert "Anna (White)" in text(browser, "#tile-t01 .white-player")  # which player is White, on the tile

    # a play at table t01 shows on the page within a second of its journal line
    written: dict[int, float] = {}
    runner.do(lambda: first.journal.listen(
        lambda seq, line, digest: written.setdefault(seq, time.time()) if b'"type":"play"' in line else None))
    runner.do(lambda: first.emulator.roll(3, 1))
    until_playing(runner, first)
    runner.do(lambda: (first.emulator.move(8, 5), first.emulator.move(6, 5)))
    runner.wait(0.6)
    runner.do(lambda: first.press("white", ButtonKind.DONE))
    wait_until(lambda: written, 30, "the play in t01's journal")
    [(seq, at)] = written.items()
    until(lambda d: int(attribute(d, "#tile-t01", "data-seq") or 0) >= seq)
    shown = time.time() - at
    print(f"a play at t01 reached the page {shown:.3f} s after its journal line")
    assert shown < 1.0, f"the play took {shown:.3f} s to reach the page"

    # an illegal play at t02 raises a flag: its tile goes first, outlined
    runner.do(lambda: second.emulator.roll(6, 1))
    until_playing(runner, second)  # checkers moved before the roll is taken would be another flag
    runner.do(lambda: second.emulator.move(13, 7))
    runner.wait(0.6)
    runner.do(lambda: second.press("white", ButtonKind.DONE))
    until(lambda d: attribute(d, "#tiles .tile", "data-table") == "t02")
    assert "open" in (attribute(browser, "#tile-t02", "class") or "") and "FLAG 1 DU" in text(browser, "#tile-t02")

    # a spectator sees the flag and its evidence but cannot act
    browser.get(url + "/table/t02")
    until(lambda d: d.find_elements(By.CSS_SELECTOR, "#flag-1 img"))
    assert not browser.find_elements(By.CSS_SELECTOR, "button.acknowledge")
    status = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/api/table/t02/ruling', {method: 'POST', headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({action: 'acknowledge', flag: 1})}).then((r) => done(r.status));""")
    assert status == 403 and referee_events(second) == []
    until(lambda d: d.execute_script("const i = document.querySelector('#flag-1 img');"
                                     "return i && i.complete ? i.naturalWidth : 0;") > 100)  # the evidence, drawn

    # the referee logs in and acknowledges; the table journals it with her name
    browser.find_element(By.ID, "login-name").send_keys("Anna Berg")
    browser.find_element(By.ID, "login-password").send_keys("s3cret-pass")
    browser.find_element(By.ID, "login-button").click()
    until(lambda d: d.find_elements(By.CSS_SELECTOR, "#flag-1 button.acknowledge"))
    browser.execute_script("document.querySelector('#flag-1 button.acknowledge').click()")
    wait_until(lambda: referee_events(second), 10, "the acknowledgement in t02's journal")
    [event] = referee_events(second)
    assert (event["referee"], event["action"], event["flag"], event["applied"]) == ("Anna Berg", "acknowledge", 1, True)
    until(lambda d: attribute(d, "#flag-1", "data-status") == "acknowledged")
    assert "Anna Berg" in text(browser, "#flag-1")
    browser.get(url + "/")
    until(lambda d: attribute(d, "#tile-t02", "data-attention") == "acknowledged")


def until_playing(runner: Runner, table: EmulatedTable) -> None:
    """Wait until `table` has taken the roll and waits for the play (on a loaded machine the dice
    take longer than any fixed wait)."""
    wait_until(lambda: runner.do(lambda: table.controller.prompt.waiting) is Waiting.PLAY, 30,
               "the table to take the roll")
