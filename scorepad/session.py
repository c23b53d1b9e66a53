"""The session file: the one module that opens it, and the API every command goes through.

`Session(path)` reads and changes one session file:

- reading: `head()` (players, rules, format), `state()` (the night as its last row records it:
  only the head and the tail are read), `check()` (the one checking pass over every row, which
  `verify` prints and every report runs first), `night()` (the same, refusing on any problem);
- changing, each under an exclusive lock on the file: `record`, `record_doubler`,
  `record_pot`, `void`, `undo`, `amend`, `seat_add`, `seat_remove`, `repair`; `preview` scores a
  hand as `record` would, without writing.

A reader sees one snapshot of the file: it opens it once, notes its size under a shared lock
(so never in the middle of an append) and reads no further; a rewrite renames a new file over
the path, so the file it has open never changes under it. An append is one write, flushed and
fsynced; a rewrite is a temp file in the same folder, fsynced and renamed over the session.
(Windows needs another protocol for its mandatory locks, in which a reader holds the lock and a
rewrite is copied in place from a journal: see `store.files` and `store.journal`.)
"""

import csv
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from . import steps
from .errors import HandError, ScorepadError
from .i18n import gettext as _
from .ledger import Counts, HandView, Ledger, Memo
from .reading import Followed, Reading, check_pass, refusal, resume, rules_in_force
from .rules import Rules, changed
from .scoring import Hand, Penalty, Score, find_player, same_name, seat
from .steps import Said, said_again
from .store import checkpoint, files
from .store.base import ENCODING, MAX_HEAD, TORN, VERIFY_HINT, SessionError
from .store.checkpoint import Checkpoint
from .store.format import (
    CREATED_VERSION,
    Codec,
    LedgerError,
    Problem,
    Row,
    RowKind,
    check_new_name,
    check_note,
)
from .store.journal import commit, temp_beside
from .store.lock import DEFAULT_WAIT, WAIT, Waiting, locked
from .store.scan import line_count
from .store.snapshot import Head, LineTooLong, Snapshot
from .store.tail import row_at_line, tail
from .store.write import add_column, append, create, upgrade

__all__ = [
    "DEFAULT_WAIT",
    "Checkpoint",
    "Followed",
    "Head",
    "Reading",
    "Said",
    "Session",
    "SessionError",
    "Waiting",
    "check_pass",
    "now",
    "refusal",
    "said_again",
]


_T = TypeVar("_T")


def now() -> str:
    """The time a row is written, as ISO 8601 with the local offset."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


class _Upgrade(Exception):
    """A change needs a newer format than the file's (raised before anything is written)."""

    def __init__(self, version: int):
        super().__init__(version)
        self.version = version  # the format it needs


class _Resumed(NamedTuple):
    fd: int  # open for appending, holding the lock
    head: Head
    ledger: Ledger
    last: Row
    last_hand: int
    snapshot: Snapshot  # the file as the night was read from it (through `fd`)


def _check_seats_alike(hand: Hand, ledger: Ledger) -> None:
    """A replayed hand is recorded only at the table its hand file seats: the players it deals
    in, in seat order, are those the session's hand deals in (a hand file of another table,
    or of these players seated otherwise, would be scored for seats it was not played at)."""
    dealer = ledger.next_dealer  # (the hand file's, if it names one: `record_replayed` checks)
    theirs = seat(ledger.rules, hand.players, dealer, hand.out).order
    ours = seat(ledger.rules, ledger.seated, dealer, hand.out).order
    if [same_name(p) for p in theirs] != [same_name(p) for p in ours]:
        raise HandError(
            _(
                "not recorded: the hand file deals {theirs} in, in seat order; the session's "
                "hand deals {ours}"
            ).format(theirs=", ".join(theirs), ours=", ".join(ours))
        )


class Session:
    """One session file: read it, check it, and change it (every change under its lock)."""

    def __init__(self, path: Path | str, waiting: Waiting = WAIT, most_hands: int | None = None):
        self.path = Path(path)
        self.waiting = waiting  # how long to wait for another scorepad's lock
        self._fd: int | None = None  # open and locked while this process changes the file
        # the hands the file may count (a tournament table: its round's hands), or None
        self.most_hands = most_hands

    def _room(self) -> None:
        """Under the lock: refuses a hand past `most_hands` (a tournament table whose round is
        played out). The hands that count need the pass (a tail does not hold them): a
        tournament table is a round's few hands."""
        if self.most_hands is None:
            return
        counted = self.check(resume=True)[0].hands
        if counted >= self.most_hands:
            raise HandError(
                _(
                    "not recorded: this table's round has {most} hands and all {most} are recorded"
                ).format(most=self.most_hands)
            )

    def _snapshot(self) -> Snapshot:
        if self._fd is not None:  # (a writer reads through the descriptor it holds locked)
            return Snapshot(self.path, fd=self._fd)
        return Snapshot(self.path, self.waiting)

    @classmethod
    def create(
        cls, path: Path | str, players: Sequence[str], rules: Rules, first_dealer: str
    ) -> "Session":
        """Start a new session file (never overwrites one)."""
        create(Path(path), players, rules, first_dealer, now())
        return cls(path)

    # -- reading --

    def head(self) -> Head:
        """The players, rules and first dealer (reads only the top of the file)."""
        with self._snapshot() as snapshot:
            return snapshot.read_head()[0]

    def state(self) -> Ledger:
        """The night as its last row records it (reads only the top and the end)."""
        with self.reading() as reading:
            return reading.state()

    @contextmanager
    def reading(self) -> Iterator[Reading]:
        """One snapshot of the file, for a command that needs its head before the pass (the
        head and the rows then come from the same version of the file)."""
        with self._snapshot() as snapshot:
            yield Reading(self.path, snapshot)

    def check(
        self,
        on_hand: Callable[[HandView], None] | None = None,
        counts: Counts | None = None,
        resume: bool = False,
        memo: Memo | None = None,
    ) -> tuple[Ledger, list[Problem]]:
        """The one pass: apply and check every row; returns the final state and every problem
        (see `Reading.check`)."""
        with self.reading() as reading:
            return reading.check(on_hand, counts=counts, resume=resume, memo=memo)

    def night(self, keep: Sequence[int] = ()) -> Ledger:
        """The checked night, keeping hands `keep` (see `Reading.night`)."""
        with self.reading() as reading:
            return reading.night(keep=keep)

    def rows_since(self, offset: int, most: int) -> tuple[list[Row], int]:
        """The rows appended since byte `offset`, and where the file ends now. None when the
        offset is not past the header or past the end (a new or rewritten file), or when more
        than `most` bytes came since (a caller then shows the state instead). A SessionError
        when the file or the new rows cannot be read."""
        with self._snapshot() as snapshot:
            end = snapshot.size
            first = files.pread(snapshot.fd, MAX_HEAD, 0).find(b"\n") + 1
            if not 0 < first <= offset <= end or end - offset > most:
                return [], end
            head, _unused = snapshot.read_head()
            data = files.pread(snapshot.fd, end - offset, offset)
        try:
            lines = data.decode(ENCODING).splitlines()
            return [head.codec.decode(c, 0) for c in csv.reader(lines, strict=True) if c], end
        except (UnicodeDecodeError, csv.Error, LedgerError) as exc:
            raise SessionError(
                self.path, _("cannot read the new rows: {exc}").format(exc=exc)
            ) from None

    def preview(self, hand: Hand) -> Score:
        """Score a hand as `record` would now, without writing anything."""
        ledger = self.state()
        return ledger.score_hand(ledger.prepare(hand))

    # -- changing --

    @contextmanager
    def _locked(self) -> Iterator[int]:
        """Hold the exclusive lock; reads meanwhile take no shared lock of their own."""
        with locked(self.path, self.waiting) as fd:
            self._fd = fd
            try:
                yield fd
            finally:
                self._fd = None

    @contextmanager
    def _resumed(self) -> Iterator[_Resumed]:
        """Under the lock: the night as its last row records it, to add a row to."""
        with self._locked() as fd, self._snapshot() as snapshot:
            head, _unused = snapshot.read_head()
            last, last_hand = tail(snapshot, head)
            ledger = resume(snapshot, head, last, last_hand)
            yield _Resumed(fd, head, ledger, last, last_hand, snapshot)

    def _append(self, fd: int, codec: Codec, row: Row) -> None:
        """Append a row; one that needs a newer format than the file's raises `_Upgrade` (the
        caller's change is then made again once the file is rewritten in it)."""
        if not codec.holds(row):
            raise _Upgrade(Codec.needs(row))
        append(self.path, fd, codec, [row])

    def _upgraded(self, needed: _Upgrade) -> None:
        """Rewrite the file in the format a new row needs, or the one a new session is written
        in if that is newer (only a file that verifies: a problem is an error that says to run
        verify). A file that has every column of that format already cannot hold the row
        either: that is an error, not a loop."""
        with self._locked() as fd:
            head = self.head()
            version = max(needed.version, CREATED_VERSION)
            wanted = Codec.new(head.players, version)
            if head.codec.version >= version and set(wanted.order) <= set(head.codec.order):
                raise SessionError(self.path, _("this file cannot hold the new row"), 1)
            self.night()
            upgrade(self.path, fd, head, version)

    def _retried(self, change: Callable[[], _T]) -> _T:
        """Make a change; one whose row needs a newer format than the file's (`_Upgrade`) is
        made again once the file is rewritten in it."""
        try:
            return change()
        except _Upgrade as needed:
            self._upgraded(needed)
            return self._retried(change)

    def _appended(self, make: Callable[[_Resumed], tuple[Row, Any]]) -> tuple[Row, Any, Ledger]:
        """Under the lock: the row `make` makes from the night as its last row records it (and
        what it gives besides), appended; and the night after it (see `_retried`)."""

        def change() -> tuple[Row, Any, Ledger]:
            with self._resumed() as night:
                row, made = make(night)
                self._append(night.fd, night.head.codec, row)
            return row, made, night.ledger

        return self._retried(change)

    def record(self, hand: Hand, note: str = "", digest: str = "") -> tuple[Row, Score, Ledger]:
        """Score a hand and append it; returns its row, its score and the night after it. An
        imported game keeps its hand file's `digest` (the import checks it is new)."""

        def make(night: _Resumed) -> tuple[Row, Score]:
            self._room()
            row, result = night.ledger.record(hand, note, now())
            return (row._replace(digest=digest) if digest else row), result

        return self._appended(make)

    def record_replayed(self, hand: Hand, digest: str, note: str = "") -> tuple[Row, Score, Ledger]:
        """Record a hand replayed from its hand file, keeping the file's `digest` with its row
        (format 7): refused when a hand the session counts was recorded from the same hand
        file (a pass over the rows' digests), when the hand file's dealer is not the
        session's next, or when it seats other players or seats them otherwise
        (`_check_seats_alike`)."""

        def make(night: _Resumed) -> tuple[Row, Score]:
            ledger = night.ledger
            self._room()
            recorded = self.digests(night.head)
            if digest in recorded:
                raise HandError(
                    _(
                        "not recorded: this hand file is recorded already, as hand {recorded} "
                        "(void that hand first to record it again)"
                    ).format(recorded=recorded[digest])
                )
            if hand.dealer is not None and same_name(hand.dealer) != same_name(ledger.next_dealer):
                raise HandError(
                    _(
                        "not recorded: the hand file says {dealer} deals, but the session's "
                        "next hand ({last_hand}) is {next_dealer}'s to deal"
                    ).format(
                        dealer=hand.dealer,
                        last_hand=ledger.last_hand + 1,
                        next_dealer=ledger.next_dealer,
                    )
                )
            _check_seats_alike(hand, ledger)
            row, result = ledger.record(hand, note, now())
            return row._replace(digest=digest), result

        return self._appended(make)

    def digests(self, head: Head) -> dict[str, int]:
        """The digests of the hand files of the hands the session counts (`Codec.digests`)."""
        with self._snapshot() as snapshot:
            reader = csv.reader(snapshot.lines(), strict=True)
            for _try in range(3):
                next(reader, None)
            try:
                return head.codec.digests(reader)
            except (csv.Error, UnicodeDecodeError, LineTooLong) as exc:
                raise SessionError(
                    self.path,
                    _("cannot read the rows ({exc}); {verify_hint}").format(
                        exc=exc, verify_hint=VERIFY_HINT
                    ),
                ) from None

    def penalty(self, penalty: Penalty, note: str = "") -> tuple[Row, Score, Ledger]:
        """Append a penalty: a row of its own, numbered like a hand, that moves no deal."""
        return self._appended(lambda night: night.ledger.penalty_row(penalty, note, now()))

    def record_doubler(self, dealer: str | None = None, note: str = "") -> tuple[Row, Ledger]:
        """Append a thrown-in hand (all_pass = doubler)."""
        row, _none, ledger = self._appended(
            lambda night: (night.ledger.record_doubler(dealer, note, now()), None)
        )
        return row, ledger

    def bock(self, rounds: int = 1, note: str = "") -> tuple[Row, Ledger]:
        """Start Bock rounds by the table's decision (`scorepad bock`): a row of its own, from
        the next hand on (after the rounds owed, under bock_stacking = queue)."""

        def make(night: _Resumed) -> tuple[Row, None]:
            line = line_count(night.snapshot) + 1
            return night.ledger.bock_row(rounds, line, note, now()), None

        row, _none, ledger = self._appended(make)
        return row, ledger

    def record_pot(
        self, dealer: str | None = None, out: Sequence[str] = (), note: str = ""
    ) -> tuple[Row, Score, Ledger]:
        """Append a hand everyone passed into the pot (all_pass = pot): each player dealt in
        pays the ante (the file is first rewritten in format 8, which has the pot's column)."""
        return self._appended(lambda night: night.ledger.record_pot(dealer, out, note, now()))

    def _correct(
        self, ref: int, make: Callable[[Ledger, int], tuple[Row, Score | None]]
    ) -> tuple[Row, Score | None, Ledger]:
        """Under the lock: check the whole file, then append the correction `make` makes."""

        def change() -> tuple[Row, Score | None, Ledger]:
            with self._locked() as fd:
                return self._correct_held(fd, ref, make)

        return self._retried(change)

    def _correct_held(
        self, fd: int, ref: int, make: Callable[[Ledger, int], tuple[Row, Score | None]]
    ) -> tuple[Row, Score | None, Ledger]:
        """`_correct`, the lock held already."""
        ledger = self.night(keep=[ref])
        row, result = make(ledger, ref)
        self._append(fd, ledger.codec, row)
        return row, result, ledger

    def void(self, ref: int, reason: str = "") -> tuple[Row, Ledger]:
        """Void hand `ref`: its points are reversed by a new row."""
        row, _unused, ledger = self._correct(
            ref, lambda led, r: (led.void_row(r, reason, now()), None)
        )
        return row, ledger

    def undo(self, reason: str = "") -> tuple[str, Row, Score | None, Ledger]:
        """Take back the last change not taken back yet, whatever it was, with a row of its own
        that names it (`undoes`): a hand (or doubler, or penalty) is voided, a void restored, an
        amendment taken back (the hand as it was before it), a seat change or a change of the
        rules reversed. Called again, it takes back the change before that. Returns what was
        undone (in words), the new row, its score if it has one, and the night after it."""
        return self.steps(1, reason, back=True)[0]

    def redo(self, reason: str = "") -> tuple[str, Row, Score | None, Ledger]:
        """Make again the change the last `undo` took back (a row of its own, `redoes`), until a
        new change is made. Returns as `undo` does."""
        return self.steps(1, reason, back=False)[0]

    def steps(
        self, count: int, reason: str = "", back: bool = True
    ) -> list[tuple[str, Row, Score | None, Ledger]]:
        """`count` undos (`back`) or redos, each a row of its own, as one change: all of them
        or none (refused, with nothing written, when fewer can be taken). More than one are
        made on a copy of the file, which is then put in its place as a rewrite is (a crash
        leaves the file as it was, or with every step)."""

        def change() -> list[tuple[str, Row, Score | None, Ledger]]:
            with self._locked() as fd:
                with self._snapshot() as snapshot:
                    head, _unused = snapshot.read_head()
                    if snapshot.torn():
                        raise SessionError(self.path, TORN, line_count(snapshot) + 1)
                    possible = steps.left(snapshot, head, back, count)
                if possible < count:
                    why = steps.too_few(possible, count, back) if count > 1 else None
                    raise HandError(why or steps.nothing_to(back))
                if count == 1:
                    return [self._step_held(fd, reason, back)]
                return self._steps_on_a_copy(fd, count, reason, back)

        return self._retried(change)  # (an older format may have no column to name it in)

    def _steps_on_a_copy(
        self, fd: int, count: int, reason: str, back: bool
    ) -> list[tuple[str, Row, Score | None, Ledger]]:
        """`count` steps made on a copy of the file (the lock held on it), then the copy put in
        its place (`journal.commit`)."""
        copy, temp = temp_beside(self.path)
        try:
            with self._snapshot() as snapshot:
                snapshot.copy_to(copy)
        finally:
            os.close(copy)
        try:
            scratch = Session(temp, self.waiting)
            done: list[tuple[str, Row, Score | None, Ledger]] = []
            for _step in range(count):
                done += scratch.steps(1, reason, back)
            commit(self.path, fd, temp)
        finally:
            with suppress(OSError):
                os.unlink(temp)
            checkpoint.forget(Path(temp))  # (a pass over the copy may have left one)
        return done

    def _step_held(self, fd: int, reason: str, back: bool) -> tuple[str, Row, Score | None, Ledger]:
        """One undo or redo, the lock held (`steps` found the last line whole, and a change to
        take)."""
        with self._snapshot() as snapshot:
            head, _unused = snapshot.read_head()
            change = steps.to_take(snapshot, head, back)
            assert change is not None
            last_row, last_hand = tail(snapshot, head)
            ledger = resume(snapshot, head, last_row, last_hand)
            end = line_count(snapshot) + 1  # the line the new row will stand on
            before: tuple[tuple[str, ...], Rules] = (head.players, head.rules)
            if change.kind in (RowKind.SEAT, RowKind.SET):
                above = row_at_line(snapshot, head, change.line - 1) if change.line > 4 else None
                above = above or head.start
                seats = tuple(above.seated or head.start.seated or head.players)
                before = (seats, rules_in_force(snapshot, head, above.rules_line))
        if change.kind in (RowKind.BOCK, RowKind.SEAT, RowKind.SET):
            kept = steps.rescored(change, last_hand)  # (`set --from`: the hands scored again)
            if change.kind is RowKind.BOCK or kept:  # (the whole night: the Bock hands since)
                ledger = self.night(keep=kept)
            what, row = steps.change_row(change, ledger, back, reason, now(), end, before)
            self._append(fd, head.codec, row)
            return what, row, None, ledger
        step = steps.correction(change, back, reason, now())
        return (step.what, *self._correct_held(fd, step.ref, step.make))

    def amend(
        self, ref: int, changes: Mapping[str, Any], note: str = ""
    ) -> tuple[Row, Score | None, Ledger]:
        """Replace some inputs of hand `ref` and re-score it."""
        return self._correct(ref, lambda led, r: led.amend_row(r, changes, note, now()))

    def seat_add(
        self, name: str, after: str | None = None, note: str = ""
    ) -> tuple[str, str, Ledger]:
        """Seat a player who joins (a newcomer gets a column); returns their name as written,
        where they sit, and the night after. `note` is kept with the change."""
        with self._resumed() as night:
            fd, head, ledger = night.fd, night.head, night.ledger
            name = check_new_name(name)
            player = next((p for p in head.players if same_name(p) == same_name(name)), name)
            if player in ledger.seated:
                raise ScorepadError(_("{player} is already seated").format(player=player))
            order = list(ledger.seated)
            after = find_player(after, order, "⟨after⟩") if after else None
            order.insert(order.index(after) + 1 if after else len(order), player)
            codec = head.codec
            if player not in head.players:  # a newcomer: a new column, next to where they sit
                players = list(head.players)
                players.insert(players.index(after) + 1 if after else len(players), player)
                cells = list(codec.order)
                at = codec.index[after] + 1 if after else codec.player_at[-1] + 1
                cells.insert(at, player)
                codec = Codec(players, cells, codec.version)
                ledger = Ledger.resume(
                    ledger.rules, players, night.last, night.last_hand, codec, night.last.rules_line
                )
            place = f" after {after}" if after else ""
            said = f"{player} joins{place}" + (f": {check_note(note)}" if note else "")
            row = ledger.seat_row(order, said, now())
            if codec is head.codec:
                append(self.path, fd, codec, [row])
            else:
                add_column(self.path, fd, head, codec, [row])
        return player, place, ledger

    def set_rules(self, overrides: Sequence[str], note: str = "") -> tuple[Row, Ledger]:
        """Change some rules from the next hand on: a row of its own holding the whole table
        then in force. A file of an older format is first rewritten in a newer one (it needs
        the column that says which rules are in force): a change that would be refused is
        refused before any rewrite (`_appended`)."""

        def make(night: _Resumed) -> tuple[Row, None]:
            line = line_count(night.snapshot) + 1
            rules = changed(night.ledger.rules, overrides)
            return night.ledger.set_row(rules, list(overrides), line, note, now()), None

        row, _none, ledger = self._appended(make)
        return row, ledger

    def set_rules_from(
        self, overrides: Sequence[str], start: int, note: str = ""
    ) -> tuple[Row, Ledger]:
        """Change rules from hand `start` on, the hands since scored again (`set_from_row`)."""

        def change() -> tuple[Row, Ledger]:
            with self._locked() as fd:
                with self._snapshot() as snapshot:
                    head = snapshot.read_head()[0]
                    last_hand, line = tail(snapshot, head)[1], line_count(snapshot) + 1
                ledger = self.night(keep=range(max(start, 1), last_hand + 1))
                rules = changed(ledger.rules, overrides)
                row = ledger.set_from_row(rules, list(overrides), start, line, note, now())
                self._append(fd, head.codec, row)  # (format 10 on: see `Codec.needs`)
                return row, ledger

        return self._retried(change)

    def seat_remove(self, name: str, note: str = "") -> tuple[str, Ledger]:
        """A player leaves: they keep their total and are no longer dealt in. `note` is kept
        with the change."""
        with self._resumed() as night:
            ledger = night.ledger
            gone = next(
                (p for p in night.head.players if same_name(p) == same_name(name.strip())), None
            )
            if gone is not None and gone not in ledger.seated:
                raise ScorepadError(
                    _("{gone} has already left the table; seated: {seated}").format(
                        gone=gone, seated=", ".join(ledger.seated)
                    )
                )
            player = find_player(name, ledger.seated, "seat remove")
            order = [p for p in ledger.seated if p != player]
            said = f"{player} leaves" + (f": {check_note(note)}" if note else "")
            row = ledger.seat_row(order, said, now())
            append(self.path, night.fd, night.head.codec, [row])
        return player, ledger

    def repair(self, tell: Callable[[str], None] | None = None) -> list[str]:
        """Mend what a crash or an editor leaves, keeping every complete hand: a torn last line
        and lines that cannot be read as CSV (moved into FILE.rejected; `tell` is told of
        each of those before anything is changed), blank lines anywhere (renumbering the
        lines that rows name), and whole numbers written as `2.0` (as a spreadsheet or pandas
        saves them). Returns what it did, a line each (nothing when
        there was nothing to mend; running it again does nothing). The file is read a block at
        a time and rewritten atomically, the original kept as FILE.bak: about twice its size,
        which is looked for first (without it, an error that says what it needs, and nothing
        written)."""
        from .store.repair import repair_file  # (only `repair` mends)

        path = self.path
        with self._locked(), self._snapshot() as snapshot:
            if snapshot.size > 0:
                try:
                    codec: Codec | None = snapshot.read_head()[0].codec
                except SessionError:
                    codec = None  # a head that cannot be read: mend what needs no columns
                return repair_file(snapshot, codec, tell)
        # A `new` that never finished: there is nothing in it. (Removed once it is closed:
        # Windows removes no open file.)
        try:
            os.unlink(path)
        except OSError as exc:
            raise SessionError(
                path, _("cannot remove the empty file: {strerror}").format(strerror=exc.strerror)
            ) from None
        return [_("removed the empty file (start the session with `scorepad new`)")]
