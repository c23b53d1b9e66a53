"""The live board, `scorepad serve`: every endpoint in-process, the event stream on the loopback
address (with a bounded load test), and the page in a real headless Chromium."""

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict, Unpack

import pytest
from _types import Fails, Run

pytest.importorskip("starlette", reason="the serve extra is not installed")

import httpx
import uvicorn
from conftest import memo_of
from starlette.testclient import TestClient

from scorepad.session import Session
from scorepad.web.app import Board, create_app, server_config
from scorepad.web.follow import LiveBoard, MoneyRate
from scorepad.web.records import MAX_BODY

FIVE = "Ann,Bob,Cy,Dee,Ed"
TOKEN = "table-token-123"
AUTH = {"authorization": f"Bearer {TOKEN}"}
LOCAL = "http://localhost"  # (the board answers only to its own names)
ARTIFACTS = Path(os.environ.get("SCOREPAD_ARTIFACTS", Path(__file__).parent / "artifacts"))


@pytest.fixture(autouse=True)
def patient_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry waits for the session's lock as long as a busy machine makes it (ENTRY_WAIT is
    10 s: eight processes recording at once on a loaded machine can hold it out longer)."""
    import scorepad.web.app as app

    monkeypatch.setattr(app, "ENTRY_WAIT", 300.0)


@pytest.fixture
def board_file(run: Run, tmp_path: Path) -> Path:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", FIVE, "--set", "all_pass=doubler").exit_code == 0
    return path


@pytest.fixture
def client(board_file: Path) -> Iterator[TestClient]:
    board = Board(board_file, allow_entry=True, token=TOKEN, poll=0.05)
    with TestClient(create_app(board), base_url=LOCAL) as c:
        yield c


# --- in process ---------------------------------------------------------------------------------


def test_the_state_has_the_standings_keys_and_more(
    client: TestClient, board_file: Path, run: Run
) -> None:
    run("-f", board_file, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "70")
    state = client.get("/api/state").json()
    standings = json.loads(run("-f", board_file, "standings", "--format", "json").stdout)
    assert {k: state[k] for k in standings} == standings
    assert state["next"] == {
        "hand": 2,
        "dealer": "Ann",
        "leads": "Bob",
        "sits_out": [],
        "doubled": 0,
        "bock": None,
        "bock_owed": 0,
    }
    assert state["pending"] == 0 and state["rules_in_force"]["summary"].startswith("standard")
    assert state["recent"][0]["played"] == "Ann + Bob 70"
    assert state["series"]["totals"]["Ann"] == [0, 2]


def test_the_page_needs_nothing_from_elsewhere(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "http://" not in page.text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page.text and "<link" not in page.text
    assert '"entry": true' in page.text


def test_entry_records_a_hand_the_table_scores_itself(
    client: TestClient, board_file: Path, run: Run
) -> None:
    # Issue 43 item 4: the board's API takes `scores` as `hand --scores` does; the board shows
    # the hand as scored by the table, and a wrong one is refused, nothing written.
    scores = {"Ann": 4, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": -1}
    reply = client.post("/api/hands", json={"scores": scores}, headers=AUTH)
    assert reply.status_code == 201, reply.text
    data = reply.json()
    assert data["hand"] == 1 and data["played"] == "scored by the table"
    assert data["totals"] == scores
    before = board_file.read_bytes()
    wrong = client.post("/api/hands", json={"scores": {"Ann": 1}}, headers=AUTH)
    assert wrong.status_code == 422
    assert "scores: name every player dealt in once" in wrong.text
    assert board_file.read_bytes() == before
    sheet = json.loads(run("-f", board_file, "sheet", "--format", "json").stdout)["hands"]
    assert sheet[0]["kind"] == "manual"
    state = client.get("/api/state").json()
    assert "scored by the table" in json.dumps(state)


def test_entry_records_a_hand_with_the_token(
    client: TestClient, board_file: Path, run: Run
) -> None:
    reply = client.post(
        "/api/hands", json={"picker": "Ann", "partners": ["Bob"], "points": 70}, headers=AUTH
    )
    assert reply.status_code == 201, reply.text
    data = reply.json()
    assert data["hand"] == 1 and data["totals"]["Ann"] == 2 and data["played"] == "Ann + Bob 70"
    assert (
        json.loads(run("-f", board_file, "standings", "--format", "json").stdout)["totals"]
        == (data["totals"])
    )
    # a leaster, a doubler, a note: the same inputs as `hand`
    assert client.post("/api/hands", json={"doubler": True}, headers=AUTH).status_code == 201
    reply = client.post(
        "/api/hands",
        json={"picker": "Cy", "alone": True, "points": 95, "note": "big"},
        headers=AUTH,
    )
    assert reply.status_code == 201 and reply.json()["marks"] == ["doubled", "schneider"]
    assert run("-f", board_file, "verify").stdout == ""


@pytest.mark.parametrize(
    "headers", [{}, {"authorization": "Bearer wrong"}, {"authorization": TOKEN}]
)
def test_entry_without_the_token_is_forbidden(
    client: TestClient, board_file: Path, headers: dict[str, str]
) -> None:
    before = board_file.read_bytes()
    reply = client.post(
        "/api/hands", json={"picker": "Ann", "alone": True, "points": 70}, headers=headers
    )
    assert reply.status_code == 403 and "token" in reply.json()["error"]
    assert board_file.read_bytes() == before


def test_entry_is_off_without_allow_entry(board_file: Path) -> None:
    with TestClient(create_app(Board(board_file, token=TOKEN)), base_url=LOCAL) as c:
        reply = c.post("/api/hands", json={"picker": "Ann", "points": 70}, headers=AUTH)
        assert reply.status_code == 403 and "--allow-entry" in reply.json()["error"]
        assert '"entry": false' in c.get("/").text


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"picker": "Zed", "points": 70}, 422, "picker Zed: unknown player"),
        ({"picker": "Ann", "partners": ["Bob"], "points": 170}, 422, "card points run from 0"),
        ({"picker": "Ann", "points": 70}, 422, "name the partners, or say alone ("),
        ({"pickr": "Ann"}, 400, "unknown field 'pickr'"),
        ({"picker": "Ann", "points": "70"}, 400, "points: a whole number expected"),
        ({"picker": "Ann", "points": True}, 400, "points: a whole number expected"),
        ({"partners": "Bob"}, 400, "partners: a list of names expected"),
        ({"leaster_points": {"Ann": "x"}}, 400, "an object of name to whole number"),
        ({"points": 10**12}, 400, "out of range"),
        ({"picker": "Ann", "alone": True, "points": 70, "note": "=1+1"}, 422, "formula"),
        ({"doubler": True, "picker": "Ann"}, 422, "picker does not belong with doubler"),
        ([1, 2], 400, "not a JSON object"),
    ],
)
def test_bad_entries_get_a_json_error_and_change_nothing(
    client: TestClient, board_file: Path, body: Any, status: int, message: str
) -> None:
    before = board_file.read_bytes()
    reply = client.post("/api/hands", json=body, headers=AUTH)
    assert reply.status_code == status and message in reply.json()["error"], reply.text
    assert board_file.read_bytes() == before
    assert client.get("/api/state").status_code == 200  # it keeps serving


def test_an_empty_list_is_an_input_not_given(client: TestClient, board_file: Path) -> None:
    body = {"picker": "Ann", "partners": ["Bob"], "points": 70, "losers": [], "jungfrau": []}
    reply = client.post("/api/hands", json=body, headers=AUTH)
    assert reply.status_code == 201, reply.text
    assert reply.json()["hand"] == 1


def test_a_body_that_is_not_json_or_too_large_is_refused(
    client: TestClient, board_file: Path
) -> None:
    before = board_file.read_bytes()
    reply = client.post("/api/hands", content=b"{not json", headers=AUTH)
    assert reply.status_code == 400
    reply = client.post("/api/hands", content=b"x" * (MAX_BODY + 1), headers=AUTH)
    assert reply.status_code == 413 and "KiB" in reply.json()["error"]
    for length, status in (("²".encode("latin-1"), 400), (b"9" * 5000, 413)):  # (int() refuses)
        reply = client.post("/api/hands", content=b"{}", headers={**AUTH, "content-length": length})
        assert reply.status_code == status, (length[:5], reply.text)
    assert board_file.read_bytes() == before
    assert client.get("/nowhere").status_code == 404
    assert client.put("/api/hands").status_code == 405


def test_a_broken_file_is_shown_as_an_error_and_the_board_keeps_serving(
    client: TestClient, board_file: Path
) -> None:
    good = board_file.read_bytes()
    board_file.write_bytes(good + b"1,picker,,9,9,9,9,9\r\n")
    reply = client.get("/api/state")  # (it looks at the file as it answers)
    assert reply.status_code == 500 and "verify" in reply.json()["error"]
    board_file.write_bytes(good)
    assert client.get("/api/state").status_code == 200


def test_entry_from_the_page_and_the_terminal_at_once_both_land(
    client: TestClient, board_file: Path, run: Run
) -> None:
    results = []

    def terminal() -> None:
        for _ in range(10):
            results.append(
                run(
                    "-f", board_file, "hand", "--picker", "Cy", "--alone", "--points", "80"
                ).exit_code
            )

    thread = threading.Thread(target=terminal)
    thread.start()
    codes = [
        client.post(
            "/api/hands", json={"picker": "Ann", "partners": ["Bob"], "points": 70}, headers=AUTH
        ).status_code
        for _ in range(10)
    ]
    thread.join()
    assert codes == [201] * 10 and results == [0] * 10
    state = client.get("/api/state").json()
    assert state["hands"] == 20  # nothing lost
    # Ann: +2 each of her hands, -1 each of Cy's; Cy: +4 each of his, -1 each of Ann's
    assert state["totals"]["Ann"] == 10 * 2 - 10 and state["totals"]["Cy"] == 10 * 4 - 10
    assert run("-f", board_file, "verify").stdout == ""


def test_serve_without_the_extra_says_which_to_install(
    fails: Fails, board_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # (an import of it fails)
    assert "pip install 'scorepad[serve]'" in fails("-f", board_file, "serve")


def test_serve_refuses_a_missing_file_and_a_bad_token(
    fails: Fails, tmp_path: Path, board_file: Path
) -> None:
    assert "no such" in fails("-f", tmp_path / "none.csv", "serve").lower()
    assert "--token" in fails("-f", board_file, "serve", "--token", "short", code=2)


# --- on the loopback address --------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class BoardOptions(TypedDict, total=False):
    """What `served` passes on to the Board besides its file and poll."""

    allow_entry: bool
    token: str | None
    hosts: Sequence[str]
    money: MoneyRate | None


@contextmanager
def served(path: Path, **options: Unpack[BoardOptions]) -> Iterator[str]:
    """The board on a free loopback port, in a thread; yields its base URL."""
    with serving(Board(path, poll=0.05, **options)) as url:
        yield url


SERVERS: dict[str, uvicorn.Server] = {}  # (each board `serving` runs, by its URL)


def _settled(url: str) -> None:
    """Wait until the board at `url` holds no connection and answers no request: what its
    clients sent is dealt with (a wait for that event, however busy the machine)."""
    state = SERVERS[url].server_state
    deadline = time.monotonic() + 60
    while state.connections or state.tasks:
        assert time.monotonic() < deadline, "the board's connections never closed"
        time.sleep(0.01)


@contextmanager
def serving(board: LiveBoard) -> Iterator[str]:
    """Any live board on a free loopback port, in a thread; yields its base URL."""
    port = _free_port()
    server = uvicorn.Server(server_config(board, host="127.0.0.1", port=port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # (a bound on a wait for the event, however busy)
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the board did not start"
        time.sleep(0.02)
    url = f"http://127.0.0.1:{port}"
    SERVERS[url] = server
    try:
        yield url
    finally:
        SERVERS.pop(url, None)
        server.should_exit = True
        thread.join(timeout=60)


async def _listen(
    url: str, seen: list[Any], ready: asyncio.Semaphore, want: int, stop: asyncio.Event
) -> None:
    """Hold the event stream; collect every change until `want` hands are in the state."""
    async with (
        httpx.AsyncClient(timeout=None) as client,
        client.stream("GET", url + "/events") as reply,
    ):
        ready.release()
        event = None
        async for line in reply.aiter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event == "state":
                data = json.loads(line[5:])
                seen.append(data)
                if data["state"].get("hands", 0) >= want or stop.is_set():
                    return


def test_every_change_reaches_every_client_as_an_event(board_file: Path) -> None:
    with served(board_file) as url:
        seen: list[Any] = []

        async def main() -> None:
            ready = asyncio.Semaphore(0)
            stop = asyncio.Event()
            task = asyncio.create_task(_listen(url, seen, ready, 1, stop))
            await ready.acquire()
            subprocess.run(
                [sys.executable, "-m", "scorepad", "-f", board_file, "hand", "--picker", "Ann",
                 "--partner", "Bob", "--points", "70"],
                check=True, capture_output=True,
            )  # fmt: skip
            await asyncio.wait_for(task, 120)

        asyncio.run(main())
    assert seen[0]["state"]["hands"] == 0  # the state on connecting
    assert seen[-1]["state"]["totals"]["Ann"] == 2
    assert seen[-1]["changes"] == ["hand 1: Ann + Bob 70"]


def test_load_200_clients_see_every_one_of_100_hands(board_file: Path) -> None:
    clients, hands = 200, 100
    session = Session(board_file)
    from scorepad.scoring import PickerHand

    with served(board_file) as url:
        seen: list[list[Any]] = [[] for _ in range(clients)]

        async def main() -> None:
            ready = asyncio.Semaphore(0)
            stop = asyncio.Event()
            tasks = [
                asyncio.create_task(_listen(url, seen[i], ready, hands, stop))
                for i in range(clients)
            ]
            for _ in range(clients):  # (each one listening, or the first failure raised)
                acquired = asyncio.ensure_future(ready.acquire())
                await asyncio.wait([acquired, *tasks], timeout=300, return_when="FIRST_COMPLETED")
                for task in tasks:
                    if task.done() and task.exception() is not None:
                        raise task.exception()  # type: ignore[misc]
                assert acquired.done(), "no client was taken in for 300 s"

            def record() -> None:
                for n in range(hands):
                    session.record(PickerHand((), "Ann", 70 if n % 2 else 40, partners=("Bob",)))

            await asyncio.to_thread(record)
            try:
                await asyncio.wait_for(asyncio.gather(*tasks), 600)
            finally:
                stop.set()

        asyncio.run(main())
    final = dict(Session(board_file).night().totals)
    for events in seen:
        changes = [c for e in events for c in e["changes"]]
        assert changes == [f"hand {n}: Ann + Bob {70 if (n - 1) % 2 else 40}" for n in
                           range(1, hands + 1)]  # fmt: skip
        assert events[-1]["state"]["hands"] == hands
        assert events[-1]["state"]["totals"] == final
        versions = [e["version"] for e in events]
        assert versions == sorted(set(versions))  # in order, none twice


# --- in a real browser --------------------------------------------------------------------------


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def test_the_page_updates_itself_in_headless_chromium(board_file: Path) -> None:
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (.ci/run installs it)"
    )
    chromium = _chromium()
    if chromium is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium; .ci/run does)")
    with (
        served(board_file, allow_entry=True, token=TOKEN) as url,
        playwright.sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{url}/?token={TOKEN}")
            page.wait_for_selector("#live.on", timeout=60_000)
            assert "token" not in page.url  # the one-time link leaves the address bar
            assert page.locator("#standings td.n").first.inner_text() == "0"
            # another process records a hand; the page shows it without a reload
            subprocess.run(
                [sys.executable, "-m", "scorepad", "-f", board_file, "hand", "--picker", "Cy",
                 "--alone", "--points", "95"],
                check=True, capture_output=True,
            )  # fmt: skip
            page.wait_for_function(
                "document.querySelector('#standings td.n').textContent === '+8'", timeout=60_000
            )
            assert page.locator("#standings tr").first.inner_text().split() == ["1", "Cy", "+8"]
            assert "Cy alone 95, schneider" in page.locator("#recent").inner_text()
            # and a hand entered on the page lands in the file
            page.select_option("#picker", "Ann")
            page.check("#partners input[value=Bob]")
            page.fill("#points", "70")
            page.click("button[type=submit]")
            page.wait_for_function(
                "document.querySelector('#entry-message').textContent.startsWith('Recorded')",
                timeout=60_000,
            )
            page.wait_for_function(
                "document.querySelector('#recent tbody tr td.played').textContent"
                " === 'Ann + Bob 70'",
                timeout=60_000,
            )
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "board.png"), full_page=True)
        finally:
            browser.close()
    assert (ARTIFACTS / "board.png").stat().st_size > 10_000
    totals = Session(board_file).night().totals
    assert totals["Cy"] == 8 - 1 and totals["Ann"] == -2 + 2


def test_a_tv_shows_the_last_hands_beside_the_standings_above_the_fold(tmp_path: Path) -> None:
    """Issue 40, item 11, in a real browser: at 1920x1080 the last hands stand beside the
    standings, their top rows above the fold; on a phone (390x844) they come below, one column."""
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (.ci/run installs it)"
    )
    chromium = _chromium()
    if chromium is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium; .ci/run does)")
    night = tmp_path / "friday.csv"  # (40 hands: the last hands fill their card)
    shutil.copy(Path(__file__).parent.parent / "sample_sessions/standard-friday.csv", night)
    with served(night) as url, playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            boxes = {}
            for screen in ({"width": 1920, "height": 1080}, {"width": 390, "height": 844}):
                page = browser.new_page(viewport=screen)
                page.goto(url)
                page.wait_for_selector("#recent tbody tr td.played")
                boxes[screen["width"]] = {
                    card: page.locator(card).first.bounding_box()
                    for card in ("#standings-card", "#recent-card", "#recent tbody tr")
                }
                page.screenshot(path=str(tmp_path / f"board-{screen['width']}.png"))
                page.close()
        finally:
            browser.close()
    tv, phone = boxes[1920], boxes[390]
    assert all(box is not None for box in [*tv.values(), *phone.values()])
    standings, recent, first_hand = (
        tv["#standings-card"],
        tv["#recent-card"],
        tv["#recent tbody tr"],
    )
    assert standings and recent and first_hand
    assert recent["x"] >= standings["x"] + standings["width"]  # beside, to the right
    assert recent["y"] < standings["y"] + standings["height"]  # side by side, not below
    assert first_hand["y"] + first_hand["height"] <= 1080  # above the fold
    standings, recent = phone["#standings-card"], phone["#recent-card"]
    assert standings and recent
    assert recent["y"] >= standings["y"] + standings["height"]  # one column: below
    assert abs(recent["x"] - standings["x"]) < 1


def test_a_schafkopf_board_shows_no_doubler_line_in_a_browser(tmp_path: Path) -> None:
    """Issue 40, item 13: the board of a Schafkopf night says nothing of doublers."""
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (.ci/run installs it)"
    )
    chromium = _chromium()
    if chromium is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium; .ci/run does)")
    shown = {}
    for sample in ("bavarian-evening.csv", "standard-friday.csv"):
        night = tmp_path / sample
        shutil.copy(Path(__file__).parent.parent / "sample_sessions" / sample, night)
        with served(night) as url, playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                page = browser.new_page()
                page.goto(url)
                page.wait_for_selector("#next b")
                shown[sample] = page.locator("#pending").is_visible(), page.inner_text("#next-card")
            finally:
                browser.close()
    assert shown["bavarian-evening.csv"][0] is False
    assert "doubler" not in shown["bavarian-evening.csv"][1].lower()
    assert shown["standard-friday.csv"][0] is True
    assert "No doublers pending" in shown["standard-friday.csv"][1]


def test_a_hand_the_table_scores_itself_is_entered_on_the_page(board_file: Path) -> None:
    """Issue 43, item 4: the entry form offers a hand the table scores itself, a number for
    each player; it lands in the file as `hand --scores` writes it."""
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (.ci/run installs it)"
    )
    chromium = _chromium()
    if chromium is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium; .ci/run does)")
    scores = {"Ann": 4, "Bob": -1, "Cy": -1, "Dee": -1, "Ed": -1}
    with (
        served(board_file, allow_entry=True, token=TOKEN) as url,
        playwright.sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(f"{url}/?token={TOKEN}")
            page.wait_for_selector("#live.on")
            assert not page.locator("#scores-fields").is_visible()
            page.select_option("#kind", "manual")
            assert page.locator("#scores-fields").is_visible()
            assert not page.locator("#picker-fields").is_visible()
            for name, points in scores.items():
                page.fill(f"#scores input[name={name}]", str(points))
            page.click("button[type=submit]")
            page.wait_for_function(
                "document.querySelector('#entry-message').textContent.startsWith('Recorded')"
            )
        finally:
            browser.close()
    hands = json.loads(
        subprocess.run(
            [sys.executable, "-m", "scorepad", "-f", board_file, "sheet", "--format", "json"],
            check=True, capture_output=True, text=True,
        ).stdout
    )["hands"]  # fmt: skip
    assert [h["kind"] for h in hands] == ["manual"]
    assert dict(Session(board_file).night().totals) == scores


def test_the_called_suit_is_entered_on_the_page(board_file: Path) -> None:
    """Issue 40, item 3, in a browser: the form offers the call with a partner, hides it while
    'alone' is ticked, and the hand lands with the suit called."""
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (.ci/run installs it)"
    )
    chromium = _chromium()
    if chromium is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium; .ci/run does)")
    with (
        served(board_file, allow_entry=True, token=TOKEN) as url,
        playwright.sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(f"{url}/?token={TOKEN}")
            page.wait_for_selector("#live.on")
            page.select_option("#picker", "Ann")
            assert page.locator("#called").is_visible()
            page.check("#alone")
            hidden_alone = not page.locator("#called").is_visible()
            page.uncheck("#alone")
            page.check("#partners input[value=Bob]")
            page.select_option("#called", "clubs")
            page.fill("#points", "70")
            page.click("button[type=submit]")
            page.wait_for_function(
                "document.querySelector('#entry-message').textContent.startsWith('Recorded')"
            )
        finally:
            browser.close()
    assert hidden_alone
    hands = json.loads(
        subprocess.run(
            [sys.executable, "-m", "scorepad", "-f", board_file, "sheet", "--format", "json"],
            check=True, capture_output=True, text=True,
        ).stdout
    )["hands"]  # fmt: skip
    assert [(h["picker"], h["partners"], h["called"]) for h in hands] == [("Ann", ["Bob"], "clubs")]


def test_a_file_that_goes_away_is_an_error_on_the_board_not_a_crash(
    client: TestClient, board_file: Path
) -> None:
    saved = board_file.read_bytes()
    board_file.unlink()
    reply = client.get("/api/state")
    assert reply.status_code == 500 and "no such" in reply.json()["error"].lower()
    board_file.write_bytes(saved)
    assert client.get("/api/state").status_code == 200


# --- under load and attack ----------------------------------------------------------------------


def _post(
    url: str,
    body: object,
    key: str | None = None,
    headers: dict[str, str] = AUTH,
    timeout: float = 30,
) -> httpx.Response:
    extra = {"idempotency-key": key} if key else {}
    return httpx.post(url + "/api/hands", json=body, headers={**headers, **extra}, timeout=timeout)


def test_concurrent_posts_and_reads_get_no_5xx_and_each_201_is_in_the_file_once(
    board_file: Path,
) -> None:
    """Requests used to share one Session, whose descriptor one thread closed under another's
    read: 500s for hands that were recorded, which the table then entered again."""
    posters, each = 6, 12
    with served(board_file, allow_entry=True, token=TOKEN) as url:
        answers, reads = [], []

        def poster(n: int) -> None:
            for i in range(each):
                points = 40 + (n * each + i) % 50
                body = {"picker": "Ann", "partners": ["Bob"], "points": points, "note": f"{n}-{i}"}
                reply = _post(url, body, key=f"k-{n}-{i}")
                answers.append((reply.status_code, reply.json()))

        def reader() -> None:
            for _ in range(each * 2):
                reads.append(httpx.get(url + "/api/state", timeout=30).status_code)

        threads = [threading.Thread(target=poster, args=(n,)) for n in range(posters)]
        threads += [threading.Thread(target=reader) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert [status for status, _ in answers] == [201] * posters * each, answers
    assert set(reads) == {200}
    notes = [row["note"] for row in _hands_json(board_file)]
    assert sorted(notes) == sorted(f"{n}-{i}" for n in range(posters) for i in range(each))
    numbers = sorted(body["hand"] for _, body in answers)
    assert numbers == list(range(1, posters * each + 1))  # each answer names its own hand


def _hands_json(path: Path) -> list[Any]:
    from click.testing import CliRunner

    from scorepad.cli import cli

    out = CliRunner().invoke(cli, ["-f", str(path), "sheet", "--format", "json"]).stdout
    return [h for h in json.loads(out)["hands"] if not h.get("void")]


def test_a_repeated_idempotency_key_records_once(client: TestClient, board_file: Path) -> None:
    body = {"picker": "Ann", "partners": ["Bob"], "points": 70}
    key = {"idempotency-key": "entry-1"}
    first = client.post("/api/hands", json=body, headers={**AUTH, **key})
    again = client.post("/api/hands", json=body, headers={**AUTH, **key})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert client.get("/api/state").json()["hands"] == 1
    other = client.post("/api/hands", json={**body, "points": 80}, headers={**AUTH, **key})
    assert other.status_code == 422 and "another entry" in other.json()["error"]
    # a new key is a new entry; an entry that was refused may be sent again with its key
    assert client.post("/api/hands", json=body, headers=AUTH).status_code == 201
    bad = {"picker": "Zed", "points": 70}
    for _ in range(2):
        reply = client.post("/api/hands", json=bad, headers={**AUTH, "idempotency-key": "e-2"})
        assert reply.status_code == 422 and "unknown player" in reply.json()["error"]
    assert client.get("/api/state").json()["hands"] == 2
    for spoilt in ("", "x" * 201, "tab\there"):
        reply = client.post("/api/hands", json=body, headers={**AUTH, "idempotency-key": spoilt})
        assert reply.status_code == 400 and "idempotency-key" in reply.json()["error"]
    assert client.get("/api/state").json()["hands"] == 2


def test_copies_of_one_entry_sent_at_once_record_once(board_file: Path) -> None:
    body = {"picker": "Cy", "alone": True, "points": 95}
    with served(board_file, allow_entry=True, token=TOKEN) as url:
        answers = []
        threads = [
            threading.Thread(target=lambda: answers.append(_post(url, body, key="same")))
            for _ in range(8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert [a.status_code for a in answers] == [201] * 8
    assert {a.json()["hand"] for a in answers} == {1}
    assert len(_hands_json(board_file)) == 1


def test_a_token_that_is_not_ascii_is_forbidden_not_a_crash(
    client: TestClient, board_file: Path
) -> None:
    before = board_file.read_bytes()
    for token in ("tok-é".encode(), "tok-é".encode("latin-1"), b"\xff" * 20):
        reply = client.post(
            "/api/hands", json={"picker": "Ann", "alone": True, "points": 70},
            headers={"authorization": b"Bearer " + token},
        )  # fmt: skip
        assert reply.status_code == 403 and "token" in reply.json()["error"]
    assert board_file.read_bytes() == before


def test_the_board_answers_only_to_its_own_host_names(board_file: Path) -> None:
    board = Board(board_file, allow_entry=True, token=TOKEN, hosts=["scorepad.lan"])
    with TestClient(create_app(board), base_url="http://evil.example") as evil:
        for method, where in (("GET", "/"), ("GET", "/api/state"), ("GET", "/events")):
            reply = evil.request(method, where)
            assert reply.status_code == 400 and "Ann" not in reply.text, where
        before = board_file.read_bytes()
        reply = evil.post("/api/hands", json={"picker": "Ann", "alone": True, "points": 70},
                          headers=AUTH)  # fmt: skip
        assert reply.status_code == 400 and board_file.read_bytes() == before
    for name in ("http://localhost", "http://127.0.0.1:8765", "http://[::1]:8765",
                 "http://scorepad.lan", "http://SCOREPAD.lan:80"):  # fmt: skip
        with TestClient(create_app(board), base_url=name) as good:
            assert good.get("/api/state").status_code == 200, name


def test_serve_checks_its_host_names(fails: Fails, board_file: Path) -> None:
    assert "--allow-host" in fails("-f", board_file, "serve", "--allow-host", "a b", code=2)
    assert "--allow-host" in fails("-f", board_file, "serve", "--allow-host", "x/y", code=2)


def _slow(url: str, count: int, first: bytes = b"GET / HTTP/1.1\r\nHo") -> list[socket.socket]:
    """Open `count` connections that each send the start of a request and nothing more."""
    host, port = url.removeprefix("http://").split(":")
    socks = []
    for _ in range(count):
        s = socket.create_connection((host, int(port)), timeout=5)
        s.sendall(first)
        socks.append(s)
    return socks


def _closed(sock: socket.socket, within: float) -> bool:
    """Whether the board closed the connection (within `within` seconds)."""
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_slow_clients_cannot_keep_the_board_from_answering(
    board_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scorepad.web.app as app

    monkeypatch.setattr(app, "MAX_CONNECTIONS", 24)
    monkeypatch.setattr(app, "HEAD_TIMEOUT", 1.0)
    with served(board_file) as url:
        socks = _slow(url, 60)  # more than the board holds: the oldest are let go
        try:
            for _ in range(5):
                assert httpx.get(url + "/api/state", timeout=60).status_code == 200
            # every slow one is cut off after HEAD_TIMEOUT (waited for, however long it takes)
            assert all(_closed(s, 60) for s in socks)
        finally:
            for s in socks:
                s.close()


def test_a_burst_of_slow_clients_is_cut_to_the_most_connections_at_once(
    board_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the most connections, a new one closes the one that has waited longest for its
    head, however fast they come (uvicorn's own `limit_concurrency` closes none: it answers
    503 to every request while they fill the count)."""
    import scorepad.web.app as app

    monkeypatch.setattr(app, "MAX_CONNECTIONS", 24)
    monkeypatch.setattr(app, "HEAD_TIMEOUT", 60.0)  # (only the most connections cuts them)
    with served(board_file) as url:
        socks = _slow(url, 60)
        try:
            assert all(_closed(s, 60) for s in socks[:36])  # (the oldest: 60 - 24)
            assert httpx.get(url + "/api/state", timeout=60).status_code == 200
        finally:
            for s in socks:
                s.close()


def test_a_head_sent_a_byte_at_a_time_is_cut_off_after_the_head_timeout(
    board_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each byte would start uvicorn's keep-alive timeout again: a request's head has a
    deadline of its own; and so has a connection that sends nothing at all."""
    import scorepad.web.app as app

    monkeypatch.setattr(app, "HEAD_TIMEOUT", 1.0)
    with served(board_file) as url:
        (trickle,) = _slow(url, 1, b"G")
        (silent,) = _slow(url, 1, b"")
        try:
            cut = False
            # (far longer than HEAD_TIMEOUT to send: it is cut off on the way, however busy)
            for byte in b"ET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"x" * 2000:
                try:
                    trickle.sendall(bytes([byte]))
                except OSError:
                    cut = True
                    break
                if _closed(trickle, 0.1):
                    cut = True
                    break
            assert cut
            assert _closed(silent, 60)
        finally:
            trickle.close()
            silent.close()


def test_an_aborted_upload_is_not_an_error_in_the_log(board_file: Path) -> None:
    import logging

    seen = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    keep = Keep(level=logging.WARNING)
    loggers = [logging.getLogger(n) for n in ("uvicorn", "uvicorn.error", "asyncio", "")]
    for logger in loggers:
        logger.addHandler(keep)
    try:
        with served(board_file, allow_entry=True, token=TOKEN) as url:
            for _ in range(3):
                head = (
                    f"POST /api/hands HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}"
                    '\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"pi'
                )
                (s,) = _slow(url, 1, head.encode())
                s.close()
            _settled(url)  # (each aborted upload dealt with, whatever it logged)
            assert httpx.get(url + "/api/state", timeout=60).status_code == 200
    finally:
        for logger in loggers:
            logger.removeHandler(keep)
    assert [r.getMessage() for r in seen if r.levelno >= logging.ERROR] == []


def test_the_log_is_bounded() -> None:
    import logging

    from scorepad.web.app import LOG_REPEATS, _FewRepeats

    flood = _FewRepeats()
    record = logging.LogRecord("asyncio", logging.ERROR, "", 0, "accept failed", (), None)
    passed = sum(flood.filter(record) for _ in range(100_000))
    assert passed == LOG_REPEATS
    other = logging.LogRecord("asyncio", logging.ERROR, "", 0, "something else", (), None)
    assert flood.filter(other)


def test_eight_processes_and_the_board_posting_lose_and_double_nothing(
    run: Run, tmp_path: Path
) -> None:
    """Round two's concurrency test (eight processes recording at once) with the board taking
    entries from two clients at the same time, one of them retrying each entry once."""
    from test_hardening import new_session, start_loaders

    board_file = tmp_path / "night.csv"
    new_session(run, board_file)

    names = ["Ann", "Bob", "Cy", "Dee", "Ed", "Ann", "Bob", "Cy"]
    go = tmp_path / "go"
    with served(board_file, allow_entry=True, token=TOKEN) as url:
        workers = start_loaders(board_file, go, names)
        answers = []
        going = threading.Event()

        def poster(n: int) -> None:
            going.wait()
            for i in range(20):
                body = {"picker": "Dee", "partners": ["Ed"], "points": 61, "note": f"b{n}-{i}"}
                for _ in range(1 + n):  # the second client sends every entry twice
                    answers.append(_post(url, body, key=f"b{n}-{i}").status_code)

        threads = [threading.Thread(target=poster, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        go.touch()  # (the eight processes and the two clients start together)
        going.set()
        for thread in threads:
            thread.join()
        for worker in workers:
            _, err = worker.communicate(timeout=300)
            assert worker.returncode == 0, err.decode()
    assert answers == [201] * 60
    hands = _hands_json(board_file)
    assert len(hands) == 8 * 25 + 40
    assert sorted(h["note"] for h in hands if h["note"]) == sorted(
        f"b{n}-{i}" for n in range(2) for i in range(20)
    )
    assert [h["hand"] for h in hands] == list(range(1, 241))
    assert Session(board_file).check(memo=memo_of(False))[1] == []


def test_sigkill_of_writers_beside_the_board_posting_loses_no_reported_hand(
    run: Run, tmp_path: Path
) -> None:
    """Round two's kill test with the board taking entries all along: every hand either
    reported (an `ok` line, a 201) is in the file once; the board never answers 5xx."""
    import random

    from test_hardening import hand_numbers, kill_a_writer, new_session

    path = tmp_path / "night.csv"
    new_session(run, path)
    rng = random.Random(11)
    confirmed: set[int] = set()
    with served(path, allow_entry=True, token=TOKEN) as url:
        answers, stop = [], threading.Event()

        def poster() -> None:
            i = 0
            while not stop.is_set():
                i += 1
                body = {"picker": "Dee", "partners": ["Ed"], "points": 61, "note": f"p{i}"}
                reply = _post(url, body, key=f"p{i}")
                answers.append((reply.status_code, f"p{i}"))

        thread = threading.Thread(target=poster)
        thread.start()
        try:
            for _ in range(4):
                confirmed |= kill_a_writer(run, path, rng.randint(1, 6))
        finally:
            stop.set()
            thread.join()
    assert run("-f", path, "verify").stdout == ""
    assert all(status < 500 for status, _ in answers), answers
    recorded = [note for status, note in answers if status == 201]
    notes = [h["note"] for h in _hands_json(path) if h["note"]]
    assert recorded and sorted(notes) == sorted(recorded)
    numbers = hand_numbers(path)
    assert confirmed <= set(numbers) and numbers == list(range(1, len(numbers) + 1))
