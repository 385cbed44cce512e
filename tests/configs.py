"""A table's configuration as a user writes it, run through the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main


def refusal(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What `python -m firmware_host run --config` prints to stderr for a config of a board's port
    and `text`, which it must refuse (exit 2)."""
    config = tmp_path / "bad.toml"
    config.write_text("[board]\nport = 'x'\n" + text)
    assert main(["run", "--config", str(config)]) == 2
    return capsys.readouterr().err
