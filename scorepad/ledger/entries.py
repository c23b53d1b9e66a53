"""What the ledger keeps of a hand, and what the reports see of it: a scored hand (`Scored`),
counted by kind (`Counts`) and shown in its final version (`HandView`); what the rows below a
hand do to it (`Fate`), and the version a later correction refers to (`Version`)."""

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from ..i18n import gettext as _
from ..scoring import Score
from ..store.format import LedgerError, Row, RowKind


class Scored:
    """A hand's inputs, scored: what a row of those inputs must hold, and what it means.

    Shared by every hand of the night with the same inputs and seats (compared by identity).
    Not changed once made (`Final`). The records that are made at import (this,
    `Version`, `reports.PlayerStats`) are plain classes: a dataclass's generated methods cost
    every command about 0.4 ms each to compile as it starts.
    """

    __slots__ = (
        "__weakref__",  # (what the reports make of a kind lives while it does: `reports`)
        "_alike",
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
        base: "Scored | None" = None,
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
        # (`base`; None for itself: an object that refers to itself is a reference cycle,
        # which lives on after its last use till the garbage collector's next full pass)
        self._alike: Final = base

    @property
    def base(self) -> "Scored":
        """The hand this one is alike to but for its card points (of one class): the reports
        count hands by it (`Counts`). Itself when it is the first of its kind."""
        return self._alike or self

    def with_points(self, points: int) -> "Scored":
        """This hand with other card points, which score alike (of the same class, or of a
        class the ledger found to score alike: `Checker._remember`)."""
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
    them, so memory stays flat; this one keeps counting.

    During a pass the counts are in `tally`, each kind's hands and card points in one list (a
    plain dict of lists takes a hand in a third of the time a Counter does, in a third of the
    memory of two Counters); `gather` adds them into this Counter and `card_points` (the
    ledger, at the end of its pass; a subclass, as it folds)."""

    LIMIT = 8_192

    def __init__(self) -> None:
        super().__init__()
        self.card_points: Counter[Scored] = Counter()
        self.tally: dict[Scored, list[int]] = {}

    def gather(self) -> None:
        """Add in what the fast path tallied."""
        if self.tally:
            card_points = self.card_points
            for base, (times, points) in self.tally.items():
                if times:
                    self[base] += times
                    card_points[base] += points
            self.tally.clear()

    def add(self, entry: Scored, times: int = 1) -> None:
        """Count a hand `times` times."""
        self.count(entry.base, times, times * entry.card)

    def count(self, base: Scored, times: int, card_points: int) -> None:
        """Count `times` hands of the kind `base`, holding `card_points` in all."""
        tallied = self.tally.get(base)
        if tallied is not None:
            tallied[0] += times
            tallied[1] += card_points
            return
        self.tally[base] = [times, card_points]
        if len(self.tally) > self.LIMIT:
            self.fold()

    def add_alone(self, entry: Scored) -> None:
        """Count a hand that is a kind of its own (a corrected hand as its last correction
        leaves it): a subclass may count it at once instead of keeping it."""
        self.add(entry)

    def fold(self) -> None:
        """Make room (see the class)."""

    def let_go(self, base: Scored) -> None:
        """The ledger lets go of a kind (it remembers a bounded number: a hand of that kind
        met again is scored anew, a kind of its own): a subclass that folds may fold this one
        in now, so that what it counts holds no kind the ledger no longer does."""

    def saved(self) -> Any:
        """What this count holds, every hand folded in, as JSON data for a checkpoint (None:
        this one cannot be saved, and a pass that counts with it reads the whole file)."""
        return None

    def restore(self, data: Any) -> bool:
        """Start from what `saved` gave (before anything is counted); False, changing nothing,
        when the data is not such."""
        return False

    def empty(self) -> "Counts | None":
        """A new count of the same kind, with nothing counted, for the second part of a pass
        read in two processes (None: this one cannot add another's in, and a pass that counts
        with it is read in one process)."""
        return None

    def add_saved(self, data: Any) -> bool:
        """Add in what another count of the same kind saved (`saved`): the hands of the second
        part of a pass. False, changing nothing, when the data is not such."""
        return False


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
    time: str = ""  # when the hand's own row was written (its `time` cell)

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


class Version:
    """What the ledger remembers of a hand that a later correction refers to."""

    __slots__ = ("before", "consumed", "deltas", "pot", "result", "row")

    def __init__(
        self,
        row: Row,
        deltas: dict[str, int],
        consumed: list[int],
        result: Score | None = None,
        before: "Version | None" = None,  # the version an amendment replaced (for `undo`)
        pot: int = 0,  # what the pot held before the hand (what it plays for, if it does)
    ) -> None:
        self.row = row
        self.deltas = deltas
        self.consumed = consumed
        self.result = result
        self.before = before
        self.pot = pot


def throws_in(version: Version) -> bool:
    """Whether a recorded hand put a doubling in the queue (a doubler, or a 60-60 hand under
    sixty_sixty)."""
    if version.row.kind is RowKind.DOUBLER:
        return True
    return version.result is not None and version.result.doubles_next


def check_throw_in(version: Version, result: Score | None, ref: int | None, line: int) -> None:
    """An amendment may not change whether a hand doubles the next (the hands after it were
    dealt with that doubling, or without it)."""
    before = throws_in(version)
    after = result is not None and result.doubles_next
    if before != after:
        raise LedgerError(
            line,
            _(
                "hand {ref} {value} the next hand (a 60-60 under sixty_sixty); an "
                "amendment cannot change that: void it and record it again"
            ).format(ref=ref, value="doubled" if before else "did not double"),
        )


def lean(result: Score | None) -> Score | None:
    """A score without its explanation and roles (what the reports keep of it): itself when it
    is lean already."""
    if result is None or not (result.explanation or result.roles):
        return result
    return result._replace(explanation=(), roles={})


def shown(value: Any) -> str:
    if isinstance(value, Mapping):
        return (
            ", ".join(f"{k} {v:+d}" if isinstance(v, int) else f"{k} {v}" for k, v in value.items())
            or "nothing"
        )
    if isinstance(value, (tuple, list, set)):
        return ", ".join(sorted(value)) or "nobody"
    return str(value)
