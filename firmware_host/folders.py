"""Making the directories a table or a room writes to (a record, the director's copies, a demo's
work), or saying in one line why one cannot be."""

from __future__ import annotations

from pathlib import Path

from firmware_host.errors import DirectoryError


def make_directory(directory: Path, what: str, *, mode: int = 0o777) -> None:
    """Make `directory` and its parents unless there (`mode`, less the umask, as `Path.mkdir`'s);
    `what` names it in the error (`DirectoryError`: a file of that name, a parent that is a file, a
    place this process may not write)."""
    if directory.exists() and not directory.is_dir():
        raise DirectoryError(f"the {what} {directory} is a file, not a directory: name another")
    try:
        directory.mkdir(mode=mode, parents=True, exist_ok=True)
    except OSError as exc:
        raise DirectoryError(f"cannot make the {what} {directory}: {exc.strerror or exc}") from exc
