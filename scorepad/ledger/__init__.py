"""The ledger of a night: one pass over its rows that applies and checks every one.

Pure: no I/O (`session` owns the file, `store.format` its format). `Ledger` is the only engine:
it applies hands, corrections and seat changes in file order, re-scores every hand from its
recorded inputs and the rules, and checks every row's points and recorded state (next dealer,
seats, doublers pending, running totals, the pot). `verify` reports what it finds; every report
refuses a file in which it finds anything. It also makes the rows of new hands and corrections,
so what is written is what is checked.

The parts: `night` (the state, and how each kind of row changes it), `check` (the pass over a
file's rows), `making` (new rows), `records` (rows as hands and rules), `entries` (what is kept
of a hand and what the reports see).
"""

from collections.abc import Sequence

from ..errors import HandError
from ..i18n import gettext as _
from ..rules import Rules
from ..store.format import LedgerError, Row, RowKind, check_note
from ..store.scan import Fate, set_row_hands
from .check import Checker, Memo
from .entries import Counts, HandView, Scored
from .making import NewRows
from .records import (
    canonical,
    hand_of,
    kind_of,
    row_for_hand,
    rules_of_set_row,
    set_row_note,
    set_row_text,
)
from .saved import STATE, WIRING, restore, saved

__all__ = [
    "STATE",
    "WIRING",
    "Counts",
    "Fate",
    "HandView",
    "Ledger",
    "Memo",
    "Scored",
    "canonical",
    "hand_of",
    "kind_of",
    "restore",
    "row_for_hand",
    "rules_of_set_row",
    "saved",
    "set_row_hands",
    "set_row_note",
    "set_row_text",
]


class Ledger(Checker, NewRows):
    """The night, checked as it is read (`Checker`), and the rows of what comes next
    (`NewRows`), over one state (`Night`).

    `feed(cells, line)` checks one row (its raw cells) against the state so far, applies it and
    returns its problems; `feed_row(row)` does the same for a decoded row. `record`,
    `record_doubler`, `record_pot`, `void_row`, `amend_row` and `seat_row` make new rows (with
    their state).
    """

    def set_from_row(
        self,
        rules: Rules,
        changes: Sequence[str],
        start: int,
        line: int,
        note: str = "",
        time: str = "",
        step: bool = False,
    ) -> Row:
        """The row that puts `rules` in force from hand `start` on (`scorepad set --from`, and
        its undo and redo): every hand from it scored again, the change in points its own.
        Hands `start` to the last must be kept (`keep`); a HandError, naming the hand, when one
        cannot be scored so. A change reaches back no further than the rules in force apply
        (their hands were scored under them; an undo or redo, `step`, goes back to its own)."""
        if not 1 <= start <= self.last_hand:
            raise HandError(
                _("--from {start}: hands run from 1 to {last}").format(
                    start=start, last=self.last_hand
                )
                if self.last_hand
                else _("--from {start}: no hand recorded yet").format(start=start)
            )
        if not step and start < self.rules_from:
            raise HandError(
                _(
                    "--from {start}: the rules in force apply from hand {hand} on (hands before "
                    "it were played under others): give --from {hand} or later, or take back "
                    "that change first"
                ).format(start=start, hand=self.rules_from)
            )
        self.check_set(rules)
        hands = (start, self.last_hand)
        row = Row(
            RowKind.SET,
            line=line,
            note=set_row_note(rules, changes, check_note(note), hands),
            time=time,
        )
        try:
            deltas, self._rescored = self.rescored(rules, hands, line)
        except LedgerError as exc:
            raise HandError(exc.message) from None
        row = row._replace(deltas=deltas)
        self._apply(row, None, deltas)
        return self._state(row)
