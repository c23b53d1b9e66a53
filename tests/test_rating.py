"""Ratings (`scorepad rating`, `season --rating`): OpenSkill's Plackett-Luce over every hand, in
the order the hands were recorded, the same in any order of the files."""

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _types import Fails, Run
from openskill.models import PlackettLuce

ROOT = Path(__file__).parent.parent
LEAGUE = sorted((ROOT / "sample_sessions" / "league").glob("*.csv"))
FIVE = "Ann,Bob,Cy,Dee,Ed"


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The times rows are recorded at: set `clock[0]` before each command."""
    times = ["2026-11-27T20:00:00-06:00"]
    monkeypatch.setattr("scorepad.session.now", lambda: times[0])
    yield times


def ratings(run: Run, *args: object) -> Any:
    result = run("rating", *args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_the_same_files_in_any_order_give_the_same_ratings(run: Run) -> None:
    files = [*LEAGUE, ROOT / "sample_sessions" / "standard-friday.csv"]
    first = ratings(run, *files, "--min-hands", "0")
    backwards = ratings(run, *reversed(files), "--min-hands", "0")
    assert first["ratings"] == backwards["ratings"]
    assert (
        ratings(run, files[2], files[0], files[3], files[1], "--min-hands", "0")["ratings"]
        == (first["ratings"])
    )


def test_a_small_night_agrees_with_openskills_own_api(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "night.csv"
    run("-f", path, "new", "--players", FIVE)
    hands = [
        ("--picker", "Ann", "--partner", "Bob", "--points", "64"),  # Ann and Bob beat the rest
        ("--picker", "Cy", "--alone", "--points", "40"),  # Cy loses alone to the other four
        ("--leaster", "--winner", "Dee"),  # Dee +4, everyone else -1: Dee first, four second
        ("--picker", "Ed", "--partner", "Ann", "--points", "80"),
    ]
    for hand in hands:
        assert run("-f", path, "hand", *hand).exit_code == 0
    assert run("-f", path, "void", "4", "--reason", "misdeal").exit_code == 0  # no match
    model = PlackettLuce()
    r = {p: model.rating(name=p) for p in FIVE.split(",")}

    def play(teams: list[list[str]], ranks: list[float]) -> None:
        new = model.rate([[r[p] for p in team] for team in teams], ranks=ranks)
        for team, rated in zip(teams, new):
            for p, rating in zip(team, rated):
                r[p] = rating

    play([["Ann", "Bob"], ["Cy", "Dee", "Ed"]], [1, 2])
    play([["Cy"], ["Ann", "Bob", "Dee", "Ed"]], [2, 1])
    play([["Ann"], ["Bob"], ["Cy"], ["Dee"], ["Ed"]], [2, 2, 2, 1, 2])
    got = ratings(run, path, "--min-hands", "0")
    assert {
        g["player"]: (g["mu"], g["sigma"], g["rating"], g["hands"]) for g in got["ratings"]
    } == {p: (round(x.mu, 6), round(x.sigma, 6), round(x.ordinal(), 6), 3) for p, x in r.items()}
    assert [g["player"] for g in got["ratings"]] == sorted(r, key=lambda p: -r[p].ordinal())


def test_hands_are_rated_in_the_order_they_were_recorded(
    run: Run, tmp_path: Path, clock: list[str]
) -> None:
    # Two nights whose hands interleave in time: Cy's loss (the second night) came between
    # Ann's two wins (the first), so it is rated between them, whatever the files' order.
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    run("-f", a, "new", "--players", "Ann,Bob,Cy,Dee")
    run("-f", b, "new", "--players", "Cy,Dee,Ed,Flo")
    steps = [
        (a, "2026-11-27T20:00:00-06:00", ("--picker", "Ann", "--alone", "--points", "80")),
        (b, "2026-11-27T20:05:00-06:00", ("--picker", "Cy", "--alone", "--points", "50")),
        (a, "2026-11-27T20:10:00-06:00", ("--picker", "Cy", "--alone", "--points", "90")),
    ]
    for path, when, hand in steps:
        clock[0] = when
        assert run("-f", path, "hand", *hand).exit_code == 0
    model = PlackettLuce()
    r = {p: model.rating() for p in ("Ann", "Bob", "Cy", "Dee", "Ed", "Flo")}

    def play(teams: list[list[str]], ranks: list[float]) -> None:
        new = model.rate([[r[p] for p in team] for team in teams], ranks=ranks)
        for team, rated in zip(teams, new):
            for p, rating in zip(team, rated):
                r[p] = rating

    play([["Ann"], ["Bob", "Cy", "Dee"]], [1, 2])
    play([["Cy"], ["Dee", "Ed", "Flo"]], [2, 1])
    play([["Cy"], ["Ann", "Bob", "Dee"]], [1, 2])
    for order in ((a, b), (b, a)):
        got = ratings(run, *order, "--min-hands", "0")
        assert {g["player"]: g["mu"] for g in got["ratings"]} == {
            p: round(x.mu, 6) for p, x in r.items()
        }


def test_players_under_the_minimum_are_listed_apart(run: Run) -> None:
    got = ratings(run, LEAGUE[0], "--min-hands", "25")
    assert got["ratings"] == [] and len(got["provisional"]) == 5
    text = run("rating", LEAGUE[0], "--min-hands", "25").stdout
    assert "Under 25 hands, not ranked: " in text and "(20)" in text
    ranked = ratings(run, LEAGUE[0])
    assert [g["hands"] for g in ranked["ratings"]] == [20] * 5
    assert ranked["model"] == "OpenSkill Plackett-Luce" and ranked["min_hands"] == 10


def test_rating_reads_a_tournaments_tables_and_refuses_a_bad_file(
    run: Run, fails: Fails, tmp_path: Path
) -> None:
    folder = tmp_path / "t"
    run("tournament", "new", folder, "--name", "T", "--rules", "preis", "--players",
        "A,B,C,D,E,F,G,H", "--rounds", "1", "--hands", "1", "--seed", "4")  # fmt: skip
    tables = json.loads(run("tournament", "draw", folder, "--format", "json").stdout)["tables"]
    for table in tables:
        p = table["players"]
        run("-f", table["file"], "hand", "--picker", p[0], "--game", "solo", "--points", "70")
    got = ratings(run, folder, "--min-hands", "1")
    assert sorted(g["player"] for g in got["ratings"]) == list("ABCDEFGH")
    winners = {t["players"][0] for t in tables}
    assert {g["player"] for g in got["ratings"][:2]} == winners  # each solo won ranks first
    assert fails("rating", folder, folder / "round-1" / "table-1.csv").endswith(
        "this night is given twice (also as " + str(folder / "round-1" / "table-1.csv") + ")"
    )
    bad = tmp_path / "bad.csv"
    bad.write_bytes((folder / "round-1" / "table-2.csv").read_bytes().replace(b",6,-2,", b",7,-3,"))
    assert fails("rating", bad).startswith(f"Error: {bad}:4: ")


def test_season_with_ratings(run: Run) -> None:
    text = run("season", *LEAGUE, "--rating").stdout
    assert text.splitlines()[0].split()[-1] == "Rating"
    assert text.rstrip().endswith("Rating: OpenSkill Plackett-Luce over every hand, mu - 3 sigma.")
    data = json.loads(run("season", *LEAGUE, "--rating", "--format", "json").stdout)
    alone = ratings(run, *LEAGUE, "--min-hands", "0")["ratings"]
    assert {p["player"]: p["rating"]["rating"] for p in data["players"]} == {
        g["player"]: g["rating"] for g in alone
    }
    # without --rating the season is as before
    assert (
        "rating" not in json.loads(run("season", *LEAGUE, "--format", "json").stdout)["players"][0]
    )


def test_other_commands_do_not_import_openskill(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from scorepad.cli import cli\n"
        f"for args in (['-f', {str(tmp_path / 'n.csv')!r}, 'new', '--players', 'A,B,C,D,E'],"
        " ['season', 'sample_sessions/league/'], ['--help']):\n"
        "    try:\n        cli.main(args, prog_name='scorepad')\n"
        "    except SystemExit:\n        pass\n"
        "print('openskill' in sys.modules, file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stderr.strip() == "False"
