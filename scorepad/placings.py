"""League placings (`season --placings`): each night's players ranked by their total, ranking
points by place, ties sharing the points of the places they cover. Pure: no I/O."""

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from .errors import ScorepadError
from .i18n import gettext as _

DEFAULT_PLACINGS: Mapping[int, tuple[int, ...]] = {
    3: (1, 0, -1),
    4: (2, 1, -1, -2),
    5: (2, 1, 0, -1, -2),
    6: (3, 2, 1, -1, -2, -3),
    7: (3, 2, 1, 0, -1, -2, -3),
    8: (4, 3, 2, 1, -1, -2, -3, -4),
}
"""The ranking points of each place, best first, by a night's head count."""


def parse_placings(text: str) -> tuple[int, ...]:
    """A table's own ranking points, `3,1,0,-1,-4` (best place first); a ScorepadError says
    what is wrong."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) < 2 or not all(re.fullmatch(r"[+-]?[0-9]{1,6}", p) for p in parts):
        raise ScorepadError(
            _(
                "⟨placings⟩ {text}: give the ranking points of each place, best first, as "
                "whole numbers separated by commas (e.g. 3,1,0,-1,-4)"
            ).format(text=text)
        )
    return tuple(int(p) for p in parts)


def placings(
    night: str, totals: Mapping[str, int], points: Sequence[int] | None
) -> dict[str, Fraction]:
    """Each player's ranking points for one night: by place (highest total first), players
    tied sharing equally the points of the places they cover. `points`: the table's own (as
    many as the night has players), else `DEFAULT_PLACINGS` for the head count."""
    count = len(totals)
    table = tuple(points) if points is not None else DEFAULT_PLACINGS.get(count)
    if table is None or len(table) != count:
        raise ScorepadError(
            _(
                "{night}: {count} players, but the ranking points give {places} places; "
                "give ⟨placings⟩ with one value for each place"
            ).format(night=night, count=count, places=len(table) if table else 0)
        )
    order = sorted(totals, key=lambda p: -totals[p])
    found: dict[str, Fraction] = {}
    place = 0
    while place < count:
        tied = [p for p in order[place:] if totals[p] == totals[order[place]]]
        share = Fraction(sum(table[place : place + len(tied)]), len(tied))
        for player in tied:
            found[player] = share
        place += len(tied)
    return found


def ranking_text(value: Fraction) -> Decimal:
    """Ranking points as shown: whole where they are, else to two places."""
    if value.denominator == 1:
        return Decimal(value.numerator)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"))
