"""Whether a record is what its table wrote: the hash chain, the table's Ed25519 signatures, and
whether the record is complete or cut.

A table's journal names its public key in its first line (`table_key`) and, at every game's
end and at the match's end, signs the hash of the line before (the chain's head, which commits
to every line up to it) in a `signature` line. `check` reports, apart from the rules:

- which key signed, and whether it is one the user trusts;
- whether every line is covered by a signature that verifies (lines after the last one are not);
- whether the record is complete: it ends with a signed match end (a chouette's session end), or it is cut;
- an unsigned or unchained record as such: never as intact.

game/RECORD.md says what this protects against and what it does not.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.errors import RecordError
from game.record import RecordLine, chain_problems

KEY_PREFIX = "ed25519:"
_SIGNATURE_FIELDS = {"type", "lines", "head", "signature", "t", "prev"}
ENDINGS = frozenset({"match_end", "session_end"})
"""The events that end a record: a match's end, or a chouette session's."""
CONTEXT = b"smartgammon journal signature v1\n"
"""Signed before the head, so a signature of a journal is never a signature of anything else."""


def signed_message(lines: int, head: str, t: float) -> bytes:
    """What a `signature` line signs: the count of lines before it, the hash of the last, and its
    own time stamp (so that no field of the signature line can be changed either)."""
    return CONTEXT + f"{lines} {head} {t!r}".encode("ascii")


def key_text(raw: bytes) -> str:
    """A public key as records and trust files write it: `ed25519:` and base64 of its 32 bytes."""
    return KEY_PREFIX + base64.b64encode(raw).decode("ascii")


def read_trusted(text: str, name: str = "trust file") -> frozenset[str]:
    """The keys of a trust file (`name`: what its errors call it): one `ed25519:...` per line; `#`
    starts a comment."""
    keys = set()
    for number, line in enumerate(text.splitlines(), 1):
        key = line.split("#", 1)[0].strip()
        if not key:
            continue
        if not key.startswith(KEY_PREFIX) or len(_raw_key(key) or b"") != 32:
            raise RecordError(f"{name} line {number}: {key[:40]!r} is not an ed25519:... public key")
        keys.add(key)
    return frozenset(keys)


@dataclass(frozen=True)
class Integrity:
    """What `check` found; `describe` says it in one line, `problems` lists what is wrong."""

    lines: int
    chained: bool
    chain_breaks: tuple[int, ...] = ()
    key: str | None = None
    signatures: int = 0
    bad_signatures: tuple[int, ...] = ()
    covered: int = 0
    """Lines 1..covered are covered by a signature that verifies."""
    ends_signed: bool = False
    """The match (or the chouette session) ends, and a good signature covers its end and every line after it."""
    trusted: bool | None = None
    """None: no trust file was given."""

    @property
    def intact(self) -> bool:
        """Signed, every signature good, every line covered, the chain whole."""
        return (self.key is not None and self.signatures > 0 and not self.bad_signatures and not self.chain_breaks
                and self.chained and self.covered == self.lines)

    @property
    def tampered(self) -> bool:
        """An edit is seen (a broken chain or signature), or the key is not trusted; a cut is not counted."""
        return bool(self.chain_breaks or self.bad_signatures or self.trusted is False)

    @property
    def problems(self) -> list[str]:
        """What makes the record untrustworthy (a cut, a bad signature, an untrusted key)."""
        out = []
        if self.chain_breaks:
            out.append(f"the hash chain breaks at line {self.chain_breaks[0]}")
        out += [f"the signature on line {n} does not verify" for n in self.bad_signatures]
        if self.key is not None and self.covered < self.lines:
            out.append(f"lines {self.covered + 1}-{self.lines} are not covered by a signature")
        if self.key is not None and not self.ends_signed:
            out.append("the record is cut: it does not end with a signed match (or session) end")
        if self.trusted is False:
            out.append(f"{self.key or 'an unsigned record'} is not among the trusted keys")
        return out

    def describe(self) -> str:
        """One line: signed by which key, covered, complete, trusted; or unsigned, or unchained."""
        if not self.chained:
            return "integrity: UNCHAINED and unsigned: an edit anywhere is not detected"
        if self.key is None:
            return ("integrity: UNSIGNED (hash-chained only): an edit that recomputes the hashes is not detected"
                    + ("; not among the trusted keys" if self.trusted is False else ""))
        trust = {None: "no trust file given", True: "a trusted key", False: "NOT a trusted key"}[self.trusted]
        if self.intact and self.ends_signed:
            state = (f"every line covered by {self.signatures} signatures, complete (ends with a signed match "
                     "(or session) end)")
        else:
            state = "; ".join(self.problems) or "incomplete"
        return f"integrity: signed by {self.key} ({trust}): {state}"


def check(lines: Sequence[RecordLine], trusted: frozenset[str] | None = None) -> Integrity:
    """Judge a record's lines (as `game.record.read_lines` gives them); `trusted` are the keys of
    the user's trust file, if one was given."""
    events = [line.event for line in lines]
    total = len(lines)
    chained = total > 0 and all(e is not None and "prev" in e for e in events)
    breaks = tuple(problem.line or 0 for problem in chain_problems(lines))
    first = events[0] if events else None
    named = first.get("key") if first is not None and first.get("type") == "table_key" else None
    key = named if isinstance(named, str) and _raw_key(named) is not None else None
    signatures, covered, ended = 0, 0, False
    bad: list[int] = []
    ends_signed = False
    for number, event in enumerate(events, 1):
        if event is None:
            continue
        if event.get("type") in ENDINGS:
            ended = True
        if event.get("type") != "signature":
            continue
        signatures += 1
        if key is None or not _verifies(key, event, number):
            bad.append(number)
            continue
        covered, ends_signed = number, ended
    trusted_key = None if trusted is None else (key is not None and key in trusted)
    return Integrity(total, chained, breaks, key, signatures, tuple(bad), covered, ends_signed and covered == total,
                     trusted_key)


def signature_verifies(key: str, event: dict[str, Any], number: int) -> bool:
    """Whether the `signature` event on line `number` signs the line before it by `key` (a public key as
    records name it): what `check` asks of each signature, for a reader that takes lines one at a time."""
    return _raw_key(key) is not None and _verifies(key, event, number)


def _verifies(key: str, event: dict[str, Any], number: int) -> bool:
    """The signature on line `number` signs the line before it, by `key`."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    lines, head, signature, t = event.get("lines"), event.get("prev"), event.get("signature"), event.get("t")
    if lines != number - 1 or not isinstance(head, str) or not isinstance(signature, str):
        return False
    if not isinstance(t, int | float) or isinstance(t, bool) or set(event) != _SIGNATURE_FIELDS:
        return False
    if event.get("head") != head:
        return False  # it must sign the line before it, which its own prev names
    raw = _raw_key(key)
    assert raw is not None
    try:
        Ed25519PublicKey.from_public_bytes(raw).verify(base64.b64decode(signature, validate=True),
                                                       signed_message(number - 1, head, float(t)))
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True


def _raw_key(text: str) -> bytes | None:
    if not text.startswith(KEY_PREFIX):
        return None
    try:
        raw = base64.b64decode(text[len(KEY_PREFIX):], validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == 32 else None
