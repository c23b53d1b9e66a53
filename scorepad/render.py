"""Turning rows into text: one `render` for every table scorepad prints.

Cells are plain values; game points are `Points` and money is `Money`, so each format can show
them its own way: signed (and coloured on a terminal) in a text table, plain in CSV and JSON.
tabulate is imported only here, and only when a table is actually drawn, so commands that print
no table (and `--help`) start without it.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .i18n import N_, decimal_text, money
from .i18n import gettext as _

if TYPE_CHECKING:
    from decimal import Decimal

TEXT_FORMAT = "simple"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # as schema.FORMULA_STARTS (a test says so)
DATA_FORMATS = ("csv", "json")


@functools.cache  # (compiled when first needed: a colored cell)
def _ansi() -> re.Pattern[str]:
    return re.compile(r"\x1b\[[0-9;]*m")


_GREEN, _RED, _RESET = "\x1b[32m", "\x1b[31m", "\x1b[0m"


class Points(int):
    """Game points in a table: +2, -1, 0 in text; a plain number in CSV and JSON."""


class Word(str):
    """A word of the game in a table (a role: picker, defender): in the language in force in a
    text table, as written in CSV and JSON."""

    __slots__ = ()


class Figure(float):
    """A number with decimals in a table: 54.5 (54,5 in German text); plain in CSV and JSON."""


HEADERS = (
    N_("Player"),
    N_("Role"),
    N_("Points"),
    N_("Total"),
    N_("Money"),
    N_("From"),
    N_("To"),
    N_("Amount"),
    N_("Hand"),
    N_("Dealer"),
    N_("Played"),
    N_("Note"),
    N_("Hands"),
    N_("Picks"),
    N_("Picker wins"),
    N_("Pick rate"),
    N_("Wins"),
    N_("Avg points"),
    N_("Partner"),
    N_("Schneider +/-"),
    N_("No-trick +/-"),
    N_("Leasters"),
    N_("Best"),
    N_("Worst"),
    N_("Picker win rate"),
    N_("Average picker points"),
    N_("Schneider for"),
    N_("Schneider against"),
    N_("No-trick for"),
    N_("No-trick against"),
    N_("Leasters won"),
    N_("Nights"),
    N_("Average"),
    N_("Ranking"),
    N_("Rating"),
    N_("Mu"),
    N_("Sigma"),
    N_("Setting"),
    N_("Value"),
    N_("Meaning"),
    N_("Card"),
    N_("Trump"),
    N_("Trick"),
    N_("Led by"),
    N_("Cards played"),
    N_("Won by"),
    N_("With"),
    N_("Winner"),
    N_("Line"),
    N_("Time"),
    N_("Change"),
    N_("Before"),
    N_("After"),
    N_("File"),
    N_("First dealer"),
    N_("Players"),
    N_("Players (seat order)"),
    N_("Round"),
    N_("Table"),
    N_("State"),
    N_("Award"),
    N_("Share"),
    N_("Prize"),
    N_("Each"),
    N_("Solos"),
    N_("Called"),
    N_("Calls"),
    N_("Side won"),
)
"""Every table's headers, translated in a text table (CSV and JSON keep them as written)."""


def header_text(header: str) -> str:
    """A header as a text table shows it, in the language in force."""
    return _(header) if header in _HEADER_SET else header


_HEADER_SET = frozenset(HEADERS)


class Money:
    """An amount of money (a Decimal to the cent) and the currency symbol it is shown with."""

    __slots__ = ("amount", "currency")

    def __init__(self, amount: Decimal, currency: str = "$"):
        self.amount, self.currency = amount, currency

    def __str__(self) -> str:
        return money(self.amount, self.currency)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Money) and (self.amount, self.currency) == (
            other.amount,
            other.currency,
        )

    def __repr__(self) -> str:
        return f"Money({self.amount!r}, {self.currency!r})"


def signed(points: int) -> str:
    """Game points as a score sheet writes them: +2, -1, 0."""
    return f"{points:+d}" if points else "0"


def _paint(text: str, value: float) -> str:
    if value > 0:
        return f"{_GREEN}{text}{_RESET}"
    if value < 0:
        return f"{_RED}{text}{_RESET}"
    return text


def text_cell(value: Any, color: bool = False) -> str:
    """A cell as a text table shows it."""
    if isinstance(value, Points):
        return _paint(signed(value), value) if color else signed(value)
    if isinstance(value, Money):
        return _paint(str(value), float(value.amount)) if color else str(value)
    if value is None:
        return ""
    if isinstance(value, Word):
        return _(value)
    if isinstance(value, Figure):
        return decimal_text(str(float(value)))
    return str(value)


def data_cell(value: Any) -> Any:
    """A cell as CSV and JSON carry it: numbers as numbers, money as a string to the cent, and
    text that a spreadsheet would run as a formula behind a ' (it never should reach here: every
    name and note is refused where it enters, but a report is no place to find out)."""
    if isinstance(value, Points):
        return int(value)
    if isinstance(value, Money):
        return f"{value.amount:.2f}"
    if isinstance(value, Word):
        return str(value)
    if isinstance(value, Figure):
        return float(value)
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        if _SIGNED.fullmatch(value):  # (a number a report signed as it shows it: no formula)
            return value.removeprefix("+")
        return "'" + value
    return value


_SIGNED = re.compile(r"[+-][0-9]+(?:\.[0-9]+)?")


def table_formats() -> list[str]:
    """Every --format a table takes: text, csv, json and each of tabulate's formats."""
    from tabulate import tabulate_formats

    return ["text", *DATA_FORMATS, "markdown", *sorted(tabulate_formats)]


def render(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    fmt: str = "text",
    colalign: Sequence[str] | None = None,
    color: bool = False,
) -> str:
    """Render rows under headers as a text table (any tabulate format), CSV or JSON."""
    rows = list(rows)
    if fmt == "json":
        return to_json([{h: data_cell(c) for h, c in zip(headers, row)} for row in rows])
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows([data_cell(c) for c in row] for row in rows)
        return buffer.getvalue().rstrip("\n")
    cells = [[text_cell(c, color) for c in row] for row in rows]
    shown = [header_text(h) for h in headers]
    align = list(colalign or ["left"] * len(headers))
    if fmt == "text" and not color and cells and _as_written(shown, cells, align):
        # (tabulate lays such a table out as `text_lines` does, a property test says: not
        # importing it spares a report's start about 15 ms, a sixth of it)
        return "\n".join(text_lines(shown, lambda: cells, align))
    from tabulate import tabulate

    return str(
        tabulate(
            cells,
            headers=shown,
            tablefmt=TEXT_FORMAT if fmt == "text" else fmt,
            colalign=colalign,
            disable_numparse=True,
        )
    )


def _as_written(
    headers: Sequence[str], cells: Sequence[Sequence[str]], align: Sequence[str]
) -> bool:
    """Whether tabulate shows each cell as it is written, in columns aligned left or right: every
    cell printable ASCII with no space at either end (tabulate measures wide and combining
    characters its own way, and strips cells)."""
    return (
        len(align) == len(headers)
        and all(how in ("left", "right") for how in align)
        and all(len(row) == len(headers) for row in cells)
        and all(c.isascii() and c.isprintable() and c == c.strip() for c in headers)
        and all(c.isascii() and c.isprintable() and c == c.strip() for row in cells for c in row)
    )


def render_stream(
    headers: Sequence[str],
    rows: Callable[[], Iterable[Sequence[Any]]],
    fmt: str = "text",
    colalign: Sequence[str] | None = None,
    color: bool = False,
) -> Iterator[str]:
    """Render a table too long to hold, line by line: `rows()` is called once per pass.

    Plain text takes two passes (the first measures the columns) and looks exactly like
    `render`'s; CSV takes one. Memory does not grow with the number of rows. Other formats
    hold the rows and go through `render`.
    """
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="")
        writer.writerow(headers)
        yield buffer.getvalue()
        for row in rows():
            buffer.seek(0)
            buffer.truncate()
            writer.writerow([data_cell(c) for c in row])
            yield buffer.getvalue()
        return
    if fmt != "text":
        yield render(headers, rows(), fmt, colalign, color)
        return
    headers = [header_text(h) for h in headers]
    align = list(colalign or ["left"] * len(headers))
    if not color:
        yield from text_lines(
            headers, lambda: ([text_cell(c) for c in row] for row in rows()), align
        )
        return
    widths = [len(h) + 2 for h in headers]  # tabulate's minimum padding for headers
    for row in rows():
        widths = [max(w, len(text_cell(c))) for w, c in zip(widths, row)]

    def line(cells: Sequence[str]) -> str:
        out = []
        for cell, width, how in zip(cells, widths, align):
            # (what a cell shows: without its colours, where it has any)
            shown = len(_ansi().sub("", cell)) if color and "\x1b" in cell else len(cell)
            pad = " " * (width - shown)
            out.append(pad + cell if how == "right" else cell + pad)
        return "  ".join(out).rstrip()

    yield line(list(headers))
    yield "  ".join("-" * w for w in widths)
    for row in rows():
        yield line([text_cell(c, color) for c in row])


def text_lines(
    headers: Sequence[str],
    rows: Callable[[], Iterable[Sequence[str]]],
    align: Sequence[str],
    measured: Sequence[int] | None = None,
) -> Iterator[str]:
    """`render_stream`'s plain text (no colours) of rows whose cells are already text, as
    `text_cell` makes them: the header (as shown), the rule under it, then a line a row.
    `rows()` is called twice: once to measure the columns, once to write the lines; once
    only where `measured` gives the widest cell of each column of the rows."""
    widths = [len(h) + 2 for h in headers]  # tabulate's minimum padding for headers
    if measured is not None:
        widths = list(map(max, widths, measured))
    else:
        for cells in rows():
            widths = list(map(max, widths, map(len, cells)))
    # A line as one %-format of its cells, padded to their column's width (no cell is wider):
    # at 100,000 hands the sheet's lines took a third of the time when padded cell by cell.
    shape = "  ".join(f"%{w}s" if how == "right" else f"%-{w}s" for w, how in zip(widths, align))
    yield (shape % tuple(headers)).rstrip()
    yield "  ".join("-" * w for w in widths)
    for cells in rows():
        yield (shape % tuple(cells)).rstrip()


def to_json(data: Any) -> str:
    """Data as indented JSON, names kept as written."""
    return json.dumps(data, indent=2, ensure_ascii=False, default=_json_default)


def _json_default(value: Any) -> Any:
    """Money as a string to the cent; any other value JSON does not know (a Decimal) as text."""
    return data_cell(value) if isinstance(value, Money) else str(value)
