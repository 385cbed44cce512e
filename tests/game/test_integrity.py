"""Records a referee can trust: signed by the table's key, every line covered, complete or cut;
every edit by someone without the key detected."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from played import played_once

from firmware_host.emulator.table import EmulatedTable
from firmware_host.errors import JournalError, KeyFileError
from firmware_host.record.journal import JOURNAL_NAME, Journal
from firmware_host.record.signing import TableKey
from firmware_host.settings import Settings
from game.cli import main as game_main
from game.record import encode_event, line_hash
from game.validate import validate_file


@pytest.fixture
def signed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole 1-point match, signed with the session's table key, played once in the test session."""
    def play(record: Path) -> None:
        with EmulatedTable(Settings(length=1, images=False), record, seed=11) as table:
            assert table.run()
    return played_once(tmp_path_factory, "signed-1-point", play) / JOURNAL_NAME


def events_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def rewrite(path: Path, events: list[dict[str, Any]], *, chain: bool = True) -> Path:
    """Write events as an editor without the key would: every hash recomputed, the signatures kept."""
    prev = "0" * 64
    lines = []
    for event in events:
        body = {k: v for k, v in event.items() if k != "prev"}
        line = encode_event(body, prev if chain else None)
        lines.append(line)
        prev = line_hash(line)
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def trust_file(tmp_path: Path, key_path: Path) -> Path:
    trust = tmp_path / "trusted.keys"
    trust.write_text("# the table at the tournament\n" + key_path.with_suffix(".pub").read_text())
    return trust


def test_the_tables_record_is_signed_covered_complete_and_trusted(signed: Path, tmp_path: Path,
                                                                   session_table_key: Path) -> None:
    path = signed
    events = events_of(path)
    assert events[0]["type"] == "table_key" and events[-1]["type"] == "signature"
    trusted = frozenset({TableKey.load_or_create(session_table_key).public})
    verdict = validate_file(str(path), trusted)
    assert verdict.integrity is not None and verdict.integrity.intact and verdict.integrity.ends_signed
    assert verdict.exit_code == 0, verdict.render()
    assert "(a trusted key): every line covered" in verdict.render()
    assert game_main(["validate", str(path), "--trust", str(trust_file(tmp_path, session_table_key))]) == 0


@pytest.mark.parametrize("edit", ["a player's name", "a time stamp", "a clock reserve", "a flag's text"])
def test_an_edit_that_recomputes_every_hash_is_detected(signed: Path, tmp_path: Path, edit: str) -> None:
    events = events_of(signed)
    target = {"a player's name": "match_start", "a time stamp": "play", "a clock reserve": "clock",
              "a flag's text": "flag"}[edit]
    event = next((e for e in events if e["type"] == target), None)
    if event is None:  # a match with no flag: the editor adds one
        events.insert(5, {"type": "flag", "kind": "illegal", "message": "made up", "t": events[5]["t"]})
    elif target == "match_start":
        event["players"]["white"] = "Mallory"
    elif target == "play":
        event["t"] += 60
    elif target == "clock":
        event["white"] += 300
    else:
        event["message"] = "nothing happened"
    verdict = validate_file(str(rewrite(tmp_path / "edited.jsonl", events)))
    assert verdict.integrity is not None and verdict.integrity.bad_signatures and verdict.exit_code == 1
    assert "does not verify" in verdict.render()


def test_a_record_stripped_of_its_chain_and_signatures_is_never_called_intact(signed: Path, tmp_path: Path,
                                                                              session_table_key: Path) -> None:
    events = [e for e in events_of(signed) if e["type"] not in ("signature", "table_key")]
    stripped = rewrite(tmp_path / "stripped.jsonl", events, chain=False)
    verdict = validate_file(str(stripped))
    assert verdict.integrity is not None and not verdict.integrity.intact
    assert "UNCHAINED" in verdict.render()
    assert game_main(["validate", str(stripped), "--trust", str(trust_file(tmp_path, session_table_key))]) == 1


def test_a_match_of_another_table_is_not_trusted(signed: Path, tmp_path: Path, session_table_key: Path) -> None:
    other = tmp_path / "other"
    with EmulatedTable(Settings(length=1, images=False), other, seed=12, key_path=tmp_path / "other.pem") as table:
        assert table.run()
    trust = trust_file(tmp_path, session_table_key)
    assert game_main(["validate", str(other / JOURNAL_NAME)]) == 0  # intact, but whose?
    assert game_main(["validate", str(other / JOURNAL_NAME), "--trust", str(trust)]) == 1


def test_a_record_cut_at_a_line_boundary_is_reported_cut(signed: Path, tmp_path: Path) -> None:
    lines = signed.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:-3]))
    verdict = validate_file(str(cut))
    assert verdict.exit_code == 1 and verdict.integrity is not None and not verdict.integrity.ends_signed
    assert "the record is cut" in verdict.render()


def test_the_key_is_kept_for_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "table.pem"
    key = TableKey.load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert TableKey.load_or_create(path).public == key.public
    os.chmod(path, 0o644)
    with pytest.raises(KeyFileError, match="may be read by others"):
        TableKey.load_or_create(path)
    path.write_text("not a key")
    os.chmod(path, 0o600)
    with pytest.raises(KeyFileError, match="is not a table key"):
        TableKey.load_or_create(path)


def test_a_journal_signed_by_another_table_is_not_resumed_here(signed: Path, tmp_path: Path) -> None:
    record = tmp_path / "theirs"
    record.mkdir()
    (record / JOURNAL_NAME).write_bytes(signed.read_bytes())
    with pytest.raises(JournalError, match="resume it at the table that began it"):
        Journal(record, key=TableKey.load_or_create(tmp_path / "mine.pem"))


def test_a_trust_file_line_that_is_no_key_is_named_with_its_file(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    trust = tmp_path / "referee.keys"
    trust.write_text("# the tables of hall B\n\ned25519:AAAA\n")
    record = tmp_path / "empty.jsonl"
    record.write_text("")
    assert game_main(["validate", str(record), "--trust", str(trust)]) == 2
    assert capsys.readouterr().err == (f"error: trust file {trust} line 3: 'ed25519:AAAA' is not an ed25519:... "
                                       "public key\n")
