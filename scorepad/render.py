"""Turning rows into text: one `render` for every table scorepad prints.

tabulate is imported only here, and only when a table is actually drawn, so commands that print
no table (and `--help`) start without it.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
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
