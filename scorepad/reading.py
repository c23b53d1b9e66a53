"""A session file read and checked: its head, then one pass over its rows (`Reading`).

The pass decodes a row, scores it, compares it with what the rows above give and applies it
(`ledger.Checker.feed`), row by row, in one process. A report right after a new hand need not
read the rows it read before: the checkpoint beside the file holds the state after them, which
the pass takes up once the digests of those rows and of the checkpoint itself hold
(`store.checkpoint`). `verify` never takes it up: it reads every row, and says where the
checkpoint does not hold what the pass computed.

A reading sees one snapshot of the file (`store.snapshot`): the file it has open never changes
under it.
"""

import csv
from collections.abc import Callable, Iterable, Sequence
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

from .errors import ScorepadError
from .i18n import gettext as _
from .ledger import Counts, HandView, Ledger, Memo, restore, rules_of_set_row, saved
from .rules import Rules
from .store import checkpoint, files
from .store.base import ENCODING, MAX_HEAD, MAX_LINE, REPAIR, TORN, VERIFY_HINT, SessionError
from .store.checkpoint import Checkpoint
from .store.format import LedgerError, Problem, Row, RowKind
from .store.scan import Fate, cells_at, find_corrections, line_count
from .store.snapshot import TOO_LONG, Head, LineTooLong, Snapshot
from .store.tail import row_at_line, tail

__all__ = ["Followed", "Reading", "check_pass", "refusal"]


def check_pass(
    snapshot: Snapshot,
    reader: Any,
    ledger: Ledger,
    line_ends: int,
    stop_at_first: bool = False,
    above: int = 0,
) -> list[Problem]:
    """Feed every row the reader gives to the ledger (`above` lines of the file come before
    its first); returns every problem found."""
    torn_at = line_ends + 1 if snapshot.torn() else None
    problems: list[Problem] = []
    feed = ledger.feed
    done = above + reader.line_num  # the last line read
    while True:
        try:
            for cells in reader:
                line = done + 1  # where this record started
                done = above + reader.line_num
                if done != line:
                    if torn_at is not None and done >= torn_at:  # a torn line, not a break
                        problems.append(Problem(torn_at, TORN))
                        return problems
                    found = [Problem(line, _("a cell holds a line break"))]
                elif torn_at is not None and line == torn_at:
                    problems.append(Problem(torn_at, TORN))
                    return problems
                else:
                    found = feed(cells, line)
                if found:
                    problems += found
                    if stop_at_first:
                        return problems
            return problems
        except csv.Error as exc:
            line = done + 1
            if line == torn_at:  # (torn inside a quoted cell: the reader found no end to it)
                problems.append(Problem(line, TORN))
                return problems
            problems.append(
                Problem(
                    line,
                    _(
                        "cannot read this line as CSV: {exc}; `scorepad repair` moves it into a "
                        ".rejected file beside it"
                    ).format(exc=exc),
                )
            )
            if above + reader.line_num < line or stop_at_first:
                return problems
            done = above + reader.line_num
        except UnicodeDecodeError:
            problems.append(Problem(done + 1, _("not UTF-8 text")))
            return problems
        except LineTooLong:
            problems.append(Problem(done + 1, TOO_LONG))
            return problems


class Followed(NamedTuple):
    """What a pass of `Reading.follow` leaves: the night, its problems (the first), the state
    at its end (None after a problem, or at a torn last line) and whether it began at the state
    it was given."""

    ledger: Ledger
    problems: list[Problem]
    kept: Checkpoint | None
    resumed: bool


class _Passed(NamedTuple):
    """What one pass (`Reading._pass`) leaves."""

    ledger: Ledger
    problems: list[Problem]
    kept: Checkpoint | None = None  # the state at its end (see `_pass`)
    marked: dict[str, Any] | None = None  # the state where the `mark` it was given ends


class Audit(NamedTuple):
    """What `Reading.verify` found: the night, every problem, and what the checkpoint beside
    the file held that the pass did not compute ("" when it held nothing amiss)."""

    ledger: Ledger
    problems: list[Problem]
    checkpoint: str
    written: bool  # whether a good checkpoint was written


class Reading:
    """One snapshot of a session file being read: its head, then one pass over its rows."""

    def __init__(self, path: Path, snapshot: Snapshot):
        self.path = path
        self._snapshot = snapshot
        self.head, _unused = snapshot.read_head()  # (the pass reads on from line 3 itself)

    @property
    def size(self) -> int:
        """The bytes of the file this reading sees."""
        return self._snapshot.size

    def state(self) -> Ledger:
        """The night as its last row records it (reads only the end of the file, and the row
        of the last change of the rules, if there was one)."""
        last, last_hand = tail(self._snapshot, self.head)
        return resume(self._snapshot, self.head, last, last_hand)

    def check(
        self,
        on_hand: Callable[[HandView], None] | None = None,
        stop_at_first: bool = False,
        keep: Sequence[int] = (),
        counts: Counts | None = None,
        on_set: Callable[[Row, int], None] | None = None,
        resume: bool = False,
        memo: Memo | None = None,
    ) -> tuple[Ledger, list[Problem]]:
        """The one pass: apply and check every row; returns the final state and every problem.

        `on_hand` is called with every hand's final version as the pass reaches it, `on_set`
        with every change of the rules (and the hand it applies from) in its place; `keep`
        names hands to remember to the end (a correction is about to be made); `counts` counts
        the hands by their final versions (see `Ledger`); `memo` is where scored hands are
        remembered, to share with the passes over other nights (a season's).

        `resume`: a pass that needs no hand but the last (no `on_hand`, `on_set` or `keep`)
        starts from the file's checkpoint where one fits (see `store.checkpoint`), feeding only
        the rows after it, and leaves a new one after a pass without problems (a file of at
        least `checkpoint.MIN_SIZE` bytes, when `counts` is one that can be saved). A
        checkpoint that does not fit, or rows after it that correct a hand before it, mean the
        whole file is read."""
        resume = resume and on_hand is None and on_set is None and not keep
        found = checkpoint.read(self._snapshot, self.head) if resume else None
        since = None if found is None else found.checkpoint
        hasher = None if found is None else found.hasher
        done = self._pass(since, hasher, on_hand, counts, on_set, keep, stop_at_first, memo)
        if done is None:  # (the checkpoint's state does not fit: from the first row)
            since = None
            done = self._pass(None, None, on_hand, counts, on_set, keep, stop_at_first, memo)
            assert done is not None
        kept = done.kept
        if resume and kept is not None and (since is None or kept.offset != since.offset):
            self._save(kept)
        return done.ledger, done.problems

    def verify(self, counts: Counts) -> Audit:
        """The whole file checked, the checkpoint beside it not taken up: every problem, and
        what the checkpoint held that the pass did not compute (its state where it ends, or
        why it fits no state of this file). After a pass without problems, a good checkpoint
        is written."""
        found = checkpoint.read(self._snapshot, self.head)
        since = found.checkpoint
        done = self._pass(None, None, None, counts, None, (), False, None, since)
        assert done is not None  # (from the first row)
        said = found.why
        if since is not None and done.kept is not None and done.marked != since.state:
            said = _("it held another state of the night than the rows it covers give")
        written = done.kept is not None and self._save(done.kept)
        return Audit(done.ledger, done.problems, said, written)

    def _save(self, kept: Checkpoint) -> bool:
        """Write a checkpoint of the state `kept` beside a file large enough to have one;
        whether it was written."""
        if self._snapshot.size < checkpoint.MIN_SIZE:
            return False
        return checkpoint.save(self.head, kept.offset, kept.lines, kept.digest, kept.state)

    def _pass(
        self,
        since: Checkpoint | None,
        hasher: Any,
        on_hand: Callable[[HandView], None] | None,
        counts: Counts | None,
        on_set: Callable[[Row, int], None] | None,
        keep: Sequence[int],
        stop_at_first: bool,
        memo: Memo | None,
        mark: Checkpoint | None = None,
    ) -> "_Passed | None":
        """The pass from the state `since` (its digest `hasher`), or from the first row; and the
        state at its end, with the digest of the bytes before it (None after a problem, at a
        torn line, or where a hand is kept for a correction). `mark`: a checkpoint where the
        pass notes the state it computed (`verify`). None, having read no row, when the state
        `since` does not fit the file (`_restore`)."""
        snapshot, head = self._snapshot, self.head
        details = on_hand is not None
        start, above = (since.offset, since.lines) if since is not None else (0, 3)
        if since is None:
            hasher = checkpoint.new_digest()
        # (the scan reads every byte after `start`: the digest goes on through them)
        corrections, line_ends, longest = find_corrections(snapshot, head, details, start, hasher)
        ledger = self._ledger(corrections, on_hand, counts, memo)
        if since is not None and not self._restore(ledger, since, counts):
            return None
        ledger.on_set = on_set
        for ref in keep:
            ledger.keep(ref)
        if start:
            line_ends += above
        else:
            start = _head_end(snapshot)
        bounded = longest > MAX_LINE
        lines = iter(snapshot.lines_from(start, bounded))
        marked = None
        if mark is not None and mark.lines > above:
            reader = csv.reader(islice(lines, mark.lines - above), strict=True)
            problems = check_pass(snapshot, reader, ledger, line_ends, stop_at_first, above)
            if problems:
                return _Passed(ledger, problems)
            above, marked = mark.lines, self._state(ledger, counts)
        reader = csv.reader(lines, strict=True)
        problems = check_pass(snapshot, reader, ledger, line_ends, stop_at_first, above)
        ledger._cells_at = None  # (the snapshot closes: nothing reads it again)
        state = None if problems or snapshot.torn() else self._state(ledger, counts)
        if state is None:
            return _Passed(ledger, problems)
        kept = Checkpoint(snapshot.size, line_ends, state, hasher.hexdigest())
        return _Passed(ledger, problems, kept, marked)

    @staticmethod
    def _state(ledger: Ledger, counts: Counts | None) -> dict[str, Any] | None:
        """The state a checkpoint keeps: the night and the counts (None while a hand is kept for
        a correction still to come, or with counts that cannot be kept)."""
        night = saved(ledger)
        kept = None if counts is None else counts.saved()
        if night is None or (counts is not None and kept is None):
            return None
        return {"night": night, "counts": kept}

    def _ledger(
        self,
        corrections: dict[int, Fate],
        on_hand: Callable[[HandView], None] | None,
        counts: Counts | None,
        memo: Memo | None = None,
    ) -> Ledger:
        head, snapshot = self.head, self._snapshot
        return Ledger(
            head.rules,
            head.players,
            head.first_dealer,
            seated=head.start.seated or head.players,
            codec=head.codec,
            corrections=corrections,
            on_hand=on_hand,
            counts=counts,
            cells_at=lambda offset: cells_at(snapshot, offset),
            memo=memo,
        )

    def _restore(self, ledger: Ledger, since: Checkpoint, counts: Counts | None) -> bool:
        """Put a checkpoint's state into a new ledger; False when it does not fit this file (a
        field amiss, a state other than the last row it covers records) or when the rows after
        it correct a hand before it (they need that hand as the pass left it)."""
        state = since.state
        night = state.get("night")
        if not isinstance(night, dict) or not isinstance(night.get("last_hand"), int):
            return False
        if any(ref <= night["last_hand"] for ref in ledger.corrections):
            return False
        snapshot, head = self._snapshot, self.head
        try:
            last = _row_before(snapshot, head, since.offset, since.lines)
            if not restore(ledger, night, last, lambda line: rules_in_force(snapshot, head, line)):
                return False
        except SessionError:
            return False
        return counts is None or counts.restore(state.get("counts"))

    def rows(self) -> Iterable[Row]:
        """Every row below the head, decoded, with its line (a second pass, after `night`)."""
        reader = csv.reader(self._snapshot.lines(), strict=True)
        for _try in range(3):
            next(reader, None)
        for cells in reader:
            yield self.head.codec.decode(cells, reader.line_num)

    def night(
        self,
        on_hand: Callable[[HandView], None] | None = None,
        keep: Sequence[int] = (),
        counts: Counts | None = None,
        on_set: Callable[[Row, int], None] | None = None,
        memo: Memo | None = None,
    ) -> Ledger:
        """The checked night for a report; the first problem is an error that says to run
        verify (or repair, for what it mends: a torn last line, a blank one, a decimal).
        `memo`: where scored hands are remembered, for the next night (a season's)."""
        ledger, problems = self.check(
            on_hand,
            stop_at_first=True,
            keep=keep,
            counts=counts,
            on_set=on_set,
            resume=True,
            memo=memo,
        )
        if problems:
            raise refusal(self.path, problems[0])
        return ledger

    def follow(
        self,
        since: Checkpoint | None,
        begin: Callable[[Checkpoint | None], tuple[Callable[[HandView], None], Counts]],
        extra: Callable[[], Any],
    ) -> Followed:
        """The pass of a reader that holds the night as the file grows (the live board): from
        the state `since` (a state an earlier pass left, kept in memory), where the digest of
        the bytes it was made after still holds and no row after it reaches back before it (a
        correction of a hand before it); else from the start.

        `begin(since)` is called once the pass knows where it starts (the state it starts from,
        or None) and gives what to tell of each hand and the counts; `extra()` gives what the
        caller keeps of its own with the state the pass leaves (`Checkpoint.state["extra"]`)."""
        snapshot = self._snapshot
        hasher = None
        if since is not None:
            hasher = checkpoint.confirm(snapshot, since.offset, since.lines, since.digest)
            if hasher is None or not isinstance(since.state.get("night"), dict):
                since = None
        if since is not None:
            last_hand = since.state["night"]["last_hand"]
            corrections, _ends, _longest = find_corrections(
                snapshot, self.head, False, since.offset
            )
            if any(ref <= last_hand for ref in corrections):
                since = None  # (that hand as the pass left it is not kept: from the start)
        done = None
        if since is not None:
            done = self._pass(since, hasher, *begin(since), None, (), True, None)
        if done is None:
            since = None
            done = self._pass(None, None, *begin(None), None, (), True, None)
            assert done is not None
        kept = done.kept
        if kept is not None:
            kept = kept._replace(state={**kept.state, "extra": extra()})
        return Followed(done.ledger, done.problems, kept, since is not None)


def refusal(path: Path, problem: Problem) -> SessionError:
    """The error a report gives for the first problem of a pass: it says to run verify (or
    repair, for what it mends: a torn last line, a blank one, a decimal)."""
    if REPAIR in problem.message:  # (it says what mends it)
        return SessionError(path, problem.message, problem.line)
    return SessionError(path, f"{problem.message} ({VERIFY_HINT})", problem.line)


def _head_end(snapshot: Snapshot) -> int:
    """The byte after the head's three lines (`read_head` checked them)."""
    data = files.pread(snapshot.fd, MAX_HEAD + 3, 0)
    end = -1
    for _line in range(3):
        end = data.index(b"\n", end + 1)
    return end + 1


def _row_before(snapshot: Snapshot, head: Head, offset: int, line: int) -> Row:
    """The row on the line that ends at byte `offset` (line `line`)."""
    start = max(0, offset - MAX_LINE - 2)
    data = files.pread(snapshot.fd, offset - start, start)
    begins = data.rfind(b"\n", 0, len(data) - 1) + 1
    if begins == 0 and start > 0:
        raise SessionError(head.path, TOO_LONG, line)
    raw = data[begins:-1].decode(ENCODING, "replace").rstrip("\r")
    try:
        cells = next(csv.reader([raw], strict=True))
        return head.codec.decode(cells, line)
    except (csv.Error, StopIteration, LedgerError) as exc:
        raise SessionError(
            head.path, _("cannot read this line: {exc}").format(exc=exc), line
        ) from None


def resume(snapshot: Snapshot, head: Head, last: Row, last_hand: int) -> Ledger:
    """The night as its last row records it, under the rules in force then (a change is made
    from it without a pass: totals that do not add up to zero, a sure sign of a hand-edited
    row, are refused, not carried on)."""
    rules = rules_in_force(snapshot, head, last.rules_line)
    off = sum(last.totals.values()) + last.pot if rules.settlement != "race" else 0
    if off:
        raise SessionError(
            head.path,
            _("totals: with the pot they do not add up to zero ({off:+d}); {verify_hint}").format(
                off=off, verify_hint=VERIFY_HINT
            ),
            line_count(snapshot),  # (the last row is the file's last line)
        )
    return Ledger.resume(rules, head.players, last, last_hand, head.codec, last.rules_line)


def rules_in_force(snapshot: Snapshot, head: Head, line: int | None) -> Rules:
    """The rules the `set` row at `line` put in force (the head's without one)."""
    if not line:
        return head.rules
    row = row_at_line(snapshot, head, line)
    if row.kind is not RowKind.SET:
        raise SessionError(
            head.path,
            _("rules_line: line {line} is not a change of the rules; {verify_hint}").format(
                line=line, verify_hint=VERIFY_HINT
            ),
            line,
        )
    try:
        return rules_of_set_row(row.note)
    except ScorepadError as exc:
        raise SessionError(head.path, f"{exc}; {VERIFY_HINT}", line) from None
