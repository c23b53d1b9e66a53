"""`scorepad import`: game records into hand files and a night, nothing written unless every
game adds up to the record's own totals."""

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from _types import Fails, Run

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "sample_sessions" / "records"
PROTOCOL = RECORDS / "netschafkopf-abend.txt"
LINES = RECORDS / "openschafkopf-games.txt"
PAGE = RECORDS / "sauspiel-spiel.html"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of its own to import in, with the samples copied in."""
    for sample in (PROTOCOL, LINES, PAGE):
        shutil.copy(sample, tmp_path / sample.name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def files_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_a_protocol_becomes_hand_files_and_a_night_with_the_records_totals(
    run: Run, here: Path
) -> None:
    result = run("import", PROTOCOL.name, "--to", "hands", "--session", "abend.csv")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "Every running total equals the record's, after each of its 24 games." in result.stdout
    assert "Wrote 23 hand files into hands." in result.stdout
    assert result.stdout.endswith("Wrote the night abend.csv: 24 hands.\n")
    hand_files = sorted((here / "hands").iterdir())
    assert [p.name for p in hand_files[:2]] == ["2025-03-14-001.txt", "2025-03-14-002.txt"]
    assert "2025-03-14-015.txt" not in [p.name for p in hand_files]  # (the Schieber)
    standings = json.loads(run("-f", "abend.csv", "standings", "--format", "json").stdout)
    totals = standings["totals"]
    # the record's totals after its last game: the Schieber (game 15), which no hand file can
    # replay, is recorded as a hand the table scored, with the record's points
    record = PROTOCOL.read_bytes().decode("latin-1").splitlines()
    last = [int(n) for n in record[-2].split()[2:6]]
    assert totals == dict(zip(("Anni", "Bertl", "Sepp", "Vroni"), last, strict=True))
    sheet = json.loads(run("-f", "abend.csv", "sheet", "--format", "json").stdout)["hands"]
    assert sheet[14]["kind"] == "manual"
    assert sheet[14]["deltas"] == {"Anni": 50, "Bertl": -50, "Sepp": -50, "Vroni": 50}
    assert sheet[14]["note"] == "imported: netschafkopf-abend.txt, game 15: a Schieber"
    assert run("-f", "abend.csv", "verify").exit_code == 0


def test_every_imported_hand_file_replays_with_nothing_wrong(run: Run, here: Path) -> None:
    assert run("import", PROTOCOL.name, LINES.name, PAGE.name, "--to", "hands").exit_code == 0
    hand_files = sorted((here / "hands").iterdir())
    assert len(hand_files) == 23 + 7 + 1
    result = run("replay", *hand_files)
    assert result.exit_code == 0
    assert result.stdout.count("Nothing found wrong: every card was played by the rules.") == 31


def test_the_night_knows_its_hand_files(run: Run, here: Path) -> None:
    assert run("import", PROTOCOL.name, "--to", "hands", "--session", "abend.csv").exit_code == 0
    again = run("-f", "abend.csv", "replay", "hands/2025-03-14-003.txt", "--record")
    assert again.exit_code == 1
    assert again.stderr == (
        "Error: not recorded: this hand file is recorded already, as hand 3 (void that hand "
        "first to record it again)\n"
    )
    log = run("-f", "abend.csv", "log").stdout
    assert "imported: netschafkopf-abend.txt, game 16" in log


def test_game_lines_import_with_their_exact_table(run: Run, here: Path) -> None:
    result = run("import", LINES.name)
    assert result.exit_code == 0
    assert result.stdout == (
        "openschafkopf-games.txt: openschafkopf game lines, 7 games.\n"
        "  #  Dealer    Played              0     1     2     3\n"
        "---  --------  ---------------  ----  ----  ----  ----\n"
        "  1  3         0: partner (AS)   +50   +50   -50   -50\n"
        "  2  3         2: solo D        -110  -110  +330  -110\n"
        "  3  3         3: wenz           -50   -50   -50  +150\n"
        "  4  3         1: farbgeier S    +90  -270   +90   +90\n"
        "  5  3         0: partner (AD)   -10   +10   +10   -10\n"
        "  6  3         Ramsch            +40  -120   +40   +40\n"
        "  7  3         3: geier-tout    +160  +160  +160  -480\n"
        "               Total            +170  -330  +530  -370\n"
        "Scored by bavarian rules.\n"
        "The record keeps no running totals to hold them to.\n"
        "\n"
        "Nothing written: --to DIR writes the hand files, --session FILE a night.\n"
    )
    assert files_in(here) == sorted(p.name for p in (PROTOCOL, LINES, PAGE))


def test_json_lists_every_game_and_what_was_written(run: Run, here: Path) -> None:
    result = run("import", PROTOCOL.name, "--to", "hands", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    (source,) = data["files"]
    assert source["format"] == "netschafkopf" and source["date"] == "2025-03-14"
    assert source["players"] == ["Anni", "Bertl", "Sepp", "Vroni"]
    assert "game_values.partner=10" in source["settings"]
    games = source["games"]
    assert len(games) == 24 and data["hand_files"] == 23 and data["session"] is None
    assert games[0]["hand_file"] == str(Path("hands") / "2025-03-14-001.txt")
    assert games[0]["totals"] == {p: games[0]["points"][p] for p in source["players"]}
    assert games[14]["skipped"].startswith("a Schieber") and games[14]["hand_file"] is None
    assert data["skipped"] == [
        {
            "file": PROTOCOL.name,
            "number": 15,
            "line": games[14]["line"],
            "why": games[14]["skipped"],
            "points": {"Anni": 50, "Bertl": -50, "Sepp": -50, "Vroni": 50},
        }
    ]


def test_many_files_say_how_far_on_stderr(run: Run, here: Path) -> None:
    result = run("import", PROTOCOL.name, LINES.name, PAGE.name, "--format", "json")
    assert result.exit_code == 0
    assert result.stderr == (
        "scorepad: [1/3] netschafkopf-abend.txt: NetSchafkopf protocol, 24 games\n"
        "scorepad: [2/3] openschafkopf-games.txt: openschafkopf game lines, 7 games\n"
        "scorepad: [3/3] sauspiel-spiel.html: sauspiel.de game page, 1 game\n"
    )
    assert len(json.loads(result.stdout)["files"]) == 3


def _mangled(here: Path, old: str, new: str) -> Path:
    path = here / "mangled.txt"
    text = PROTOCOL.read_bytes().decode("latin-1")
    assert old in text
    path.write_bytes(text.replace(old, new, 1).encode("latin-1"))
    return path


def _line_of(path: Path, text: str) -> int:
    rows = path.read_bytes().decode("latin-1").splitlines()
    return next(i for i, row in enumerate(rows, 1) if text in row)


@pytest.mark.parametrize(
    ("old", "new", "at", "message"),
    [
        ("Anni hat: EU GO", "Anni hat: EU GQ", "Anni hat: EU GQ", "unknown card 'GQ'"),
        ("Bertl hat: G8 S8", "Bertl hat: EU S8", "Bertl hat: EU S8", "EU is dealt twice"),
        ("Vroni spielt aus: E7", "Xaver spielt aus: E7", "Xaver", "a trick led by Xaver"),
        (
            "Vroni spielt Mit der Eichel-Ass",
            "Vroni spielt Bettel Brett",
            "Bettel Brett",
            "a game scorepad does not read: 'Bettel Brett'",
        ),
        ("Geber: Anni", "Geber Anni", "Geber Anni", "expected 'Geber: NAME', which starts a game"),
        ("am 14.03.25", "am 31.02.25", "gespielt von", "no such day: 31.02.25"),
        ("am 14.03.25", "am 99.99.25", "gespielt von", "no such day: 99.99.25"),
    ],
)
def test_bad_input_names_its_file_and_line_and_writes_nothing(
    fails: Fails, here: Path, old: str, new: str, at: str, message: str
) -> None:
    path = _mangled(here, old, new)
    before = files_in(here)
    error = fails("import", path.name, "--to", "hands", "--session", "abend.csv")
    assert error.startswith(f"Error: mangled.txt:{_line_of(path, at)}: {message}"), error
    assert files_in(here) == before


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("A,B", "player 'A,B': a name cannot hold a comma"),
        ("=cmd", "player '=cmd': a name cannot start with ="),
        ("A" * 41, "player AAAAAAAAAAAAAAAAAAAA...: a name has at most 40 characters"),
    ],
)
def test_a_name_no_night_may_hold_is_said_where_the_record_starts(
    fails: Fails, here: Path, name: str, message: str
) -> None:
    path = here / "mangled.txt"
    path.write_bytes(PROTOCOL.read_bytes().replace(b"Anni", name.encode()))
    before = files_in(here)
    error = fails("import", path.name, "--to", "hands", "--session", "abend.csv")
    assert error.startswith(f"Error: mangled.txt:{_line_of(path, 'Geber:')}: {message}"), error
    assert files_in(here) == before


@pytest.mark.parametrize(
    ("line", "change", "message"),
    [
        (3, (" g7 ", " gq "), "unknown card 'gq'"),
        (2, ("Schelln-Solo von 2:", "# a comment"), "write the rules, a colon and the cards"),
    ],
)
def test_a_bad_game_line_is_said_by_its_line(
    fails: Fails, here: Path, line: int, change: tuple[str, str], message: str
) -> None:
    # one bad line among game lines is that line's error, not "not a game record"
    path = here / "lines.txt"
    rows = LINES.read_text().splitlines(keepends=True)
    rows[line - 1] = rows[line - 1].replace(*change, 1)
    path.write_text("".join(rows))
    before = files_in(here)
    error = fails("import", path.name, "--to", "hands", "--session", "night.csv")
    assert error.startswith(f"Error: lines.txt:{line}: {message}"), error
    assert files_in(here) == before


def test_game_lines_keep_their_digests_and_a_game_is_counted_once(run: Run, here: Path) -> None:
    # every line's dealer is seat 3, never the night's next: each hand keeps its digest still
    assert run("import", LINES.name, "--to", "hands", "--session", "night.csv").exit_code == 0
    rows = (here / "night.csv").read_text().splitlines()
    digests = [row for row in rows if row.startswith(tuple(f"{n}," for n in range(1, 8)))]
    assert len(digests) == 7 and all(re.search(",[0-9a-f]{64},", row) for row in digests)
    before = files_in(here)
    twice = run("import", LINES.name, LINES.name, "--to", "more", "--session", "twice.csv")
    assert twice.exit_code == 1 and twice.stdout == ""
    assert twice.stderr.splitlines()[-1] == (
        "Error: openschafkopf-games.txt: game 1 is game 1 of openschafkopf-games.txt again: a "
        "night counts a game once (nothing written)"
    )
    assert files_in(here) == before


def test_totals_that_differ_say_at_which_game_and_by_how_much(fails: Fails, here: Path) -> None:
    path = _mangled(
        here,
        "    1       10          -10          -10          +10          +10",
        "    1       10          -10          -10          +10          +20",
    )
    before = files_in(here)
    error = fails("import", path.name, "--to", "hands", "--session", "abend.csv")
    assert error == (
        "Error: mangled.txt:4: after game 1 the totals differ from the record's by Vroni -10: "
        "the rules given score the game Anni -10, Bertl -10, Sepp +10, Vroni +10, the record "
        "Anni -10, Bertl -10, Sepp +10, Vroni +20 (give the record's rules with --rules and "
        "--set)"
    )
    assert files_in(here) == before


def test_rules_that_score_otherwise_are_a_difference_too(fails: Fails, here: Path) -> None:
    error = fails("import", PROTOCOL.name, "--set", "game_values.partner=20", "--to", "hands")
    assert error.startswith(
        "Error: netschafkopf-abend.txt:4: after game 1 the totals differ from the record's by "
        "Anni -10, Bertl -10, Sepp +10, Vroni +10:"
    )
    assert not (here / "hands").exists()


def test_sheepshead_rules_are_refused(fails: Fails, here: Path) -> None:
    assert fails("import", LINES.name, "--rules", "standard") == (
        "Error: openschafkopf-games.txt: standard rules are Sheepshead; a openschafkopf game "
        "lines is Schafkopf: give a Schafkopf preset (bavarian, schafkopf, preis) or rules file"
    )


def test_a_file_in_no_format_says_which_are_read(fails: Fails, here: Path) -> None:
    (here / "notes.txt").write_text("Dienstag: Schafkopf bei Sepp\n", encoding="utf-8")
    error = fails("import", "notes.txt")
    assert error.startswith("Error: notes.txt: not a game record scorepad reads; it reads ")
    assert "NetSchafkopf protocol" in error and "sauspiel.de game page" in error


def test_a_missing_file(fails: Fails, here: Path) -> None:
    assert fails("import", "nowhere.txt") == "Error: nowhere.txt: no such file"


def test_files_that_exist_are_never_written_over(fails: Fails, run: Run, here: Path) -> None:
    (here / "hands").mkdir()
    (here / "hands" / "2025-03-14-007.txt").write_text("mine\n", encoding="utf-8")
    error = fails("import", PROTOCOL.name, "--to", "hands", "--session", "abend.csv")
    assert error == (
        f"Error: {Path('hands') / '2025-03-14-007.txt'} exists: import writes new files only "
        "(nothing written)"
    )
    assert files_in(here / "hands") == ["2025-03-14-007.txt"]
    assert not (here / "abend.csv").exists()
    assert run("-f", "abend.csv", "new", "--players", "A,B,C,D").exit_code == 0
    error = fails("import", PROTOCOL.name, "--session", "abend.csv")
    assert error == "Error: abend.csv exists: import writes new files only (nothing written)"


def test_a_night_is_one_table(run: Run, here: Path) -> None:
    result = run("import", PROTOCOL.name, LINES.name, "--session", "both.csv")
    assert result.exit_code == 1 and result.stdout == ""
    progress, error = result.stderr.splitlines()[:2], result.stderr.splitlines()[-1]
    assert [line.split("]")[0] for line in progress] == ["scorepad: [1/2", "scorepad: [2/2"]
    assert error.startswith(
        "Error: openschafkopf-games.txt: seats 0, 1, 2, 3; netschafkopf-abend.txt seats Anni, "
        "Bertl, Sepp, Vroni: a night is one table"
    )
    assert not (here / "both.csv").exists()


def test_two_records_of_one_date_get_hand_files_of_their_own(run: Run, here: Path) -> None:
    shutil.copy(PROTOCOL, here / "again.txt")
    assert run("import", PROTOCOL.name, "again.txt", "--to", "hands").exit_code == 0
    names = files_in(here / "hands")
    assert "2025-03-14-001.txt" in names and "2025-03-14-2-001.txt" in names
    assert len(names) == 46


def test_a_failure_while_writing_leaves_nothing_behind(fails: Fails, here: Path) -> None:
    (here / "hands").write_text("a file, not a folder\n", encoding="utf-8")
    before = files_in(here)
    error = fails("import", PROTOCOL.name, "--to", "hands/abend", "--session", "night/abend.csv")
    assert error.startswith("Error: ") and error.endswith("(nothing written)")
    assert files_in(here) == before  # (no night, no temp file, no folder made for them)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize(
    "command", [("import",), ("replay",), ("analyze",), ("replay", "--analyze")], ids=" ".join
)
def test_a_fifo_given_as_a_file_is_refused_not_waited_on(
    fails: Fails, here: Path, command: tuple[str, ...]
) -> None:
    # (a reader that opened it blocking would wait for a writer for ever)
    os.mkfifo(here / "pipe")
    assert fails(*command, "pipe") == "Error: pipe: not a regular file"
