"""Turning rows into text: one `render` for every table scorepad prints.

tabulate is imported only here, and only when a table is actually drawn, so commands that print
no table (and `--help`) start without it.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

TEXT_FORMAT = "simple"


def signed(points: int) -> str:
    """Game points as a score sheet writes them: +2, -1, 0."""
    return f"{points:+d}" if points else "0"


def render(headers: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str = "text",
           colalign: Sequence[str] | None = None) -> str:
    """Render rows under headers as a text table (any tabulate format), CSV or JSON."""
    if fmt == "json":
        return json.dumps([dict(zip(headers, row)) for row in rows], indent=2,
                          ensure_ascii=False)
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        return buffer.getvalue().rstrip("\n")
    from tabulate import tabulate

    return tabulate(rows, headers=list(headers), tablefmt=TEXT_FORMAT if fmt == "text" else fmt,
                    colalign=colalign, disable_numparse=True)


def to_json(data: Any) -> str:
    """Data as indented JSON, names kept as written."""
    return json.dumps(data, indent=2, ensure_ascii=False)


def render_stream(headers: Sequence[str], rows: Callable[[], Iterable[Sequence[Any]]],
                  fmt: str = "text", colalign: Sequence[str] | None = None) -> Iterator[str]:
    """Render a table too long to hold, line by line: `rows()` is called once per pass.

    Text takes two passes (the first measures the columns) and looks exactly like `render`'s
    plain table; CSV takes one. Memory does not grow with the number of rows.
    """
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="")
        writer.writerow(headers)
        yield buffer.getvalue()
        for row in rows():
            buffer.seek(0)
            buffer.truncate()
            writer.writerow(row)
            yield buffer.getvalue()
        return
    if fmt != "text":
        raise ValueError(f"render_stream: no streaming for {fmt!r}")
    widths = [len(h) + 2 for h in headers]  # tabulate's minimum padding for headers
    for row in rows():
        widths = [max(w, len(str(cell))) for w, cell in zip(widths, row)]
    align = list(colalign or ["left"] * len(headers))

    def line(cells: Sequence[Any]) -> str:
        return "  ".join(str(c).rjust(w) if a == "right" else str(c).ljust(w)
                         for c, w, a in zip(cells, widths, align)).rstrip()

    yield line(headers)
    yield "  ".join("-" * w for w in widths)
    for row in rows():
        yield line(row)
