"""The whole matches tests share are played once per test session, whoever asks and however many ask
at once; a play that failed is played again by the next that asks."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path

import pytest
from played import played_once


def test_many_askers_at_once_get_one_play(tmp_path_factory: pytest.TempPathFactory) -> None:
    name, plays, folders = f"once-{uuid.uuid4().hex}", [], []

    def play(folder: Path) -> None:
        plays.append(folder)
        time.sleep(0.05)  # long enough that the other askers arrive while it plays
        (folder / "journal.jsonl").write_text("{}\n")

    def ask() -> None:
        folders.append(played_once(tmp_path_factory, name, play))

    askers = [threading.Thread(target=ask) for _ in range(4)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    assert len(plays) == 1 and len(set(folders)) == 1 and len(folders) == 4
    assert (folders[0] / "journal.jsonl").read_text() == "{}\n"


def test_a_failed_play_is_played_again_from_an_empty_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    name = f"again-{uuid.uuid4().hex}"

    def failing(folder: Path) -> None:
        (folder / "half").write_text("cut")
        raise RuntimeError("the table stopped")

    with pytest.raises(RuntimeError, match="the table stopped"):
        played_once(tmp_path_factory, name, failing)
    folder = played_once(tmp_path_factory, name, lambda f: (f / "whole").write_text("ok"))
    assert sorted(p.name for p in folder.iterdir()) == ["whole"]
