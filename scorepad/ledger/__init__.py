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

from ..store.scan import Fate
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
