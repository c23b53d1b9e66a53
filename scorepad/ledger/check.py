"""The check: every row of a file, re-scored and compared with what the rows above give.

`Checker.feed(cells, line)` checks one row (its raw cells) against the state so far, applies it
(`Night._apply`) and returns its problems; `feed_row(row)` does the same for a decoded row.
A row of a kind of hand checked before is matched by its raw cells (the fast path: no decoding),
and a new hand or a correction is decoded but for its state cells, which are compared as text;
each calls the same apply code.

Speed and memory: scoring is memoized on a hand's raw input cells and the seats in force, with
its card points by their class (`scoring.points_class`: hands alike but for card points of one
class score alike), so a night that repeats the same few situations scores each once, and a row
whose cells match a remembered score is checked without being decoded. What is remembered is
bounded (the kinds of hand seen most lately, caches of scores), and a hand is kept whole only
while a later correction still refers to it (the session module finds those first): memory
grows with the variety of a night up to those bounds, and with its corrections, not with its
length.
"""

from __future__ import annotations

import json
import operator
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from types import MappingProxyType
from typing import Any, TypeVar

from ..errors import ScorepadError
from ..hands import BY_NAME, PENALTY, Type, given
from ..hands import INPUTS as HAND_INPUTS
from ..i18n import gettext as _
from ..names import TOTAL_POINTS
from ..pot import ante_score, played_for_pot, plays_for_pot, put_in
from ..rules import Rules
from ..scoring import Penalty, Score, points_class, score, score_penalty
from ..store.format import (
    CORRECTIONS,
    FORMULA_STARTS,
    HAND_KINDS,
    INPUTS,
    Codec,
    LedgerError,
    Problem,
    Row,
    RowKind,
    whole,
)
from ..store.scan import Fate
from ..text import is_digest  # (`replay.digest`)
from .bock import MAX_ROUNDS
from .bock import parse as bock_parse
from .bock import text as bock_text
from .entries import Counts, HandView, Scored, check_throw_in, lean, shown
from .night import Night
from .records import hand_of, kind_of

# Kinds of hand remembered by their raw cells, the one seen least lately let go first. A long
# night's kinds recur at random, a few often, most now and then: fewer than this would miss far
# more often (a million hands of bench/generate.py: 8,192 miss 20,000 times, 6,144 36,000
# times, 4,096 118,000 times; remembering all 12,854 kinds, 12,854), more costs memory.
_KINDS_KEPT = 8_192

# The objects the kinds share (`Checker._remember`), at most this many (then they begin anew)
_INTERNED_KEPT = 2 * _KINDS_KEPT

_MEMO_KEPT = 2  # what a `Memo` keeps: the remembered of this many rules, columns and seats


_POINTS_AT = INPUTS.index("points")

# A remembered hand's key is the class of its card points (`_point_classes`), then its other
# input cells, each followed by this. No cell of a remembered hand holds it (names are
# printable, JSON escapes it, and a hand with any other text does not score), so a key names
# one class and one list of cells.
_KEY_SEPARATOR = "\x1f"

_CLASS_MARK = "\x1e"  # begins a class of card points in a key (no cell begins with it either)

_K = TypeVar("_K")
_V = TypeVar("_V")

_SCORE_CACHE = 256  # scores remembered by decoded inputs (corrections, doubled hands)

_TURNED_CACHE = 2_048  # picker hands' scores remembered as seen from the dealer (`_turned_key`)

# The inputs that name players, by how (`_turned_key` turns them), and the others (as they are)
_NAME_INPUTS = tuple(n for n in INPUTS if BY_NAME[n].type == Type.NAME)
_NAMES_INPUTS = tuple(n for n in INPUTS if BY_NAME[n].type == Type.NAMES)
_COUNTS_INPUTS = tuple(n for n in INPUTS if BY_NAME[n].type == Type.COUNTS)
_OTHER_INPUTS = tuple(
    n
    for n in INPUTS
    if n != "points" and BY_NAME[n].type not in (Type.NAME, Type.NAMES, Type.COUNTS)
)
# (each a tuple of a row's values: every list above holds two inputs or more)
_NAME_OF, _NAMES_OF, _COUNTS_OF, _OTHER_OF = (
    operator.attrgetter(*names)
    for names in (_NAME_INPUTS, _NAMES_INPUTS, _COUNTS_INPUTS, _OTHER_INPUTS)
)

# what makes a lean score (`entries.lean`) the one it is, but its deltas (a mapping): scores
# alike in all of it are one (interned), so a hand's doublings and runs are its own
_SCORE_KEY = tuple(f for f in Score._fields if f not in ("deltas", "roles", "explanation"))

_FAST_KINDS = frozenset((RowKind.PICKER, RowKind.LEASTER, RowKind.SCHWANZER, RowKind.RAMSCH))

_FAST_KIND_TEXTS = frozenset(kind.value for kind in _FAST_KINDS)

_CORRECTION_TEXTS = frozenset(kind.value for kind in CORRECTIONS)

_FORMULA_FIRST = frozenset(FORMULA_STARTS)  # (each is one character)
_STEPS = ("undoes", "redoes")  # the cells of an undo or redo row
_STATE = ("next_dealer", "seated", "pending", "totals", "rules_line", "pot", "bock_queue")
_KIND_TEXTS = frozenset(kind.value for kind in RowKind)
_HAND_KIND_TEXTS = frozenset(kind.value for kind in HAND_KINDS)
# the inputs a penalty row may not hold: those of the hands dealt
_NOT_A_PENALTYS = tuple(
    i.name for i in HAND_INPUTS if PENALTY not in i.kinds and i.type != Type.KIND and i.since
)
# the inputs a hand passed into the pot may not hold: all but its dealer and who sat out
_NOT_A_POTS = tuple(
    i.name
    for i in HAND_INPUTS
    if i.name not in ("dealer", "out") and i.type != Type.KIND and i.since
)


class Memo:
    """What checking remembers of the kinds of hand, kept from one night's pass for the next
    (`season`, `rating`): a league's nights are played by the same people under the same
    rules, so the kinds of hand of one recur in the next, and each night need not score them
    anew. A score remembered holds for the same rules, the same columns of the file and the
    same seats in force, so it is kept by those, for the last `_MEMO_KEPT` of them: memory is
    bounded however many nights are read (and no night's ledger is kept)."""

    def __init__(self) -> None:
        self._kept: list[tuple[Rules, tuple[str, ...], tuple[str, ...], _Remembered]] = []

    def remembered(self, rules: Rules, codec: Codec, seated: tuple[str, ...]) -> _Remembered:
        """What is remembered under these rules, columns and seats (new dicts the first time)."""
        for at, (kept_rules, order, seats, found) in enumerate(self._kept):
            # (rules compared by value: each night's are read from its own file)
            if order == codec.order and seats == seated and kept_rules == rules:
                if at:  # (the newest last: the oldest is let go first)
                    self._kept.append(self._kept.pop(at))
                return found
        made: _Remembered = (OrderedDict(), {}, {}, {})
        self._kept.append((rules, codec.order, seated, made))
        del self._kept[:-_MEMO_KEPT]
        return made


# The kinds of hand by their raw cells (the least lately seen first), the objects shared by
# them, the scores by decoded inputs and those alike but for card points (see `Checker`).
_Remembered = tuple[
    OrderedDict[str, Scored],
    dict[Any, Any],
    dict[tuple[object, ...], Scored | str],
    dict[tuple[object, ...], Scored],
]


class Checker(Night):
    """The night, checked row by row as a file is read (see the module's text).

    `on_hand`, if given, is called with every hand's final version (`HandView`) as the pass
    reaches it; `counts`, if given, counts the hands that are not void by their final version (a
    `Counter` of `Scored`, which the reports fold into each player's numbers: far cheaper than a
    call a hand). `cells_at` reads the row at a byte of the file (see `Fate`). `memo`, if
    given, is where what is remembered of the kinds of hand is kept, for the next night too.
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        first_dealer: str,
        seated: Sequence[str] | None = None,
        codec: Codec | None = None,
        corrections: Mapping[int, Fate] | None = None,
        on_hand: Callable[[HandView], None] | None = None,
        fast: bool = True,
        counts: Counts | None = None,
        cells_at: Callable[[int], Sequence[str] | None] | None = None,
        memo: Memo | None = None,
    ):
        super().__init__(rules, players, first_dealer, seated, codec, corrections, on_hand, counts)
        self.fast = fast
        self._memo = memo if fast else None
        self.feed: Callable[[Sequence[str], int], list[Problem]]
        """feed(cells, line): check a row's raw cells, apply it; returns its problems."""
        self._cells_at = cells_at  # the cells of the row that begins at a byte (see `Fate`)
        self._scores: dict[tuple[object, ...], Scored | str] = {}
        self._scores_alike: dict[tuple[object, ...], Scored] = {}
        # a picker hand's lean score, its dealer and who cracked, by `_turned_key`
        self._turned: dict[tuple[object, ...], tuple[Score, str, str | None]] = {}
        self._fast: OrderedDict[str, Scored] = OrderedDict()  # the least lately seen first
        self._interned: dict[Any, Any] = {}
        self._last_scored: Scored | None = None
        self._classes: dict[str, tuple[str, int]] = {}
        self._classes_of: Rules | None = None  # the rules `_classes` are for
        self._totals_form = ""
        self._bock_rows: dict[int, int] = {}  # the `bock` rows read: line to rounds
        self._reset_fast_state()

    def done(self) -> None:
        """The pass is over (the night may still take new rows, not more rows to check): let
        go of what checking holds. `feed` is a closure over this ledger, a reference cycle that
        only the garbage collector's rare full pass frees, with the ledger's caches in it: a
        season that reads night after night would hold every one. (What a `Memo` keeps is kept,
        for the next night.) What the fast path tallied is added into the counts."""
        self.feed = _fed
        if self.counts is not None:
            self.counts.gather()
        if self._memo is not None:
            self._memo = None
            self._fast, self._interned = OrderedDict(), {}
            self._scores, self._scores_alike, self._turned = {}, {}, {}
            return
        for memo in (self._fast, self._interned, self._scores, self._scores_alike):
            memo.clear()
        self._turned.clear()

    def warm_from(self, other: Checker) -> None:
        """Remember what another ledger of the same file remembered of its hands' scores, when
        it checked them under these rules at these seats (else nothing): a pass that starts
        from a state of the night (the live board's) checks its first rows as fast as the
        pass before it checked its last. Call it once the state is in place."""
        if (
            other.rules != self.rules
            or other.order != self.order
            or other.codec.order != self.codec.order
        ):
            return
        # (in place: `feed` holds these dicts)
        self._fast.update(other._fast)
        while len(self._fast) > _KINDS_KEPT:
            self._fast.popitem(last=False)
        self._interned.update(other._interned)
        self._scores.update(other._scores)
        self._scores_alike.update(other._scores_alike)
        self._turned.update(other._turned)

    def _changed(self, rules: bool) -> None:
        if rules and self._memo is None:  # (scores remembered were under the rules before)
            self._scores.clear()
            self._scores_alike.clear()
        if rules:
            self._turned.clear()
        self._reset_fast_state()

    # -- the fast path: a row whose cells match a remembered score --------------------------

    def _reset_fast_state(self) -> None:  # noqa: C901  (the fast path: one closure, its checks inline)
        """Make `feed` anew for the seats in force (after they change).

        `feed` is a closure over locals, which Python reads faster than attributes: it is called
        once a row, and on a night of a million hands its few microseconds are the pass."""
        if self._memo is not None:  # what is remembered under these rules and seats
            (
                self._fast,
                self._interned,
                self._scores,
                self._scores_alike,
            ) = self._memo.remembered(self.rules, self.codec, self.seated)
        else:  # what was remembered is for the seats that were in force
            for memo in (self._fast, self._interned):
                memo.clear()
        dump = json.dumps
        seated_cell = dump(list(self.order), ensure_ascii=False, separators=(",", ":"))
        totals_form = (
            "{"
            + ",".join(dump(p, ensure_ascii=False).replace("%", "%%") + ":%d" for p in self.totals)
            + "}"
        )
        self._seated_cell, self._totals_form = seated_cell, totals_form
        codec = self.codec
        index = codec.index
        # (a hand row's key holds the cells of an undo too: a hand with one is none remembered)
        others = operator.itemgetter(
            *(index[n] for n in (*INPUTS, *_STEPS) if n in codec.columns and n != "points")
        )
        k_points = index["points"]
        if self._classes_of is not self.rules:  # (filled when a row first needs a class)
            self._classes, self._classes_of = {}, self.rules
        classes, classes_now = self._classes, self._classes_now
        self._key_parts = (others, k_points)
        # (a table has two players at least, so this gives a tuple)
        player_cells = self._player_cells = operator.itemgetter(*codec.player_at)
        k_hand, k_kind, k_ref, k_note, k_time = (
            index[n] for n in ("hand", "kind", "ref", "note", "time")
        )
        formula_first = _FORMULA_FIRST
        touch = self._fast.move_to_end
        join = _KEY_SEPARATOR.join
        k_next, k_seated, k_pending, k_totals = (
            index[n] for n in ("next_dealer", "seated", "pending", "totals")
        )
        k_rules = index["rules_line"] if "rules_line" in codec.columns else None  # (format 3 on)
        k_digest = index["digest"] if "digest" in codec.columns else None  # (format 7 on)
        k_bock = index["bock_queue"] if "bock_queue" in codec.columns else None  # (format 8 on)
        k_pot = index["pot"] if "pot" in codec.columns else None  # (format 8 on)
        rules_text = str(self.rules_line) if self.rules_line else ""
        self._rules_text = rules_text
        width, totals, fast_get = codec.width, self.totals, self._fast.get
        race = self.rules.settlement == "race"
        slow, keep = self._feed_slow, self._keep
        counts = self.counts
        count = counts.count if counts is not None else None
        # (a kind counted once is counted on inline, in `Counts.tally`)
        tally = counts.tally if counts is not None else {}
        tally_get = tally.get
        fast_kinds = _FAST_KIND_TEXTS
        on_hand, new_view = self.on_hand, tuple.__new__

        good_time = ""  # the last time cell found printable and no formula

        def feed(cells: Sequence[str], line: int) -> list[Problem]:
            """Check a row's raw cells against the state so far, then apply it."""
            nonlocal good_time
            if (
                len(cells) != width
                or self.pending
                or self.bock
                or self.pot  # (the next hand with a picker plays for it: checked decoded)
                or cells[k_ref]
                or cells[k_kind] not in fast_kinds
            ):
                return slow(cells, line)
            number = self.last_hand + 1
            if cells[k_hand] != str(number) or (k_digest is not None and cells[k_digest]):
                return slow(cells, line)  # (a digest: a hand replayed, checked when decoded)
            # The note and time are no inputs (a kind of hand does not vouch for them): a
            # control character or a formula in either is for the slow path to report.
            note, when = cells[k_note], cells[k_time]
            if note and (note[0] in formula_first or not note.isprintable()):
                return slow(cells, line)
            if when != good_time:  # (rows share their time, to the minute: checked once)
                if not when.isprintable() or when[:1] in formula_first:
                    return slow(cells, line)
                good_time = when
            card = classes.get(cells[k_points])
            if card is None:
                # (the classes are worked out once a night, when first needed: recording a hand
                # after a checkpoint needs none)
                card = None if classes else classes_now().get(cells[k_points])
                if card is None:
                    return slow(cells, line)
            key = card[0] + join(others(cells))
            entry = fast_get(key)
            if entry is None:
                return slow(cells, line)
            touch(key)  # (seen lately: let go last)
            if player_cells(cells) != entry.cells:
                return slow(cells, line)
            # The row's inputs are those of a hand checked before, its card points of the same
            # class: it scores the same. Apply it.
            points = card[1]
            # (as `_apply` applies a hand whose row takes no doubling and doubles no other:
            # `_played`, inline, a call fewer a row)
            self.last_hand = number
            for player, value in entry.deltas.items():
                totals[player] += value
            self.hands += 1
            self.next_dealer = entry.next_dealer
            if race:
                self._check_race()
            if number >= self.next_ref and self.reached(number):  # (a later row corrects it:
                # remember it till then)
                if entry.card != points:
                    entry = entry.with_points(points)
                keep(
                    number,
                    entry.inputs._replace(note=cells[k_note]),
                    entry.deltas,
                    [],
                    entry.result,
                )
                self._emit(number, entry, cells[k_note], when)
            else:
                if count is not None:  # (the row's own card points: its kind's may differ)
                    base = entry._alike or entry  # (`Scored.base`, inline: a call fewer)
                    times = tally_get(base)
                    if times is None:
                        count(base, 1, points)
                    else:
                        times[0] += 1
                        times[1] += points
                if on_hand is not None:
                    own = None if entry.card == points else points
                    # (made as `HandView._make` makes one: without a call of its __new__)
                    view = (number, entry, False, False, cells[k_note], own, when)
                    on_hand(new_view(HandView, view))
            if (
                cells[k_next] == entry.next_dealer
                and cells[k_seated] == seated_cell
                and cells[k_pending] == "0"
                and cells[k_totals] == totals_form % tuple(totals.values())
                and (k_rules is None or cells[k_rules] == rules_text)
                and (k_bock is None or not cells[k_bock])
                and (k_pot is None or not cells[k_pot])
            ):
                return []
            return self._after_fast(cells, line)

        self.feed = feed if self.fast else slow

    def _feed_slow(self, cells: Sequence[str], line: int) -> list[Problem]:
        """Decode a row, check it against the state so far and apply it."""
        self._last_scored = None
        found = self._feed_inputs(cells, line) if self.fast else None
        if found is not None:
            row, problems = found
        else:
            try:
                row = self.codec.decode(cells, line)
            except LedgerError as exc:
                self._salvage(cells, line)
                return [Problem(exc.line, exc.message)]
            problems = self.feed_row(row, cells if self.fast else None)
        entry, kept = None, False
        if self.fast and not problems and row.kind in _FAST_KINDS:
            entry, kept = self._remember(cells, row)
        if (
            row.kind in HAND_KINDS
            and row.hand == self.last_hand
            and (self.counts is not None or self.on_hand is not None)
        ):
            self._emit(row.hand, entry or self._entry_of(row), row.note, row.time, not kept)
        return problems

    def _feed_inputs(self, cells: Sequence[str], line: int) -> tuple[Row, list[Problem]] | None:
        """`feed_row` for a new hand or a correction, decoding only its inputs: its state cells
        are compared as text, and decoded only to report a problem with them. None (having
        changed nothing) for any other row, or one whose inputs do not decode (the caller
        decodes it whole, and says why).

        A hand's state after it is foreseen (the next dealer, the totals), so a hand whose
        state cells do not hold it is not applied here: `feed_row` reports it (a state cell
        that does not decode before the hand is applied). A correction's is not: it is
        applied, then its cells compared."""
        codec = self.codec
        kind = cells[codec.index["kind"]] if len(cells) == codec.width else ""
        hand = kind in _FAST_KIND_TEXTS
        if not (hand and not self.pending and not self.bock and not self.pot) and (
            kind not in _CORRECTION_TEXTS
        ):
            return None
        try:
            row = codec.decode(cells, line, state=False)
        except LedgerError:
            return None
        try:
            deltas, result = self._expected(row, cells)
        except LedgerError as exc:
            if hand:
                return None
            try:  # (as `feed_row` does, with the whole row; or the whole row's own problem)
                self._resync(codec.decode(cells, line))
            except LedgerError as bad:
                return row, [Problem(bad.line, bad.message)]
            return row, [Problem(exc.line, exc.message)]
        problems = self._points_problems(row, deltas)
        if hand:
            assert row.dealer is not None
            after = dict(self.totals)
            for player, value in deltas.items():
                after[player] += value
            if problems or not self._state_cells_hold(cells, self.left_of(row.dealer), after):
                return None
        self._apply(row, result, deltas)
        if problems or not (hand or self._state_cells_hold(cells)):
            problems += self._after_fast(cells, line)
        return row, problems

    def _state_cells_hold(
        self,
        cells: Sequence[str],
        next_dealer: str | None = None,
        totals: Mapping[str, int] | None = None,
    ) -> bool:
        """Whether a row's state cells hold, as the file writes them, the state of the night
        (or this next dealer and these totals, foreseen)."""
        at = self.codec.index
        totals = self.totals if totals is None else totals
        return (
            cells[at["next_dealer"]] == (next_dealer or self.next_dealer)
            and cells[at["seated"]] == self._seated_cell
            and cells[at["pending"]] == str(len(self.pending))
            and cells[at["totals"]] == self._totals_form % tuple(totals.values())
            and ("rules_line" not in at or cells[at["rules_line"]] == self._rules_text)
            and ("bock_queue" not in at or cells[at["bock_queue"]] == bock_text(self.bock))
            and ("pot" not in at or cells[at["pot"]] == (str(self.pot) if self.pot else ""))
        )

    def _entry_of(self, row: Row) -> Scored:
        """What the reports see of a hand row the slow path just applied."""
        seated = tuple(p for p in self.players if p in row.deltas)
        found = self._last_scored
        if row.kind is RowKind.DOUBLER or found is None:
            return Scored(row.inputs_only(row.kind), dict.fromkeys(seated, 0), None, seated)
        return found

    def _emit(
        self, number: int, entry: Scored, note: str, time: str = "", alone: bool = False
    ) -> None:
        """Count a hand just applied in its final version (as the rows below it leave it),
        and tell `on_hand` about it (with `time`, its own row's).

        `alone`: its kind is none the fast path remembers (a hand doubled, a kind let go), so
        it is counted at once (`Counts.add_alone`), not kept by its kind: the counts hold no
        more kinds than the fast path does."""
        if self.on_hand is None:  # (counting only, or nobody to tell: verify, settle)
            self._seat_notes.clear()
            # A hand that rows below correct is counted as the last of them leaves it: `_forget`.
            counts = self.counts
            if counts is not None and entry.result is not None and number not in self.corrections:
                if alone:
                    counts.add_alone(entry)
                else:
                    counts.add(entry)
            return
        void = amended = False
        fate = self.corrections.get(number)
        cells_at = self._cells_at
        if fate is not None and cells_at is not None:
            at = self.codec.index
            amended_at, voided_at = fate.amended_at, fate.voided_at
            version = self.kept.get(number)
            pot = version.pot if version is not None else 0  # (what the hand played for)
            final = self._amended(cells_at(amended_at), entry, pot) if amended_at >= 0 else None
            if final is not None:
                amended = alone = True
                entry, amendment_note = final
                note = amendment_note or note
            cells = cells_at(voided_at) if voided_at >= 0 else None
            if cells and len(cells) == self.codec.width and cells[at["kind"]] == RowKind.VOID:
                void = True
                if cells[at["note"]]:
                    void_note = f"void: {cells[at['note']]}"
                    note = f"{note}; {void_note}" if note else void_note
        if self._seat_notes:  # (the first hand after a seat change always comes this way)
            seats = "; ".join(self._seat_notes)
            note = f"{seats}; {note}" if note else seats
            self._seat_notes.clear()
        if self.counts is not None and not void and entry.result is not None:
            if alone:
                self.counts.add_alone(entry)
            else:
                self.counts.add(entry)
        if self.on_hand is not None:
            self.on_hand(HandView(number, entry, void, amended, note, None, time))

    def _amended(
        self, cells: Sequence[str] | None, entry: Scored, pot: int = 0
    ) -> tuple[Scored, str] | None:
        """Hand `entry` as the amendment in `cells` leaves it (played for a pot holding `pot`,
        if it plays for it), and the amendment's note; None if the cells are not an amendment
        this can read (the pass reports that row when it reaches it, and checks it then)."""
        codec = self.codec
        at = codec.index
        if cells is None or len(cells) != codec.width or cells[at["kind"]] != RowKind.AMEND:
            return None
        note = cells[at["note"]]
        seated = tuple(p for p in self.players if p in entry.deltas)
        known = self._remembered(cells, seated)
        if known is not None:  # inputs of a kind remembered, at the same seats: it scores so
            points = int(cells[at["points"]]) if cells[at["points"]] else None
            # (a hand of that kind: the reports make its line once, `Scored.base`)
            found = Scored(
                known.row, known.deltas, known.result, seated, points=points, base=known.base
            )
            return self._for_pot(found, pot), note
        try:
            row = codec.decode(cells, 0, state=False)
        except LedgerError:
            return None
        with suppress(LedgerError):
            entry = self._for_pot(self._rescore(row.inputs_only(RowKind.AMEND), seated), pot)
        return entry, note

    def _remembered(self, cells: Sequence[str], seated: tuple[str, ...]) -> Scored | None:
        """The kind of hand remembered for a row's input cells (their card points by class),
        if it was scored at these seats; else None."""
        key = self._kind_key(cells)
        known = None if key is None else self._fast.get(key)
        return known if known is not None and known.seated == seated else None

    def _kind_key(self, cells: Sequence[str]) -> str | None:
        """The key a kind of hand is remembered by (`feed` makes it inline): the class of its
        card points, then its other input cells; None for a points cell that has no class."""
        card = self._classes_now().get(cells[self._key_parts[1]])
        return None if card is None else card[0] + self._others_text(cells)

    def _others_text(self, cells: Sequence[str]) -> str:
        """A row's input cells but its card points, as a key holds them."""
        return _KEY_SEPARATOR.join(self._key_parts[0](cells))

    def _after_fast(self, cells: Sequence[str], line: int) -> list[Problem]:
        """The state problems of a row applied by the fast path (a rare, slow path)."""
        try:
            row = self.codec.decode(cells, line)
        except LedgerError as exc:
            return [Problem(exc.line, exc.message)]
        problems = self._state_problems(row)
        if problems:
            self._resync(row)
        return problems

    def _store(self, key: str, entry: Scored) -> None:
        """Remember an entry; when `_KINDS_KEPT` are remembered, the one seen least lately is
        let go (memory stays bounded, and what recurs stays)."""
        fast = self._fast
        was = fast.get(key)
        fast[key] = entry
        if was is not None and was.base is not entry.base and self.counts is not None:
            self.counts.let_go(was.base)
        if len(fast) > _KINDS_KEPT:
            _key, gone = fast.popitem(last=False)
            if self.counts is not None:
                self.counts.let_go(gone.base)
        if len(self._interned) > _INTERNED_KEPT:
            self._interned.clear()

    def _remember(self, cells: Sequence[str], row: Row) -> tuple[Scored | None, bool]:
        """Remember the checked score of a hand row for the fast path (by its raw cells); and
        whether it is remembered (a hand that is not, its score lean all the same).

        What is remembered is lean and shared: the cell texts, the lists of cells and the
        scores (without their explanation) are interned, and so are the inputs of kinds alike
        but for their card points (of any class: a kind then holds its own points, as a hand
        of a kind does, `Scored.with_points`), so a remembered hand costs a few hundred bytes.
        """
        found = self._last_scored
        if (
            row.doubled
            or found is None
            or found.result is None
            or found.result.doubles_next
            or found.result.bock_next
            or found.result.pot  # (played for the pot: what it scores is the pot's too)
        ):
            return None, False
        intern = self._interned.setdefault
        slim = lean(found.result)
        assert slim is not None
        score_deltas = slim.deltas
        score_key = (
            "score",
            tuple(score_deltas),
            tuple(score_deltas.values()),
            *(getattr(slim, f) for f in _SCORE_KEY),
        )
        slim = intern(score_key, slim)
        player_cells = self._player_cells(cells)
        player_cells = intern(player_cells, tuple(intern(c, c) for c in player_cells))
        deltas = intern(("deltas", player_cells, found.seated), found.deltas)
        inputs, points = found.row, found.points
        # (the other input cells alike, the inputs are alike but for the card points)
        others = self._others_text(cells)
        alike = intern(("inputs", others), inputs)
        shared = alike is inputs or alike._replace(points=inputs.points) == inputs
        if alike is not inputs and shared:
            inputs, points = alike, found.card_points
        next_dealer = intern(self.next_dealer, self.next_dealer)
        entry = Scored(
            inputs,
            deltas,
            slim,
            found.seated,
            player_cells,
            next_dealer,
            points,
            None if found.base is found else found.base,
        )
        if shared:
            # Kinds alike but for their card points, of classes that score alike, are one kind
            # (one `Scored`, its card points the first's, a hand's own told apart as a hand of
            # a kind always is): the reports make one line of it, and count it once.
            entry = intern(
                ("kind", others, score_key, player_cells, found.seated, next_dealer), entry
            )
        own = found.card_points  # (this hand's, which its kind's may not be)
        # (a hand with card points is remembered by their class only if it has a picker, whose
        # score `points_class` is about)
        key = self._kind_key(cells)
        if key is not None and (row.picker is not None or row.points is None):
            self._store(key, entry)
            kept = True
        else:
            kept = False
        return (entry if own is None or entry.card_points == own else entry.with_points(own)), kept

    # -- checking decoded rows --------------------------------------------------------------

    def feed_row(self, row: Row, cells: Sequence[str] | None = None) -> list[Problem]:
        """Check a decoded row against the state so far, then apply it (`cells`: its raw
        cells, if at hand: an amendment of a kind remembered is checked against that score)."""
        try:
            deltas, result = self._expected(row, cells)
        except LedgerError as exc:
            self._resync(row)
            return [Problem(exc.line, exc.message)]
        problems = self._points_problems(row, deltas)
        self._apply(row, result, deltas)
        problems += self._state_problems(row)
        if problems:
            self._resync(row)
        return problems

    def _points_problems(self, row: Row, deltas: Mapping[str, int]) -> list[Problem]:
        """The problem with a row's points, if they are not what its hand scores."""
        if deltas == row.deltas:
            return []
        message = _differs("points", row.deltas, deltas)
        unbalanced = sum(row.deltas.values())
        if self.rules.zero_sum and unbalanced:
            message = f"the hand does not sum to zero ({unbalanced:+d}); {message}"
        return [Problem(row.line, message, edited=True)]

    def _state_problems(self, row: Row) -> list[Problem]:
        state: dict[str, Any] = {
            "next_dealer": self.next_dealer,
            "seated": self.seated,
            "pending": len(self.pending),
            "totals": self.totals,
        }
        if "rules_line" in self.codec.columns:
            state["rules_line"] = self.rules_line
        if "bock_queue" in self.codec.columns:
            state["bock_queue"] = bock_text(self.bock)
        if "pot" in self.codec.columns:
            state["pot"] = self.pot
        problems = []
        for name, value in state.items():
            recorded = getattr(row, name)
            if value != recorded:
                problems.append(
                    Problem(
                        row.line,
                        _("{name}: recorded {shown}, but the rows above give {shown2}").format(
                            name=name, shown=shown(recorded), shown2=shown(value)
                        )
                        + self._pot_balance(row, name),
                        edited=True,
                    )
                )
        return problems

    def _pot_balance(self, row: Row, name: str) -> str:
        """For a pot cell that disagrees: whether the recorded totals and pot sum to 0, as a
        zero-sum night's always do (the pot holds what the players' totals are short)."""
        if name != "pot" or not self.rules.zero_sum:
            return ""
        total = sum(row.totals.values())
        if total + row.pot == 0:
            return ""
        return _(
            " (the players' recorded totals, {total}, and the pot, {pot}, sum to {sum}, not 0)"
        ).format(total=f"{total:+d}", pot=row.pot, sum=f"{total + row.pot:+d}")

    def _resync(self, row: Row) -> None:
        """Take a row's recorded state as given (after reporting a problem with it), so one bad
        row is reported once and not again on every row below it."""
        if row.kind in HAND_KINDS and row.hand is not None and row.hand > self.last_hand:
            self.last_hand = row.hand  # (as if it were the hand its number says it is)
        if row.next_dealer is not None:
            self.next_dealer = row.next_dealer
        if row.seated and all(p in self.players for p in row.seated):
            self.order = list(row.seated)
        if row.totals:
            self.totals.update(row.totals)
        self.pending = self.pending[: row.pending] + [0] * max(0, row.pending - len(self.pending))
        if "rules_line" in self.codec.columns:
            self.rules_line = row.rules_line
        queue = bock_parse(row.bock_queue)
        if queue is not None:
            self.bock = queue
        if "pot" in self.codec.columns:
            self.pot = row.pot
        self._reset_fast_state()

    def _salvage(self, cells: Sequence[str], line: int) -> None:
        """After a row that cannot be read (a bad cell), go on as if it were what the cells
        that can be read say: a hand of its number (the next, if its number cannot be read)
        leaving the state its state cells record (`_resync`), so the rows below it are not
        reported for its sake. A row of another width is not read at all (which cell is
        which cannot be told)."""
        codec = self.codec
        if len(cells) != codec.width:
            return
        at = codec.index
        kind_text, number_text = cells[at["kind"]], cells[at["hand"]]
        number = whole(number_text) if number_text else None
        # (a kind that cannot be read: a hand if it has a number, or a dealer and no ref)
        hand = kind_text in _HAND_KIND_TEXTS or (
            kind_text not in _KIND_TEXTS
            and (number is not None or (bool(cells[at["dealer"]]) and not cells[at["ref"]]))
        )
        state: dict[str, Any] = {
            "pending": len(self.pending),
            "rules_line": self.rules_line,
            "bock_queue": bock_text(self.bock),
        }
        for name in _STATE:
            if name not in codec.columns or not cells[at[name]]:
                continue
            alone = [""] * codec.width  # (the one cell, in a row of a kind that has no inputs)
            alone[at["kind"]], alone[at[name]] = RowKind.SEAT.value, cells[at[name]]
            with suppress(LedgerError):
                state[name] = getattr(codec.decode(alone, line), name)
        kind = RowKind.PICKER if hand else RowKind.SEAT
        if hand and number is None:
            number = self.last_hand + 1
        self._resync(Row(kind, line, hand=number if hand else None, **state))

    def _expected(
        self, row: Row, cells: Sequence[str] | None = None
    ) -> tuple[dict[str, int], Score | None]:
        """The points the row should hold (re-scored) and its score, or a LedgerError."""
        line = row.line
        kind = row.kind
        if kind in (RowKind.RULES, RowKind.SESSION):
            raise LedgerError(
                line, _("a {kind} row belongs at the top of the file").format(kind=kind)
            )
        if row.undoes is not None or row.redoes is not None:
            _check_step(row)
        if row.digest and (kind not in _FAST_KINDS or not is_digest(row.digest)):
            raise LedgerError(
                line,
                _(
                    "digest: {digest!r} is not what `replay --record` keeps (the digest of a "
                    "hand file, 64 hexadecimal digits, on a hand's row)"
                ).format(digest=row.digest[:60]),
            )
        if kind is RowKind.SEAT:
            if row.hand is not None or row.ref is not None or row.deltas:
                raise LedgerError(line, _("a seat row has no hand number, ref or points"))
            self._check_seats(row.seated, line)
            return {}, None
        if kind is RowKind.SET:
            if row.hand is not None or row.ref is not None or row.deltas:
                raise LedgerError(line, _("a set row has no hand number, ref or points"))
            self._rules_of(row)
            return {}, None
        if kind is RowKind.PENALTY:
            return self._expected_penalty(row)
        if kind is RowKind.BOCK:
            return self._expected_bock(row)
        if kind is RowKind.POT:
            return self._expected_pot(row)
        if kind in HAND_KINDS:
            return self._expected_hand(row)
        return self._expected_correction(row, cells)

    def _expected_bock(self, row: Row) -> tuple[dict[str, int], Score | None]:
        """A `bock` row: the table starts Bock rounds (or takes back a `bock` row's)."""
        line = row.line
        if row.hand is not None or row.ref is not None or row.deltas:
            raise LedgerError(line, _("a bock row has no hand number, ref or points"))
        if row.bock_rounds is None or not 1 <= row.bock_rounds <= MAX_ROUNDS:
            raise LedgerError(
                line,
                _("bock_rounds: a bock row starts 1 to {max_rounds} Bock rounds").format(
                    max_rounds=MAX_ROUNDS
                ),
            )
        stray = given(row._asdict(), INPUTS)
        if stray:
            raise LedgerError(line, _("{stray}: a bock row has no {stray}").format(stray=stray[0]))
        if row.undoes is not None and row.line:
            undone = self._bock_rows.get(row.undoes)
            if undone is None:
                raise LedgerError(
                    line, _("undoes: line {undoes} is no bock row above").format(undoes=row.undoes)
                )
        why = self.bock_refusal(row)
        if why is not None:
            raise LedgerError(line, why)
        self._bock_rows[row.line] = row.bock_rounds
        return {}, None

    def _check_number(self, row: Row) -> None:
        """A hand or penalty row takes the next number."""
        if row.hand != self.last_hand + 1:
            raise LedgerError(
                row.line,
                _("hand number {hand} is out of order: {last_hand} comes next").format(
                    hand=row.hand, last_hand=self.last_hand + 1
                ),
            )

    def _expected_penalty(self, row: Row) -> tuple[dict[str, int], Score | None]:
        line = row.line
        self._check_number(row)
        if row.ref is not None:
            raise LedgerError(line, _("a penalty row has no ref"))
        if set(row.deltas) != set(self.seated):
            raise LedgerError(line, _("every player at the table needs a number of points"))
        stray = given(row._asdict(), _NOT_A_PENALTYS)
        if stray:
            raise LedgerError(
                line, _("{stray}: a penalty row has no {stray}").format(stray=stray[0])
            )
        if row.offender is None or row.penalty is None:
            raise LedgerError(line, _("a penalty row needs its offender and penalty"))
        try:
            result = score_penalty(
                self.rules, Penalty(self.seated, row.offender, row.penalty, row.paid_to)
            )
        except ScorepadError as exc:
            raise LedgerError(line, _("this penalty cannot be: {exc}").format(exc=exc)) from None
        seated = self.seated
        self._last_scored = Scored(
            row.inputs_only(RowKind.PENALTY), dict(result.deltas), lean(result), seated
        )
        return dict(result.deltas), result

    def _check_dealt(self, row: Row, no_ref: str) -> None:
        """What every dealt row (a hand, a hand passed into the pot) holds: the next number, no
        ref (`no_ref` says so), a dealer, and a number of points for each player seated."""
        line = row.line
        self._check_number(row)
        if row.ref is not None:
            raise LedgerError(line, no_ref)
        if row.dealer is None:
            raise LedgerError(line, _("dealer: missing"))
        if set(row.deltas) != set(self.seated):
            raise LedgerError(line, _("every player at the table needs a number of points"))

    def _expected_pot(self, row: Row) -> tuple[dict[str, int], Score | None]:
        """A hand everyone passed into the pot: each player dealt in pays the ante."""
        line = row.line
        if "pot" not in self.codec.columns:
            self._check_number(row)
            raise LedgerError(line, _("a pot row in a file without the pot column (format 8)"))
        self._check_dealt(row, _("a pot row has no ref"))
        stray = given(row._asdict(), _NOT_A_POTS)
        if stray:
            raise LedgerError(line, _("{stray}: a pot row has no {stray}").format(stray=stray[0]))
        if self.rules.all_pass != "pot":
            raise LedgerError(
                line,
                _("a pot row under rules with all_pass = {all_pass}").format(
                    all_pass=self.rules.all_pass
                ),
            )
        try:
            result = ante_score(self.rules, self.seated, row.dealer, row.out)
        except ScorepadError as exc:
            raise LedgerError(
                line, _("this hand cannot be passed into the pot: {error}").format(error=exc)
            ) from None
        if set(result.sitting_out) != set(row.out):
            raise LedgerError(
                line,
                _("out: recorded {recorded}, but the rules seat out {seated}").format(
                    recorded=shown(row.out), seated=shown(result.sitting_out)
                ),
            )
        seated = self.seated
        deltas = {p: result.deltas.get(p, 0) for p in seated}
        self._last_scored = Scored(row.inputs_only(RowKind.POT), deltas, lean(result), seated)
        return dict(deltas), result

    def _for_pot(self, entry: Scored, pot: int) -> Scored:
        """Hand `entry` as played for a pot holding `pot`, if it plays for it (a hand with a
        picker, won or lost: `pot.plays_for_pot`); else `entry` itself."""
        result = entry.result
        if result is None or not plays_for_pot(pot, result):
            return entry
        row = entry.row
        assert row.picker is not None
        played = lean(played_for_pot(self.rules, result, row.picker, row.partners, pot))
        assert played is not None
        seated = entry.seated
        deltas = {p: played.deltas.get(p, 0) for p in seated}
        return Scored(row, deltas, played, seated, points=entry.points)

    def _expected_hand(self, row: Row) -> tuple[dict[str, int], Score | None]:
        line = row.line
        self._check_dealt(row, _("a hand row has no ref"))
        if row.kind is not RowKind.DOUBLER and kind_of(row) is not row.kind:
            raise LedgerError(
                line,
                _("kind: a {kind} row, but its inputs are those of a {kind_of}").format(
                    kind=row.kind, kind_of=kind_of(row)
                ),
            )
        if row.kind is RowKind.DOUBLER:
            if self.rules.all_pass != "doubler":
                raise LedgerError(
                    line,
                    _("a doubler under rules with all_pass = {all_pass}").format(
                        all_pass=self.rules.all_pass
                    ),
                )
            if row.bock:
                raise LedgerError(line, _("bock: a doubler is no Bock hand (the next hand is)"))
            return dict.fromkeys(self.seated, 0), None
        if row.doubled != self.doubled_next():
            raise LedgerError(
                line,
                _(
                    "doubled: recorded {doubled}, but the doublers before it give {doubled_next}"
                ).format(doubled=row.doubled, doubled_next=self.doubled_next()),
            )
        if row.bock != self.bock_next():
            raise LedgerError(
                line,
                _("bock: recorded {shown}, but the Bock rounds before it give {shown2}").format(
                    shown=shown(row.bock or "none"), shown2=shown(self.bock_next() or "none")
                ),
            )
        entry = self._rescore(row, self.seated, remember=not self.fast)
        entry = self._last_scored = self._for_pot(entry, self.pot)
        return dict(entry.deltas), entry.result

    def _expected_correction(
        self, row: Row, cells: Sequence[str] | None = None
    ) -> tuple[dict[str, int], Score | None]:
        line = row.line
        if row.hand is not None:
            raise LedgerError(line, _("a {kind} row has no hand number").format(kind=row.kind))
        if row.ref is None or not 1 <= row.ref <= self.last_hand:
            raise LedgerError(
                line, _("ref: {ref} is not a hand recorded above").format(ref=row.ref)
            )
        if row.kind is RowKind.RESTORE:
            if row.ref not in self.voided:
                raise LedgerError(
                    line,
                    _("ref: hand {ref} is not void: there is nothing to restore").format(
                        ref=row.ref
                    ),
                )
        elif row.ref in self.voided:
            raise LedgerError(line, _("ref: hand {ref} is already void").format(ref=row.ref))
        version = self.kept.get(row.ref)
        if version is None:
            raise LedgerError(
                line,
                _(
                    "ref: hand {ref} cannot be checked (it was not read as a hand this "
                    "correction refers to)"
                ).format(ref=row.ref),
            )
        if row.kind is not RowKind.AMEND:
            why = self.bock_refusal(row)
            if why is not None:
                raise LedgerError(line, why)
        put = put_in(version.result)  # (what it put into the pot)
        if row.kind is RowKind.VOID:
            self._check_pot_change(row.ref, -put, line)
            return {p: -v for p, v in version.deltas.items()}, None
        if row.kind is RowKind.RESTORE:
            self._check_pot_change(row.ref, put, line)
            return dict(version.deltas), None
        if version.row.kind is RowKind.DOUBLER:
            raise LedgerError(
                line, _("hand {ref} is a doubler: there is nothing to amend").format(ref=row.ref)
            )
        if version.row.kind is RowKind.POT:
            raise LedgerError(
                line,
                _("hand {ref} was passed into the pot: there is nothing to amend").format(
                    ref=row.ref
                ),
            )
        if version.row.kind is RowKind.PENALTY or kind_of(row) is RowKind.PENALTY:
            raise LedgerError(
                line, _("hand {ref}: a penalty is voided, not amended").format(ref=row.ref)
            )
        if row.doubled != version.row.doubled:
            raise LedgerError(
                line,
                _("doubled: an amendment keeps the doubling of hand {ref} ({doubled})").format(
                    ref=row.ref, doubled=version.row.doubled
                ),
            )
        if row.bock != version.row.bock:
            raise LedgerError(
                line,
                _("bock: an amendment keeps the Bock of hand {ref} ({value})").format(
                    ref=row.ref, value=version.row.bock or "none"
                ),
            )
        seats = self._seats_of(version)
        known = self._remembered(cells, seats) if cells is not None else None
        entry = known if known is not None else self._rescore(row, seats)
        entry = self._for_pot(entry, version.pot)
        check_throw_in(version, entry.result, row.ref, line)
        why = self.bock_refusal(row, entry.result)
        if why is not None:
            raise LedgerError(line, why)
        self._check_pot_change(row.ref, put_in(entry.result) - put, line)
        return (
            {p: entry.deltas.get(p, 0) - version.deltas.get(p, 0) for p in version.deltas},
            entry.result,
        )

    def _check_pot_change(self, ref: int, change: int, line: int) -> None:
        """A correction of hand `ref` may not change the pot a later hand played for."""
        problem = self.pot_change_problem(ref, change)
        if problem is not None:
            raise LedgerError(line, _("hand {ref}: {problem}").format(ref=ref, problem=problem))

    @staticmethod
    def _score_key(row: Row, seated: tuple[str, ...]) -> tuple[object, ...]:
        return (seated, *(_frozen(getattr(row, name)) for name in INPUTS))

    def _rescore(self, row: Row, seated: tuple[str, ...], remember: bool = True) -> Scored:
        """Score the hand a row records. Scoring is pure, and a night repeats the same few
        hands over and over, so results are remembered (a bounded number of them; a hand row
        is remembered by its raw cells instead, on the fast path)."""
        found: Scored | str | None
        if not remember:
            found = self._score_row(row, seated)
        else:
            key = self._score_key(row, seated)
            found = self._scores.get(key)
            if found is None:
                found = self._score_alike(row, seated, key)
                _remember_bounded(self._scores, key, found, _SCORE_CACHE)
        if isinstance(found, str):
            raise LedgerError(row.line, found)
        return found

    def _score_alike(
        self, row: Row, seated: tuple[str, ...], key: tuple[object, ...]
    ) -> Scored | str:
        """Score a row's hand, unless a hand alike but for card points of the same class was
        scored already (`scoring.points_class`)."""
        points = row.points
        if row.picker is None or points is None or not 0 <= points <= TOTAL_POINTS:
            return self._score_row(row, seated)
        at = 1 + _POINTS_AT  # the key is (seated, *inputs)
        alike = (*key[:at], points_class(self.rules, points), *key[at + 1 :])
        near = self._scores_alike.get(alike)
        if near is not None:
            return Scored(near.row, near.deltas, near.result, seated, points=points, base=near.base)
        found = self._score_row(row, seated)
        if isinstance(found, Scored):
            _remember_bounded(self._scores_alike, alike, found, _SCORE_CACHE)
        return found

    def _classes_now(self) -> dict[str, tuple[str, int]]:
        """`_point_classes` under the rules in force (worked out again only for other rules;
        filled in place: `feed` holds the dict)."""
        if self._classes_of is not self.rules:
            self._classes, self._classes_of = {}, self.rules
        if not self._classes:
            self._classes.update(_point_classes(self.rules))
        return self._classes

    def _score_row(self, row: Row, seated: tuple[str, ...]) -> Scored | str:
        """The score of a row's hand, or the message saying why it has none.

        A picker hand scores as the hand one seat round the table scores, every name moved a
        seat on: the rules see seats, not names (`_turned_key`). So a hand alike but for
        where the deal was, scored before, is that score with its players moved (a night
        deals round and round: a sixth of the scoring, at six seats)."""
        turned = _turned_key(self._classes_now(), row, seated)
        if turned is not None:
            key, seats = turned
            alike = self._turned.get(key)
            if alike is not None:
                return self._score_turned(row, seated, alike, seats)
        try:
            hand = hand_of(row, seated)
            result = score(self.rules, hand)
        except ScorepadError as exc:
            return f"this hand cannot be scored: {exc}"
        found = self._scored(row, seated, result)
        if (
            turned is not None
            and isinstance(found, Scored)
            and not (result.winners or result.losers)
            and _named_once(result.doublings, seated, row.crack)
        ):  # (a score that names no one but in its deltas, who sat out, and who cracked)
            assert found.result is not None and row.dealer is not None
            remembered = (found.result, row.dealer, row.crack)
            _remember_bounded(self._turned, turned[0], remembered, _TURNED_CACHE)
        return found

    def _score_turned(
        self,
        row: Row,
        seated: tuple[str, ...],
        alike: tuple[Score, str, str | None],
        seats: Mapping[str, int],
    ) -> Scored | str:
        """The score of a row's hand from that of a hand alike but dealt from another seat
        (`_score_row`): each of its players moved on by the seats between the two dealers."""
        was, dealer, cracker = alike
        assert row.dealer is not None
        size = len(seated)
        step = seats[row.dealer] - seats[dealer]
        moved = {p: seated[(at + step) % size] for p, at in seats.items()}
        deltas = {moved[p]: value for p, value in was.deltas.items()}
        out = {moved[p] for p in was.sitting_out}
        doublings = was.doublings
        if cracker is not None:  # ("x2 crack by Ann": her name, once in all, is the cracker's)
            doublings = tuple(w.replace(cracker, moved[cracker]) for w in doublings)
        result = was._replace(
            deltas=MappingProxyType({p: deltas[p] for p in seated if p in deltas}),
            sitting_out=tuple(p for p in seated if p in out),
            doublings=doublings,
        )
        return self._scored(row, seated, result)

    def _scored(self, row: Row, seated: tuple[str, ...], result: Score) -> Scored | str:
        """A row's hand as scored (`result`), or why the score does not hold for it."""
        if set(result.sitting_out) != set(row.out):
            return _("out: recorded {recorded}, but the rules seat out {seated}").format(
                recorded=shown(row.out), seated=shown(result.sitting_out)
            )
        inputs = row.inputs_only(kind_of(row))
        return Scored(inputs, {p: result.deltas.get(p, 0) for p in seated}, lean(result), seated)


def _remember_bounded(memo: dict[_K, _V], key: _K, value: _V, most: int) -> None:
    """Remember `value` by `key`; a memo holding `most` is emptied first (memory stays bounded,
    and what recurs is soon remembered again)."""
    if len(memo) >= most:
        memo.clear()
    memo[key] = value


def _turned_key(
    classes: Mapping[str, tuple[str, int]], row: Row, seated: tuple[str, ...]
) -> tuple[tuple[object, ...], dict[str, int]] | None:
    """What the rules see of a picker hand: its inputs with each player named by the seat
    from the dealer's (0 the dealer, 1 the dealer's left, ...), and its card points by
    their class (`_point_classes`, under the rules in force); and each player's seat. None for a
    hand that is not a picker's with card points, or that names someone not at the table
    (scored as it is, to say so in its own words)."""
    points, dealer = row.points, row.dealer
    if row.picker is None or points is None or not 0 <= points <= TOTAL_POINTS or dealer is None:
        return None
    seats = {p: at for at, p in enumerate(seated)}
    size = len(seated)
    try:
        first = seats[dealer]
        seen: list[object] = [seated, classes[str(points)][0], *_OTHER_OF(row)]
        for player in _NAME_OF(row):
            seen.append(None if player is None else (seats[player] - first) % size)
        for players in _NAMES_OF(row):
            seen.append(tuple([(seats[p] - first) % size for p in players]))
        for given in _COUNTS_OF(row):
            seen.append(
                tuple(sorted([((seats[p] - first) % size, n) for p, n in given.items()]))
                if given
                else given
            )
    except KeyError:
        return None
    return tuple(seen), seats


def _named_once(words: Sequence[str], seated: tuple[str, ...], cracker: str | None) -> bool:
    """Whether `words` (a score's doublings) name no player at `seated`, but the cracker, if
    any, once in all (as a crack's doubling does: "x2 crack by Ann")."""
    text = "\n".join(words)
    return all(text.count(p) == (1 if p == cracker else 0) for p in seated) and (
        cracker is None or cracker in seated
    )


def _fed(cells: Sequence[str], line: int) -> list[Problem]:
    """`feed` once the pass is over (`Checker.done`)."""
    raise RuntimeError(_("this ledger's pass is over: read the file again to check more rows"))


def _check_step(row: Row) -> None:
    """An undo or redo row names one change above it (and is a change that can take it back
    or make it again: not a new hand)."""
    name, target = ("undoes", row.undoes) if row.redoes is None else ("redoes", row.redoes)
    if row.undoes is not None and row.redoes is not None:
        raise LedgerError(row.line, _("undoes and redoes: a row is an undo or a redo, not both"))
    if row.kind in HAND_KINDS:
        raise LedgerError(
            row.line,
            _("{name}: a {kind} row is no {name2}").format(
                name=name, kind=row.kind, name2=name[:4]
            ),
        )
    assert target is not None
    if row.line and not 3 < target < row.line:
        raise LedgerError(
            row.line,
            _("{name}: line {target} is not a change above this row").format(
                name=name, target=target
            ),
        )


def _point_classes(rules: Rules) -> dict[str, tuple[str, int]]:
    """For each points cell a hand row may hold as scorepad writes it (none, or 0 to 120):
    the start of a remembered hand's key, naming the class of those card points under these
    rules (`scoring.points_class`: hands of one class score alike), and the card points."""
    names: dict[tuple[int | bool, ...], str] = {}
    classes = {"": (_CLASS_MARK + _KEY_SEPARATOR, 0)}
    for points in range(TOTAL_POINTS + 1):
        name = names.setdefault(points_class(rules, points), f"{_CLASS_MARK}{len(names)}")
        classes[str(points)] = (name + _KEY_SEPARATOR, points)
    return classes


def _frozen(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, Mapping) else value


def _differs(what: str, recorded: Mapping[str, int], expected: Mapping[str, int]) -> str:
    wrong = [p for p in {**expected, **recorded} if recorded.get(p) != expected.get(p)]
    shown = "; ".join(
        f"{p} recorded {recorded.get(p, 'nothing')}, the rules give {expected.get(p, 'nothing')}"
        for p in wrong
    )
    return f"{what} differ from the re-scoring: {shown}"
