"""The board follows the file (`BoardNight`): after every change, hands appended, corrections of
older hands, seat and rules changes, a rewrite, its state is byte for byte what one pass over
the whole file gives (`board_state`), and it read only from where a pass before stopped."""

import json
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_session_properties import (
    OPERATIONS,
    PLAYERS,
    POT_AND_BOCK_OPERATIONS,
    invoke,
    operation_args,
)

pytest.importorskip("starlette", reason="the serve extra is not installed")

from scorepad.session import Session
from scorepad.web import follow
from scorepad.web.follow import BoardNight, MoneyRate, board_state

MONEY = MoneyRate(Decimal("0.25"), "€")


def text(state: dict[str, Any]) -> str:
    return json.dumps(state, ensure_ascii=False)


def followed(night: BoardNight, path: Path, money: MoneyRate | None = MONEY) -> str:
    """The followed state, and that it is the whole file's."""
    try:
        state = text(night.state(Session(path), str(path), money))
    except Exception as exc:  # (an error is the same error)
        state = f"{type(exc).__name__}: {exc}"
    try:
        whole = text(board_state(Session(path), str(path), money))
    except Exception as exc:
        whole = f"{type(exc).__name__}: {exc}"
    assert state == whole
    return state


def play(path: Path, *args: object) -> int:
    return invoke(path, *args).exit_code


def new_night(path: Path, *settings: str) -> None:
    args: list[object] = ["new", "--players", ",".join(PLAYERS)]
    for setting in settings:
        args += ["--set", setting]
    assert play(path, *args) == 0


def test_hands_appended_are_read_from_where_the_board_stopped(tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_night(path)
    night = BoardNight()
    followed(night, path)
    for k in range(40):
        picker, partner = PLAYERS[k % 5], PLAYERS[(k + 2) % 5]
        assert play(path, "hand", "--picker", picker, "--partner", partner, "--points", 31 + k) == 0
        size = path.stat().st_size
        assert night.kept is not None
        before = night.kept.offset
        followed(night, path)
        assert night.began == before  # (from the state kept: only the new row was read)
        assert night.kept is not None and night.kept.offset == size


def test_a_correction_of_an_older_hand_reads_the_night_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_night(path, "all_pass=doubler")
    for k in range(30):
        picker, partner = PLAYERS[k % 5], PLAYERS[(k + 1) % 5]
        play(path, "hand", "--picker", picker, "--partner", partner, "--points", 20 + k)
    night = BoardNight()
    followed(night, path)
    last = Session(path).state().last_hand
    for args, whole in (
        (("void", last - 2), True),
        (("amend", last - 5, "--points", 100), True),
        (("undo",), True),  # (the amendment undone)
        (("hand", "--doubler"), False),
        (("seat", "add", "Flo", "--after", "Bob"), False),
        (("hand", "--picker", "Flo", "--partner", "Ann", "--points", 80), False),
        (("set", "doubler_stacking=multiply"), False),
        (("seat", "remove", "Cy"), False),
        (("hand", "--picker", "Ann", "--partner", "Bob", "--points", 40), False),
        (("void", last + 2), True),
    ):
        before = path.read_bytes()
        result = invoke(path, *args)
        assert result.exit_code == 0, (args, result.output)
        followed(night, path)
        # (the first undo rewrites the file in a newer format: in place, under the protocol
        # of mandatory locks; by a new file otherwise)
        if path.read_bytes().startswith(before):  # (appended to)
            assert (night.began == 0) == whole, args


def test_a_rewritten_file_is_read_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_night(path)
    for k in range(30):
        play(
            path,
            "hand",
            "--picker",
            PLAYERS[k % 5],
            "--partner",
            PLAYERS[(k + 3) % 5],
            "--points",
            70,
        )
    night = BoardNight()
    followed(night, path)
    # an older row changed in place, the file as long as before: the board shows the error a
    # whole pass gives (it follows the file by the digest of the bytes it read, not by samples)
    size = path.stat().st_size
    lines = path.read_bytes().split(b"\n")
    assert b"Ann" in lines[10]
    lines[10] = lines[10].replace(b"Ann", b"Bob", 1)
    path.write_bytes(b"\n".join(lines))
    assert path.stat().st_size == size
    error = followed(night, path)
    assert error.startswith(f"SessionError: {path}:11: ")
    # repaired (as it was), then shortened: the board reads it whole, and shows it
    lines[10] = lines[10].replace(b"Bob", b"Ann", 1)
    kept = b"\n".join(lines[:20]) + b"\n"
    path.write_bytes(kept)
    followed(night, path)
    assert night.began == 0
    # a torn last line, then mended
    with path.open("ab") as file:
        file.write(b"31,picker,Ann")
    assert followed(night, path).startswith("SessionError")
    path.write_bytes(kept)
    followed(night, path)


def test_a_same_length_edit_after_the_state_kept_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    new_night(path)
    for k in range(12):
        play(path, "hand", "--picker", PLAYERS[k % 5], "--partner", PLAYERS[(k + 3) % 5],
             "--points", 70)  # fmt: skip
    night = BoardNight()
    followed(night, path)
    # a hand recorded, then a digit of an older row changed (the same length): the state kept
    # is not taken up, and the board says what verify says
    play(path, "hand", "--picker", "Ann", "--partner", "Cy", "--points", 64)
    lines = path.read_bytes().split(b"\r\n")
    assert b",70," in lines[6]  # (hand 4: its card points)
    lines[6] = lines[6].replace(b",70,", b",50,", 1)  # (a win made a loss)
    size = path.stat().st_size
    path.write_bytes(b"\r\n".join(lines))
    assert path.stat().st_size == size
    error = followed(night, path)
    assert error.startswith(f"SessionError: {path}:7: "), error


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["doubler", "pot"]),
    st.integers(0, 30),
    st.lists(st.one_of(OPERATIONS, POT_AND_BOCK_OPERATIONS), min_size=1, max_size=14),
)
def test_any_night_followed_shows_what_the_whole_file_shows(
    all_pass: str, first: int, operations: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        extra = ["bock_after=sixty-sixty,schwarz"] if all_pass == "pot" else []
        new_night(path, f"all_pass={all_pass}", *extra)
        for k in range(first):  # (a night already under way when the board starts)
            play(path, "hand", "--picker", PLAYERS[k % 5], "--partner", PLAYERS[(k + 2) % 5],
                 "--points", 25 + 3 * k)  # fmt: skip
        night = BoardNight()
        followed(night, path)
        for op in operations:
            play(path, *operation_args(op))
            followed(night, path)


class _PlayerByPlayer:
    """The chart's series as the board made it before it added up hands in bulk (a player at a
    time, a hand at a time): what `_Series` must give."""

    def __init__(self, players: list[str]):
        self.players = players
        self.running = dict.fromkeys(players, 0)
        self.hands, self.points, self.step, self.seen = [0], [(0,) * len(players)], 1, 0

    def add(self, number: int, deltas: dict[str, int], void: bool) -> None:
        if void:
            return
        for player, value in deltas.items():
            self.running[player] = self.running.get(player, 0) + value
        self.seen += 1
        if self.seen % self.step:
            return
        self.hands.append(number)
        self.points.append(tuple(self.running.get(p, 0) for p in self.players))
        if len(self.hands) > follow.SERIES_POINTS:
            self.hands, self.points = self.hands[::2], self.points[::2]
            self.step *= 2

    def finish(self, last: int) -> dict[str, Any]:
        hands, points = list(self.hands), list(self.points)
        if hands[-1] != last and self.seen:
            hands.append(last)
            points.append(tuple(self.running.get(p, 0) for p in self.players))
        totals = {p: [pt[i] for pt in points] for i, p in enumerate(self.players)}
        return {"hands": hands, "totals": totals}


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.booleans(), st.integers(-9, 9)), min_size=0, max_size=2500
    ),
    st.integers(0, 2500),
)
def test_the_series_adds_up_hands_in_bulk_as_it_did_one_by_one(
    hands: list[tuple[int, bool, int]], copied_at: int
) -> None:
    from scorepad.ledger import HandView, Scored
    from scorepad.store.format import Row, RowKind

    players = ["Ann", "Bob", "Cy"]
    shared = [{"Ann": 2, "Bob": -1, "Cy": -1}, {"Ann": -4, "Bob": 2, "Cy": 2}]
    series, reference = follow._Series(players), _PlayerByPlayer(players)
    for number, (kind, void, value) in enumerate(hands, 1):
        deltas = shared[kind] if kind < 2 else {"Ann": value, "Bob": -value, "Cy": 0}
        row = Row(RowKind.PICKER, number, hand=number)
        series.add(HandView(number, Scored(row, deltas, None, tuple(players)), void))
        reference.add(number, deltas, void)
        if number == copied_at:  # (a copy goes on as the series does; the series is unchanged)
            assert series.finish(number) == reference.finish(number)
            series = series.copy()
    last = len(hands) + 2  # (hands after the last one told: a void one, say)
    assert series.finish(last) == reference.finish(last)
    assert series.finish(len(hands)) == reference.finish(len(hands))
