"""The check: every row of a file, re-scored and compared with what the rows above give.

`Checker.feed(cells, line)` checks one row (its raw cells) against the state so far, applies it
(`Night._apply`) and returns its problems; `feed_row(row)` does the same for a decoded row.

A hand's score follows from its inputs, the seats and the rules in force, and a night repeats
the same few hands: the pass remembers each hand it scores in a plain dict (`Memo`), keyed by
the input cells of its row as written. A hand row whose input cells were met before is checked
against that score without being decoded: its points and its state cells are compared, as
text, with what they must hold. A row that does not hold it is decoded whole, to say what is
wrong. Every other row (a correction, a change of the seats or rules, a hand whose score the
night's state changes: doubled, a Bock hand, one played for the pot) is decoded and checked as
it is (`feed_row`).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from typing import Any

from ..errors import ScorepadError
from ..i18n import gettext as _
from ..names import TOTAL_POINTS
from ..rules import Rules
from ..scoring import points_class
from ..store.format import (
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
from .bock import parse as bock_parse
from .bock import text as bock_text
from .entries import Counts, HandView, Scored, shown
from .records import kind_of, rules_of_set_row
from .rows import MEMO_KINDS, NOT_RESCORED, Expected

_MEMO_KIND_TEXTS = frozenset(kind.value for kind in MEMO_KINDS)

_STEPS = ("undoes", "redoes")  # the cells of an undo or redo row
_STATE = ("next_dealer", "seated", "pending", "totals", "rules_line", "pot", "bock_queue")
# the state cells, in the order `Checker._state_cells_hold` compares them
_STATE_CELLS = ("next_dealer", "seated", "pending", "totals", "rules_line", "bock_queue", "pot")
_SEPARATOR = "\x1f"  # (joins the cells of a key in the memo: `Checker._key`)
_KIND_TEXTS = frozenset(kind.value for kind in RowKind)
# card points and counts of tricks as scorepad writes them
_CARD_POINTS = {str(points): points for points in range(TOTAL_POINTS + 1)}
_COUNTS = frozenset(str(count) for count in range(100))
_HAND_KIND_TEXTS = frozenset(kind.value for kind in HAND_KINDS)


class Hands:
    """The hands scored under one set of rules, columns and seats: each by its row's input
    cells as written (`exact`), and each picker hand also by those cells but its card points
    and by the class of its card points (`alike`): hands that differ only in card points of
    one class score alike (`scoring.points_class`), so such a hand is the one scored before
    with its own card points, not scored again."""

    __slots__ = ("_classes", "_named", "alike", "exact", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.exact: dict[str, Scored] = {}
        self.alike: dict[tuple[object, ...], Scored] = {}
        # the class of each (points cell, tricks cell) met, and a number for each class
        self._classes: dict[tuple[str, str], tuple[int, int] | None] = {}
        self._named: dict[tuple[int | bool, ...], int] = {}

    def points_class(self, points: str, tricks: str) -> tuple[int, int] | None:
        """The class of the card points a picker row's points cell holds when its tricks cell
        holds `tricks` (each as scorepad writes it: 0 to 120, and a count or nothing; no sign,
        no zeros before), as a number, and those points; None for any other cells."""
        key = (points, tricks)
        if key not in self._classes:
            found = None
            if _CARD_POINTS.get(points) is not None and (not tricks or tricks in _COUNTS):
                value = _CARD_POINTS[points]
                named = points_class(self.rules, value, int(tricks) if tricks else None)
                found = (self._named.setdefault(named, len(self._named)), value)
            self._classes[key] = found
        return self._classes[key]


class Memo:
    """Scored hands by what decides their score: the rules, the file's columns and the seats in
    force (a `Hands` each), then a hand row's input cells.

    One serves a night's pass, or the passes over many nights (a season's, a league's, a
    tournament's): their nights are played under the same rules by the same people, and repeat
    one another's hands."""

    def __init__(self) -> None:
        self._tables: list[tuple[Rules, tuple[str, ...], tuple[str, ...], Hands]] = []

    def table(self, rules: Rules, codec: Codec, seated: tuple[str, ...]) -> Hands:
        """The hands scored under these rules, columns and seats (none the first time)."""
        for kept_rules, order, seats, found in self._tables:
            # (rules compared by value: each night's are read from its own file)
            if order == codec.order and seats == seated and kept_rules == rules:
                return found
        made = Hands(rules)
        self._tables.append((rules, codec.order, seated, made))
        return made


class Checker(Expected):
    """The night, checked row by row as a file is read (see the module's text).

    `on_hand`, if given, is called with every hand's final version (`HandView`) as the pass
    reaches it; `counts`, if given, counts the hands that are not void by their final version.
    `cells_at` reads the row at a byte of the file (see `Fate`: a hand's final version is read
    ahead when the pass reaches it). `memo`, if given, is where scored hands are remembered (to
    share them with the passes over other nights).
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
        counts: Counts | None = None,
        cells_at: Callable[[int], Sequence[str] | None] | None = None,
        memo: Memo | None = None,
    ):
        super().__init__(rules, players, first_dealer, seated, codec, corrections, on_hand, counts)
        self._cells_at = cells_at  # the cells of the row that begins at a byte (see `Fate`)
        self._memo = memo if memo is not None else Memo()
        self._last_scored: Scored | None = None  # the hand row `feed_row` scored last
        self._bock_rows: dict[int, int] = {}  # the `bock` rows read: line to rounds
        codec = self.codec
        at, columns = codec.index, codec.columns
        self._width = codec.width
        self._at_kind, self._at_hand, self._at_points = at["kind"], at["hand"], at["points"]
        self._at_tricks = at["tricks"]
        self._at_note, self._at_time, self._at_ref = at["note"], at["time"], at["ref"]
        self._at_digest = at.get("digest", -1)  # (format 7 on)
        # a hand row's key in the memo: its kind and input cells (and those of an undo or redo,
        # which no hand row holds), the card points last; its key among hands alike, the class
        # of its card points and the rest
        others = [at["kind"], *(at[n] for n in (*INPUTS, *_STEPS) if n in columns)]
        others.remove(at["points"])
        self._cells_of: Callable[[Sequence[str]], tuple[str, ...]] = operator.itemgetter(
            *others, at["points"]
        )
        self._others: Callable[[Sequence[str]], tuple[str, ...]] = operator.itemgetter(*others)
        self._at_state = tuple(at.get(n, -1) for n in _STATE_CELLS)
        # (a table has two players at least: this gives a tuple)
        self._player_cells: Callable[[Sequence[str]], tuple[str, ...]] = operator.itemgetter(
            *codec.player_at
        )
        self._hands = Hands(self.rules)
        self._race = False  # (the rules settle a race: `_changed`)
        self._seated_cell = self._totals_form = self._rules_text = ""
        self._changed(rules=True)

    def _changed(self, rules: bool) -> None:
        """The seats or the rules in force changed (or the state was put in place): the memo's
        hands for them, and the state cells as rows now hold them."""
        self._hands = self._memo.table(self.rules, self.codec, self.seated)
        self._race = self.rules.settlement == "race"
        self._state_forms()

    def _state_forms(self) -> None:
        """How the state cells that take some writing (the seats, the totals, the rules in
        force) hold the state now: the totals as a %-format of their values."""
        dump = json.dumps
        self._seated_cell = dump(list(self.order), ensure_ascii=False, separators=(",", ":"))
        self._totals_form = (
            "{"
            + ",".join(dump(p, ensure_ascii=False).replace("%", "%%") + ":%d" for p in self.totals)
            + "}"
        )
        self._rules_text = str(self.rules_line) if self.rules_line else ""

    # -- the pass -----------------------------------------------------------------------------

    def feed(self, cells: Sequence[str], line: int) -> list[Problem]:
        """Check a row's raw cells against the state so far, apply it; returns its problems."""
        self._last_scored = None
        if (
            len(cells) == self._width
            and cells[self._at_kind] in _MEMO_KIND_TEXTS
            and not (self.pending or self.bock or self.pot)
        ):
            number = self.last_hand + 1
            entry = self._known(cells)
            if (
                entry is not None
                and cells[self._at_hand] == str(number)
                and number not in self.refs  # (a hand kept for a later correction: decoded)
                and self._plain_cells(cells)
                and self._player_cells(cells) == entry.cells
            ):
                self._played(number, entry.deltas, entry.next_dealer)
                if self._race:
                    self._check_race()
                problems = [] if self._state_cells_hold(cells) else self._state_of(cells, line)
                self._emit(number, entry, cells[self._at_note], cells[self._at_time])
                return problems
            return self._feed_decoded(cells, line, entry)
        return self._feed_decoded(cells, line)

    def _key(self, cells: Sequence[str]) -> str:
        """A hand row's key in the memo: its input cells, joined by a character no cell of a
        hand that scores holds (a control character: the pass reports a row with one, and
        remembers none), so that only the same cells make the same key."""
        return _SEPARATOR.join(self._cells_of(cells))

    def _known(self, cells: Sequence[str]) -> Scored | None:
        """The hand a hand row's input cells record, if one of them was scored before (or, for a
        picker hand, one alike but for card points of the same class: it scores the same)."""
        hands = self._hands
        key = self._key(cells)
        found = hands.exact.get(key)
        if found is not None or cells[self._at_kind] != RowKind.PICKER:
            return found
        points = hands.points_class(cells[self._at_points], cells[self._at_tricks])
        if points is None:
            return None
        alike = hands.alike.get((points[0], *self._others(cells)))
        if alike is None:
            return None
        found = hands.exact[key] = alike.with_points(points[1])
        return found

    def _known_amendment(self, cells: Sequence[str], row: Row) -> Scored | None:
        """The hand an amendment's cells record, if the memo holds it (`_known`: its input
        cells as a hand row of its kind holds them), as scored under the rules and seats in
        force. (Not remembered when it is not: the amendment's player cells are the change.)"""
        kind = kind_of(row)
        if kind not in MEMO_KINDS:
            return None
        hand = list(cells)
        hand[self._at_kind] = kind.value
        return self._known(hand)

    def _plain_cells(self, cells: Sequence[str]) -> bool:
        """Whether a hand row's cells but its inputs and state hold what a hand row that needs
        no more checking holds: no ref, no digest, and a note and time as a row may hold them
        (printable, no formula: decoding the row says what is wrong with any other)."""
        note, when = cells[self._at_note], cells[self._at_time]
        return (
            not cells[self._at_ref]
            and (self._at_digest < 0 or not cells[self._at_digest])
            and (not note or (note[0] not in FORMULA_STARTS and note.isprintable()))
            and (not when or (when[0] not in FORMULA_STARTS and when.isprintable()))
        )

    def _feed_decoded(
        self, cells: Sequence[str], line: int, known: Scored | None = None
    ) -> list[Problem]:
        """Decode a row, check it against the state so far and apply it (remembering the
        hand it scores, for the rows to come). `known`: the hand its input cells record, as
        the memo holds it (a hand kept for a later correction is decoded whole all the
        same)."""
        try:
            row = self.codec.decode(cells, line)
        except LedgerError as exc:
            self._salvage(cells, line)
            return [Problem(exc.line, exc.message)]
        if row.kind is RowKind.AMEND:
            known = self._known_amendment(cells, row)
        problems = self.feed_row(row, known, cells)
        if row.kind in HAND_KINDS and row.hand == self.last_hand:
            entry = self._last_scored
            if entry is None or row.kind is RowKind.DOUBLER:
                seated = tuple(p for p in self.players if p in row.deltas)
                entry = Scored(row.inputs_only(row.kind), dict.fromkeys(seated, 0), None, seated)
            elif not problems and entry is not known:  # (the memo's own: held already)
                entry = self._remember(cells, row, entry)
            self._emit(row.hand, entry, row.note, row.time)
        return problems

    def _remember(self, cells: Sequence[str], row: Row, entry: Scored) -> Scored:
        """Remember a hand row's checked score by its input cells, if a row of the same cells
        scores the same whatever the night's state, and does nothing to the night but what
        every hand does (`Night._played`): not a hand doubled, a Bock hand, one that doubles
        the next or brings a Bock round, or one played for the pot."""
        result = entry.result
        if (
            row.kind not in MEMO_KINDS
            or row.doubled
            or row.bock
            or result is None
            or result.doubles_next
            or result.bock_next
            or result.pot
        ):
            return entry
        hands = self._hands
        remembered = Scored(
            entry.row,
            entry.deltas,
            entry.result,
            entry.seated,
            self._player_cells(cells),
            self.next_dealer,
        )
        hands.exact[self._key(cells)] = remembered
        points = hands.points_class(cells[self._at_points], cells[self._at_tricks])
        if row.kind is RowKind.PICKER and points is not None:
            hands.alike.setdefault((points[0], *self._others(cells)), remembered)
        return remembered

    def _emit(self, number: int, entry: Scored, note: str, time: str = "") -> None:
        """Count a hand just applied in its final version (a hand that rows below correct is
        counted as the last of them leaves it: `Night._forget`), and tell `on_hand` about it
        (with `time`, its own row's)."""
        if self.on_hand is None:  # (counting only, or nobody to tell: verify, settle)
            if self._seat_notes:
                self._seat_notes.clear()
            counts = self.counts
            if counts is not None and entry.result is not None and number not in self.corrections:
                counts[entry] += 1
            return
        void = amended = False
        fate = self.corrections.get(number)
        cells_at = self._cells_at
        if fate is not None and cells_at is not None:
            at = self.codec.index
            amended_at, voided_at = fate.amended_at, fate.voided_at
            version = self.kept.get(number)
            pot = version.pot if version is not None else 0  # (what the hand played for)
            # (a `set --from` row below scores it again: its final version is under those rules)
            rules = self._rules_at(cells_at(fate.rescored_at)) if fate.rescored_at >= 0 else None
            under = rules or self.rules
            final = (
                self._amended(cells_at(amended_at), entry, pot, under) if amended_at >= 0 else None
            )
            if final is not None:
                amended = True
                entry, amendment_note = final
                note = amendment_note or note
            elif rules is not None and entry.result is not None:
                entry = self._scored_under(rules, entry, pot)
            cells = cells_at(voided_at) if voided_at >= 0 else None
            if cells and len(cells) == self.codec.width and cells[at["kind"]] == RowKind.VOID:
                void = True
                if cells[at["note"]]:
                    void_note = f"void: {cells[at['note']]}"
                    note = f"{note}; {void_note}" if note else void_note
        if self._seat_notes:  # (the first hand after a seat change comes this way)
            seats = "; ".join(self._seat_notes)
            note = f"{seats}; {note}" if note else seats
            self._seat_notes.clear()
        if self.counts is not None and entry.result is not None and fate is None:
            self.counts.add(entry)
        self.on_hand(HandView(number, entry, void, amended, note, time))

    def _rules_at(self, cells: Sequence[str] | None) -> Rules | None:
        """The rules of the `set --from` row in `cells` (None: not one this can read; the pass
        reports that row when it reaches it)."""
        codec = self.codec
        if cells is None or len(cells) != codec.width or cells[codec.index["kind"]] != "set":
            return None
        try:
            return rules_of_set_row(cells[codec.index["note"]])
        except ScorepadError:
            return None

    def _scored_under(self, rules: Rules, entry: Scored, pot: int) -> Scored:
        """Hand `entry` scored again under `rules` (itself when it cannot be: the pass reports
        the row that says it is, when it reaches it)."""
        if entry.row.kind in NOT_RESCORED:
            return entry
        before, self.rules = self.rules, rules
        try:
            found = self._score_row(entry.row, entry.seated)
            return entry if isinstance(found, str) else self._for_pot(found, pot)
        finally:
            self.rules = before

    def _amended(
        self, cells: Sequence[str] | None, entry: Scored, pot: int = 0, rules: Rules | None = None
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
        try:
            row = codec.decode(cells, 0, state=False)
        except LedgerError:
            return None
        if (rules is None or rules is self.rules) and seated == self.seated:
            known = self._known_amendment(cells, row)
            if known is not None:
                return self._for_pot(known, pot), note
        amended = row.inputs_only(RowKind.AMEND)
        if rules is not None:  # (under the rules of a `set --from` row below it)
            return self._scored_under(rules, Scored(amended, entry.deltas, None, seated), pot), note
        with suppress(LedgerError):
            entry = self._for_pot(self._rescore(amended, seated), pot)
        return entry, note

    def _state_cells_hold(self, cells: Sequence[str]) -> bool:
        """Whether a row's state cells hold, as the file writes them, the state of the night."""
        dealer, seated, pending, totals, rules, bock, pot = self._at_state
        return (
            cells[dealer] == self.next_dealer
            and cells[seated] == self._seated_cell
            and cells[pending] == str(len(self.pending))
            and cells[totals] == self._totals_form % tuple(self.totals.values())
            and (rules < 0 or cells[rules] == self._rules_text)  # (format 3 on)
            and (bock < 0 or cells[bock] == bock_text(self.bock))  # (format 8 on)
            and (pot < 0 or cells[pot] == (str(self.pot) if self.pot else ""))
        )

    def _state_of(self, cells: Sequence[str], line: int) -> list[Problem]:
        """The problems of a hand row whose state cells do not hold the state of the night (it
        is decoded whole to say what is wrong)."""
        try:
            row = self.codec.decode(cells, line)
        except LedgerError as exc:
            return [Problem(exc.line, exc.message)]
        problems = self._state_problems(row)
        if problems:
            self._resync(row)
        return problems

    # -- checking decoded rows --------------------------------------------------------------

    def feed_row(
        self, row: Row, known: Scored | None = None, cells: Sequence[str] | None = None
    ) -> list[Problem]:
        """Check a decoded row against the state so far, then apply it (`known`: the score of
        the hand it records, remembered; `cells`: the row's cells as read, whose state cells
        are compared as text first, as a hand row's are in `feed`)."""
        try:
            deltas, result = self._expected(row, known)
        except LedgerError as exc:
            self._resync(row)
            return [Problem(exc.line, exc.message)]
        problems = self._points_problems(row, deltas)
        self._apply(row, result, deltas)
        if cells is None or not self._state_cells_hold(cells):
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
        self._state_forms()

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


def _differs(what: str, recorded: Mapping[str, int], expected: Mapping[str, int]) -> str:
    wrong = [p for p in {**expected, **recorded} if recorded.get(p) != expected.get(p)]
    shown = "; ".join(
        f"{p} recorded {recorded.get(p, 'nothing')}, the rules give {expected.get(p, 'nothing')}"
        for p in wrong
    )
    return f"{what} differ from the re-scoring: {shown}"
