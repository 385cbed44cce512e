"""Whether a finished match counts: what a referee signs off before it enters the results.

A table's identity is its signing key, enrolled with the director (`[[table]]` in director.toml:
id and key). A match counts only when its copy names the enrolled key in its first line, every
signature verified as it arrived (`store.MatchCopy`), the last line is a signature covering the
match's end, and the rules replay it as `python -m game validate` does, with the enrolled key as
the only one trusted. Anything else is shown with its reason and never enters the results.
"""

from __future__ import annotations

import os
import tempfile

from game.validate import validate_file

VERIFIED = "verified"


def judge(table: str, match: str, data: bytes, key: str | None, flaw: str | None, enrolled: str | None) -> str:
    """VERIFIED, or why match `match` at `table` does not count: `data` is the copy's lines, `key` the key
    its first line names, `flaw` what was found as its lines arrived, `enrolled` the table's key."""
    if enrolled is None:
        return f"table {table} is not enrolled: the director's configuration has no key for it"
    if flaw is not None:
        return flaw
    if key != enrolled:
        return f"signed by {key}, which is not table {table}'s enrolled key"
    handle, path = tempfile.mkstemp(prefix=f"{table}-{match}-", suffix=".jsonl")
    try:
        with os.fdopen(handle, "wb") as copy:
            copy.write(data)
        verdict = validate_file(path, frozenset({enrolled}))
    finally:
        os.unlink(path)
    if verdict.exit_code == 0:
        return VERIFIED
    if verdict.error is not None:
        return f"the rules cannot replay it: {verdict.error}"
    if verdict.problems:
        return f"the rules' replay: {verdict.problems[0].describe().splitlines()[0]}"
    problems = verdict.integrity.problems if verdict.integrity is not None else []
    return f"the record: {problems[0]}" if problems else "the match does not end in the record"
