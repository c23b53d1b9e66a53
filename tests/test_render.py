"""One look for every table: the streamed renderer draws exactly what `render` draws."""

from collections.abc import Sequence
from pathlib import Path

import pytest
from _types import Run
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.render import Points, render, render_stream, signed
from scorepad.text import unprintable

HEADERS: list[str] = ["Hand", "Dealer", "Played", "Ann", "Zoë", "Note"]
ROWS: list[list[int | str]] = [
    [1, "Ed", "Ann + Bob 64", "+2", "-1", ""],
    [12, "Ann", "leaster: Zoë", "-10", "+40", "a long note, with a comma"],
    ["", "", "Total", "-8", "+39", ""],
]
ALIGN = ("right", "left", "left", "right", "right", "left")


def test_streamed_text_matches_render() -> None:
    streamed = "\n".join(render_stream(HEADERS, lambda: iter(ROWS), "text", ALIGN))
    assert streamed == render(HEADERS, [[str(c) for c in r] for r in ROWS], "text", ALIGN)


def test_streamed_csv_matches_render() -> None:
    streamed = "\n".join(render_stream(HEADERS, lambda: iter(ROWS), "csv"))
    assert streamed == render(HEADERS, ROWS, "csv")
    assert '"a long note, with a comma"' in streamed


def test_stream_hands_other_formats_to_render() -> None:
    streamed = "\n".join(render_stream(HEADERS, lambda: iter(ROWS), "grid", ALIGN))
    assert streamed == render(HEADERS, ROWS, "grid", ALIGN)
    assert streamed.startswith("+--")


def test_points_and_money_cells() -> None:
    from decimal import Decimal

    from scorepad.render import Money, Points

    rows = [
        ["Ann", Points(3), Money(Decimal("0.75"))],
        ["Bob", Points(-3), Money(Decimal("-1234.5"), "€")],
    ]
    text = render(["Player", "Points", "Money"], rows)
    assert "+3" in text and "$0.75" in text and "-€1,234.50" in text
    assert render(["Player", "Points", "Money"], rows, "csv").splitlines()[2] == "Bob,-3,-1234.50"
    colored = render(["Player", "Points", "Money"], rows, color=True)
    assert "\x1b[32m+3\x1b[0m" in colored and "\x1b[31m-3\x1b[0m" in colored


@pytest.mark.parametrize("points, shown", [(2, "+2"), (-3, "-3"), (0, "0")])
def test_signed(points: int, shown: str) -> None:
    assert signed(points) == shown


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from scorepad.cli import use_color

    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert use_color("text") and use_color("grid")
    assert not use_color("csv") and not use_color("json")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color("text")
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr(
        sys, "stdout", object.__new__(type("Pipe", (), {"isatty": lambda s: False}))
    )
    assert not use_color("text")


def test_markdown_is_a_format(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    run("-f", path, "new", "--players", "Ann,Bob,Cy")
    out = run("-f", path, "standings", "--format", "markdown").stdout
    assert out.startswith("|   # | Player   |")


def _old_stream(headers: list[str], rows: list[list[object]], align: Sequence[str]) -> str:
    """The text table as `render_stream` padded it cell by cell before `text_lines`."""
    from scorepad.render import text_cell

    widths = [len(h) + 2 for h in headers]
    for row in rows:
        widths = [max(w, len(text_cell(c))) for w, c in zip(widths, row)]

    def line(cells: Sequence[str]) -> str:
        out = []
        for cell, width, how in zip(cells, widths, align):
            pad = " " * (width - len(cell))
            out.append(pad + cell if how == "right" else cell + pad)
        return "  ".join(out).rstrip()

    lines = [line(headers), "  ".join("-" * w for w in widths)]
    return "\n".join(lines + [line([text_cell(c) for c in row]) for row in rows])


# (any text a session file may hold: what `text.unprintable` lets through, which a name, a
# note and a player's column share; a line break never reaches a sheet)
_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=12).filter(
    lambda text: unprintable(text) is None
)
_POINTS = st.one_of(st.none(), st.integers(-(10**6), 10**6))


@st.composite
def _sheets(
    draw: st.DrawFn, text: st.SearchStrategy[str] = _TEXT
) -> tuple[list[str], list[list[object]]]:
    """A sheet as its spool holds it: rows of CSV cells (number, dealer, played, points, note),
    changes of the rules among them (no number, no points)."""
    players = draw(st.lists(text.filter(bool), min_size=1, max_size=4))
    rows: list[list[object]] = []
    for k in range(draw(st.integers(0, 12))):
        if draw(st.booleans()):
            points = draw(st.lists(_POINTS, min_size=len(players), max_size=len(players)))
            cells = [
                str(k + 1),
                draw(text),
                draw(text),
                *["" if p is None else str(p) for p in points],
            ]
        else:
            cells = ["", "", draw(text), *[""] * len(players)]
        rows.append([*cells, draw(text)])
    return players, rows


# (words as tabulate shows them as they are: printable ASCII, no space at either end)
_WORDS = st.from_regex(r"([!-~]([ -~]{0,10}[!-~])?)?", fullmatch=True)


@given(st.one_of(_sheets(), _sheets(_WORDS)))
@settings(max_examples=300, deadline=None)
def test_sheet_text_is_the_table_padded_cell_by_cell(
    sheet: tuple[list[str], list[list[object]]],
) -> None:
    """The sheet's text from its spooled CSV cells (`text_lines`: the points written signed,
    as `SheetRows(signed=True)` writes them) is the table `render_stream` drew from them as
    numbers, padded cell by cell, and tabulate's."""
    from scorepad.cli.night import _sheet_cells
    from scorepad.render import signed, text_lines

    players, rows = sheet
    headers = ["Hand", "Dealer", "Played", *players, "Note"]
    align = ("right", "left", "left", *["right"] * len(players), "left")
    as_read = [[str(c) for c in row] for row in rows]
    count = len(players)
    as_text = [
        [*r[:3], *(c and signed(int(c)) for c in r[3 : 3 + count]), r[3 + count]] for r in as_read
    ]
    fast = "\n".join(text_lines(headers, lambda: iter(as_text), align))
    cells = [_sheet_cells(r, count) for r in as_read]
    assert fast == _old_stream(headers, cells, align)
    assert fast == "\n".join(render_stream(headers, lambda: iter(cells), "text", align))
    if rows and all(c.isascii() and c.isprintable() and c == c.strip() for r in as_read for c in r):
        # (tabulate measures wide and combining characters its own way, and strips cells)
        assert fast == _tabulated(headers, cells, align)


def _tabulated(
    headers: Sequence[str], rows: Sequence[Sequence[object]], align: Sequence[str]
) -> str:
    """The text table tabulate lays out (as `render` called it before it laid out plain ASCII
    tables itself)."""
    from tabulate import tabulate

    from scorepad.render import text_cell

    cells = [[text_cell(c) for c in row] for row in rows]
    return str(
        tabulate(cells, headers=headers, tablefmt="simple", colalign=align, disable_numparse=True)
    )


@st.composite
def _tables(draw: st.DrawFn) -> tuple[list[str], list[list[object]], list[str]]:
    """A table as the reports give `render` one: headers, rows of points, numbers, words and
    blanks, and each column aligned left or right."""
    columns = draw(st.integers(1, 6))
    headers = draw(st.lists(_WORDS.filter(bool), min_size=columns, max_size=columns))
    cell = st.one_of(
        st.none(),
        st.integers(-(10**6), 10**6),
        st.integers(-(10**6), 10**6).map(Points),
        _WORDS,
        _TEXT,
        st.from_regex(r" ?[!-~]{0,6} ?", fullmatch=True),  # (a space at an end, or not)
        st.sampled_from(("Söder", "女王", "e\u0301")),  # (wide and combining characters)
    )
    rows = draw(st.lists(st.lists(cell, min_size=columns, max_size=columns), max_size=8))
    align = draw(st.lists(st.sampled_from(("left", "right")), min_size=columns, max_size=columns))
    return headers, rows, align


@given(_tables())
@settings(max_examples=300, deadline=None)
def test_a_text_table_is_tabulates(table: tuple[list[str], list[list[object]], list[str]]) -> None:
    """`render`'s text table is tabulate's, whether it lays the table out itself (every cell
    plain ASCII) or has tabulate do it."""
    headers, rows, align = table
    assert render(headers, rows, "text", align) == _tabulated(headers, rows, align)


def test_a_signed_number_in_csv_is_a_number_not_a_guarded_formula(run: Run) -> None:
    # a report that hands a cell over signed as it shows it ("+10.00") writes it as a number;
    # anything else starting like a formula stays behind its '
    from scorepad.render import data_cell

    assert [data_cell(v) for v in ("+10.00", "-1.91", "+1", "-0")] == ["10.00", "-1.91", "1", "-0"]
    assert [data_cell(v) for v in ("=1+1", "+1e3", "-", "+1.", "@x")] == [
        "'=1+1",
        "'+1e3",
        "'-",
        "'+1.",
        "'@x",
    ]
    league = Path(__file__).parent.parent / "sample_sessions" / "league"
    for command in (("season", league), ("season", league, "--placings"), ("rating", league)):
        assert "'" not in run(*command, "--format", "csv").stdout, command
