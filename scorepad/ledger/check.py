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
from ..hands import INPUTS as HAND_INPUTS
from ..hands import PENALTY, Type, given
from ..i18n import gettext as _
from ..names import TOTAL_POINTS
from ..pot import ante_score, played_for_pot, plays_for_pot, put_in
from ..rules import Rules
from ..scoring import Penalty, Score, points_class, score, score_penalty
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
from ..text import is_digest  # (`replay.digest`)
from .bock import MAX_ROUNDS
from .bock import parse as bock_parse
from .bock import text as bock_text
from .entries import Counts, HandView, Scored, check_throw_in, lean, shown
from .night import Night
from .records import hand_of, kind_of

# The kinds of hand row the memo holds (a hand dealt and scored: not a doubler, a penalty or a
# hand passed into the pot, which are checked as they are)
_MEMO_KINDS = frozenset((RowKind.PICKER, RowKind.LEASTER, RowKind.SCHWANZER, RowKind.RAMSCH))
_MEMO_KIND_TEXTS = frozenset(kind.value for kind in _MEMO_KINDS)

_STEPS = ("undoes", "redoes")  # the cells of an undo or redo row
_STATE = ("next_dealer", "seated", "pending", "totals", "rules_line", "pot", "bock_queue")
# the state cells, in the order `Checker._state_cells_hold` compares them
_STATE_CELLS = ("next_dealer", "seated", "pending", "totals", "rules_line", "bock_queue", "pot")
_SEPARATOR = "\x1f"  # (joins the cells of a key in the memo: `Checker._key`)
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


class Hands:
    """The hands scored under one set of rules, columns and seats: each by its row's input
    cells as written (`exact`), and each picker hand also by those cells but its card points
    and by the class of its card points (`alike`): hands that differ only in card points of
    one class score alike (`scoring.points_class`), so such a hand is the one scored before
    with its own card points, not scored again."""

    __slots__ = ("_classes", "alike", "exact", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.exact: dict[str, Scored] = {}
        self.alike: dict[tuple[object, ...], Scored] = {}
        self._classes: dict[str, tuple[object, int]] | None = None

    def points_class(self, cell: str) -> tuple[object, int] | None:
        """The class of the card points a points cell holds as scorepad writes them (0 to
        120, no sign, no zeros before), and those points; None for any other cell."""
        if self._classes is None:  # (worked out when first needed: not to record a hand)
            classes: dict[tuple[int | bool, ...], int] = {}
            self._classes = {}
            for points in range(TOTAL_POINTS + 1):
                found = classes.setdefault(points_class(self.rules, points), len(classes))
                self._classes[str(points)] = (found, points)
        return self._classes.get(cell)


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


class Checker(Night):
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
        self._seated_cell = self._totals_form = self._rules_text = ""
        self._changed(rules=True)

    def _changed(self, rules: bool) -> None:
        """The seats or the rules in force changed (or the state was put in place): the memo's
        hands for them, and the state cells as rows now hold them."""
        self._hands = self._memo.table(self.rules, self.codec, self.seated)
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
                self._deal(number, entry.row, entry.result, entry.deltas)
                self._check_race()
                problems = [] if self._state_cells_hold(cells) else self._state_of(cells, line)
                self._emit(number, entry, cells[self._at_note], cells[self._at_time])
                return problems
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
        points = hands.points_class(cells[self._at_points])
        if points is None:
            return None
        alike = hands.alike.get((points[0], *self._others(cells)))
        if alike is None:
            return None
        found = hands.exact[key] = alike.with_points(points[1])
        return found

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

    def _feed_decoded(self, cells: Sequence[str], line: int) -> list[Problem]:
        """Decode a row, check it against the state so far and apply it (remembering the
        hand it scores, for the rows to come)."""
        try:
            row = self.codec.decode(cells, line)
        except LedgerError as exc:
            self._salvage(cells, line)
            return [Problem(exc.line, exc.message)]
        problems = self.feed_row(row)
        if row.kind in HAND_KINDS and row.hand == self.last_hand:
            entry = self._last_scored
            if entry is None or row.kind is RowKind.DOUBLER:
                seated = tuple(p for p in self.players if p in row.deltas)
                entry = Scored(row.inputs_only(row.kind), dict.fromkeys(seated, 0), None, seated)
            elif not problems:
                entry = self._remember(cells, row, entry)
            self._emit(row.hand, entry, row.note, row.time)
        return problems

    def _remember(self, cells: Sequence[str], row: Row, entry: Scored) -> Scored:
        """Remember a hand row's checked score by its input cells, if a row of the same cells
        scores the same whatever the night's state (not a hand doubled, a Bock hand, one that
        doubles the next or brings a Bock round, or one played for the pot)."""
        result = entry.result
        if (
            row.kind not in _MEMO_KINDS
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
        points = hands.points_class(cells[self._at_points])
        if row.kind is RowKind.PICKER and points is not None:
            hands.alike.setdefault((points[0], *self._others(cells)), remembered)
        return remembered

    def _emit(self, number: int, entry: Scored, note: str, time: str = "") -> None:
        """Count a hand just applied in its final version (a hand that rows below correct is
        counted as the last of them leaves it: `Night._forget`), and tell `on_hand` about it
        (with `time`, its own row's)."""
        if self.on_hand is None:  # (counting only, or nobody to tell: verify, settle)
            self._seat_notes.clear()
            counts = self.counts
            if counts is not None and entry.result is not None and number not in self.corrections:
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
                amended = True
                entry, amendment_note = final
                note = amendment_note or note
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
        try:
            row = codec.decode(cells, 0, state=False)
        except LedgerError:
            return None
        with suppress(LedgerError):
            entry = self._for_pot(self._rescore(row.inputs_only(RowKind.AMEND), seated), pot)
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

    def feed_row(self, row: Row) -> list[Problem]:
        """Check a decoded row against the state so far, then apply it."""
        try:
            deltas, result = self._expected(row)
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

    def _expected(self, row: Row) -> tuple[dict[str, int], Score | None]:
        """The points the row should hold (re-scored) and its score, or a LedgerError."""
        line = row.line
        kind = row.kind
        if kind in (RowKind.RULES, RowKind.SESSION):
            raise LedgerError(
                line, _("a {kind} row belongs at the top of the file").format(kind=kind)
            )
        if row.undoes is not None or row.redoes is not None:
            _check_step(row)
        if row.digest and (kind not in _MEMO_KINDS or not is_digest(row.digest)):
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
        return self._expected_correction(row)

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
        return Scored(row, deltas, played, seated)

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
        entry = self._rescore(row, self.seated)
        entry = self._last_scored = self._for_pot(entry, self.pot)
        return dict(entry.deltas), entry.result

    def _expected_correction(self, row: Row) -> tuple[dict[str, int], Score | None]:
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
        entry = self._rescore(row, seats)
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

    def _rescore(self, row: Row, seated: tuple[str, ...]) -> Scored:
        """Score the hand a row records (a LedgerError that says why it cannot be)."""
        found = self._score_row(row, seated)
        if isinstance(found, str):
            raise LedgerError(row.line, found)
        return found

    def _score_row(self, row: Row, seated: tuple[str, ...]) -> Scored | str:
        """The score of a row's hand, or the message saying why it has none."""
        try:
            result = score(self.rules, hand_of(row, seated))
        except ScorepadError as exc:
            return f"this hand cannot be scored: {exc}"
        if set(result.sitting_out) != set(row.out):
            return _("out: recorded {recorded}, but the rules seat out {seated}").format(
                recorded=shown(row.out), seated=shown(result.sitting_out)
            )
        inputs = row.inputs_only(kind_of(row))
        return Scored(inputs, {p: result.deltas.get(p, 0) for p in seated}, lean(result), seated)


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


def _differs(what: str, recorded: Mapping[str, int], expected: Mapping[str, int]) -> str:
    wrong = [p for p in {**expected, **recorded} if recorded.get(p) != expected.get(p)]
    shown = "; ".join(
        f"{p} recorded {recorded.get(p, 'nothing')}, the rules give {expected.get(p, 'nothing')}"
        for p in wrong
    )
    return f"{what} differ from the re-scoring: {shown}"
