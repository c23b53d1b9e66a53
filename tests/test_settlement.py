"""Settling up: money to the cent, and provably the fewest payments."""

import json
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path

import pytest
from _types import Fails, Run
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.errors import ScorepadError
from scorepad.settlement import (
    EXACT_LIMIT,
    Payment,
    fewest_payments,
    money_balances,
    parse_rate,
)


def brute_force_fewest(values: list[int]) -> int:
    """The fewest transfers that clear the balances, by exhaustive search (a different method:
    settle the first open balance against every later balance of the other sign, recursively)."""
    values = [v for v in values if v]

    def search(balances: list[int], start: int) -> int:
        while start < len(balances) and balances[start] == 0:
            start += 1
        if start == len(balances):
            return 0
        best = len(balances)
        for j in range(start + 1, len(balances)):
            if balances[j] * balances[start] < 0:
                balances[j] += balances[start]
                best = min(best, 1 + search(balances, start + 1))
                balances[j] -= balances[start]
        return best

    return search(values, 0)


def clears(balances: Mapping[str, Decimal], payments: list[Payment]) -> bool:
    left = dict(balances)
    for pay in payments:
        assert pay.amount > 0 and pay.payer != pay.payee
        left[pay.payer] += pay.amount
        left[pay.payee] -= pay.amount
    return all(v == 0 for v in left.values())


@st.composite
def balance_sets(draw: st.DrawFn, most: int = 8) -> dict[str, Decimal]:
    n = draw(st.integers(2, most))
    values = draw(st.lists(st.integers(-30, 30), min_size=n - 1, max_size=n - 1))
    values.append(-sum(values))
    return {f"P{i}": Decimal(v) / 4 for i, v in enumerate(values)}


@settings(max_examples=300, deadline=None)
@given(balance_sets())
def test_fewest_payments_matches_a_brute_force_search(balances: dict[str, Decimal]) -> None:
    payments = fewest_payments(balances)
    assert clears(balances, payments)
    assert len(payments) == brute_force_fewest([int(v * 4) for v in balances.values()])


@settings(max_examples=40, deadline=None)
@given(balance_sets(most=EXACT_LIMIT))
def test_twelve_players_are_still_exact(balances: dict[str, Decimal]) -> None:
    payments = fewest_payments(balances)
    assert clears(balances, payments)
    nonzero = sum(1 for v in balances.values() if v)
    assert len(payments) <= max(0, nonzero - 1)


def test_groups_that_cancel_settle_apart() -> None:
    balances = {
        "A": Decimal(5),
        "B": Decimal(-5),
        "C": Decimal(3),
        "D": Decimal(-1),
        "E": Decimal(-2),
    }
    payments = fewest_payments(balances)
    assert len(payments) == 3 and clears(balances, payments)
    assert any(p.payer == "B" and p.payee == "A" and p.amount == 5 for p in payments)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=13, max_size=20))
def test_beyond_twelve_a_greedy_plan_still_clears_everything(values: list[int]) -> None:
    values.append(-sum(values))
    balances = {f"P{i}": Decimal(v) for i, v in enumerate(values)}
    payments = fewest_payments(balances)
    assert clears(balances, payments)
    assert len(payments) <= sum(1 for v in values if v)


@settings(max_examples=300)
@given(
    st.lists(st.integers(-200, 200), min_size=1, max_size=8),
    st.decimals(min_value=Decimal("0.001"), max_value=Decimal("100"), places=3),
)
def test_money_balances_are_cents_that_still_sum_to_zero(values: list[int], rate: Decimal) -> None:
    values.append(-sum(values))
    points = {f"P{i}": v for i, v in enumerate(values)}
    money = money_balances(points, rate)
    assert sum(money.values()) == 0
    for player, amount in money.items():
        assert amount == amount.quantize(Decimal("0.01"))
        assert abs(amount - points[player] * rate) <= Decimal("0.02")


def test_rate_in_whole_cents_is_exact() -> None:
    assert money_balances({"A": 12, "B": -7, "C": -5}, Decimal("0.25")) == {
        "A": Decimal("3.00"),
        "B": Decimal("-1.75"),
        "C": Decimal("-1.25"),
    }


@pytest.mark.parametrize("text", ["0", "-1", "abc", "NaN", "Infinity", "1e9"])
def test_bad_rates_are_refused(text: str) -> None:
    with pytest.raises(ScorepadError):
        parse_rate(text)


# --- the command --------------------------------------------------------------------------------


@pytest.fixture
def night(run: Run, tmp_path: Path) -> Path:
    path = tmp_path / "night.csv"
    run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 95)
    run("-f", path, "hand", "--picker", "Cy", "--alone", "--points", 40)
    return path


def test_settle_text(run: Run, night: Path) -> None:
    out = run("-f", night, "settle", "--rate", "0.25").stdout
    assert out.startswith("Settlement at $0.25 a point (2 hands, standard rules):")
    ann = next(line for line in out.splitlines() if line.startswith("Ann"))
    assert ann.split() == ["Ann", "+5", "$1.25"]
    assert "payments settle it:" in out


def test_settle_json(run: Run, night: Path) -> None:
    data = json.loads(
        run("-f", night, "settle", "--rate", "0.10", "--currency", "€", "--format", "json").stdout
    )
    # Hand 1 is a schneider (+4/+2/-2), hand 2 Cy alone set (-4/+1).
    assert data["points"] == {"Ann": 5, "Bob": 3, "Cy": -6, "Dee": -1, "Ed": -1}
    assert data["balances"] == {
        "Ann": "0.50",
        "Bob": "0.30",
        "Cy": "-0.60",
        "Dee": "-0.10",
        "Ed": "-0.10",
    }
    left = {p: Decimal(v) for p, v in data["balances"].items()}
    for pay in data["payments"]:
        left[pay["from"]] += Decimal(pay["amount"])
        left[pay["to"]] -= Decimal(pay["amount"])
    assert set(left.values()) == {0} and len(data["payments"]) == 4


def test_settle_refuses_a_bad_rate(fails: Fails, night: Path) -> None:
    assert "above zero" in fails("-f", night, "settle", "--rate", "-2")


def test_settle_race_night_names_the_winner(run: Run) -> None:
    from pathlib import Path

    sample = Path(__file__).parent.parent / "sample_sessions" / "first-night-race.csv"
    out = run("-f", sample, "settle").stdout
    assert "A race to 5 settles no money. Uma reaches 5 and wins the night!" in out
    data = json.loads(run("-f", sample, "settle", "--format", "json").stdout)
    assert data["winners"] == ["Uma"] and data["race"] is True
