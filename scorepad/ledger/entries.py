"""What the ledger keeps of a hand, and what the reports see of it: a scored hand (`Scored`),
counted by kind (`Counts`) and shown in its final version (`HandView`), and the version a
later correction refers to (`Version`)."""

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from ..i18n import gettext as _
from ..scoring import Score
from ..store.format import LedgerError, Row, RowKind

_POINTS = Row._fields.index("points")  # (where a row holds its card points)


class Scored:
    """A hand's inputs, scored: what a row of those inputs must hold, and what it means.

    The checking pass remembers one for each kind of hand it meets (the same inputs at the
    same seats under the same rules: `check.Memo`), so hands alike share it; the reports count
    hands by it (`Counts`). Not changed once made (`Final`). A plain class, not a dataclass:
    a dataclass's generated methods cost every command time to compile as it starts.
    """

    __slots__ = ("cells", "deltas", "next_dealer", "result", "row", "seated")

    def __init__(
        self,
        row: Row,
        deltas: Mapping[str, int],
        result: Score | None,
        seated: tuple[str, ...],
        cells: tuple[str, ...] = (),
        next_dealer: str = "",
    ) -> None:
        self.row: Final = row  # the inputs (hand number, line and state are not part of it)
        self.deltas: Final = deltas  # each seated player's points, in seat order
        self.result: Final = result  # None for a doubler
        self.seated: Final = seated
        self.cells: Final = cells  # the player cells a row must hold, in the file's order
        self.next_dealer: Final = next_dealer  # who deals after it

    def with_points(self, points: int) -> "Scored":
        """A hand alike but for its card points (which score alike: `check.Hands`)."""
        row = self.row
        # (the row made anew around its card points: `_replace` takes three times as long, and
        # a pass makes one for each kind of hand and card points it meets: 14,000 in 100,000)
        return Scored(
            Row._make((*row[:_POINTS], points, *row[_POINTS + 1 :])),
            self.deltas,
            self.result,
            self.seated,
            self.cells,
            self.next_dealer,
        )

    @property
    def card_points(self) -> int | None:
        """The card points of the picker's side in this hand."""
        return self.row.points

    @property
    def card(self) -> int:
        """The card points to add up for this hand (0 where a hand has none: a leaster)."""
        return self.row.points or 0


class Counts(Counter["Scored"]):
    """How often each kind of scored hand stands in the night in its final version.

    A night repeats the same few hands, so the reports add them up by kind at the end (a
    subclass folds them into each player's numbers), and can keep what they added up in the
    checkpoint (`saved`, `restore`)."""

    def add(self, entry: Scored) -> None:
        """Count a hand."""
        self[entry] += 1

    def saved(self) -> Any:
        """What this count holds, as JSON data for a checkpoint (None: this one cannot be
        saved, and a pass that counts with it reads the whole file)."""
        return None

    def restore(self, data: Any) -> bool:
        """Start from what `saved` gave (before anything is counted); False, changing nothing,
        when the data is not such."""
        return False


class HandView(NamedTuple):
    """A hand as the reports show it: its final version (as last amended) and whether it is void.

    `entry.deltas` are the final version's points; a void hand counts for nothing.
    """

    number: int
    entry: Scored
    void: bool = False
    amended: bool = False
    note: str = ""
    time: str = ""  # when the hand's own row was written (its `time` cell)

    @property
    def card_points(self) -> int | None:
        """The card points of the picker's side in this hand."""
        return self.entry.row.points

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
