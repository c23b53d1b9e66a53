"""The ledger of a night: one pass over its rows that applies and checks every one.

Pure: no I/O (`session.py` owns the file, `schema.py` its format). `Ledger` is the only engine:
it applies hands, corrections and seat changes in file order, re-scores every hand from its
recorded inputs and the rules, and checks every row's points and recorded state (next dealer,
seats, doublers pending, running totals). `verify` reports what it finds; every report refuses a
file in which it finds anything. It also makes the rows of new hands and corrections, so what is
written is what is checked.

Speed and memory: scoring is memoized on a hand's raw input cells and the seats in force, with
its card points by their class (`scoring.points_class`: hands alike but for card points of one
class score alike), so a night that repeats the same few situations scores each once, and a row
whose cells match a remembered score is checked without being decoded. What is remembered is
bounded (two generations of kinds of hand, caches of scores), and a hand is kept whole only
while a later correction still refers to it (the session module finds those first): memory
grows with the variety of a night up to those bounds, and with its corrections, not with its
length.
"""

from __future__ import annotations

import json
import operator
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from typing import Any, Final, NamedTuple

from .errors import HandError, ScorepadError, field
from .hands import BY_NAME as BY_INPUT
from .hands import Type
from .names import TOTAL_POINTS
from .rules import MAX_DOUBLED, Rules
from .schema import (
    CORRECTIONS,
    FORMULA_STARTS,
    HAND_KINDS,
    INPUTS,
    Codec,
    LedgerError,
    Problem,
    Row,
    RowKind,
    check_note,
)
from .scoring import (
    Hand,
    LeasterHand,
    Outcome,
    Penalty,
    PickerHand,
    RamschHand,
    SchwanzerHand,
    Score,
    find_player,
    points_class,
    score,
    score_penalty,
    seat,
    tricks_needed,
)
from .text import unprintable, unprintable_problem

_FAST_GENERATION = 8_192  # kinds of hand remembered by their raw cells, in each of two generations
_POINTS_AT = INPUTS.index("points")
# A remembered hand's key is the class of its card points (`_point_classes`), then its other
# input cells, each followed by this. No cell of a remembered hand holds it (names are
# printable, JSON escapes it, and a hand with any other text does not score), so a key names
# one class and one list of cells.
_KEY_SEPARATOR = "\x1f"
_CLASS_MARK = "\x1e"  # begins a class of card points in a key (no cell begins with it either)
_SCORE_CACHE = 256  # scores remembered by decoded inputs (corrections, doubled hands)
_FAST_KINDS = frozenset((RowKind.PICKER, RowKind.LEASTER, RowKind.SCHWANZER, RowKind.RAMSCH))
_FAST_KIND_TEXTS = frozenset(kind.value for kind in _FAST_KINDS)
_CORRECTION_TEXTS = frozenset(kind.value for kind in CORRECTIONS)
_FORMULA_FIRST = frozenset(FORMULA_STARTS)  # (each is one character)


# --- from rows to hands and back ----------------------------------------------------------------


def kind_of(row: Row) -> RowKind:
    """The kind of hand a row's inputs describe (a hand row's kind, or an amendment's hand)."""
    if row.offender is not None:
        return RowKind.PENALTY
    if row.picker is not None:
        return RowKind.PICKER
    if row.game == "ramsch":
        return RowKind.RAMSCH
    if row.schwanzer_points is not None or row.losers:
        return RowKind.SCHWANZER
    return RowKind.LEASTER


_RECORDS: dict[RowKind, type[Hand]] = {
    RowKind.PICKER: PickerHand,
    RowKind.LEASTER: LeasterHand,
    RowKind.SCHWANZER: SchwanzerHand,
    RowKind.RAMSCH: RamschHand,
}
# each record's inputs (its fields but the players), read off a row or a hand at once
_INPUTS_OF = {kind: operator.attrgetter(*record._fields[1:]) for kind, record in _RECORDS.items()}
_KIND_OF_RECORD = {record: kind for kind, record in _RECORDS.items()}


def hand_of(row: Row, seated: Sequence[str]) -> Hand:
    """The scoring input that a picker, leaster, schwanzer or Ramsch row (or an amend) records:
    the row's cells of the inputs its kind of hand has (`hands.INPUTS`; the same names)."""
    kind = kind_of(row)
    if kind is RowKind.PENALTY:
        raise HandError("a penalty is not a hand")
    if kind is RowKind.PICKER and row.points is None:
        raise HandError("points: missing")
    return _RECORDS[kind](tuple(seated), *_INPUTS_OF[kind](row))


def row_for_hand(hand: Hand, result: Score, seated: Sequence[str]) -> Row:
    """A row recording a scored hand (number and state are filled in by the ledger)."""
    kind = _KIND_OF_RECORD[type(hand)]
    inputs = dict(zip(type(hand)._fields[1:], _INPUTS_OF[kind](hand)))
    for name, value in inputs.items():
        if BY_INPUT[name].type == Type.NAMES:
            inputs[name] = tuple(value)
    inputs["out"] = tuple(p for p in seated if p in result.sitting_out)
    if kind is RowKind.RAMSCH:
        inputs["game"] = "ramsch"
    return Row(kind, deltas={p: result.deltas.get(p, 0) for p in seated}, **inputs)


def canonical(hand: Hand, seated: Sequence[str]) -> Hand:
    """The hand with every name spelled as the session spells it (names match case-blind)."""
    changed: dict[str, Any] = {}
    fields = type(hand)._fields[1:]
    # (in the order the names were always checked: who sat out, the dealer, then the rest)
    for name in ("out", "dealer", *(f for f in fields if f not in ("out", "dealer"))):
        value = getattr(hand, name)
        if not value:
            continue
        kind = BY_INPUT[name].type
        ref = field(name)
        if kind == Type.NAME:
            changed[name] = find_player(value, seated, ref)
        elif kind == Type.NAMES:
            changed[name] = tuple(find_player(n, seated, ref) for n in value)
        elif kind == Type.COUNTS:
            changed[name] = {find_player(k, seated, ref): v for k, v in value.items()}
    return hand._replace(**changed)


# --- what the reports see -----------------------------------------------------------------------


class Scored:
    """A hand's inputs, scored: what a row of those inputs must hold, and what it means.

    Shared by every hand of the night with the same inputs and seats (compared by identity).
    Not changed once made (`Final`). The records that are made at import (this,
    `_Version`, `reports.PlayerStats`) are plain classes: a dataclass's generated methods cost
    every command about 0.4 ms each to compile as it starts.
    """

    __slots__ = (
        "base",
        "card",
        "cells",
        "deltas",
        "next_dealer",
        "points",
        "result",
        "row",
        "seated",
    )

    def __init__(
        self,
        row: Row,
        deltas: Mapping[str, int],
        result: Score | None,
        seated: tuple[str, ...],
        cells: tuple[str, ...] = (),
        next_dealer: str = "",
        points: int | None = None,
        base: Scored | None = None,
    ) -> None:
        self.row: Final = row  # the inputs (hand number, line and state are not part of it)
        self.deltas: Final = deltas  # each seated player's points, in seat order
        self.result: Final = result  # None for a doubler
        self.seated: Final = seated
        self.cells: Final = cells  # the player cells a row must hold, in the file's order
        self.next_dealer: Final = next_dealer
        # The hand's own card points, where `row` stands for every hand alike but for its
        # points (of one class, `scoring.points_class`): None when they are the row's.
        self.points: Final = points
        # The card points to add up for this hand (0 where a hand has none: a leaster).
        self.card: Final = (row.points if points is None else points) or 0
        # The hand this one is alike to but for its card points (of one class): the reports
        # count hands by it (`Counts`). Itself when it is the first of its kind.
        self.base: Final[Scored] = self if base is None else base

    def with_points(self, points: int) -> Scored:
        """This hand with other card points of the same class (which score alike)."""
        return Scored(
            self.row,
            self.deltas,
            self.result,
            self.seated,
            self.cells,
            self.next_dealer,
            points,
            self.base,
        )

    @property
    def card_points(self) -> int | None:
        """The card points of the picker's side in this hand."""
        return self.row.points if self.points is None else self.points

    @property
    def inputs(self) -> Row:
        """The hand's inputs, with its own card points."""
        if self.points is None or self.points == self.row.points:
            return self.row
        return self.row._replace(points=self.points)


class Counts(Counter["Scored"]):
    """How often each kind of scored hand stands in the night in its final version, and the
    card points of those hands added up (`card_points`).

    A night repeats the same few hands, so the reports add them up by kind: hands alike but
    for card points of one class share a kind (`Scored.base`). When more than `LIMIT` kinds are
    counted the ledger calls `fold`: a subclass adds the counts into what it keeps and clears
    them, so memory stays flat; this one keeps counting."""

    LIMIT = 8_192

    def __init__(self) -> None:
        super().__init__()
        self.card_points: Counter[Scored] = Counter()

    def add(self, entry: Scored, times: int = 1) -> None:
        """Count a hand `times` times."""
        self.count(entry.base, times, times * entry.card)

    def count(self, base: Scored, times: int, card_points: int) -> None:
        """Count `times` hands of the kind `base`, holding `card_points` in all."""
        self[base] += times
        self.card_points[base] += card_points
        if len(self) > self.LIMIT:
            self.fold()

    def add_alone(self, entry: Scored) -> None:
        """Count a hand that is a kind of its own (a corrected hand as its last correction
        leaves it): a subclass may count it at once instead of keeping it."""
        self.add(entry)

    def fold(self) -> None:
        """Make room (see the class)."""


class HandView(NamedTuple):
    """A hand as the reports show it: its final version (as last amended) and whether it is void.

    `entry.deltas` are the final version's points; a void hand counts for nothing. `points`:
    the hand's card points where `entry` is a hand alike with others (of the same class;
    `card_points` gives either).
    """

    number: int
    entry: Scored
    void: bool = False
    amended: bool = False
    note: str = ""
    points: int | None = None

    @property
    def card_points(self) -> int | None:
        """The card points of the picker's side in this hand."""
        return self.entry.card_points if self.points is None else self.points

    @property
    def row(self) -> Row:
        return self.entry.row

    @property
    def deltas(self) -> Mapping[str, int]:
        return self.entry.deltas


class Fate:
    """What the rows below a hand do to it (found before the pass): how many correct it, and
    where (at which byte of the file) its last amendment and its last void or restore begin,
    read again only when the pass reaches the hand (so a long night holds a few bytes a
    correction, not the rows).

    A fate is one int (no object a corrected hand, of which a night may have many): the count
    in its low 32 bits, then each place plus one (0: none) in 48 bits."""

    NONE = 0  # no row corrects the hand

    @staticmethod
    def count(fate: int) -> int:
        return fate & _FATE_COUNT

    @staticmethod
    def amended_at(fate: int) -> int:
        """Where the last amendment's row begins (-1: none)."""
        return ((fate >> 32) & _FATE_PLACE) - 1

    @staticmethod
    def voided_at(fate: int) -> int:
        """Where the last void or restore row begins (-1: none)."""
        return (fate >> 80) - 1

    @staticmethod
    def corrected(fate: int, amended_at: int = -1, voided_at: int = -1) -> int:
        """The fate after one more correction (at a place, if given)."""
        if amended_at >= 0:
            fate = fate & ~(_FATE_PLACE << 32) | (amended_at + 1) << 32
        if voided_at >= 0:
            fate = fate & ((1 << 80) - 1) | (voided_at + 1) << 80
        return fate + 1


_FATE_COUNT = (1 << 32) - 1
_FATE_PLACE = (1 << 48) - 1  # (a place in a file of up to 256 TiB)


class _Version:
    """What the ledger remembers of a hand that a later correction refers to."""

    __slots__ = ("before", "consumed", "deltas", "result", "row")

    def __init__(
        self,
        row: Row,
        deltas: dict[str, int],
        consumed: list[int],
        result: Score | None = None,
        before: _Version | None = None,  # the version an amendment replaced (for `undo`)
    ) -> None:
        self.row = row
        self.deltas = deltas
        self.consumed = consumed
        self.result = result
        self.before = before


# --- the ledger ---------------------------------------------------------------------------------


class Ledger:
    """The state of a night, row by row: totals, dealer, doublers pending, corrections.

    `feed(cells, line)` checks one row (its raw cells) against the state so far, applies it and
    returns its problems; `feed_row(row)` does the same for a decoded row. `record`,
    `record_doubler`, `void_row`, `amend_row` and `seat_row` make new rows (with their state).

    `corrections` maps each hand number that later rows correct to its `Fate` (found before the
    pass): such hands are remembered until their last correction. `on_hand`, if given, is
    called with every hand's final version (`HandView`) as the pass reaches it; `counts`, if
    given, counts the hands that are not void by their final version (a `Counter` of `Scored`,
    which the reports fold into each player's numbers: far cheaper than a call a hand).
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        first_dealer: str,
        seated: Sequence[str] | None = None,
        codec: Codec | None = None,
        corrections: Mapping[int, int] | None = None,
        on_hand: Callable[[HandView], None] | None = None,
        fast: bool = True,
        counts: Counts | None = None,
        cells_at: Callable[[int], Sequence[str] | None] | None = None,
    ):
        self.rules = rules
        self.fast = fast
        self.feed: Callable[[Sequence[str], int], list[Problem]]
        """feed(cells, line): check a row's raw cells, apply it; returns its problems."""
        self.players = tuple(players)  # everyone in the file's header
        self.codec = codec or Codec.new(self.players)
        self.order = list(seated or players)  # the seats in force, in seat order
        self.next_dealer = first_dealer
        self.totals = dict.fromkeys(self.order, 0)  # everyone who has sat down tonight
        self.pending: list[int] = []  # the doubler hands whose doubling is still to come
        self.last_hand = 0
        self.hands = 0  # picker and leaster hands that count (not voided)
        self.voided: set[int] = set()
        self.penalties: set[int] = set()  # the numbers that are penalties, not deals
        # `resume`: the hand the last row records, when it was marked the night's last
        self.night_over: int | None = None
        self.seat_changes = 0
        self._seat_notes: list[str] = []  # seat changes the next hand shown is to mention
        self.rules_line: int | None = None  # the `set` row in force (None: the head's rules)
        self.corrections = corrections if corrections is not None else {}  # (read only)
        self.refs = {ref: Fate.count(fate) for ref, fate in self.corrections.items()}
        self._cells_at = cells_at  # the cells of the row that begins at a byte (see `Fate`)
        self.kept: dict[int, _Version] = {}
        self.race_winners: tuple[str, ...] = ()
        self.on_hand = on_hand
        self.counts = counts  # if given: how often each scored hand stands in its final version
        self._scores: dict[tuple[object, ...], Scored | str] = {}
        self._scores_alike: dict[tuple[object, ...], Scored] = {}
        self._fast: dict[str, Scored] = {}  # the young generation
        self._fast_old: dict[str, Scored] = {}
        self._interned: dict[Any, Any] = {}
        self._last_scored: Scored | None = None
        self._classes: dict[str, tuple[str, int]] = {}
        self._classes_of: Rules | None = None  # the rules `_classes` are for
        self._totals_form = ""
        self._reset_fast_state()

    @classmethod
    def resume(
        cls,
        rules: Rules,
        players: Sequence[str],
        last: Row,
        last_hand: int,
        codec: Codec | None = None,
        rules_line: int | None = None,
    ) -> Ledger:
        """Pick the night up from the state its last row records (no history needed), under
        the rules of the `set` row at `rules_line` (None: the rules row's)."""
        ledger = cls(
            rules,
            players,
            last.next_dealer or players[-1],
            seated=last.seated or players,
            codec=codec,
        )
        ledger.pending = [0] * last.pending
        ledger.totals = {
            p: last.totals.get(p, 0)
            for p in ledger.players
            if p in last.totals or p in ledger.order
        }
        ledger.last_hand = last_hand
        ledger.rules_line = rules_line
        if last.last and last.kind in HAND_KINDS:
            ledger.night_over = last.hand
        elif last.last and last.kind is RowKind.AMEND and last.ref == last_hand:
            ledger.night_over = last.ref
        ledger._check_race()
        ledger._reset_fast_state()
        return ledger

    # -- what the next hand looks like --

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(self.order)

    def doubled_next(self) -> int:
        """How many doublings the next scored hand carries, from the doublers pending."""
        if not self.pending:
            return 0
        return len(self.pending) if self.rules.doubler_stacking == "multiply" else 1

    def left_of(self, dealer: str) -> str:
        """Who deals after `dealer`: the next seated player (in the header's order if the
        dealer has left since)."""
        seated = self.order
        if dealer in seated:
            return seated[(seated.index(dealer) + 1) % len(seated)]
        return self.following(dealer, self.players)

    def following(self, player: str, order: Sequence[str]) -> str:
        """`player` if seated, else the first seated player after them in `order`."""
        if player in self.order:
            return player
        start = list(order).index(player) if player in order else -1
        for step in range(1, len(order) + 1):
            candidate = order[(start + step) % len(order)]
            if candidate in self.order:
                return candidate
        return self.order[0]

    def summary(self) -> str:
        """What a pass went through, in words: '29 hands, 2 corrections, 1 seat change'."""

        def count(n: int, word: str) -> str:
            return f"{n} {word}" + ("" if n == 1 else "s")

        corrections = sum(Fate.count(fate) for fate in self.corrections.values())
        parts = [count(self.last_hand, "hand"), count(corrections, "correction")]
        if self.seat_changes:
            parts.append(count(self.seat_changes, "seat change"))
        return ", ".join(parts)

    def last_effective(self) -> int:
        """The last hand dealt that is not void (0 when there is none; penalties are not
        dealt)."""
        hand = self.last_hand
        while hand in self.voided or hand in self.penalties:
            hand -= 1
        return hand

    # -- the fast path: a row whose cells match a remembered score --------------------------

    def _reset_fast_state(self) -> None:
        """Make `feed` anew for the seats in force (after they change).

        `feed` is a closure over locals, which Python reads faster than attributes: it is called
        once a row, and on a night of a million hands its few microseconds are the pass."""
        # what was remembered is for the seats that were in force
        for memo in (self._fast, self._fast_old, self._interned):
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
        others = operator.itemgetter(
            *(index[n] for n in INPUTS if n in codec.columns and n != "points")
        )
        k_points = index["points"]
        if self._classes_of is not self.rules:  # (worked out again only for other rules)
            self._classes, self._classes_of = _point_classes(self.rules), self.rules
        classes = self._classes
        self._key_parts = (others, k_points, classes)
        # (a table has two players at least, so this gives a tuple)
        player_cells = self._player_cells = operator.itemgetter(*codec.player_at)
        k_hand, k_kind, k_ref, k_note, k_time = (
            index[n] for n in ("hand", "kind", "ref", "note", "time")
        )
        formula_first = _FORMULA_FIRST
        recall, store = self._fast_old.get, self._store
        join = _KEY_SEPARATOR.join
        k_next, k_seated, k_pending, k_totals = (
            index[n] for n in ("next_dealer", "seated", "pending", "totals")
        )
        k_rules = index["rules_line"] if "rules_line" in codec.columns else None  # (format 3 on)
        rules_text = str(self.rules_line) if self.rules_line else ""
        self._rules_text = rules_text
        width, refs, totals, fast_get = codec.width, self.refs, self.totals, self._fast.get
        race = self.rules.settlement == "race"
        slow, played, keep = self._feed_slow, self._played, self._keep
        count = self.counts.count if self.counts is not None else None
        fast_kinds = _FAST_KIND_TEXTS
        on_hand, new_view = self.on_hand, tuple.__new__

        def feed(cells: Sequence[str], line: int) -> list[Problem]:
            """Check a row's raw cells against the state so far, then apply it."""
            if (
                len(cells) != width
                or self.pending
                or cells[k_ref]
                or cells[k_kind] not in fast_kinds
            ):
                return slow(cells, line)
            number = self.last_hand + 1
            if cells[k_hand] != str(number):
                return slow(cells, line)
            # The note and time are no inputs (a kind of hand does not vouch for them): a
            # control character or a formula in either is for the slow path to report.
            note, when = cells[k_note], cells[k_time]
            if (
                (note and (note[0] in formula_first or not note.isprintable()))
                or not when.isprintable()
                or when[:1] in formula_first
            ):
                return slow(cells, line)
            card = classes.get(cells[k_points])
            if card is None:
                return slow(cells, line)
            key = card[0] + join(others(cells))
            entry = fast_get(key)
            if entry is None:
                entry = recall(key)
                if entry is None:
                    return slow(cells, line)
                store(key, entry)  # (from the old generation: it recurs)
            if player_cells(cells) != entry.cells:
                return slow(cells, line)
            # The row's inputs are those of a hand checked before, its card points of the same
            # class: it scores the same. Apply it.
            points = card[1]
            # (as `_apply` applies a hand whose row takes no doubling and doubles no other)
            played(number, entry.deltas, entry.next_dealer)
            if race:
                self._check_race()
            if number in refs:  # a later row corrects this hand: remember it till then
                if entry.card != points:
                    entry = entry.with_points(points)
                keep(
                    number,
                    entry.inputs._replace(note=cells[k_note]),
                    entry.deltas,
                    [],
                    entry.result,
                )
                self._emit(number, entry, cells[k_note])
            else:
                if count is not None:  # (the row's own card points: its kind's may differ)
                    count(entry.base, 1, points)
                if on_hand is not None:
                    own = None if entry.card == points else points
                    # (made as `HandView._make` makes one: without a call of its __new__)
                    on_hand(new_view(HandView, (number, entry, False, False, cells[k_note], own)))
            if (
                cells[k_next] == entry.next_dealer
                and cells[k_seated] == seated_cell
                and cells[k_pending] == "0"
                and cells[k_totals] == totals_form % tuple(totals.values())
                and (k_rules is None or cells[k_rules] == rules_text)
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
                return [Problem(exc.line, exc.message)]
            problems = self.feed_row(row, cells if self.fast else None)
        entry = None
        if self.fast and not problems and row.kind in _FAST_KINDS:
            entry = self._remember(cells, row)
        if (
            row.kind in HAND_KINDS
            and row.hand == self.last_hand
            and (self.counts is not None or self.on_hand is not None)
        ):
            self._emit(row.hand, entry or self._entry_of(row), row.note)
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
        if not (hand and not self.pending) and kind not in _CORRECTION_TEXTS:
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
        )

    def _entry_of(self, row: Row) -> Scored:
        """What the reports see of a hand row the slow path just applied."""
        seated = tuple(p for p in self.players if p in row.deltas)
        found = self._last_scored
        if row.kind is RowKind.DOUBLER or found is None:
            return Scored(row.inputs_only(row.kind), dict.fromkeys(seated, 0), None, seated)
        return found

    def _emit(self, number: int, entry: Scored, note: str) -> None:
        """Count a hand just applied in its final version (as the rows below it leave it),
        and tell `on_hand` about it."""
        if self.on_hand is None:  # (counting only, or nobody to tell: verify, settle)
            self._seat_notes.clear()
            # A hand that rows below correct is counted as the last of them leaves it: `_forget`.
            counts = self.counts
            if counts is not None and entry.result is not None and number not in self.corrections:
                counts.add(entry)
            return
        void = amended = False
        fate = self.corrections.get(number)
        cells_at = self._cells_at
        if fate is not None and cells_at is not None:
            at = self.codec.index
            amended_at, voided_at = Fate.amended_at(fate), Fate.voided_at(fate)
            final = self._amended(cells_at(amended_at), entry) if amended_at >= 0 else None
            if final is not None:
                amended = True
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
            self.counts.add(entry)
        if self.on_hand is not None:
            self.on_hand(HandView(number, entry, void, amended, note))

    def _amended(self, cells: Sequence[str] | None, entry: Scored) -> tuple[Scored, str] | None:
        """Hand `entry` as the amendment in `cells` leaves it, and the amendment's note; None
        if the cells are not an amendment this can read (the pass reports that row when it
        reaches it, and checks it then)."""
        codec = self.codec
        at = codec.index
        if cells is None or len(cells) != codec.width or cells[at["kind"]] != RowKind.AMEND:
            return None
        note = cells[at["note"]]
        seated = tuple(p for p in self.players if p in entry.deltas)
        known = self._remembered(cells, seated)
        if known is not None:  # inputs of a kind remembered, at the same seats: it scores so
            points = int(cells[at["points"]]) if cells[at["points"]] else None
            found = Scored(known.row, known.deltas, known.result, seated, points=points)
            return found, note
        try:
            row = codec.decode(cells, 0, state=False)
        except LedgerError:
            return None
        with suppress(LedgerError):
            entry = self._rescore(row.inputs_only(RowKind.AMEND), seated)
        return entry, note

    def _remembered(self, cells: Sequence[str], seated: tuple[str, ...]) -> Scored | None:
        """The kind of hand remembered for a row's input cells (their card points by class),
        if it was scored at these seats; else None."""
        key = self._kind_key(cells)
        known = None if key is None else self._fast.get(key) or self._fast_old.get(key)
        return known if known is not None and known.seated == seated else None

    def _kind_key(self, cells: Sequence[str]) -> str | None:
        """The key a kind of hand is remembered by (`feed` makes it inline): the class of its
        card points, then its other input cells; None for a points cell that has no class."""
        others, k_points, classes = self._key_parts
        card = classes.get(cells[k_points])
        return None if card is None else card[0] + _KEY_SEPARATOR.join(others(cells))

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
        """Remember an entry in the young generation; when it is full, it becomes the old one
        (memory stays bounded, and what recurs is promoted back)."""
        if len(self._fast) >= _FAST_GENERATION:
            self._fast_old.clear()
            self._fast_old.update(self._fast)
            self._fast.clear()
            self._interned.clear()
        self._fast[key] = entry

    def _remember(self, cells: Sequence[str], row: Row) -> Scored | None:
        """Remember the checked score of a hand row for the fast path (by its raw cells).

        What is remembered is lean and shared: the cell texts, the lists of cells and the
        scores (without their explanation) are interned, so a remembered hand costs a few
        hundred bytes."""
        found = self._last_scored
        if row.doubled or found is None or found.result is None or found.result.doubles_next:
            return None
        intern = self._interned.setdefault
        lean = _lean(found.result)
        assert lean is not None
        lean = intern(
            (
                "score",
                lean.outcome,
                lean.stake,
                tuple(lean.deltas.items()),
                lean.level,
                lean.winners,
                lean.schneider,
                lean.no_trick,
                lean.sitting_out,
            ),
            lean,
        )
        player_cells = self._player_cells(cells)
        player_cells = intern(player_cells, tuple(intern(c, c) for c in player_cells))
        deltas = intern(("deltas", player_cells, found.seated), found.deltas)
        entry = Scored(
            found.row,
            deltas,
            lean,
            found.seated,
            player_cells,
            intern(self.next_dealer, self.next_dealer),
            found.points,
            None if found.base is found else found.base,
        )
        # (a hand with card points is remembered by their class only if it has a picker, whose
        # score `points_class` is about)
        key = self._kind_key(cells)
        if key is not None and (row.picker is not None or row.points is None):
            self._store(key, entry)
        return entry

    # -- applying decoded rows --------------------------------------------------------------

    def _played(
        self, number: int, deltas: Mapping[str, int], next_dealer: str, counts: bool = True
    ) -> None:
        """What hand `number` does to the night once it is dealt, on every path (the fast one
        of `_reset_fast_state` knows the next dealer of its kind of hand already): its points,
        the next dealer, and one more hand played (a doubler: `counts` false)."""
        self.last_hand = number
        totals = self.totals
        for player, value in deltas.items():
            totals[player] += value
        self.hands += counts
        self.next_dealer = next_dealer

    def _add(self, deltas: Mapping[str, int]) -> None:
        totals = self.totals
        for player, value in deltas.items():
            totals[player] += value

    def _check_race(self) -> None:
        if self.rules.settlement != "race":
            return
        reached = tuple(p for p in self.totals if self.totals[p] >= self.rules.target)
        # The first to reach the target wins; a correction that undoes it reopens the race.
        if not any(p in reached for p in self.race_winners):
            self.race_winners = reached

    def _consume(self) -> list[int]:
        if self.rules.doubler_stacking == "multiply":
            taken, self.pending = self.pending, []
            return taken
        return [self.pending.pop(0)] if self.pending else []

    def _state(self, row: Row) -> Row:
        return row._replace(
            rules_line=self.rules_line,
            next_dealer=self.next_dealer,
            seated=self.seated,
            pending=len(self.pending),
            totals=dict(self.totals),
        )

    def _apply(
        self, row: Row, result: Score | None = None, deltas: Mapping[str, int] | None = None
    ) -> None:
        """Apply a row (`_state` then gives it the state after).

        `result` is the hand's score (for a hand row or an amendment); `deltas` the points to
        apply when they differ from the row's (a row being checked)."""
        if deltas is None:
            deltas = row.deltas
        apply = _APPLY.get(row.kind)
        if apply is not None:
            apply(self, row, result, deltas)
        self._check_race()

    def _apply_penalty(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A penalty: numbered like a hand, it moves no deal."""
        assert row.hand is not None
        self.last_hand = row.hand
        self.penalties.add(row.hand)
        self._add(deltas)
        self._keep(row.hand, row, deltas, [], result)

    def _apply_hand(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A hand (a doubler too): it takes the doublings pending, or puts one in the queue."""
        assert row.hand is not None and row.dealer is not None
        kind = row.kind
        thrown_in = kind is RowKind.DOUBLER or (
            result is not None and result.outcome is Outcome.TIE
        )
        consumed = [] if thrown_in else self._consume()
        if kind is RowKind.DOUBLER or (result is not None and result.doubles_next):
            self._throw_in(row.hand)
        self._played(row.hand, deltas, self.left_of(row.dealer), kind is not RowKind.DOUBLER)
        self._keep(row.hand, row, deltas, consumed, result)

    def _keep(
        self,
        number: int,
        row: Row,
        deltas: Mapping[str, int],
        consumed: list[int],
        result: Score | None,
    ) -> None:
        """Remember hand `number` as dealt, if a later row corrects it (till the last does)."""
        if number in self.refs:
            self.kept[number] = _Version(row, dict(deltas), consumed, result)

    def _apply_void(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A voided hand: its points back, its doublings as before it, the deal back."""
        assert row.ref is not None
        version = self.kept[row.ref]
        was_last = row.ref == self.last_effective()
        self._add(deltas)
        if version.row.kind not in (RowKind.DOUBLER, RowKind.PENALTY):
            self.hands -= 1
        self.voided.add(row.ref)
        if _throws_in(version):  # the doubling it put in the queue goes, if still there
            self.pending = [h for h in self.pending if h != row.ref]
        self.pending = version.consumed + self.pending
        if was_last and version.row.kind is not RowKind.PENALTY:
            assert version.row.dealer is not None
            self.next_dealer = self.following(version.row.dealer, self.players)
        self._forget(row.ref)

    def _apply_set(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A change of the rules, from the next hand on."""
        self.rules = self._rules_of(row)
        self.rules_line = row.line
        self._scores.clear()  # (scores remembered were under the rules before)
        self._scores_alike.clear()
        self._reset_fast_state()

    def _apply_seat(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """Someone joins or leaves the table."""
        self.seat_changes += 1
        if row.note:
            self._seat_notes.append(row.note)
        old = self.seated
        self.order = list(row.seated)
        for player in self.order:
            self.totals.setdefault(player, 0)
        self.next_dealer = self.following(self.next_dealer, old + self.seated)
        self._reset_fast_state()

    def _apply_amend(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """New inputs for a hand: the change in points."""
        assert row.ref is not None
        version = self.kept[row.ref]
        self._add(deltas)
        new = {p: version.deltas.get(p, 0) + deltas.get(p, 0) for p in version.deltas}
        self.kept[row.ref] = _Version(row, new, version.consumed, result, version)
        self._forget(row.ref)

    def _apply_restore(self, row: Row, result: Score | None, deltas: Mapping[str, int]) -> None:
        """A voided hand counts again (the undo of a void)."""
        assert row.ref is not None
        version = self.kept[row.ref]
        self._add(deltas)
        self.voided.discard(row.ref)
        if version.row.kind not in (RowKind.DOUBLER, RowKind.PENALTY):
            self.hands += 1
        for taken in version.consumed:  # it takes back the doublings it had
            if taken in self.pending:
                self.pending.remove(taken)
        if _throws_in(version):
            self._throw_in(row.ref)
        if row.ref == self.last_effective() and version.row.kind is not RowKind.PENALTY:
            assert version.row.dealer is not None
            self.next_dealer = self.left_of(version.row.dealer)
        self._forget(row.ref)

    def _throw_in(self, number: int) -> None:
        """Hand `number` doubles a later hand (a doubler, or a 60-60 under sixty_sixty)."""
        cap = self.rules.doubler_stacking == "cap"
        if not cap or len(self.pending) < self.rules.max_doubled_hands:
            self.pending.append(number)

    def _forget(self, ref: int) -> None:
        """One fewer correction to come for hand `ref`; forget it after the last."""
        if ref in self.refs:
            self.refs[ref] -= 1
            if self.refs[ref] <= 0 and ref in self.corrections:
                del self.refs[ref]
                version = self.kept.pop(ref, None)
                if (
                    self.counts is not None
                    and self.on_hand is None  # (with one, `_emit` counted it, in hand order)
                    and version is not None
                    and version.result is not None
                    and ref not in self.voided
                ):
                    seated = self._seats_of(version)
                    entry = Scored(version.row, version.deltas, version.result, seated)
                    self.counts.add_alone(entry)

    # -- checking decoded rows ----------------------------------------------------------------

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
        problems = []
        for name, value in state.items():
            recorded = getattr(row, name)
            if value != recorded:
                problems.append(
                    Problem(
                        row.line,
                        f"{name}: recorded {_show(recorded)}, but "
                        f"the rows above give {_show(value)}",
                        edited=True,
                    )
                )
        return problems

    def _resync(self, row: Row) -> None:
        """Take a row's recorded state as given (after reporting a problem with it), so one bad
        row is reported once and not again on every row below it."""
        if row.next_dealer is not None:
            self.next_dealer = row.next_dealer
        if row.seated and all(p in self.players for p in row.seated):
            self.order = list(row.seated)
        if row.totals:
            self.totals.update(row.totals)
        self.pending = self.pending[: row.pending] + [0] * max(0, row.pending - len(self.pending))
        if "rules_line" in self.codec.columns:
            self.rules_line = row.rules_line
        self._reset_fast_state()

    def _expected(
        self, row: Row, cells: Sequence[str] | None = None
    ) -> tuple[dict[str, int], Score | None]:
        """The points the row should hold (re-scored) and its score, or a LedgerError."""
        line = row.line
        kind = row.kind
        if kind in (RowKind.RULES, RowKind.SESSION):
            raise LedgerError(line, f"a {kind} row belongs at the top of the file")
        if kind is RowKind.SEAT:
            if row.hand is not None or row.ref is not None or row.deltas:
                raise LedgerError(line, "a seat row has no hand number, ref or points")
            self._check_seats(row.seated, line)
            return {}, None
        if kind is RowKind.SET:
            if row.hand is not None or row.ref is not None or row.deltas:
                raise LedgerError(line, "a set row has no hand number, ref or points")
            self._rules_of(row)
            return {}, None
        if kind is RowKind.PENALTY:
            return self._expected_penalty(row)
        if kind in HAND_KINDS:
            return self._expected_hand(row)
        return self._expected_correction(row, cells)

    def _expected_penalty(self, row: Row) -> tuple[dict[str, int], Score | None]:
        line = row.line
        if row.hand != self.last_hand + 1:
            raise LedgerError(
                line, f"hand number {row.hand} is out of order: {self.last_hand + 1} comes next"
            )
        if row.ref is not None:
            raise LedgerError(line, "a penalty row has no ref")
        if set(row.deltas) != set(self.seated):
            raise LedgerError(line, "every player at the table needs a number of points")
        stray = [
            name
            for name in ("dealer", "picker", "winner", "points", "tricks", "crack", "game")
            if getattr(row, name) is not None
        ]
        if stray:
            raise LedgerError(line, f"{stray[0]}: a penalty row has no {stray[0]}")
        if row.offender is None or row.penalty is None:
            raise LedgerError(line, "a penalty row needs its offender and penalty")
        try:
            result = score_penalty(
                self.rules, Penalty(self.seated, row.offender, row.penalty, row.paid_to)
            )
        except ScorepadError as exc:
            raise LedgerError(line, f"this penalty cannot be: {exc}") from None
        seated = self.seated
        self._last_scored = Scored(
            row.inputs_only(RowKind.PENALTY), dict(result.deltas), _lean(result), seated
        )
        return dict(result.deltas), result

    def _expected_hand(self, row: Row) -> tuple[dict[str, int], Score | None]:
        line = row.line
        if row.hand != self.last_hand + 1:
            raise LedgerError(
                line, f"hand number {row.hand} is out of order: {self.last_hand + 1} comes next"
            )
        if row.ref is not None:
            raise LedgerError(line, "a hand row has no ref")
        if row.dealer is None:
            raise LedgerError(line, "dealer: missing")
        if set(row.deltas) != set(self.seated):
            raise LedgerError(line, "every player at the table needs a number of points")
        if row.kind is not RowKind.DOUBLER and kind_of(row) is not row.kind:
            raise LedgerError(
                line, f"kind: a {row.kind} row, but its inputs are those of a {kind_of(row)}"
            )
        if row.kind is RowKind.DOUBLER:
            if self.rules.all_pass != "doubler":
                raise LedgerError(
                    line, f"a doubler under rules with all_pass = {self.rules.all_pass}"
                )
            return dict.fromkeys(self.seated, 0), None
        if row.doubled != self.doubled_next():
            raise LedgerError(
                line,
                f"doubled: recorded {row.doubled}, but the doublers "
                f"before it give {self.doubled_next()}",
            )
        entry = self._last_scored = self._rescore(row, self.seated, remember=not self.fast)
        return dict(entry.deltas), entry.result

    def _expected_correction(
        self, row: Row, cells: Sequence[str] | None = None
    ) -> tuple[dict[str, int], Score | None]:
        line = row.line
        if row.hand is not None:
            raise LedgerError(line, f"a {row.kind} row has no hand number")
        if row.ref is None or not 1 <= row.ref <= self.last_hand:
            raise LedgerError(line, f"ref: {row.ref} is not a hand recorded above")
        if row.kind is RowKind.RESTORE:
            if row.ref not in self.voided:
                raise LedgerError(
                    line, f"ref: hand {row.ref} is not void: there is nothing to restore"
                )
        elif row.ref in self.voided:
            raise LedgerError(line, f"ref: hand {row.ref} is already void")
        version = self.kept.get(row.ref)
        if version is None:
            raise LedgerError(
                line,
                f"ref: hand {row.ref} cannot be checked (it was not read "
                f"as a hand this correction refers to)",
            )
        if row.kind is RowKind.VOID:
            return {p: -v for p, v in version.deltas.items()}, None
        if row.kind is RowKind.RESTORE:
            return dict(version.deltas), None
        if version.row.kind is RowKind.DOUBLER:
            raise LedgerError(line, f"hand {row.ref} is a doubler: there is nothing to amend")
        if version.row.kind is RowKind.PENALTY or kind_of(row) is RowKind.PENALTY:
            raise LedgerError(line, f"hand {row.ref}: a penalty is voided, not amended")
        if row.doubled != version.row.doubled:
            raise LedgerError(
                line,
                f"doubled: an amendment keeps the doubling of hand "
                f"{row.ref} ({version.row.doubled})",
            )
        seats = self._seats_of(version)
        known = self._remembered(cells, seats) if cells is not None else None
        entry = known if known is not None else self._rescore(row, seats)
        _check_throw_in(version, entry.result, row.ref, line)
        return (
            {p: entry.deltas.get(p, 0) - version.deltas.get(p, 0) for p in version.deltas},
            entry.result,
        )

    def _rules_of(self, row: Row) -> Rules:
        """The rules a `set` row puts in force (a LedgerError when they cannot be)."""
        try:
            rules = rules_of_set_row(row.note)
            seat(rules, self.seated, None)
        except ScorepadError as exc:
            raise LedgerError(row.line, f"this change of the rules cannot be: {exc}") from None
        if rules.family != self.rules.family:
            raise LedgerError(row.line, "a change of the rules keeps the family of the game")
        return rules

    def _seats_of(self, version: _Version) -> tuple[str, ...]:
        """The players who were seated for a recorded hand, in seat order."""
        return tuple(p for p in self.players if p in version.deltas)

    def _check_seats(self, seated: Sequence[str], line: int) -> None:
        if len(set(seated)) != len(seated) or not all(p in self.players for p in seated):
            raise LedgerError(line, f"seated: {_show(seated)} is not a list of players")
        try:
            seat(self.rules, seated, None)
        except ScorepadError as exc:
            raise LedgerError(line, f"seated: {exc}") from None

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
                if len(self._scores) >= _SCORE_CACHE:
                    self._scores.clear()
                self._scores[key] = found
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
            if len(self._scores_alike) >= _SCORE_CACHE:
                self._scores_alike.clear()
            self._scores_alike[alike] = found
        return found

    def _score_row(self, row: Row, seated: tuple[str, ...]) -> Scored | str:
        """The score of a row's hand, or the message saying why it has none."""
        try:
            hand = hand_of(row, seated)
            result = score(self.rules, hand)
        except ScorepadError as exc:
            return f"this hand cannot be scored: {exc}"
        if set(result.sitting_out) != set(row.out):
            return (
                f"out: recorded {_show(row.out)}, but the rules seat out "
                f"{_show(result.sitting_out)}"
            )
        inputs = row.inputs_only(kind_of(row))
        return Scored(inputs, {p: result.deltas.get(p, 0) for p in seated}, _lean(result), seated)

    # -- making new rows ------------------------------------------------------------------------

    def record(self, hand: Hand, note: str = "", time: str = "") -> tuple[Row, Score]:
        """Score a new hand at the next number and return its row (with state) and score."""
        self._check_race_open()
        self.check_night_open()
        hand = self.prepare(hand)
        result = score(self.rules, hand)
        row = row_for_hand(hand, result, self.seated)._replace(
            hand=self.last_hand + 1,
            note=check_note(note),
            time=time,
        )
        self._apply(row, result)
        return self._state(row), result

    def prepare(self, hand: Hand) -> Hand:
        """The hand as this session scores it: its names as the session spells them, the
        dealer whoever is next unless given, and the doublings pending."""
        hand = canonical(hand._replace(players=self.seated), self.seated)
        if hand.dealer is None:
            hand = hand._replace(dealer=self.next_dealer)
        if hand.doubled:
            raise HandError(
                "⟨doubled⟩: a session doubles the hands after a recorded doubler by "
                "itself; record the doubler with `scorepad hand ⟨doubler⟩`"
            )
        why = tricks_needed(self.rules, hand)
        if why:
            raise HandError(why)
        return hand._replace(doubled=self.doubled_next())

    def record_doubler(self, dealer: str | None = None, note: str = "", time: str = "") -> Row:
        """The row of a thrown-in hand under all_pass = doubler."""
        if self.rules.all_pass != "doubler":
            raise HandError(
                f"⟨doubler⟩: {self.rules.name} rules have all_pass = "
                f"{self.rules.all_pass}; a doubler needs all_pass = doubler"
            )
        self._check_race_open()
        self.check_night_open()
        if self.rules.doubler_stacking == "multiply" and self.doubled_next() >= MAX_DOUBLED:
            raise HandError(
                f"⟨doubler⟩: {self.doubled_next()} doublers are pending, and a hand is doubled "
                f"by {MAX_DOUBLED} at most (doubler_stacking = multiply): score a hand first"
            )
        dealer = find_player(dealer, self.seated, "⟨dealer⟩") if dealer else self.next_dealer
        row = Row(
            RowKind.DOUBLER,
            hand=self.last_hand + 1,
            dealer=dealer,
            deltas=dict.fromkeys(self.seated, 0),
            note=check_note(note),
            time=time,
        )
        self._apply(row)
        return self._state(row)

    def void_row(self, ref: int, reason: str = "", time: str = "") -> Row:
        """The row that voids hand `ref` (which must be remembered: a hand corrections name)."""
        self._check_ref(ref)
        version = self.kept[ref]
        row = Row(
            RowKind.VOID,
            ref=ref,
            deltas={p: -v for p, v in version.deltas.items()},
            note=check_note(reason),
            time=time,
        )
        self._apply(row)
        return self._state(row)

    def restore_row(self, ref: int, note: str = "", time: str = "") -> Row:
        """The row that makes voided hand `ref` count again (`undo` of its void)."""
        if ref not in self.voided:
            raise HandError(f"hand {ref} is not void: there is nothing to restore")
        version = self.kept[ref]
        row = Row(
            RowKind.RESTORE, ref=ref, deltas=dict(version.deltas), note=check_note(note), time=time
        )
        self._apply(row)
        return self._state(row)

    def unamend_row(self, ref: int, note: str = "", time: str = "") -> tuple[Row, Score]:
        """The row that puts hand `ref` back as it was before its last amendment."""
        version = self.kept[ref]
        if version.before is None:
            raise HandError(f"hand {ref} has no amendment to take back")
        before = version.before.row
        changes = before.hand_inputs()
        return self.amend_row(ref, changes, note or before.note, time)

    def amend_row(
        self, ref: int, changes: Mapping[str, Any], note: str = "", time: str = ""
    ) -> tuple[Row, Score]:
        """The row that replaces some inputs of hand `ref` and re-scores it."""
        self._check_ref(ref)
        version = self.kept[ref]
        if version.row.kind is RowKind.DOUBLER:
            raise HandError(
                f"hand {ref} is a doubler: there is nothing to amend (void it with "
                f"`scorepad void {ref}` and record the hand)"
            )
        if version.row.kind is RowKind.PENALTY:
            raise HandError(
                f"hand {ref} is a penalty: void it with `scorepad void {ref}` and record "
                f"the penalty again"
            )
        inputs = {**version.row.hand_inputs(), **changes}
        if inputs.get("picker") is not None and inputs.get("game") == "ramsch":
            inputs["game"] = None  # (a Ramsch amended into a game: a partner game unless given)
        seated = self._seats_of(version)
        hand = canonical(hand_of(Row(RowKind.AMEND, **inputs), seated), seated)
        why = tricks_needed(self.rules, hand._replace(dealer=hand.dealer or version.row.dealer))
        if why:
            raise HandError(why)
        result = score(self.rules, hand)
        try:
            _check_throw_in(version, result, ref, 0)
        except LedgerError as exc:
            raise HandError(exc.message) from None
        new = row_for_hand(hand, result, seated)
        if new.hand_inputs() == version.row.hand_inputs():
            raise HandError(f"hand {ref} already has these inputs: there is nothing to amend")
        row = new._replace(
            kind=RowKind.AMEND,
            ref=ref,
            deltas={p: new.deltas.get(p, 0) - version.deltas.get(p, 0) for p in seated},
            note=check_note(note) if note else version.row.note,  # the note carries over
            time=time,
        )
        self._apply(row, result)
        return self._state(row), result

    def penalty_row(self, penalty: Penalty, note: str = "", time: str = "") -> tuple[Row, Score]:
        """The row of a penalty: it takes the next number, moves no deal and no doubling."""
        self._check_race_open()
        result = score_penalty(self.rules, penalty._replace(players=self.seated))
        offender = find_player(penalty.offender, self.seated, "penalty")
        to = find_player(penalty.to, self.seated, "⟨paid_to⟩") if penalty.to else None
        row = Row(
            RowKind.PENALTY,
            hand=self.last_hand + 1,
            deltas=dict(result.deltas),
            offender=offender,
            penalty=penalty.points,
            paid_to=to,
            note=check_note(note),
            time=time,
        )
        self._apply(row, result)
        return self._state(row), result

    def seat_row(self, seated: Sequence[str], note: str, time: str = "") -> Row:
        """The row that changes the seats in force (someone joined or left)."""
        try:
            self._check_seats(seated, 0)
        except LedgerError as exc:
            raise HandError(exc.message.removeprefix("seated: ")) from None
        row = Row(RowKind.SEAT, seated=tuple(seated), note=note, time=time)
        self._apply(row)
        return self._state(row)

    def set_row(
        self, rules: Rules, changes: Sequence[str], line: int, note: str = "", time: str = ""
    ) -> Row:
        """The row that puts `rules` in force from the next hand on (`scorepad set`, and its
        undo); `line` is the line the row will stand on in the file."""
        if rules.family != self.rules.family:
            raise HandError("a change of the rules keeps the family of the game")
        try:
            seat(rules, self.seated, self.next_dealer)
        except ScorepadError as exc:
            raise HandError(f"with these rules the table cannot be dealt: {exc}") from None
        self._check_race_open()
        row = Row(
            RowKind.SET, line=line, note=set_row_note(rules, changes, check_note(note)), time=time
        )
        self._apply(row)
        return self._state(row)

    def keep(self, ref: int) -> None:
        """Remember hand `ref` when the pass reaches it (a correction is about to be made)."""
        self.refs[ref] = self.refs.get(ref, 0) + 1

    def _check_race_open(self) -> None:
        if self.race_winners:
            raise HandError(
                f"the race is over: {' and '.join(self.race_winners)} reached "
                f"{self.rules.target}; start a new session for another night"
            )

    def check_night_open(self) -> None:
        """A HandError when the night's last hand (⟨last⟩) was played."""
        if self.night_over:
            raise HandError(
                f"hand {self.night_over} was marked the night's last (⟨last⟩); to play on, take "
                f"the mark off: scorepad amend {self.night_over} ⟨no_last⟩"
            )

    def _check_ref(self, ref: int) -> None:
        if not 1 <= ref <= self.last_hand:
            raise HandError(
                f"there is no hand {ref}: hands run from 1 to {self.last_hand}"
                if self.last_hand
                else f"there is no hand {ref}: no hand recorded"
            )
        if ref in self.voided:
            raise HandError(f"hand {ref} is already void")


# How each kind of row changes the night (`Ledger._apply`): one method a kind.
_APPLY: dict[RowKind, Callable[[Ledger, Row, Score | None, Mapping[str, int]], None]] = {
    RowKind.PENALTY: Ledger._apply_penalty,
    **dict.fromkeys(HAND_KINDS - {RowKind.PENALTY}, Ledger._apply_hand),
    RowKind.VOID: Ledger._apply_void,
    RowKind.SET: Ledger._apply_set,
    RowKind.SEAT: Ledger._apply_seat,
    RowKind.AMEND: Ledger._apply_amend,
    RowKind.RESTORE: Ledger._apply_restore,
}


def set_row_note(rules: Rules, changes: Sequence[str], note: str) -> str:
    """What a `set` row's note holds: the whole table in force from then on (so the file alone
    re-scores every hand), the changes as typed, and the user's note."""
    return json.dumps(
        {
            "changes": list(changes),
            "note": note,
            "rules": rules.to_dict(),
            "source": rules.source,
            "overrides": list(rules.overrides),
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def rules_of_set_row(note: str) -> Rules:
    """The rules a `set` row's note holds (a ScorepadError when it holds none)."""
    from .rules import rules_from_dict

    try:
        data = json.loads(note)
    except (ValueError, RecursionError):
        raise ScorepadError("its note is not a JSON change of the rules") from None
    if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
        raise ScorepadError("its note is not a JSON change of the rules")
    for key in ("changes", "note", "source", "overrides"):  # (all shown: log, status)
        value = data.get(key)
        for text in value if isinstance(value, list) else [value]:
            bad = unprintable(text) if isinstance(text, str) else None
            if bad is not None:
                raise ScorepadError(unprintable_problem(key, str(text), bad))
    rules = rules_from_dict(data["rules"], "set")
    source, overrides = data.get("source"), data.get("overrides")
    if isinstance(source, str) and isinstance(overrides, list):  # for the summary only
        shown = tuple(str(o)[:80] for o in overrides[:50])
        rules = rules._replace(source=source[:200], overrides=shown)
    return rules


def set_row_text(note: str) -> tuple[str, str]:
    """A `set` row's changes and note, for people (the log)."""
    try:
        data = json.loads(note)
        return ", ".join(data.get("changes", [])), str(data.get("note", ""))
    except (ValueError, RecursionError, AttributeError, TypeError):
        return "", ""


def _throws_in(version: _Version) -> bool:
    """Whether a recorded hand put a doubling in the queue (a doubler, or a 60-60 hand under
    sixty_sixty)."""
    if version.row.kind is RowKind.DOUBLER:
        return True
    return version.result is not None and version.result.doubles_next


def _check_throw_in(version: _Version, result: Score | None, ref: int | None, line: int) -> None:
    """An amendment may not change whether a hand doubles the next (the hands after it were
    dealt with that doubling, or without it)."""
    before = _throws_in(version)
    after = result is not None and result.doubles_next
    if before != after:
        raise LedgerError(
            line,
            f"hand {ref} {'doubled' if before else 'did not double'} the next hand (a 60-60 "
            f"under sixty_sixty); an amendment cannot change that: void it and record it again",
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


def _lean(result: Score | None) -> Score | None:
    """A score without its explanation and roles (what the reports keep of it)."""
    return None if result is None else result._replace(explanation=(), roles={})


def _frozen(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, Mapping) else value


def _show(value: Any) -> str:
    if isinstance(value, Mapping):
        return (
            ", ".join(f"{k} {v:+d}" if isinstance(v, int) else f"{k} {v}" for k, v in value.items())
            or "nothing"
        )
    if isinstance(value, (tuple, list, set)):
        return ", ".join(sorted(value)) or "nobody"
    return str(value)


def _differs(what: str, recorded: Mapping[str, int], expected: Mapping[str, int]) -> str:
    wrong = [p for p in {**expected, **recorded} if recorded.get(p) != expected.get(p)]
    shown = "; ".join(
        f"{p} recorded {recorded.get(p, 'nothing')}, the rules give {expected.get(p, 'nothing')}"
        for p in wrong
    )
    return f"{what} differ from the re-scoring: {shown}"
