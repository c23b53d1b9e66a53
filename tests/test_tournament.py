"""Tournaments: the draw, status, standings with their tie-breaks, the payout, late entries and
dropouts, and the refusals. Every standing and prize is worked out by hand beside its data."""

import json
import random
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import pytest
from _types import Fails, Run

from scorepad.rules import load_rules
from scorepad.tournament import draw, met, repeats, table_sizes

NAMES = (
    "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias,Irmi,Jakl,Kathi,Lenz,Marei,Naz,Ossi,Pauli,"
    "Quirin,Resi,Sepp,Toni,Urschl,Vroni,Wastl"
)
Hand = tuple[str, ...]


def solo(picker: str, game: str, points: int, tricks: int | None = None) -> Hand:
    more = ("--tricks", str(tricks)) if tricks is not None else ()
    return ("--picker", picker, "--game", game, "--points", str(points), *more)


def call(picker: str, partner: str, points: int, tricks: int | None = None) -> Hand:
    more = ("--tricks", str(tricks)) if tricks is not None else ()
    return ("--picker", picker, "--partner", partner, "--points", str(points), *more)


# The 23-player Preisschafkopf, seed 2026: three tables of 5 and two of 4 each round, 2 hands a
# round. At a table of five the first dealer is the last seat and sits out hand 1; the first
# seat deals and sits out hand 2. Each table's points, by hand, from the preis scale (a Rufspiel
# 1 from each, +1 schneider, +1 schwarz; a solo, wenz or geier 2 from each, the declarer +6; a
# tout 8 from each):
SEATS = {
    1: [
        ("Irmi", "Wastl", "Toni", "Anni", "Marei"),
        ("Ossi", "Naz", "Quirin", "Dori", "Sepp"),
        ("Lenz", "Kathi", "Evi", "Bertl", "Jakl"),
        ("Gustl", "Christl", "Franz", "Resi"),
        ("Hias", "Urschl", "Vroni", "Pauli"),
    ],
    2: [
        ("Naz", "Toni", "Evi", "Hias", "Resi"),
        ("Lenz", "Sepp", "Ossi", "Urschl", "Marei"),
        ("Dori", "Jakl", "Irmi", "Gustl", "Franz"),
        ("Anni", "Quirin", "Pauli", "Kathi"),
        ("Bertl", "Christl", "Vroni", "Wastl"),
    ],
    3: [
        ("Lenz", "Irmi", "Wastl", "Dori", "Pauli"),
        ("Anni", "Ossi", "Gustl", "Hias", "Bertl"),
        ("Franz", "Naz", "Kathi", "Jakl", "Christl"),
        ("Toni", "Resi", "Sepp", "Vroni"),
        ("Marei", "Urschl", "Evi", "Quirin"),
    ],
}
HANDS: dict[int, list[list[Hand]]] = {
    1: [
        # Irmi's solo (Marei out): Irmi +6, Wastl, Toni, Anni -2; Wastl and Toni's Rufspiel
        # (Irmi out): +1 each, Anni and Marei -1. Irmi +6, Wastl -1, Toni -1, Anni -3, Marei -1.
        [solo("Irmi", "solo", 70), call("Wastl", "Toni", 70)],
        # Ossi and Naz schneider (Sepp out) +2 each, Quirin and Dori -2; Dori's wenz lost
        # (Ossi out): Dori -6, Naz, Quirin, Sepp +2. Ossi +2, Naz +4, Quirin 0, Dori -8, Sepp +2.
        [call("Ossi", "Naz", 95, 7), solo("Dori", "wenz", 50)],
        # Lenz's geier schwarz (Jakl out): 2 + 1 + 1 = 4 from each, +12; Kathi and Jakl's
        # Rufspiel: Lenz +12, Kathi -3, Evi -5, Bertl -5, Jakl +1.
        [solo("Lenz", "geier", 120, 8), call("Kathi", "Jakl", 70)],
        # two Rufspiele each way: everyone 0.
        [call("Gustl", "Christl", 70), call("Franz", "Resi", 70)],
        # Hias's solo-tout +24, -8 each; Urschl's solo +6, -2 each:
        # Hias +22, Urschl -2, Vroni -10, Pauli -10.
        [solo("Hias", "solo-tout", 120, 8), solo("Urschl", "solo", 70)],
    ],
    2: [
        # Naz +1, Toni 0, Evi 0, Hias 0, Resi -1
        [call("Naz", "Toni", 70), call("Evi", "Hias", 70)],
        # Sepp's solo (Marei out), Marei's wenz (Lenz out): Lenz -2, Sepp +4, Ossi -4,
        # Urschl -4, Marei +6
        [solo("Sepp", "solo", 70), solo("Marei", "wenz", 70)],
        # Jakl's solo (Franz out), Gustl and Franz's Rufspiel (Dori out): Dori -2, Jakl +5,
        # Irmi -3, Gustl -1, Franz +1
        [solo("Jakl", "solo", 70), call("Gustl", "Franz", 70)],
        # two Rufspiele won schwarz, 3 each: Anni +6, Quirin 0, Pauli 0, Kathi -6
        [call("Anni", "Quirin", 120, 8), call("Anni", "Pauli", 120, 8)],
        # Bertl -1, Christl -1, Vroni +5, Wastl -3
        [call("Bertl", "Christl", 70), solo("Vroni", "solo", 70)],
    ],
    3: [
        # Irmi and Lenz lose (Pauli out), Dori and Pauli win (Lenz out):
        # Lenz -1, Irmi -2, Wastl 0, Dori +2, Pauli +1
        [call("Irmi", "Lenz", 50), call("Dori", "Pauli", 70)],
        # Gustl wins schwarz with Hias (Bertl out), then with Bertl (Anni out):
        # Anni -3, Ossi -6, Gustl +6, Hias 0, Bertl +3
        [call("Gustl", "Hias", 120, 8), call("Gustl", "Bertl", 120, 8)],
        # Naz wins schwarz with Kathi (Christl out), then plainly with Jakl (Franz out):
        # Franz -3, Naz +4, Kathi +2, Jakl -2, Christl -1
        [call("Naz", "Kathi", 120, 8), call("Naz", "Jakl", 70)],
        # Toni and Resi win schwarz twice: +6 each, Sepp and Vroni -6
        [call("Toni", "Resi", 120, 8), call("Resi", "Toni", 120, 8)],
        # Marei's solo lost (-6, +2 each), Evi and Urschl's Rufspiel:
        # Marei -7, Urschl +3, Evi +3, Quirin +1
        [solo("Marei", "solo", 50), call("Evi", "Urschl", 70)],
    ],
}
# The standings after three rounds: (place, player, total, solos, tied), with why each tie
# goes the way it goes.
STANDINGS = [
    (1, "Hias", 22, 1, False),
    (2, "Lenz", 9, 1, False),  # Lenz and Naz on 9: Lenz won a solo (a geier), Naz none
    (3, "Naz", 9, 0, False),
    (4, "Gustl", 5, 0, True),  # on 5, no solos, best round 6 each: they share places 4-6
    (4, "Resi", 5, 0, True),  # (name only orders them)
    (4, "Toni", 5, 0, True),
    (7, "Jakl", 4, 1, False),
    (8, "Irmi", 1, 1, False),  # Irmi's solo puts her above Quirin on 1
    (9, "Quirin", 1, 0, False),
    (10, "Sepp", 0, 1, False),  # Sepp's solo above Anni on 0
    (11, "Anni", 0, 0, False),
    (12, "Marei", -2, 1, False),  # on -2: Marei's solo first, then the best round:
    (13, "Evi", -2, 0, False),  # Evi's best +3,
    (14, "Franz", -2, 0, False),  # Franz's +1,
    (15, "Christl", -2, 0, False),  # Christl's 0
    (16, "Urschl", -3, 1, False),
    (17, "Bertl", -3, 0, False),
    (18, "Wastl", -4, 0, False),
    (19, "Kathi", -7, 0, False),
    (20, "Dori", -8, 0, True),  # on -8, no solos, best round +2 each: a shared place
    (20, "Ossi", -8, 0, True),
    (22, "Pauli", -9, 0, False),
    (23, "Vroni", -11, 1, False),
]


def record(run: Run, folder: Path, number: int, hands: Sequence[Sequence[Hand]]) -> None:
    for k, table in enumerate(hands, 1):
        for hand in table:
            result = run("-f", folder / f"round-{number}" / f"table-{k}.csv", "hand", *hand)
            assert result.exit_code == 0, (number, k, hand, result.stderr)


def drawn(run: Run, folder: Path) -> list[tuple[str, ...]]:
    result = run("tournament", "draw", folder, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return [tuple(t["players"]) for t in json.loads(result.stdout)["tables"]]


@pytest.fixture
def kirchweih(run: Run, tmp_path: Path) -> Path:
    """The 23-player Preisschafkopf, played to its end."""
    folder = tmp_path / "kirchweih"
    result = run(
        "tournament", "new", folder, "--name", "Kirchweih", "--rules", "preis",
        "--players", NAMES, "--rounds", "3", "--hands", "2", "--seed", "2026",
        "--entry", "10", "--currency", "€", "--round-prize", "5",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    for number in (1, 2, 3):
        assert drawn(run, folder) == SEATS[number]  # the seed draws these tables, every time
        record(run, folder, number, HANDS[number])
    return folder


def test_the_23_player_preisschafkopf_standings_by_hand(run: Run, kirchweih: Path) -> None:
    result = run("tournament", "standings", kirchweih, "--format", "json")
    assert result.exit_code == 0, result.stderr
    got = json.loads(result.stdout)
    assert [
        (s["place"], s["player"], s["total"], s["solos"], s["tied"]) for s in got["standings"]
    ] == STANDINGS
    hias = got["standings"][0]
    assert hias["rounds"] == {"1": 22, "2": 0, "3": 0} and hias["best_round"] == 22
    assert got["tie_breaks"] == ["solos", "best-round", "name"] and got["rounds_drawn"] == 3
    text = run("tournament", "standings", kirchweih).stdout
    assert " 4=  Gustl          +5     0    -1    +6        0" in text
    assert text.rstrip().endswith(
        "Kirchweih: all 3 rounds are done.\nTie-breaks: solos, best-round, name."
    )


def test_one_rounds_standings(run: Run, kirchweih: Path) -> None:
    got = json.loads(run("tournament", "standings", kirchweih, "--round", "2", "--format",
                         "json").stdout)  # fmt: skip
    top = [(s["place"], s["player"], s["total"]) for s in got["standings"][:4]]
    # round 2: Anni and Marei +6 (Marei's wenz is a solo won: she is ahead), Jakl and Vroni +5
    # (a solo each; best round is the round: 5 each; by name)
    assert top == [(1, "Marei", 6), (2, "Anni", 6), (3, "Jakl", 5), (3, "Vroni", 5)]


def test_the_23_player_payout_by_hand(run: Run, kirchweih: Path) -> None:
    got = json.loads(run("tournament", "payout", kirchweih, "--format", "json").stdout)
    # 23 entries x 10 = 230, no house share. Places: 30% 69.00, 15% 34.50, 10% 23.00; places
    # 4-6 are Gustl, Resi and Toni's: 10% + 10% + nothing = 46.00, 15.33 each, 0.01 left.
    # Each round's high score 5% = 11.50: Hias's 22; Anni and Marei's 6 (5.75 each); Gustl,
    # Resi and Toni's 6 (3.83 each, 0.01 left).
    assert (got["entries"], got["gross"], got["house"], got["pool"]) == (
        23, "230.00", "0.00", "230.00"
    )  # fmt: skip
    assert [
        (a["award"], a["players"], a["amount"], a["each"], a["undivided"]) for a in got["awards"]
    ] == [
        ("1", ["Hias"], "69.00", "69.00", "0.00"),
        ("2", ["Lenz"], "34.50", "34.50", "0.00"),
        ("3", ["Naz"], "23.00", "23.00", "0.00"),
        ("4-6", ["Gustl", "Resi", "Toni"], "46.00", "15.33", "0.01"),
        ("round 1", ["Hias"], "11.50", "11.50", "0.00"),
        ("round 2", ["Anni", "Marei"], "11.50", "5.75", "0.00"),
        ("round 3", ["Gustl", "Resi", "Toni"], "11.50", "3.83", "0.01"),
    ]
    assert got["prizes"] == {
        "Hias": "80.50", "Lenz": "34.50", "Naz": "23.00", "Gustl": "19.16", "Resi": "19.16",
        "Toni": "19.16", "Anni": "5.75", "Marei": "5.75",
    }  # fmt: skip
    # paid 206.98 of 230: 23.00 (the 10% given to nobody) and 0.02 that did not divide
    assert (got["remainder"], got["unallotted"], got["undivided"]) == ("23.02", "23.00", "0.02")
    assert got["final"] is True
    assert sum(Decimal(v) for v in got["prizes"].values()) + Decimal("23.02") == 230
    text = run("tournament", "payout", kirchweih).stdout
    assert "places 4-6          Gustl, Resi, Toni      20%   €46.00  €15.33" in text
    assert text.rstrip().endswith(
        "Remainder: €23.02 (€23.00 given to no place or round; €0.02 that does not divide "
        "among tied players)."
    )


def test_a_hand_edited_table_makes_standings_refuse_naming_it(
    run: Run, kirchweih: Path, fails: Fails
) -> None:
    path = kirchweih / "round-2" / "table-4.csv"
    data = path.read_bytes()
    assert data.count(b"\n1,picker,,3,3,-3,-3,") == 1
    # Anni's +3 made +4, Quirin's +3 made +2 (the hand still sums to 0)
    path.write_bytes(data.replace(b"\n1,picker,,3,3,-3,-3,", b"\n1,picker,,4,2,-3,-3,"))
    before = {p: p.read_bytes() for p in kirchweih.rglob("*") if p.is_file()}
    for command in ("standings", "payout"):
        line = fails("tournament", command, kirchweih)
        assert line.startswith(f"Error: {path}:4: ")
        assert line.endswith("the standings need every table to verify")
    status = json.loads(run("tournament", "status", kirchweih, "--format", "json").stdout)
    bad = [t for t in status["tables"] if t["problem"]]
    assert [(t["round"], t["table"]) for t in bad] == [(2, 4)]
    assert {p: p.read_bytes() for p in kirchweih.rglob("*") if p.is_file()} == before


def test_a_table_refuses_a_hand_past_its_rounds_count(
    run: Run, kirchweih: Path, fails: Fails
) -> None:
    path = kirchweih / "round-3" / "table-4.csv"  # four players: Toni and Resi's table
    before = path.read_bytes()
    line = fails("-f", path, "hand", *HANDS[3][3][0])
    assert line == "Error: not recorded: this table's round has 2 hands and all 2 are recorded"
    assert path.read_bytes() == before
    # a file of the same name outside a tournament takes the hand
    other = kirchweih.parent / "round-3" / "table-4.csv"
    other.parent.mkdir()
    other.write_bytes(before)
    assert run("-f", other, "hand", *HANDS[3][3][0]).exit_code == 0


def test_the_standings_footer_is_two_sentences_on_two_lines(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    run("tournament", "new", folder, "--name", "Cup", "--rules", "preis", "--players", NAMES,
        "--rounds", "3", "--hands", "2", "--seed", "2026")  # fmt: skip
    drawn(run, folder)
    for number, hands in ((1, HANDS[1]),):
        record(run, folder, number, hands)
    text = run("tournament", "standings", folder).stdout
    assert text.endswith(
        f"Cup: round 1 of 3 is done; next: scorepad tournament draw {folder}\n"
        "Tie-breaks: solos, best-round, name.\n"
    )


def test_status_counts_each_tables_hands(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    run("tournament", "new", folder, "--name", "T", "--rules", "preis", "--players", NAMES,
        "--rounds", "3", "--hands", "2", "--seed", "2026")  # fmt: skip
    assert run("tournament", "status", folder).stdout.startswith(
        f"T: no round drawn yet (of 3); next: scorepad tournament draw {folder}"
    )
    drawn(run, folder)
    record(run, folder, 1, [HANDS[1][0], HANDS[1][1][:1]])
    got = json.loads(run("tournament", "status", folder, "--format", "json").stdout)
    assert [(t["table"], t["hands"], t["of"], t["done"]) for t in got["tables"]] == [
        (1, 2, 2, True), (2, 1, 2, False), (3, 0, 2, False), (4, 0, 2, False), (5, 0, 2, False)
    ]  # fmt: skip
    text = run("tournament", "status", folder).stdout
    assert text.startswith("T: round 1 of 3: 1 of 5 tables done.\n")
    assert [line.split()[-2:] for line in text.splitlines() if "Ossi, Naz" in line] == [
        ["1/2", "playing"]
    ]
    # the next round waits for every table
    line = run("tournament", "draw", folder).stderr
    assert line == (
        "Error: round 1 is not done: table 2: 1 of 2 hands recorded (and 3 more); see "
        f"`scorepad tournament status {folder}`\n"
    )
    assert not (folder / "round-2").exists()


# --- the draw -----------------------------------------------------------------------------------


def test_table_sizes_by_the_rules() -> None:
    preis, sheep = load_rules("preis"), load_rules("sheepshead-tournament")
    # 23 at Schafkopf: three tables of 5 (the dealer sits out), two of 4
    assert table_sizes(23, 4, preis) == (5, 5, 5, 4, 4)
    assert table_sizes(24, 4, preis) == (4,) * 6
    # Sheepshead deals four (alone) and, with the dealer out, six: the fewest odd tables
    assert table_sizes(15, 5, sheep) == (5, 5, 5)
    assert table_sizes(23, 5, sheep) == (5, 5, 5, 4, 4)  # (not 6, 6, 6, 5: three odd)
    assert table_sizes(11, 5, sheep) == (6, 5)
    assert table_sizes(14, 5, sheep) == (5, 5, 4)


@pytest.mark.parametrize(
    "count, size, rules, why",
    [
        (11, 4, "preis", "11 players cannot be seated at tables of 4 or 5 (preis rules deal no "
                         "hand for 3)"),
        (6, 4, "schafkopf", "6 players cannot be seated at tables of 4 (a table of 5 needs the "
                            "dealer to sit out: sit_out = dealer, seats = 4; schafkopf rules deal "
                            "no hand for 3)"),
        (7, 5, "sheepshead-tournament", "7 players cannot be seated at tables of 5 or 6 or 4"),
    ],
)  # fmt: skip
def test_a_count_that_fits_no_tables_is_refused_saying_why(
    count: int, size: int, rules: str, why: str
) -> None:
    from scorepad.tournament import TournamentError

    with pytest.raises(TournamentError) as caught:
        table_sizes(count, size, load_rules(rules))
    assert str(caught.value) == why + ": enter or remove a player (tournament players add|remove)"


def test_the_draw_is_reproducible_from_its_seed(run: Run, tmp_path: Path) -> None:
    def first_round(name: str, seed: str, names: str = NAMES) -> list[tuple[str, ...]]:
        folder = tmp_path / name
        run("tournament", "new", folder, "--name", "T", "--rules", "preis", "--players", names,
            "--rounds", "2", "--hands", "1", "--seed", seed)  # fmt: skip
        return drawn(run, folder)

    assert first_round("a", "2026") == first_round("b", "2026") == SEATS[1]
    # the order players are entered in does not matter, only who plays
    reordered = ",".join(reversed(NAMES.split(",")))
    assert first_round("c", "2026", reordered) == SEATS[1]
    assert first_round("d", "2027") != SEATS[1]


def test_over_many_seeds_the_draw_repeats_fewer_pairings_than_a_plain_shuffle() -> None:
    players = NAMES.split(",")[:20]
    sizes = (4,) * 5

    def total(tries: int) -> int:
        found = 0
        for seed in range(40):
            rounds: list[tuple[tuple[str, ...], ...]] = []
            for number in (1, 2, 3, 4):
                tables, repeated = draw(players, sizes, seed, number, met(rounds), tries)
                assert repeated == repeats(tables, met(rounds))
                found += repeated
                rounds.append(tables)
        return found

    plain = 0  # a plain shuffle a round, from another generator
    rng = random.Random(5)
    for _ in range(40):
        rounds: list[tuple[tuple[str, ...], ...]] = []
        for _number in (1, 2, 3, 4):
            order = players[:]
            rng.shuffle(order)
            tables = tuple(tuple(order[i : i + 4]) for i in range(0, 20, 4))
            plain += repeats(tables, met(rounds))
            rounds.append(tables)
    kept = total(200)
    assert kept < total(1) and kept < plain / 2, (kept, plain)


# --- late entries and dropouts ------------------------------------------------------------------


def test_a_late_entry_and_a_dropout(run: Run, tmp_path: Path, fails: Fails) -> None:
    folder = tmp_path / "club"
    eight = "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias"
    run("tournament", "new", folder, "--name", "Club", "--rules", "preis", "--players", eight,
        "--rounds", "3", "--hands", "1", "--seed", "1", "--entry", "5")  # fmt: skip
    first = drawn(run, folder)
    assert sorted(len(t) for t in first) == [4, 4]
    bertl = next(t for t in first if "Bertl" in t)
    # Bertl's table: Bertl declares a solo and wins it, +6
    record(
        run,
        folder,
        1,
        [[solo("Bertl", "solo", 70)] if t is bertl else [call(t[0], t[1], 70)] for t in first],
    )
    out = run("tournament", "players", "add", folder, "Xaver").stdout
    assert out == "Xaver is entered from round 2 (9 entries).\n"
    out = run("tournament", "players", "remove", folder, "bertl").stdout
    assert out == "Bertl leaves after round 1, keeping the points played.\n"
    second = drawn(run, folder)
    seated = sorted(p for t in second for p in t)
    assert "Xaver" in seated and "Bertl" not in seated and len(seated) == 8
    # one entered and gone before being drawn leaves the list (and the pool)
    run("tournament", "players", "add", folder, "Yvonne")
    assert run("tournament", "players", "remove", folder, "Yvonne").stdout == (
        "Yvonne is no longer entered (9 entries).\n"
    )
    assert (
        fails("tournament", "players", "add", folder, "XAVER") == "Error: XAVER is already entered"
    )
    assert fails("tournament", "players", "remove", folder, "Bertl") == (
        "Error: Bertl already left after round 1"
    )
    got = json.loads(run("tournament", "standings", folder, "--format", "json").stdout)
    by_name = {s["player"]: s for s in got["standings"]}
    assert by_name["Bertl"]["rounds"] == {"1": 6, "2": None}  # round 1 kept, not drawn after
    assert by_name["Xaver"]["rounds"] == {"1": None, "2": 0}
    assert (
        json.loads(run("tournament", "payout", folder, "--format", "json").stdout)["entries"] == 9
    )  # the eight, and Xaver; Bertl paid his entry


# --- refusals: one line, exit 1 (or 2 for a command line), nothing written -----------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (("--rules", "preis", "--table-size", "5"), "--table-size 5: preis rules deal hands for 4 "
                                                     "players (and at 5 the dealer sits out)"),
        (("--rules", "first-night"), "--rules first-night: a race (settlement = race) has no "
                                     "points to rank by"),
        (("--rules", "preis", "--payout", "50,40,20"), "--payout: the places (110%) and the round "
                                                       "prizes (3 x 0%) come to 110% of the pool, "
                                                       "more than all of it"),
        (("--rules", "preis", "--tie-breaks", "solos,luck"), "--tie-breaks 'luck': not a "
                                                             "tie-break; use solos, best-round, "
                                                             "last-round, name"),
        (("--rules", "preis", "--entry", "ten"), "--entry 'ten': not an amount, e.g. 10 or 12.50 "
                                                 "(two decimals at most)"),
        (("--rules", "nosuch"), "unknown rules 'nosuch'"),
    ],
)  # fmt: skip
def test_new_refuses_bad_settings_and_writes_nothing(
    fails: Fails, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    folder = tmp_path / "t"
    line = fails("tournament", "new", folder, "--name", "T", "--players", NAMES, "--rounds",
                 "3", "--hands", "16", *args)  # fmt: skip
    assert line.startswith(f"Error: {message}"), line
    assert not folder.exists()


def test_new_refuses_a_folder_in_use_and_a_draw_past_the_last_round(
    run: Run, fails: Fails, tmp_path: Path
) -> None:
    folder = tmp_path / "t"
    new = ("tournament", "new", folder, "--name", "T", "--rules", "preis", "--players",
           "A,B,C,D", "--rounds", "1", "--hands", "1")  # fmt: skip
    assert run(*new).exit_code == 0
    before = (folder / "tournament.toml").read_bytes()
    assert "already exists and is not an empty folder" in fails(*new)
    assert (folder / "tournament.toml").read_bytes() == before
    drawn(run, folder)
    run("-f", folder / "round-1" / "table-1.csv", "hand", *call("A", "B", 70))
    assert fails("tournament", "draw", folder) == "Error: all 1 rounds are drawn"
    assert fails("tournament", "standings", tmp_path / "none").startswith(
        f"Error: {tmp_path / 'none'}: no tournament.toml here"
    )
    both = fails("tournament", "new", tmp_path / "u", "--name", "T", "--rules", "preis",
                 "--rounds", "1", "--hands", "1", code=2)  # fmt: skip
    assert "give the players with --players or --players-file" in both


def test_a_hand_edited_tournament_toml_is_refused(fails: Fails, run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    run("tournament", "new", folder, "--name", "T", "--rules", "preis", "--players", NAMES,
        "--rounds", "3", "--hands", "2")  # fmt: skip
    path = folder / "tournament.toml"
    path.write_text(path.read_text().replace("rounds = 3", "rounds = 0"))
    assert fails("tournament", "status", folder) == f"Error: {path}: rounds 0: 1 to 50 rounds"
    path.write_text(path.read_text().replace("rounds = 0", "rounds = 3\ncolour = 1"))
    assert fails("tournament", "draw", folder) == f"Error: {path}: unknown keys: colour"
    assert not (folder / "round-1").exists()


def test_draw_writes_score_sheets(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    run("tournament", "new", folder, "--name", "Cup", "--rules", "preis", "--players",
        "Ann,Bob,Cy,Dee", "--rounds", "1", "--hands", "3", "--seed", "3")  # fmt: skip
    result = run("tournament", "draw", folder, "--sheets")
    assert result.exit_code == 0
    sheet = (folder / "round-1" / "table-1.txt").read_text(encoding="utf-8")
    first = sheet.splitlines()
    assert first[0] == "Cup: round 1, table 1 (preis rules, 3 hands)"
    assert first[2] == f"Record each hand with: scorepad -f {folder}/round-1/table-1.csv hand ..."
    assert sum(line.strip().startswith(("1 ", "2 ", "3 ")) for line in first) == 3


# --- the 15-player Sheepshead tournament --------------------------------------------------------

FIFTEEN = "Al,Bea,Cal,Deb,Eli,Fay,Gil,Hal,Ida,Jo,Kit,Lu,Mo,Ned,Oz"


def test_a_15_player_sheepshead_tournament(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "fall"
    result = run(
        "tournament", "new", folder, "--name", "Fall Classic", "--rules",
        "sheepshead-tournament", "--players", FIFTEEN, "--rounds", "2", "--hands", "2",
        "--seed", "15", "--entry", "20", "--payout", "30,15,10,10,10", "--round-prize", "5",
        "--tie-breaks", "last-round,name",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    first = drawn(run, folder)
    assert [len(t) for t in first] == [5, 5, 5]
    # Each table, in seat order s1..s5 (the dealer s5, so s1 leads and picks first):
    # hand 1: s1 picks, calls s2 (the jack of diamonds), 64: s1 +2, s2 +1, the rest -1.
    # hand 2: s3 picks alone, 95 (schneider, stake 2): s3 +8, the rest -2.
    # s1 0, s2 -1, s3 +7, s4 -3, s5 -3 at every table.
    record(run, folder, 1, [[call(t[0], t[1], 64), ("--picker", t[2], "--alone", "--points",
                                                      "95")] for t in first])  # fmt: skip
    second = drawn(run, folder)
    # round 2: hand 1 s1 + s2, 50 (a loss): s1 -2, s2 -1, the rest +1; hand 2 a leaster won
    # by s4: s4 +4, the rest -1. s1 -3, s2 -2, s3 0, s4 +5, s5 0.
    record(run, folder, 2, [[call(t[0], t[1], 50), ("--leaster", "--winner", t[3])]
                            for t in second])  # fmt: skip
    assert first == [
        ("Al", "Lu", "Oz", "Mo", "Ida"),
        ("Eli", "Deb", "Kit", "Bea", "Gil"),
        ("Jo", "Cal", "Fay", "Ned", "Hal"),
    ]
    assert second == [
        ("Eli", "Cal", "Mo", "Fay", "Deb"),
        ("Hal", "Kit", "Ida", "Lu", "Jo"),
        ("Ned", "Gil", "Oz", "Bea", "Al"),
    ]
    got = json.loads(run("tournament", "standings", folder, "--format", "json").stdout)
    # by hand, (round 1, round 2) from the seats above; ties go by the last round, then the
    # players share the place (the name only orders them)
    assert [
        (s["place"], s["player"], s["total"], s["last_round"], s["tied"]) for s in got["standings"]
    ] == [
        (1, "Fay", 12, 5, False),  # 7 + 5
        (2, "Oz", 7, 0, False),  # 7 + 0
        (3, "Kit", 5, -2, False),  # 7 - 2
        (4, "Lu", 4, 5, False),  # -1 + 5
        (5, "Bea", 2, 5, False),  # -3 + 5
        (6, "Al", 0, 0, True),  # 0 + 0
        (6, "Jo", 0, 0, True),  # 0 + 0
        (8, "Deb", -1, 0, False),  # -1 + 0
        (9, "Ida", -3, 0, True),  # -3 + 0: on -3, the last round decides
        (9, "Mo", -3, 0, True),  # -3 + 0
        (11, "Cal", -3, -2, False),  # -1 - 2
        (12, "Eli", -3, -3, False),  # 0 - 3
        (13, "Gil", -5, -2, False),  # -3 - 2
        (14, "Hal", -6, -3, True),  # -3 - 3
        (14, "Ned", -6, -3, True),  # -3 - 3
    ]
    # each s3 picked alone and won: a solo each for Oz, Kit and Fay
    assert {s["player"] for s in got["standings"] if s["solos"]} == {"Oz", "Kit", "Fay"}
    pay = json.loads(run("tournament", "payout", folder, "--format", "json").stdout)
    # 15 x 20 = 300: places 90, 45, 30, 30, 30; 15.00 to each round's high score: round 1's
    # +7 is each table's s3 (5.00 each), round 2's +5 each table's s4
    assert pay["pool"] == "300.00"
    assert [(a["award"], a["players"], a["each"]) for a in pay["awards"]] == [
        ("1", ["Fay"], "90.00"),
        ("2", ["Oz"], "45.00"),
        ("3", ["Kit"], "30.00"),
        ("4", ["Lu"], "30.00"),
        ("5", ["Bea"], "30.00"),
        ("round 1", ["Fay", "Kit", "Oz"], "5.00"),
        ("round 2", ["Bea", "Fay", "Lu"], "5.00"),
    ]
    assert pay["prizes"]["Fay"] == "100.00"
    assert pay["remainder"] == "45.00"  # 100% - 75% - 2 x 5%: 15% given to nobody


# A late entry whose save of tournament.toml, made under the tournament's lock, first waits
# until the other entry waits for that lock (or is done, were there no lock): then the other
# can only read tournament.toml after this one is written. Events, never a time: the same
# however busy the machine.
_SLOW_ENTRY = """\
import os, sys, time
from pathlib import Path
from scorepad import tournament_store
from scorepad.store import files
folder, name, other, go = Path(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4])
marks = go.parent
trying = files.try_lock
def try_lock(fd, shared):
    got = trying(fd, shared)
    if not got:
        (marks / f"waits-{name}").touch()
    return got
files.try_lock = try_lock
saving = tournament_store.save
def save(where, t):
    while not ((marks / f"waits-{other}").exists() or (marks / f"done-{other}").exists()):
        time.sleep(0.005)
    saving(where, t)
tournament_store.save = save
print("ready", flush=True)
while not go.exists():
    time.sleep(0.005)
tournament_store.enter(folder, name)
(marks / f"done-{name}").touch()
"""


def test_two_late_entries_at_once_both_land(run: Run, tmp_path: Path) -> None:
    """tournament.toml is read, changed and written under the tournament's lock: an entry made
    while another is being written waits for it, and reads it."""
    import subprocess
    import sys

    from scorepad import tournament_store

    folder = tmp_path / "club"
    eight = "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias"
    run("tournament", "new", folder, "--name", "Club", "--rules", "preis", "--players", eight,
        "--rounds", "3", "--hands", "1", "--seed", "1")  # fmt: skip
    go = tmp_path / "go"
    entries = [
        subprocess.Popen(
            [sys.executable, "-c", _SLOW_ENTRY, str(folder), name, other, str(go)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for name, other in (("Xaver", "Yvonne"), ("Yvonne", "Xaver"))
    ]
    for entry in entries:  # (both started: they enter together)
        assert entry.stdout is not None and entry.stdout.readline() == "ready\n"
    go.touch()
    assert [entry.wait(timeout=300) for entry in entries] == [0, 0]
    names = [p.name for p in tournament_store.load(folder).players]
    assert names[-2:] in (["Xaver", "Yvonne"], ["Yvonne", "Xaver"]) and len(names) == 10
    assert sorted(p.name for p in folder.iterdir()) == [".tournament.lock", "tournament.toml"]
    assert {p.name for p in tmp_path.iterdir() if p.name.startswith("waits-")}  # (one waited)


def test_a_folder_holding_only_the_lock_is_empty_to_new(run: Run, tmp_path: Path) -> None:
    """(The lock is made only beside a tournament.toml: it is left alone when that is deleted
    by hand.)"""
    (tmp_path / ".tournament.lock").touch()
    made = run("tournament", "new", tmp_path, "--name", "Club", "--rules", "preis",
               "--players", "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias", "--rounds", "2",
               "--hands", "1", "--seed", "1")  # fmt: skip
    assert made.exit_code == 0, made.output
    (tmp_path / "x.txt").touch()
    (tmp_path / "tournament.toml").unlink()
    refused = run("tournament", "new", tmp_path, "--name", "Club", "--rules", "preis",
                  "--players", "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias", "--rounds", "2",
                  "--hands", "1", "--seed", "1")  # fmt: skip
    assert refused.exit_code == 1 and "not an empty folder" in refused.stderr


def test_a_change_to_a_folder_without_a_tournament_writes_nothing(
    fails: Fails, tmp_path: Path
) -> None:
    assert "tournament.toml" in fails("tournament", "players", "add", tmp_path, "Xaver")
    assert list(tmp_path.iterdir()) == []


def test_a_change_while_another_holds_the_lock_waits_as_long_as_wait_says(
    run: Run, tmp_path: Path
) -> None:
    import subprocess
    import sys

    from scorepad.store.lock import locked

    folder = tmp_path / "club"
    eight = "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias"
    run("tournament", "new", folder, "--name", "Club", "--rules", "preis", "--players", eight,
        "--rounds", "3", "--hands", "1", "--seed", "1")  # fmt: skip
    run("tournament", "players", "add", folder, "Xaver")  # (the lock file is there now)
    before = (folder / "tournament.toml").read_bytes()
    add = ["--wait", "0.3", "tournament", "players", "add", str(folder), "Yvonne"]
    with locked(folder / ".tournament.lock"):
        refused = subprocess.run(
            [sys.executable, "-m", "scorepad", *add], capture_output=True, text=True
        )
    assert refused.returncode == 1
    assert refused.stderr.startswith("Error: ") and refused.stderr.count("\n") == 1
    assert "locked by another scorepad" in refused.stderr
    assert (folder / "tournament.toml").read_bytes() == before
