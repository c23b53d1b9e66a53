"""A `tournament draw` killed anywhere (issue 44, item 6): what it leaves, the staging folder
`.round-N.XXXX` or a round's folder that tournament.toml does not name yet, the next command
tidies or finishes, and `tournament status` never counts it."""

import json
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from _types import Run

NAMES = "Anni,Bertl,Sepp,Vroni,Toni,Resi,Kathi,Wast"

# Runs the command line with every call that makes, writes, syncs, renames or removes a file or
# a folder counted, and the process killed outright (SIGKILL: no cleanup of any kind) just before
# call number `kill_at`; with `kill_at` 0, prints how many such calls the command makes.
KILLER = textwrap.dedent("""\
    import os, signal, sys
    kill_at, args = int(sys.argv[1]), sys.argv[2:]
    calls = 0
    def counted(real):
        def call(*a, **k):
            global calls
            calls += 1
            if calls == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*a, **k)
        return call
    for name in ("mkdir", "write", "fsync", "replace", "rename", "link", "unlink", "rmdir"):
        setattr(os, name, counted(getattr(os, name)))
    from scorepad import session
    session.now = lambda: "2026-12-05T20:00:00+00:00"  # (every run writes the same files)
    from scorepad.cli import cli
    try:
        cli.main(args, prog_name="scorepad")
    except SystemExit:
        pass
    if not kill_at:
        print(calls, file=sys.stderr)
""")


def _scorepad(kill_at: int, *args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", KILLER, str(kill_at), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _status(run: Run, folder: Path) -> Any:
    result = run("tournament", "status", folder, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _litter(folder: Path) -> list[str]:
    """What a draw stages (`.round-N.XXXX`) or a write of tournament.toml leaves (its temp)."""
    left = (".round-", ".tournament.toml.")
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(left))


def _files(folder: Path) -> dict[str, Any]:
    """Each file of the tournament: a table's file as its columns (its players) and its
    number of lines (a draw made at another time writes other times), any other whole."""
    return {
        str(p.relative_to(folder)): (
            (p.read_bytes().splitlines()[0], len(p.read_bytes().splitlines()))
            if p.suffix == ".csv"
            else p.read_bytes()
        )
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def test_a_kill_anywhere_in_a_draw_leaves_nothing_the_next_command_does_not_tidy(
    run: Run, tmp_path: Path
) -> None:
    folder = tmp_path / "t"
    made = run("tournament", "new", folder, "--name", "Cup", "--rules", "preis", "--players",
               NAMES, "--rounds", "2", "--hands", "2", "--seed", "44")  # fmt: skip
    assert made.exit_code == 0, made.stderr
    pristine = tmp_path / "pristine"
    shutil.copytree(folder, pristine)
    done = _scorepad(0, "tournament", "draw", folder, "--sheets")
    assert done.returncode == 0, done.stderr
    calls = int(done.stderr.strip().splitlines()[-1])
    drawn = _status(run, folder)
    assert [t["round"] for t in drawn["tables"]] == [1, 1]
    whole = _files(folder)
    kills = 0
    for kill_at in range(1, calls + 1):
        shutil.rmtree(folder)
        shutil.copytree(pristine, folder)
        died = _scorepad(kill_at, "tournament", "draw", folder, "--sheets")
        kills += died.returncode == -signal.SIGKILL
        # status never counts what the kill left: a round is drawn whole or not at all
        status = _status(run, folder)
        assert status["tables"] in ([], drawn["tables"]), (kill_at, status)
        if not status["tables"]:  # the next draw goes on as if nothing had happened
            again = run("tournament", "draw", folder, "--sheets")
            assert again.exit_code == 0, (kill_at, again.stderr)
        assert _litter(folder) == [], (kill_at, _litter(folder))
        assert _files(folder) == whole, kill_at
    assert kills >= calls - 1 >= 8  # (each kill point was reached)


def test_the_next_change_and_status_remove_a_staging_folder(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    run("tournament", "new", folder, "--name", "Cup", "--rules", "preis", "--players", NAMES,
        "--rounds", "2", "--hands", "2", "--seed", "44")  # fmt: skip
    staged = folder / ".round-1.x8k2q0zp"
    staged.mkdir()
    (staged / "table-1.csv").write_text("half a table\n", encoding="utf-8")
    status = _status(run, folder)
    assert status["tables"] == [] and not staged.exists()
    staged.mkdir()
    assert run("tournament", "players", "add", folder, "Loisl").exit_code == 0
    assert not staged.exists()


def test_a_round_folder_with_hands_is_never_taken_for_a_killed_draws(
    run: Run, tmp_path: Path
) -> None:
    folder = tmp_path / "t"
    run("tournament", "new", folder, "--name", "Cup", "--rules", "preis", "--players", NAMES,
        "--rounds", "2", "--hands", "2", "--seed", "44")  # fmt: skip
    pristine = tmp_path / "pristine"
    shutil.copytree(folder, pristine)
    assert run("tournament", "draw", folder).exit_code == 0
    table = folder / "round-1" / "table-1.csv"
    players = json.loads(run("-f", table, "status", "--format", "json").stdout)["players"]
    picker, partner = players[0], players[1]
    assert run("-f", table, "hand", "--game", "partner", "--picker", picker, "--partner",
               partner, "--points", "70").exit_code == 0  # fmt: skip
    shutil.copy(pristine / "tournament.toml", folder / "tournament.toml")  # (the draw unsaid)
    before = _files(folder)
    result = run("tournament", "draw", folder)
    assert result.exit_code == 1
    assert "round-1: already exists" in result.stderr
    assert _files(folder) == before
