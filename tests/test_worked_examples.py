"""The worked examples of docs/rules.md and its seeds, each a test named after the example."""

from pathlib import Path
from typing import Any

import pytest
from _types import CheckJson, Fails, Run
from conftest import FIVE, FOUR


def deltas(check_json: CheckJson, *args: object) -> Any:
    return check_json(*args)["deltas"]


# --- docs/rules.md §2 -----------------------------------------------------------------------------


def test_five_handed_tricks_52_and_bury_12_make_64(check_json: CheckJson) -> None:
    out = check_json(
        "--rules",
        "standard",
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        52 + 12,
        "--tricks",
        4,
    )
    assert out["deltas"] == {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1}
    assert out["outcome"] == "win" and out["stake"] == 1 and out["level"] == 1


@pytest.mark.parametrize("points, picker, each", [(75, 3, -1), (95, 6, -2), (55, -3, 1)])
def test_four_handed_alone(check_json: CheckJson, points: int, picker: int, each: int) -> None:
    got = deltas(check_json, "--players", FOUR, "--picker", "Ann", "--alone", "--points", points)
    assert got == {"Ann": picker, "Bob": each, "Cy": each, "Dee": each}


def test_alone_at_five_plain_win_is_plus_four(check_json: CheckJson) -> None:
    got = deltas(check_json, "--players", FIVE, "--picker", "Cy", "--alone", "--points", 70)
    assert got == {"Ann": -1, "Bob": -1, "Cy": 4, "Dee": -1, "Ed": -1}


def test_three_handed_picker_plus_two(check_json: CheckJson) -> None:
    got = deltas(check_json, "--players", "Ann,Bob,Cy", "--picker", "Bob", "--points", 61)
    assert got == {"Ann": -1, "Bob": 2, "Cy": -1}


# The standard sheet's table (seed 000, "Scoring a hand", rows 2 to 6), five-handed.
@pytest.mark.parametrize(
    "points, tricks, picker, partner, defender",
    [
        (75, 4, 2, 1, -1),  # 61 to 90: the plain win
        (91, 5, 4, 2, -2),  # 91 or more: schneider
        (120, 6, 6, 3, -3),  # every trick: no-trick
        (45, 2, -2, -1, 1),  # 31 to 60: a loss
        (60, 3, -2, -1, 1),  # 60 to 60 is a loss
        (30, 1, -4, -2, 2),  # 30 or fewer: schneidered
        (12, 0, -6, -3, 3),  # no trick at all (the bury's 12 points)
    ],
)
def test_standard_sheet_scoring_table(
    check_json: CheckJson, points: int, tricks: int, picker: int, partner: int, defender: int
) -> None:
    got = deltas(
        check_json,
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        points,
        "--tricks",
        tricks,
    )
    assert got == {"Ann": picker, "Bob": partner, "Cy": defender, "Dee": defender, "Ed": defender}


def test_sixty_sixty_tie_is_a_loss(check_json: CheckJson) -> None:
    out = check_json("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", 60)
    assert out["outcome"] == "loss"
    assert any("60-60 tie" in line for line in out["explanation"])


def test_120_points_without_every_trick_is_only_schneider(check_json: CheckJson) -> None:
    out = check_json(
        "--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", 120, "--tricks", 5
    )
    assert out["level"] == 2 and out["deltas"]["Ann"] == 4


def test_zero_point_trick_saves_from_no_trick(check_json: CheckJson) -> None:
    out = check_json(
        "--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", 0, "--tricks", 1
    )
    assert out["level"] == 2 and out["deltas"]["Ann"] == -4


def test_without_tricks_each_side_is_taken_to_have_a_trick(check_json: CheckJson) -> None:
    out = check_json("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", 100)
    assert out["level"] == 2 and out["explanation"][2].startswith("No --tricks given")


@pytest.mark.parametrize("points", [120, 0, 7, 22])
def test_points_that_leave_the_top_level_open_need_the_tricks(
    fails: Fails, check_json: CheckJson, points: int
) -> None:
    # 120 may or may not be every trick; 0 to 22 (the two-card bury's most) may be no trick
    base = ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", points)
    error = fails("check", *base)
    assert error.startswith(f"Error: --points {points} needs --tricks") and "no-trick" in error
    tricks = 6 if points == 120 else 0
    assert check_json(*base, "--tricks", tricks)["level"] == 3
    assert check_json(*base, "--tricks", 5 if points == 120 else 1)["level"] == 2


def test_points_that_leave_the_level_open_are_asked_for_in_a_session(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "night.csv"
    assert run("-f", path, "new", "--players", FIVE).exit_code == 0
    result = run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 120)
    assert result.exit_code == 1 and "--points 120 needs --tricks" in result.stderr
    assert (
        run(
            "-f", path, "hand", "--picker", "Ann", "--alone", "--points", 120, "--tricks", 6
        ).exit_code
        == 0
    )
    assert run("-f", path, "amend", "1", "--points", "10", "--tricks", "0").exit_code == 0


def test_every_hand_sums_to_zero_five_handed(check_json: CheckJson) -> None:
    got = deltas(
        check_json,
        "--players",
        FIVE,
        "--picker",
        "Dee",
        "--partner",
        "Ann",
        "--points",
        33,
        "--tricks",
        2,
    )
    assert sum(got.values()) == 0


# --- docs/rules.md §3 (leaster, doubler, forced) --------------------------------------------------


def test_leaster_winner_receives_payout_from_each_other_player(check_json: CheckJson) -> None:
    out = check_json("--players", FIVE, "--leaster", "--winner", "Cy")
    assert out["outcome"] == "leaster"
    assert out["deltas"] == {"Ann": -1, "Bob": -1, "Cy": 4, "Dee": -1, "Ed": -1}


def test_leaster_winner_found_from_points(check_json: CheckJson) -> None:
    out = check_json(
        "--players",
        FIVE,
        "--leaster",
        "--leaster-points",
        "Ann=10,Bob=20,Cy=30,Dee=40,Ed=20",
        "--leaster-tricks",
        "Ann=1,Bob=1,Cy=1,Dee=2,Ed=1",
    )
    assert out["winners"] == ["Ann"] and out["deltas"]["Ann"] == 4


def test_leaster_player_without_a_trick_cannot_win(check_json: CheckJson) -> None:
    out = check_json(
        "--players",
        FIVE,
        "--leaster",
        "--leaster-points",
        "Ann=0,Bob=20,Cy=30,Dee=40,Ed=30",
        "--leaster-tricks",
        "Ann=0,Bob=1,Cy=1,Dee=2,Ed=2",
    )
    assert out["winners"] == ["Bob"]


def test_leaster_zero_point_trick_can_win(check_json: CheckJson) -> None:
    out = check_json(
        "--players",
        FIVE,
        "--leaster",
        "--leaster-points",
        "Ann=0,Bob=20,Cy=30,Dee=40,Ed=30",
        "--leaster-tricks",
        "Ann=1,Bob=1,Cy=1,Dee=2,Ed=1",
    )
    assert out["winners"] == ["Ann"]


def test_leaster_without_must_take_trick_lets_no_trick_win(check_json: CheckJson) -> None:
    out = check_json(
        "--set",
        "must_take_trick=false",
        "--players",
        FIVE,
        "--leaster",
        "--leaster-points",
        "Ann=0,Bob=20,Cy=30,Dee=40,Ed=30",
    )
    assert out["winners"] == ["Ann"]


def test_leaster_tie_none_pays_nobody(check_json: CheckJson) -> None:
    out = check_json(
        "--set",
        "leaster_tie=none",
        "--players",
        FIVE,
        "--leaster",
        "--leaster-points",
        "Ann=10,Bob=10,Cy=30,Dee=40,Ed=30",
    )
    assert out["winners"] == [] and set(out["deltas"].values()) == {0}


def test_leaster_tie_share(check_json: CheckJson) -> None:
    out = check_json(
        "--set",
        "leaster_tie=share",
        "--players",
        FIVE,
        "--leaster",
        "--leaster-points",
        "Ann=10,Bob=10,Cy=30,Dee=40,Ed=30",
    )
    assert out["deltas"] == {"Ann": 3, "Bob": 3, "Cy": -2, "Dee": -2, "Ed": -2}


def test_leaster_tie_named_by_winner(check_json: CheckJson) -> None:
    out = check_json(
        "--players",
        FIVE,
        "--leaster",
        "--leaster-points",
        "Ann=10,Bob=10,Cy=30,Dee=40,Ed=30",
        "--winner",
        "Bob",
    )
    assert out["winners"] == ["Bob"] and out["deltas"]["Bob"] == 4


def test_doubled_leaster(check_json: CheckJson) -> None:
    out = check_json("--players", FIVE, "--leaster", "--winner", "Ed", "--doubled")
    assert out["deltas"]["Ed"] == 8 and out["stake"] == 2


def test_doubled_hand_after_a_doubler_is_times_two(check_json: CheckJson) -> None:
    out = check_json(
        "--set",
        "all_pass=doubler",
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        70,
        "--doubled",
    )
    assert out["deltas"] == {"Ann": 4, "Bob": 2, "Cy": -2, "Dee": -2, "Ed": -2}


def test_two_doublers_multiplied(check_json: CheckJson) -> None:
    out = check_json(
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        70,
        "--doubled",
        "--doubled",
    )
    assert out["stake"] == 4


def test_forced_pick_waives_the_bump_with_bump_on_forced_false(check_json: CheckJson) -> None:
    args = (
        "--rules",
        "pagat",
        "--set",
        "all_pass=forced",
        "--players",
        FIVE,
        "--picker",
        "Ed",
        "--partner",
        "Ann",
        "--points",
        50,
        "--forced",
    )
    assert check_json(*args)["stake"] == 2
    assert check_json(*args, "--set", "bump_on_forced=false")["stake"] == 1


# --- docs/rules.md §4: presets --------------------------------------------------------------------


def test_first_night_walkthrough_73_is_plus_one_for_picker_and_partner(
    check_json: CheckJson,
) -> None:
    # Seed 001: South deals, West (on South's left) picks and calls the ace of clubs, which
    # North holds; the picker's side takes 73.
    out = check_json(
        "--rules",
        "first-night",
        "--players",
        "West,North,East,Sam,South",
        "--dealer",
        "South",
        "--picker",
        "West",
        "--partner",
        "North",
        "--points",
        73,
    )
    assert out["deltas"] == {"West": 1, "North": 1, "East": 0, "Sam": 0, "South": 0}
    assert out["zero_sum"] is False


@pytest.mark.parametrize(
    "points, move",
    [
        (61, 1),
        (90, 1),
        (91, 2),
        (118, 2),  # (119 is no card points: no card is worth 1)
        (120, 3),
        (60, -1),
        (30, -1),
        (29, -2),
        (2, -2),
        (0, -3),
    ],
)
def test_first_night_race_levels(check_json: CheckJson, points: int, move: int) -> None:
    got = deltas(
        check_json,
        "--rules",
        "first-night",
        "--players",
        "Ann,Bob,Cy",
        "--picker",
        "Bob",
        "--points",
        points,
    )
    assert got == {"Ann": 0, "Bob": move, "Cy": 0}


def test_first_night_four_handed_has_no_blind(fails: Fails) -> None:
    msg = fails(
        "check",
        "--rules",
        "first-night",
        "--players",
        FOUR,
        "--picker",
        "Ann",
        "--points",
        5,
        "--tricks",
        0,
    )
    assert "no card points" in msg


def test_pagat_six_handed_two_partners(check_json: CheckJson) -> None:
    got = deltas(
        check_json,
        "--rules",
        "pagat",
        "--players",
        "Ann,Bob,Cy,Dee,Ed,Flo",
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--partner",
        "Flo",
        "--points",
        70,
    )
    assert got == {"Ann": 1, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1, "Flo": 1}


def test_standard_six_handed_jack_of_diamonds_partner(check_json: CheckJson) -> None:
    got = deltas(
        check_json,
        "--players",
        "Ann,Bob,Cy,Dee,Ed,Flo",
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        70,
    )
    assert got == {"Ann": 3, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1, "Flo": -1}


def test_sit_out_dealer_six_people_play_five_handed(check_json: CheckJson) -> None:
    out = check_json(
        "--set",
        "sit_out=dealer",
        "--players",
        "Ann,Bob,Cy,Dee,Ed,Flo",
        "--dealer",
        "Cy",
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        70,
    )
    assert out["deltas"] == {"Ann": 2, "Bob": 1, "Dee": -1, "Ed": -1, "Flo": -1}
    assert out["roles"]["Cy"] == "sits out"


def test_sit_out_dealer_five_people_all_play(check_json: CheckJson) -> None:
    out = check_json(
        "--set",
        "sit_out=dealer",
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        70,
    )
    assert len(out["deltas"]) == 5


# --- docs/rules.md §5: doublings ------------------------------------------------------------------


def test_pagat_set_and_schneidered_pays_four_stakes_cracked_eight(check_json: CheckJson) -> None:
    base = (
        "--rules",
        "pagat",
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        25,
    )
    assert check_json(*base)["stake"] == 4
    cracked = check_json(*base, "--crack", "Cy")
    assert cracked["stake"] == 8
    assert cracked["deltas"] == {"Ann": -16, "Bob": -8, "Cy": 8, "Dee": 8, "Ed": 8}


def test_double_on_the_bump_never_doubles_a_win(check_json: CheckJson) -> None:
    out = check_json(
        "--rules", "pagat", "--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", 95
    )
    assert out["stake"] == 2


def test_recrack_doubles_again(check_json: CheckJson) -> None:
    out = check_json(
        "--players",
        FIVE,
        "--picker",
        "Bob",
        "--partner",
        "Ann",
        "--points",
        70,
        "--crack",
        "Dee",
        "--recrack",
    )
    assert out["stake"] == 4 and out["deltas"]["Bob"] == 8


def test_max_multiplier_caps_the_doublings(check_json: CheckJson) -> None:
    out = check_json(
        "--rules",
        "pagat",
        "--set",
        "max_multiplier=4",
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        40,
        "--crack",
        "Cy",
        "--recrack",
    )
    assert out["stake"] == 4  # 2 x 2 x 2 = 8, capped at 4


def test_blitz_doubles_each(check_json: CheckJson) -> None:
    out = check_json(
        "--set",
        "blitz=true",
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        70,
        "--blitz",
        2,
    )
    assert out["stake"] == 4


def test_level_multipliers_one_two_four(check_json: CheckJson) -> None:
    out = check_json(
        "--set",
        "level_multipliers=1,2,4",
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        120,
        "--tricks",
        6,
    )
    assert out["deltas"]["Ann"] == 8


def test_partner_free_on_no_trick(check_json: CheckJson) -> None:
    out = check_json(
        "--set",
        "partner_free_on_no_trick=true",
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        0,
        "--tricks",
        0,
    )
    assert out["deltas"] == {"Ann": -9, "Bob": 0, "Cy": 3, "Dee": 3, "Ed": 3}


# --- docs/rules.md §6: Schafkopf ------------------------------------------------------------------


def sk(check_json: CheckJson, *args: object) -> Any:
    return check_json("--rules", "schafkopf", "--players", FOUR, *args)


def test_schafkopf_partner_game_each_plus_minus_value(check_json: CheckJson) -> None:
    out = sk(check_json, "--picker", "Ann", "--partner", "Cy", "--points", 70)
    assert out["deltas"] == {"Ann": 1, "Bob": -1, "Cy": 1, "Dee": -1}


def test_schafkopf_solo_declarer_three_times_value(check_json: CheckJson) -> None:
    out = sk(check_json, "--picker", "Bob", "--game", "solo", "--points", 70)
    assert out["deltas"] == {"Ann": -5, "Bob": 15, "Cy": -5, "Dee": -5}


def test_schafkopf_schneider_and_runs(check_json: CheckJson) -> None:
    out = sk(check_json, "--picker", "Ann", "--game", "wenz", "--points", 95, "--runs", 2)
    assert out["stake"] == 5 + 1 + 2


def test_schafkopf_runs_below_minimum_count_nothing(check_json: CheckJson) -> None:
    out = sk(check_json, "--picker", "Ann", "--partner", "Bob", "--points", 70, "--runs", 2)
    assert out["stake"] == 1


def test_schafkopf_schwarz(check_json: CheckJson) -> None:
    out = sk(check_json, "--picker", "Ann", "--game", "geier", "--points", 120, "--tricks", 8)
    assert out["stake"] == 5 + 1 + 1


def test_schafkopf_lost_with_30_is_schneider(check_json: CheckJson) -> None:
    out = sk(check_json, "--picker", "Ann", "--partner", "Bob", "--points", 30)
    assert out["outcome"] == "loss" and out["stake"] == 2


def test_schafkopf_tout_won_only_by_every_trick(check_json: CheckJson) -> None:
    won = sk(check_json, "--picker", "Ann", "--game", "solo-tout", "--points", 120, "--tricks", 8)
    assert won["outcome"] == "win" and won["stake"] == 10  # a tout adds no schneider/schwarz
    lost = sk(check_json, "--picker", "Ann", "--game", "solo-tout", "--points", 110, "--tricks", 7)
    assert lost["outcome"] == "loss" and lost["deltas"]["Ann"] == -30


def test_schafkopf_stoss_and_gegenstoss_quadruple(check_json: CheckJson) -> None:
    out = sk(
        check_json,
        "--picker",
        "Ann",
        "--partner",
        "Cy",
        "--points",
        70,
        "--crack",
        "Bob",
        "--recrack",
    )
    assert out["stake"] == 4
    assert any("Stoss by Bob" in line and "Gegenstoss" in line for line in out["explanation"])
