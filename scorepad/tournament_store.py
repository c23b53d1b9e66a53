"""A tournament's folder: DIR/tournament.toml, and a session file per table and round.

    DIR/tournament.toml          the settings, the rules table, the players, the rounds drawn
    DIR/round-N/table-K.csv      table K of round N: an ordinary session file

tournament.toml is read with tomllib and checked whole on every read (a hand-edited file is
untrusted input: every key, type and value, and that the rounds drawn fit the players); it is
written with tomli_w, to a temp file beside it that is then renamed over it. Each table's file
is made by `Session.create` and read through the session's one checking pass, so a table that
does not verify is named and the standings refuse. The arithmetic is `tournament`'s.
"""

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NamedTuple

from .errors import ScorepadError, wording
from .i18n import gettext as _
from .ledger import Memo
from .reports import PlayerCounts
from .rules import Rules, load_rules, rules_from_dict
from .session import Session, SessionError
from .store.lock import WAIT, Waiting
from .tournament import (
    Player,
    TableResult,
    Tournament,
    TournamentError,
    add_player,
    check,
    check_placings,
    next_draw,
    parse_money,
    parse_percent,
    parse_tie_breaks,
    remove_player,
    score_sheet,
)

FILE = "tournament.toml"
LOCK = ".tournament.lock"  # held while tournament.toml is read, changed and written (`_changing`)
MAX_FILE = 4 << 20  # the largest tournament.toml read, in bytes


def table_path(folder: Path, round_number: int, table: int) -> Path:
    """Where table `table` of round `round_number` keeps its session."""
    return folder / f"round-{round_number}" / f"table-{table}.csv"


def sheet_path(folder: Path, round_number: int, table: int) -> Path:
    """Where the printable score sheet of a table goes (`draw --sheets`)."""
    return folder / f"round-{round_number}" / f"table-{table}.txt"


def round_hands(path: Path) -> int | None:
    """The hands a session file may count: a table of a tournament's round
    (FOLDER/round-N/table-K.csv beside FOLDER/tournament.toml) holds the tournament's hands a
    round; any other file, or a tournament that cannot be read, None."""
    import re

    if re.fullmatch(r"table-\d+\.csv", path.name) is None:
        return None
    if re.fullmatch(r"round-\d+", path.parent.name) is None:
        return None
    folder = path.parent.parent
    if not (folder / FILE).is_file():
        return None
    try:
        return load(folder).hands
    except ScorepadError:
        return None


# --- tournament.toml ----------------------------------------------------------------------------


def _to_data(t: Tournament) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": t.name,
        "rounds": t.rounds,
        "hands": t.hands,
        "table_size": t.table_size,
        "seed": t.seed,
        "tie_breaks": list(t.tie_breaks),
        "payout": [str(p) for p in t.payout],
        "round_prize": str(t.round_prize),
        "house_share": str(t.house_share),
        "currency": t.currency,
    }
    if t.entry is not None:
        data["entry"] = f"{t.entry:.2f}"
    if t.placings:
        data["placings"] = t.placings
    data["rules"] = t.rules.to_dict(stored=True)
    players = []
    for p in t.players:
        entry: dict[str, Any] = {"name": p.name, "joined": p.joined}
        if p.left is not None:
            entry["left"] = p.left
        players.append(entry)
    data["players"] = players
    data["round"] = [{"tables": [list(table) for table in tables]} for tables in t.drawn]
    return data


_KEYS = {
    "name": str,
    "rounds": int,
    "hands": int,
    "table_size": int,
    "seed": int,
    "tie_breaks": list,
    "payout": list,
    "round_prize": str,
    "house_share": str,
    "currency": str,
    "entry": str,
    "placings": str,
    "rules": dict,
    "players": list,
    "round": list,
}
_REQUIRED = ("name", "rounds", "hands", "table_size", "seed", "rules", "players")


def _from_data(data: Mapping[str, Any], where: str) -> Tournament:
    """A tournament from tournament.toml's data, every key and value checked."""
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise TournamentError(
            _("{where}: unknown keys: {unknown}").format(where=where, unknown=", ".join(unknown))
        )
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise TournamentError(
            _("{where}: missing keys: {missing}").format(where=where, missing=", ".join(missing))
        )
    for key, kind in _KEYS.items():
        value = data.get(key)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            raise TournamentError(
                _("{where}: {key} must be a {name__}").format(
                    where=where, key=key, name__=kind.__name__
                )
            )
    try:
        rules = rules_from_dict(data["rules"], f"{where}: rules")
        rules = rules._replace(source=rules.name)
        players = tuple(_entry(p) for p in data["players"])
        drawn = tuple(_round(r) for r in data.get("round", []))
        tie_breaks = parse_tie_breaks(",".join(map(str, data.get("tie_breaks", []))))
        payout = tuple(parse_percent(str(p), "payout", positive=True) for p in data["payout"])
        entry = data.get("entry")
        t = Tournament(
            name=_text(data["name"]),
            rules=rules,
            rounds=data["rounds"],
            hands=data["hands"],
            table_size=data["table_size"],
            seed=data["seed"],
            players=players,
            drawn=drawn,
            tie_breaks=tie_breaks,
            entry=None if entry is None else parse_money(entry, "entry"),
            currency=check_currency(data.get("currency", "$")),
            payout=payout,
            round_prize=parse_percent(data.get("round_prize", "0"), "round_prize"),
            house_share=parse_percent(data.get("house_share", "0"), "house_share"),
            placings=check_placings(data.get("placings", "")),
        )
        check(t)
        _check_drawn(t)
    except ScorepadError as exc:
        message = str(exc)
        if message.startswith(where):
            raise
        raise TournamentError(f"{where}: {message}") from None
    return t


def _text(value: Any) -> str:
    if not isinstance(value, str) or any(not c.isprintable() for c in value) or len(value) > 200:
        raise TournamentError(_("a name is one line of at most 200 printable characters"))
    return value


def check_currency(symbol: str) -> str:
    """A currency symbol as it may stand before every amount (as `settle --currency`)."""
    from .store.format import FORMULA_STARTS

    if (
        not isinstance(symbol, str)
        or len(symbol) > 5
        or not symbol.isprintable()
        or any(c.isdigit() for c in symbol)
    ):
        raise TournamentError(_("currency: a symbol of up to 5 printable characters, e.g. $, €"))
    if symbol.startswith(FORMULA_STARTS):
        raise TournamentError(
            _("currency: {symbol!r} cannot start with {symbol2}").format(
                symbol=symbol, symbol2=symbol[0]
            )
        )
    return symbol


def _entry(data: Any) -> Player:
    from .store.format import check_new_name

    if not isinstance(data, dict) or set(data) - {"name", "joined", "left"} or "name" not in data:
        raise TournamentError(_("players: each is a table of name, joined and (if they left) left"))
    name = check_new_name(_text(data["name"]))
    joined, left = data.get("joined", 1), data.get("left")
    if not isinstance(joined, int) or isinstance(joined, bool) or joined < 1:
        raise TournamentError(
            _("players: {name}: joined is the round they entered (1 or more)").format(name=name)
        )
    if left is not None and (
        not isinstance(left, int) or isinstance(left, bool) or not joined <= left
    ):
        raise TournamentError(
            _("players: {name}: left is the last round they played").format(name=name)
        )
    return Player(name, joined, left)


def _round(data: Any) -> tuple[tuple[str, ...], ...]:
    if (
        not isinstance(data, dict)
        or set(data) != {"tables"}
        or not isinstance(data["tables"], list)
    ):
        raise TournamentError(_("round: each round drawn is a table with its tables"))
    tables = []
    for table in data["tables"]:
        if not isinstance(table, list) or not all(isinstance(n, str) for n in table):
            raise TournamentError(_("round: a table is a list of the names at it"))
        tables.append(tuple(table))
    return tuple(tables)


def _check_drawn(t: Tournament) -> None:
    """Each round drawn seats the players drawn for it, each once, at tables the rules deal."""
    for number, tables in enumerate(t.drawn, 1):
        seated = [name for table in tables for name in table]
        expected = t.playing(number)
        if sorted(seated) != sorted(expected):
            raise TournamentError(
                _(
                    "round {number}: the tables seat {value}, not the players entered for it "
                    "({sorted_expected})"
                ).format(
                    number=number,
                    value=", ".join(sorted(seated)) or "nobody",
                    sorted_expected=", ".join(sorted(expected)),
                )
            )


def load(folder: Path) -> Tournament:
    """The tournament in `folder`, checked."""
    import tomllib

    path = folder / FILE
    where = str(path)
    if not path.is_file():
        raise TournamentError(
            _(
                "{folder}: no {file} here (start one with `scorepad tournament new {folder}`)"
            ).format(folder=folder, file=FILE)
        )
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE + 1)
        data = tomllib.loads(raw[: MAX_FILE + 1].decode("utf-8")) if len(raw) <= MAX_FILE else None
    except OSError as exc:
        raise TournamentError(
            _("{where}: cannot read: {value}").format(where=where, value=exc.strerror or exc)
        ) from None
    except UnicodeDecodeError:
        raise TournamentError(_("{where}: not UTF-8 text").format(where=where)) from None
    except tomllib.TOMLDecodeError as exc:
        raise TournamentError(
            _("{where}: not valid TOML: {exc}").format(where=where, exc=exc)
        ) from None
    except (RecursionError, ValueError) as exc:
        raise TournamentError(
            _("{where}: not a file scorepad can read ({exc})").format(where=where, exc=exc)
        ) from None
    if data is None:
        raise TournamentError(
            _("{where}: larger than {max_file} MiB").format(where=where, max_file=MAX_FILE >> 20)
        )
    with wording(lambda name: name):  # (a key of the file, not an option)
        return _from_data(data, where)


def save(folder: Path, t: Tournament) -> None:
    """Write tournament.toml whole: a temp file beside it, fsynced, renamed over it."""
    import tomli_w

    data = tomli_w.dumps(_to_data(t)).encode("utf-8")
    fd, temp = tempfile.mkstemp(prefix=f".{FILE}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, folder / FILE)
    except OSError as exc:
        with suppress(OSError):
            os.unlink(temp)
        raise TournamentError(
            _("{folder}: cannot write: {value}").format(
                folder=folder / FILE, value=exc.strerror or exc
            )
        ) from None


def read_players(path: Path) -> list[str]:
    """The names in a players file: one a line; blank lines and lines starting with # skipped."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE + 1)
        if len(raw) > MAX_FILE:
            raise TournamentError(
                _("{path}: larger than {max_file} MiB").format(path=path, max_file=MAX_FILE >> 20)
            )
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        raise TournamentError(
            _("{path}: cannot read: {value}").format(path=path, value=exc.strerror or exc)
        ) from None
    except UnicodeDecodeError:
        raise TournamentError(_("{path}: not UTF-8 text").format(path=path)) from None
    names = [line.strip() for line in text.splitlines()]
    return [n for n in names if n and not n.startswith("#")]


# --- the commands' work -------------------------------------------------------------------------


def create(
    folder: Path,
    name: str,
    rules_spec: str,
    players: list[str],
    rounds: int,
    hands: int,
    table_size: int,
    seed: int | None,
    **money: Any,
) -> Tournament:
    """Start a tournament in `folder` (new, or empty): its tournament.toml. Nothing is written
    unless every setting is right."""
    import secrets

    from .store.format import check_new_name

    rules: Rules = load_rules(rules_spec)
    rules = rules._replace(source=rules.name)
    entries = tuple(Player(check_new_name(p)) for p in players)
    t = check(
        Tournament(
            name=_text(name),
            rules=rules,
            rounds=rounds,
            hands=hands,
            table_size=table_size,
            seed=secrets.randbelow(10**9) if seed is None else seed,
            players=entries,
            **money,
        )
    )
    # (the lock alone is left of a tournament whose tournament.toml was deleted: a folder empty)
    if folder.exists() and (not folder.is_dir() or any(p.name != LOCK for p in folder.iterdir())):
        raise TournamentError(
            _(
                "{folder}: already exists and is not an empty folder; a tournament "
                "starts in a folder of its own"
            ).format(folder=folder)
        )
    created = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TournamentError(
            _("{folder}: cannot make the folder: {strerror}").format(
                folder=folder, strerror=exc.strerror
            )
        ) from None
    try:
        save(folder, t)
    except TournamentError:
        if created:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return t


class TableStatus(NamedTuple):
    """Where one table of a round stands."""

    round: int
    table: int
    path: Path
    players: tuple[str, ...]
    hands: int  # recorded, not void
    of: int  # the round's hands
    problem: str | None  # the first problem with its file (None: it verifies)

    @property
    def done(self) -> bool:
        return self.problem is None and self.hands >= self.of


def table_record(s: TableStatus) -> dict[str, Any]:
    """A table's status as data (`status --format json`'s, and the hall's board)."""
    return {
        "round": s.round,
        "table": s.table,
        "file": str(s.path),
        "players": list(s.players),
        "hands": s.hands,
        "of": s.of,
        "done": s.done,
        "problem": s.problem,
    }


def progress(t: Tournament, tables: list[TableStatus], folder: Path) -> str:
    """Where the tournament stands, in a sentence."""
    drawn = len(t.drawn)
    if not drawn:
        return _(
            "no round drawn yet (of {rounds}); next: scorepad tournament draw {folder}"
        ).format(rounds=t.rounds, folder=folder)
    current = [s for s in tables if s.round == drawn]
    done = sum(s.done for s in current)
    if done < len(current):
        return _("round {drawn} of {rounds}: {done} of {tables} tables done.").format(
            drawn=drawn, rounds=t.rounds, done=done, tables=len(current)
        )
    if drawn < t.rounds:
        return _(
            "round {drawn} of {rounds} is done; next: scorepad tournament draw {folder}"
        ).format(drawn=drawn, rounds=t.rounds, folder=folder)
    return _("all {rounds} rounds are done.").format(rounds=t.rounds)


class TableRead(NamedTuple):
    """One table of a round, read once: where it stands, and its result (None, with the error
    that refuses the standings, when it does not verify or is not the table drawn)."""

    status: TableStatus
    result: TableResult | None
    error: ScorepadError | None


def read_tables(folder: Path, t: Tournament) -> Iterator[TableRead]:
    """Every table of every round drawn, each read once (as the reports read a night: the
    checkpoint beside a large one, only the totals and solos kept, each table's pass let go
    before the next)."""
    memo = Memo()  # (the tables of a tournament play its rules: the kinds of hand recur)
    for number, tables in enumerate(t.drawn, 1):
        for k, table in enumerate(tables, 1):
            path = table_path(folder, number, k)
            try:
                totals, solos, hands = _read(path, t, number, k, table, memo)
            except ScorepadError as exc:
                status = TableStatus(number, k, path, table, 0, t.hands, str(exc))
                yield TableRead(status, None, exc)
                continue
            problem = None
            if hands > t.hands:
                problem = _("{hands} hands recorded, the round has {of}").format(
                    hands=hands, of=t.hands
                )
            status = TableStatus(number, k, path, table, hands, t.hands, problem)
            yield TableRead(status, TableResult(number, k, totals, solos, hands), None)


def status(folder: Path, t: Tournament) -> list[TableStatus]:
    """Every table of every round drawn: its hands recorded and whether it verifies."""
    return [read.status for read in read_tables(folder, t)]


def _read(
    path: Path, t: Tournament, number: int, k: int, table: tuple[str, ...], memo: Memo | None
) -> tuple[dict[str, int], dict[str, int], int]:
    """A table's checked night (refusing a file that does not verify, is not the table drawn
    or plays other rules): each player's total, each player's solos won (those with any), and
    the hands that count."""
    if not path.is_file():
        raise TournamentError(_("{path}: the table's session file is missing").format(path=path))
    session = Session(path)
    with session.reading() as reading:
        head = reading.head
        counts = PlayerCounts(head.players)
        ledger = reading.night(counts=counts, memo=memo)
    if head.players != table:
        raise TournamentError(
            _(
                "{path}: its players ({players}) are not the table drawn for round "
                "{number} ({table})"
            ).format(
                path=path, players=", ".join(head.players), number=number, table=", ".join(table)
            )
        )
    if head.rules.to_dict() != t.rules.to_dict() or ledger.rules_line is not None:
        raise TournamentError(
            _("{path}: its rules are not the tournament's ({name})").format(
                path=path, name=t.rules.name
            )
        )
    strangers = [p for p in ledger.totals if t.player(p) is None]
    if strangers:
        raise TournamentError(
            _("{path}: {strangers} is not entered in the tournament").format(
                path=path, strangers=", ".join(strangers)
            )
        )
    solos = {p: s.solos_won for p, s in counts.finish().items() if s.solos_won}
    return dict(ledger.totals), solos, ledger.hands


def results(folder: Path, t: Tournament) -> Iterator[TableResult]:
    """Every table's result, each table verified: a table that does not is an error naming
    its file."""
    return results_of(read_tables(folder, t))


def results_of(reads: Iterable[TableRead]) -> Iterator[TableResult]:
    """The results of tables read (`read_tables`), refusing at the first that does not verify
    or holds more hands than the round."""
    for read in reads:
        exc = read.error
        if isinstance(exc, SessionError):
            raise SessionError(
                exc.path,
                _("{message}; the standings need every table to verify").format(
                    message=exc.message
                ),
                exc.line,
            ) from None
        if exc is not None:
            raise exc
        found = read.result
        assert found is not None
        if found.hands > read.status.of:
            path = read.status.path
            raise TournamentError(
                _(
                    "{path}: {hands} hands recorded, the round has {hands2} (void the extra "
                    "with `scorepad -f {path} void N`)"
                ).format(path=path, hands=found.hands, hands2=read.status.of)
            )
        yield found


@contextmanager
def _changing(folder: Path, waiting: Waiting) -> Iterator[None]:
    """Hold the tournament's lock while tournament.toml is read, changed and written: two
    organizers who change it at once (a late entry each, say) both land, one after the other.
    The lock is a file of its own beside it (`LOCK`), which nothing reads: tournament.toml is
    written whole and renamed over, and the hall's board reads it meanwhile."""
    from .store.lock import locked

    if not (folder / FILE).is_file():
        load(folder)  # (its error: no tournament here, and nothing is written)
    lock = folder / LOCK
    try:
        with open(lock, "ab"):
            pass
    except OSError as exc:
        raise TournamentError(
            _("{folder}: cannot write: {value}").format(
                folder=folder / FILE, value=exc.strerror or exc
            )
        ) from None
    with locked(lock, waiting):
        _tidy(folder)
        yield


STAGED = ".round-"  # a draw's staging folder, `.round-N.XXXX`, renamed to round-N when whole
MADE_TABLE = 64 << 10  # the most bytes of a table's file as a draw makes it


def _litter(folder: Path) -> list[str]:
    """What a killed draw or write of tournament.toml left in the folder: a draw's staging
    folder, a temp file of tournament.toml."""
    try:
        with os.scandir(folder) as entries:
            return [
                e.name
                for e in entries
                if (e.name.startswith(STAGED) and e.is_dir(follow_symlinks=False))
                or (e.name.startswith(f".{FILE}.") and e.name.endswith(".tmp"))
            ]
    except OSError:
        return []


def _tidy(folder: Path) -> None:
    """Remove what a killed draw or write left (`_litter`); only under the tournament's lock,
    where no draw is under way."""
    for name in _litter(folder):
        path = folder / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with suppress(OSError):
                path.unlink()


def tidy(folder: Path) -> None:
    """What a killed draw left, removed by a command that only reads (`tournament status`),
    when it can take the tournament's lock at once: it never waits, and never fails for it."""
    from .store.lock import locked

    if not _litter(folder):
        return
    with suppress(ScorepadError, OSError):
        with open(folder / LOCK, "ab"):
            pass
        with locked(folder / LOCK, Waiting(0)):
            _tidy(folder)


def draw(
    folder: Path, sheets: bool = False, waiting: Waiting = WAIT
) -> tuple[Tournament, int, tuple[tuple[str, ...], ...], int]:
    """Seat the next round: its session files (and score sheets), then tournament.toml.
    Refused while a table of the round before is not done. Returns the tournament, the round,
    its tables and their repeat pairings."""
    with _changing(folder, waiting):
        return _draw(folder, sheets)


def _draw(folder: Path, sheets: bool) -> tuple[Tournament, int, tuple[tuple[str, ...], ...], int]:
    t = load(folder)
    number = t.next_round
    if t.drawn:
        open_tables = [s for s in status(folder, t) if s.round == number - 1 and not s.done]
        if open_tables:
            first = open_tables[0]
            why = first.problem or f"{first.hands} of {first.of} hands recorded"
            raise TournamentError(
                f"round {number - 1} is not done: table {first.table}: {why}"
                + (f" (and {len(open_tables) - 1} more)" if len(open_tables) > 1 else "")
                + f"; see `scorepad tournament status {folder}`"
            )
    tables, repeated = next_draw(t)
    where = folder / f"round-{number}"
    if where.exists():
        if not _unsaid(where, t, number, tables):
            raise TournamentError(
                _("{where}: already exists; tournament.toml has no draw for it").format(where=where)
            )
        shutil.rmtree(where)  # (this very draw, untouched, killed before tournament.toml said it)
    temp = Path(tempfile.mkdtemp(prefix=f".round-{number}.", dir=folder))
    try:
        for k, table in enumerate(tables, 1):
            Session.create(temp / f"table-{k}.csv", table, t.rules, table[-1])
            if sheets:
                text = score_sheet(t, number, k, table, str(table_path(folder, number, k)))
                (temp / f"table-{k}.txt").write_text(text, encoding="utf-8")
        os.rename(temp, where)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    new = t._replace(drawn=(*t.drawn, tables))
    try:
        save(folder, new)
    except BaseException:
        shutil.rmtree(where, ignore_errors=True)
        raise
    return new, number, tables, repeated


def _unsaid(where: Path, t: Tournament, number: int, tables: tuple[tuple[str, ...], ...]) -> bool:
    """Whether the round's folder is what a draw killed between making it and writing
    tournament.toml left: the files of this very draw (the draw is the seed's), each table's
    session as it was made (its head, no row), and nothing else."""
    names = {f"table-{k}.{kind}" for k in range(1, len(tables) + 1) for kind in ("csv", "txt")}
    try:
        if not {p.name for p in where.iterdir()} <= names:
            return False
        for k, table in enumerate(tables, 1):
            path = table_path(where.parent, number, k)
            if not path.is_file() or path.stat().st_size > MADE_TABLE:
                return False
            if len(path.read_bytes().splitlines()) != 3:  # (its columns, rules and start)
                return False
            _read(path, t, number, k, table, None)  # (its players and rules the draw's)
    except (OSError, ScorepadError):
        return False
    return True


def enter(folder: Path, name: str, waiting: Waiting = WAIT) -> tuple[Tournament, str]:
    """A late entry, from the next round on."""
    from .store.format import check_new_name

    with _changing(folder, waiting):
        t = load(folder)
        name = check_new_name(name)
        new = add_player(t, name)
        save(folder, new)
    return new, name


def withdraw(folder: Path, name: str, waiting: Waiting = WAIT) -> tuple[Tournament, str]:
    """A dropout, from the next round on."""
    with _changing(folder, waiting):
        t = load(folder)
        new, found = remove_player(t, name)
        save(folder, new)
    return new, found


def round_scores(t: Tournament, found: list[TableResult]) -> dict[int, dict[str, int]]:
    """Each round's points of every player drawn for it."""
    scores: dict[int, dict[str, int]] = {n: {} for n in range(1, len(t.drawn) + 1)}
    for result in found:
        for player, points in result.totals.items():
            scores[result.round][player] = scores[result.round].get(player, 0) + points
    return scores
