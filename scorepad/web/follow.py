"""The live board's follower: the night kept as the session file grows, and the events it streams.

`BoardNight` follows the file from change to change through the session's follow API
(`Reading.follow`, called in one place: `BoardNight._follow`), and keeps beside each state of
the night what the board shows that the night does not hold (the chart's series, the last
hands); `board_states` is the board's JSON, in each reader's language. `LiveBoard` is what
every live board shares (this one session's in `app`, the hall's of a tournament in `hall`):
the host names it answers to, a watcher that polls what it shows, and the broadcasting of
each new event to the clients of the event stream.

It needs nothing of the web stack to run (the app that serves it is `app`'s).
"""

import asyncio
import json
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from decimal import Decimal
from operator import methodcaller
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import i18n
from ..errors import ScorepadError
from ..games import BY_NAME as GAMES
from ..games import WonBy
from ..hands import OPTIONS
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
    rules_in_force,
    standings_record,
)
from ..rules import Rules
from ..scoring import seat
from ..scoring.called import calls_of
from ..session import Checkpoint, Session, refusal
from ..settlement import fewest_payments, money_balances, rate_text
from ..store.format import Row
from ..store.snapshot import Head

if TYPE_CHECKING:
    from starlette.applications import Starlette

POLL = 0.2  # seconds between looks at the session file
RECENT = 12  # the last hands the board shows
SERIES_POINTS = 300  # the most points of each player's line on the chart
MAX_CHANGES = 1 << 20  # the most bytes of new rows worded for one event
CLIENT_BACKLOG = 256  # events kept for a slow client before it is dropped (it reconnects)
MAX_LISTENERS = 256  # clients listening to the events at once; a new one lets the oldest go
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")  # the names the board always answers to


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
    """What the board settles in: money per game point (a Decimal) and its currency symbol
    (None: the table's `currency`)."""

    rate: Decimal
    currency: str | None = "$"


def table_money(rules: Rules, money: MoneyRate | None) -> MoneyRate | None:
    """The money the board shows: `serve --rate` (in `--currency`, else the table's), else the
    table's `rate` and `currency`; None when neither sets a rate."""
    if money is not None:
        return money if money.currency is not None else money._replace(currency=rules.currency)
    return MoneyRate(Decimal(rules.rate), rules.currency) if rules.rate else None


def _money_record(ledger: Ledger, money: MoneyRate | None) -> dict[str, Any] | None:
    return money_record(ledger, money) if money is not None else None


def money_record(ledger: Ledger, money: MoneyRate) -> dict[str, Any]:
    """The night in money, as `settle --rate` works it out (`settlement`): each balance and the
    fewest payments, amounts as text to the cent (as `settle --format json`), and as shown. A
    race night settles no money (`race`)."""
    currency = money.currency or "$"
    record: dict[str, Any] = {
        "rate": str(money.rate),
        "currency": currency,
        "rate_text": rate_text(money.rate, currency),
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
        "shown": {p: str(Money(v, currency)) for p, v in balances.items()},
        "payments": [
            {**pay.to_dict(), "shown": str(Money(pay.amount, currency))}
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
        inputs += ["game", "partners", "called", "runs", "knocks"]
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
        if deal.partners and deal.call == "ace":
            inputs.append("called")
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
    kinds.append("manual")  # (a hand the table scores itself: hand --scores)
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
        "calls": list(calls_of(rules)) if "called" in inputs else [],
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
        money=_money_record(ledger, table_money(ledger.rules, money)),
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


# --- the event stream -------------------------------------------------------------------------


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
        self.max_listeners = MAX_LISTENERS  # (`serve --max-listeners`)
        # each client listening, and its language (None in its queue: its stream ends)
        self._clients: dict[asyncio.Queue[dict[str, Any] | None], str] = {}
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

    def app(self) -> "Starlette":
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
                    self._let_go(queue)  # too slow: it reconnects for a fresh state
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

    def subscribe(self, language: str = "en") -> asyncio.Queue[dict[str, Any] | None]:
        """A queue that gets every event from now on, worded in `language` (a wanted one), and
        None when its stream is to end. Listeners are counted apart from requests: past
        `max_listeners` the one listening longest is let go (a page reconnects by itself), so
        that idle listeners never hold the connections the state, the page and entry need."""
        while self._clients and len(self._clients) >= self.max_listeners:
            self._let_go(next(iter(self._clients)))
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._clients[queue] = language
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        """No more events to `queue`."""
        self._clients.pop(queue, None)

    def _let_go(self, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        """End a listener's stream (once it has sent what its queue holds)."""
        self._clients.pop(queue, None)
        queue.put_nowait(None)
