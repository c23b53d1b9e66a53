"""Every command's output as users see it, frozen: the cases, how one is run, and its transcript.

One definition shared by tests/test_outputs_unchanged.py (which compares each case with its
fixture) and scripts/freeze_outputs.py (which writes the fixtures). A case is one or more
`scorepad` command lines run in-process through click's CliRunner, in a folder of their own
(the session files they write are copies), with the clock fixed (`FIXED_TIME`). Its transcript
is each command line, its exit code, its stdout and stderr, then every file the folder holds
afterwards: the text that `tests/fixtures/outputs/GROUP.txt` keeps for the case.

A transcript is exact: a stream is shown as it was, with its length in bytes; one whose lines
all end in CRLF is shown with LF (and says so), one without a newline at its end says so. Long
outputs (the bench's sessions) are kept as their length, sha256 and first and last lines.
"""

# ruff: noqa: E501  (the cases are tables of command lines, one to a line)

from __future__ import annotations

import contextlib
import difflib
import hashlib
import importlib
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "outputs"
WRITTEN = ROOT / "tests" / "fixtures" / "written"  # session files today's scorepad wrote
FIXED_TIME = "2026-11-27T20:00:00-06:00"
CLOCK = ("scorepad.session", "now")  # where a row's time comes from (see session.now)
ENV = {  # what the commands see of the environment (the terminal's width for the help)
    "COLUMNS": "80",
    "LINES": "24",
    "SCOREPAD_FILE": None,
    "SCOREPAD_WAIT": None,
    "NO_COLOR": None,
    "TERM": None,
}
SUMMARY_OVER = 4096  # bench outputs longer than this are kept as a summary
HEADER = "#### case: "
BENCH_SIZES = (10_000, 100_000)


@dataclass(frozen=True)
class Case:
    """Command lines run one after another in a fresh folder.

    `files` are copied into the folder first: name -> a path under ROOT, or literal bytes. A
    `bench` case runs in the folder of the generated bench sessions instead (read-only) or, with
    `files`, on copies of them (`bench:10000` as a source). `slow` cases (the
    100,000-hand session's) run with `pytest -m slow` (their fixtures are always written)."""

    group: str
    name: str
    steps: tuple[tuple[str, ...], ...]
    inputs: tuple[str | None, ...] = ()
    files: tuple[tuple[str, str | bytes], ...] = ()
    cwd_root: bool = False  # run in ROOT (read-only cases on the sample files themselves)
    bench: int = 0
    slow: bool = False
    keep: str | None = None  # save the folder's night.csv as tests/fixtures/written/KEEP

    @property
    def id(self) -> str:
        return f"{self.group}: {self.name}"


# ---------------------------------------------------------------------------------------------
# The sessions


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


SAMPLES = [_rel(p) for p in sorted((ROOT / "sample_sessions").glob("**/*.csv"))]
OLD_FILES = [
    _rel(p)
    for p in sorted((ROOT / "tests" / "fixtures" / "v1").glob("**/*.csv"))
    + sorted((ROOT / "tests" / "fixtures" / "v3").glob("**/*.csv"))
]
HAND_FILES = [_rel(p) for p in sorted((ROOT / "sample_sessions" / "hands").glob("*.txt"))] + [
    _rel(p) for p in sorted((ROOT / "tests" / "fixtures" / "v1" / "hands").glob("*.txt"))
]

REPORTS = [
    ("standings",),
    ("standings", "--format", "csv"),
    ("standings", "--format", "json"),
    ("standings", "--format", "grid"),
    ("sheet",),
    ("sheet", "--format", "csv"),
    ("sheet", "--format", "json"),
    ("sheet", "--running"),
    ("sheet", "--running", "--format", "csv"),
    ("settle",),
    ("settle", "--rate", "0.25"),
    ("settle", "--rate", "0.10", "--currency", "€", "--format", "json"),
    ("settle", "--format", "csv"),
    ("stats",),
    ("stats", "--format", "csv"),
    ("stats", "--format", "json"),
    ("status",),
    ("status", "--format", "json"),
    ("log",),
    ("log", "--format", "csv"),
    ("log", "--format", "json"),
    ("verify",),
    ("verify", "-v"),
    ("rules",),
    ("chart", "--width", "60", "--height", "12"),
]
"""Every report, in each of its kinds of output, on every sample session."""
OLD_REPORTS = [
    ("standings",),
    ("sheet",),
    ("sheet", "--format", "csv"),
    ("settle", "--rate", "0.25"),
    ("stats",),
    ("status",),
    ("log",),
    ("verify", "-v"),
]
"""The reports over a file of an older format (their data, as JSON, is today's: test_format)."""
WRITTEN_REPORTS = [
    *OLD_REPORTS,
    ("standings", "--format", "json"),
    ("sheet", "--format", "json"),
    ("stats", "--format", "json"),
    ("log", "--format", "csv"),
    ("rules", "--format", "json"),
    ("chart", "--width", "60", "--height", "12"),
]
"""The reports over the files today's scorepad wrote (tests/fixtures/written)."""
TABLE_FORMATS = [
    "grid",
    "github",
    "rounded_outline",
    "plain",
    "simple",
    "pipe",
    "orgtbl",
    "rst",
    "html",
    "latex",
    "tsv",
    "fancy_grid",
    "mediawiki",
]
WRITTEN_FILES = (
    "every-kind-standard.csv",
    "every-kind-bavarian.csv",
    "every-kind-pot.csv",
    "v1-appended.csv",
)


def _read(group: str, file: str, args: tuple[str, ...], name: str | None = None) -> Case:
    return Case(group, name or f"{file} {' '.join(args)}", (("-f", file, *args),), cwd_root=True)


def _one(group: str, *args: str, name: str | None = None, input: str | None = None) -> Case:
    return Case(group, name or " ".join(args), (args,), inputs=(input,), cwd_root=True)


def _script(
    group: str,
    name: str,
    *steps: tuple[str, ...] | tuple[tuple[str, ...], str],
    files: dict[str, str | bytes] | None = None,
    keep: str | None = None,
) -> Case:
    """Steps are argument tuples; one with input is (args, input)."""
    argv: list[tuple[str, ...]] = []
    inputs: list[str | None] = []
    for step in steps:
        if step and isinstance(step[0], tuple):
            argv.append(step[0])
            inputs.append(step[1])
        else:
            argv.append(step)
            inputs.append(None)
    return Case(
        group,
        name,
        tuple(argv),
        tuple(inputs),
        tuple((files or {}).items()),
        keep=keep,
    )


def _night(*args: str) -> tuple[str, ...]:
    return ("-f", "night.csv", *args)


def _edit_cell(data: bytes, row: int, column: str, value: str) -> bytes:
    """A session file's bytes with one cell changed (row 0 is the header), as csv writes it."""
    import csv
    import io

    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    rows[row][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue().encode("utf-8")


def _decimals(data: bytes) -> bytes:
    """A session as pandas writes it back: whole numbers of a column with gaps as 2.0."""
    import csv
    import io

    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    numbers = [rows[0].index(n) for n in ("hand", "points", "tricks", "Ann", "Bob")]
    for row in rows[3:]:
        for at in numbers:
            if row[at].lstrip("-").isdigit():
                row[at] += ".0"
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue().encode("utf-8")


def _tweak(source: str, edit: Callable[[bytes], bytes]) -> bytes:
    return edit((ROOT / source).read_bytes())


FRIDAY = "sample_sessions/standard-friday.csv"
BAVARIAN = "sample_sessions/bavarian-evening.csv"
FIVE = "Ann,Bob,Cy,Dee,Ed"
FOUR = "Ann,Bob,Cy,Dee"
REPORTS_AFTER = (
    _night("standings"),
    _night("sheet"),
    _night("stats"),
    _night("settle", "--rate", "0.5"),
    _night("status"),
    _night("log"),
    _night("verify", "-v"),
)


def _help_cases() -> list[Case]:
    commands = [
        "amend", "chart", "check", "count", "hand", "log", "new", "penalty", "play", "repair",
        "replay", "rules", "season", "seat", "serve", "set", "settle", "sheet", "standings",
        "stats", "status", "trick", "undo", "verify", "void",
    ]  # fmt: skip
    cases = [_one("help", "--help"), _one("help", "--version"), _one("help", name="(no args)")]
    cases += [_one("help", c, "--help") for c in commands]
    cases += [_one("help", "seat", "add", "--help"), _one("help", "seat", "remove", "--help")]
    cases += [_one("help", "hand", "-h"), _one("help", "nosuch"), _one("help", "stand")]
    return cases


def _sample_cases() -> list[Case]:
    cases = [_read("reports", file, args) for file in SAMPLES for args in REPORTS]
    for fmt in TABLE_FORMATS:
        for command in ("standings", "settle", "stats"):
            cases.append(_read("table-formats", FRIDAY, (command, "--format", fmt)))
    for fmt in ("grid", "markdown", "html", "latex", "tsv"):
        for command in ("sheet", "log"):
            cases.append(
                _read(
                    "table-formats", "sample_sessions/three-handed.csv", (command, "--format", fmt)
                )
            )
    for file in ("sample_sessions/house-rules.csv", "sample_sessions/six-dealer-sits-out.csv"):
        for fmt in ("json", "toml", "csv"):
            cases.append(_read("table-formats", file, ("rules", "--format", fmt)))
    cases.append(_read("table-formats", BAVARIAN, ("sheet", "--format", "rounded_outline")))
    cases.append(_read("table-formats", FRIDAY, ("status", "--format", "grid")))  # refused
    cases += [_read("older-formats", file, args) for file in OLD_FILES for args in OLD_REPORTS]
    written = [f"tests/fixtures/written/{name}" for name in WRITTEN_FILES]
    cases += [_read("written", file, args) for file in written for args in WRITTEN_REPORTS]
    return cases


def _season_cases() -> list[Case]:
    group = "season"
    cases = []
    for fmt in ("text", "csv", "json", "grid"):
        cases.append(_one(group, "season", "sample_sessions/league", "--format", fmt))
        cases.append(_one(group, "season", "sample_sessions/nights", "--format", fmt))
    league = [f"sample_sessions/league/2026-10-{d}.csv" for d in ("02", "09", "16")]
    cases += [
        _one(group, "season", *league),
        _one(group, "season", *reversed(league)),
        _one(group, "season", league[0], league[0]),  # a file twice: refused
        _one(group, "season", "sample_sessions/"),  # a race beside zero-sum nights: refused
        _one(group, "season", "sample_sessions/", "--skip-bad"),
        _one(group, "season", "tests/fixtures/v1/league"),
        _one(group, "season", "tests/fixtures/v3/league", "--format", "json"),
        _one(group, "season", "sample_sessions/first-night-race.csv"),
        _one(group, "season", FRIDAY, "sample_sessions/house-rules.csv", "--format", "csv"),
        _one(group, "season", "no-such-folder"),
        _one(group, "season"),
        _one(group, "season", "sample_sessions/hands"),
    ]
    bad = _tweak(league[1], lambda b: b.replace(b'{""Ann', b'{""Ann', 1)[:-40] + b"\r\n")
    cases += [
        _script(
            group,
            "a night that fails verification, with and without --skip-bad",
            ("season", "league"),
            ("season", "league", "--skip-bad"),
            ("season", "league", "--skip-bad", "--format", "json"),
            files={
                "league/a.csv": league[0],
                "league/b.csv": bad,
                "league/c.csv": league[2],
            },
        )
    ]
    return cases


def _card_cases() -> list[Case]:
    cases = []
    counts = [
        ("10C", "AC", "7D", "KC", "9H"),
        ("QC", "JD", "AS", "10H", "KD", "7C", "8C", "9S"),
        ("EO", "HA", "S10", "Eichel-Ober", "Herz-Sau"),
        ("Q♣", "10♦", "A♥"),
        ("TC", "TD"),
    ]
    for cards in counts:
        cases.append(_one("count", "count", *cards))
    for fmt in ("csv", "json", "grid"):
        cases.append(_one("count", "count", *counts[1], "--format", fmt))
    cases += [
        _one("count", "count", "ZZ"),
        _one("count", "count", "QC", "QC"),
        _one("count", "count"),
        _one("count", "count", "11C"),
    ]
    tricks = [
        ("trick", "10C", "AC", "7D", "KC", "9H"),
        ("trick", "--players", FIVE, "10C", "AC", "7D", "KC", "9H"),
        ("trick", "--players", FIVE, "QC", "JD", "AS", "10H", "KD"),
        ("trick", "--rules", "schafkopf", "--game", "wenz", "EO", "HU", "HA", "H10"),
        ("trick", "--rules", "schafkopf", "--game", "solo", "--trump", "H", "EA", "H7", "E10", "EK"),
        ("trick", "--rules", "schafkopf", "EO", "GO", "HO", "SO"),
        ("trick", "--rules", "bavarian", "--game", "geier", "--players", FOUR, "EU", "HO", "EA", "E7"),
        ("trick", "--rules", "first-night", "AH", "10H", "KH"),
        ("trick", "--players", FIVE, "10C", "AC", "7D", "KC", "9H", "--format", "json"),
        ("trick", "--players", FIVE, "10C", "AC", "7D", "KC", "9H", "--format", "csv"),
        ("trick", "--players", FIVE, "10C", "AC", "7D", "KC", "9H", "--format", "grid"),
        ("trick", "--players", "Ann,Bob", "10C", "AC", "7D"),
        ("trick", "QC", "QC"),
        ("trick", "XX"),
        ("trick", "--rules", "schafkopf", "--game", "solo", "EO", "GO"),
        ("trick", "--trump", "H", "QC", "JD"),
        ("trick", "--rules", "nosuch", "QC"),
    ]  # fmt: skip
    cases += [_one("trick", *t) for t in tricks]
    checks = [
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "64", "--tricks", "4"),
        ("--rules", "pagat", "--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "25", "--crack", "Cy"),
        ("--players", FIVE, "--leaster", "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=40,Ed=20", "--leaster-tricks", "Ann=1,Bob=1,Cy=1,Dee=2,Ed=1"),
        ("--rules", "schafkopf", "--players", FOUR, "--picker", "Ann", "--game", "solo", "--points", "95", "--tricks", "7", "--runs", "3"),
        ("--rules", "bavarian", "--players", FOUR, "--picker", "Ann", "--game", "wenz-tout", "--points", "120", "--tricks", "8", "--runs", "2", "--knocks", "1"),
        ("--rules", "bavarian", "--players", FOUR, "--ramsch", "--ramsch-points", "Ann=50,Bob=40,Cy=30,Dee=0", "--jungfrau", "Dee"),
        ("--set", "all_pass=schwanzer", "--players", FIVE, "--schwanzer", "--loser", "Ann"),
        ("--players", FIVE, "--picker", "Cy", "--alone", "--points", "95", "--crack", "Ed", "--recrack"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "120", "--tricks", "6", "--doubled"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "20", "--tricks", "0"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "60", "--tricks", "3"),
        ("--players", FIVE, "--dealer", "Cy", "--leaster", "--winner", "Dee"),
        ("--rules", "first-night", "--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "91", "--tricks", "5"),
        ("--set", "all_pass=forced", "--players", FIVE, "--picker", "Ed", "--forced", "--partner", "Ann", "--points", "50", "--tricks", "2"),
        ("--set", "blitz=true", "--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "70", "--tricks", "4", "--blitz", "2"),
        ("--set", "last_hand_doubled=true", "--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "70", "--last"),
        ("--set", "leaster_blind=set-aside", "--players", FIVE, "--leaster", "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=30,Ed=20", "--blind-points", "10"),
        ("--players", "Ann,Bob,Cy,Dee,Ed,Flo", "--picker", "Ann", "--partner", "Bob", "--points", "70", "--tricks", "4"),
        ("--players", "Ann,Bob,Cy", "--picker", "Ann", "--points", "70", "--tricks", "4"),
        ("--rules", "bavarian", "--players", FOUR, "--picker", "Ann", "--game", "hochzeit", "--partner", "Bob", "--points", "70", "--stoss", "2"),
        ("--rules", "bavarian", "--players", FOUR, "--picker", "Bob", "--game", "bettel", "--points", "0", "--tricks", "0"),
        ("--rules", "bavarian", "--players", FOUR, "--picker", "Cy", "--game", "sie", "--points", "120", "--tricks", "8"),
        ("--rules", "bavarian", "--players", FOUR, "--picker", "Dee", "--game", "farbwenz", "--points", "75", "--runs", "1"),
        ("--rules", "bavarian", "--players", FOUR, "--ramsch", "--ramsch-points", "Ann=120,Bob=0,Cy=0,Dee=0", "--durchmarsch", "Ann"),
    ]  # fmt: skip
    cases += [_one("check", "check", *c) for c in checks]
    for fmt in ("csv", "json", "grid", "markdown"):
        cases.append(_one("check", "check", *checks[0], "--format", fmt))
        cases.append(_one("check", "check", *checks[2], "--format", fmt))
    bad_checks = [
        ("--players", FIVE, "--picker", "Zed", "--points", "64"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Ann", "--points", "64"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "121"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "sixty"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "70", "--tricks", "9"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "120", "--tricks", "5"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob"),
        ("--players", FIVE, "--leaster"),
        ("--players", FIVE, "--leaster", "--picker", "Ann"),
        ("--players", FIVE, "--leaster", "--leaster-points", "Ann=10,Bob=20"),
        ("--players", "Ann,Ann,Cy,Dee,Ed", "--leaster", "--winner", "Cy"),
        ("--players", "Ann,Bob", "--leaster", "--winner", "Ann"),
        ("--picker", "Ann", "--points", "64"),
        ("--players", FIVE, "--schwanzer", "--loser", "Ann"),
        ("--rules", "nosuch", "--players", FIVE, "--leaster", "--winner", "Cy"),
        ("--set", "nosuch=1", "--players", FIVE, "--leaster", "--winner", "Cy"),
        ("--set", "base=zero", "--players", FIVE, "--leaster", "--winner", "Cy"),
        ("--set", "all_pass", "--players", FIVE, "--leaster", "--winner", "Cy"),
        ("--players", FIVE, "--picker", "Ann", "--game", "wenz", "--points", "70"),
        ("--rules", "schafkopf", "--players", FOUR, "--picker", "Ann", "--game", "solo", "--points", "70", "--runs", "9"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "70", "--crack", "Bob"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "70", "--format", "nosuch"),
        ("--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", "70", "--blitz", "1"),
    ]  # fmt: skip
    cases += [_one("check-errors", "check", *c) for c in bad_checks]
    for preset in ("standard", "pagat", "first-night", "schafkopf", "bavarian"):
        for fmt in ("text", "json", "toml", "csv"):
            cases.append(_one("rules", "rules", preset, "--format", fmt))
    cases += [
        _one("rules", "rules", "standard", "--format", "grid"),
        _one("rules", "rules", "standard", "--set", "all_pass=doubler", "--format", "toml"),
        _one("rules", "rules", "pagat", "--set", "double_on_the_bump=false", "--set", "base=2"),
        _one("rules", "rules", "nosuch"),
        _one("rules", "rules", "standard", "--set", "nosuch=1"),
        _one("rules", "rules", "standard", "--set", "sit_out=nobody"),
        _one("rules", "-f", "no-such.csv", "rules"),
        _script(
            "rules",
            "a rules file of a table's own",
            ("rules", "ours.toml"),
            ("rules", "ours.toml", "--format", "json"),
            ("check", "--rules", "ours.toml", "--players", FIVE, "--leaster", "--winner", "Cy"),
            ("rules", "broken.toml"),
            ("rules", "unknown.toml"),
            ("rules", "missing.toml"),
            files={
                "ours.toml": b'preset = "pagat"\nbase = 2\nall_pass = "doubler"\n',
                "broken.toml": b"preset = \n",
                "unknown.toml": b'preset = "standard"\ncolour = "blue"\n',
            },
        ),
    ]
    for path in HAND_FILES:
        cases.append(_one("replay", "replay", path))
        if "friday" in path or "sauspiel" in path or "ramsch" in path:
            for fmt in ("json", "csv"):
                cases.append(_one("replay", "replay", path, "--format", fmt))
    cases += [
        _one("replay", "replay", "sample_sessions/hands/friday-disputed.txt", "--format", "grid"),
        _one("replay", "replay", "no-such-hand.txt"),
        _one("replay", "replay", FRIDAY),
    ]
    walk = (ROOT / "sample_sessions" / "hands" / "first-night-walkthrough.txt").read_bytes()
    cases += [
        _script(
            "replay",
            "broken hand files",
            ("replay", "short.txt"),
            ("replay", "bad-card.txt"),
            ("replay", "empty.txt"),
            ("replay", "twice.txt"),
            files={
                "short.txt": walk[: len(walk) // 2],
                "bad-card.txt": walk.replace(b"QC", b"ZZ", 1),
                "empty.txt": b"",
                "twice.txt": walk.replace(b"10D", b"QS", 1),
            },
        ),
        _script(
            "replay",
            "replay --record into a session",
            _night("new", "--players", "West,North,East,Pat,South", "--dealer", "South"),
            _night("replay", "hand.txt", "--record", "--note", "from the cards"),
            _night("replay", "disputed.txt", "--record"),
            _night("replay", "hand.txt"),
            _night("sheet"),
            files={
                "hand.txt": "sample_sessions/hands/first-night-walkthrough.txt",
                "disputed.txt": "sample_sessions/hands/friday-disputed.txt",
            },
        ),
        _script(
            "replay",
            "replay --record into a session of other players",
            _night("new", "--players", FIVE),
            _night("replay", "hand.txt", "--record"),
            files={"hand.txt": "sample_sessions/hands/friday-disputed.txt"},
        ),
    ]
    return cases


def _night_scripts() -> list[Case]:
    group = "write"
    cases = []
    for preset in ("standard", "pagat", "first-night", "schafkopf", "bavarian"):
        players = FOUR if preset in ("schafkopf", "bavarian") else FIVE
        cases.append(
            _script(
                "new",
                f"new --rules {preset}",
                _night("new", "--players", players, "--rules", preset),
                _night("status"),
                _night("standings"),
            )
        )
    cases += [
        _script(
            "new",
            "new with settings and a dealer",
            _night("new", "--players", "Ann,Bob,Cy,Dee,Ed,Flo", "--set", "sit_out=dealer", "--dealer", "Cy"),
            _night("status", "--format", "json"),
        ),
        _script(
            "new",
            "new with a name with a comma, and an own rules file",
            _night("new", "--players", '"Smith, Jo",Bob,Cy,Dee,Ed', "--rules", "ours.toml"),
            _night("new", "--players", FIVE, "--rules", "ours.toml"),
            _night("rules"),
            _night("standings", "--format", "csv"),
            files={"ours.toml": b'preset = "pagat"\nbase = 2\n'},
        ),
        _script(
            "new",
            "new refused",
            _night("new", "--players", FIVE),
            _night("new", "--players", FIVE),
            ("-f", "a.csv", "new", "--players", "Ann,Ann,Cy,Dee,Ed"),
            ("-f", "b.csv", "new", "--players", "Ann,Bob"),
            ("-f", "c.csv", "new", "--players", FIVE, "--dealer", "Zed"),
            ("-f", "d.csv", "new", "--players", FIVE, "--rules", "nosuch"),
            ("-f", "e.csv", "new", "--players", "Ann,Bob,Cy,Dee,=Ed"),
            ("-f", "f.csv", "new", "--players", "Ann,Bob,Cy,Dee,points"),
            ("-f", "g.csv", "new", "--players", FIVE, "--set", "base=-1"),
            ("-f", "h.csv", "new"),
            ("-f", "i.csv", "new", "--players", FIVE, "--rules", "schafkopf"),
            ("-f", "nosuchdir/j.csv", "new", "--players", FIVE),
        ),
    ]  # fmt: skip
    cases.append(
        _script(
            group,
            "a standard night with every kind of row",
            _night("new", "--players", FIVE),
            _night(
                "hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--tricks", "4"
            ),
            _night(
                "hand",
                "--picker",
                "Cy",
                "--alone",
                "--points",
                "95",
                "--crack",
                "Ed",
                "--note",
                "Cy's big one",
            ),
            _night("hand", "--leaster", "--winner", "Dee"),
            _night(
                "hand",
                "--leaster",
                "--leaster-points",
                "Ann=10,Bob=20,Cy=30,Dee=40,Ed=20",
                "--leaster-tricks",
                "Ann=1,Bob=1,Cy=1,Dee=2,Ed=1",
            ),
            _night(
                "hand",
                "--picker",
                "Ed",
                "--partner",
                "Ann",
                "--points",
                "120",
                "--tricks",
                "6",
                "--explain",
            ),
            _night(
                "hand",
                "--picker",
                "Bob",
                "--partner",
                "Cy",
                "--points",
                "20",
                "--tricks",
                "0",
                "--format",
                "json",
            ),
            _night(
                "hand", "--picker", "Dee", "--partner", "Ed", "--points", "61", "--format", "csv"
            ),
            _night("penalty", "Ed", "--points", "2", "--note", "reneged"),
            _night(
                "penalty",
                "Cy",
                "--points",
                "3",
                "--to",
                "Ann",
                "--note",
                "looked at the blind",
                "--format",
                "json",
            ),
            _night("void", "2", "--reason", "misdeal found after scoring"),
            _night("undo", "--reason", "not a misdeal after all"),
            _night("amend", "3", "--winner", "Cy"),
            _night("amend", "1", "--points", "58", "--note", "recounted", "--explain"),
            _night("undo"),
            _night("amend", "5", "--partner", "Bob", "--format", "json"),
            _night("set", "all_pass=doubler", "--note", "Ed's house, Ed's rules"),
            _night("hand", "--doubler"),
            _night("hand", "--doubler", "--note", "again"),
            _night("status"),
            _night("hand", "--picker", "Ann", "--alone", "--points", "70", "--tricks", "4"),
            _night("hand", "--picker", "Bob", "--partner", "Cy", "--points", "80"),
            _night("seat", "add", "Flo", "--after", "Bob"),
            _night("status"),
            _night(
                "hand",
                "--picker",
                "Flo",
                "--partner",
                "Ann",
                "--points",
                "66",
                "--tricks",
                "4",
                "--out",
                "Cy",
            ),
            _night("seat", "remove", "Ed"),
            _night("seat", "add", "Gus"),
            _night("undo"),
            _night("set", "all_pass=schwanzer", "last_hand_doubled=true"),
            _night("hand", "--schwanzer", "--loser", "Bob"),
            _night("hand", "--schwanzer", "--schwanzer-points", "Ann=3,Bob=5,Cy=2,Dee=4,Flo=1"),
            _night("set", "double_on_the_bump=true"),
            _night("undo", "--format", "json"),
            _night(
                "hand",
                "--picker",
                "Dee",
                "--partner",
                "Flo",
                "--points",
                "40",
                "--tricks",
                "2",
                "--last",
                "--note",
                "the last hand",
            ),
            _night("void", "9", "--format", "csv"),
            *REPORTS_AFTER,
            _night("sheet", "--format", "json"),
            _night("sheet", "--running"),
            _night("stats", "--format", "json"),
            _night("log", "--format", "json"),
            _night("rules"),
            _night("chart", "--width", "60", "--height", "12"),
            keep="every-kind-standard.csv",
        )
    )
    cases.append(
        _script(
            group,
            "a Bavarian night with every kind of game",
            _night("new", "--players", "Anni,Bertl,Sepp,Vroni", "--rules", "bavarian"),
            _night("hand", "--picker", "Anni", "--partner", "Bertl", "--points", "73"),
            _night(
                "hand",
                "--picker",
                "Sepp",
                "--game",
                "wenz",
                "--points",
                "91",
                "--runs",
                "2",
                "--knocks",
                "1",
            ),
            _night("hand", "--picker", "Vroni", "--game", "solo", "--points", "31", "--stoss", "1"),
            _night(
                "hand",
                "--picker",
                "Bertl",
                "--game",
                "geier",
                "--points",
                "120",
                "--tricks",
                "8",
                "--explain",
            ),
            _night(
                "hand",
                "--ramsch",
                "--ramsch-points",
                "Anni=50,Bertl=40,Sepp=30,Vroni=0",
                "--jungfrau",
                "Vroni",
            ),
            _night("hand", "--ramsch", "--durchmarsch", "Anni"),
            _night(
                "hand",
                "--ramsch",
                "--ramsch-points",
                "Anni=40,Bertl=40,Sepp=20,Vroni=20",
                "--loser",
                "Bertl",
            ),
            _night(
                "hand",
                "--picker",
                "Sepp",
                "--game",
                "hochzeit",
                "--partner",
                "Anni",
                "--points",
                "65",
            ),
            _night(
                "hand", "--picker", "Vroni", "--game", "bettel", "--points", "0", "--tricks", "0"
            ),
            _night(
                "hand", "--picker", "Anni", "--game", "farbwenz", "--points", "75", "--runs", "1"
            ),
            _night(
                "hand",
                "--picker",
                "Bertl",
                "--game",
                "farbgeier",
                "--points",
                "95",
                "--tricks",
                "7",
            ),
            _night(
                "hand",
                "--picker",
                "Sepp",
                "--game",
                "solo-tout",
                "--points",
                "120",
                "--tricks",
                "8",
                "--runs",
                "3",
            ),
            _night(
                "hand", "--picker", "Vroni", "--game", "sie", "--points", "120", "--tricks", "8"
            ),
            _night("amend", "2", "--stoss", "2", "--no-crack"),
            _night("void", "3"),
            _night("penalty", "Sepp", "--points", "10"),
            # Bock rounds (format 8): the table's own, then one a schwarz brings
            _night("bock", "--note", "the table's round"),
            _night("set", "bock_after=schwarz"),
            _night(
                "hand", "--picker", "Anni", "--game", "solo", "--points", "120", "--tricks", "8"
            ),
            _night("hand", "--picker", "Bertl", "--partner", "Sepp", "--points", "70"),
            _night("status", "--format", "json"),
            *REPORTS_AFTER,
            _night("sheet", "--format", "json"),
            _night("stats", "--format", "json"),
            keep="every-kind-bavarian.csv",
        )
    )
    cases.append(
        _script(
            group,
            "a night of the pot: passed, doubled, capped, taken, corrected, settled",
            _night("new", "--players", FIVE, "--set", "all_pass=pot", "--set", "pot_max=12"),
            _night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "70"),
            _night("status"),
            _night("hand", "--pot", "--explain"),
            _night("hand", "--pot", "--format", "json"),
            _night("status"),
            _night("hand", "--picker", "Dee", "--partner", "Ed", "--points", "40", "--explain"),
            _night(
                "hand",
                "--picker",
                "Ann",
                "--alone",
                "--points",
                "50",
                "--crack",
                "Bob",
                "--explain",
            ),
            _night("void", "2"),
            _night("amend", "4", "--points", "35"),
            _night("amend", "4", "--points", "70"),
            _night(
                "hand", "--picker", "Bob", "--partner", "Cy", "--points", "95", "--format", "json"
            ),
            _night("undo"),
            _night("redo"),
            _night("set", "pot_split=equal", "pot_ante=2"),
            _night("hand", "--pot", "--dealer", "Ed"),
            _night("hand", "--picker", "Cy", "--partner", "Dee", "--points", "64", "--explain"),
            _night("hand", "--pot"),
            _night("set", "all_pass=leaster"),
            _night("hand", "--leaster", "--winner", "Ed"),
            _night("penalty", "Ann", "--points", "1"),
            _night("hand", "--pot"),
            _night("hand", "--scores", "Ann=2,Bob=-2,Cy=1,Dee=0,Ed=-1", "--note", "a Schieber"),
            _night("set", "base=2", "--from", "12"),
            _night("seat", "remove", "Ed"),
            _night("check", "--players", FIVE, "--picker", "Ann", "--points", "70", "--pot", "5"),
            *REPORTS_AFTER,
            _night("sheet", "--format", "json"),
            _night("sheet", "--format", "csv"),
            _night("standings", "--format", "json"),
            _night("status", "--format", "json"),
            _night("settle", "--format", "json"),
            _night("verify", "-v"),
            keep="every-kind-pot.csv",
        )
    )
    cases += [
        _script(
            group,
            "house rules: forced, blitz, set-aside blind",
            _night("new", "--players", FIVE, "--rules", "pagat", "--set", "all_pass=forced", "--set", "blitz=true"),
            _night("hand", "--picker", "Ed", "--forced", "--partner", "Bob", "--points", "50", "--tricks", "2"),
            _night("hand", "--picker", "Bob", "--partner", "Cy", "--points", "70", "--tricks", "4", "--blitz", "2", "--crack", "Dee", "--recrack"),
            _night("set", "all_pass=leaster", "leaster_blind=set-aside"),
            _night("hand", "--leaster", "--leaster-points", "Ann=10,Bob=20,Cy=30,Dee=30,Ed=20", "--blind-points", "10"),
            *REPORTS_AFTER,
        ),
        _script(
            group,
            "a first-night race",
            _night("new", "--players", FIVE, "--rules", "first-night"),
            _night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "91", "--tricks", "5"),
            _night("hand", "--picker", "Cy", "--partner", "Dee", "--points", "40", "--tricks", "2"),
            _night("penalty", "Ann", "--points", "1"),
            _night("hand", "--picker", "Ed", "--partner", "Ann", "--points", "120", "--tricks", "6"),
            _night("undo"),
            *REPORTS_AFTER,
        ),
        _script(
            group,
            "writing to a copy of every sample",
            *[
                step
                for name in ("friday", "bavarian", "race", "six", "three", "house")
                for step in (
                    ("-f", f"{name}.csv", "status"),
                    ("-f", f"{name}.csv", "undo"),
                    ("-f", f"{name}.csv", "standings"),
                )
            ],
            files={
                "friday.csv": FRIDAY,
                "bavarian.csv": BAVARIAN,
                "race.csv": "sample_sessions/first-night-race.csv",
                "six.csv": "sample_sessions/six-dealer-sits-out.csv",
                "three.csv": "sample_sessions/three-handed.csv",
                "house.csv": "sample_sessions/house-rules.csv",
            },
        ),
        _script(
            group,
            "a hand on a copy of standard-friday",
            _night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--tricks", "4"),
            _night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "70", "--dealer", "Cy"),
            _night("amend", "30", "--points", "40", "--tricks", "2"),
            _night("void", "41"),
            _night("undo"),
            _night("undo"),
            _night("undo"),
            _night("log"),
            _night("verify", "-v"),
            files={"night.csv": FRIDAY},
        ),
        _script(
            group,
            "an older file (format 1) stays in its format",
            _night("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--tricks", "4"),
            _night("hand", "--leaster", "--winner", "Cy"),
            _night("void", "3"),
            _night("amend", "5", "--points", "80"),
            _night("undo"),
            _night("seat", "add", "Flo"),
            _night("undo"),
            _night("penalty", "Ed", "--points", "1"),
            _night("set", "sit_out=dealer"),
            _night("verify", "-v"),
            files={"night.csv": "tests/fixtures/v1/standard-friday.csv"},
            keep="v1-appended.csv",
        ),
        _script(
            group,
            "an older file (format 3): set rewrites it in today's format",
            _night("hand", "--picker", "Gus", "--partner", "Hal", "--points", "64", "--tricks", "4"),
            _night("set", "double_on_the_bump=false"),
            _night("hand", "--picker", "Hal", "--partner", "Ida", "--points", "64", "--tricks", "4"),
            _night("verify", "-v"),
            _night("standings"),
            files={"night.csv": "tests/fixtures/v3/pagat-bump-and-cracks.csv"},
        ),
    ]  # fmt: skip
    errors = [
        ("hand", "--picker", "Zed", "--points", "64"),
        ("hand", "--picker", "Ann", "--partner", "Ann", "--points", "64"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "121"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "120", "--tricks", "2"),
        ("hand", "--picker", "Ann", "--partner", "Bob"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--dealer", "Zed"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--out", "Ann"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--game", "wenz"),
        ("hand", "--doubler"),
        ("hand", "--schwanzer", "--loser", "Ann"),
        ("hand", "--ramsch", "--ramsch-points", "Ann=120"),
        ("hand", "--leaster"),
        ("hand", "--leaster", "--winner", "Zed"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--note", "line\nbreak"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--last"),
        ("hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--format", "yaml"),
        ("hand",),
        ("amend", "99", "--points", "50"),
        ("amend", "1"),
        ("amend", "1", "--points", "130"),
        ("amend", "1", "--partner", "Ann"),
        ("amend", "zero", "--points", "50"),
        ("void", "99"),
        ("void", "1"),
        ("void", "1"),
        ("amend", "1", "--points", "50"),
        ("penalty", "Zed", "--points", "2"),
        ("penalty", "Ann", "--points", "0"),
        ("penalty", "Ann", "--points", "2", "--to", "Ann"),
        ("penalty", "Ann"),
        ("seat", "add", "Ann"),
        ("seat", "add", "Flo", "--after", "Zed"),
        ("seat", "remove", "Zed"),
        ("seat", "add", "points"),
        ("seat", "remove"),
        ("seat", "swap", "Ann"),
        ("set", "nosuch=1"),
        ("set", "base=zero"),
        ("set", "sit_out=dealer"),
        ("set", "base"),
        ("set",),
        ("--wait", "-1", "status"),
        ("--wait", "nan", "status"),
        ("settle", "--rate", "-1"),
        ("settle", "--rate", "abc"),
        ("settle", "--currency", "dollars"),
        ("status", "--format", "csv"),
        ("chart", "--width", "5"),
        ("chart", "--output", "chart.txt"),
        ("verify", "--quiet"),
    ]
    cases.append(
        _script(
            "write-errors",
            "bad inputs to the writing commands",
            _night("new", "--players", FIVE),
            _night("undo"),
            _night("void", "1"),
            _night(
                "hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--tricks", "4"
            ),
            *[_night(*e) for e in errors],
            _night("undo"),
            _night("undo"),
            _night("undo"),
            _night("verify"),
        )
    )
    cases.append(
        _script(
            "write-errors",
            "no session file",
            *[
                ("-f", "missing.csv", *c)
                for c in (
                    ("standings",),
                    ("sheet",),
                    ("settle",),
                    ("stats",),
                    ("status",),
                    ("log",),
                    ("verify",),
                    ("chart",),
                    ("hand", "--leaster", "--winner", "Ann"),
                    ("undo",),
                    ("void", "1"),
                    ("amend", "1", "--points", "3"),
                    ("penalty", "Ann", "--points", "1"),
                    ("seat", "add", "Ann"),
                    ("set", "base=2"),
                    ("repair",),
                )
            ],
            ("-f", "folder", "standings"),
            ("-f", "notes.txt", "standings"),
            ("-f", "empty.csv", "standings"),
            ("-f", "empty.csv", "verify"),
            files={"folder/x.csv": FRIDAY, "notes.txt": b"just some notes\n", "empty.csv": b""},
        )
    )
    # broken files: what verify and the reports say, and what repair mends
    friday = (ROOT / FRIDAY).read_bytes()
    lines = friday.split(b"\r\n")
    broken = {
        "torn.csv": friday[:-25],
        "blank-lines.csv": friday + b"\r\n\r\n\r\n",
        "decimals.csv": _decimals(friday),
        "decimals-broken.csv": friday.replace(b',"{""Ann"":-1,', b',"{""Ann"":-1.0,', 1)
        .replace(b",64,", b",64.0,", 1)
        .replace(b",1,picker,", b",1.0,picker,", 1),
        "empty.csv": b"",
        "edited-points.csv": b"\r\n".join([*lines[:10], lines[10].replace(b",66,", b",67,", 1), *lines[11:]]),
        "edited-total.csv": b"\r\n".join([*lines[:-3], lines[-3].replace(b'""Ann"":', b'""Ann"":1', 1), *lines[-2:]]),
        "swapped.csv": b"\r\n".join([*lines[:5], lines[6], lines[5], *lines[7:]]),
        "no-rules.csv": b"\r\n".join(lines[:1] + lines[2:]),
        "bom.csv": b"\xef\xbb\xbf" + friday,
        "lf.csv": friday.replace(b"\r\n", b"\n"),
        "newer.csv": _edit_cell(friday, 1, "format", "11"),
        "bad-kind.csv": _edit_cell(friday, 8, "kind", "pickr"),
        "bad-name.csv": _edit_cell(friday, 9, "picker", "Zed"),
        "void-of-nothing.csv": _edit_cell(friday, 20, "ref", "99"),
        "header-only.csv": lines[0] + b"\r\n",
        "garbage.csv": b"\x00\x01\x02 not a csv \xff\xfe\r\n",
    }  # fmt: skip
    for name in broken:
        steps: list[tuple[str, ...]] = [("-f", name, c) for c in ("verify", "standings", "status")]
        steps += [("-f", name, "sheet", "--format", "csv")]
        steps += [("-f", name, "repair"), ("-f", name, "repair"), ("-f", name, "verify")]
        cases.append(_script("broken-files", name, *steps, files={name: broken[name]}))
    cases.append(
        _script(
            "broken-files",
            "a hand after a torn last line",
            _night("hand", "--leaster", "--winner", "Ann"),
            _night("repair"),
            _night("hand", "--leaster", "--winner", "Ann"),
            files={"night.csv": broken["torn.csv"]},
        )
    )
    # play: the guided mode
    plays = {
        "a picker hand and a leaster": "ann\nBob\nclubs\n64\n4\n\n\nleaster\nCy\ny\n\n",
        "wrong answers asked again": "Zed\nAnn\nAnn\nBob\ndiamonds\n\n121\nsixty\n70\n9\n\nAnn\nEd\nmaybe\ny\ny\n",
        "notes, undo, seats and help": "?\nAnn\nBob\n\n70\n4\n\nAnn's big one\nundo\njoin Flo\nleave Flo\n\n",
        "every trick, asked the tricks": "Ann\nBob\n\n120\n\n6\n\n\n\n",
        "the input ends half way": "Ann\nBob\n",
        "nothing": "",
    }
    for name, answers in plays.items():
        cases.append(
            _script(
                "play",
                name,
                _night("new", "--players", FIVE),
                (_night("play"), answers),
                _night("sheet"),
            )
        )
    cases += [
        _script(
            "play",
            "doublers and a Schafkopf solo",
            _night("new", "--players", FIVE, "--set", "all_pass=doubler"),
            (_night("play"), "doubler\n\nAnn\nalone\n70\n\n\n\n\n"),
            ("-f", "sk.csv", "new", "--players", FOUR, "--rules", "schafkopf"),
            (("-f", "sk.csv", "play"), "Bob\nsolo\n95\n7\n\n3\n\n\n"),
            ("-f", "sk.csv", "sheet"),
        ),
        _script(
            "play",
            "offers to start a session",
            (_night("play"), "\n\nAnn,Bob,Cy,Dee,Ed\nAnn\nBob\n\n70\n4\n\n\n\n"),
            (("-f", "other.csv", "play"), "n\n"),
        ),
        _script(
            "play",
            "on a copy of bavarian-evening",
            (_night("play"), "?\nSepp\nwenz\n91\n6\n\n2\n\n\n\n"),
            files={"night.csv": BAVARIAN},
        ),
    ]
    return cases


def _bench_cases() -> list[Case]:
    cases = []
    ten = "session-10000.csv"
    reports = [
        ("standings",),
        ("standings", "--format", "json"),
        ("sheet",),
        ("sheet", "--format", "csv"),
        ("sheet", "--format", "json"),
        ("sheet", "--running", "--format", "csv"),
        ("settle", "--rate", "0.25"),
        ("settle", "--format", "json"),
        ("stats",),
        ("stats", "--format", "json"),
        ("status",),
        ("status", "--format", "json"),
        ("log",),
        ("log", "--format", "csv"),
        ("verify", "-v"),
        ("rules",),
        ("chart", "--width", "60", "--height", "12"),
    ]
    for args in reports:
        cases.append(
            Case("bench-10000", f"{ten} {' '.join(args)}", (("-f", ten, *args),), bench=10_000)
        )
    cases.append(
        Case("bench-10000", f"season {ten}", (("season", ten, "--format", "csv"),), bench=10_000)
    )
    cases.append(
        Case(
            "bench-10000",
            "writing to a copy",
            (
                _night("status"),
                _night(
                    "hand", "--picker", "Ann", "--partner", "Bob", "--points", "64", "--tricks", "4"
                ),
                _night("hand", "--leaster", "--winner", "Cy"),
                _night("amend", "10001", "--points", "40", "--tricks", "2"),
                _night("amend", "500", "--points", "33"),
                _night("void", "9000"),
                _night("penalty", "Flo", "--points", "2"),
                _night("seat", "add", "Gus", "--after", "Ann"),
                _night("seat", "remove", "Dee"),
                _night("set", "double_on_the_bump=true"),
                _night("undo"),
                _night("undo"),
                _night("status"),
                _night("standings"),
                _night("verify", "-v"),
            ),
            files=(("night.csv", f"bench:{ten}"),),
            bench=10_000,
        )
    )
    hundred = "session-100000.csv"
    quick = [
        ("standings",),
        ("sheet", "--format", "csv"),
        ("settle",),
        ("stats",),
        ("verify", "-v"),
        ("status",),
        ("status", "--format", "json"),
    ]
    # (about 5 to 10 s each, and the session written first: `slow`, run by `pytest -m slow`)
    more = [("sheet", "--format", "json"), ("sheet",), ("log",), ("standings", "--format", "json")]
    for args in quick + more:
        cases.append(
            Case(
                "bench-100000",
                f"{hundred} {' '.join(args)}",
                (("-f", hundred, *args),),
                bench=100_000,
                slow=True,
            )
        )
    return cases  # fmt: skip


def all_cases() -> list[Case]:
    cases = [
        *_help_cases(),
        *_sample_cases(),
        *_season_cases(),
        *_card_cases(),
        *_night_scripts(),
        *_bench_cases(),
    ]
    ids = [c.id for c in cases]
    duplicates = {i for i in ids if ids.count(i) > 1}
    assert not duplicates, duplicates
    return cases


# ---------------------------------------------------------------------------------------------
# Running a case


def _show(data: bytes, limit: int | None = None) -> tuple[str, str]:
    """(a note for the header, the text): exact, as the module's text says."""
    if not data:
        return " (empty)", ""
    if limit is not None and len(data) > limit:
        lines = data.split(b"\n")
        head = [_decode(line) for line in lines[:3]]
        tail = [_decode(line) for line in lines[-4:]]
        newlines = data.count(b"\n")
        note = f": {len(data)} bytes, {newlines} newlines, sha256 {_sha(data)}"
        return note, "".join(f"first| {h}\n" for h in head) + "".join(f"last| {t}\n" for t in tail)
    text = _decode(data)
    note = f" ({len(data)} bytes"
    if "\r" in text:
        lf = text.replace("\r\n", "\n")
        if "\r" not in lf and text.count("\n") == lf.count("\n"):
            text, note = lf, note + ", CRLF line ends shown as LF"
        else:
            text, note = text.replace("\r", "␍"), note + ", CR shown as ␍"
    if not text.endswith("\n"):
        text, note = text + "\n", note + ", no newline at end"
    return note + ")", text


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "backslashreplace")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _quote(arg: str) -> str:
    if arg and re.fullmatch(r"[\w@%+=:,./€-]+", arg):
        return arg
    return "'" + arg.replace("'", "'\\''") + "'"


@contextlib.contextmanager
def fixed_clock() -> Iterator[None]:
    """Every row written gets FIXED_TIME (the refactor may move `now`: then change CLOCK)."""
    module = importlib.import_module(CLOCK[0])
    assert hasattr(module, CLOCK[1]), f"{CLOCK}: the clock moved; point CLOCK at it"
    with mock.patch.object(module, CLOCK[1], lambda: FIXED_TIME):
        yield


def _files(folder: Path) -> dict[str, bytes]:
    # (a session's checkpoint, `.FILE.checkpoint`, is a cache of its checked state that a
    # report leaves beside a large file, not a file a command writes: tests/test_checkpoint.py
    # holds it)
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.endswith(".checkpoint")
    }


def run_case(case: Case, workdir: Path, bench_dir: Path | None = None) -> str:
    """Run the case in `workdir` (a fresh empty folder) and return its transcript."""
    from click.testing import CliRunner

    from scorepad.cli import cli

    limit = SUMMARY_OVER if case.bench else None
    if case.cwd_root:
        folder = ROOT
    elif case.bench and not case.files:
        assert bench_dir is not None
        folder = bench_dir
    else:
        folder = workdir
        for name, source in case.files:
            target = workdir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(source, bytes):
                target.write_bytes(source)
            elif source.startswith("bench:"):
                assert bench_dir is not None
                shutil.copyfile(bench_dir / source.removeprefix("bench:"), target)
            else:
                shutil.copyfile(ROOT / source, target)
    before = {} if folder is not workdir else _files(workdir)
    out = []
    runner = CliRunner(env=ENV)
    inputs = case.inputs or (None,) * len(case.steps)
    with contextlib.chdir(folder), fixed_clock():
        for args, given in zip(case.steps, inputs):
            result = runner.invoke(cli, list(args), input=given, prog_name="scorepad")
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            out.append("$ scorepad " + " ".join(_quote(a) for a in args) + "\n")
            if given is not None:
                out.append(f"< input {given!r}\n")
            out.append(f"exit {result.exit_code}\n")
            for stream, data in (("stdout", result.stdout_bytes), ("stderr", result.stderr_bytes)):
                note, text = _show(data, limit)
                out.append(f"--- {stream}{note}\n{text}")
    if folder is workdir:
        for name, data in _files(workdir).items():
            if name.endswith((".png", ".svg")):
                out.append(f"=== file {name}: an image (not compared)\n")
                continue
            old = before.get(name)
            same = [n for n, d in before.items() if d == data and n != name]
            if old == data:
                out.append(f"=== file {name}: unchanged ({len(data)} bytes)\n")
            elif same:
                out.append(f"=== file {name}: the {len(data)} bytes {same[0]} had before\n")
            elif old is not None and old.startswith(data):
                out.append(
                    f"=== file {name}: the first {len(data)} of the {len(old)} bytes it had\n"
                )
            elif old is not None and data.startswith(old):
                note, text = _show(data[len(old) :], limit)
                out.append(f"=== file {name}: its {len(old)} bytes, then{note}\n{text}")
            else:
                note, text = _show(data, limit)
                out.append(f"=== file {name}{note}\n{text}")
        gone = sorted(set(before) - set(_files(workdir)))
        out += [f"=== file {name}: gone\n" for name in gone]
    transcript = "".join(out)
    assert HEADER not in transcript
    return transcript


# ---------------------------------------------------------------------------------------------
# The fixtures


def fixture_path(group: str) -> Path:
    return FIXTURES / f"{group}.txt"


def read_group(group: str) -> dict[str, str]:
    """The transcripts a group's fixture file keeps, by case name."""
    path = fixture_path(group)
    if not path.exists():
        return {}
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    parts = re.split(rf"^{re.escape(HEADER)}(.*)\n", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def write_group(group: str, transcripts: dict[str, str]) -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    with open(fixture_path(group), "w", encoding="utf-8", newline="") as f:
        for name, transcript in transcripts.items():
            f.write(f"{HEADER}{name}\n{transcript}")


def first_difference(expected: str, actual: str, context: int = 3, most: int = 40) -> str:
    """A readable diff of where two transcripts part, and the first differing line."""
    old, new = expected.splitlines(keepends=True), actual.splitlines(keepends=True)
    index = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    diff = list(difflib.unified_diff(old, new, "frozen", "now", n=context))
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in diff[:most])
    more = f"... ({len(diff) - most} more diff lines)\n" if len(diff) > most else ""
    first = f"first difference at transcript line {index + 1}:\n"
    first += f"  frozen: {old[index]!r}\n" if index < len(old) else "  frozen: (ends)\n"
    first += f"  now:    {new[index]!r}\n" if index < len(new) else "  now:    (ends)\n"
    return first + shown + more


def bench_sources() -> str:
    return str(ROOT / "bench")


def generate_bench(hands: int, path: Path) -> Path:
    """The bench's session of `hands` hands (bench/generate.py, seed 1), written to `path`."""
    sys.path.insert(0, bench_sources())
    try:
        generate = importlib.import_module("generate").generate
    finally:
        sys.path.remove(bench_sources())
    written: Path = generate(hands, path, 1)
    return written


CACHE = ROOT / "bench" / "data" / "outputs-cache"  # (git ignores bench/data)
NO_CACHE_ENV = "SCOREPAD_OUTPUTS_NO_CACHE"


def _sources_key() -> str:
    """What a bench session's bytes depend on: the generator, scorepad's code, Python."""
    digest = hashlib.sha256(sys.version.encode())
    sources = [ROOT / "bench" / "generate.py", *sorted((ROOT / "scorepad").rglob("*"))]
    for source in sources:
        if source.is_file() and source.suffix in (".py", ".toml"):
            digest.update(source.relative_to(ROOT).as_posix().encode() + b"\0")
            digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def bench_session(hands: int, path: Path) -> Path:
    """The bench's session at `path`: written by bench/generate.py, or copied from what it wrote
    with the very same code and Python (bench/data/outputs-cache: the 100,000 hands take ~15 s
    to write, and the suite runs twice in CI). SCOREPAD_OUTPUTS_NO_CACHE=1 always writes it."""
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return generate_bench(hands, path)
    cached = CACHE / f"session-{hands}-{_sources_key()}.csv"
    if cached.exists():
        shutil.copyfile(cached, path)
        return path
    generate_bench(hands, path)
    CACHE.mkdir(parents=True, exist_ok=True)
    for old in CACHE.glob(f"session-{hands}-*.csv"):
        old.unlink(missing_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.part")
    shutil.copyfile(path, partial)
    os.replace(partial, cached)
    return path


def bench_file_transcript(path: Path) -> str:
    data = path.read_bytes()
    note, text = _show(data, SUMMARY_OVER)
    return f"=== file {path.name}{note}\n{text}"
