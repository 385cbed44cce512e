"""The director's web pages (Starlette, served by uvicorn): the room, a table, the results.

Pages are static HTML and JavaScript (`static/`, no build step) that read JSON from `/api/...`
and live updates from `/stream` (server-sent events). One task, every `frame` seconds, turns
what changed at the director into one message for every page open; a page that cannot keep
up is sent the whole room again instead of a backlog. Spectators read; a referee logs in
(`POST /login`) to send rulings (`POST /api/table/T/ruling`); a chouette's member sends their cube
decision with their phone code (`POST /api/table/T/decision`, hardware_docs/room.md).

Every answer carries `HEADERS` (a content security policy that allows only the site's own scripts,
styles, pictures and connections, and no framing; nosniff; no referrer). Every POST must be JSON
(`Content-Type: application/json`, which no cross-site form can send) and, when the browser says
where it comes from (Origin), come from the site itself: the `sites` configured (`--site`, else the
--listen address), never what the request's own Host header claims. Behind TLS (a site https://...,
or a request that came over https) the session cookie is `Secure`. A match sheet is made once per state of the copy
(`SHEETS` kept), one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from firmware_host.errors import LoginThrottled, NotAvailable
from firmware_host.room import views
from firmware_host.room.auth import SESSION_SECONDS, Sessions
from firmware_host.room.director import Director
from firmware_host.room.messages import ACTIONS, ANSWERS, ASK, COLORS
from firmware_host.room.topics import NAME

_Fields = TypeVar("_Fields")

STATIC = Path(__file__).parent / "static"
COOKIE = "room_session"
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
}
"""Sent with every answer."""
SHEETS = 16
"""Match sheets (PDF) kept made, by table, match and lines held."""
QUEUE = 64
"""Messages a slow page may have waiting before it is sent the whole room instead."""


def _sse(kind: str, doc: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps(doc, separators=(',', ':'))}\n\n"


class Broadcaster:
    """Sends what changed at the director to every open page, once a frame."""

    def __init__(self, director: Director, frame: float) -> None:
        self.director = director
        self.frame = frame
        self.clients: set[asyncio.Queue[str | None]] = set()
        self.version = 0
        self.frames = 0

    def room(self, only: list[str] | None = None) -> dict[str, Any]:
        """The room for a page: the tiles (every one, or only those of the tables named), the order of all
        tiles, the director's status, and `reset` (true: the whole room, replacing what the page shows)."""
        tiles = views.tiles(self.director)
        order = [t["table"] for t in tiles]
        if only is not None:
            tiles = [t for t in tiles if t["table"] in only]
        return {"tiles": tiles, "order": order, "status": self.director.status(), "reset": only is None}

    async def run(self) -> None:
        """Every `frame` seconds, if something changed, put one `room` message with the changed tiles in every
        page's queue; a page too far behind has its queue emptied and gets the whole room instead."""
        while True:
            await asyncio.sleep(self.frame)
            version = self.director.version
            if not self.clients:
                self.version = version
            if version == self.version:
                continue
            changed = self.director.changed_since(self.version)
            self.version = version
            message = _sse("room", self.room([t for t in changed if t]))
            self.frames += 1
            for queue in list(self.clients):
                if queue.qsize() >= QUEUE - 1:  # too slow: drop its backlog, tell it to reload the room
                    while not queue.empty():
                        queue.get_nowait()
                    queue.put_nowait(None)
                else:
                    queue.put_nowait(message)

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """Starlette's lifespan: `run` while the application serves; at shutdown, stop it and wake every open stream."""
        task = asyncio.create_task(self.run())
        try:
            yield
        finally:
            task.cancel()
            for queue in list(self.clients):
                queue.put_nowait(None)


class Pages:
    """The endpoints: the pages, their JSON, the live stream, the files, logins and rulings."""

    def __init__(self, director: Director, sessions: Sessions, broadcaster: Broadcaster,
                 sites: Sequence[str] = ()) -> None:
        self.director = director
        self.sessions = sessions
        self.broadcaster = broadcaster
        self.sites = tuple(site.rstrip("/") for site in sites)
        self._sheets: OrderedDict[tuple[str, str, int], bytes] = OrderedDict()
        self._making = threading.Lock()

    def cross_site(self, request: Request, kind: str) -> Response | None:
        """The refusal of a POST that may come from another site (None: it may not): 415 unless JSON, 403
        unless its Origin, when it has one, is the site's."""
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return JSONResponse({"error": f"a {kind} is sent as application/json"}, status_code=415)
        origin = request.headers.get("origin")
        expected = self.sites or (f"{request.url.scheme}://{request.url.netloc}",)
        if origin is not None and origin.rstrip("/") not in expected:
            return JSONResponse({"error": f"a {kind} from another site ({origin[:100]})"}, status_code=403)
        return None

    def secure(self, request: Request) -> bool:
        """Whether the page is served over TLS (the site's scheme, or the request's behind a proxy)."""
        return any(site.startswith("https://") for site in self.sites) or request.url.scheme == "https"

    @staticmethod
    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        """The endpoint serving static/`name` (no-cache: a new version shows at the next load)."""
        async def serve(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
        return serve

    def referee_of(self, request: Request) -> str | None:
        """The referee whose session cookie came with `request`, or None (a spectator)."""
        return self.sessions.referee(request.cookies.get(COOKIE))

    async def room(self, request: Request) -> Response:
        """GET /api/room, for anyone: the whole room (`Broadcaster.room`) and the referee asking (or null)."""
        return JSONResponse({**self.broadcaster.room(), "referee": self.referee_of(request)})

    async def table(self, request: Request) -> Response:
        """GET /api/table/T, for anyone: `views.table_page` and the referee asking; 404 for an unknown table."""
        try:
            page_doc = views.table_page(self.director, request.path_params["table"])
        except NotAvailable as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        return JSONResponse({**page_doc, "referee": self.referee_of(request)})

    async def results(self, request: Request) -> Response:
        """GET /api/results, for anyone: `views.results`."""
        return JSONResponse(views.results(self.director))

    async def stream(self, request: Request) -> Response:
        """GET /stream, for anyone: server-sent `room` events, the whole room first, then each frame's
        changes (the whole room again after falling behind); a comment after 15 s of quiet keeps it open."""
        broadcaster = self.broadcaster
        queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE)
        broadcaster.clients.add(queue)

        async def messages() -> AsyncIterator[str]:
            try:
                yield _sse("room", broadcaster.room())
                while True:
                    try:
                        message = await asyncio.wait_for(queue.get(), 15)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    yield message if message is not None else _sse("room", broadcaster.room())
            finally:
                broadcaster.clients.discard(queue)

        return StreamingResponse(messages(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    def download(self, request: Request) -> Response:
        """GET /download/T/M/NAME, for anyone: journal.jsonl, match.mat or sheet.pdf of match M at table T,
        as an attachment; 404 for another name, or a match or format not available. (Not async: Starlette
        runs it in a worker thread, so making a sheet does not hold up the streams.)"""
        table, match, name = (request.path_params[k] for k in ("table", "match", "name"))
        makers: dict[str, tuple[Callable[[], bytes], str]] = {
            "journal.jsonl": (lambda: views.journal_bytes(self.director, table, match), "application/jsonl"),
            "match.mat": (lambda: views.mat_text(self.director, table, match).encode("utf-8"),
                          "text/plain; charset=utf-8"),
            "sheet.pdf": (lambda: self.sheet(table, match), "application/pdf")}
        if name not in makers:
            return JSONResponse({"error": f"no file {name!r}: journal.jsonl, match.mat or sheet.pdf"}, status_code=404)
        make, kind = makers[name]
        try:
            body = make()
        except NotAvailable as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        filename = f"{table}-{match}-{name}"
        return Response(body, media_type=kind, headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    def sheet(self, table: str, match: str) -> bytes:
        """Match `match`'s sheet at `table` (`views.sheet_pdf`), made once per state of the copy (the last
        `SHEETS` kept) and one at a time: asking again costs nothing, asking many costs one core at most."""
        with self.director.lock:
            copy = self.director.store.find(table, match) if NAME.fullmatch(table) else None
            held = copy.held if copy is not None else -1
        key = (table, match, held)
        with self._making:
            if key not in self._sheets:
                self._sheets[key] = views.sheet_pdf(self.director, table, match)
                while len(self._sheets) > SHEETS:
                    self._sheets.popitem(last=False)
            self._sheets.move_to_end(key)
            return self._sheets[key]

    def picture(self, request: Request) -> Response:
        """GET /picture/T/M/flag-N.png, for anyone: flag N's evidence (`views.flag_picture`), cached an hour
        since it never changes; 404 for a table, match or flag not here, or a flag with no board to show."""
        p = request.path_params
        try:
            png = views.flag_picture(self.director, p["table"], p["match"], int(p["number"]))
        except NotAvailable as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        return Response(png, media_type="image/png", headers={"Cache-Control": "max-age=3600"})

    async def me(self, request: Request) -> Response:
        """GET /api/me: {referee}, the name the session cookie stands for, or null."""
        return JSONResponse({"referee": self.referee_of(request)})

    async def login(self, request: Request) -> Response:
        """POST /login {name, password}: sets the session cookie and answers {referee}; 400 for a body that
        is not that JSON, 401 for a wrong name or password, 403 from another site, 429 (with Retry-After)
        after too many wrong logins from this address or for this name (`auth.Sessions.login`)."""
        if (refused := self.cross_site(request, "login")) is not None:
            return refused
        try:
            doc = await request.json()
            name, password = doc["name"], doc["password"]
            if not isinstance(name, str) or not isinstance(password, str) or not name or not password:
                raise TypeError("name and password are non-empty strings")
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": "send JSON {name, password}"}, status_code=400)
        address = request.client.host if request.client else ""
        try:  # scrypt on a worker thread: the event loop serves every page meanwhile
            token = await run_in_threadpool(self.sessions.login, name[:200], password[:1000], address)
        except LoginThrottled as exc:
            return JSONResponse({"error": str(exc)}, status_code=429,
                                headers={"Retry-After": str(math.ceil(exc.retry_after))})
        if token is None:
            return JSONResponse({"error": "wrong name or password"}, status_code=401)
        response = JSONResponse({"referee": name})
        response.set_cookie(COOKIE, token, max_age=SESSION_SECONDS, httponly=True, samesite="strict",
                            secure=self.secure(request))
        return response

    async def logout(self, request: Request) -> Response:
        """POST /logout: ends the session (if any), deletes the cookie, answers {referee: null}; 415 or 403
        for one that may come from another site (`cross_site`)."""
        if (refused := self.cross_site(request, "logout")) is not None:
            return refused
        self.sessions.logout(request.cookies.get(COOKIE))
        response = JSONResponse({"referee": None})
        response.delete_cookie(COOKIE, httponly=True, samesite="strict", secure=self.secure(request))
        return response

    async def ruling(self, request: Request) -> Response:
        """POST /api/table/T/ruling {action, flag, player, seconds}, for a referee logged in: sends the ruling
        (`Director.rule`) and answers {id, referee, action}; 403 for a spectator or from another site,
        400 for a body that is not a ruling, 404 for an unknown table."""
        referee = self.referee_of(request)
        if referee is None:
            return JSONResponse({"error": "spectators cannot act: log in as a referee"}, status_code=403)
        posted = await self._posted(request, "ruling", _ruling_fields)
        if isinstance(posted, Response):
            return posted
        table, (action, flag, player, seconds) = posted
        sent = self.director.rule(table, referee, action, flag=flag, player=player, seconds=seconds)
        return JSONResponse({"id": sent.id, "referee": referee, "action": action})

    async def decision(self, request: Request) -> Response:
        """POST /api/table/T/decision {player, code, ask, answer}, for a chouette member with their phone code:
        sends the decision (`Director.decide`) and answers {id, player, answer}; 403 for a code that is not
        `player`'s at this table now (a spectator, another member), for a player who is a bot, or from another
        site, 400 for a body that is not a decision, 404 for an unknown table. Whether it is applied is the
        table's to say (the table page shows its answer)."""
        posted = await self._posted(request, "decision", _decision_fields)
        if isinstance(posted, Response):
            return posted
        table, (player, code, ask, answer) = posted
        if (level := self.director.bot_level(table, player)) is not None:
            return JSONResponse({"error": f"{player} is a bot ({level}) at table {table}: it decides at the table, "
                                          "and no phone decides for it"}, status_code=403)
        if not self.director.member_may_decide(table, player, code):
            return JSONResponse({"error": f"that is not {player}'s code at table {table}: only {player} may decide "
                                          f"for {player}"}, status_code=403)
        sent = self.director.decide(table, player, ask, answer)
        return JSONResponse({"id": sent.id, "player": player, "answer": answer})

    async def _posted(self, request: Request, kind: str,
                      fields: Callable[[Any], _Fields]) -> tuple[str, _Fields] | Response:
        """The table and the fields of a posted `kind` ("ruling", "decision"), or the answer refusing it:
        403 from another site, 400 for a body that is not one, 404 for a table not in this room."""
        if (refused := self.cross_site(request, kind)) is not None:
            return refused
        table = request.path_params["table"]
        try:
            parsed = fields(await request.json())
        except (ValueError, TypeError, KeyError) as exc:
            return JSONResponse({"error": f"not a {kind}: {exc}"}, status_code=400)
        if not NAME.fullmatch(table) or table not in self.director.tables:
            return JSONResponse({"error": f"no table {table!r} in this room"}, status_code=404)
        return table, parsed


class SecurityHeaders:
    """ASGI middleware: `HEADERS` on every answer (streams included)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.raw = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in HEADERS.items()]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.raw]}
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(director: Director, sessions: Sessions, *, frame: float = 0.05, sites: Sequence[str] = ()) -> Starlette:
    """The director's web application; `sites` are the origins browsers reach it at (scheme://host[:port], from
    --site or --listen): the only ones a POST may come from (none given: the address the request was sent to,
    for a test's server)."""
    broadcaster = Broadcaster(director, frame)
    pages = Pages(director, sessions, broadcaster, sites)
    routes = [
        Route("/", pages.page("index.html")), Route("/table/{table}", pages.page("table.html")),
        Route("/results", pages.page("results.html")), Mount("/static", StaticFiles(directory=STATIC)),
        Route("/api/room", pages.room), Route("/api/table/{table}", pages.table), Route("/api/results", pages.results),
        Route("/api/me", pages.me), Route("/stream", pages.stream),
        Route("/download/{table}/{match}/{name}", pages.download),
        Route("/picture/{table}/{match}/flag-{number:int}.png", pages.picture),
        Route("/login", pages.login, methods=["POST"]), Route("/logout", pages.logout, methods=["POST"]),
        Route("/api/table/{table}/ruling", pages.ruling, methods=["POST"]),
        Route("/api/table/{table}/decision", pages.decision, methods=["POST"]),
    ]
    app = Starlette(routes=routes, lifespan=broadcaster.lifespan, middleware=[Middleware(SecurityHeaders)])
    app.state.broadcaster = broadcaster
    return app


def _ruling_fields(doc: Any) -> tuple[str, int | None, str | None, float]:
    if not isinstance(doc, dict):
        raise TypeError("a JSON object {action, flag, player, seconds}")
    action, flag, player, seconds = doc["action"], doc.get("flag"), doc.get("player"), doc.get("seconds", 0)
    if action not in ACTIONS:
        raise ValueError(f"action {action!r} is not one of {', '.join(ACTIONS)}")
    if flag is not None and (not isinstance(flag, int) or isinstance(flag, bool) or flag < 1):
        raise ValueError(f"flag {flag!r} is not a flag number")
    if player is not None and player not in COLORS:
        raise ValueError(f"player {player!r} is not white or black")
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not math.isfinite(seconds) \
            or not 0 <= seconds <= 3600:
        raise ValueError(f"seconds {seconds!r} is not 0 to 3600")
    return str(action), flag, player, float(seconds)


def _decision_fields(doc: Any) -> tuple[str, str, str, str]:
    if not isinstance(doc, dict):
        raise TypeError("a JSON object {player, code, ask, answer}")
    player, code, ask, answer = doc["player"], doc["code"], doc["ask"], doc["answer"]
    if not isinstance(player, str) or not 0 < len(player) <= 64:
        raise ValueError(f"player {player!r} is not a name")
    if not isinstance(code, str) or not 0 < len(code) <= 64:
        raise ValueError("code is not a phone code")
    if not isinstance(ask, str) or not ASK.fullmatch(ask):
        raise ValueError(f"ask {ask!r} is not a decision asked")
    if answer not in ANSWERS:
        raise ValueError(f"answer {answer!r} is not one of {', '.join(ANSWERS)}")
    return player, code, ask, str(answer)
