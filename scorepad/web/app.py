"""`scorepad serve`: the session as a live scoreboard for the whole table.

An ASGI app (Starlette; uvicorn runs it; server-sent events by sse-starlette), all of it the
optional extra `scorepad[serve]`, imported only by `serve`. It reads and writes the session only
through the session API (`Session`), so a hand entered from a phone takes the same lock, the same
checks and the same atomic append as `scorepad hand` in the terminal.

- `GET /`: one page (standings, the last hands, who deals, doublers, the rules, a running-totals
  chart) that updates itself from `/events`. Everything it needs is in the page: no fonts or
  scripts from elsewhere.
- `GET /api/state`: the board as JSON (the keys of `standings --format json`, and more).
- `GET /events`: server-sent events, one `state` event per change of the file, whoever made it
  (a watcher polls the file's size and time); each event lists the changes since the one before.
- `POST /api/hands` (with `--allow-entry` and the token): record a hand from a JSON object of the
  inputs `hand` takes. An `Idempotency-Key` header makes a retried entry count once.
- `POST /api/undo` (the same): undo the last change, as `scorepad undo` (an optional `reason`);
  the same header makes a retried undo undo once. `POST /api/redo`: make again what the last
  undo took back, as `scorepad redo`. `GET /api/entry`: whether a token may enter.
- `GET /api/hands/N`: what the page's hand view offers for hand N; `GET /api/hands/N/analysis`:
  the open-card analysis of a hand `replay --record` recorded (its hand file found by digest in
  the board's folders), one at a time in a worker thread, kept by digest (`analyses`).

Given a rate (`serve --rate`), the state carries the night in money and its settlement, worked
out by `settlement` as `settle --rate` does; `entry` says which inputs the next deal allows.

This module is the app: its routes, the entry's token, the page, and the server (`server_config`).
The night followed as the file grows and the event stream are `follow`'s; an entry's JSON
turned into a hand, and recorded, is `records`'.

Each request reads and writes through a `Session` of its own (a `Session` holds the descriptor it
locked while it writes, so one shared across the server's threads would close a file under another
request's read). The board answers only to the host names it was told (a DNS-rebinding page cannot
read it), and `server_config` bounds what slow or idle clients can hold: see `_GuardedH11`.

What every live board shares is public, for the hall's board of a tournament (`hall.py`):
`follow.LiveBoard` (the host names, the watcher, the event stream's clients), `live_app`
(`/`, `/api/state`, `/events` and the host check), `page_html` and `server_config`.
"""

import asyncio
import functools
import hashlib
import json
import logging
import os
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from importlib import resources
from pathlib import Path
from typing import Any

import h11
import uvicorn
from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from .. import i18n
from ..errors import ScorepadError
from ..games import TABLE as GAME_TABLE
from ..i18n import N_
from ..scoring.called import ORDER as CALLS
from ..scoring.called import called_name
from ..session import Session, Waiting
from ..tournament_store import round_hands
from .analyses import Analyses, default_folders
from .follow import POLL, BoardNight, LiveBoard, MoneyRate, changes_text, rows_since
from .records import (
    MAX_BODY,
    BadRequest,
    idempotency_key,
    json_body,
    record_hand,
    redo_change,
    undo_change,
    worded_entry,
)
from .throttle import Throttle

ENTRY_WAIT = 10.0  # seconds an entry waits for another scorepad's lock
ENTRY_KEYS = 1024  # the Idempotency-Keys remembered (the newest), with what their entry got
HEAD_TIMEOUT = 10.0  # seconds a client has to send a request's head (its line and headers)
IDLE_TIMEOUT = 5  # seconds a connection may sit idle between requests (uvicorn's keep-alive)
MAX_CONNECTIONS = 512  # open connections at once (the most; less where descriptors are scarce)
LOG_REPEATS = 5  # the same log message at most this often a minute; the rest are counted
MIN_TOKEN = 16  # the fewest characters of a token given (`serve --token`)

log = logging.getLogger("scorepad.serve")


class Board(LiveBoard):
    """One session served: the latest state, the clients listening, the entry token."""

    def __init__(
        self,
        path: Path,
        allow_entry: bool = False,
        token: str | None = None,
        poll: float = POLL,
        hosts: Sequence[str] = (),
        money: MoneyRate | None = None,
        hands: Sequence[Path] = (),
    ):
        super().__init__(poll, hosts)
        self.path = Path(path)
        # (the hand files of hands `replay --record` recorded: `serve --hands`, else beside it)
        self.analyses = Analyses(self.session, hands or default_folders(self.path), self.look)
        self.most_hands = round_hands(self.path)  # a tournament table: its round's hands
        self.money = money
        self.allow_entry = allow_entry
        self.token = token or secrets.token_urlsafe(18)
        self.throttle = Throttle()  # (wrong tokens, by the client's address)
        self._offset = 0
        self.night = BoardNight()
        # Idempotency-Key -> (the digest of its body, what its entry was answered)
        self._entries: OrderedDict[str, tuple[str, asyncio.Future[tuple[int, Any]]]] = OrderedDict()

    def session(self) -> Session:
        """A handle on the session for one request (see the module's docstring: never shared
        across threads)."""
        return Session(self.path, Waiting(ENTRY_WAIT), self.most_hands)

    def look(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def _states(self, languages: Sequence[str]) -> dict[str, dict[str, Any]]:
        try:
            return self.night.states(self.session(), str(self.path), self.money, languages)
        except ScorepadError as exc:
            english = str(exc)
        states = {"en": {"error": english}}
        for language in languages:  # (the error in each reader's language: read once more)
            if language != "en":
                states[language] = {"error": self._error_in(language) or english}
        return states

    def _error_in(self, language: str) -> str | None:
        """What is wrong with the session, worded in `language` (None once nothing is)."""
        with i18n.speaking(language):
            try:
                with self.session().reading() as reading:
                    reading.night()
            except ScorepadError as exc:
                return str(exc)
        return None

    async def news(self, before: Any, seen: Any, languages: Sequence[str]) -> dict[str, Any]:
        """The state, and the changes appended since the last event (as `log` words them), in
        each language."""
        rewritten = before is not None and seen is not None and seen[0] != before[0]
        offset = 0 if rewritten else self._offset
        if rewritten or seen is None or (before is not None and seen[1] <= before[1]):
            self.night.forget()  # (not appended to: another file, or changed in place)
        states = await run_in_threadpool(self._states, languages)
        rows, end = await run_in_threadpool(rows_since, self.session(), offset)
        if not self.event:  # the first look: the rows so far are not news
            rows = []
        self._offset = end
        news = {}
        for language in languages:
            changes = await run_in_threadpool(changes_text, rows, language) if rows else []
            news[language] = {"changes": changes, "rewritten": rewritten, "state": states[language]}
        return news

    def app(self) -> Starlette:
        return create_app(self)

    def authorized(self, request: Request) -> bool:
        given = request.headers.get("authorization", "")
        scheme, _unused, token = given.partition(" ")
        # as bytes: compare_digest refuses text that is not ASCII (headers arrive as Latin-1)
        return scheme.lower() == "bearer" and secrets.compare_digest(
            token.strip().encode("latin-1"), self.token.encode("latin-1")
        )

    async def enter(
        self, key: str | None, data: dict[str, Any], action: str = "hand", language: str = "en"
    ) -> tuple[int, Any]:
        """Make the entry `data` (a hand, or an `undo`) once per Idempotency-Key: a retry (or a
        copy sent at the same time) of an entry that was made gets the first answer again, and
        writes nothing (an undo sent twice undoes once). An entry that was refused is not
        remembered: nothing was written, so it may be sent again. A refusal says why in
        `language` (the request's)."""
        if key is None:
            return await self._record(data, action, language)
        digest = hashlib.sha256(json.dumps([action, data], sort_keys=True).encode()).hexdigest()
        if key in self._entries:
            first, answer = self._entries[key]
            if first != digest:
                message = N_("this Idempotency-Key was sent with another entry")
                return 422, {"error": in_language(language, message)}
            return await asyncio.shield(answer)
        answer = asyncio.get_running_loop().create_future()
        self._entries[key] = (digest, answer)
        while len(self._entries) > ENTRY_KEYS:
            self._entries.popitem(last=False)
        try:
            result = await self._record(data, action, language)
        except BaseException:
            self._entries.pop(key, None)
            answer.cancel()
            raise
        if result[0] != 201:
            self._entries.pop(key, None)
        answer.set_result(result)
        return result

    async def _record(
        self, data: dict[str, Any], action: str = "hand", language: str = "en"
    ) -> tuple[int, Any]:
        """Make the entry; its answer carries its text in every language the board words its
        events in (`worded`, which `worded_entry` takes out for the reader), and a refusal
        says why in `language`."""
        make = {"undo": undo_change, "redo": redo_change}.get(action, record_hand)
        try:
            recorded = await run_in_threadpool(
                make, self.session(), self.path, data, tuple(self.languages), language
            )
        except BadRequest as exc:
            return exc.status, {"error": exc.message}
        await self.refresh()
        return 201, recorded


PAGE_MESSAGE = re.compile("⟦(.*?)⟧", re.DOTALL)
"""A message of a page (`⟦Standings⟧` in board.html, live.js): written in the page's language."""


def page_html(name: str, settings: dict[str, Any], language: str = "en") -> str:
    """A page of `scorepad.web`, whole: what every board's page shares written into it (the
    style of `live.css` at `/*LIVE_CSS*/`, the script of `live.js` at `/*LIVE_JS*/`) and its
    settings (at `/*SETTINGS*/{}`), so that it needs nothing from elsewhere; each of its
    messages (`⟦...⟧`) in `language`."""
    folder = resources.files("scorepad.web")
    text = folder.joinpath(name).read_text("utf-8")
    for mark, shared in (("/*LIVE_CSS*/", "live.css"), ("/*LIVE_JS*/", "live.js")):
        text = text.replace(mark, folder.joinpath(shared).read_text("utf-8"), 1)
    text = text.replace("/*SETTINGS*/{}", json.dumps(settings))
    if language == "en":
        return PAGE_MESSAGE.sub(lambda m: m[1], text)
    catalog = i18n.catalog(language)
    text = text.replace('<html lang="en">', f'<html lang="{language}">', 1)
    return PAGE_MESSAGE.sub(lambda m: catalog.gettext(m[1]), text)


@functools.cache
def hand_words(language: str) -> dict[str, dict[str, str]]:
    """What the board's hand view words as the language says it: the games (`partner` is a
    Sauspiel in German) and what was called (the Gras-Sau), by the names the state gives."""
    with i18n.speaking(language):
        return {
            "games": {game.name: i18n.game_word(game.name) for game in GAME_TABLE},
            "called": {called: called_name(called) for called in CALLS},
        }


def page_language(board: LiveBoard, accept: str | None) -> str:
    """The language of a board's page: the board's (`serve --lang`), else the first the
    browser asks for (`Accept-Language`, by its weights) that scorepad speaks, else English."""
    return board.language or accepted_language(accept) or "en"


def accepted_language(accept: str | None) -> str | None:
    """The first language a client asks for (`Accept-Language`, by its weights) that scorepad
    speaks (None: none of them)."""
    wanted = []
    for position, item in enumerate((accept or "").split(",")):
        tag, _semi, weight = item.strip().partition(";")
        try:
            q = float(weight.strip().removeprefix("q=")) if weight else 1.0
        except ValueError:
            q = 0.0
        code = tag.strip().split("-")[0].lower()
        if code in i18n.LANGUAGES and q > 0:
            wanted.append((-q, position, code))
    return min(wanted)[2] if wanted else None


def reader_language(request: Request) -> str:
    """The language a request of the API asks its text in: `?lang=` (a board's page asks in
    its own), else English, as a program reads it."""
    return request.query_params.get("lang") or "en"


def entry_language(board: LiveBoard, request: Request) -> str:
    """The language an entry's answer (and a refusal's reason) is worded in: the request's
    `?lang=` (a board's page asks in its own), else its `Accept-Language`, else the board's
    (`serve --lang`), else English. Its keys are English in every language."""
    return (
        request.query_params.get("lang")
        or accepted_language(request.headers.get("accept-language"))
        or board.language
        or "en"
    )


def in_language(language: str, message: str) -> str:
    """A message of the board's own (marked `N_`) in `language`."""
    return message if language == "en" else i18n.catalog(language).gettext(message)


def live_app(
    board: LiveBoard, page: Callable[[str], str], routes: Sequence[Route] = ()
) -> Starlette:
    """The app every live board is: `GET /` (the page `page` makes), `GET /api/state` (the
    latest state; 500 when it is an error), `GET /events` (server-sent events, a `state` event
    a change, the latest on connecting) and `routes`, answering only to the board's host
    names; the watcher runs while the app does."""

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await board.refresh()
        task = asyncio.create_task(board.watch())
        try:
            yield
        finally:
            task.cancel()

    async def get_page(request: Request) -> Response:
        language = board.want(page_language(board, request.headers.get("accept-language")))
        return HTMLResponse(
            page(language),
            headers={
                "cache-control": "no-store",
                "content-language": language,
                "vary": "accept-language",
            },
        )

    async def api_state(request: Request) -> Response:
        language = board.want(reader_language(request))
        await board.refresh()
        state = board.event_in(language)["state"]
        return JSONResponse(state, status_code=500 if "error" in state else 200)

    async def events(request: Request) -> Response:
        language = board.want(reader_language(request))
        if language not in board.events:
            await board.refresh()
        queue = board.subscribe(language)

        async def stream() -> AsyncIterator[dict[str, str]]:
            try:
                first = board.event_in(language)
                yield {"event": "state", "data": board.text_of(first)}
                while (event := await queue.get()) is not None:
                    yield {"event": "state", "data": board.text_of(event)}
            finally:
                board.unsubscribe(queue)

        return EventSourceResponse(stream(), ping=15, headers={"cache-control": "no-store"})

    async def problem(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 500)
        detail = getattr(exc, "detail", "") or "the board could not answer"
        return JSONResponse({"error": str(detail)}, status_code=status)

    return Starlette(
        routes=[
            Route("/", get_page, methods=["GET"]),
            Route("/api/state", api_state, methods=["GET"]),
            Route("/events", events, methods=["GET"]),
            *routes,
        ],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(board.hosts))],
        lifespan=lifespan,
        exception_handlers={HTTPException: problem},
    )


def create_app(board: Board) -> Starlette:
    """The ASGI app serving `board`: the live board's routes, and the entry's."""

    def check_entry(request: Request, language: str) -> None:
        """Entry is on and the request gives the token; an address that sent too many wrong
        ones waits (429) before a token of its is even looked at (`throttle`)."""
        if not board.allow_entry:
            message = N_("entry is off: start the board with --allow-entry")
            raise BadRequest(403, in_language(language, message))
        address = request.client.host if request.client else ""
        wait = board.throttle.wait(address)
        if not wait:
            if board.authorized(request):
                board.throttle.right(address)
                return
            wait = board.throttle.wrong(address)
            count = board.throttle.count(address)
            after = f": it waits {wait} s" if wait else ""
            log.warning("a wrong entry token from %s (%d in a row)%s", address, count, after)
        if wait:
            message = N_(
                "too many wrong tokens from this address: wait {seconds} s before the next"
            )
            text = in_language(language, message).format(seconds=wait)
            raise BadRequest(429, text, {"retry-after": str(wait)})
        message = N_("entry needs the token: Authorization: Bearer TOKEN")
        raise BadRequest(403, in_language(language, message))

    async def post(request: Request, action: str) -> Response:
        language = board.want(entry_language(board, request))
        try:
            check_entry(request, language)
            key = idempotency_key(request)
            data = await json_body(request)
        except BadRequest as exc:
            return JSONResponse({"error": exc.message}, exc.status, exc.headers)
        except ClientDisconnect:  # (gone before its body arrived: nobody to answer, no error)
            return Response(status_code=400)
        status, body = await board.enter(key, data, action, language)
        return JSONResponse(worded_entry(body, language), status_code=status)

    async def post_hand(request: Request) -> Response:
        return await post(request, "hand")

    async def post_undo(request: Request) -> Response:
        return await post(request, "undo")

    async def post_redo(request: Request) -> Response:
        return await post(request, "redo")

    async def get_entry(request: Request) -> Response:
        """Whether this token may enter (the page shows its form only then)."""
        try:
            check_entry(request, board.want(entry_language(board, request)))
        except BadRequest as exc:
            return JSONResponse({"error": exc.message}, exc.status, exc.headers)
        return JSONResponse({"entry": True})

    return live_app(
        board,
        lambda language: page_html(
            "board.html", {"entry": board.allow_entry, "words": hand_words(language)}, language
        ),
        [
            *hand_routes(board),
            Route("/api/hands", post_hand, methods=["POST"]),
            Route("/api/undo", post_undo, methods=["POST"]),
            Route("/api/redo", post_redo, methods=["POST"]),
            Route("/api/entry", get_entry, methods=["GET"]),
        ],
    )


def hand_routes(board: Board) -> list[Route]:
    """The hand view's routes: `GET /api/hands/N` (what it offers for hand N) and `GET
    /api/hands/N/analysis` (its open-card analysis: `analyses`)."""

    def hand_number(request: Request) -> int | None:
        """The hand a request's path names, when the session has it."""
        number = int(request.path_params["number"])
        return number if 1 <= number <= board.event.get("state", {}).get("last_hand", 0) else None

    def no_hand(request: Request, language: str) -> Response:
        message = N_("there is no hand {hand} in the session")
        text = in_language(language, message).format(hand=request.path_params["number"])
        return JSONResponse({"error": text}, 404)

    async def answer(request: Request, make: Callable[[int, str], Awaitable[Response]]) -> Response:
        """A hand's answer: the board read again, the hand looked up (404 when the session
        has no such hand), then `make(number, language)` (500 when the session cannot be
        read: the state says so too)."""
        language = board.want(reader_language(request))
        await board.refresh()
        number = hand_number(request)
        if number is None:
            return no_hand(request, language)
        try:
            return await make(number, language)
        except ScorepadError as exc:
            return JSONResponse({"error": str(exc)}, 500)

    async def about(number: int, language: str) -> Response:
        return JSONResponse(await asyncio.to_thread(board.analyses.about, number, language))

    async def analysis(number: int, language: str) -> Response:
        found = await board.analyses.analysis(number, language)
        return JSONResponse(found.body, found.status, found.headers)

    async def get_hand(request: Request) -> Response:
        """What the hand view offers for a hand: its hand file, and whether it is analysed."""
        return await answer(request, about)

    async def get_analysis(request: Request) -> Response:
        """A replayed hand's open-card analysis (`analyze --format json`'s object of a hand)."""
        return await answer(request, analysis)

    return [
        Route("/api/hands/{number:int}", get_hand, methods=["GET"]),
        Route("/api/hands/{number:int}/analysis", get_analysis, methods=["GET"]),
    ]


# --- serving -------------------------------------------------------------------------------------


class _GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the two limits it lacks, so that slow clients cannot
    hold the board: a request's head must arrive within HEAD_TIMEOUT of the connection (or of
    the answer before it, on a kept-alive one), and past `max_connections` open connections a
    new one closes the one that has waited longest for a request's head, or itself when every
    connection is busy (a listener to /events, a request being answered).

    uvicorn's own limits, which `server_config` sets too, do not do these jobs: its keep-alive
    timeout (`timeout_keep_alive`) starts only once an answer is sent, and each byte received
    stops it, so a client that sends nothing, or its head a byte at a time, is never cut off;
    and `limit_concurrency` closes no connection: past it, it answers 503 to every request
    while slow connections fill the count."""

    max_connections = MAX_CONNECTIONS
    _head_timer: asyncio.TimerHandle | None = None
    _waiting_since: float | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()
        # (one closed a moment ago is still among them until its loss is told: not counted,
        # else a burst of connections would close that one again and again)
        open_now = [c for c in self.connections if not c.transport.is_closing()]
        if len(open_now) > self.max_connections:
            waiting = [
                c
                for c in open_now
                if isinstance(c, _GuardedH11) and c is not self and c._waiting_since is not None
            ]
            oldest = min(waiting, key=lambda c: c._waiting_since or 0.0, default=self)
            oldest.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._no_wait()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self._waiting_since is not None and self.conn.their_state is not h11.IDLE:
            self._no_wait()  # (its head is in)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_head()

    def _await_head(self) -> None:
        self._no_wait()
        self._waiting_since = time.monotonic()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self.transport.close)

    def _no_wait(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self._waiting_since = None


class _FewRepeats(logging.Filter):
    """Lets the same message through at most LOG_REPEATS times a minute and counts the rest
    (a flood of clients must not become a flood of log: a full descriptor table made asyncio
    log every failed accept)."""

    def __init__(self) -> None:
        super().__init__()
        self.minute = 0
        self.seen: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        minute = int(time.monotonic() // 60)
        if minute != self.minute:
            dropped = sum(max(0, n - LOG_REPEATS) for n in self.seen.values())
            self.minute, self.seen = minute, {}
            if dropped:
                record.msg = f"({dropped} log lines alike were left out) {record.msg}"
        key = f"{record.name}:{record.msg}"
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key] <= LOG_REPEATS


def bound_logs() -> None:
    """Bound what the server's and asyncio's loggers can write (see `_FewRepeats`)."""
    for name in ("asyncio", "uvicorn.error", "uvicorn.access", "sse_starlette", "scorepad.serve"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _FewRepeats) for f in logger.filters):
            logger.addFilter(_FewRepeats())


def connection_limit() -> int:
    """MAX_CONNECTIONS, or fewer where the process may open fewer descriptors (half of them:
    the session, the log and the server need some, and a connection never waits on a full
    table). The soft limit is raised to the hard one first, where it is lower."""
    try:
        import resource
    except ImportError:  # (Windows: no such limit to raise)
        return MAX_CONNECTIONS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with suppress(ValueError, OSError):
            want = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
            if want > soft:
                resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
                soft = want
    return max(16, min(MAX_CONNECTIONS, soft // 2))


def server_config(board: LiveBoard, **options: Any) -> uvicorn.Config:
    """The server for `board` (either live board), with a bounded log: uvicorn's own limits
    where they do the job (IDLE_TIMEOUT idle after an answer, `timeout_keep_alive`; a request's
    head of at most MAX_BODY bytes, `h11_max_incomplete_event_size`; 2 s for the requests under
    way as it stops), and `_GuardedH11`'s where uvicorn has none (a request's head within
    HEAD_TIMEOUT, at most `connection_limit()` open connections). A body is read up to
    MAX_BODY by the entry (`records.json_body`)."""
    bound_logs()
    limit = connection_limit()
    # (listeners never take more than half the connections: the rest answer requests)
    board.max_listeners = max(1, min(board.max_listeners, limit // 2))
    guarded = type("GuardedH11", (_GuardedH11,), {"max_connections": limit})
    return uvicorn.Config(
        board.app(),
        http=guarded,
        log_level="warning",
        lifespan="on",
        timeout_keep_alive=IDLE_TIMEOUT,
        h11_max_incomplete_event_size=MAX_BODY,
        timeout_graceful_shutdown=2,
        **options,
    )
