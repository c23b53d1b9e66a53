"""The board's hand view (issue 41, item 5): a hand of the last hands opened, and the open-card
analysis of a hand `replay --record` recorded, found by its hand file's digest in the board's
folders (`serve --hands`), worked out one at a time off the event loop and kept by digest."""

import asyncio
import json
import shutil
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
from test_serve import LOCAL, _chromium, _listen, serving

from scorepad.analysis import HandAnalysis, analyse
from scorepad.replay import HandFile
from scorepad.rules import Rules
from scorepad.web.analyses import MAX_HAND_FILE, RETRY_AFTER, HandFiles
from scorepad.web.app import Board, create_app

HANDS = Path(__file__).parent.parent / "sample_sessions" / "hands"
SAUSPIEL = "sauspiel-mistake.txt"  # (Hans's Herz-Zehn in trick 4; about a second to analyse)
PLAYERS = "Resi,Hans,Gustl,Kathi"


def _ok(run: Run, *args: object) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def table(run: Run, tmp_path: Path) -> Path:
    """A Schafkopf table: hand 1 the disputed Sauspiel, replayed from `hands/` beside the
    session and recorded; hand 2 entered by hand."""
    path = tmp_path / "night.csv"
    (tmp_path / "hands").mkdir()
    shutil.copy(HANDS / SAUSPIEL, tmp_path / "hands" / SAUSPIEL)
    _ok(run, "-f", path, "new", "--players", PLAYERS, "--rules", "schafkopf")
    _ok(run, "-f", path, "replay", tmp_path / "hands" / SAUSPIEL, "--record", "--note", "disputed")
    _ok(run, "-f", path, "hand", "--picker", "Resi", "--partner", "Kathi", "--points", "70")
    return path


def _client(board: Board) -> TestClient:
    return TestClient(create_app(board), base_url=LOCAL)


class Counted:
    """`analyse`, counting its calls; with `hold`, each call waits until it is let go (the
    analysis running, for as long as a test needs)."""

    def __init__(self, hold: bool = False) -> None:
        self.calls = 0
        self.started = threading.Event()
        self.release = threading.Event()
        if not hold:
            self.release.set()

    def __call__(self, hand: HandFile, rules: Rules) -> HandAnalysis:
        self.calls += 1
        self.started.set()
        assert self.release.wait(300), "the test never let the analysis go"
        return analyse(hand, rules)


@pytest.fixture
def counted(table: Path) -> Iterator[tuple[TestClient, Counted]]:
    board = Board(table, poll=0.05)
    counting = board.analyses.run = Counted()
    with _client(board) as client:
        yield client, counting


# --- the API ------------------------------------------------------------------------------------


def test_a_replayed_hand_is_found_and_analysed_as_analyze_does(
    counted: tuple[TestClient, Counted], table: Path, run: Run
) -> None:
    client, counting = counted
    found = table.parent / "hands" / SAUSPIEL
    about = client.get("/api/hands/1")
    assert about.status_code == 200
    assert about.json() == {
        "hand": 1,
        "replayed": True,
        "file": str(found),
        "analysis": True,
        "analysed": False,
        "reason": None,
    }
    reply = client.get("/api/hands/1/analysis")
    assert reply.status_code == 200, reply.text
    data = reply.json()
    # the object of one hand of `analyze --format json`, keys and values, and its text
    entry = json.loads(_ok(run, "analyze", found, "--format", "json"))["hands"][0]
    assert {k: data[k] for k in entry} == entry
    assert data["mistakes"] == [{"trick": 4, "player": "Hans", "card": "10H"}]
    assert data["text"] == _ok(run, "analyze", found).splitlines()
    assert counting.calls == 1


def test_a_second_view_is_kept_and_answered_without_analysing_again(
    counted: tuple[TestClient, Counted],
) -> None:
    client, counting = counted
    first = client.get("/api/hands/1/analysis")
    assert first.status_code == 200
    assert client.get("/api/hands/1").json()["analysed"] is True
    second = client.get("/api/hands/1/analysis")
    assert second.json() == first.json()
    assert counting.calls == 1  # kept by the hand file's digest
    german = client.get("/api/hands/1/analysis?lang=de").json()
    assert counting.calls == 1  # (each language words the one analysis kept)
    assert german["mistakes"] == first.json()["mistakes"]
    assert german["text"][1] == (
        "Stich 4, Hans: Herz-Zehn machte für die Spielerpartei ein verlorenes Spiel statt ein "
        "gewonnenes Spiel; Herz-Acht, Herz-Ober oder Gras-Ober hätte das gewonnene Spiel gehalten"
    )


def test_a_hand_not_replayed_is_not_analysed_and_says_why(
    counted: tuple[TestClient, Counted],
) -> None:
    client, counting = counted
    about = client.get("/api/hands/2").json()
    assert about["replayed"] is False and about["analysis"] is False and about["file"] is None
    message = (
        "hand 2 was not recorded from a hand file (replay --record): there are no cards to analyse"
    )
    assert about["reason"] == message
    reply = client.get("/api/hands/2/analysis")
    assert reply.status_code == 404 and reply.json() == {"error": message}
    german = client.get("/api/hands/2/analysis?lang=de").json()["error"]
    assert german.startswith("Spiel 2 ") and german != message
    for missing in ("/api/hands/3", "/api/hands/3/analysis", "/api/hands/0/analysis"):
        reply = client.get(missing)
        assert reply.status_code == 404, missing
        assert reply.json()["error"].startswith("there is no hand ")
    assert counting.calls == 0


def test_a_hand_file_not_found_is_said_so(table: Path) -> None:
    # the file's cards changed after it was recorded: its digest is another hand's
    played = table.parent / "hands" / SAUSPIEL
    played.write_text(played.read_text().replace("trick: AS 7C 9D JC", "trick: AS 9D 7C JC"))
    with _client(Board(table, poll=0.05)) as client:
        about = client.get("/api/hands/1").json()
        reply = client.get("/api/hands/1/analysis")
    message = "the hand file of hand 1 is not in the board's folders (serve --hands)"
    assert about["replayed"] is True and about["analysis"] is False
    assert about["file"] is None and about["reason"] == message
    assert reply.status_code == 404 and reply.json() == {"error": message}


def test_serve_hands_names_the_folders_and_unreadable_files_are_passed_by(
    table: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a-garbage.txt").write_bytes(b"\xff\xfe not a hand file \x00")
    (elsewhere / "b-not-a-hand.txt").write_text("rules: standard\nplayers: Ann\n")
    (elsewhere / "c-too-large.txt").write_text("# " + "x" * MAX_HAND_FILE)
    (elsewhere / "d-a-folder.txt").mkdir()
    copied = elsewhere / "e-the-hand.txt"
    # comments and spacing do not count: the digest is of what the file says
    copied.write_text("# copied\n" + (HANDS / SAUSPIEL).read_text().replace(": ", ":   "))
    shutil.rmtree(table.parent / "hands")
    with _client(Board(table, poll=0.05)) as client:  # (the default folders: not found now)
        assert client.get("/api/hands/1").json()["file"] is None
    with _client(Board(table, poll=0.05, hands=[tmp_path / "none", elsewhere])) as client:
        assert client.get("/api/hands/1").json()["file"] == str(copied)
        reply = client.get("/api/hands/1/analysis")
    assert reply.status_code == 200 and reply.json()["file"] == str(copied)


def test_a_replayed_ramsch_is_analysed_each_player_for_themself(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "ramsch.csv"
    shutil.copy(HANDS / "ramsch-mistake.txt", tmp_path / "ramsch.txt")
    _ok(run, "-f", path, "new", "--players", "Anni,Bertl,Sepp,Vroni", "--rules", "bavarian")
    _ok(run, "-f", path, "replay", tmp_path / "ramsch.txt", "--record")
    printed = _ok(run, "analyze", tmp_path / "ramsch.txt").splitlines()
    with _client(Board(path, poll=0.05)) as client:
        about = client.get("/api/hands/1").json()
        reply = client.get("/api/hands/1/analysis")
    assert about["analysis"] is True and about["reason"] is None
    assert reply.status_code == 200
    body = reply.json()
    assert body["game"] == "ramsch" and body["declarers"] == []
    assert body["start"]["Anni"] == {"outcome": "durchmarsch", "points": 120}
    assert body["text"] == printed


def test_one_analysis_at_a_time_and_the_board_keeps_serving_meanwhile(
    table: Path, run: Run
) -> None:
    board = Board(table, poll=0.05)
    held = board.analyses.run = Counted(hold=True)
    with serving(board) as url, httpx.Client(base_url=url, timeout=300) as client:
        first: dict[str, Any] = {}
        asking = threading.Thread(
            target=lambda: first.update(reply=client.get("/api/hands/1/analysis"))
        )
        asking.start()
        try:
            assert held.started.wait(300), "the analysis never started"
            # a second analysis while the first runs: refused at once, with when to ask again
            busy = client.get("/api/hands/1/analysis")
            assert busy.status_code == 429
            assert busy.headers["retry-after"] == str(RETRY_AFTER)
            assert busy.json()["error"] == (
                f"another analysis is running: ask again in {RETRY_AFTER} s"
            )
            # the board goes on: its state, its page, and the event of a hand recorded now
            assert client.get("/api/state").json()["hands"] == 2
            assert client.get("/").status_code == 200
            seen: list[Any] = []

            async def listen() -> None:
                ready, stop = asyncio.Semaphore(0), asyncio.Event()
                task = asyncio.create_task(_listen(url, seen, ready, 3, stop))
                await ready.acquire()
                await asyncio.to_thread(
                    _ok, run, "-f", table, "hand", "--picker", "Gustl", "--game", "solo",
                    "--points", "80",
                )  # fmt: skip
                await asyncio.wait_for(task, 300)

            asyncio.run(listen())
            assert seen[-1]["state"]["hands"] == 3 and held.calls == 1
        finally:
            held.release.set()
            asking.join(300)
        assert first["reply"].status_code == 200
        again = client.get("/api/hands/1/analysis")
    assert again.json() == first["reply"].json()
    assert held.calls == 1


def test_an_analysis_whose_request_went_away_is_kept(table: Path) -> None:
    board = Board(table, poll=0.05)
    held = board.analyses.run = Counted(hold=True)
    with serving(board) as url:
        with pytest.raises(httpx.ReadTimeout), httpx.Client(base_url=url) as client:
            client.get("/api/hands/1/analysis", timeout=httpx.Timeout(300, read=0.5))
        assert held.started.is_set()
        with httpx.Client(base_url=url, timeout=300) as client:
            assert client.get("/api/hands/1/analysis").status_code == 429
            held.release.set()
            # (asked again until the worker is free: the answer kept, not worked out again)
            deadline = time.monotonic() + 300
            while (reply := client.get("/api/hands/1/analysis")).status_code == 429:
                assert time.monotonic() < deadline, "the worker was never free again"
                time.sleep(0.02)
    assert reply.status_code == 200 and held.calls == 1


def test_hand_files_are_read_again_only_when_they_change(tmp_path: Path) -> None:
    from scorepad.replay import digest, parse_hand_file

    shutil.copy(HANDS / SAUSPIEL, tmp_path / SAUSPIEL)
    wanted = digest(parse_hand_file((HANDS / SAUSPIEL).read_text()))
    files = HandFiles([tmp_path])
    assert files.find(wanted) == tmp_path / SAUSPIEL
    assert files.find("0" * 64) is None
    (tmp_path / SAUSPIEL).write_text((HANDS / "sheepshead-mistake.txt").read_text())
    assert files.find(wanted) is None


def test_serve_hands_must_be_a_folder(fails: Fails, table: Path) -> None:
    line = fails("-f", table, "serve", "--hands", table.parent / "no-such-folder", code=2)
    assert "--hands" in line and "does not exist" in line
    line = fails("-f", table, "serve", "--hands", table, code=2)
    assert "--hands" in line and "is a file" in line


def test_serve_hands_completes_folders() -> None:
    from click.shell_completion import ShellComplete

    from scorepad.cli import cli

    found = ShellComplete(cli, {}, "scorepad", "_SCOREPAD_COMPLETE").get_completions(
        ["serve", "--hands"], ""
    )
    assert [item.type for item in found] == ["dir"]


# --- in a real browser --------------------------------------------------------------------------


def test_the_hand_view_offers_the_analysis_in_a_browser(table: Path) -> None:
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (.ci/run installs it)"
    )
    chromium = _chromium()
    if chromium is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium; .ci/run does)")
    with serving(Board(table, poll=0.05)) as url, playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("#live.on")
            # hand 2, entered by hand: its view, no analysis offered, and why
            page.get_by_role("button", name="Show hand 2").click()
            view = page.locator("#hand-view")
            assert view.is_visible()
            page.wait_for_function(
                "document.querySelector('#analysis-status').textContent.includes('not recorded')"
            )
            assert not page.locator("#analyse").is_visible()
            assert "Resi" in page.inner_text("#hand-facts")
            page.keyboard.press("Escape")
            assert not view.is_visible()
            # hand 1, replayed, from the keyboard: its facts, then the analysis on request
            page.get_by_role("button", name="Show hand 1").focus()
            page.keyboard.press("Enter")
            facts = page.inner_text("#hand-facts")
            for shown in ("Kathi", "Hans", "Gustl", "Eichel-Sau", "45", "disputed"):
                assert shown in facts, shown
            scores = page.inner_text("#hand-scores")
            assert "Hans\t-5" in scores and "Resi\t+5" in scores
            page.get_by_role("button", name="Analyse the cards").click()
            page.wait_for_selector("#analysis li", timeout=120_000)
            assert page.locator("#analysis li").all_inner_texts() == [
                "Trick 4: Hans's 10H turned a win into a loss for the declarer's side; "
                "8H, QH or QS kept the win"
            ]
            text = page.inner_text("#analysis")
            assert text.startswith("With every card open, the declarer's side could force a win")
            assert "Mistakes: Resi 0, Hans 1, Gustl 0, Kathi 0." in text
            # the hand amended while its view is open: the view shows it as it is now
            subprocess.run(
                [sys.executable, "-m", "scorepad", "-f", table, "amend", "1", "--points", "44",
                 "--note", "argued"],
                check=True, capture_output=True,
            )  # fmt: skip
            page.wait_for_function(
                "document.querySelector('#hand-facts').textContent.includes('argued')"
            )
            assert "44" in page.inner_text("#hand-facts")
            assert "Mistakes: Resi 0, Hans 1" in page.inner_text("#analysis")
            page.click("#hand-view .close button")
            assert not view.is_visible()
            # (focus is back on the hand's button, drawn anew since)
            page.wait_for_function(
                "document.activeElement.getAttribute('aria-label') === 'Show hand 1'"
            )
            # a void hand: no analysis offered, and why
            subprocess.run(
                [sys.executable, "-m", "scorepad", "-f", table, "void", "2"],
                check=True, capture_output=True,
            )  # fmt: skip
            page.wait_for_selector("#recent tr.void")
            page.get_by_role("button", name="Show hand 2").click()
            assert page.inner_text("#analysis-status") == (
                "A void hand counts for nothing: it is not analysed."
            )
            assert not page.locator("#analyse").is_visible()
            page.keyboard.press("Escape")
            # in German: the view and the analysis (kept: at once), the cards by their names
            german = browser.new_page(locale="de-DE", extra_http_headers={"accept-language": "de"})
            german.goto(url)
            german.wait_for_selector("#live.on")
            german.get_by_role("button", name="Spiel 1 zeigen").click()
            german.wait_for_selector("#analysis li", timeout=120_000)
            assert "Herz-Zehn" in german.inner_text("#analysis li")
            assert "Spielart" in german.inner_text("#hand-facts")
            assert "Sauspiel" in german.inner_text("#hand-facts")
        finally:
            browser.close()
