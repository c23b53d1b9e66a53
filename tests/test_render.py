"""One look for every table: the streamed renderer draws exactly what `render` draws."""

from pathlib import Path

import pytest
from _types import Run

from scorepad.render import render, render_stream, signed

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
