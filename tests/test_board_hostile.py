"""The live board against hostile clients (issue 44): text that is no text in a name field,
listeners by the hundred, guessed tokens."""

import asyncio
import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from _types import Fails, Run

pytest.importorskip("starlette", reason="the serve extra is not installed")

import httpx
import uvicorn
from starlette.testclient import TestClient

from scorepad.web.app import Board, create_app, server_config

FIVE = "Ann,Bob,Cy,Dee,Ed"
TOKEN = "table-token-1234567"
AUTH = {"authorization": f"Bearer {TOKEN}", "content-type": "application/json"}
LOCAL = "http://localhost"  # (the board answers only to its own names)


@pytest.fixture
def board_file(run: Run, tmp_path: Path) -> Path:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", FIVE).exit_code == 0
    return path


@pytest.fixture
def client(board_file: Path) -> Iterator[TestClient]:
    board = Board(board_file, allow_entry=True, token=TOKEN, poll=0.05)
    with TestClient(create_app(board), base_url=LOCAL) as c:  # (a 500 raises in the test)
        yield c


# --- a lone surrogate in a name (item 3) ---------------------------------------------------------


@pytest.mark.parametrize(
    "field, body, escaped",
    [
        ("winner", '{"leaster": true, "winner": "\\ud800"}', "'\\ud800'"),
        ("picker", '{"picker": "\\ud800", "alone": true, "points": 70}', "'\\ud800'"),
        ("partners", '{"picker": "Ann", "partners": ["\\ud800"], "points": 70}', "'\\ud800'"),
        (
            "leaster_points",
            '{"leaster": true, "leaster_points": {"\\ud800": 10, "Ann": 110}}',
            "'\\ud800'",
        ),
        (
            "partners",
            '{"picker": "Ann", "partners": ["Bob", "Cy\\udfff"], "points": 70}',
            "'Cy\\udfff'",
        ),
        ("dealer", '{"doubler": true, "dealer": "\\udc80"}', "'\\udc80'"),
        ("out", '{"pot": true, "out": ["\\udc80"]}', "'\\udc80'"),
    ],
)
def test_a_lone_surrogate_in_a_name_is_refused_with_the_name_escaped(
    client: TestClient, board_file: Path, field: str, body: str, escaped: str
) -> None:
    before = board_file.read_bytes()
    reply = client.post("/api/hands", content=body.encode("ascii"), headers=AUTH)
    assert reply.status_code == 422, reply.text
    error = json.loads(reply.content.decode("utf-8"))["error"]  # (UTF-8: no surrogate in it)
    assert error.startswith(f"{field}: {escaped} is no character"), error
    assert board_file.read_bytes() == before
    assert client.get("/api/state").status_code == 200


def test_a_lone_surrogate_is_refused_in_the_readers_language(client: TestClient) -> None:
    body = b'{"leaster": true, "winner": "\\ud800"}'
    reply = client.post("/api/hands?lang=de", content=body, headers=AUTH)
    assert reply.status_code == 422
    assert reply.json()["error"] == (
        "winner: '\\ud800' ist kein Zeichen, nur ein halbes (U+D800); schick den Namen als "
        "UTF-8-Text"
    )


# --- listeners by the hundred (item 1) -----------------------------------------------------------


@contextmanager
def served(path: Path, **options: Any) -> Iterator[tuple[str, Board]]:
    """The board on a free loopback port, in a thread (its own limits, as `serve` sets them);
    yields its base URL and the board."""
    board = Board(path, poll=0.05, **options)
    config = server_config(board, host="127.0.0.1", port=0)
    server = uvicorn.Server(config)
    started = threading.Event()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)

    def run() -> None:
        server.run(sockets=[sock])

    original = server.startup

    async def startup(sockets: Any = None) -> None:
        await original(sockets)
        started.set()

    server.startup = startup  # type: ignore[method-assign]
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(120), "the board did not start"
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", board
    finally:
        server.should_exit = True
        thread.join(timeout=60)
        sock.close()


def _listener(url: str) -> socket.socket:
    """A client that asks for the event stream and then only listens."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=120)
    sock.sendall(f"GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    return sock


def _answered(sock: socket.socket) -> bytes:
    """The first bytes the board sends a listener (b"": it closed the connection)."""
    try:
        return sock.recv(64)
    except (ConnectionResetError, TimeoutError):
        return b""


def _outcome(sock: socket.socket, wanted: bytes) -> str:
    """How a listener's stream goes on: it brings `wanted` ("event"), it ends ("ended": the
    board let it go), or the connection closes ("closed")."""
    got = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return "closed"
        if not chunk:
            return "closed"
        got = got[-64:] + chunk
        if wanted in got:
            return "event"
        if b"\r\n0\r\n\r\n" in got:  # (the last chunk of its answer)
            return "ended"


def test_600_idle_listeners_leave_the_state_the_page_and_entry_working(
    board_file: Path,
) -> None:
    with served(board_file, allow_entry=True, token=TOKEN) as (url, board):
        listeners = [_listener(url) for _ in range(600)]
        try:
            for s in listeners:  # (each one taken in, or let go: waited for, however long)
                _answered(s)
            live = len(board._clients)
            assert 0 < live <= board.max_listeners < 600
            with httpx.Client(base_url=url, timeout=120) as client:
                reply = client.post(
                    "/api/hands", json={"picker": "Ann", "partners": ["Bob"], "points": 70},
                    headers={"authorization": f"Bearer {TOKEN}"},
                )  # fmt: skip
                assert reply.status_code == 201, reply.text
                assert client.get("/api/state").json()["hands"] == 1
                assert client.get("/").status_code == 200
            # every listener still listening gets the hand's event; the others were let go
            outcomes = [_outcome(s, b'"hands": 1') for s in listeners]
            assert outcomes.count("event") == live, outcomes
        finally:
            for s in listeners:
                s.close()


def test_the_listeners_cap_is_an_option_and_its_default_the_boards(fails: Fails) -> None:
    from scorepad.cli.serve import serve
    from scorepad.web.follow import MAX_LISTENERS

    (option,) = [p for p in serve.params if p.name == "max_listeners"]
    assert option.default == MAX_LISTENERS == 256
    assert "--max-listeners" in fails("serve", "--max-listeners", "0", code=2)
    assert "--max-listeners" in fails("tournament", "serve", ".", "--max-listeners", "x", code=2)


def test_the_cap_is_at_most_half_the_connections(board_file: Path) -> None:
    board = Board(board_file)
    board.max_listeners = 100_000
    config = server_config(board)
    limit = config.http.max_connections  # type: ignore[union-attr]
    assert board.max_listeners == limit // 2


async def _let_go_in_order(board_file: Path) -> None:
    board = Board(board_file)
    board.max_listeners = 3
    queues = [board.subscribe() for _ in range(5)]
    assert list(board._clients) == queues[2:]  # the two listening longest are let go
    assert [q.get_nowait() for q in queues[:2]] == [None, None]  # (their streams end)
    assert all(q.empty() for q in queues[2:])


def test_past_the_cap_the_listener_listening_longest_is_let_go(board_file: Path) -> None:
    asyncio.run(_let_go_in_order(board_file))


# --- guessed tokens (item 2) ---------------------------------------------------------------------

HAND = {"picker": "Ann", "partners": ["Bob"], "points": 70}
WRONG = {"authorization": "Bearer not-the-token-at-all"}


class Clock:
    """A clock the test moves (the throttle's waits, without waiting)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_50_wrong_tokens_in_a_row_are_throttled_and_the_right_one_after_the_wait_is_accepted(
    board_file: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    import logging

    monkeypatch.setattr(logging.getLogger("scorepad.serve"), "filters", [])  # (all of them)
    board = Board(board_file, allow_entry=True, token=TOKEN, poll=0.05)
    clock = board.throttle.clock = Clock()
    before = board_file.read_bytes()
    with TestClient(create_app(board), base_url=LOCAL) as client:
        answers = [client.post("/api/hands", json=HAND, headers=WRONG) for _ in range(50)]
        assert [a.status_code for a in answers[:5]] == [403] * 5  # (a few free tries)
        assert {a.status_code for a in answers[5:]} == {429}
        assert answers[5].headers["retry-after"] == "1"
        assert answers[5].json()["error"] == (
            "too many wrong tokens from this address: wait 1 s before the next"
        )
        assert board_file.read_bytes() == before
        # the right token is not looked at while the address waits
        right = client.post("/api/hands", json=HAND, headers=AUTH)
        assert right.status_code == 429 and right.headers["retry-after"] == "1"
        # each wrong token after a wait doubles the next wait
        waits = []
        for _ in range(4):
            clock.now += 60
            waits.append(client.post("/api/hands", json=HAND, headers=WRONG).headers["retry-after"])
        assert waits == ["2", "4", "8", "16"]
        assert client.get("/api/entry", headers=AUTH).status_code == 429
        assert board_file.read_bytes() == before
        clock.now += 16
        accepted = client.post("/api/hands", json=HAND, headers=AUTH)
        assert accepted.status_code == 201, accepted.text
        # the right token forgets the wrong ones: a wrong one is a free try again
        assert client.post("/api/hands", json=HAND, headers=WRONG).status_code == 403
    logged = [r.getMessage() for r in caplog.records if r.name == "scorepad.serve"]
    assert logged[0] == "a wrong entry token from testclient (1 in a row)"
    assert "a wrong entry token from testclient (6 in a row): it waits 1 s" in logged


def test_the_wait_is_per_address(board_file: Path) -> None:
    board = Board(board_file, allow_entry=True, token=TOKEN, poll=0.05)
    with TestClient(create_app(board), base_url=LOCAL, client=("192.0.2.7", 4000)) as guesser:
        for _ in range(10):
            guesser.post("/api/hands", json=HAND, headers=WRONG)
        assert guesser.post("/api/hands", json=HAND, headers=AUTH).status_code == 429
    with TestClient(create_app(board), base_url=LOCAL, client=("192.0.2.8", 4000)) as table:
        assert table.post("/api/hands", json=HAND, headers=AUTH).status_code == 201


def test_the_wait_is_in_the_readers_language(board_file: Path) -> None:
    board = Board(board_file, allow_entry=True, token=TOKEN, poll=0.05)
    with TestClient(create_app(board), base_url=LOCAL) as client:
        for _ in range(6):
            reply = client.post("/api/hands?lang=de", json=HAND, headers=WRONG)
        assert reply.status_code == 429
        assert reply.json()["error"] == (
            "zu viele falsche Token von dieser Adresse: warte 1 s bis zum nächsten"
        )


@pytest.mark.parametrize("token", ["short", "fifteen-chars15", "a" * 201, "with space-1234567"])
def test_serve_refuses_a_token_weaker_than_16_characters(
    fails: Fails, board_file: Path, token: str
) -> None:
    line = fails("-f", board_file, "serve", "--token", token, code=2)
    assert "--token" in line and "16 to 200 printable characters, no spaces" in line, line


def test_serve_says_why_a_short_token_is_refused(fails: Fails, board_file: Path) -> None:
    line = fails("-f", board_file, "serve", "--token", "1234567", code=2)
    assert line == (
        "Error: Invalid value for --token: 16 to 200 printable characters, no spaces (a "
        "shorter token is guessed too soon; the default is 24 random ones); see 'scorepad "
        "serve --help'"
    )
