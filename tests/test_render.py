"""One look for every table: the streamed renderer draws exactly what `render` draws."""

import pytest

from scorepad.render import render, render_stream, signed

HEADERS = ["Hand", "Dealer", "Played", "Ann", "Zoë", "Note"]
ROWS = [[1, "Ed", "Ann + Bob 64", "+2", "-1", ""],
        [12, "Ann", "leaster: Zoë", "-10", "+40", "a long note, with a comma"],
        ["", "", "Total", "-8", "+39", ""]]
ALIGN = ("right", "left", "left", "right", "right", "left")


def test_streamed_text_matches_render():
    streamed = "\n".join(render_stream(HEADERS, lambda: iter(ROWS), "text", ALIGN))
    assert streamed == render(HEADERS, [[str(c) for c in r] for r in ROWS], "text", ALIGN)


def test_streamed_csv_matches_render():
    streamed = "\n".join(render_stream(HEADERS, lambda: iter(ROWS), "csv"))
    assert streamed == render(HEADERS, ROWS, "csv")
    assert '"a long note, with a comma"' in streamed


def test_stream_refuses_formats_it_cannot_stream():
    with pytest.raises(ValueError):
        list(render_stream(HEADERS, lambda: iter(ROWS), "grid"))


@pytest.mark.parametrize("points, shown", [(2, "+2"), (-3, "-3"), (0, "0")])
def test_signed(points, shown):
    assert signed(points) == shown
