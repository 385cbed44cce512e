"""The room's payloads, version 1: encoded and checked in one place (hardware_docs/room.md).

Every payload is UTF-8 JSON with `"v": 1`, except the event message, which is a JSON header
line, one LF, then the journal line exactly as it stands in the table's journal.jsonl. Each
`decode_*` raises MessageRejected (with a counting reason) for anything it does not accept.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from firmware_host.errors import MessageRejected
from firmware_host.room.topics import NAME
from game.position import Position
from game.record import GENESIS, line_hash

VERSION = 1
MAX_PAYLOAD = 256 * 1024
"""Larger payloads are refused unread (a flag event with its evidence is a few kilobytes)."""
MAX_DEPTH = 32
"""Deeper JSON nesting is refused unparsed (the deepest payload of the protocol nests 6 levels); Python's
parser would otherwise recurse until RecursionError."""
VARIANTS = ("backgammon", "catchgammon", "rungammon")
ACTIONS = ("acknowledge", "correct", "accept", "time_penalty")
COLORS = ("white", "black")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_MATCH = re.compile(r"[0-9a-f]{16}")
_RULING_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
ANSWERS = ("take", "pass", "beaver", "double")
"""A member's answers: take, pass or beaver a cube the box turned; double or pass (let it be)
when the member is asked whether to turn their own."""
ASK = re.compile(r"[A-Za-z0-9_-]{1,80}")
"""A chouette table's name for the decision it asks now (`asked.ask` in its state)."""


def match_id(first_line: bytes) -> str:
    """A match's id: the first 16 hex digits of the hash of its journal's first line."""
    return line_hash(first_line)[:16]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(rb"[\[\]{}]")


def json_depth(data: bytes) -> int:
    """How deep the arrays and objects of JSON text `data` nest (brackets inside strings not counted).

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}'), json_depth(b"[" * 5000)
    (3, 5000)
    """
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub(b"", data)):
        if bracket in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def loads(data: bytes | str) -> Any:
    """JSON as the room accepts it: strict (no NaN or Infinity, which no page could show) and at most
    `MAX_DEPTH` deep; ValueError for anything else."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if (depth := json_depth(raw)) > MAX_DEPTH:
        raise ValueError(f"nested {depth} deep (at most {MAX_DEPTH})")
    try:
        return json.loads(raw, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError(f"nested too deep (at most {MAX_DEPTH})") from None


def _json(doc: Mapping[str, Any]) -> bytes:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _object(payload: bytes, what: str) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise MessageRejected("too-large", f"{what} of {len(payload)} bytes (at most {MAX_PAYLOAD})")
    try:
        doc = loads(payload)
    except (UnicodeDecodeError, ValueError) as exc:
        raise MessageRejected("payload", f"{what} is not UTF-8 JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise MessageRejected("payload", f"{what} is not a JSON object")
    if doc.get("v") != VERSION:
        raise MessageRejected("schema", f"{what} has v={doc.get('v')!r}, not {VERSION}")
    return doc


def _get(doc: Mapping[str, Any], key: str, check: Callable[[Any], bool], what: str, expect: str) -> Any:
    value = doc.get(key)
    if not check(value):
        raise MessageRejected("schema", f"{what}: {key} is {value!r}, not {expect}")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_color(value: Any) -> bool:
    return value in COLORS


def _is_text(limit: int) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, str) and len(value) <= limit


def _optional(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


# -- table -> director: one journal line --------------------------------------------------

@dataclass(frozen=True, slots=True)
class EventMessage:
    """Journal line `seq` of match `match` at `table`; `hash` is line_hash(line)."""

    table: str
    match: str
    seq: int
    hash: str
    line: bytes

    def encode(self) -> bytes:
        """The payload: the JSON header line, LF, then the journal line exactly as written."""
        header = _json({"v": VERSION, "table": self.table, "match": self.match, "seq": self.seq,
                        "hash": self.hash})
        return header + b"\n" + self.line

    @property
    def prev(self) -> str:
        """The `prev` the line carries (checked by `decode_event`)."""
        return str(json.loads(self.line)["prev"])


def _is_finite(value: Any) -> bool:
    return _is_number(value) and math.isfinite(value)


def _is_score(value: Any) -> bool:
    return (isinstance(value, dict) and all(_is_int(value.get(c)) and 0 <= value[c] <= 1_000_000 for c in COLORS))


def _is_players(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(value.get(c), str) and 0 < len(value[c]) <= 64 for c in COLORS)


_EVENT_FIELDS: dict[str, dict[str, tuple[Callable[[Any], bool], str]]] = {
    "match_start": {"t": (_is_finite, "seconds since 1970"), "variant": (lambda v: v in VARIANTS, "a variant"),
                    "length": (lambda v: _is_int(v) and 0 <= v <= 999, "0 to 999 points"),
                    "players": (_is_players, "{white, black} names")},
    "match_end": {"score": (_is_score, "{white, black} points"), "winner": (_optional(_is_color), "null or a colour")},
    "chouette_start": {"t": (_is_finite, "seconds since 1970"), "variant": (lambda v: v in VARIANTS, "a variant"),
                       "players": (lambda v: _names(v, 64) and all(v), "a list of names")},
    "flag": {},
}
"""The journal events the director keeps a summary of (results, standings, flags), and the type and
range of each field it reads: anything else in such a line is refused before it is stored."""


def check_event(event: Any, where: str) -> dict[str, Any]:
    """`event` if it is a journal event the director may store: an object with a type, a finite `t` when
    it has one, and, for the events it summarises, every field it reads of the right type and range;
    MessageRejected ("schema") naming `where` and the field otherwise.

    >>> check_event({"type": "match_start", "t": "soon", "variant": "backgammon"}, "line 2")
    Traceback (most recent call last):
    ...
    firmware_host.errors.MessageRejected: schema: line 2: match_start's t is 'soon', not seconds since 1970
    """
    if not isinstance(event, dict) or not isinstance(event.get("type"), str) or len(event["type"]) > 40:
        raise MessageRejected("schema", f"{where}: not an event with a type")
    kind = event["type"]
    if "t" in event and not _is_finite(event["t"]):
        raise MessageRejected("schema", f"{where}: {kind}'s t is {event['t']!r:.60}, not seconds since 1970")
    for key, (check, expect) in _EVENT_FIELDS.get(kind, {}).items():
        if not check(event.get(key)):
            raise MessageRejected("schema", f"{where}: {kind}'s {key} is {event.get(key)!r:.60}, not {expect}")
    return event


def decode_event(payload: bytes, table: str) -> EventMessage:
    """The event message published on `table`'s event topic; its hash is checked against its line."""
    if len(payload) > MAX_PAYLOAD:
        raise MessageRejected("too-large", f"event of {len(payload)} bytes (at most {MAX_PAYLOAD})")
    head, newline, line = payload.partition(b"\n")
    if not newline:
        raise MessageRejected("payload", "an event is a header line, LF, then the journal line")
    doc = _object(head, "event header")
    what = "event header"
    claimed = _get(doc, "table", _is_text(32), what, "a table id")
    if claimed != table:
        raise MessageRejected("table-id", f"an event from table {claimed!r} on table {table!r}'s topic")
    match = _get(doc, "match", lambda v: isinstance(v, str) and bool(_MATCH.fullmatch(v)), what, "16 hex digits")
    seq = _get(doc, "seq", lambda v: _is_int(v) and v >= 1, what, "a line number from 1")
    digest = _get(doc, "hash", lambda v: isinstance(v, str) and bool(_HEX64.fullmatch(v)), what, "64 hex digits")
    if line_hash(line) != digest:
        raise MessageRejected("hash", f"table {table} match {match} seq {seq}: the line's SHA-256 is not its hash")
    try:
        event = loads(line)
    except (UnicodeDecodeError, ValueError):
        raise MessageRejected("payload", f"table {table} seq {seq}: the journal line is not JSON") from None
    check_event(event, f"table {table} match {match} seq {seq}")
    prev = event.get("prev")
    if not isinstance(prev, str) or not _HEX64.fullmatch(prev) or (seq == 1 and prev != GENESIS):
        raise MessageRejected("chain", f"table {table} seq {seq}: the line's prev {prev!r} cannot chain")
    if seq == 1 and match_id(line) != match:
        raise MessageRejected("match-id", f"table {table}: match {match} is not the hash of its first line")
    return EventMessage(table, match, seq, digest, line)


# -- table -> all: the state (retained), the status (retained, last will) -------------------

def encode_state(state: Mapping[str, Any]) -> bytes:
    """A table's state payload: `state` (the fields `decode_state` checks, not checked here) after `"v": 1`."""
    return _json({"v": VERSION, **state})


_STATE_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "match": (lambda v: isinstance(v, str) and bool(_MATCH.fullmatch(v)), "16 hex digits"),
    "seq": (lambda v: _is_int(v) and v >= 0, "a line number"),
    "variant": (lambda v: v in VARIANTS, "a variant"),
    "length": (lambda v: _is_int(v) and v >= 0, "points (0: money)"),
    "players": (lambda v: isinstance(v, dict) and all(isinstance(v.get(c), str) and len(v[c]) <= 64
                                                      for c in COLORS), "{white, black} names"),
    "game": (lambda v: _is_int(v) and v >= 0, "a game number"),
    "score": (lambda v: isinstance(v, dict) and all(_is_int(v.get(c)) for c in COLORS), "{white, black}"),
    "crawford": (lambda v: isinstance(v, bool), "true or false"),
    "dice": (_optional(lambda v: isinstance(v, list) and len(v) == 2 and all(v_ in range(1, 7) for v_ in v)),
             "null or two dice"),
    "cube": (lambda v: isinstance(v, dict) and _is_int(v.get("value")) and v["value"] >= 1
             and (v.get("owner") is None or _is_color(v.get("owner"))), "{value, owner}"),
    "turn": (_optional(_is_color), "null, white or black"),
    "waiting": (_is_text(80), "a prompt"),
    "code": (_is_text(2), "two characters"),
    "message": (_is_text(1000), "a message"),
    "clock": (_optional(lambda v: isinstance(v, dict) and _is_number(v.get("white")) and _is_number(v.get("black"))
                        and (v.get("running") is None or _is_color(v.get("running")))
                        and _is_number(v.get("delay_left"))), "null or {white, black, running, delay_left}"),
    "flags": (lambda v: isinstance(v, list) and len(v) <= 100 and all(_flag_ok(f) for f in v), "a list of flags"),
    "link": (lambda v: v in ("up", "down"), "up or down"),
    "over": (lambda v: isinstance(v, bool), "true or false"),
    "winner": (_optional(_is_color), "null, white or black"),
    "profile": (_is_text(20), "a referee profile"),
    "sent": (_is_number, "seconds since 1970"),
    "chouette": (_optional(lambda v: _chouette_ok(v)), "null or a chouette"),
}


def _names(value: Any, limit: int = 9) -> bool:
    return isinstance(value, list) and len(value) <= limit and all(_is_text(64)(n) for n in value)


def _member_ok(m: Any) -> bool:
    return (isinstance(m, dict) and _is_text(64)(m.get("name")) and _is_text(2)(m.get("code"))
            and _is_int(m.get("cube")) and m["cube"] >= 1 and m.get("owner") in (None, "team", "box")
            and isinstance(m.get("offered"), bool) and isinstance(m.get("out"), bool)
            and _optional(_is_number)(m.get("result")) and isinstance(m.get("captain"), bool))


def _asked_ok(a: Any) -> bool:
    return (a is None or isinstance(a, dict) and isinstance(a.get("ask"), str) and bool(ASK.fullmatch(a["ask"]))
            and a.get("side") in ("team", "box") and _is_text(64)(a.get("player")) and _is_text(64)(a.get("member"))
            and _is_text(2)(a.get("code")) and a.get("kind") in ("turn", "answer")
            and isinstance(a.get("answers"), list) and all(x in ANSWERS for x in a["answers"]))


def _chouette_ok(c: Any) -> bool:
    """A chouette table's `chouette` field (hardware_docs/room.md)."""
    return (isinstance(c, dict) and _is_text(20)(c.get("phase")) and _optional(_is_text(64))(c.get("box"))
            and _optional(_is_text(64))(c.get("captain")) and _names(c.get("line"))
            and isinstance(c.get("members"), list) and len(c["members"]) <= 9 and all(map(_member_ok, c["members"]))
            and isinstance(c.get("totals"), dict) and len(c["totals"]) <= 64
            and all(_is_text(64)(k) and _is_number(v) for k, v in c["totals"].items())
            and _is_int(c.get("games")) and _asked_ok(c.get("asked"))
            and isinstance(c.get("refused", {}), dict) and all(isinstance(k, str) and len(k) <= 20 and _is_int(v)
                                                                for k, v in c.get("refused", {}).items())
            and isinstance(c.get("phones"), dict) and len(c["phones"]) <= 64
            and all(_is_text(64)(k) and isinstance(v, str) and bool(_HEX64.fullmatch(v))
                    for k, v in c["phones"].items())
            and _bots_ok(c.get("bots", {}), c["phones"]))


def _bots_ok(bots: Any, phones: dict[str, Any]) -> bool:
    """A chouette's `bots` (name: level; absent from a table before bots sat at a chouette): never one
    with a phone code."""
    return (isinstance(bots, dict) and len(bots) <= 9 and all(_is_text(64)(k) and _is_text(20)(v)
                                                               for k, v in bots.items())
            and not set(bots) & set(phones))


def _flag_ok(flag: Any) -> bool:
    return (isinstance(flag, dict) and _is_int(flag.get("number")) and isinstance(flag.get("kind"), str)
            and _is_text(2)(flag.get("code")) and _is_text(1000)(flag.get("message"))
            and flag.get("status") in ("open", "acknowledged") and _optional(_is_text(64))(flag.get("referee")))


def decode_state(payload: bytes, table: str) -> dict[str, Any]:
    """A table's state document, every field checked (the position through the rules engine)."""
    doc = _object(payload, "state")
    if doc.get("table") != table:
        raise MessageRejected("table-id", f"a state from table {doc.get('table')!r} on table {table!r}'s topic")
    for key, (check, expect) in _STATE_FIELDS.items():
        _get(doc, key, check, f"table {table} state", expect)
    try:
        Position.from_document(doc.get("position"))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise MessageRejected("schema", f"table {table} state: position is not a position: {exc}") from None
    return doc


def encode_status(online: bool, **extra: Any) -> bytes:
    """A status payload, the table's or the director's (`extra`: the table id, since when, the director's
    instance).

    >>> encode_status(True, table="t01")
    b'{"v":1,"online":true,"table":"t01"}'
    """
    return _json({"v": VERSION, "online": online, **extra})


def decode_status(payload: bytes) -> dict[str, Any]:
    """A status document; MessageRejected unless `online` is a boolean (other fields come as they are).

    >>> decode_status(b'{"v":1,"online":"yes"}')
    Traceback (most recent call last):
    ...
    firmware_host.errors.MessageRejected: schema: status: online is 'yes', not true or false
    """
    doc = _object(payload, "status")
    _get(doc, "online", lambda v: isinstance(v, bool), "status", "true or false")
    return doc


# -- director -> table: acknowledgements and rulings; table -> director: replies -----------

@dataclass(frozen=True, slots=True)
class Ack:
    """The director holds lines 1 to `seq` of `match`, on disk."""

    match: str
    seq: int

    def encode(self) -> bytes:
        """The ack payload (director -> table, retained).

        >>> Ack("0123456789abcdef", 12).encode()
        b'{"v":1,"match":"0123456789abcdef","seq":12}'
        """
        return _json({"v": VERSION, "match": self.match, "seq": self.seq})


def decode_ack(payload: bytes) -> Ack:
    """The acknowledgement in an ack payload; MessageRejected unless it has a match id (16 hex digits)
    and a line number from 0.

    >>> decode_ack(b'{"v":1,"match":"0123456789abcdef","seq":12}')
    Ack(match='0123456789abcdef', seq=12)
    >>> decode_ack(b'{"v":1,"match":"game 1","seq":12}')
    Traceback (most recent call last):
    ...
    firmware_host.errors.MessageRejected: schema: ack: match is 'game 1', not 16 hex digits
    """
    doc = _object(payload, "ack")
    match = _get(doc, "match", lambda v: isinstance(v, str) and bool(_MATCH.fullmatch(v)), "ack", "16 hex digits")
    return Ack(match, _get(doc, "seq", lambda v: _is_int(v) and v >= 0, "ack", "a line number"))


@dataclass(frozen=True, slots=True)
class Ruling:
    """A referee's ruling for one table (see `Controller.referee`)."""

    id: str
    referee: str
    action: str
    flag: int | None = None
    player: str | None = None
    seconds: float = 0.0

    def encode(self) -> bytes:
        """The ruling payload (director -> table)."""
        return _json({"v": VERSION, **asdict(self)})


def decode_ruling(payload: bytes) -> Ruling:
    """The ruling in a ruling payload: an id (1 to 64 of A-Z a-z 0-9 _ -), a referee's name (1 to 64
    characters), one of `ACTIONS`, a flag number or null, a player or null, and 0 to 3600 seconds;
    MessageRejected for anything else.

    >>> ruling = Ruling("9f2c4e1a7b3d5a60", "Anna Berg", "time_penalty", player="black", seconds=30.0)
    >>> decode_ruling(ruling.encode()) == ruling
    True
    """
    doc = _object(payload, "ruling")
    what = "ruling"
    return Ruling(
        _get(doc, "id", lambda v: isinstance(v, str) and bool(_RULING_ID.fullmatch(v)), what, "an id"),
        _get(doc, "referee", lambda v: isinstance(v, str) and 0 < len(v) <= 64, what, "a name"),
        _get(doc, "action", lambda v: v in ACTIONS, what, " or ".join(ACTIONS)),
        _get(doc, "flag", _optional(lambda v: _is_int(v) and v >= 1), what, "null or a flag number"),
        _get(doc, "player", _optional(_is_color), what, "null, white or black"),
        float(_get(doc, "seconds", lambda v: _is_number(v) and 0 <= v <= 3600, what, "0 to 3600 seconds")))


@dataclass(frozen=True, slots=True)
class Reply:
    """What the table did with ruling `id`: its journal line `seq` records it."""

    id: str
    applied: bool
    outcome: str
    seq: int

    def encode(self) -> bytes:
        """The reply payload (table -> director)."""
        return _json({"v": VERSION, **asdict(self)})


def decode_reply(payload: bytes) -> Reply:
    """The reply in a reply payload: a ruling id, whether it was applied, the outcome (at most 1000
    characters) and the journal line that records it; MessageRejected for anything else.

    >>> decode_reply(b'{"v":1,"id":"9f2c4e1a7b3d5a60","applied":true,"outcome":"applied","seq":58}')
    Reply(id='9f2c4e1a7b3d5a60', applied=True, outcome='applied', seq=58)
    """
    doc = _object(payload, "reply")
    return Reply(_get(doc, "id", lambda v: isinstance(v, str) and bool(_RULING_ID.fullmatch(v)), "reply", "an id"),
                 _get(doc, "applied", lambda v: isinstance(v, bool), "reply", "true or false"),
                 _get(doc, "outcome", _is_text(1000), "reply", "text"),
                 _get(doc, "seq", lambda v: _is_int(v) and v >= 1, "reply", "a line number"))


# -- a chouette member's cube decision from a phone: director -> table, table -> director -----

@dataclass(frozen=True, slots=True)
class Decision:
    """Member `player`'s `answer` to the decision `ask` at `table`, from the member's phone (sent by
    the director once it has checked the member's code)."""

    id: str
    table: str
    ask: str
    player: str
    answer: str

    def encode(self) -> bytes:
        """The decision payload (director -> table)."""
        return _json({"v": VERSION, **asdict(self)})


def decode_decision(payload: bytes) -> Decision:
    """The decision in a decision payload: an id (1 to 64 of A-Z a-z 0-9 _ -), the table's id, the
    ask (1 to 80 of the same: the `asked.ask` of the table's state), the member's name (1 to 64
    characters) and one of `ANSWERS`; MessageRejected for anything else.

    >>> decision = Decision("5d1e0c3b9a7f2e48", "t01", "6554b9c575440794-g1-m2-answer-P1-2", "Bob", "take")
    >>> decode_decision(decision.encode()) == decision
    True
    >>> decode_decision(b'{"v":1,"id":"x1","table":"t01","ask":"a","player":"Bob","answer":"drop"}')
    Traceback (most recent call last):
    ...
    firmware_host.errors.MessageRejected: schema: decision: answer is 'drop', not take or pass or beaver or double
    """
    doc = _object(payload, "decision")
    what = "decision"
    return Decision(
        _get(doc, "id", lambda v: isinstance(v, str) and bool(_RULING_ID.fullmatch(v)), what, "an id"),
        _get(doc, "table", lambda v: isinstance(v, str) and bool(NAME.fullmatch(v)), what, "a table id"),
        _get(doc, "ask", lambda v: isinstance(v, str) and bool(ASK.fullmatch(v)), what, "an ask"),
        _get(doc, "player", lambda v: isinstance(v, str) and 0 < len(v) <= 64, what, "a name"),
        _get(doc, "answer", lambda v: v in ANSWERS, what, " or ".join(ANSWERS)))


@dataclass(frozen=True, slots=True)
class Decided:
    """What the table did with decision `id`: applied (its journal line `seq`), or not and why
    (`outcome` starts with the reason counted: `stale`, `duplicate`, `wrong-member`, `table-id`,
    `answer`, `out-of-reach`; `seq` is null)."""

    id: str
    applied: bool
    outcome: str
    seq: int | None

    def encode(self) -> bytes:
        """The decided payload (table -> director)."""
        return _json({"v": VERSION, **asdict(self)})


def decode_decided(payload: bytes) -> Decided:
    """The answer in a decided payload; MessageRejected for anything else.

    >>> decode_decided(b'{"v":1,"id":"5d1e0c3b9a7f2e48","applied":false,"outcome":"stale: asked no more","seq":null}')
    Decided(id='5d1e0c3b9a7f2e48', applied=False, outcome='stale: asked no more', seq=None)
    """
    doc = _object(payload, "decided")
    what = "decided"
    return Decided(_get(doc, "id", lambda v: isinstance(v, str) and bool(_RULING_ID.fullmatch(v)), what, "an id"),
                   _get(doc, "applied", lambda v: isinstance(v, bool), what, "true or false"),
                   _get(doc, "outcome", _is_text(1000), what, "text"),
                   _get(doc, "seq", _optional(lambda v: _is_int(v) and v >= 1), what, "null or a line number"))


# -- the director's signature on what it sends a table to do ---------------------------------

INSTRUCTION_CONTEXT = b"smartgammon room instruction v1\n"
"""Signed before an instruction, so that it is never a signature of anything else."""


def instruction_message(venue: str, table: str, unsigned: bytes) -> bytes:
    """What the director signs for a ruling or a decision: the context, the venue and the table it is for
    (so it cannot be replayed to another), and the payload without its `sig`."""
    return INSTRUCTION_CONTEXT + f"{venue}\n{table}\n".encode() + unsigned


def seal(payload: bytes, venue: str, table: str, sign: Callable[[bytes], str]) -> bytes:
    """`payload` (a ruling's or a decision's, from its `encode`) with `sig`: the director's signature
    (`sign`, base64 Ed25519) of `instruction_message`."""
    return payload[:-1] + b',"sig":"' + sign(instruction_message(venue, table, payload)).encode("ascii") + b'"}'


def check_seal(payload: bytes, venue: str, table: str, director_key: str | None) -> None:
    """Nothing if `payload` carries the signature of the director whose public key is `director_key` (as
    records write keys, ed25519:...) for this venue and table; MessageRejected ("signature") otherwise,
    and for every instruction when the table knows no director key."""
    if director_key is None:
        raise MessageRejected("signature", f"table {table} has no director key configured ([broker] director_key): "
                                           "it follows nobody's instructions")
    head, marker, tail = payload.rpartition(b',"sig":"')
    if not marker or not tail.endswith(b'"}'):
        raise MessageRejected("signature", f"table {table}: an instruction without the director's signature")
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        from game.integrity import KEY_PREFIX

        raw = base64.b64decode(director_key[len(KEY_PREFIX):], validate=True)
        Ed25519PublicKey.from_public_bytes(raw).verify(base64.b64decode(tail[:-2], validate=True),
                                                       instruction_message(venue, table, head + b"}"))
    except (InvalidSignature, binascii.Error, ValueError):
        raise MessageRejected("signature", f"table {table}: the instruction's signature is not the director's "
                                           f"({director_key[:20]}...)") from None


def phone_verifier(table: str, match: str, name: str, code: str) -> str:
    """What a chouette table's state publishes for `name`'s phone code: SHA-256 of table, match, name and
    code (its letters in capitals, without dash or spaces), 64 hex digits; the director compares the
    verifier of the code a phone sends with it.

    >>> same = phone_verifier("t01", "6554b9c575440794", "Bob", "ABCDEFGHJK")
    >>> phone_verifier("t01", "6554b9c575440794", "Bob", "abcde-fghjk") == same
    True
    """
    plain = code.strip().upper().replace("-", "").replace(" ", "")
    return hashlib.sha256(f"{table}\0{match}\0{name}\0{plain}".encode()).hexdigest()
