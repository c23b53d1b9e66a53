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
from contextlib import contextmanager
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

from . import parts
from .errors import HandError, ScorepadError
from .i18n import gettext as _
from .i18n import ngettext
from .ledger import (
    Counts,
    Fate,
    HandView,
    Ledger,
    Memo,
    joined,
    restore,
    rules_of_set_row,
    saved,
    set_row_text,
    start_of,
)
from .rules import Rules, changed
from .scoring import Hand, Penalty, Score, find_player, same_name, seat
from .store import checkpoint, files
from .store.base import ENCODING, MAX_HEAD, MAX_LINE, REPAIR, TORN, VERIFY_HINT, SessionError
from .store.checkpoint import Checkpoint
from .store.format import (
    CREATED_VERSION,
    HAND_KINDS,
    Codec,
    LedgerError,
    Problem,
    Row,
    RowKind,
    check_new_name,
    check_note,
)
from .store.lock import DEFAULT_WAIT, WAIT, Waiting, locked
from .store.repair import repair_file
from .store.scan import cells_at, find_corrections, line_count
from .store.snapshot import TOO_LONG, Head, LineTooLong, Snapshot
from .store.tail import row_at_line, rows_back, tail
from .store.upgrade import upgrade
from .store.write import add_column, append, create

__all__ = [
    "DEFAULT_WAIT",
    "FOLLOW_MARKS",
    "Checkpoint",
    "Followed",
    "Head",
    "Reading",
    "Session",
    "SessionError",
    "Waiting",
    "check_pass",
    "now",
]


def now() -> str:
    """The time a row is written, as ISO 8601 with the local offset."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


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
                    found = ledger.feed(cells, line)
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
            problems.append(Problem(line, _("cannot read this line as CSV: {exc}").format(exc=exc)))
            if above + reader.line_num < line or stop_at_first:
                return problems
            done = above + reader.line_num
        except UnicodeDecodeError:
            problems.append(Problem(done + 1, _("not UTF-8 text")))
            return problems
        except LineTooLong:
            problems.append(Problem(done + 1, TOO_LONG))
            return problems


_SPLIT_LOOK = 1 << 16  # the bytes after the middle of a file in which to look for a cut
_SPLIT_TRIES = 64  # the lines tried there


def _middle(size: int) -> int:
    """Where a file is cut in two for two processes: about half way (the tests cut elsewhere)."""
    return size // 2


class _Split(NamedTuple):
    """Where a file's rows are cut in two (`Reading._split_at`)."""

    offset: int  # the start of the first line below the cut
    last: Row  # the row above it
    begun: dict[str, Any]  # the state the row records, as `ledger.saved` writes it


class _Marked(NamedTuple):
    """A state the second process kept at a mark of `Reading.follow` (its part's alone: the
    first part's is joined to it)."""

    offset: int  # the start of the line it was kept before
    ends: int  # the line ends before it
    state: dict[str, Any]  # as `ledger.saved` writes it
    counts: Any  # as `Counts.saved` writes them
    made: Any  # what the callbacks had made there (`parts.Split.mark`)


class _Second(NamedTuple):
    """What the second process sends back of the rows below the cut."""

    above: int  # the lines above the cut
    state: dict[str, Any]  # the state after its rows, as `ledger.saved` writes it
    counts: Any  # its counts, as `Counts.saved` writes them (None: the pass counts nothing)
    refs: dict[int, int]  # its hands still to be corrected (none at the end of a clean pass)
    made: Any  # what the report's callbacks made (`parts.Split.made`)
    marks: tuple[_Marked, ...] = ()  # the states it kept at `stops` (`Reading.follow`)


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
        head = self.head
        last, last_hand = tail(self._snapshot, head)
        return _resume(self._snapshot, head, last, last_hand)

    def check(
        self,
        on_hand: Callable[[HandView], None] | None = None,
        stop_at_first: bool = False,
        keep: Sequence[int] = (),
        fast: bool = True,
        counts: Counts | None = None,
        on_set: Callable[[Row, int], None] | None = None,
        resume: bool = False,
        memo: Memo | None = None,
        split: parts.Split | None = None,
    ) -> tuple[Ledger, list[Problem]]:
        """The one pass: apply and check every row; returns the final state and every problem.

        `on_hand` is called with every hand's final version as the pass reaches it, `on_set`
        with every change of the rules (and the hand it applies from) in its place; `keep`
        names hands to remember to the end (a correction is about to be made); `counts` counts
        the hands by their final versions (see `Ledger`); `fast=False` decodes and re-scores
        every row (the tests compare the two); `memo` keeps what is remembered of the kinds of
        hand for the next pass (over another night: see `ledger.Memo`).

        `resume`: a pass that needs no hand but the last (no `on_hand`, `on_set` or `keep`)
        starts from the file's checkpoint where one fits (see `store.checkpoint`), feeding only
        the rows after it, and leaves a new one after a pass without problems (a file of at
        least `checkpoint.MIN_SIZE` bytes, when `counts` is one that can be saved).
        A checkpoint that does not fit, or rows after it that correct a hand before it, mean
        the whole file is read.

        `split`: how the report's callbacks are done in two parts (see `parts`): a large file
        read from its first row is then checked in two processes at once, where the machine
        allows (`_two_parts`). A pass that stops at its first problem, or has no callbacks,
        may be read so."""
        head, snapshot = self.head, self._snapshot
        two = (
            split is not None
            and fast
            and not keep
            and memo is None
            and (stop_at_first or (on_hand is None and on_set is None and counts is None))
            and (counts is None or counts.empty() is not None)
            and snapshot.size >= parts.TWO_PROCESSES_FROM
            and parts.available()
        )
        details = on_hand is not None or counts is not None or two
        resume = resume and fast and on_hand is None and on_set is None and not keep
        # (a checkpoint holds the counts: a pass without them leaves none, not to overwrite one)
        saving = (
            resume
            and snapshot.size >= checkpoint.MIN_SIZE
            and counts is not None
            and counts.saved() is not None
        )
        found = checkpoint.load(snapshot, head) if resume else None
        start, above, digest = 0, 3, None
        if found is not None:
            start, above, digest = found.offset, found.lines, found.digest
        elif saving:
            digest = checkpoint.new_digest()
        corrections, line_ends, longest = find_corrections(
            snapshot, head, details, start, digest if saving else None
        )
        ledger = self._ledger(corrections, on_hand, fast, counts, memo)
        if found is not None and not self._restore(ledger, found, counts):
            found = None  # (read from the start)
            digest = checkpoint.new_digest() if saving else None
            corrections, line_ends, longest = find_corrections(snapshot, head, details, 0, digest)
            ledger = self._ledger(corrections, on_hand, fast, counts, memo)
            start, above = 0, 3
        ledger.on_set = on_set
        for ref in keep:
            ledger.keep(ref)
        # The rows below the head, from where its reader stopped (line 3), or from the
        # checkpoint's end.
        bounded = longest > MAX_LINE
        if start:
            line_ends += above
        found_split = self._split_at(corrections) if two and not start else None
        if found_split is not None:
            assert split is not None
            ledger, problems = self._two_parts(
                ledger, found_split, split, bounded, line_ends, stop_at_first
            )
        else:
            lines = snapshot.lines_on(bounded) if not start else snapshot.lines_from(start, bounded)
            reader = csv.reader(lines, strict=True)
            problems = check_pass(snapshot, reader, ledger, line_ends, stop_at_first, above)
        ledger.done()
        if (
            saving
            and not problems
            and digest is not None
            and snapshot.size > start
            and not snapshot.torn()
        ):
            state = saved(ledger)
            if state is not None:
                assert counts is not None
                kept = {"night": state, "counts": counts.saved()}
                checkpoint.save(head, snapshot.size, line_ends, digest.hexdigest(), kept)
        return ledger, problems

    def _ledger(
        self,
        corrections: Mapping[int, Fate],
        on_hand: Callable[[HandView], None] | None,
        fast: bool,
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
            fast=fast,
            counts=counts,
            cells_at=lambda offset: cells_at(snapshot, offset),
            memo=memo,
        )

    # -- a large file in two processes (see `parts`) ---------------------------------------

    def _split_at(self, corrections: Mapping[int, Fate]) -> "_Split | None":
        """Where to cut the rows in two, about half way: the start of a line whose row above is
        a hand's that records the whole state after it (`ledger.start_of`) and that no row below
        corrects a hand above. None where no line near the middle is such."""
        snapshot, head = self._snapshot, self.head
        # (the first part is read from the head's end, which `_head_end` finds by its line
        # ends: a head with a lone CR, which the reader takes for one too, is read in one pass)
        if b"\r" in files.pread(snapshot.fd, _head_end(snapshot), 0).replace(b"\r\n", b""):
            return None
        at = _middle(snapshot.size)
        data = files.pread(snapshot.fd, _SPLIT_LOOK, at)
        cut = data.find(b"\n")
        for _try in range(_SPLIT_TRIES):
            if cut < 0:
                return None
            offset = at + cut + 1
            try:
                last = _row_before(snapshot, head, offset, 0)
            except SessionError:
                return None
            begun = start_of(last)
            if begun is not None and last.hand is not None:
                hand = last.hand
                if not any(
                    ref <= hand and max(fate.amended_at, fate.voided_at) >= offset
                    for ref, fate in corrections.items()
                ):
                    return _Split(offset, last, begun)
            cut = data.find(b"\n", cut + 1)
        return None

    def _second_part(
        self,
        cut: "_Split",
        corrections: Mapping[int, Fate],
        counts: Counts | None,
        split: parts.Split,
        bounded: bool,
        line_ends: int,
        stops: Sequence[tuple[int, int]] = (),
    ) -> "_Second | None":
        """The rows below the cut, checked from the state its row above records (in the second
        process: `_two_parts`); None when a problem was found (the first process reads them
        itself, and reports it as one pass does). `stops`: the marks (offset, line ends before
        it) below the cut where the state is kept (`Reading.follow`)."""
        snapshot, head = self._snapshot, self.head
        above = line_count(snapshot, cut.offset)
        hand = cut.last.hand
        assert hand is not None
        on_hand, on_set = split.second(hand)
        ledger = self._ledger(corrections, on_hand, True, counts)
        if not restore(ledger, cut.begun, cut.last, lambda n: _rules_in_force(snapshot, head, n)):
            return None
        ledger.on_set = on_set
        lines = iter(snapshot.lines_from(cut.offset, bounded))
        done, marks = above, []
        for offset, ends in [*stops, (snapshot.size, line_ends)]:
            last = offset == snapshot.size
            reader = csv.reader(lines if last else islice(lines, ends - done), strict=True)
            if check_pass(snapshot, reader, ledger, line_ends, True, done):
                return None
            done = ends
            kept = None if last else saved(ledger)
            if kept is not None:
                at = None if counts is None else counts.saved()
                marks.append(_Marked(offset, ends, kept, at, split.mark()))
        ledger.done()
        state = saved(ledger)
        if state is None:
            return None
        refs = {ref: n for ref, n in ledger.refs.items() if ref > hand}
        count = None if counts is None else counts.saved()
        return _Second(above, state, count, refs, split.made(), tuple(marks))

    def _two_parts(
        self,
        ledger: Ledger,
        cut: "_Split",
        split: parts.Split,
        bounded: bool,
        line_ends: int,
        stop_at_first: bool,
    ) -> tuple[Ledger, list[Problem]]:
        """The pass in two processes: the rows below the cut in a second one (`_second_part`),
        those above it here, then the two joined (`ledger.joined`). When the second part found a
        problem, or began from another state than the first part left, what it did is dropped
        and this process reads on below the cut: one pass, either way. A problem above the cut
        means the whole file is read again in one pass (the first problem is then the one the
        pass finds: a cell cut in two by the cut says something else). So a pass with callbacks
        is read so only if it stops at its first problem: its callbacks' work is then not shown."""
        snapshot = self._snapshot
        counts = ledger.counts
        second_counts = None if counts is None else counts.empty()
        corrections = ledger.corrections
        forked = parts.Forked(
            lambda: self._second_part(cut, corrections, second_counts, split, bounded, line_ends)
        )
        try:
            reader = csv.reader(
                snapshot.lines_from(_head_end(snapshot), bounded, cut.offset), strict=True
            )
            problems = check_pass(snapshot, reader, ledger, line_ends, stop_at_first, 3)
            if problems:
                forked.cancel()
                if stop_at_first and 3 + reader.line_num < line_count(snapshot, cut.offset):
                    return ledger, problems  # (it stopped before the cut, where one pass stops)
                # (read again in one pass; the report refuses the file, so its callbacks' work
                # is not shown, and they are not called again)
                ledger = self._ledger(corrections, None, True, None)
                reader = csv.reader(snapshot.lines_from(_head_end(snapshot), bounded), strict=True)
                return ledger, check_pass(snapshot, reader, ledger, line_ends, stop_at_first, 3)
            above = 3 + reader.line_num
            done, second = forked.result()
        finally:
            forked.cancel()
        if done and second is not None and self._join(ledger, cut, second, split, above, counts):
            return ledger, []
        reader = csv.reader(snapshot.lines_from(cut.offset, bounded), strict=True)
        return ledger, check_pass(snapshot, reader, ledger, line_ends, stop_at_first, above)

    def _join(
        self,
        ledger: Ledger,
        cut: "_Split",
        second: "_Second",
        split: parts.Split,
        above: int,
        counts: Counts | None,
    ) -> bool:
        """Take the second part's state, counts and callbacks' work into this pass, when it
        began from the state the first part left (False, having changed nothing, when not)."""
        snapshot, head = self._snapshot, self.head
        first = saved(ledger)
        if second.above != above or first is None:
            return False
        given = sum(fate.rows for fate in ledger.corrections.values())
        state = joined(first, cut.begun, second.state, given)
        if state is None or ledger.rules != _rules_in_force(
            snapshot, head, cut.begun["rules_line"]
        ):
            return False
        if counts is not None:
            check = counts.empty()
            if check is None or not check.restore(second.counts):
                return False
        if not split.fits(second.made):
            return False
        try:
            last = _row_before(snapshot, head, snapshot.size, 0)
        except SessionError:
            return False
        if not restore(ledger, state, last, lambda n: _rules_in_force(snapshot, head, n)):
            return False
        if counts is not None:
            counts.add_saved(second.counts)
        assert cut.last.hand is not None
        ledger.refs = {r: n for r, n in ledger.refs.items() if r <= cut.last.hand} | second.refs
        split.join(second.made)
        return True

    def _restore(self, ledger: Ledger, found: checkpoint.Checkpoint, counts: Counts | None) -> bool:
        """Put a checkpoint's state into a new ledger; False when it does not fit this file (a
        field amiss, a state other than the last row it covers records) or when the rows after
        it correct a hand before it (they need that hand as the pass left it)."""
        state = found.state
        night = state.get("night")
        if not isinstance(night, dict) or not isinstance(night.get("last_hand"), int):
            return False
        if any(ref <= night["last_hand"] for ref in ledger.corrections):
            return False
        snapshot, head = self._snapshot, self.head
        try:
            last = _row_before(snapshot, head, found.offset, found.lines)
            if not restore(ledger, night, last, lambda line: _rules_in_force(snapshot, head, line)):
                return False
        except SessionError:
            return False
        return counts is None or counts.restore(state.get("counts"))

    def rows(self) -> Iterator[Row]:
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
        split: parts.Split | None = None,
    ) -> Ledger:
        """The checked night for a report; the first problem is an error that says to run
        verify (or repair, for what it mends: a torn last line, a blank one, a decimal).
        `memo`: what is remembered of the kinds of hand, kept for the next night (a season's);
        `split`: see `check`."""
        ledger, problems = self.check(
            on_hand,
            stop_at_first=True,
            keep=keep,
            counts=counts,
            on_set=on_set,
            resume=True,
            memo=memo,
            split=split,
        )
        if problems:
            raise refusal(self.path, problems[0])
        return ledger

    def follow(
        self,
        kept: Sequence[checkpoint.Checkpoint],
        begin: Callable[[checkpoint.Checkpoint | None], tuple[Callable[[HandView], None], Counts]],
        extra: Callable[[], Any],
        warm: Ledger | None = None,
        split: parts.Split | None = None,
    ) -> "Followed":
        """The pass of a reader that holds the night as the file grows (the live board): from
        the newest of the states it `kept` (what passes before left, in memory) that fits
        this file and that no row after it reaches back before (a correction of a hand before
        it), feeding only the rows after it; from the start when none does.

        `begin(since)` is called once the pass knows where it starts (the state it starts
        from, or None) and gives what to tell of each hand and the counts (restored from the
        state); `extra()` gives what the caller keeps of its own with each state the pass
        leaves (`Checkpoint.state["extra"]`). Those are kept at the line start nearest each of
        `FOLLOW_MARKS` before the end (where no hand before the mark is corrected after it:
        the state there is the one a pass over the bytes before it leaves) and at the end,
        oldest first; none after a problem. What this holds in memory is a few states of the
        night (their size is that of a sidecar), never the rows.

        `warm`: the ledger of the pass before, whose remembered scores this one starts with
        (`Checker.warm_from`). The ledger this gives is left so too (its `done` lets go).

        `split`: how the callbacks are done in two parts (see `parts`): a pass from the start of
        a large file is then read in two processes, where the machine allows (`_follow_in_two`).
        """
        head, snapshot = self.head, self._snapshot
        size = snapshot.size
        fits = [c for c in kept if self._fits(c)]
        if (
            split is not None
            and not fits
            and size >= parts.TWO_PROCESSES_FROM
            and parts.available()
            and not snapshot.torn()
        ):
            followed = self._follow_in_two(begin, extra, warm, split)
            if followed is not None:
                return followed
        for since in [*reversed(fits), None]:
            start, above = (since.offset, since.lines) if since is not None else (0, 3)
            corrections, line_ends, longest = find_corrections(snapshot, head, True, start)
            if since is not None:
                last_hand = since.state["night"]["last_hand"]
                if any(ref <= last_hand for ref in corrections):
                    continue  # (that hand as the pass left it is not kept: start before it)
            on_hand, counts = begin(since)
            ledger = self._ledger(corrections, on_hand, True, counts)
            if since is None or self._restore(ledger, since, counts):
                if warm is not None:
                    ledger.warm_from(warm)
                break
        else:  # (the start always fits: the loop ends there)
            raise AssertionError("unreachable")
        total = line_ends + above if start else line_ends  # the line ends in the snapshot
        if not start:
            start = _head_end(snapshot)
        bounded = longest > MAX_LINE
        lines = iter(snapshot.lines_from(start, bounded))
        done = above  # the lines fed so far
        made: list[checkpoint.Checkpoint] = []
        stops = [*_marks(snapshot, start, total), (size, total)]
        problems: list[Problem] = []
        for at, (offset, ends) in enumerate(stops):
            last = at == len(stops) - 1  # (the rest of the lines: a torn one too, reported)
            part = lines if last else islice(lines, ends - done)
            reader = csv.reader(part, strict=True)
            problems = check_pass(snapshot, reader, ledger, total, True, done)
            if problems:
                break
            done = ends
            if (since is not None and offset <= since.offset) or (last and snapshot.torn()):
                continue
            night = saved(ledger)
            if night is not None:
                made.append(_kept(snapshot, offset, ends, night, counts.saved(), extra()))
        ledger._cells_at = None  # (the snapshot closes: nothing reads it again)
        return Followed(ledger, problems, [] if problems else made, since)

    def _follow_in_two(
        self,
        begin: Callable[[checkpoint.Checkpoint | None], tuple[Callable[[HandView], None], Counts]],
        extra: Callable[[], Any],
        warm: Ledger | None,
        split: parts.Split,
    ) -> "Followed | None":
        """`follow` from the start of the file in two processes (as `_two_parts` reads a
        report's pass): the rows below the cut in a second one, which keeps the states at the
        marks below the cut (its part's, each joined to the first part's state, counts and
        callbacks' work as the whole state is: `ledger.joined`, `Counts.add_saved`,
        `Split.extra_at`); this one keeps those above it. None, when the two parts found a
        problem or do not join: `follow` then reads the file in one pass (a problem is reported
        as that pass finds it)."""
        snapshot, head = self._snapshot, self.head
        corrections, line_ends, longest = find_corrections(snapshot, head, True, 0)
        cut = self._split_at(corrections)
        if cut is None:
            return None
        on_hand, counts = begin(None)
        second_counts = counts.empty()
        if second_counts is None:
            return None
        ledger = self._ledger(corrections, on_hand, True, counts)
        if warm is not None:
            ledger.warm_from(warm)
        bounded = longest > MAX_LINE
        head_end = _head_end(snapshot)
        stops = _marks(snapshot, head_end, line_ends)
        below = [(offset, ends) for offset, ends in stops if offset > cut.offset]
        forked = parts.Forked(
            lambda: self._second_part(
                cut, corrections, second_counts, split, bounded, line_ends, below
            )
        )
        made: list[checkpoint.Checkpoint] = []  # the states kept, oldest first
        try:
            lines = iter(snapshot.lines_from(head_end, bounded, cut.offset))
            above = 3  # the lines fed so far
            for offset, ends in [*(s for s in stops if s[0] <= cut.offset), (cut.offset, 0)]:
                last = offset == cut.offset and not ends
                reader = csv.reader(lines if last else islice(lines, ends - above), strict=True)
                if check_pass(snapshot, reader, ledger, line_ends, True, above):
                    ledger.done()
                    return None
                if last:
                    above += reader.line_num
                    break
                above = ends
                night = saved(ledger)
                if night is not None:  # (a mark above the cut: a state of one pass)
                    made.append(_kept(snapshot, offset, ends, night, counts.saved(), extra()))
            done, second = forked.result()
        finally:
            forked.cancel()
        first_night, first_counts = saved(ledger), counts.saved()
        if (
            not done
            or second is None
            or first_night is None
            or not self._join(ledger, cut, second, split, above, counts)
        ):
            ledger.done()
            return None
        for mark in second.marks:
            night = joined(first_night, cut.begun, mark.state, 0)  # (as `saved` writes it)
            at = counts.empty()
            if night is None or at is None or not at.restore(first_counts):
                continue
            if not at.add_saved(mark.counts):
                continue
            extra_there = split.extra_at(mark.made)
            made.append(_kept(snapshot, mark.offset, mark.ends, night, at.saved(), extra_there))
        night = saved(ledger)
        if night is not None:
            made.append(_kept(snapshot, snapshot.size, line_ends, night, counts.saved(), extra()))
        ledger._cells_at = None  # (the snapshot closes: nothing reads it again)
        return Followed(ledger, [], made, None)

    def _fits(self, kept: checkpoint.Checkpoint) -> bool:
        """Whether a state kept in memory is one of this file: its offset ends a line of it and
        the bytes before it are those it was made after (the head and the last few KiB)."""
        snapshot = self._snapshot
        state = kept.state
        return (
            0 < kept.offset <= snapshot.size
            and isinstance(state.get("night"), dict)
            and state.get("sentinel") == _sentinel(snapshot, kept.offset)
        )


# Where a pass of `Reading.follow` keeps the state: at the line start nearest each of these many
# bytes before the end (a correction of a hand that far back reads on from there; one further
# back reads the file from the start).
FOLLOW_MARKS = tuple((8 << 20) >> k for k in range(11))  # (8 MiB, 4 MiB, ... 8 KiB)
_SENTINEL = 4096  # the bytes before a state's offset compared, and those of the head


class Followed(NamedTuple):
    """What a pass of `Reading.follow` leaves: the night, its problems (the first), the states
    it kept (oldest first) and the state it began at (None: the start of the file)."""

    ledger: Ledger
    problems: list[Problem]
    kept: list[checkpoint.Checkpoint]
    since: checkpoint.Checkpoint | None


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


def _kept(
    snapshot: Snapshot, offset: int, ends: int, night: dict[str, Any], counts: Any, extra: Any
) -> checkpoint.Checkpoint:
    """A state of the night `Reading.follow` keeps in memory at `offset` (the start of a line,
    `ends` line ends before it): the night, the counts and the caller's own (`extra`), and the
    bytes before it that say whether it fits a file (`_sentinel`)."""
    state = {"night": night, "counts": counts, "extra": extra}
    state["sentinel"] = _sentinel(snapshot, offset)
    return checkpoint.Checkpoint(offset, ends, state, None)


def _sentinel(snapshot: Snapshot, offset: int) -> bytes:
    """What a state kept at `offset` checks the file by: the first bytes and those before it."""
    head = files.pread(snapshot.fd, min(_SENTINEL, offset), 0)
    before = max(0, offset - _SENTINEL)
    return head + files.pread(snapshot.fd, offset - before, before)


def _marks(snapshot: Snapshot, start: int, total: int) -> list[tuple[int, int]]:
    """The line starts nearest each of `FOLLOW_MARKS` before the end that are past `start`,
    each with the line ends before it, in file order."""
    size = snapshot.size
    wanted = [size - back for back in FOLLOW_MARKS if size - back > start]
    if not wanted:
        return []
    first = wanted[0]
    data = files.pread(snapshot.fd, size - first, first)
    marks: list[tuple[int, int]] = []
    for target in wanted:
        cut = data.find(b"\n", target - first)
        if cut < 0 or first + cut + 1 >= size:
            continue
        offset = first + cut + 1
        if marks and marks[-1][0] >= offset:
            continue
        marks.append((offset, total - data.count(b"\n", cut + 1)))
    return marks


class Said(str):
    """What a change did, in words: in the language in force when it was done, and able to say
    it again in the one in force now (`again`), as the live board words an undo for each of its
    readers."""

    _say: Callable[[], str]

    def __new__(cls, say: Callable[[], str]) -> "Said":
        made = super().__new__(cls, say())
        made._say = say
        return made

    def again(self) -> str:
        """The words in the language in force now."""
        return self._say()


def said_again(text: str) -> str:
    """`text` in the language in force now, if it is words that can say it again (`Said`)."""
    return text.again() if isinstance(text, Said) else text


class Session:
    """One session file: read it, check it, and change it (every change under its lock)."""

    def __init__(self, path: Path | str, waiting: Waiting = WAIT):
        self.path = Path(path)
        self.waiting = waiting  # how long to wait for another scorepad's lock
        self._fd: int | None = None  # open and locked while this process changes the file

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
        stop_at_first: bool = False,
        keep: Sequence[int] = (),
        fast: bool = True,
        counts: Counts | None = None,
        resume: bool = False,
        split: parts.Split | None = None,
    ) -> tuple[Ledger, list[Problem]]:
        """The one pass: apply and check every row; returns the final state and every problem
        (see `Reading.check`)."""
        with self.reading() as reading:
            return reading.check(
                on_hand, stop_at_first, keep, fast, counts, resume=resume, split=split
            )

    def night(
        self,
        on_hand: Callable[[HandView], None] | None = None,
        keep: Sequence[int] = (),
        counts: Counts | None = None,
    ) -> Ledger:
        """The checked night for a report (see `Reading.night`)."""
        with self.reading() as reading:
            return reading.night(on_hand, keep, counts)

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
            ledger = _resume(snapshot, head, last, last_hand)
            yield _Resumed(fd, head, ledger, last, last_hand)

    def _append(self, fd: int, codec: Codec, rows: Sequence[Row]) -> None:
        """Append rows; a row that needs a newer format than the file's raises `_Upgrade`
        (the caller's change is then made again once the file is rewritten in it)."""
        if not all(codec.holds(row) for row in rows):
            raise _Upgrade(max(Codec.needs(row) for row in rows))
        append(self.path, fd, codec, rows)

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

    def record(self, hand: Hand, note: str = "") -> tuple[Row, Score, Ledger]:
        """Score a hand and append it; returns its row, its score and the night after it."""
        try:
            with self._resumed() as night:
                row, result = night.ledger.record(hand, note, now())
                self._append(night.fd, night.head.codec, [row])
        except _Upgrade as needed:
            self._upgraded(needed)
            return self.record(hand, note)
        return row, result, night.ledger

    def record_replayed(self, hand: Hand, digest: str, note: str = "") -> tuple[Row, Score, Ledger]:
        """Record a hand replayed from its hand file, keeping the file's `digest` with its row
        (format 7): refused when a hand the session counts was recorded from the same hand
        file (a pass over the rows' digests), when the hand file's dealer is not the
        session's next, or when it seats other players or seats them otherwise
        (`_check_seats_alike`)."""
        try:
            with self._resumed() as night, self._snapshot() as snapshot:
                ledger = night.ledger
                reader = csv.reader(snapshot.lines(), strict=True)
                for _try in range(3):
                    next(reader, None)
                try:
                    recorded = night.head.codec.digests(reader)
                except (csv.Error, UnicodeDecodeError, LineTooLong) as exc:
                    raise SessionError(
                        self.path,
                        _("cannot read the rows ({exc}); {verify_hint}").format(
                            exc=exc, verify_hint=VERIFY_HINT
                        ),
                    ) from None
                if digest in recorded:
                    raise HandError(
                        _(
                            "not recorded: this hand file is recorded already, as hand {recorded} "
                            "(void that hand first to record it again)"
                        ).format(recorded=recorded[digest])
                    )
                if hand.dealer is not None and same_name(hand.dealer) != same_name(
                    ledger.next_dealer
                ):
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
                row = row._replace(digest=digest)
                self._append(night.fd, night.head.codec, [row])
        except _Upgrade as needed:
            self._upgraded(needed)
            return self.record_replayed(hand, digest, note)
        return row, result, ledger

    def penalty(self, penalty: Penalty, note: str = "") -> tuple[Row, Score, Ledger]:
        """Append a penalty: a row of its own, numbered like a hand, that moves no deal."""
        try:
            with self._resumed() as night:
                row, result = night.ledger.penalty_row(penalty, note, now())
                self._append(night.fd, night.head.codec, [row])
        except _Upgrade as needed:
            self._upgraded(needed)
            return self.penalty(penalty, note)
        return row, result, night.ledger

    def record_doubler(self, dealer: str | None = None, note: str = "") -> tuple[Row, Ledger]:
        """Append a thrown-in hand (all_pass = doubler)."""
        with self._resumed() as night:
            row = night.ledger.record_doubler(dealer, note, now())
            append(self.path, night.fd, night.head.codec, [row])
        return row, night.ledger

    def bock(self, rounds: int = 1, note: str = "") -> tuple[Row, Ledger]:
        """Start Bock rounds by the table's decision (`scorepad bock`): a row of its own, from
        the next hand on (after the rounds owed, under bock_stacking = queue)."""
        try:
            with self._resumed() as night, self._snapshot() as snapshot:
                line = line_count(snapshot) + 1
                row = night.ledger.bock_row(rounds, line, note, now())
                self._append(night.fd, night.head.codec, [row])
        except _Upgrade as needed:
            self._upgraded(needed)
            return self.bock(rounds, note)
        return row, night.ledger

    def record_pot(
        self, dealer: str | None = None, out: Sequence[str] = (), note: str = ""
    ) -> tuple[Row, Score, Ledger]:
        """Append a hand everyone passed into the pot (all_pass = pot): each player dealt in
        pays the ante (the file is first rewritten in format 8, which has the pot's column)."""
        try:
            with self._resumed() as night:
                row, result = night.ledger.record_pot(dealer, out, note, now())
                self._append(night.fd, night.head.codec, [row])
        except _Upgrade as needed:
            self._upgraded(needed)
            return self.record_pot(dealer, out, note)
        return row, result, night.ledger

    def _correct(
        self, ref: int, make: Callable[[Ledger, int], tuple[Row, Score | None]]
    ) -> tuple[Row, Score | None, Ledger]:
        """Under the lock: check the whole file, then append the correction `make` makes."""
        try:
            with self._locked() as fd:
                return self._correct_held(fd, ref, make)
        except _Upgrade as needed:
            self._upgraded(needed)
            return self._correct(ref, make)

    def _correct_held(
        self, fd: int, ref: int, make: Callable[[Ledger, int], tuple[Row, Score | None]]
    ) -> tuple[Row, Score | None, Ledger]:
        """`_correct`, the lock held already."""
        ledger = self.night(keep=[ref])
        row, result = make(ledger, ref)
        self._append(fd, ledger.codec, [row])
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
        return self._step(reason, back=True)

    def redo(self, reason: str = "") -> tuple[str, Row, Score | None, Ledger]:
        """Make again the change the last `undo` took back (a row of its own, `redoes`), until a
        new change is made. Returns as `undo` does."""
        return self._step(reason, back=False)

    def steps_left(self, back: bool, most: int) -> int:
        """How many changes `undo` (`back`) or `redo` could take back or make again now, counted
        up to `most` (`undo N` refuses before writing anything when fewer are there)."""
        with self._snapshot() as snapshot:
            head, _unused = snapshot.read_head()
            if back:
                return sum(1 for _, _ in zip(range(most), _undoable(snapshot, head)))
            return min(most, len(_redo_stack(snapshot, head)))

    def _step(self, reason: str, back: bool) -> tuple[str, Row, Score | None, Ledger]:
        try:
            with self._locked() as fd:
                return self._step_held(fd, reason, back)
        except (
            _Upgrade
        ) as needed:  # (a file of an older format has no column to name the change in)
            self._upgraded(needed)
            return self._step(reason, back)

    def _step_held(self, fd: int, reason: str, back: bool) -> tuple[str, Row, Score | None, Ledger]:
        word = "undo" if back else "redo"
        with self._snapshot() as snapshot:
            head, _unused = snapshot.read_head()
            if snapshot.torn():
                raise SessionError(self.path, TORN, line_count(snapshot) + 1)
            found = _to_undo(snapshot, head) if back else _to_redo(snapshot, head)
            if found is None:
                raise HandError(
                    _("there is nothing to undo: no change recorded yet, or every one undone")
                    if back
                    else _("there is nothing to redo: no change was undone since the last one")
                )
            last_row, last_hand = tail(snapshot, head)
            ledger = _resume(snapshot, head, last_row, last_hand)
            change = found
            line = change.line
            end = line_count(snapshot) + 1  # the line the new row will stand on
            if change.kind in (RowKind.SEAT, RowKind.SET):
                before = row_at_line(snapshot, head, line - 1) if line > 4 else head.start
                rules_before = _rules_in_force(snapshot, head, before.rules_line)

        def mark(row: Row) -> Row:
            return row._replace(undoes=line) if back else row._replace(redoes=line)

        kind = change.kind
        if kind is RowKind.BOCK:
            # (the whole night: which Bock hands were played since it)
            ledger = self.night()
            rounds = change.bock_rounds or 1
            what = Said(
                lambda: ngettext(
                    "the Bock round of line {line}",
                    "the Bock {count} rounds of line {line}",
                    rounds,
                ).format(line=line, count=rounds)
            )
            row = ledger.bock_row(rounds, end, reason or word, now(), undoes=line if back else None)
            row = mark(row)
            self._append(fd, ledger.codec, [row])
            return what, row, None, ledger
        if kind is RowKind.SEAT:
            seats = (before.seated or head.start.seated or head.players) if back else change.seated
            what = Said(lambda: _("the seat change ({note})").format(note=change.note))
            text = "the seats as before" if back else change.note
            row = ledger.seat_row(seats, f"{reason or word}: {text}", now())
            row = mark(row)
            self._append(fd, head.codec, [row])
            return what, row, None, ledger
        if kind is RowKind.SET:
            changes, _unused = set_row_text(change.note)
            rules = rules_before if back else rules_of_set_row(change.note)
            row = ledger.set_row(rules, [f"{word} of {changes}"], end, reason, now())
            row = mark(row)
            self._append(fd, head.codec, [row])
            return (
                Said(lambda: _("the change of the rules ({changes})").format(changes=changes)),
                row,
                None,
                ledger,
            )
        ref = change.hand if kind in HAND_KINDS else change.ref
        assert ref is not None
        note = reason or word
        make: Callable[[Ledger, int], tuple[Row, Score | None]]
        if kind is RowKind.AMEND:
            what = Said(lambda: _("the amendment of hand {hand}").format(hand=ref))

            def make(led: Ledger, r: int) -> tuple[Row, Score | None]:
                if not back:
                    return led.amend_row(r, change.hand_inputs(), reason, now())
                version = led.kept[r]  # the hand's versions, newest first: the one before it
                while version.before is not None and version.row.line >= line:
                    version = version.before
                return led.amend_row(
                    r, version.row.hand_inputs(), reason or version.row.note, now()
                )
        else:
            what = Said(
                lambda: (
                    _("hand {hand}")
                    if kind in HAND_KINDS
                    else _("the void of hand {hand}")
                    if kind is RowKind.VOID
                    else _("the restoring of hand {hand}")
                ).format(hand=ref)
            )
            voids = back != (kind is RowKind.VOID)  # (taking back a void restores the hand)

            def make(led: Ledger, r: int) -> tuple[Row, Score | None]:
                if voids:
                    return led.void_row(r, note, now()), None
                return led.restore_row(r, note, now()), None

        def marked(led: Ledger, r: int) -> tuple[Row, Score | None]:
            row, result = make(led, r)
            return mark(row), result

        return (what, *self._correct_held(fd, ref, marked))

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
        then in force. A file of an older format is first rewritten in the current one (it
        needs the column that says which rules are in force)."""

        with self._locked() as fd:
            head = self.head()
            if "rules_line" in head.codec.columns:
                with self._snapshot() as snapshot:
                    last, last_hand = tail(snapshot, head)
                    ledger = _resume(snapshot, head, last, last_hand)
                    line = line_count(snapshot) + 1
                rules = changed(ledger.rules, overrides)
                row = ledger.set_row(rules, list(overrides), line, note, now())
                append(self.path, fd, head.codec, [row])
                return row, ledger
            # A change that would be refused is refused before any rewrite: tried on the night
            # as it stands (the row it makes is thrown away).
            trial = self.state()
            trial.set_row(changed(trial.rules, overrides), list(overrides), 0, note)
            self.night()  # only a file that verifies is rewritten
            upgrade(self.path, fd, head)
        return self.set_rules(overrides, note)  # the file is a new one now: lock it afresh

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

    def repair(self) -> list[str]:
        """Mend what a crash or an editor leaves, keeping every complete hand: a torn last line
        (moved into FILE.rejected), blank lines anywhere (renumbering the lines that rows
        name), and whole numbers written as `2.0`
        (as a spreadsheet or pandas saves them). Returns what it did, a line each (nothing when
        there was nothing to mend; running it again does nothing). The file is read a block at
        a time and rewritten atomically, the original kept as FILE.bak: about twice its size,
        which is looked for first (without it, an error that says what it needs, and nothing
        written)."""
        path = self.path
        with self._locked(), self._snapshot() as snapshot:
            if snapshot.size > 0:
                try:
                    codec: Codec | None = snapshot.read_head()[0].codec
                except SessionError:
                    codec = None  # a head that cannot be read: mend what needs no columns
                return repair_file(snapshot, codec)
        # A `new` that never finished: there is nothing in it. (Removed once it is closed:
        # Windows removes no open file.)
        try:
            os.unlink(path)
        except OSError as exc:
            raise SessionError(
                path, _("cannot remove the empty file: {strerror}").format(strerror=exc.strerror)
            ) from None
        return ["removed the empty file (start the session with `scorepad new`)"]


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


def _resume(snapshot: Snapshot, head: Head, last: Row, last_hand: int) -> Ledger:
    """The night as its last row records it, under the rules in force then."""
    rules = _rules_in_force(snapshot, head, last.rules_line)
    return Ledger.resume(rules, head.players, last, last_hand, head.codec, last.rules_line)


def _rules_in_force(snapshot: Snapshot, head: Head, line: int | None) -> Rules:
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


def _to_undo(snapshot: Snapshot, head: Head) -> Row | None:
    """The last change not taken back yet (None: none)."""
    return next(_undoable(snapshot, head), None)


def _undoable(snapshot: Snapshot, head: Head) -> Iterator[Row]:
    """The changes not taken back yet, newest first. Each `undo` row takes back the last change
    not taken back before it, so walking up from the end, the changes that no `undo` row below
    them names are those."""
    undone: set[int] = set()
    for row in rows_back(snapshot, head):
        if row.undoes is not None:
            undone.add(row.undoes)
        elif row.line not in undone:
            yield row


def _to_redo(snapshot: Snapshot, head: Head) -> Row | None:
    """The change the last `undo` took back, if no change but an undo or redo came since
    (None: nothing to redo). The undos and redos since the last other change, in file order:
    each undo puts what it took back on a stack, each redo takes the top."""
    stack = _redo_stack(snapshot, head)
    return row_at_line(snapshot, head, stack[-1]) if stack else None


def _redo_stack(snapshot: Snapshot, head: Head) -> list[int]:
    """The lines of the changes `redo` can make again, the next last."""
    since: list[Row] = []
    for row in rows_back(snapshot, head):
        if row.undoes is None and row.redoes is None:
            break
        since.append(row)
    stack: list[int] = []
    for row in reversed(since):
        if row.undoes is not None:
            stack.append(row.undoes)
        elif stack:
            stack.pop()
    return stack
