"""What the director's pages show, as plain documents (JSON for the browser) and files.

The room (tiles: open flags first), one table (the match in notation, every flag with its
evidence, the rulings), the results (finished matches and standings), and the downloads:
the copy as JSON Lines, `.mat` (Backgammon) and the match sheet PDF, made by `game`'s own
functions from the director's copy. Each function takes the director's lock itself.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_host.errors import NotAvailable
from firmware_host.room.flags import FlagBook
from firmware_host.room.judge import VERIFIED
from game.board import Color

if TYPE_CHECKING:
    from firmware_host.room.director import Director, TableRecord
    from firmware_host.room.store import MatchCopy

def _attention(state: dict[str, Any] | None) -> int:
    flags = (state or {}).get("flags") or []
    if any(f.get("status") == "open" for f in flags):
        return 0
    return 1 if flags else 2


def _public(state: dict[str, Any] | None) -> dict[str, Any] | None:
    """A table's state as the pages show it: a chouette's phone verifiers replaced by the names they are for."""
    chouette = (state or {}).get("chouette")
    if state is None or not chouette:
        return state
    public = {k: v for k, v in chouette.items() if k != "phones"}
    return {**state, "chouette": {**public, "phone_players": sorted(chouette.get("phones") or {})}}


def _tile(director: Director, record: TableRecord) -> dict[str, Any]:
    state = record.state
    copy = director.store.find(record.id, state["match"]) if state else director.store.latest(record.id)
    return {"table": record.id, "online": record.online, "seen": record.seen, "state": _public(state),
            "match": copy.match if copy else None, "held": copy.held if copy else 0,
            "verdict": None if copy is None or not copy.finished else
            VERIFIED if copy.verdict == VERIFIED else _not_counted(copy),
            "attention": ("open", "acknowledged", "")[_attention(state)],
            "rulings": list(record.rulings)[-3:], "decisions": list(record.decisions)[-5:]}


def tiles(director: Director, only: list[str] | None = None) -> list[dict[str, Any]]:
    """Every table (or those named), tables with an open flag first, then acknowledged ones, then by id."""
    with director.lock:
        records = [director.tables[t] for t in only if t in director.tables] if only is not None \
            else list(director.tables.values())
        return sorted((_tile(director, r) for r in records), key=lambda t: (_attention(t["state"]), t["table"]))


def _copy(director: Director, table: str, match: str | None = None) -> MatchCopy:
    record = director.tables.get(table)
    if record is None:
        raise NotAvailable(f"no table {table!r} in this room")
    if match is None and record.state:
        match = record.state["match"]
    copy = director.store.find(table, match) if match else director.store.latest(table)
    if copy is None or not copy.held:
        raise NotAvailable(f"table {table} has no match {match or ''} here yet")
    return copy


def table_page(director: Director, table: str) -> dict[str, Any]:
    """One table: its tile, the match in notation, its flags (with pictures), rulings and earlier matches."""
    from game.pictures import sheet_from_events

    with director.lock:
        tile = _tile(director, director.tables[table]) if table in director.tables else None
        if tile is None:
            raise NotAvailable(f"no table {table!r} in this room")
        try:
            copy = _copy(director, table)
        except NotAvailable:
            return {"tile": tile, "match": None, "games": [], "flags": [], "referee": [], "matches": []}
        matches = [{"match": c.match, "held": c.held, **c.summary}
                   for c in director.store.copies.get(table, {}).values()]
    events = copy.events()  # outside the lock: the copy only grows, and is read up to its size then
    book = FlagBook()
    for seq, event in enumerate(events, 1):
        book.add(seq, event)
    sheet = sheet_from_events(events)
    games = [{"number": g.number, "score": list(g.score), "result": g.result, "crawford": g.crawford,
              "rows": [{"number": r.number, "player": r.player.value if r.player else None,
                        "dice": list(r.dice) if r.dice else None, "notation": r.notation,
                        "flagged": r.flagged, "note": r.note} for r in g.rows]}
             for g in sheet.games]
    from game.pictures.flag import has_picture

    flags = [{**{k: v for k, v in f.items() if k != "seq"},
              "picture": has_picture(events[f["seq"] - 1])}
             for f in book.flags.values()]
    referee = [{k: e.get(k) for k in ("referee", "action", "flag", "player", "seconds", "applied", "outcome", "t")}
               for e in events if e.get("type") == "referee"]
    return {"tile": tile, "match": copy.match, "held": len(events), "summary": copy.summary, "games": games,
            "flags": flags, "referee": referee, "matches": matches}


def results(director: Director) -> dict[str, Any]:
    """Finished matches a referee can sign off (`judge.VERIFIED`), newest first, and standings: matches won,
    then points won minus lost; the finished matches that do not count (`unverified`), each with its reason."""
    with director.lock:
        over = [(table, copy) for table, matches in director.store.copies.items() for copy in matches.values()
                if copy.finished and "chouette" not in copy.summary]
        finished = [(table, copy.match, dict(copy.summary)) for table, copy in over if copy.verdict == VERIFIED]
        unverified = [{"table": table, "match": copy.match, "players": copy.summary.get("players"),
                       "score": copy.summary.get("score"), "reason": _not_counted(copy)}
                      for table, copy in over if copy.verdict != VERIFIED]
        playing = sum(1 for r in director.tables.values() if r.state and not r.state.get("over"))
    rows: dict[str, dict[str, Any]] = defaultdict(lambda: {"played": 0, "won": 0, "lost": 0, "for": 0, "against": 0})
    out = []
    for table, match, summary in sorted(finished, key=lambda f: -float(f[2].get("t") or 0)):
        players = summary.get("players") or {}
        score = summary.get("score") or {}
        out.append({"table": table, "match": match, "variant": summary.get("variant"),
                    "length": summary.get("length"), "players": players, "score": score,
                    "winner": summary.get("winner")})
        for color in Color:
            name = str(players.get(color.value, color.value))
            row = rows[name]
            row["played"] += 1
            row["won" if summary.get("winner") == color.value else "lost"] += 1
            row["for"] += int(score.get(color.value) or 0)
            row["against"] += int(score.get(color.opponent.value) or 0)
    standings = sorted(({"player": name, **row} for name, row in rows.items()),
                       key=lambda r: (-r["won"], -(r["for"] - r["against"]), r["player"]))
    return {"matches": out, "standings": standings, "playing": playing, "unverified": unverified}


def _not_counted(copy: MatchCopy) -> str:
    """Why a finished match is not in the results (yet)."""
    if copy.verdict is not None:
        return copy.verdict
    if copy.flaw is not None:
        return copy.flaw
    return "being checked" if copy.sealed else "waiting for the table's signature of the match's end"


# -- files ---------------------------------------------------------------------------------------

def journal_bytes(director: Director, table: str, match: str) -> bytes:
    """The copy of `match` at `table` as JSON Lines, the table's journal as far as the director holds it;
    NotAvailable for a table or match it does not hold."""
    with director.lock:
        copy = _copy(director, table, match)
    return copy.read_bytes()


def mat_text(director: Director, table: str, match: str) -> str:
    """The match as a `.mat` transcript (GNU Backgammon's export format; Backgammon only)."""
    from game.mat import export_mat
    from game.match import Match

    with director.lock:
        copy = _copy(director, table, match)
    events = copy.events()
    if copy.summary.get("chouette"):
        raise NotAvailable("a chouette has a .mat per member: python -m game.chouette convert JOURNAL --out DIR")
    if copy.summary.get("variant") != "backgammon":
        raise NotAvailable(f".mat is a Backgammon format; this match is {copy.summary.get('variant')}")
    return export_mat(Match.replay(events))


def sheet_pdf(director: Director, table: str, match: str) -> bytes:
    """The match sheet (`python -m game report`) as a PDF."""
    from game.pictures import draw_sheet, save_sheet, sheet_from_events

    with director.lock:
        copy = _copy(director, table, match)
    if copy.summary.get("chouette"):
        raise NotAvailable("a chouette's score sheet: python -m game report JOURNAL")
    events = copy.events()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "sheet.pdf"
        save_sheet(draw_sheet(sheet_from_events(events)), path)
        return path.read_bytes()


def flag_picture(director: Director, table: str, match: str, number: int) -> bytes:
    """Flag `number`'s evidence: the sensed board beside the expected one, as the table drew it (PNG)."""
    from game.pictures.flag import flag_png

    with director.lock:
        copy = _copy(director, table, match)
        if not 1 <= number <= len(copy.flags):
            raise NotAvailable(f"match {match} at table {table} has no flag {number}")
        event = copy.event(copy.flags[number - 1])
    png = flag_png(event, number)
    if png is None:
        raise NotAvailable(f"flag {number} ({event.get('kind')}) has no board to show")
    return png
