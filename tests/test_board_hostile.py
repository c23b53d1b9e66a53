"""The live board against hostile clients (issue 44): text that is no text in a name field,
listeners by the hundred, guessed tokens."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from _types import Run

pytest.importorskip("starlette", reason="the serve extra is not installed")

from starlette.testclient import TestClient

from scorepad.web.app import Board, create_app

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
        "winner: '\\ud800' is koa ganzes Zeichen, nur a halbes (U+D800); schick den Namen als "
        "UTF-8-Text"
    )
