"""Invariants of the ledger over generated nights, names and damaged files (hypothesis)."""

import json
import random
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from conftest import memo_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.cli import cli
from scorepad.errors import ScorepadError
from scorepad.store.format import check_new_name

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Ed"]


def invoke(path: Path, *args: object) -> Result:
    return CliRunner().invoke(cli, ["-f", str(path), *map(str, args)], prog_name="scorepad")


OPERATIONS = st.one_of(
    st.tuples(
        st.just("hand"), st.sampled_from(PLAYERS), st.sampled_from(PLAYERS), st.integers(0, 120)
    ),
    st.tuples(st.just("alone"), st.sampled_from(PLAYERS), st.integers(0, 120)),
    st.tuples(st.just("leaster"), st.sampled_from(PLAYERS)),
    st.tuples(
        st.just("noted"),
        st.sampled_from(PLAYERS),
        st.integers(0, 120),
        # (a note the JSON sheet writes into a line it made for the kind: quotes, a % sign)
        st.one_of(
            st.just(""),
            st.text(alphabet='a %"\\é{}', min_size=1, max_size=6).filter(lambda t: t.strip() == t),
        ),
    ),
    st.tuples(st.just("doubler")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("void"), st.integers(1, 12)),
    st.tuples(st.just("amend"), st.integers(1, 12), st.integers(0, 120)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["standard", "pagat"]),
    st.sampled_from(["queue", "multiply"]),
    st.lists(OPERATIONS, min_size=1, max_size=12),
)
def test_any_night_verifies_and_its_columns_sum_to_the_standings(
    preset: str, stacking: str, operations: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        assert (
            invoke(
                path,
                "new",
                "--players",
                ",".join(PLAYERS),
                "--rules",
                preset,
                "--set",
                "all_pass=doubler",
                "--set",
                f"doubler_stacking={stacking}",
            ).exit_code
            == 0
        )
        _play_and_check(path, operations)


TWO = st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2, unique=True)
HOUSE_OPERATIONS = st.one_of(
    TWO.flatmap(lambda two: st.tuples(st.just("hand"), *map(st.just, two), st.integers(23, 119))),
    st.tuples(st.just("alone"), st.sampled_from(PLAYERS), st.integers(23, 119)),
    TWO.map(lambda two: ("sixty", *two)),
    TWO.map(lambda two: ("notrick", *two)),
    st.tuples(
        st.just("schwanzer"),
        st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=5, unique=True),
    ),
    st.tuples(st.just("penalty"), st.sampled_from(PLAYERS), st.integers(1, 3)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("void"), st.integers(1, 6)),
    st.tuples(st.just("amend"), st.integers(1, 6), st.integers(23, 119)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["standard", "pagat"]),
    st.sampled_from(["loss", "loss-double-next", "doubler"]),
    st.sampled_from(["picker-rest", "equal"]),
    st.booleans(),
    st.lists(HOUSE_OPERATIONS, min_size=4, max_size=12),
)
def test_any_night_of_house_rules_verifies(
    preset: str, sixty: str, split: str, bump: bool, operations: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        settings = (
            "all_pass=schwanzer",
            f"sixty_sixty={sixty}",
            f"partner_split={split}",
            f"bump_on_no_trick={str(bump).lower()}",
        )
        args = ["new", "--players", ",".join(PLAYERS), "--rules", preset]
        for setting in settings:
            args += ["--set", setting]
        assert invoke(path, *args).exit_code == 0
        _play_and_check(path, operations)


FOUR = ["Anni", "Bertl", "Sepp", "Vroni"]
PAIR = st.lists(st.sampled_from(FOUR), min_size=2, max_size=2, unique=True)
BAVARIAN_OPERATIONS = st.one_of(
    PAIR.flatmap(
        lambda two: st.tuples(
            st.just("sk-partner"), *map(st.just, two), st.integers(0, 120), st.integers(0, 5)
        )
    ),
    st.tuples(
        st.just("sk-solo"),
        st.sampled_from(FOUR),
        st.sampled_from(["solo", "wenz", "farbwenz", "geier"]),
        st.integers(23, 119),
        st.integers(0, 4),
        st.integers(0, 2),
    ),
    st.tuples(st.just("sk-bettel"), st.sampled_from(FOUR), st.integers(0, 3)),
    st.tuples(st.just("sk-tout"), st.sampled_from(FOUR), st.booleans(), st.integers(0, 4)),
    st.tuples(
        st.just("sk-ramsch"),
        st.sampled_from(FOUR),
        st.lists(st.sampled_from(FOUR), max_size=2, unique=True),
        st.integers(0, 2),
    ),
    st.tuples(st.just("undo")),
    st.tuples(st.just("void"), st.integers(1, 6)),
    st.tuples(st.just("amend"), st.integers(1, 6), st.integers(23, 119)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(BAVARIAN_OPERATIONS, min_size=4, max_size=12))
def test_any_bavarian_night_verifies(operations: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        new = invoke(path, "new", "--rules", "bavarian", "--players", ",".join(FOUR))
        assert new.exit_code == 0
        _play_and_check(path, operations, FOUR)


POT_OPERATIONS = st.one_of(
    TWO.flatmap(lambda two: st.tuples(st.just("hand"), *map(st.just, two), st.integers(23, 119))),
    st.tuples(st.just("alone"), st.sampled_from(PLAYERS), st.integers(23, 119)),
    st.tuples(st.just("pot")),
    st.tuples(st.just("pot")),
    TWO.map(lambda two: ("sixty", *two)),
    st.tuples(st.just("penalty"), st.sampled_from(PLAYERS), st.integers(1, 3)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("void"), st.integers(1, 8)),
    st.tuples(st.just("amend"), st.integers(1, 8), st.integers(23, 119)),
    st.tuples(st.just("set"), st.sampled_from(["pot_max=0", "pot_max=12", "pot_ante=2"])),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["standard", "pagat"]),
    st.sampled_from(["as-hand", "equal"]),
    st.sampled_from(["loss", "loss-double-next", "doubler"]),
    st.lists(POT_OPERATIONS, min_size=4, max_size=14),
)
def test_any_night_of_the_pot_verifies(
    preset: str, split: str, sixty: str, operations: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        args = ["new", "--players", ",".join(PLAYERS), "--rules", preset, "--set", "all_pass=pot"]
        args += ["--set", f"pot_split={split}", "--set", f"sixty_sixty={sixty}"]
        assert invoke(path, *args).exit_code == 0
        _play_and_check(path, operations)


POT_AND_BOCK_OPERATIONS = st.one_of(
    POT_OPERATIONS,
    TWO.map(lambda two: ("notrick", *two)),  # (a Bock round follows a schwarz)
    TWO.map(lambda two: ("sixty", *two)),  # (and a 60-60)
    st.tuples(st.just("bock"), st.integers(1, 2)),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["as-hand", "equal"]),
    st.sampled_from(["queue", "multiply"]),
    st.sampled_from(["0", "3"]),
    st.lists(POT_AND_BOCK_OPERATIONS, min_size=4, max_size=16),
)
def test_any_night_of_the_pot_and_bock_rounds_verifies(
    split: str, stacking: str, hands: str, operations: list[tuple[Any, ...]]
) -> None:
    """The pot and Bock rounds in one night: a hand may play for the pot as a Bock hand, a pot
    row waits out a Bock round (as a doubler), and corrections are refused or made whole."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        args = ["new", "--players", ",".join(PLAYERS), "--set", "all_pass=pot"]
        args += ["--set", f"pot_split={split}", "--set", "bock_after=sixty-sixty,schwarz"]
        args += ["--set", f"bock_stacking={stacking}", "--set", f"bock_hands={hands}"]
        assert invoke(path, *args).exit_code == 0
        _play_and_check(path, operations)


def operation_args(op: tuple[Any, ...]) -> list[Any]:
    """The command line of a generated operation (`OPERATIONS` and the others)."""
    args: list[Any]
    if op[0] == "args":  # (an operation that carries its own command line)
        args = list(op[1:])
    elif op[0] == "sk-partner":
        args = ["hand", "--picker", op[1], "--partner", op[2], "--points", op[3]]
        args += ["--runs", op[4], "--tricks", 0 if op[3] <= 0 else 8 if op[3] == 120 else 4]
    elif op[0] == "sk-solo":
        args = ["hand", "--picker", op[1], "--game", op[2], "--points", op[3], "--runs", op[4]]
        args += ["--knocks", op[5]]
    elif op[0] == "sk-bettel":
        args = ["hand", "--picker", op[1], "--game", "bettel", "--tricks", op[2]]
    elif op[0] == "sk-tout":
        args = ["hand", "--picker", op[1], "--game", "wenz-tout", "--runs", op[3]]
        args += ["--points", 120, "--tricks", 8] if op[2] else ["--points", 90, "--tricks", 6]
    elif op[0] == "sk-ramsch":
        args = ["hand", "--ramsch", "--loser", op[1], "--knocks", op[3]]
        args += [a for name in op[2] if name != op[1] for a in ("--jungfrau", name)]
    elif op[0] == "sixty":
        args = ["hand", "--picker", op[1], "--partner", op[2], "--points", 60]
    elif op[0] == "notrick":
        args = ["hand", "--picker", op[1], "--partner", op[2], "--points", 0, "--tricks", 0]
    elif op[0] == "schwanzer":
        args = ["hand", "--schwanzer", *[a for name in op[1] for a in ("--loser", name)]]
    elif op[0] == "penalty":
        args = ["penalty", op[1], "--points", op[2]]
    elif op[0] == "hand":
        args = ["hand", "--picker", op[1], "--partner", op[2], "--points", op[3]]
    elif op[0] == "alone":
        args = ["hand", "--picker", op[1], "--alone", "--points", op[2]]
    elif op[0] == "leaster":
        args = ["amend", 1, "--leaster", "--winner", op[1]]
    elif op[0] == "noted":
        args = ["hand", "--picker", op[1], "--alone", "--points", op[2]]
        args += ["--note", op[3]] if op[3] else []
    elif op[0] == "doubler":
        args = ["hand", "--doubler"]
    elif op[0] == "pot":
        args = ["hand", "--pot"]
    elif op[0] == "bock":  # (the table's own Bock rounds)
        args = ["bock", "--rounds", op[1]]
    elif op[0] == "set":
        args = ["set", op[1]]
    elif op[0] == "undo":
        args = ["undo"]
    elif op[0] == "void":
        args = ["void", op[1]]
    else:
        args = ["amend", op[1], "--points", op[2]]
    return args


def test_the_json_sheet_writes_hands_of_a_kind_as_json_dumps_writes_each() -> None:
    """Hands alike but for their number, note and card points share a line made once with
    gaps (`HandLines`): each line is still what `json.dumps` writes of the hand's record."""
    from scorepad.reports import HandLines, hand_record
    from scorepad.session import Session

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        assert invoke(path, "new", "--players", ",".join(PLAYERS)).exit_code == 0
        # (five hands a round, one dealer each: the second round's hands are the first's kinds,
        # whose first hands had no note)
        notes = ["", "", 'a "100%" {x} \\\\', "", "é%s%d", "%", '"', "", "b", ""]
        for at, note in enumerate(notes):  # (Ann alone, or a leaster: no card points to fill)
            args = ["hand", "--picker", "Ann", "--alone", "--points", 70 + at % 5 + at // 5]
            if at % 5 in (1, 3):
                args = ["hand", "--leaster", "--winner", "Bob"]
            assert invoke(path, *args, *(["--note", note] if note else [])).exit_code == 0
        # (voided hands: two of one kind share a line of their own; one of another kind is
        # alike but for being void to a hand after it)
        assert invoke(path, "void", 1).exit_code == 0
        assert invoke(path, "void", 2).exit_code == 0
        assert invoke(path, "void", 7, "--reason", 'a "50%" mistake').exit_code == 0
        lines, made = HandLines(), []
        Session(path).check(on_hand=lambda v: made.append((lines.line(v), v)))
        assert len(made) == len(notes) > len({v.entry for _line, v in made})  # (some share one)
        assert [v.number for _line, v in made if v.void] == [1, 2, 7]
        for line, view in made:
            assert line == json.dumps(hand_record(view), ensure_ascii=False)
        sheet = json.loads(invoke(path, "sheet", "--format", "json").stdout)
        assert [hand["note"] for hand in sheet["hands"]][1:5] == notes[1:5]
        assert sheet["hands"][6]["note"] == f'{notes[6]}; void: a "50%" mistake'
        assert [hand["void"] for hand in sheet["hands"]] == [n in (1, 2, 7) for n in range(1, 11)]


def _play_and_check(
    path: Path, operations: list[tuple[Any, ...]], players: list[str] = PLAYERS
) -> None:
    """Run the operations on the session at `path`; after each, the file verifies (a refused
    one changed nothing); at the end the fast and full passes agree, and so do the columns."""
    for op in operations:
        before = path.read_bytes()
        args = operation_args(op)
        result = invoke(path, *args)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        if result.exit_code:
            assert result.stderr.startswith("Error: ")
            assert path.read_bytes() == before  # a refused command writes nothing
        verify = invoke(path, "verify")
        assert verify.exit_code == 0 and verify.stdout == "", (args, verify.stdout)
    standings = json.loads(invoke(path, "standings", "--format", "json").stdout)
    # (the players' totals and the pot sum to zero: the pot holds what they paid in)
    assert sum(standings["totals"].values()) + standings.get("pot", 0) == 0
    # the fast path (rows matched to remembered scores by their raw cells) agrees with
    # decoding and re-scoring every row

    from scorepad.ledger import HandView
    from scorepad.reports import PlayerCounts
    from scorepad.session import Session

    results = []
    for fast in (True, False):
        counts = PlayerCounts(players)
        ledger, problems = Session(path).check(counts=counts, memo=memo_of(fast))
        results.append(
            (ledger.totals, ledger.hands, problems, counts.finish(), ledger.pot, ledger.pot_hands)
        )
    assert results[0] == results[1]
    # counting alone (a corrected hand counted as its last correction leaves it) agrees with
    # counting in hand order beside a listener (each hand in its final version as it is reached)
    counts = PlayerCounts(players)
    Session(path).check(on_hand=lambda view: None, counts=counts)
    assert counts.finish() == results[0][3]
    # and every hand a listener is shown (as amended, voided, alike with others) is the same
    # when every row is decoded and re-scored (its row may be another hand's of its kind, with
    # card points of the same class: `card_points` are the hand's own)
    shown: list[list[tuple[object, ...]]] = [[], []]
    for fast, views in zip((True, False), shown):

        def listen(v: HandView, views: list[tuple[object, ...]] = views) -> None:
            views.append(
                (
                    v.number,
                    v.void,
                    v.amended,
                    v.note,
                    v.row._replace(points=None),  # (it stands for its kind: see above)
                    dict(v.deltas),
                    v.entry.result,
                    v.card_points,
                )
            )

        Session(path).check(on_hand=listen, memo=memo_of(fast))
    assert shown[0] == shown[1]
    # the JSON sheet's lines, made once a kind with gaps for the number, note and card
    # points, are what `json.dumps` makes of each hand's record
    from scorepad.reports import HandLines, hand_record

    lines, made = HandLines(), []
    Session(path).check(on_hand=lambda v: made.append((lines.line(v), v)))
    for line, view in made:
        assert line == json.dumps(hand_record(view), ensure_ascii=False)
    assert results[0][0] == standings["totals"]
    rows = path.read_text().splitlines()[3:]
    columns = dict.fromkeys(players, 0)
    import csv

    for cells in csv.reader(rows):
        for player, cell in zip(players, cells[3 : 3 + len(players)]):
            columns[player] += int(cell or 0)
    assert columns == standings["totals"]


def _valid(name: str) -> bool:
    try:
        check_new_name(name)
    except ScorepadError:
        return False
    return name == name.strip()


NAMES = st.text(st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=12).filter(_valid)


@settings(max_examples=40, deadline=None)
@given(st.lists(NAMES, min_size=3, max_size=5, unique_by=str.casefold))
def test_any_acceptable_names_round_trip(names: list[str]) -> None:
    import csv
    import io

    buffer = io.StringIO()
    csv.writer(buffer).writerow(names)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "names.csv"
        result = invoke(path, "new", "--players", buffer.getvalue().strip())
        assert result.exit_code == 0, result.stderr
        result = invoke(path, "hand", "--picker", names[0], "--alone", "--points", 70)
        assert result.exit_code == 0, result.stderr
        totals = json.loads(invoke(path, "standings", "--format", "json").stdout)["totals"]
        stored = [unicodedata.normalize("NFC", n) for n in names]  # names are kept composed
        assert list(totals) == stored and totals[stored[0]] == len(names) - 1


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(
        [
            "flip",
            "cut",
            "insert",
            "delete-line",
            "duplicate-line",
            "garbage",
            "number",
            "add-column",
            "remove-column",
            "bom",
            "lf",
            "formula-name",
        ]
    ),
)
def test_a_damaged_file_never_gives_a_traceback_nor_changes_on_failure(
    seed: int, damage: str
) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        invoke(path, "new", "--players", ",".join(PLAYERS))
        for winner in PLAYERS[:3]:
            invoke(path, "hand", "--leaster", "--winner", winner)
        invoke(path, "hand", "--picker", "Ann", "--partner", "Cy", "--points", 80)
        data = bytearray(path.read_bytes())
        lines = bytes(data).split(b"\r\n")
        if damage == "flip":
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif damage == "cut":
            data = data[: rng.randrange(len(data))]
        elif damage == "insert":
            at = rng.randrange(len(data))
            data[at:at] = rng.choice([b",", b'"', b"\r\n", b"\x00", b"9", b"\xff"])
        elif damage == "delete-line":
            del lines[rng.randrange(len(lines) - 1)]
            data = bytearray(b"\r\n".join(lines))
        elif damage == "duplicate-line":
            at = rng.randrange(len(lines) - 1)
            lines.insert(at, lines[at])
            data = bytearray(b"\r\n".join(lines))
        elif damage == "number":
            at = rng.randrange(3, len(lines) - 1)
            digits = [i for i, b in enumerate(lines[at]) if chr(b).isdigit()]
            if digits:
                line = bytearray(lines[at])
                line[rng.choice(digits)] = ord(str(rng.randrange(10)))
                lines[at] = bytes(line)
            data = bytearray(b"\r\n".join(lines))
        elif damage in ("add-column", "remove-column"):
            at = rng.randrange(len(lines) - 1)
            cells = lines[at].split(b",")
            if damage == "add-column":
                cells.insert(rng.randrange(len(cells) + 1), b"7")
            elif len(cells) > 1:
                del cells[rng.randrange(len(cells))]
            lines[at] = b",".join(cells)
            data = bytearray(b"\r\n".join(lines))
        elif damage == "bom":
            data = bytearray(b"\xef\xbb\xbf" + bytes(data))
        elif damage == "lf":
            data = bytearray(bytes(data).replace(b"\r\n", b"\n"))
        elif damage == "formula-name":
            data = bytearray(bytes(data).replace(b"Cy", b"=CMD()", 1))
        else:
            data = bytearray(rng.randbytes(rng.randint(0, 3000)))
        path.write_bytes(bytes(data))
        for args in (
            ["verify"],
            ["standings"],
            ["sheet"],
            ["status"],
            ["hand", "--leaster", "--winner", "Ed"],
            ["undo"],
            ["void", "1"],
            ["amend", "2", "--winner", "Bob"],
            ["repair"],
        ):
            before = path.read_bytes()
            result = invoke(path, *args)
            assert result.exception is None or isinstance(result.exception, SystemExit), (
                args,
                damage,
                repr(result.exception),
            )
            assert result.exit_code in (0, 1, 2)
            if result.exit_code and args != ["verify"]:
                assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, (
                    args,
                    result.stderr,
                )
                assert path.read_bytes() == before


HOSTILE = st.one_of(
    st.sampled_from(
        [
            "Ann",
            "ann",
            "Zoe\u0308",
            "",
            " ",
            "-1",
            "0",
            "121",
            "99999999999999999999",
            "9" * 5000,
            "=1+1",
            "@x",
            "Ann\r\nBob",
            "A,B",
            '"Ann',
            "\x00",
            "1e9",
            "2.0",
            "x" * 70000,
            "Bob,Cy",
            "NaN",
            "-",
            "--",
            "?",
            "²",  # a digit to str.isdigit, not to int()
            "Ann=²",
            "Ann=" + "9" * 5000,  # past int()'s 4300 digits, inside a NAME=N list
            "Ann=10,Bob=" + "9" * 30,
        ]
    ),
    st.text(max_size=30),
)
COMMANDS = st.sampled_from(
    [
        ["hand", "--picker", "{}", "--partner", "Bob", "--points", "70"],
        ["hand", "--picker", "Ann", "--partner", "{}", "--points", "70"],
        ["hand", "--picker", "Ann", "--partner", "Bob", "--points", "{}"],
        ["hand", "--picker", "Ann", "--alone", "--points", "80", "--tricks", "{}"],
        ["hand", "--leaster", "--winner", "{}"],
        ["hand", "--leaster", "--leaster-points", "{}"],
        ["hand", "--picker", "Ann", "--partner", "Bob", "--points", "70", "--note", "{}"],
        ["hand", "--picker", "Ann", "--partner", "Bob", "--points", "70", "--crack", "{}"],
        ["hand", "--picker", "Ann", "--partner", "Bob", "--points", "70", "--blitz", "{}"],
        ["hand", "--leaster", "--winner", "Ann", "--blind-points", "{}"],
        ["hand", "--schwanzer", "--loser", "{}"],
        ["hand", "--schwanzer", "--schwanzer-points", "{}"],
        ["penalty", "{}", "--points", "2"],
        ["penalty", "Ed", "--points", "{}"],
        ["penalty", "Ed", "--points", "2", "--to", "{}"],
        ["penalty", "Ed", "--points", "2", "--note", "{}"],
        ["amend", "{}", "--points", "60"],
        ["amend", "1", "--points", "{}"],
        ["amend", "1", "--note", "{}"],
        ["void", "{}"],
        ["void", "1", "--reason", "{}"],
        ["undo", "--reason", "{}"],
        ["seat", "add", "{}"],
        ["seat", "remove", "{}"],
        ["seat", "add", "Flo", "--after", "{}"],
        ["settle", "--rate", "{}"],
        ["settle", "--currency", "{}"],
        ["set", "{}"],
        ["set", "base=2", "--note", "{}"],
        ["sheet", "--format", "{}"],
        ["chart", "--width", "{}"],
        ["--wait", "{}", "status"],
    ]
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(COMMANDS, HOSTILE)
def test_hostile_options_to_every_command_never_crash_or_damage(
    command: list[str], value: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        assert invoke(path, "new", "--players", ",".join(PLAYERS)).exit_code == 0
        assert (
            invoke(path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 70).exit_code
            == 0
        )
        before = path.read_bytes()
        args = [value if word == "{}" else word for word in command]
        result = invoke(path, *args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args,
            result.exception,
        )
        if result.exit_code:
            assert result.exit_code in (1, 2)
            assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, (
                args,
                result.stderr,
            )
            assert path.read_bytes() == before
        verify = invoke(path, "verify")
        assert verify.exit_code == 0 and verify.stdout == "", (args, verify.stdout)
