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

Given a rate (`serve --rate`), the state carries the night in money and its settlement, worked
out by `settlement` as `settle --rate` does; `entry` says which inputs the next deal allows.

Each request reads and writes through a `Session` of its own (a `Session` holds the descriptor it
locked while it writes, so one shared across the server's threads would close a file under another
request's read). The board answers only to the host names it was told (a DNS-rebinding page cannot
read it), and `server_config` bounds what slow or idle clients can hold: see `_GuardedH11`.

What every live board shares is here too, public, for the hall's board of a tournament
(`hall.py`): `LiveBoard` (the host names, the watcher, the event stream's clients),
`live_app` (`/`, `/api/state`, `/events` and the host check), `page_html` and `server_config`.
"""

import asyncio
import hashlib
import json
import logging
import os
import re
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractContextManager, asynccontextmanager, nullcontext, suppress
from decimal import Decimal
from importlib import resources
from operator import methodcaller
from pathlib import Path
from typing import Any, NamedTuple

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
from ..errors import ScorepadError, wording
from ..games import BY_NAME as GAMES
from ..games import WonBy
from ..hands import OPTIONS, Type, build_hand, check_doubler
from ..i18n import N_
from ..ledger import Counts, HandView, Ledger
from ..pot import paid_out
from ..render import Money
from ..reports import (
    PlayerCounts,
    bock_owed,
    bock_record,
    change_text,
    hand_record,
    next_hand,
    played_text,
    recorded_record,
    rules_in_force,
    standings_record,
)
from ..rules import Rules
from ..scoring import seat
from ..session import Checkpoint, Session, Waiting, refusal, said_again
from ..settlement import fewest_payments, money_balances, rate_text
from ..store.format import Row, check_note
from ..store.snapshot import Head

MAX_BODY = 16 * 1024  # the largest request body accepted, in bytes
POLL = 0.2  # seconds between looks at the session file
RECENT = 12  # the last hands the board shows
SERIES_POINTS = 300  # the most points of each player's line on the chart
MAX_CHANGES = 1 << 20  # the most bytes of new rows worded for one event
CLIENT_BACKLOG = 256  # events kept for a slow client before it is dropped (it reconnects)
ENTRY_WAIT = 10.0  # seconds an entry waits for another scorepad's lock
ENTRY_KEYS = 1024  # the Idempotency-Keys remembered (the newest), with what their entry got
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")  # the names the board always answers to
HEAD_TIMEOUT = 10.0  # seconds a client has to send a request's head (its line and headers)
IDLE_TIMEOUT = 5  # seconds a connection may sit idle between requests (uvicorn's keep-alive)
MAX_CONNECTIONS = 512  # open connections at once (the most; less where descriptors are scarce)
LOG_REPEATS = 5  # the same log message at most this often a minute; the rest are counted

# The inputs of a hand, as POST /api/hands takes them (`hands.INPUTS`: the same names), and the
# JSON type of each; a doubler (a thrown-in hand, which has no inputs but the dealer) and a note.
_JSON_TYPES: dict[str, type] = {
    Type.NAME: str, Type.NAMES: list, Type.FLAG: bool, Type.INT: int, Type.COUNT: int,
    Type.COUNTS: dict, Type.GAME: str, Type.KIND: bool,
}  # fmt: skip
FIELDS: dict[str, type] = {
    **{i.name: _JSON_TYPES[i.type] for i in OPTIONS},
    "out": list,
    "doubler": bool,
    "pot": bool,
    "note": str,
}


class BadRequest(Exception):
    """A request the board answers with a JSON error and this status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


# --- the board's state --------------------------------------------------------------------------


class _Series:
    """Each player's running total for the chart, at most SERIES_POINTS points a player (every
    other point is dropped when it fills, so a long night keeps its shape).

    The hands since the last point are added up when the next is made (`_add_up`), a player
    at a time over them, not player by player a hand: a pass tells the series of every hand
    of the night."""

    def __init__(self, players: Sequence[str]):
        self.players = tuple(players)
        self.running = dict.fromkeys(self.players, 0)  # the totals at the last point
        self.hands: list[int] = [0]
        self.points: list[tuple[int, ...]] = [(0,) * len(self.players)]
        self.step = 1
        self.seen = 0
        self.since: list[Mapping[str, int]] = []  # the points of each hand since the last point

    def add(self, view: HandView) -> None:
        if view.void:
            return
        self.since.append(view.entry.deltas)
        self.seen += 1
        if self.seen % self.step:
            return
        _add_up(self.running, self.since)
        self.since.clear()
        self.hands.append(view.number)
        self.points.append(tuple(self.running.get(p, 0) for p in self.players))
        if len(self.hands) > SERIES_POINTS:
            self.hands, self.points = self.hands[::2], self.points[::2]
            self.step *= 2

    def copy(self) -> "_Series":
        """The series as it stands (to go on from later: the board keeps it with the night)."""
        made = _Series(self.players)
        made.running = dict(self.running)
        made.hands, made.points = list(self.hands), list(self.points)
        made.step, made.seen, made.since = self.step, self.seen, list(self.since)
        return made

    def finish(self, last: int) -> dict[str, Any]:
        """The chart's series, up to hand `last` (the series itself goes on unchanged)."""
        hands, points = self.hands, self.points
        if hands[-1] != last and self.seen:
            running = dict(self.running)
            _add_up(running, self.since)
            hands = [*hands, last]
            points = [*points, tuple(running.get(p, 0) for p in self.players)]
        return {
            "hands": hands,
            "totals": {p: [pt[i] for pt in points] for i, p in enumerate(self.players)},
        }


def _add_up(running: dict[str, int], hands: Sequence[Mapping[str, int]]) -> None:
    """Add each hand's points to the running totals of the players shown (a column of the
    file each: no hand has points for anyone else), a player at a time."""
    for player in running:
        running[player] += sum(map(methodcaller("get", player, 0), hands))


class MoneyRate(NamedTuple):
    """What the board settles in: money per game point (a Decimal) and its currency symbol."""

    rate: Decimal
    currency: str = "$"


def money_record(ledger: Ledger, money: MoneyRate) -> dict[str, Any]:
    """The night in money, as `settle --rate` works it out (`settlement`): each balance and the
    fewest payments, amounts as text to the cent (as `settle --format json`), and as shown. A
    race night settles no money (`race`)."""
    record: dict[str, Any] = {
        "rate": str(money.rate),
        "currency": money.currency,
        "rate_text": rate_text(money.rate, money.currency),
    }
    if not ledger.rules.zero_sum:
        return {**record, "race": True}
    points, payout = paid_out(ledger.totals, ledger.pot, ledger.seated)
    balances = money_balances(points, money.rate)
    return {
        **record,
        "race": False,
        **({"pot": payout._asdict()} if ledger.pot else {}),
        "balances": {p: f"{v:.2f}" for p, v in balances.items()},
        "shown": {p: str(Money(v, money.currency)) for p, v in balances.items()},
        "payments": [
            {**pay.to_dict(), "shown": str(Money(pay.amount, money.currency))}
            for pay in fewest_payments(balances)
        ],
    }


def entry_record(ledger: Ledger) -> dict[str, Any]:
    """What the board's entry form offers for the next hand: the kinds of hand the rules deal
    (`hand`, and the all-pass kind), the inputs of `hands.OPTIONS` that this deal and these rules
    allow (no partners where the picker plays alone, no Stoss at Sheepshead), the active players,
    the most tricks and partners, and the Schafkopf games."""
    rules: Rules = ledger.rules
    seating = seat(rules, ledger.seated, ledger.next_dealer)
    deal = seating.deal
    inputs = ["picker", "points", "tricks"]
    games: list[dict[str, Any]] = []
    if rules.is_schafkopf:
        inputs += ["game", "partners", "runs", "knocks"]
        names = [g for g in rules.game_values if g in GAMES and GAMES[g].declared]
        for name in sorted(names, key=lambda g: (g != "partner", g)):
            game = GAMES[name]
            games.append(
                {"name": name, "partner": game.partner, "no_trick": game.won_by == WonBy.NO_TRICK}
            )
        if rules.cracks:
            inputs.append("stoss")
    else:
        if deal.partners:
            inputs += ["partners", "alone"]
        if rules.cracks:
            inputs += ["crack", "recrack"]
        if rules.all_pass == "forced":
            inputs.append("forced")
    if rules.blitz:
        inputs.append("blitz")
    if rules.last_hand_doubled:
        inputs.append("last")
    kinds = ["hand"]
    if rules.all_pass in ("leaster", "doubler", "schwanzer", "ramsch", "pot"):
        kinds.append(rules.all_pass)
    known = {i.name for i in OPTIONS}
    return {
        "kinds": kinds,
        "inputs": [i.name for i in OPTIONS if i.name in inputs and i.name in known],
        "players": list(seating.order),
        "dealer": seating.dealer,
        "partners": deal.partners if not rules.is_schafkopf else 1,
        "tricks": deal.cards,
        "max_stoss": rules.max_stoss if rules.is_schafkopf else 0,
        "games": games,
    }


def board_state(session: Session, file: str, money: MoneyRate | None = None) -> dict[str, Any]:
    """The board: the standings (the keys of `standings --format json`), and `next` (hand,
    dealer, leads, sits out), `pending`, `rules_in_force`, the last hands (newest first), the
    running totals, who is seated, what the entry form offers (`entry`) and, given a rate, the
    night in money (`money`, else None). One checking pass, like every report (`BoardNight`
    follows a file from pass to pass)."""
    return board_states(session, file, money)["en"]


def board_states(
    session: Session,
    file: str,
    money: MoneyRate | None = None,
    languages: Sequence[str] = ("en",),
) -> dict[str, dict[str, Any]]:
    """The board (`board_state`) for the readers of each of `languages`, from one checking
    pass: the same state but for the text a reader reads (each last hand's `played`, the
    rules' `summary`, the entry's `error`), worded in that language. Its keys, and what a
    program compares (names, kinds, `marks`, numbers, money), are English in every language,
    as `--format json` writes them."""
    return BoardNight().states(session, file, money, languages)


class BoardNight:
    """The board's night, followed as the file grows: each change is read from where the pass
    before stopped, not from the start of the night (`Reading.follow`).

    Beside the state of the night the last pass left (with the digest of the bytes it was made
    after), this keeps what the board shows that the night does not hold: the chart's series
    and the last hands, as they stood there. A file whose bytes before that state are not those
    it was made after (rewritten, or edited, of the same length or not), or whose new rows
    correct a hand before it, is read from the start. What it shows is what one pass over the
    whole file shows."""

    def __init__(self) -> None:
        self.kept: Checkpoint | None = None  # the state the last pass left
        self.series = _Series(())
        self.recent: deque[HandView] = deque(maxlen=RECENT)
        self.began = 0  # the byte the last pass began at (0: the start of the file)

    def forget(self) -> None:
        """The file was rewritten (not appended to): the next state is read from its start."""
        self.kept = None

    def state(self, session: Session, file: str, money: MoneyRate | None = None) -> dict[str, Any]:
        """The board as the file stands now (see `board_state`); a ScorepadError when the file
        has a problem (the state kept is let go then)."""
        return self.states(session, file, money)["en"]

    def states(
        self,
        session: Session,
        file: str,
        money: MoneyRate | None = None,
        languages: Sequence[str] = ("en",),
    ) -> dict[str, dict[str, Any]]:
        """The board as the file stands now in each of `languages` (see `board_states`)."""
        with i18n.speaking("en"):
            head, ledger, counts = self._follow(session)
            state = _state_of(file, head, ledger, counts, self.series, self.recent, money)
        states = {"en": state}
        for language in languages:
            if language != "en":
                with i18n.speaking(language):
                    states[language] = _worded(state, head, ledger, self.recent)
        return states

    def _follow(self, session: Session) -> tuple[Head, Ledger, PlayerCounts]:
        """The night read on from the state kept, where it still holds (`Reading.follow`)."""
        made: list[PlayerCounts] = []
        with session.reading() as reading:
            head = reading.head

            def begin(since: Checkpoint | None) -> tuple[Callable[[HandView], None], Counts]:
                if since is None:
                    self.series, self.recent = _Series(head.players), deque(maxlen=RECENT)
                else:
                    series, recent = since.state["extra"]
                    self.series, self.recent = series.copy(), deque(recent, maxlen=RECENT)
                counts = PlayerCounts(head.players)
                made.append(counts)
                remember, add = self.recent.append, self.series.add

                def on_hand(view: HandView) -> None:
                    remember(view)
                    add(view)

                return on_hand, counts

            def extra() -> Any:
                return self.series.copy(), tuple(self.recent)

            followed = reading.follow(self.kept, begin, extra)
            if followed.problems and followed.resumed:  # (as a pass from the start says it)
                followed = reading.follow(None, begin, extra)
        if followed.problems:
            self.kept = None
            raise refusal(session.path, followed.problems[0])
        self.began = self.kept.offset if followed.resumed and self.kept is not None else 0
        self.kept = followed.kept
        return head, followed.ledger, made[-1]


def _state_of(
    file: str,
    head: Head,
    ledger: Ledger,
    counts: PlayerCounts,
    series: _Series,
    recent: deque[HandView],
    money: MoneyRate | None,
) -> dict[str, Any]:
    state = standings_record(file, head.rules.name, ledger, counts.finish())
    coming = next_hand(ledger)
    state.update(
        next={
            "hand": coming.hand,
            "dealer": coming.dealer,
            "leads": coming.leads,
            "sits_out": list(coming.sits_out),
            "doubled": coming.doubled,
            "bock": bock_record(coming.bock),
            "bock_owed": bock_owed(ledger),
        },
        pending=len(ledger.pending),
        rules_in_force={
            "summary": rules_in_force(head, ledger),
            "family": ledger.rules.family,
            "all_pass": ledger.rules.all_pass,
            "settings": ledger.rules.flat(),
        },
        seated=list(ledger.seated),
        last_hand=ledger.last_hand,
        recent=[hand_record(view) for view in reversed(recent)],
        series=series.finish(ledger.last_hand),
        money=money_record(ledger, money) if money is not None else None,
    )
    try:
        state["entry"] = entry_record(ledger)
    except ScorepadError as exc:  # (no deal for the seats: the board shows why, entry is off)
        state["entry"] = {"error": str(exc)}
    return state


def _worded(
    state: dict[str, Any], head: Head, ledger: Ledger, recent: deque[HandView]
) -> dict[str, Any]:
    """`state` with its text in the language in force (see `board_states`)."""
    worded = {
        **state,
        "rules_in_force": {**state["rules_in_force"], "summary": rules_in_force(head, ledger)},
        "recent": [
            {**record, "played": played_text(view)}
            for record, view in zip(state["recent"], reversed(recent), strict=True)
        ],
    }
    if "error" in state["entry"]:
        try:
            entry_record(ledger)
        except ScorepadError as exc:
            worded["entry"] = {"error": str(exc)}
    return worded


def changes_since(session: Session, offset: int) -> tuple[list[str], int]:
    """The changes appended to the session since byte `offset` (as `log` words them), and the
    new end; none for a file that is new, shrank or was rewritten (the caller says so)."""
    rows, end = rows_since(session, offset)
    return changes_text(rows), end


def rows_since(session: Session, offset: int) -> tuple[list[Row], int]:
    """The rows appended to the session since byte `offset`, and the new end (as
    `changes_since`)."""
    try:
        return session.rows_since(offset, MAX_CHANGES)
    except ScorepadError:
        return [], 0  # (gone or broken: the state event says what is wrong)


def changes_text(rows: Sequence[Row], language: str = "en") -> list[str]:
    """Rows appended, each as `log` words it, in `language`."""
    with i18n.speaking(language):
        return [change_text(row) for row in rows]


# --- the app ------------------------------------------------------------------------------------


class LiveBoard:
    """What every live board shares (this one session's, and the hall's of a tournament): the
    host names it answers to, the latest event and its version, the clients listening, and a
    watcher that polls what it shows (`look`) and, when that changed, works out a new event
    (`news`) and tells every client. A subclass gives `look`, `news` and `app`.

    An event is worked out in English (`event`, what a program reads) and in each other
    language a page was asked in (`events`): the same state, its text in that language (see
    `board_states`); each client gets its page's (`?lang=`)."""

    def __init__(self, poll: float = POLL, hosts: Sequence[str] = ()):
        self.poll = poll
        self.language: str | None = None  # the page's language (None: each browser's own)
        names = [name.lower() for name in (*LOOPBACK_HOSTS, *hosts)]
        # (an IPv6 address stands in brackets in a Host header)
        names += [f"[{name}]" for name in names if ":" in name and not name.startswith("[")]
        self.hosts = tuple(dict.fromkeys(names))
        self.version = 0
        self.event: dict[str, Any] = {}
        self.events: dict[str, dict[str, Any]] = {}  # the event in each language asked for
        self.languages = ["en"]  # the languages events are worded in
        self._clients: dict[asyncio.Queue[dict[str, Any]], str] = {}  # and each one's language
        self._seen: Any = None
        self._stale = False  # a language newly asked for: the event is worked out again
        self._texts: OrderedDict[int, tuple[dict[str, Any], str]] = OrderedDict()  # as sent
        self._lock = asyncio.Lock()

    def look(self) -> Any:
        """What the files shown look like now (sizes, times): a change means new news."""
        raise NotImplementedError

    async def news(self, before: Any, seen: Any, languages: Sequence[str]) -> dict[str, Any]:
        """The next event but its version (`state`, and what changed since `before`) worded in
        each of `languages`, by language; the first event is made while `self.event` is still
        empty."""
        raise NotImplementedError

    def want(self, language: str) -> str:
        """Word the events in `language` too (a page or a client asked in it), and say the
        language they are worded in for it (English for one scorepad does not speak)."""
        if language not in i18n.LANGUAGES:
            return "en"
        if language not in self.languages:
            self.languages.append(language)
            self._stale = True
        return language

    def event_in(self, language: str) -> dict[str, Any]:
        """The latest event, worded in `language` (once it was wanted and worked out)."""
        return self.events.get(language, self.event)

    def app(self) -> Starlette:
        """The ASGI app serving this board."""
        raise NotImplementedError

    async def refresh(self) -> None:
        """Look at the files; if they changed, work out the board again and tell every client."""
        async with self._lock:
            seen = self.look()
            if seen == self._seen and self.event and not self._stale:
                return
            self._stale = False
            news = await self.news(self._seen, seen, tuple(self.languages))
            self._seen = seen
            self.version += 1
            self.events = {k: {"version": self.version, **v} for k, v in news.items()}
            self.event = self.events["en"]
            for queue, language in list(self._clients.items()):
                if queue.qsize() >= CLIENT_BACKLOG:
                    self._clients.pop(queue, None)  # too slow: it reconnects for a fresh state
                    continue
                queue.put_nowait(self.event_in(language))

    async def watch(self) -> None:
        """Refresh every `poll` seconds, for as long as the server runs."""
        while True:
            with suppress(Exception):  # the board keeps serving whatever happens
                await self.refresh()
            await asyncio.sleep(self.poll)

    def text_of(self, event: dict[str, Any]) -> str:
        """An event as the stream sends it (its JSON), made once however many clients
        listen (the latest few are kept, each with its event: the id names that one)."""
        found = self._texts.get(id(event))
        if found is not None and found[0] is event:
            return found[1]
        text = json.dumps(event, ensure_ascii=False)
        self._texts[id(event)] = (event, text)
        while len(self._texts) > 8:
            self._texts.popitem(last=False)
        return text

    def subscribe(self, language: str = "en") -> asyncio.Queue[dict[str, Any]]:
        """A queue that gets every event from now on, worded in `language` (a wanted one)."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._clients[queue] = language
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """No more events to `queue`."""
        self._clients.pop(queue, None)


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
    ):
        super().__init__(poll, hosts)
        self.path = Path(path)
        self.money = money
        self.allow_entry = allow_entry
        self.token = token or secrets.token_urlsafe(18)
        self._offset = 0
        self.night = BoardNight()
        # Idempotency-Key -> (the digest of its body, what its entry was answered)
        self._entries: OrderedDict[str, tuple[str, asyncio.Future[tuple[int, Any]]]] = OrderedDict()

    def session(self) -> Session:
        """A handle on the session for one request (see the module's docstring: never shared
        across threads)."""
        return Session(self.path, Waiting(ENTRY_WAIT))

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


def _speaking(language: str) -> AbstractContextManager[None]:
    """Speak `language` within the block (English, the process's, as it is: no lock taken).
    An entry made so says why it is refused in its reader's language; the block holds
    `i18n.speaking`'s lock while it waits for the session's, as briefly as a writer holds it."""
    return nullcontext() if language == "en" else i18n.speaking(language)


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
                while True:
                    event = await queue.get()
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
        if not board.allow_entry:
            message = N_("entry is off: start the board with --allow-entry")
            raise BadRequest(403, in_language(language, message))
        if not board.authorized(request):
            message = N_("entry needs the token: Authorization: Bearer TOKEN")
            raise BadRequest(403, in_language(language, message))

    async def post(request: Request, action: str) -> Response:
        language = board.want(entry_language(board, request))
        try:
            check_entry(request, language)
            key = _idempotency_key(request)
            data = await _json_body(request)
        except BadRequest as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
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
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        return JSONResponse({"entry": True})

    return live_app(
        board,
        lambda language: page_html("board.html", {"entry": board.allow_entry}, language),
        [
            Route("/api/hands", post_hand, methods=["POST"]),
            Route("/api/undo", post_undo, methods=["POST"]),
            Route("/api/redo", post_redo, methods=["POST"]),
            Route("/api/entry", get_entry, methods=["GET"]),
        ],
    )


def worded_entry(body: Any, language: str) -> Any:
    """An entry's answer for its reader: its text (`played`, `undone`, `redone`) in the
    reader's language, where the board worded it so (`worded`, which no answer shows). (A
    refusal's `error` is worded in the language of the request that made the entry.)"""
    if not isinstance(body, dict):
        return body
    shown = {k: v for k, v in body.items() if k != "worded"}
    shown.update(body.get("worded", {}).get(language, {}))
    return shown


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get("idempotency-key")
    if key is not None and not (
        0 < len(key) <= 200 and key.isascii() and key.isprintable()
    ):  # fmt: skip
        raise BadRequest(400, "idempotency-key: 1 to 200 printable ASCII characters")
    return key


async def _json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read in bounded memory."""
    length = request.headers.get("content-length")
    if length is not None and not (length.isascii() and length.isdecimal()):
        raise BadRequest(400, "content-length: not a number of bytes")
    if length is not None and (len(length) > 12 or int(length) > MAX_BODY):
        raise BadRequest(413, f"the body is over {MAX_BODY // 1024} KiB")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest(413, f"the body is over {MAX_BODY // 1024} KiB")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest(400, "the body is not a JSON object") from None
    if not isinstance(data, dict):
        raise BadRequest(400, "the body is not a JSON object")
    return data


def _params(data: dict[str, Any]) -> dict[str, Any]:
    """The inputs a JSON object stands for, type-checked."""
    unknown = sorted(k for k in data if k not in FIELDS)
    if unknown:
        raise BadRequest(400, f"unknown field {unknown[0][:40]!r}; fields: {', '.join(FIELDS)}")
    for key, value in data.items():
        want: Any = FIELDS[key]  # (a type, for isinstance)
        if value is None:
            continue
        if isinstance(value, bool) and want is not bool:
            raise BadRequest(400, f"{key}: {_kind(want)} expected")
        if not isinstance(value, want):
            raise BadRequest(400, f"{key}: {_kind(want)} expected")
        if want is list and not all(isinstance(v, str) for v in value):
            raise BadRequest(400, f"{key}: a list of names expected")
        if want is dict and not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in value.items()
        ):
            raise BadRequest(400, f"{key}: an object of name to whole number expected")
        if want is int and not -(10**9) <= value <= 10**9:
            raise BadRequest(400, f"{key}: {value} is out of range")
    return {k: v for k, v in data.items() if v is not None}


def _kind(want: type) -> str:
    return {
        str: "text",
        int: "a whole number",
        bool: "true or false",
        list: "a list of names",
        dict: "an object of name to whole number",
    }[want]


# --- serving -------------------------------------------------------------------------------------


class _GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the two limits it lacks, so that slow clients cannot
    hold the board: a request's head must arrive within HEAD_TIMEOUT of the connection (or of
    the answer before it, on a kept-alive one), and past `max_connections` a new connection
    closes the one that has waited longest for a request's head, or itself when every
    connection is busy (a listener to /events, a request being answered). uvicorn's own
    `limit_concurrency` would not do: it answers 503 to every request while slow connections
    fill the count."""

    max_connections = MAX_CONNECTIONS
    _head_timer: asyncio.TimerHandle | None = None
    _waiting_since: float | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()
        if len(self.connections) > self.max_connections:
            waiting = [
                c
                for c in self.connections
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
    for name in ("asyncio", "uvicorn.error", "uvicorn.access", "sse_starlette"):
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
    """The server for `board` (either live board): uvicorn with the limits above (a request's
    head within HEAD_TIMEOUT, IDLE_TIMEOUT between requests, at most `connection_limit()`
    connections, at most MAX_BODY of a body) and a bounded log."""
    bound_logs()
    guarded = type("GuardedH11", (_GuardedH11,), {"max_connections": connection_limit()})
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


def _json_word(name: str) -> str:
    """How the board names an input or a setting in a message: its JSON key."""
    return name


def record_hand(
    session: Session,
    path: Path,
    data: dict[str, Any],
    languages: Sequence[str] = ("en",),
    language: str = "en",
) -> dict[str, Any]:
    """Record the hand a JSON object describes, as `scorepad hand` would; its JSON (with its
    `played` in each other of `languages` under `worded`), or a BadRequest (422) saying why
    not in `language`, naming inputs by their keys. Nothing is written when it fails."""

    params = _params(data)
    note = params.pop("note", "")
    out = params.pop("out", ())
    with wording(_json_word), _speaking(language):
        try:
            check_note(note)
            doubler, pot = params.pop("doubler", False), params.pop("pot", False)
            if doubler and pot:
                raise ScorepadError(
                    i18n.gettext("doubler and pot: everyone passed once, and the table plays one")
                )
            if doubler or pot:
                check_doubler(params, "pot" if pot else "doubler")
            result = None
            if doubler:
                row, state = session.record_doubler(params.get("dealer"), note)
            elif pot:
                row, result, state = session.record_pot(params.get("dealer"), out, note)
            else:
                row, result, state = session.record(build_hand((), params, out), note)
        except ScorepadError as exc:
            raise BadRequest(422, str(exc)) from None
    recorded = recorded_record(path, row, result, state)
    worded = {}
    for language in languages:
        if language != "en":
            with i18n.speaking(language):
                worded[language] = {"played": recorded_record(path, row, result, state)["played"]}
    return {**recorded, "worded": worded} if worded else recorded


def undo_change(
    session: Session,
    path: Path,
    data: dict[str, Any],
    languages: Sequence[str] = ("en",),
    language: str = "en",
) -> dict[str, Any]:
    """Undo the last change of the session, as `scorepad undo` does, from a JSON object that may
    give a `reason`: what was undone (in words; in each other of `languages` under `worded`),
    the new row and the totals after it; or a BadRequest (422) saying why not (nothing to
    undo) in `language`. Nothing is written when it fails."""
    return _step(session, path, data, True, languages, language)


def redo_change(
    session: Session,
    path: Path,
    data: dict[str, Any],
    languages: Sequence[str] = ("en",),
    language: str = "en",
) -> dict[str, Any]:
    """Make again what the last undo took back, as `scorepad redo` does (as `undo_change`; the
    answer's `redone` says what)."""
    return _step(session, path, data, False, languages, language)


def _step(
    session: Session,
    path: Path,
    data: dict[str, Any],
    back: bool,
    languages: Sequence[str],
    language: str = "en",
) -> dict[str, Any]:
    unknown = sorted(k for k in data if k != "reason")
    if unknown:
        raise BadRequest(400, f"unknown field {unknown[0][:40]!r}; fields: reason")
    reason = data.get("reason") or ""
    if not isinstance(reason, str):
        raise BadRequest(400, "reason: text expected")
    with wording(_json_word), _speaking(language):
        try:
            note = check_note(reason) or f"{'undo' if back else 'redo'} on the board"
            step = session.undo if back else session.redo
            done, row, _unused, state = step(note)
        except ScorepadError as exc:
            raise BadRequest(422, str(exc)) from None
    said = "undone" if back else "redone"
    english = done
    worded = {}
    for each in {*languages, language} - {"en"}:
        with i18n.speaking(each):
            worded[each] = {said: said_again(done)}
    if language != "en":
        with i18n.speaking("en"):
            english = said_again(done)
    answer = {
        "file": str(path),
        said: str(english),
        "note": row.note,
        "hands": state.hands,
        "totals": dict(state.totals),
        "next_dealer": state.next_dealer,
    }
    return {**answer, "worded": worded} if worded else answer
