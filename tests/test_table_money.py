"""Money as the table plays it (issue 40, items 1 and 2): the table's `rate` and `currency`,
where `settle` took them from, and a season's settlement over all its nights."""

import json
from decimal import Decimal
from pathlib import Path

import pytest
from _types import Fails, Run
from hypothesis import given
from hypothesis import strategies as st

from scorepad.settlement import money_balances, season_balances

SAMPLES = Path(__file__).parent.parent / "sample_sessions"


def _bavarian_night(run: Run, path: Path) -> None:
    """Sepp wins a solo with four Stoss (+2,400), Anni and Bertl a solo each (-50 each to him)."""
    for args in (
        ("new", "--rules", "bavarian", "--players", "Sepp,Anni,Bertl,Vroni"),
        ("hand", "--picker", "Sepp", "--game", "solo", "--points", "70", "--stoss", "4"),
        ("hand", "--picker", "Anni", "--game", "solo", "--points", "70"),
        ("hand", "--picker", "Bertl", "--game", "solo", "--points", "70"),
    ):
        result = run("-f", path, *args)
        assert result.exit_code == 0, result.stderr


def test_a_bavarian_night_settles_at_a_cent_a_point_in_euro(run: Run, tmp_path: Path) -> None:
    # The example: 2,300 points were 2.300,00 $ at 1,00 $ je Punkt; the table expects
    # 23,00 EUR.
    path = tmp_path / "verein.csv"
    _bavarian_night(run, path)
    result = run("--lang", "de", "-f", path, "settle")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == (
        "Abrechnung zu 0,01 EUR je Punkt (3 Spiele, Regeln bavarian):\n"
        "Satz und Währung aus dem Regelwerk bavarian.\n"
        "Spieler      Punkte       Geld\n"
        "---------  --------  ---------\n"
        "Sepp          +2300  23,00 EUR\n"
        "Anni           -700  -7,00 EUR\n"
        "Bertl          -700  -7,00 EUR\n"
        "Vroni          -900  -9,00 EUR\n"
        "\n"
        "3 Zahlungen gleichen es aus:\n"
        "Von    An      Betrag\n"
        "-----  ----  --------\n"
        "Vroni  Sepp  9,00 EUR\n"
        "Anni   Sepp  7,00 EUR\n"
        "Bertl  Sepp  7,00 EUR\n"
    )


@pytest.mark.parametrize(
    ("rules", "options", "rate", "currency", "sources", "words"),
    [
        ("bavarian", (), "0.01", "EUR", ("preset", "preset"), "Rate and currency from the "
         "bavarian preset."),
        ("bavarian", ("--rate", "0.02"), "0.02", "EUR", ("option", "preset"), "Rate from the "
         "command line; currency from the bavarian preset."),
        ("bavarian", ("--currency", "€"), "0.01", "€", ("preset", "option"), "Rate from the "
         "bavarian preset; currency from the command line."),
        ("standard", (), "1", "$", ("default", "default"), "Rate and currency from scorepad's "
         "default (the table sets none)."),
        ("standard", ("--rate", "0.25", "--currency", "€"), "0.25", "€", ("option", "option"),
         "Rate and currency from the command line."),
        ("standard --set rate=0.10 --set currency=CHF", (), "0.10", "CHF", ("table", "table"),
         "Rate and currency from the table's rules."),
    ],
)  # fmt: skip
def test_settle_says_which_rate_and_currency_it_used_and_where_they_came_from(
    run: Run,
    tmp_path: Path,
    rules: str,
    options: tuple[str, ...],
    rate: str,
    currency: str,
    sources: tuple[str, str],
    words: str,
) -> None:
    path = tmp_path / "night.csv"
    preset, *sets = rules.split()
    made = run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee", "--rules", preset, *sets)
    assert made.exit_code == 0, made.stderr
    shown = run("-f", path, "settle", *options)
    assert shown.exit_code == 0, shown.stderr
    assert shown.stdout.splitlines()[1] == words
    data = json.loads(run("-f", path, "settle", *options, "--format", "json").stdout)
    assert (data["rate"], data["currency"]) == (rate, currency)
    assert (data["rate_from"], data["currency_from"]) == sources


def test_a_table_set_back_to_its_presets_rate_says_the_preset(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "verein.csv"
    _bavarian_night(run, path)
    assert run("-f", path, "set", "rate=0.02").exit_code == 0
    assert json.loads(run("-f", path, "settle", "--format", "json").stdout)["rate_from"] == "table"
    assert run("-f", path, "set", "rate=0.01").exit_code == 0
    data = json.loads(run("-f", path, "settle", "--format", "json").stdout)
    assert (data["rate"], data["rate_from"]) == ("0.01", "preset")


@pytest.mark.parametrize(
    ("setting", "why"),
    [
        ("rate=0", "rate: '0' is not valid; use none, or an amount above zero"),
        ("rate=-0.5", "rate: '-0.5' is not valid"),
        ("rate=abc", "rate: 'abc' is not valid"),
        ("rate=0.0000001", "rate: '0.0000001' is not valid"),
        ("rate=1000001", "rate: '1000001' is not valid"),
        ("rate=1e3", "rate: '1e3' is not valid"),
        ("currency=", "currency: '' is not valid; use a symbol of up to 5 printable characters"),
        ("currency=DOLLARS", "currency: 'DOLLARS' is not valid"),
        ("currency==SUM", "currency: '=SUM' is not valid"),
    ],
)
def test_a_bad_rate_or_currency_is_refused_in_one_line_with_nothing_written(
    run: Run, fails: Fails, tmp_path: Path, setting: str, why: str
) -> None:
    path = tmp_path / "night.csv"
    assert why in fails("-f", path, "new", "--players", "Ann,Bob,Cy,Dee", "--set", setting)
    assert not path.exists()
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee").exit_code == 0
    before = path.read_bytes()
    assert why in fails("-f", path, "set", setting)
    assert path.read_bytes() == before


@pytest.mark.parametrize(("written", "kept"), [("0.01", "0.01"), ('"0.25"', "0.25"), ("2", "2")])
def test_a_rules_files_rate_is_kept_as_its_decimal_text(
    run: Run, tmp_path: Path, written: str, kept: str
) -> None:
    rules = tmp_path / "club.toml"
    rules.write_text(f'preset = "bavarian"\nrate = {written}\ncurrency = "CHF"\n', "utf-8")
    shown = run("rules", rules, "--format", "json")
    assert shown.exit_code == 0, shown.stderr
    found = json.loads(shown.stdout)
    assert (found["rate"], found["currency"]) == (kept, "CHF")


def test_season_rate_settles_over_all_the_nights_with_the_fewest_payments(run: Run) -> None:
    shown = run("season", SAMPLES / "league", "--rate", "0.05")
    assert shown.exit_code == 0 and shown.stderr == ""
    assert shown.stdout.split("\n\n")[-1] == (
        "Settlement over 3 nights at $0.05 a point:\n"
        "Rate from the command line; currency from scorepad's default (the table sets none).\n"
        "5 payments settle it:\n"
        "From    To      Amount\n"
        "------  ----  --------\n"
        "Ed      Bob      $1.00\n"
        "Ann     Bob      $0.50\n"
        "Ann     Flo      $0.30\n"
        "Dee     Flo      $0.20\n"
        "Dee     Cy       $0.10\n"
    )
    data = json.loads(
        run("season", SAMPLES / "league", "--rate", "0.05", "--format", "json").stdout
    )
    settlement = data["settlement"]
    assert set(settlement["rates"].values()) == {"0.05"} and settlement["currency"] == "$"
    assert sum(Decimal(v) for v in settlement["balances"].values()) == 0
    # each balance is the season's game points at the rate (0.05 a point: no cent is rounded)
    points = {p["player"]: p["total"] for p in data["players"]}
    assert {p: Decimal(v) for p, v in settlement["balances"].items()} == {
        p: Decimal(n) * Decimal("0.05") for p, n in points.items()
    }
    paid = {p: Decimal(0) for p in points}
    for pay in settlement["payments"]:
        paid[pay["from"]] -= Decimal(pay["amount"])
        paid[pay["to"]] += Decimal(pay["amount"])
    assert paid == {p: Decimal(v) for p, v in settlement["balances"].items()}


def test_a_season_of_bavarian_nights_settles_at_their_tables_rate(run: Run, tmp_path: Path) -> None:
    _bavarian_night(run, tmp_path / "one.csv")
    _bavarian_night(run, tmp_path / "two.csv")
    shown = run("season", tmp_path / "one.csv", tmp_path / "two.csv")
    assert shown.exit_code == 0 and shown.stderr == ""
    assert shown.stdout.split("\n\n")[-1] == (
        "Settlement over 2 nights at EUR 0.01 a point:\n"
        "Rate and currency from the bavarian preset.\n"
        "3 payments settle it:\n"
        "From    To       Amount\n"
        "------  ----  ---------\n"
        "Vroni   Sepp  EUR 18.00\n"
        "Anni    Sepp  EUR 14.00\n"
        "Bertl   Sepp  EUR 14.00\n"
    )


def test_a_season_whose_tables_do_not_all_set_a_rate_says_so_and_settles_nothing(
    run: Run, tmp_path: Path
) -> None:
    _bavarian_night(run, tmp_path / "verein.csv")
    shown = run("season", tmp_path / "verein.csv", SAMPLES / "league" / "2026-10-02.csv")
    assert shown.exit_code == 0
    assert "Settlement over" not in shown.stdout
    assert shown.stderr.splitlines()[-1] == (
        "Warning: no settlement: 2026-10-02 set no rate; give --rate"
    )
    # (the nights' currencies differ too: $ and EUR)
    rate_only = run("season", tmp_path / "verein.csv", SAMPLES / "league", "--rate", "0.01")
    assert "Settlement over" not in rate_only.stdout
    assert rate_only.stderr.splitlines()[-1] == (
        "Warning: no settlement: the nights' tables settle in $, EUR; give --currency"
    )
    both = run(
        "season", tmp_path / "verein.csv", SAMPLES / "league", "--rate", "0.01", "--currency", "€"
    )
    assert "Settlement over 4 nights at €0.01 a point:\n" in both.stdout


_POINTS = st.lists(st.integers(-5000, 5000), min_size=2, max_size=6).map(lambda xs: [*xs, -sum(xs)])
_RATES = st.decimals(min_value="0.001", max_value="5", places=3)


@given(st.lists(st.tuples(_POINTS, _RATES), min_size=1, max_size=5))
def test_a_seasons_balances_are_each_nights_to_the_cent_added_up(
    nights: list[tuple[list[int], Decimal]],
) -> None:
    made = [({f"P{i}": v for i, v in enumerate(points)}, rate) for points, rate in nights]
    total = season_balances(made, lambda player: player.lower())
    expected: dict[str, Decimal] = {}
    for points, rate in made:
        for player, amount in money_balances(points, rate).items():
            expected[player.lower()] = expected.get(player.lower(), Decimal(0)) + amount
    assert total == expected
    assert sum(total.values()) == 0
    assert all(v == v.quantize(Decimal("0.01")) for v in total.values())
