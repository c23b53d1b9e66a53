"""Every refusal of docs/rules.md §2 and §3, and of the check interface: one `Error:` line,
exit 1 (a bad hand or rules) or 2 (bad usage), nothing on stdout."""

import pytest
from _types import Fails
from conftest import FIVE, FOUR

P5 = ("--players", FIVE)
ANN_BOB = ("--players", FIVE, "--picker", "Ann", "--partner", "Bob")
SK = ("--rules", "schafkopf", "--players", FOUR)

REFUSALS = [
    # docs/rules.md §2: points and tricks
    ("points above 120", (*ANN_BOB, "--points", 121), "card points run from 0 to 120"),
    ("points below 0", (*ANN_BOB, "--points", -1), "card points run from 0 to 120"),
    ("tricks above T", (*ANN_BOB, "--points", 70, "--tricks", 7), "this hand has 6 tricks"),
    ("tricks below 0", (*ANN_BOB, "--points", 70, "--tricks", -1), "this hand has 6 tricks"),
    ("every trick but not 120", (*ANN_BOB, "--points", 100, "--tricks", 6), "not 100"),
    ("no trick but more than the bury", (*ANN_BOB, "--points", 23, "--tricks", 0), "at most 22"),
    ("120 points with no trick", (*ANN_BOB, "--points", 120, "--tricks", 0), "at most 22"),
    (
        "no trick, four-handed blind of four",
        ("--players", FOUR, "--picker", "Ann", "--points", 45, "--tricks", 0),
        "at most 44",
    ),
    # docs/rules.md §2: who played
    (
        "picker not at the table",
        (*P5, "--picker", "Zed", "--partner", "Bob", "--points", 70),
        "--picker Zed: unknown player",
    ),
    (
        "partner not at the table",
        (*P5, "--picker", "Ann", "--partner", "Zed", "--points", 70),
        "--partner Zed: unknown player",
    ),
    (
        "picker sitting out",
        (
            "--set",
            "sit_out=dealer",
            "--players",
            "Ann,Bob,Cy,Dee,Ed,Flo",
            "--picker",
            "Flo",
            "--partner",
            "Bob",
            "--points",
            70,
        ),
        "Flo sits out this hand",
    ),
    (
        "partner sitting out",
        (
            "--set",
            "sit_out=dealer",
            "--players",
            "Ann,Bob,Cy,Dee,Ed,Flo",
            "--dealer",
            "Bob",
            "--picker",
            "Flo",
            "--partner",
            "Bob",
            "--points",
            70,
        ),
        "Bob sits out this hand",
    ),
    (
        "picker named as partner",
        (*P5, "--picker", "Ann", "--partner", "Ann", "--points", 70),
        "Ann is the picker",
    ),
    ("partner twice", (*ANN_BOB, "--partner", "bob", "--points", 70), "given twice"),
    ("too many partners", (*ANN_BOB, "--partner", "Cy", "--points", 70), "at most 1"),
    (
        "partners at three-handed",
        ("--players", "Ann,Bob,Cy", "--picker", "Ann", "--partner", "Bob", "--points", 70),
        "at most 0",
    ),
    ("partner with alone", (*ANN_BOB, "--alone", "--points", 70), "goes alone has no partner"),
    (
        "no partner and not alone",
        (*P5, "--picker", "Ann", "--points", 70),
        "name the --partner, or say --alone",
    ),
    # the check interface
    (
        "unknown name suggests the closest",
        (*P5, "--picker", "Ann", "--partner", "Bbo", "--points", 70),
        "did you mean Bob?",
    ),
    (
        "unknown dealer",
        (*P5, "--dealer", "Zed", "--picker", "Ann", "--partner", "Bob", "--points", 70),
        "--dealer Zed",
    ),
    (
        "a player listed twice",
        ("--players", "Ann,Bob,ann", "--picker", "Bob", "--points", 70),
        "listed twice",
    ),
    (
        "an empty name",
        ("--players", "Ann,,Bob", "--picker", "Ann", "--points", 70),
        "name is empty",
    ),
    (
        "no deal for this head count",
        ("--players", "A,B,C,D,E,F,G", "--picker", "A", "--points", 70),
        "deal for 3, 4, 5, 6 players",
    ),
    (
        "--game under Sheepshead",
        (*ANN_BOB, "--points", 70, "--game", "solo"),
        "--game belongs to Schafkopf",
    ),
    (
        "--runs under Sheepshead",
        (*ANN_BOB, "--points", 70, "--runs", 3),
        "--runs belongs to Schafkopf",
    ),
    (
        "--partner in a Schafkopf solo",
        (*SK, "--picker", "Ann", "--partner", "Bob", "--game", "solo", "--points", 70),
        "has no partner",
    ),
    (
        "Schafkopf partner game without partner",
        (*SK, "--picker", "Ann", "--points", 70),
        "partner game needs the --partner",
    ),
    (
        "--alone in Schafkopf",
        (*SK, "--picker", "Ann", "--alone", "--points", 70),
        "lone game is a solo",
    ),
    (
        "too many runs",
        (*SK, "--picker", "Ann", "--game", "geier", "--points", 70, "--runs", 5),
        "0 to 4 runs",
    ),
    (
        "tout without tricks",
        (*SK, "--picker", "Ann", "--game", "solo-tout", "--points", 120),
        "--tricks is needed",
    ),
    (
        "crack by someone who could have picked",
        ("--players", FIVE, "--picker", "Cy", "--partner", "Bob", "--points", 70, "--crack", "Ann"),
        "had the chance to pick",
    ),
    (
        "crack by the partner",
        ("--players", FIVE, "--picker", "Cy", "--partner", "Ed", "--points", 70, "--crack", "Ed"),
        "on the picker's side",
    ),
    ("crack by the picker", (*ANN_BOB, "--points", 70, "--crack", "Ann"), "on the picker's side"),
    (
        "crack on a dealer's pick",
        (*P5, "--picker", "Ed", "--partner", "Bob", "--points", 70, "--crack", "Dee"),
        "had the chance to pick",
    ),
    (
        "crack under rules without cracks",
        ("--rules", "first-night", *ANN_BOB, "--points", 70, "--crack", "Cy"),
        "have no crack",
    ),
    (
        "Stoss by the declarer's side",
        (*SK, "--picker", "Ann", "--partner", "Bob", "--points", 70, "--crack", "Bob"),
        "on the declarer's side",
    ),
    ("re-crack without crack", (*ANN_BOB, "--points", 70, "--recrack"), "give --crack"),
    (
        "forced pick under leaster rules",
        (*P5, "--picker", "Ed", "--partner", "Bob", "--points", 70, "--forced"),
        "needs all_pass = forced",
    ),
    (
        "forced pick not by the dealer",
        ("--set", "all_pass=forced", *ANN_BOB, "--points", 70, "--forced"),
        "the dealer's (Ed)",
    ),
    ("blitz under rules without blitz", (*ANN_BOB, "--points", 70, "--blitz", 1), "no blitz"),
    (
        "three blitzes",
        ("--set", "blitz=true", *ANN_BOB, "--points", 70, "--blitz", 3),
        "at most 2 blitzes",
    ),
    # docs/rules.md §3: leasters
    (
        "leaster points not adding to 120",
        (*P5, "--leaster", "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=40,Ed=10"),
        "110, not 120",
    ),
    (
        "leaster points missing a player",
        (*P5, "--leaster", "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=60"),
        "missing Ed",
    ),
    (
        "leaster points for a stranger",
        (*P5, "--leaster", "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=40,Zed=20"),
        "unknown player",
    ),
    (
        "leaster tricks not adding up",
        (*P5, "--leaster", "--winner", "Ann", "--leaster-tricks", "Ann=1,Bob=1,Cy=1,Dee=1,Ed=1"),
        "5, not 6",
    ),
    (
        "leaster winner without a trick",
        (*P5, "--leaster", "--winner", "Ann", "--leaster-tricks", "Ann=0,Bob=2,Cy=2,Dee=1,Ed=1"),
        "took no trick",
    ),
    (
        "leaster points without a trick",
        (
            *P5,
            "--leaster",
            "--leaster-points",
            "Ann=10,Bob=20,Cy=30,Dee=40,Ed=20",
            "--leaster-tricks",
            "Ann=0,Bob=2,Cy=2,Dee=1,Ed=1",
        ),
        "so took no card",
    ),
    (
        "leaster tie to be named",
        (*P5, "--leaster", "--leaster-points", "Ann=10,Bob=10,Cy=30,Dee=40,Ed=30"),
        "name the winner",
    ),
    (
        "leaster zero points, tricks unknown",
        (*P5, "--leaster", "--leaster-points", "Ann=0,Bob=10,Cy=30,Dee=40,Ed=40"),
        "give --leaster-tricks",
    ),
    (
        "leaster winner who did not take fewest",
        (
            *P5,
            "--leaster",
            "--winner",
            "Cy",
            "--leaster-points",
            "Ann=10,Bob=20,Cy=30,Dee=40,Ed=20",
        ),
        "took fewer",
    ),
    ("leaster with neither winner nor points", (*P5, "--leaster"), "needs --winner"),
    (
        "leaster under rules without leasters",
        ("--rules", "first-night", *P5, "--leaster", "--winner", "Ann"),
        "all_pass = redeal",
    ),
    # rules
    (
        "unknown preset",
        ("--rules", "stnadard", *ANN_BOB, "--points", 70),
        "did you mean 'standard'?",
    ),
    (
        "unknown setting",
        ("--set", "double_bump=true", *ANN_BOB, "--points", 70),
        "valid settings: all_pass",
    ),
    (
        "bad setting value",
        ("--set", "all_pass=dubler", *ANN_BOB, "--points", 70),
        "one of leaster, doubler, forced, redeal",
    ),
    (
        "setting of the other family",
        (
            "--rules",
            "schafkopf",
            "--set",
            "blitz=true",
            *SK[2:],
            "--picker",
            "Ann",
            "--partner",
            "Bob",
            "--points",
            70,
        ),
        "not a setting of schafkopf rules",
    ),
]


@pytest.mark.parametrize("args, message", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refused_with_one_clear_line(fails: Fails, args: tuple[object, ...], message: str) -> None:
    line = fails("check", *args)
    assert message in line


USAGE = [
    (
        "picker option with --leaster",
        (*P5, "--leaster", "--picker", "Ann"),
        "--picker does not belong with --leaster",
    ),
    (
        "leaster option without --leaster",
        (*ANN_BOB, "--points", 70, "--winner", "Cy"),
        "add --leaster",
    ),
    ("no picker", (*P5, "--partner", "Bob", "--points", 70), "Missing option '--picker'"),
    ("no points", (*ANN_BOB,), "Missing option '--points'"),
    ("no players", ("--picker", "Ann", "--points", 70), "Missing option '--players'"),
    ("points not a number", (*ANN_BOB, "--points", "lots"), "'lots' is not a valid integer"),
    ("bad leaster pairs", (*P5, "--leaster", "--leaster-points", "Ann=x"), "write NAME=N"),
    (
        "unknown game",
        (*SK, "--picker", "Ann", "--game", "ramsch", "--points", 70),
        "'ramsch' is not one of",
    ),
    ("misspelt option", (*ANN_BOB, "--pionts", 70), "Did you mean"),
]


@pytest.mark.parametrize("args, message", [u[1:] for u in USAGE], ids=[u[0] for u in USAGE])
def test_usage_errors_exit_2_on_one_line(
    fails: Fails, args: tuple[object, ...], message: str
) -> None:
    line = fails("check", *args, code=2)
    assert message in line
