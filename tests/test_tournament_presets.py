"""The tournament presets: `preis` (Preisschafkopf) and `sheepshead-tournament`.

Every figure is the scale of RULES.md section 8, worked out by hand beside it: a Rufspiel 1 from
each (2 schneider, 3 schwarz), a solo, wenz or geier 2 from each (+6 to the declarer; 9/3
schneider, 12/4 schwarz), a tout 8 from each (24/8)."""

import pytest
from _types import CheckJson, Fails

from scorepad.rules import load_rules

FOUR = "Anni,Bertl,Sepp,Vroni"
PREIS = ("--rules", "preis", "--players", FOUR)
FIVE = "Ann,Bob,Cy,Dee,Ed"
SHEEP = ("--rules", "sheepshead-tournament")


def deltas(check_json: CheckJson, *args: object) -> dict[str, int]:
    got: dict[str, int] = check_json(*args)["deltas"]
    return got


def solo(amount: int, declarer: str = "Anni") -> dict[str, int]:
    """A one-against-three game paying `amount` from each opponent."""
    return {p: (3 * amount if p == declarer else -amount) for p in FOUR.split(",")}


def partner_game(amount: int) -> dict[str, int]:
    """Anni and Bertl against Sepp and Vroni, `amount` each way."""
    return {"Anni": amount, "Bertl": amount, "Sepp": -amount, "Vroni": -amount}


@pytest.mark.parametrize(
    "args, expected",
    [
        # a Rufspiel: 1 from each; schneider +1; schwarz +1 more
        (("--partner", "Bertl", "--points", "70"), partner_game(1)),
        (("--partner", "Bertl", "--points", "95", "--tricks", "7"), partner_game(2)),
        (("--partner", "Bertl", "--points", "120", "--tricks", "8"), partner_game(3)),
        (("--partner", "Bertl", "--points", "50"), partner_game(-1)),
        (("--partner", "Bertl", "--points", "25"), partner_game(-2)),
        # a solo, wenz or geier: 2 from each, the declarer +6; 3 schneider, 4 schwarz
        (("--game", "solo", "--points", "70"), solo(2)),
        (("--game", "wenz", "--points", "95", "--tricks", "7"), solo(3)),
        (("--game", "geier", "--points", "120", "--tricks", "8"), solo(4)),
        (("--game", "solo", "--points", "40"), solo(-2)),
        # a tout: 8 from each, won only by every trick; no schneider or schwarz on top
        (("--game", "solo-tout", "--points", "120", "--tricks", "8"), solo(8)),
        (("--game", "wenz-tout", "--points", "100", "--tricks", "7"), solo(-8)),
        # no runs: four runs in a solo count nothing
        (("--game", "solo", "--points", "70", "--runs", "4"), solo(2)),
        # no knocks: a knock doubles nothing
        (("--game", "solo", "--points", "70", "--knocks", "2"), solo(2)),
    ],
)
def test_preis_scores_the_preisschafkopf_scale(
    check_json: CheckJson, args: tuple[str, ...], expected: dict[str, int]
) -> None:
    assert deltas(check_json, *PREIS, "--picker", "Anni", *args) == expected


def test_preis_refuses_a_stoss_and_throws_in_when_all_pass(fails: Fails) -> None:
    solo = ("check", *PREIS, "--picker", "Anni", "--game", "solo", "--points", "70")
    line = fails(*solo, "--stoss", "1")
    assert line == "Error: --stoss: preis rules have no Stoss (cracks = false)"
    line = fails(*solo, "--crack", "Bertl")
    assert "no Stoss" in line
    rules = load_rules("preis")
    assert rules.all_pass == "redeal" and not rules.cracks
    assert set(rules.game_values) == {
        "partner", "solo", "wenz", "geier", "solo-tout", "wenz-tout", "geier-tout"
    }  # fmt: skip


def test_preis_at_a_table_of_five_the_dealer_sits_out(check_json: CheckJson) -> None:
    # five at the table, Ed (the last listed) deals and sits out: a solo from the other four
    got = check_json(
        "--rules", "preis", "--players", FIVE, "--picker", "Ann", "--game", "solo", "--points", "70"
    )
    assert got["deltas"] == {"Ann": 6, "Bob": -2, "Cy": -2, "Dee": -2}
    assert got["roles"]["Ed"] == "sits out"


def test_sheepshead_tournament_is_five_handed_with_the_jack_of_diamonds(
    check_json: CheckJson,
) -> None:
    rules = load_rules("sheepshead-tournament")
    assert rules.deals[5].call == "jack-of-diamonds" and rules.deals[5].partners == 1
    assert rules.level_multipliers == (1, 2, 3) and not rules.double_on_the_bump
    # picker twice the partner: 64 is a plain win
    got = deltas(check_json, *SHEEP, "--players", FIVE, "--picker", "Ann", "--partner", "Bob",
                 "--points", "64")  # fmt: skip
    assert got == {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1}
    # schneider (95) is 2, no-trick 3
    got = deltas(check_json, *SHEEP, "--players", FIVE, "--picker", "Ann", "--partner", "Bob",
                 "--points", "120", "--tricks", "6")  # fmt: skip
    assert got == {"Ann": 6, "Bob": 3, "Cy": -3, "Dee": -3, "Ed": -3}


def test_sheepshead_tournament_at_six_the_dealer_sits_out_and_at_four_the_picker_is_alone(
    check_json: CheckJson,
) -> None:
    got = check_json(*SHEEP, "--players", FIVE + ",Flo", "--picker", "Ann", "--partner", "Bob",
                     "--points", "70")  # fmt: skip
    assert got["deltas"] == {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1}
    assert got["roles"]["Flo"] == "sits out"
    # four at a table: alone, 7 cards and 4 in the blind; 75 is +3 / -1 each
    got = check_json(*SHEEP, "--players", "Ann,Bob,Cy,Dee", "--picker", "Ann", "--alone",
                     "--points", "75")  # fmt: skip
    assert got["deltas"] == {"Ann": 3, "Bob": -1, "Cy": -1, "Dee": -1}
