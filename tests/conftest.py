"""Every test's table signs with a key of the test session's, never the user's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.signing import KEY_ENV


@pytest.fixture(autouse=True)
def session_table_key(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """`SMARTGAMMON_TABLE_KEY` points into the session's temporary directory."""
    path = tmp_path_factory.getbasetemp() / "table-key" / "table-ed25519.pem"
    monkeypatch.setenv(KEY_ENV, str(path))
    yield path
