"""The director's pages and files (Starlette's test client), fed with a real table's journal:
spectators read, referees act, the downloads are the game's own formats, flags sort first."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from room_fixtures import NO_BROKER, session_key
from starlette.testclient import TestClient

from drivers.events import ButtonKind
from firmware_host.emulator.table import EmulatedTable
from firmware_host.room.auth import Sessions, hash_password
from firmware_host.room.director import Director
from firmware_host.room.flags import FlagBook
from firmware_host.room.messages import EventMessage, encode_state, match_id
from firmware_host.room.table_link import table_state
from firmware_host.room.topics import Topics
from firmware_host.room.web import create_app
from firmware_host.settings import Settings
from game.board import Variant
from game.mat import import_mat
from game.record import line_hash

pytestmark = pytest.mark.room


def feed(director: Director, table: EmulatedTable, table_id: str) -> str:
    """Hand the director a table's whole journal and its state, as the broker would."""
    topics = Topics(director.config.venue)
    lines = table.journal.path.read_bytes().splitlines()
    match = match_id(lines[0])
    book = FlagBook()
    for seq, line in enumerate(lines, 1):
        director.receive(topics.table(table_id, "event"),
                         EventMessage(table_id, match, seq, line_hash(line), line).encode())
        book.add(seq, json.loads(line))
    state = {"table": table_id, "match": match, "seq": len(lines), **table_state(table.controller, table.clock.now()),
             "flags": book.standing(), "sent": 1.0}
    director.receive(topics.table(table_id, "state"), encode_state(state))
    return match


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A finished Backgammon match with flags (seed 1), and a Catchgammon one stopped with a flag standing."""
    root = tmp_path_factory.mktemp("web")
    finished = EmulatedTable(Settings(length=1, players=("Anna", "Bram")), root / "t01", 1)
    finished.run()
    standing = EmulatedTable(Settings(variant=Variant.CATCHGAMMON, length=1), root / "t02", 2, players=False)
    standing.wait(1.0)
    from game.zones import layout

    standing.emulator.set_zones(layout(standing.controller.match.position))
    standing.wait(0.6)
    standing.emulator.roll(6, 1)
    standing.wait(0.6)
    standing.emulator.move(1, 7)
    standing.wait(0.3)
    standing.press("white", ButtonKind.DONE)
    standing.wait(0.6)
    director = Director(NO_BROKER, root / "director",
                        enrolled={"t01": session_key(), "t02": session_key()})
    matches = {"t01": feed(director, finished, "t01"), "t02": feed(director, standing, "t02")}
    director.judge_due()
    yield {"director": director, "tables": {"t01": finished, "t02": standing}, "matches": matches}
    finished.close()
    standing.close()
    director.store.close()


@pytest.fixture
def client(played: dict[str, Any]) -> Iterator[TestClient]:
    sessions = Sessions({"Anna Berg": hash_password("s3cret-pass")})
    with TestClient(create_app(played["director"], sessions)) as test_client:
        yield test_client


def test_the_room_lists_tables_with_a_standing_flag_first(client: TestClient, played: dict[str, Any]) -> None:
    assert "Tournament room" in client.get("/").text
    room = client.get("/api/room").json()
    assert [t["table"] for t in room["tiles"]] == ["t02", "t01"] and room["tiles"][0]["attention"] == "open"
    assert room["referee"] is None and room["status"]["rejected_total"] == 0
    table = client.get("/api/table/t01").json()
    assert table["held"] == played["tables"]["t01"].journal.sequence and table["games"][0]["rows"]
    assert table["games"][0]["rows"][0]["notation"]  # the match in notation
    assert client.get("/api/table/t09").status_code == 404


def test_a_spectator_cannot_act_and_a_referee_can(client: TestClient, played: dict[str, Any]) -> None:
    ruling = {"action": "acknowledge", "flag": 1}
    refused = client.post("/api/table/t02/ruling", json=ruling)
    assert refused.status_code == 403 and "spectators" in refused.json()["error"]
    assert client.post("/login", json={"name": "Anna Berg", "password": "wrong"}).status_code == 401
    right = {"name": "Anna Berg", "password": "s3cret-pass"}
    assert client.post("/login", json=right).json() == {"referee": "Anna Berg"}
    assert client.get("/api/me").json()["referee"] == "Anna Berg"
    assert client.post("/api/table/t02/ruling", json={"action": "overrule"}).status_code == 400
    elsewhere = {"Origin": "http://evil.example"}
    assert client.post("/api/table/t02/ruling", json=ruling, headers=elsewhere).status_code == 403
    sent = client.post("/api/table/t02/ruling", json=ruling).json()
    [recorded] = [r for r in played["director"].tables["t02"].rulings if r["id"] == sent["id"]]
    assert (recorded["referee"], recorded["action"], recorded["outcome"]) == ("Anna Berg", "acknowledge", None)
    client.post("/logout")
    assert client.post("/api/table/t02/ruling", json=ruling).status_code == 403


def test_a_decision_is_refused_from_another_site_for_a_bad_body_an_unknown_table_or_a_wrong_code(
        client: TestClient) -> None:
    decision = {"player": "Bob", "code": "AAAAA-AAAAA", "ask": "a1", "answer": "take"}
    elsewhere = client.post("/api/table/t02/decision", json=decision, headers={"Origin": "http://evil.example"})
    assert elsewhere.status_code == 403 and "another site" in elsewhere.json()["error"]
    bad = client.post("/api/table/t02/decision", json={**decision, "answer": "maybe"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("not a decision: answer 'maybe'")
    unknown = client.post("/api/table/t09/decision", json=decision)
    assert unknown.status_code == 404 and "no table 't09'" in unknown.json()["error"]
    wrong = client.post("/api/table/t02/decision", json=decision)  # t02 holds no chouette: no member's code
    assert wrong.status_code == 403 and "only Bob may decide" in wrong.json()["error"]


def test_the_downloads_are_the_record_the_mat_and_the_sheet(client: TestClient, played: dict[str, Any]) -> None:
    table, match = played["tables"]["t01"], played["matches"]["t01"]
    record = client.get(f"/download/t01/{match}/journal.jsonl")
    assert record.content == table.journal.path.read_bytes()
    assert "attachment" in record.headers["content-disposition"]
    mat = import_mat(client.get(f"/download/t01/{match}/match.mat").text)
    assert mat.score == table.controller.match.score
    pdf = client.get(f"/download/t01/{match}/sheet.pdf")
    assert pdf.content.startswith(b"%PDF") and pdf.headers["content-type"] == "application/pdf"
    catch = client.get(f"/download/t02/{played['matches']['t02']}/match.mat")
    assert catch.status_code == 404 and "Backgammon" in catch.json()["error"]


def test_a_flags_evidence_is_the_picture_the_table_drew(client: TestClient, played: dict[str, Any]) -> None:
    table, match = played["tables"]["t02"], played["matches"]["t02"]
    page = client.get("/api/table/t02").json()
    [flag] = page["flags"]
    assert flag["picture"] and flag["status"] == "open"
    served = Image.open(io.BytesIO(client.get(f"/picture/t02/{match}/flag-1.png").content))
    drawn = Image.open(Path(table.record) / "flags" / "flag-0001.png")
    assert served.size == drawn.size and served.convert("RGB").tobytes() == drawn.convert("RGB").tobytes()
    assert client.get(f"/picture/t02/{match}/flag-2.png").status_code == 404


def test_results_and_standings(client: TestClient, played: dict[str, Any]) -> None:
    results = client.get("/api/results").json()
    [finished] = results["matches"]
    match = played["tables"]["t01"].controller.match
    winner = match.players[match.winner.index]
    assert finished["players"] == {"white": "Anna", "black": "Bram"} and results["playing"] == 1
    assert results["standings"][0]["player"] == winner and results["standings"][0]["won"] == 1
    assert "Results" in client.get("/results").text
