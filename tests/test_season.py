"""Many nights read as the reports read one (`season`, `rating`, `tournament standings`): what
checking learns of the kinds of hand kept for the next night (`ledger.Memo`), each night's
ledger let go before the next, and every result what reading each night on its own gives."""

import gc
import importlib
import json
import shutil
import sys
import weakref
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from _types import Run
from conftest import memo_of

from scorepad.ledger import HandView, Memo
from scorepad.rating import Match, NightMatches, rate, ratings_over, read_night, teams_of
from scorepad.reports import PlayerCounts
from scorepad.scoring import Outcome
from scorepad.session import Session

ROOT = Path(__file__).parent.parent
SAMPLES = sorted((ROOT / "sample_sessions").rglob("*.csv"))


def generated(tmp_path: Path, hands: int, seeds: range) -> list[Path]:
    """Nights as bench/generate.py writes them (six players, every kind of hand, corrections),
    one a seed."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        generate = importlib.import_module("generate").generate
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return [generate(hands, tmp_path / f"night-{seed}.csv", seed) for seed in seeds]


def read(path: Path, memo: Memo | None = None, fast: bool = True, views: bool = True) -> Any:
    """What a night gives the reports: totals, hands, each player's numbers and, with
    `views`, every hand as the pass shows it."""
    shown: list[HandView] = []
    with Session(path).reading() as reading:
        counts = PlayerCounts(reading.head.players)
        ledger, problems = reading.check(
            on_hand=shown.append if views else None,
            counts=counts,
            memo=memo if fast else memo_of(False),
        )
    assert problems == []
    hands = [
        ((v.number, v.void, v.amended, v.note, v.time, dict(v.deltas)), (v.row, v.entry.result))
        for v in shown
    ]
    return dict(ledger.totals), ledger.hands, counts.finish(), hands


@pytest.mark.parametrize("views", [False, True], ids=["counts", "every hand"])
def test_a_memo_kept_over_nights_changes_no_night(tmp_path: Path, views: bool) -> None:
    # every sample (other rules, seats and players in turn) and generated nights alike, each
    # twice, through one memo: each night as read alone, and as a pass that remembers no hand
    # reads it
    nights = [*SAMPLES, *generated(tmp_path, 400, range(1, 4))] * 2
    memo = Memo()
    for path in nights:
        alone = read(path, views=views)
        assert read(path, memo, views=views) == alone, path
        assert read(path, fast=False, views=views) == alone, path


def test_a_nights_ledger_is_let_go_when_the_next_is_read(tmp_path: Path) -> None:
    # (by reference counting alone: the collector's rare full pass would free a cycle, but
    # only when it runs, and a season would hold every night till then)
    first, second = generated(tmp_path, 300, range(1, 3))
    memo = Memo()
    gc.collect()
    gc.disable()
    try:
        with Session(first).reading() as reading:
            ledger = reading.night(counts=PlayerCounts(reading.head.players), memo=memo)
        gone = weakref.ref(ledger)
        del ledger, reading
        with Session(second).reading() as reading:
            reading.night(counts=PlayerCounts(reading.head.players), memo=memo)
        assert gone() is None
    finally:
        gc.enable()


def test_a_seasons_memory_does_not_grow_with_its_nights(tmp_path: Path, run: Run) -> None:
    import tracemalloc

    night = generated(tmp_path, 2000, range(1, 2))[0]
    peaks = []
    for count in (1, 6):
        folder = tmp_path / f"season-{count}"
        folder.mkdir()
        for k in range(count):
            shutil.copy(night, folder / f"night-{k}.csv")
        tracemalloc.start()
        result = run("season", folder)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert result.exit_code == 0, result.stderr
    assert peaks[1] < peaks[0] * 1.3 + 200_000, peaks


# -- the ratings: one pass a file, the old two passes' matches -----------------------------------


def old_matches(path: Path) -> list[Match]:
    """A file's matches as scorepad read them before (the pass, then every row decoded again
    for the time of each hand's own row)."""
    found = []

    def on_hand(view: HandView) -> None:
        match = teams_of(view)
        if match is not None:
            found.append((view.number, *match))

    with Session(path).reading() as reading:
        reading.night(on_hand=on_hand)
        times: dict[int, float] = {}
        for row in reading.rows():
            if row.hand is not None and row.hand not in times:
                try:
                    times[row.hand] = datetime.fromisoformat(row.time).timestamp()
                except ValueError:
                    times[row.hand] = 0.0
    source = str(path.resolve())
    return [Match(times.get(n, 0.0), source, n, teams, ranks) for n, teams, ranks in found]


def clock_set_back(path: Path, to: Path) -> Path:
    """The night with its hands' times out of order (the clock set back half-way)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    half = len(lines) // 2
    early = [line.replace("2026-11-06T19:00", "2026-11-06T18:00") for line in lines[half:]]
    to.write_text("".join(lines[:half] + early), encoding="utf-8")
    return to


def test_the_ratings_in_one_pass_are_those_of_two(tmp_path: Path) -> None:
    nights = generated(tmp_path, 300, range(1, 3))
    nights.append(clock_set_back(nights[0], tmp_path / "set-back.csv"))
    files = [*SAMPLES, *nights]
    matches = [m for f in files for m in old_matches(f)]
    assert ratings_over(files) == rate(matches)
    for f in files:
        night = read_night(f)
        assert list(night.in_order()) == sorted(
            old_matches(f), key=lambda m: (m.when, m.source, m.hand)
        )


def test_a_nights_matches_are_kept_in_arrays(tmp_path: Path) -> None:
    night = generated(tmp_path, 500, range(1, 2))[0]
    found = read_night(night)
    assert isinstance(found, NightMatches) and len(found) > 400
    # (three numbers a match, the teams and ranks kept once by number: far fewer kinds)
    assert found.times.itemsize == found.hands.itemsize == found.kinds.itemsize == 8
    assert max(found.kinds) < len(found) // 2


# -- a tournament's tables: solos by the reports' counts, each table read once -------------------


def old_solos(path: Path) -> Counter[str]:
    """Each player's solos won as the tournament counted them before (every hand's view)."""
    solos: Counter[str] = Counter()

    def on_hand(view: HandView) -> None:
        result = view.entry.result
        if view.void or result is None or result.outcome is not Outcome.WIN:
            return
        if view.row.picker and not view.row.partners:
            solos[view.row.picker] += 1

    with Session(path).reading() as reading:
        reading.night(on_hand=on_hand)
    return solos


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_the_solos_counted_are_those_of_every_hand(path: Path) -> None:
    _totals, _hands, stats, _views = read(path, views=False)
    assert {p: s.solos_won for p, s in stats.items() if s.solos_won} == dict(old_solos(path))


def test_the_solos_of_a_generated_night(tmp_path: Path) -> None:
    for night in generated(tmp_path, 600, range(1, 3)):
        _totals, _hands, stats, _views = read(night, views=False)
        assert {p: s.solos_won for p, s in stats.items() if s.solos_won} == dict(old_solos(night))


def test_tournament_standings_read_each_table_once(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scorepad.tournament_store as store

    folder = tmp_path / "cup"
    made = run(
        "tournament", "new", folder, "--name", "Cup", "--rules", "schafkopf",
        "--players", "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias", "--rounds", "2",
        "--hands", "2", "--seed", "7",
    )  # fmt: skip
    assert made.exit_code == 0, made.stderr
    for _round in (1, 2):
        drawn = run("tournament", "draw", folder, "--format", "json")
        assert drawn.exit_code == 0, drawn.stderr
        for k, table in enumerate(json.loads(drawn.stdout)["tables"], 1):
            path = folder / f"round-{_round}" / f"table-{k}.csv"
            players = table["players"]
            for hand in (
                ("--picker", players[0], "--game", "solo", "--points", "70"),
                ("--picker", players[1], "--partner", players[2], "--points", "40"),
            ):
                recorded = run("-f", path, "hand", *hand)
                assert recorded.exit_code == 0, recorded.stderr
    reads: Counter[Path] = Counter()
    real = store._read

    def counted(path: Path, *args: Any) -> Any:
        reads[path] += 1
        return real(path, *args)

    monkeypatch.setattr(store, "_read", counted)
    result = run("tournament", "standings", folder, "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert reads and set(reads.values()) == {1}
    assert any(s["solos"] for s in json.loads(result.stdout)["standings"])


def test_a_season_with_ratings_reads_each_night_once(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nights = generated(tmp_path, 300, range(1, 4))
    reads: Counter[Path] = Counter()
    real = Session.reading

    def counted(self: Session, *args: Any, **kwargs: Any) -> Any:
        reads[self.path] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Session, "reading", counted)
    result = run("season", *nights, "--rating", "--min-hands", "0", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert sorted(reads) == sorted(nights) and set(reads.values()) == {1}
    # the ratings are those of `scorepad rating` over the same nights
    monkeypatch.setattr(Session, "reading", real)
    alone = json.loads(run("rating", *nights, "--min-hands", "0", "--format", "json").stdout)
    assert {p["player"]: p["rating"]["rating"] for p in json.loads(result.stdout)["players"]} == {
        r["player"]: r["rating"] for r in alone["ratings"]
    }
