"""Report arithmetic (scorepad.reports), tested as plain functions: no command line, no file."""

from collections import Counter
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from _types import Night
from conftest import memo_of

from scorepad.ledger import HandView, Scored
from scorepad.reports import (
    PlayerCounts,
    PlayerStats,
    RunningSeries,
    SheetRows,
    played_text,
    season,
    stats_records,
)
from scorepad.scoring import Outcome, Score
from scorepad.store.format import Row, RowKind

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Ed")


def _entry(
    kind: RowKind = RowKind.PICKER,
    deltas: dict[str, int] | None = None,
    outcome: Outcome = Outcome.WIN,
    schneider: bool = False,
    no_trick: bool = False,
    winners: Sequence[str] = (),
    **inputs: Any,
) -> Scored:
    deltas = deltas or {"Ann": 2, "Bob": 1, "Cy": -1, "Dee": -1, "Ed": -1}
    result = Score(
        outcome,
        1,
        MappingProxyType(deltas),
        MappingProxyType({}),
        (),
        True,
        1,
        tuple(winners),
        schneider,
        no_trick,
    )
    return Scored(Row(kind, **inputs), deltas, result, tuple(deltas))


WIN = _entry(dealer="Ed", picker="Ann", partners=("Bob",), points=64)
LOSS = _entry(
    deltas={"Ann": -4, "Bob": -2, "Cy": 2, "Dee": 2, "Ed": 2},
    outcome=Outcome.LOSS,
    schneider=True,
    dealer="Ann",
    picker="Ann",
    partners=("Bob",),
    points=25,
)
LEASTER = _entry(
    RowKind.LEASTER,
    {"Ann": -1, "Bob": -1, "Cy": -1, "Dee": 4, "Ed": -1},
    Outcome.LEASTER,
    winners=("Dee",),
    dealer="Bob",
    winner="Dee",
)


def player_stats(players: Sequence[str], counts: Counter[Scored]) -> dict[str, PlayerStats]:
    tally = PlayerCounts(players)
    tally.update(counts)
    return tally.finish()


def test_player_stats_count_each_hand_as_often_as_it_stands() -> None:
    stats = player_stats(PLAYERS, Counter({WIN: 3, LOSS: 1, LEASTER: 2}))
    ann, bob, cy, dee = stats["Ann"], stats["Bob"], stats["Cy"], stats["Dee"]
    assert (ann.played, ann.picks, ann.picker_wins, ann.picker_points) == (6, 4, 3, 3 * 64 + 25)
    assert (bob.partner, bob.picks) == (4, 0)
    assert (ann.schneider_against, cy.schneider_for) == (1, 1)  # the loss was schneider
    assert (dee.leasters_won, cy.leasters_won) == (2, 0)
    assert (ann.best, ann.worst) == (2, -4)
    assert cy.results == Counter({-1: 5, 2: 1})


def test_a_hand_alike_but_for_card_points_shares_the_score_and_counts_its_own_points() -> None:
    """The ledger gives a hand alike to one scored before (card points of the same class) that
    hand's score with its own card points: the reports count it with them."""
    alike = WIN.with_points(70)
    assert alike.deltas is WIN.deltas and alike.result is WIN.result
    assert alike.card_points == 70 and alike.row == WIN.row._replace(points=70)
    tally = PlayerCounts(PLAYERS)
    tally.add(WIN)
    tally.add(WIN)
    tally.add(alike)
    assert tally[WIN] == 2 and tally[alike] == 1
    ann = tally.finish()["Ann"]
    assert (ann.picks, ann.picker_wins, ann.picker_points) == (3, 3, 64 + 64 + 70)
    assert not tally  # (folded in)


def test_stats_records_give_rates_and_no_rate_without_picks() -> None:
    stats = player_stats(PLAYERS, Counter({WIN: 1, LOSS: 1}))
    records = {
        r["player"]: r
        for r in stats_records({"Ann": -2, "Bob": -1, "Cy": 1, "Dee": 1, "Ed": 1}, stats)
    }
    assert records["Ann"]["pick_rate"] == 1.0 and records["Ann"]["picker_win_rate"] == 0.5
    assert records["Ann"]["average_picker_points"] == 44.5
    assert records["Cy"]["picker_win_rate"] is None and records["Cy"]["pick_rate"] == 0.0


def test_a_bettel_counts_as_a_pick_but_not_in_the_average_card_points() -> None:
    """A bettel is won by taking no trick: its card points (0) say nothing of picking."""
    bettel = _entry(dealer="Ed", picker="Ann", game="bettel", points=0)
    stats = player_stats(PLAYERS, Counter({WIN: 1, bettel: 1}))
    assert (stats["Ann"].picks, stats["Ann"].counted_picks, stats["Ann"].picker_points) == (
        2,
        1,
        64,
    )
    records = {r["player"]: r for r in stats_records(dict.fromkeys(PLAYERS, 0), stats)}
    assert records["Ann"]["average_picker_points"] == 64.0
    only_bettels = player_stats(PLAYERS, Counter({bettel: 2}))
    records = {r["player"]: r for r in stats_records(dict.fromkeys(PLAYERS, 0), only_bettels)}
    assert records["Ann"]["picks"] == 2 and records["Ann"]["average_picker_points"] is None


def test_played_text_says_who_picked_with_whom_and_the_points() -> None:
    assert played_text(HandView(1, WIN)) == "Ann + Bob 64"
    assert played_text(HandView(2, LEASTER)) == "leaster: Dee"
    alone = _entry(dealer="Ed", picker="Cy", alone=True, points=95)
    assert played_text(HandView(3, alone)) == "Cy alone 95"
    doubler = Scored(Row(RowKind.DOUBLER, dealer="Ed"), dict.fromkeys(PLAYERS, 0), None, PLAYERS)
    assert played_text(HandView(4, doubler)) == "doubler"


def test_sheet_rows_show_points_running_totals_void_and_amended() -> None:
    views = [
        HandView(1, WIN, note="first"),
        HandView(2, LOSS, void=True),
        HandView(3, LEASTER, amended=True),
    ]
    plain = SheetRows(PLAYERS)
    rows = [plain.row(v) for v in views]
    assert rows[0] == [1, "Ed", "Ann + Bob 64", 2, 1, -1, -1, -1, "first"]
    assert rows[1][2] == "Ann + Bob 25, schneider (void)" and rows[1][3:8] == [None] * 5
    assert rows[2][2] == "leaster: Dee (amended)" and rows[2][3:8] == [-1, -1, -1, 4, -1]
    running = SheetRows(PLAYERS, running=True)
    rows = [running.row(v) for v in views]
    assert rows[1][3:8] == [2, 1, -1, -1, -1]  # a void hand adds nothing
    assert rows[2][3:8] == [1, 0, -2, 3, -2]
    assert running.total_row({"Ann": 1})[3:8] == [1, 0, 0, 0, 0]
    line = plain.csv_line(HandView(7, WIN, note='say "hi", Bob'))
    assert line == '7,Ed,Ann + Bob 64,2,1,-1,-1,-1,"say ""hi"", Bob"\n'


def test_a_sheet_line_of_a_hand_alike_with_others_names_its_own_card_points() -> None:
    """The sheet makes the line of a kind of hand once: each line still says its own points,
    and reads as the line made whole would."""
    import csv

    plain = SheetRows(PLAYERS)
    views = [
        HandView(1, WIN),
        HandView(2, WIN.with_points(70), note="=SUM(A1)"),
        HandView(3, LOSS.with_points(29), void=True),
        HandView(4, LOSS.with_points(28), amended=True, note="a, b"),
        HandView(5, LEASTER),
        HandView(6, WIN.with_points(64)),
    ]
    for view in views:
        line = plain.csv_line(view)
        whole = SheetRows(PLAYERS).row(view)
        note = "'" + view.note if view.note.startswith("=") else view.note
        assert next(csv.reader([line])) == [str(c) if c is not None else "" for c in whole[:-1]] + [
            note
        ]
    assert plain.csv_line(views[1]).startswith("2,Ed,Ann + Bob 70,")
    assert plain.csv_line(views[2]).startswith('3,Ann,"Ann + Bob 29, schneider (void)",,,')


def test_a_text_sheets_lines_hold_the_points_as_a_text_table_shows_them() -> None:
    """The text sheet's spool (`signed`) holds each cell as `text_cell` shows the sheet's row:
    points signed (+2, -1, 0), a player not at the table blank, the rest as the CSV's."""
    import csv

    from scorepad.render import Points, text_cell

    views = [
        HandView(1, WIN),
        HandView(2, WIN.with_points(70), note="=SUM(A1)"),
        HandView(3, LOSS.with_points(29), void=True),
        HandView(4, LOSS.with_points(28), amended=True, note="a, b"),
        HandView(5, LEASTER),
    ]
    for running in (False, True):
        text, plain, whole = (
            SheetRows(PLAYERS, running, signed=True),
            SheetRows(PLAYERS, running),
            SheetRows(PLAYERS, running),
        )
        for view in views:
            cells = next(csv.reader([text.csv_line(view)]))
            data = next(csv.reader([plain.csv_line(view)]))
            row = whole.row(view)
            shown = [text_cell(Points(c)) if c is not None else "" for c in row[3:-1]]
            assert cells == [*data[:3], *shown, data[-1]]
    line = SheetRows(PLAYERS, signed=True).csv_line(views[0])
    assert line == "1,Ed,Ann + Bob 64,+2,+1,-1,-1,-1,\n"


def test_a_text_sheet_knows_its_widest_cells_as_it_makes_its_lines() -> None:
    """The widths a text sheet keeps up as it makes its lines (`text_widths`: the widest cell
    of each column) are those of the cells its lines hold, hand after hand: numbers growing by
    a digit, card points of one, two and three digits, notes long and short (and one quoted),
    void and amended hands, hands made whole (running totals)."""
    import csv
    import random

    chance = random.Random(3)
    kinds = [WIN, LOSS, LEASTER]
    for running in (False, True):
        rows = SheetRows(PLAYERS, running, signed=True)
        lines = []
        for number in range(1, 1200, 7):
            entry = chance.choice(kinds)
            if entry.row.points is not None:
                entry = entry.with_points(chance.choice((0, 7, 29, 64, 100, 120)))
            note = chance.choice(("", "", "short", "a longer note, with a comma", "=formula"))
            view = HandView(number, entry, chance.random() < 0.1, chance.random() < 0.1, note)
            lines.append(rows.csv_line(view))
            widths = [max(map(len, column)) for column in zip(*csv.reader(lines))]
            assert rows.text_widths() == widths, number


def test_a_sheet_leaves_blank_a_player_not_yet_at_the_table() -> None:
    four = _entry(
        deltas={"Ann": 3, "Bob": -1, "Cy": -1, "Dee": -1},
        dealer="Dee",
        picker="Ann",
        alone=True,
        points=70,
    )
    rows = SheetRows(PLAYERS, running=True)
    assert rows.row(HandView(1, four))[3:8] == [3, -1, -1, -1, None]
    assert rows.row(HandView(2, WIN))[3:8] == [5, 0, -2, -2, -1]


def test_running_series_skips_void_hands() -> None:
    series = RunningSeries(PLAYERS)
    for view in (HandView(1, WIN), HandView(2, LOSS, void=True), HandView(3, LEASTER)):
        series.add(view)
    assert series.hands == [0, 1, 3]
    assert series.series["Dee"] == [0, -1, 3]


def test_running_series_of_a_long_night_keeps_each_runs_extremes_in_bounded_memory() -> None:
    """Past `EVERY` hands the series keeps, of each run of hands, each player's first, last,
    lowest and highest point: the line through them spans what the line through every hand
    spans in that run, and the night's lowest and highest are there."""
    import random

    chance = random.Random(7)
    hands = 50_000
    cell = 13
    series = RunningSeries(PLAYERS, expected=hands, bounds=range(cell, hands, cell))
    every: dict[str, list[int]] = {p: [0] for p in PLAYERS}  # after each hand counted
    counted = [0]  # the hands counted (a void hand is no point of the chart)
    views = (WIN, LOSS, LEASTER)
    for number in range(1, hands + 1):
        view = HandView(number, chance.choice(views), void=chance.random() < 0.02)
        series.add(view)
        if not view.void:
            counted.append(number)
            for p in PLAYERS:
                every[p].append(every[p][-1] + view.deltas.get(p, 0))
    kept = series.points()
    assert series.last == counted[-1]
    for p in PLAYERS:
        xs, ys = kept[p]
        assert len(xs) == len(ys) <= 4 * (hands // cell + 1) + 1 < hands // 3
        assert xs == sorted(set(xs)) and xs[0] == 0 and ys[0] == 0
        assert min(ys) == min(every[p]) and max(ys) == max(every[p])
        assert ys[-1] == every[p][-1]
        # within each run, the same span as every hand's
        runs: dict[int, list[int]] = {}
        for x, y in zip(xs[1:], ys[1:]):
            runs.setdefault(x // cell, []).append(y)
        inside: dict[int, list[int]] = {}
        for k, n in enumerate(counted[1:], 1):
            inside.setdefault(n // cell, []).append(every[p][k])
        assert runs.keys() == inside.keys()
        for at, values in runs.items():
            assert min(values) == min(inside[at]) and max(values) == max(inside[at])


def test_season_merges_names_case_blind_and_ranks_by_total() -> None:
    names, records = season([("fri", {"Ann": 5, "bob": -5}), ("sat", {"ANN": -1, "Cy": 1})])
    assert names == ["fri", "sat"]
    assert [r["player"] for r in records] == ["Ann", "Cy", "bob"]
    ann = records[0]
    assert ann["nights"] == {"fri": 5, "sat": -1} and ann["total"] == 4 and ann["played"] == 2
    assert records[2]["nights"] == {"fri": -5, "sat": None} and records[2]["average"] == -5.0


def test_a_count_of_the_pass_that_remembers_hands_holds_every_hand_the_full_pass_counts(
    night: Night,
) -> None:
    """Hands that repeat one scored before (or are alike to it but for card points of the same
    class) are counted as often as they stand, each with its own card points, as a pass that
    scores every row anew counts them."""
    from scorepad.ledger import Counts
    from scorepad.session import Session

    assert night("new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    for points in (64, 70, 64, 81, 64, 45, 50, 64):  # (hands that come again)
        hand = ("hand", "--picker", "Ann", "--partner", "Bob", "--points", points, "--tricks", 4)
        assert night(*hand).exit_code == 0

    def counted(remembers: bool) -> tuple[int, int, Counter[tuple[Any, ...]]]:
        counts = Counts()
        with Session(night.path).reading() as reading:
            reading.check(counts=counts, memo=memo_of(remembers))
        deltas: Counter[tuple[Any, ...]] = Counter()
        for entry, times in counts.items():
            deltas[tuple(sorted(entry.deltas.items()))] += times
        return sum(counts.values()), sum(e.card * n for e, n in counts.items()), deltas

    remembered, full = counted(True), counted(False)
    assert remembered[0] == 8
    assert remembered[1] == 64 + 70 + 64 + 81 + 64 + 45 + 50 + 64
    assert remembered == full
