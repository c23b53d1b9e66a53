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
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed")

import httpx
import uvicorn
from starlette.testclient import TestClient

from scorepad.serve import MAX_BODY, Board, create_app
from scorepad.session import Session

FIVE = "Ann,Bob,Cy,Dee,Ed"
TOKEN = "table-token-123"
AUTH = {"authorization": f"Bearer {TOKEN}"}
ARTIFACTS = Path(os.environ.get("SCOREPAD_ARTIFACTS", Path(__file__).parent / "artifacts"))


@pytest.fixture
def board_file(run, tmp_path):
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", FIVE, "--set", "all_pass=doubler").exit_code == 0
    return path


@pytest.fixture
def client(board_file):
    with TestClient(create_app(Board(board_file, allow_entry=True, token=TOKEN, poll=0.05))) as c:
        yield c


# --- in process ---------------------------------------------------------------------------------


def test_the_state_has_the_standings_keys_and_more(client, board_file, run):
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
    }
    assert state["pending"] == 0 and state["rules_in_force"]["summary"].startswith("standard")
    assert state["recent"][0]["played"] == "Ann + Bob 70"
    assert state["series"]["totals"]["Ann"] == [0, 2]


def test_the_page_needs_nothing_from_elsewhere(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "http://" not in page.text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page.text and "<link" not in page.text
    assert '"entry": true' in page.text


def test_entry_records_a_hand_with_the_token(client, board_file, run):
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
def test_entry_without_the_token_is_forbidden(client, board_file, headers):
    before = board_file.read_bytes()
    reply = client.post(
        "/api/hands", json={"picker": "Ann", "alone": True, "points": 70}, headers=headers
    )
    assert reply.status_code == 403 and "token" in reply.json()["error"]
    assert board_file.read_bytes() == before


def test_entry_is_off_without_allow_entry(board_file):
    with TestClient(create_app(Board(board_file, token=TOKEN))) as c:
        reply = c.post("/api/hands", json={"picker": "Ann", "points": 70}, headers=AUTH)
        assert reply.status_code == 403 and "--allow-entry" in reply.json()["error"]
        assert '"entry": false' in c.get("/").text


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"picker": "Zed", "points": 70}, 422, "--picker Zed: unknown player"),
        ({"picker": "Ann", "partners": ["Bob"], "points": 170}, 422, "card points run from 0"),
        ({"picker": "Ann", "points": 70}, 422, "name the --partner, or say --alone"),
        ({"pickr": "Ann"}, 400, "unknown field 'pickr'"),
        ({"picker": "Ann", "points": "70"}, 400, "points: a whole number expected"),
        ({"picker": "Ann", "points": True}, 400, "points: a whole number expected"),
        ({"partners": "Bob"}, 400, "partners: a list of names expected"),
        ({"leaster_points": {"Ann": "x"}}, 400, "an object of name to whole number"),
        ({"points": 10**12}, 400, "out of range"),
        ({"picker": "Ann", "alone": True, "points": 70, "note": "=1+1"}, 422, "formula"),
        ({"doubler": True, "picker": "Ann"}, 422, "a doubler has no other inputs"),
        ([1, 2], 400, "not a JSON object"),
    ],
)
def test_bad_entries_get_a_json_error_and_change_nothing(client, board_file, body, status, message):
    before = board_file.read_bytes()
    reply = client.post("/api/hands", json=body, headers=AUTH)
    assert reply.status_code == status and message in reply.json()["error"], reply.text
    assert board_file.read_bytes() == before
    assert client.get("/api/state").status_code == 200  # it keeps serving


def test_a_body_that_is_not_json_or_too_large_is_refused(client, board_file):
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


def test_a_broken_file_is_shown_as_an_error_and_the_board_keeps_serving(client, board_file):
    good = board_file.read_bytes()
    board_file.write_bytes(good + b"1,picker,,9,9,9,9,9\r\n")
    time.sleep(0.1)
    reply = client.get("/api/state")
    assert reply.status_code == 500 and "verify" in reply.json()["error"]
    board_file.write_bytes(good)
    assert client.get("/api/state").status_code == 200


def test_entry_from_the_page_and_the_terminal_at_once_both_land(client, board_file, run):
    results = []

    def terminal():
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


def test_serve_without_the_extra_says_which_to_install(fails, board_file, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # (an import of it fails)
    assert "pip install 'scorepad[serve]'" in fails("-f", board_file, "serve")


def test_serve_refuses_a_missing_file_and_a_bad_token(fails, tmp_path, board_file):
    assert "no such" in fails("-f", tmp_path / "none.csv", "serve").lower()
    assert "--token" in fails("-f", board_file, "serve", "--token", "short", code=2)


# --- on the loopback address --------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(path, **options):
    """The board on a free loopback port, in a thread; yields its base URL."""
    board = Board(path, poll=0.05, **options)
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(board), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the board did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


async def _listen(url, seen, ready, want, stop):
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


def test_every_change_reaches_every_client_as_an_event(board_file):
    with served(board_file) as url:
        seen = []

        async def main():
            ready = asyncio.Semaphore(0)
            stop = asyncio.Event()
            task = asyncio.create_task(_listen(url, seen, ready, 1, stop))
            await ready.acquire()
            subprocess.run(
                [sys.executable, "-m", "scorepad", "-f", board_file, "hand", "--picker", "Ann",
                 "--partner", "Bob", "--points", "70"],
                check=True, capture_output=True,
            )  # fmt: skip
            await asyncio.wait_for(task, 10)

        asyncio.run(main())
    assert seen[0]["state"]["hands"] == 0  # the state on connecting
    assert seen[-1]["state"]["totals"]["Ann"] == 2
    assert seen[-1]["changes"] == ["hand 1: Ann + Bob 70"]


def test_load_200_clients_see_every_one_of_100_hands(board_file):
    clients, hands = 200, 100
    session = Session(board_file)
    from scorepad.scoring import PickerHand

    with served(board_file) as url:
        seen = [[] for _ in range(clients)]

        async def main():
            ready = asyncio.Semaphore(0)
            stop = asyncio.Event()
            tasks = [
                asyncio.create_task(_listen(url, seen[i], ready, hands, stop))
                for i in range(clients)
            ]
            for _ in range(clients):
                await asyncio.wait_for(ready.acquire(), 30)

            def record():
                for n in range(hands):
                    session.record(PickerHand((), "Ann", 70 if n % 2 else 40, partners=("Bob",)))

            await asyncio.to_thread(record)
            try:
                await asyncio.wait_for(asyncio.gather(*tasks), 120)
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


def test_the_page_updates_itself_in_headless_chromium(board_file):
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
            page.wait_for_selector("#live.on", timeout=10_000)
            assert "token" not in page.url  # the one-time link leaves the address bar
            assert page.locator("#standings td.n").first.inner_text() == "0"
            # another process records a hand; the page shows it without a reload
            subprocess.run(
                [sys.executable, "-m", "scorepad", "-f", board_file, "hand", "--picker", "Cy",
                 "--alone", "--points", "95"],
                check=True, capture_output=True,
            )  # fmt: skip
            page.wait_for_function(
                "document.querySelector('#standings td.n').textContent === '+8'", timeout=10_000
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
                timeout=10_000,
            )
            page.wait_for_function(
                "document.querySelector('#recent tbody tr td.played').textContent"
                " === 'Ann + Bob 70'",
                timeout=10_000,
            )
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "board.png"), full_page=True)
        finally:
            browser.close()
    assert (ARTIFACTS / "board.png").stat().st_size > 10_000
    totals = Session(board_file).night().totals
    assert totals["Cy"] == 8 - 1 and totals["Ann"] == -2 + 2


def test_a_file_that_goes_away_is_an_error_on_the_board_not_a_crash(client, board_file):
    saved = board_file.read_bytes()
    board_file.unlink()
    reply = client.get("/api/state")
    assert reply.status_code == 500 and "no such" in reply.json()["error"].lower()
    board_file.write_bytes(saved)
    assert client.get("/api/state").status_code == 200
