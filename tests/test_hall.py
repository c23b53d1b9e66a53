"""The hall's board, `scorepad tournament serve`: its state against what `tournament standings`
and `tournament status` print, a table's change in the next state and event, a hand-edited table
named (the standings refuse, the board keeps serving), the hardening it shares with the
one-session board, and the page in headless Chromium on a phone and a TV."""

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _types import Fails, Run

pytest.importorskip("starlette", reason="the serve extra is not installed")

import httpx
from starlette.testclient import TestClient
from test_board import SIZES, chromium  # noqa: F401  (a fixture)
from test_serve import LOCAL, _chromium, serving

from scorepad.web.hall import HallBoard, changed_tables, look_at

EIGHT = "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias"
# Seed 7 draws round 1 as the manual's cup (docs/tournaments.md): (Hias, Dori, Anni, Franz) and
# (Evi, Christl, Gustl, Bertl).
ROUND_1 = [["Hias", "Dori", "Anni", "Franz"], ["Evi", "Christl", "Gustl", "Bertl"]]


def sp(run: Run, *args: object) -> None:
    result = run(*args)
    assert result.exit_code == 0, (args, result.stderr)


@pytest.fixture
def cup(run: Run, tmp_path: Path) -> Path:
    """Round 1 of 2 drawn, two hands a round: table 1 done, table 2 one hand in."""
    folder = tmp_path / "cup"
    sp(run, "tournament", "new", folder, "--name", "Club Cup", "--rules", "preis",
       "--players", EIGHT, "--rounds", "2", "--hands", "2", "--seed", "7")  # fmt: skip
    sp(run, "tournament", "draw", folder)
    table_1, table_2 = folder / "round-1" / "table-1.csv", folder / "round-1" / "table-2.csv"
    # Hias's solo: +6, the others -2 each; Dori and Anni's Rufspiel: +1 each, Hias, Franz -1.
    sp(run, "-f", table_1, "hand", "--picker", "Hias", "--game", "solo", "--points", "70")
    sp(run, "-f", table_1, "hand", "--picker", "Dori", "--partner", "Anni", "--points", "70")
    # Evi and Gustl, schneider: +2 each, Christl and Bertl -2 each.
    sp(run, "-f", table_2, "hand", "--picker", "Evi", "--partner", "Gustl", "--points", "95",
       "--tricks", "7")  # fmt: skip
    return folder


@pytest.fixture
def hall(cup: Path) -> Iterator[TestClient]:
    with TestClient(HallBoard(cup, poll=0.05).app(), base_url=LOCAL) as client:
        yield client


def _json(run: Run, *args: object) -> Any:
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_the_state_of_a_small_tournament(hall: TestClient, cup: Path, run: Run) -> None:
    reply = hall.get("/api/state")
    assert reply.status_code == 200
    state = reply.json()
    standings = _json(run, "tournament", "standings", cup)
    assert {k: state[k] for k in standings} == standings  # the standings' own keys and values
    # by hand: Hias +6 -1; Evi and Gustl +2, level after solos (0) and best round (+2): 2=;
    # Anni and Dori -2 +1; Bertl and Christl -2; Franz -2 -1
    assert [(s["place"], s["player"], s["total"], s["tied"]) for s in state["standings"]] == [
        (1, "Hias", 5, False), (2, "Evi", 2, True), (2, "Gustl", 2, True),
        (4, "Anni", -1, True), (4, "Dori", -1, True), (6, "Bertl", -2, True),
        (6, "Christl", -2, True), (8, "Franz", -3, False),
    ]  # fmt: skip
    assert state["standings"][0]["solos"] == 1 and state["refused"] is None
    status = _json(run, "tournament", "status", cup)
    assert state["tables"] == status["tables"]  # (one round drawn: every table is current)
    shown = [(t["table"], t["players"], t["hands"], t["of"], t["done"]) for t in state["tables"]]
    assert shown == [(1, ROUND_1[0], 2, 2, True), (2, ROUND_1[1], 1, 2, False)]
    assert state["progress"] == "round 1 of 2: 1 of 2 tables done."
    assert state["current_round"] == 1 and state["hands"] == 2
    assert state["problems"] == [] and state["done"] is False


def test_before_the_first_draw_everyone_is_level_and_no_table_is_shown(
    run: Run, tmp_path: Path
) -> None:
    folder = tmp_path / "new"
    sp(run, "tournament", "new", folder, "--name", "New", "--rules", "preis",
       "--players", EIGHT, "--rounds", "2", "--hands", "2", "--seed", "7")  # fmt: skip
    with TestClient(HallBoard(folder).app(), base_url=LOCAL) as client:
        state = client.get("/api/state").json()
    assert state["current_round"] is None and state["tables"] == []
    assert {s["total"] for s in state["standings"]} == {0} and len(state["standings"]) == 8
    assert state["progress"].startswith("no round drawn yet (of 2)")


def test_a_change_to_a_table_file_is_in_the_next_state(
    hall: TestClient, cup: Path, run: Run
) -> None:
    assert hall.get("/api/state").json()["tables"][1]["hands"] == 1
    table_2 = cup / "round-1" / "table-2.csv"
    sp(run, "-f", table_2, "hand", "--picker", "Christl", "--game", "wenz", "--points", "61")
    state = hall.get("/api/state").json()
    assert state["tables"][1]["hands"] == 2 and state["tables"][1]["done"]
    assert state["progress"] == "round 1 of 2 is done; next: scorepad tournament draw " + str(cup)
    assert {s["player"]: s["total"] for s in state["standings"]}["Christl"] == -2 + 6
    # the next round drawn (tournament.toml changes) is the next state too
    sp(run, "tournament", "draw", cup)
    state = hall.get("/api/state").json()
    assert state["current_round"] == 2 and [t["hands"] for t in state["tables"]] == [0, 0]
    assert set(state["standings"][0]["rounds"]) == {"1", "2"}


def test_the_changed_tables_are_named(cup: Path) -> None:
    before = look_at(cup)
    assert set(before) == {
        "tournament.toml", "round-1/table-1.csv", "round-1/table-2.csv"
    }  # fmt: skip
    path = cup / "round-1" / "table-2.csv"
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))  # (the same bytes, a new time)
    seen = look_at(cup)
    assert changed_tables(before, seen) == [{"round": 1, "table": 2}]
    assert changed_tables(None, seen) == [] and changed_tables(seen, seen) == []


def _events(url: str, seen: list[Any], ready: threading.Event, want: int) -> None:
    """Collect the hall's `state` events until `want` of them are in."""
    with httpx.stream("GET", url + "/events", timeout=30) as reply:
        ready.set()
        event = None
        for line in reply.iter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event == "state":
                seen.append(json.loads(line[5:]))
                if len(seen) >= want:
                    return


def test_a_change_to_a_table_file_reaches_the_event_stream(cup: Path) -> None:
    seen: list[Any] = []
    ready = threading.Event()
    with serving(HallBoard(cup, poll=0.05)) as url:
        listener = threading.Thread(target=_events, args=(url, seen, ready, 2))
        listener.start()
        assert ready.wait(120)
        subprocess.run(
            [sys.executable, "-m", "scorepad", "-f", cup / "round-1" / "table-2.csv", "hand",
             "--picker", "Christl", "--game", "wenz", "--points", "61"],
            check=True, capture_output=True,
        )  # fmt: skip
        listener.join(120)
    first, last = seen[0], seen[-1]
    assert first["changed"] == [] and first["state"]["tables"][1]["hands"] == 1
    assert last["changed"] == [{"round": 1, "table": 2}] and last["version"] > first["version"]
    assert last["state"]["tables"][1]["done"] and last["state"]["tables"][1]["hands"] == 2


def _hand_edit(cup: Path) -> Path:
    """Hias's +6 made +7 and Dori's -2 made -3 (the hand still sums to 0): it no longer
    verifies."""
    path = cup / "round-1" / "table-1.csv"
    data = path.read_bytes()
    assert data.count(b"\n1,picker,,6,-2,-2,-2,") == 1
    path.write_bytes(data.replace(b"\n1,picker,,6,-2,-2,-2,", b"\n1,picker,,7,-3,-2,-2,"))
    return path


def test_a_hand_edited_table_is_named_and_the_board_keeps_serving(
    hall: TestClient, cup: Path, fails: Fails
) -> None:
    good = (cup / "round-1" / "table-1.csv").read_bytes()
    path = _hand_edit(cup)
    reply = hall.get("/api/state")
    assert reply.status_code == 200  # (the board is fine; the standings refuse)
    state = reply.json()
    assert state["standings"] is None
    refusal = fails("tournament", "standings", cup)
    assert f"Error: {state['refused']}" == refusal  # word for word
    assert state["refused"].startswith(f"{path}:") and "every table to verify" in state["refused"]
    assert [(t["round"], t["table"]) for t in state["problems"]] == [(1, 1)]
    assert str(path) in state["problems"][0]["problem"]
    assert [t["done"] for t in state["tables"]] == [False, False]
    assert state["tables"][0]["problem"] == state["problems"][0]["problem"]
    assert hall.get("/").status_code == 200
    path.write_bytes(good)  # put right, the standings are back
    state = hall.get("/api/state").json()
    assert state["refused"] is None and state["standings"][0]["player"] == "Hias"


def test_a_broken_tournament_toml_is_an_error_not_a_crash(hall: TestClient, cup: Path) -> None:
    toml = cup / "tournament.toml"
    good = toml.read_bytes()
    toml.write_bytes(good.replace(b"rounds = 2", b"rounds = 'two'"))
    reply = hall.get("/api/state")
    assert reply.status_code == 500 and "rounds must be a int" in reply.json()["error"]
    toml.write_bytes(good)
    assert hall.get("/api/state").status_code == 200


def test_the_hall_is_read_only_self_contained_and_answers_only_to_its_names(
    cup: Path, hall: TestClient
) -> None:
    before = {p: p.read_bytes() for p in cup.rglob("*") if p.is_file()}
    page = hall.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "http://" not in page.text and "https://" not in page.text and "<link" not in page.text
    for where in ("/api/hands", "/api/undo", "/api/state"):
        assert hall.post(where, json={"picker": "Hias"}).status_code in (404, 405)
    assert hall.get("/api/entry").status_code == 404
    board = HallBoard(cup, hosts=["halle.lan"])
    with TestClient(board.app(), base_url="http://evil.example") as evil:
        for where in ("/", "/api/state", "/events"):
            reply = evil.get(where)
            assert reply.status_code == 400 and "Hias" not in reply.text, where
    with TestClient(board.app(), base_url="http://HALLE.lan:80") as good:
        assert good.get("/api/state").status_code == 200
    assert {p: p.read_bytes() for p in cup.rglob("*") if p.is_file()} == before


def test_the_hall_has_the_connection_guard(cup: Path) -> None:
    from scorepad.web.app import IDLE_TIMEOUT, server_config

    config = server_config(HallBoard(cup), host="127.0.0.1", port=0)
    assert config.timeout_keep_alive == IDLE_TIMEOUT
    assert getattr(config.http, "max_connections", 0) >= 16  # (the guarded protocol)


def test_tournament_serve_refuses_before_it_listens(
    fails: Fails, tmp_path: Path, cup: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "no tournament.toml here" in fails("tournament", "serve", tmp_path / "none")
    line = fails("tournament", "serve", cup, "--allow-host", "a b", code=2)
    assert "--allow-host" in line
    assert "--port" in fails("tournament", "serve", cup, "--port", "70000", code=2)
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # (an import of it fails)
    assert fails("tournament", "serve", cup) == (
        "Error: tournament serve needs the serve extra: pip install 'scorepad[serve]'"
    )


# --- in a real browser --------------------------------------------------------------------------

LONG = (
    "Maximiliane von Wittelsbach,Bartholomäus Oberhuber-Schmid,Konstantinopoulosandreadis,"
    "Annemarie Fischer-Dieskau,Wolfgang Amadeus Huberbauer,Friedrich-Wilhelm Zimmermann,"
    "Kreszentia Obermaier,Xaver Niederhuber"
)
MEASURE = """() => ({
  scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
  cards: [...document.querySelectorAll('main > section, .notice')]
    .filter((s) => s.offsetParent !== null)
    .map((s) => ({id: s.id, scroll: s.scrollWidth, client: s.clientWidth})),
  rows: document.querySelectorAll('#standings tbody tr').length,
  tiles: [...document.querySelectorAll('#tables .table')].map((t) => t.className),
  roundColumns: [...document.querySelectorAll('#standings th.round')]
    .filter((th) => th.offsetParent !== null).length,
})"""


@pytest.fixture
def long_cup(run: Run, tmp_path: Path) -> Path:
    """Eight long names, round 1 played, round 2 drawn and begun at table 1."""
    folder = tmp_path / "Kirchweih-Preisschafkopf-des-Trachtenvereins-Oberammergau-2026"
    sp(run, "tournament", "new", folder, "--name",
       "Preisschafkopf des Trachtenvereins Oberammergau zur Kirchweih 2026", "--rules", "preis",
       "--players", LONG, "--rounds", "2", "--hands", "2", "--seed", "3")  # fmt: skip
    for number in (1, 2):
        tables = _json(run, "tournament", "draw", folder)["tables"]
        for table in tables[: 2 if number == 1 else 1]:
            seats = table["players"]
            for picker in seats[:2]:
                sp(run, "-f", table["file"], "hand", "--picker", picker, "--game", "solo",
                   "--points", "70")  # fmt: skip
    return folder


@pytest.mark.parametrize("screen", SIZES)
def test_the_hall_fits_a_phone_and_a_tv_and_updates_itself(
    long_cup: Path,
    chromium: Any,  # noqa: F811  (the fixture)
    screen: str,
    tmp_path: Path,
) -> None:
    (first, _), (second, seats) = _round_tables(long_cup, 2)
    with serving(HallBoard(long_cup, poll=0.05)) as url:
        browser = chromium.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=dict(zip(("width", "height"), SIZES[screen])))
            page.goto(url)
            page.wait_for_selector("#live.on", timeout=60_000)
            page.wait_for_function("document.querySelectorAll('#tables .table').length === 2")
            seen = page.evaluate(MEASURE)
            page.screenshot(path=str(tmp_path / f"hall-{screen}.png"), full_page=True)
            # a hand at table 2 of round 2 shows without a reload
            subprocess.run(
                [sys.executable, "-m", "scorepad", "-f", second, "hand", "--picker", seats[0],
                 "--game", "solo", "--points", "70"],
                check=True, capture_output=True,
            )  # fmt: skip
            page.wait_for_function(
                "document.querySelector('#tables .table[data-table=\"2\"] .state')"
                ".textContent === '1 of 2'",
                timeout=60_000,
            )
            # a hand-edited table: named on the page, which still fits
            data = first.read_bytes()
            first.write_bytes(data.replace(b"\n1,picker,,6,", b"\n1,picker,,7,", 1))
            page.wait_for_selector("#refused:not(.hidden)", timeout=60_000)
            refused = page.locator("#refused").inner_text()
            broken = page.evaluate(MEASURE)
        finally:
            browser.close()
    for measured in (seen, broken):
        assert measured["scrollWidth"] <= measured["innerWidth"], measured
        for card in measured["cards"]:
            assert card["scroll"] <= card["client"], card
    assert seen["rows"] == 8 and seen["tiles"] == ["table done", "table playing"]
    assert seen["roundColumns"] == (2 if screen == "tv" else 0)  # (a phone: under the names)
    assert "Round 2, table 1" in refused and str(first) in refused
    assert broken["rows"] == 0 and [t.split()[1] for t in broken["tiles"]] == ["problem", "playing"]


def _round_tables(folder: Path, number: int) -> list[tuple[Path, list[str]]]:
    """A round's tables as tournament.toml holds them: each file, and its players."""
    import tomllib

    data = tomllib.loads((folder / "tournament.toml").read_text(encoding="utf-8"))
    tables = data["round"][number - 1]["tables"]
    return [(folder / f"round-{number}" / f"table-{k}.csv", p) for k, p in enumerate(tables, 1)]


def test_a_hall_that_counts_placings_shows_the_ranking_points(
    run: Run,
    tmp_path: Path,
    chromium: Any,  # noqa: F811  (the fixture)
) -> None:
    """Issue 43, item 6: where a tournament counts league placings, the hall's page shows each
    player's ranking points beside the game points, in the order of the standings."""
    folder = tmp_path / "league"
    sp(run, "tournament", "new", folder, "--name", "Liga", "--rules", "bavarian",
       "--players", "Anni,Bertl,Sepp,Vroni,Resi,Toni,Lenz,Dori", "--rounds", "1",
       "--hands", "1", "--seed", "3", "--placings")  # fmt: skip
    for table in _json(run, "tournament", "draw", folder)["tables"]:
        sp(run, "-f", table["file"], "hand", "--picker", table["players"][0], "--game", "solo",
           "--points", "70")  # fmt: skip
    standings = _json(run, "tournament", "standings", folder)["standings"]
    with serving(HallBoard(folder, poll=0.05)) as url:
        browser = chromium.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("#standings tbody tr")
            header = page.inner_text("#standings thead")
            shown = page.eval_on_selector_all(
                "#standings tbody tr",
                "rows => rows.map((r) => [r.querySelector('.name').textContent,"
                " r.querySelector('td.ranking').textContent])",
            )
        finally:
            browser.close()
    assert "Ranking" in header and header.index("Ranking") < header.index("Total")
    assert shown == [[s["player"], _signed(s["ranking"])] for s in standings]


def _signed(number: float) -> str:
    """As the page writes a number: +3, -1, 0."""
    return f"+{number}" if number > 0 else str(number)
