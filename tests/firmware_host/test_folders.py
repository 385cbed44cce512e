"""The directories a table or a room writes to: made, or refused in one line that says why."""

from __future__ import annotations

import socket
import stat
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.errors import DirectoryError, TableError
from firmware_host.folders import make_directory


def test_a_directory_is_made_with_its_parents_and_a_second_time_is_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "a" / "b"
    make_directory(directory, "record directory")
    make_directory(directory, "record directory")
    assert directory.is_dir()


def test_a_private_directory_is_made_for_its_owner_alone(tmp_path: Path) -> None:
    make_directory(tmp_path / "keys", "key's directory", mode=0o700)
    assert stat.S_IMODE((tmp_path / "keys").stat().st_mode) == 0o700


@pytest.mark.parametrize(("under", "said"), [
    ("a-file", "the record directory {path} is a file, not a directory: name another"),
    ("a-file/deeper", "cannot make the record directory {path}: Not a directory"),
])
def test_a_directory_that_cannot_be_is_one_error_naming_it(tmp_path: Path, under: str, said: str) -> None:
    (tmp_path / "a-file").write_text("kept\n")
    path = tmp_path / under
    with pytest.raises(DirectoryError) as raised:
        make_directory(path, "record directory")
    assert str(raised.value) == said.format(path=path)
    assert isinstance(raised.value, TableError) and isinstance(raised.value, OSError)
    assert (tmp_path / "a-file").read_text() == "kept\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_the_directors_data_that_is_a_file_is_one_line_before_anything_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.write_text("kept\n")
    assert main(["director", "--broker", "mqtt://127.0.0.1:1", "--insecure-anonymous-broker", "--data", str(data),
                 "--listen", f"127.0.0.1:{free_port()}"]) == 2
    assert capsys.readouterr().err == f"error: the director's data directory {data} is a file, not a directory: " \
                                      "name another\n"
    assert data.read_text() == "kept\n"


def test_a_room_demos_directory_under_a_file_is_one_line_before_anything_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a-file").write_text("kept\n")
    work = tmp_path / "a-file" / "room"
    assert main(["room-demo", "--tables", "1", "--dir", str(work), "--broker", "mqtt://127.0.0.1:1",
                 "--insecure-anonymous-broker", "--listen", f"127.0.0.1:{free_port()}"]) == 2
    assert capsys.readouterr().err == f"error: cannot make the room's directory (--dir) {work}: Not a directory\n"
