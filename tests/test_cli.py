"""The command line as a user meets it: help, version, output formats, `python -m scorepad`."""

import json
import subprocess
import sys
import textwrap

import click
import pytest
from _types import CheckJson, Fails, Run
from conftest import FIVE

from scorepad import __version__
from scorepad.cli import cli

COMMANDS = cli.list_commands(click.Context(cli))


def lookup(name: str) -> click.Command | None:
    """A command by name (the group loads its commands when asked)."""
    return cli.get_command(click.Context(cli), name)


def test_version(run: Run) -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"scorepad {__version__}\n"


@pytest.mark.parametrize("flag", ["-h", "--help"])
@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_every_command_has_help_ending_in_an_example(
    run: Run, command: str | None, flag: str
) -> None:
    args = [command, flag] if command else [flag]
    result = run(*args)
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: scorepad")
    shown = lookup(command) if command else cli
    assert shown is not None
    help_text = shown.help
    assert help_text is not None
    _, heading, examples = help_text.partition("Example")
    assert heading, "the help has no example"
    first = examples.split("\b", 1)[1].strip().splitlines()[0]
    assert first.startswith("scorepad") and f" {command or ''}" in first
    last = help_text.rstrip().splitlines()[-1].strip()
    description = result.stdout.split("\nOptions:")[0].rstrip()
    assert first in description and description.endswith(last)


def test_every_command_loads_and_seat_has_its_own_commands() -> None:
    assert all(lookup(name) is not None for name in COMMANDS)
    seat = lookup("seat")
    assert isinstance(seat, click.Group)
    assert sorted(seat.commands) == ["add", "remove"]
    assert lookup("nope") is None


@pytest.mark.parametrize("sub", ["add", "remove"])
def test_seat_subcommands_have_help_with_an_example(run: Run, sub: str) -> None:
    result = run("seat", sub, "--help")
    assert result.exit_code == 0 and f"scorepad seat {sub}" in result.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_in_the_docs(command: str) -> None:
    from pathlib import Path

    root = Path(__file__).parent.parent
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    assert any(f"scorepad {command}" in page.read_text(encoding="utf-8") for page in pages)


def test_check_text_output(run: Run) -> None:
    result = run(
        "check",
        "--players",
        FIVE,
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        64,
        "--tricks",
        4,
    )
    assert result.exit_code == 0 and result.stderr == ""
    table, _, explanation = result.stdout.partition("\n\n")
    assert table == textwrap.dedent("""\
        Player    Role        Points
        --------  --------  --------
        Ann       picker          +2
        Bob       partner         +1
        Cy        defender        -1
        Dee       defender        -1
        Ed        defender        -1""")
    lines = explanation.splitlines()
    assert lines[0] == "Rules: standard."
    assert "64 >= 61, a win" in lines[2]
    assert lines[-1] == "The hand sums to 0."


def test_check_text_shows_who_sits_out(run: Run) -> None:
    result = run(
        "check",
        "--set",
        "sit_out=dealer",
        "--players",
        FIVE + ",Flo",
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        70,
    )
    flo = next(line for line in result.stdout.splitlines() if line.startswith("Flo"))
    assert flo.split() == ["Flo", "sits", "out"]
    assert "Sitting out: Flo (0 points)." in result.stdout


def test_check_json_has_the_promised_keys(check_json: CheckJson) -> None:
    out = check_json(
        "--players", FIVE, "--picker", "Ann", "--partner", "Bob", "--points", 64, "--tricks", 4
    )
    assert {"deltas", "outcome", "stake", "explanation"} <= set(out)
    assert all(isinstance(v, int) for v in out["deltas"].values())
    assert all(isinstance(line, str) for line in out["explanation"])


def test_names_are_matched_without_regard_to_case(check_json: CheckJson) -> None:
    out = check_json("--players", FIVE, "--picker", "ann", "--partner", "BOB", "--points", 64)
    assert out["deltas"]["Ann"] == 2 and out["roles"]["Bob"] == "partner"


def test_names_with_spaces_and_accents(check_json: CheckJson) -> None:
    out = check_json(
        "--players",
        "Zoë, Jean Luc ,Ana,Bo,Cy",
        "--picker",
        "Jean Luc",
        "--partner",
        "zoë",
        "--points",
        80,
    )
    assert out["deltas"] == {"Zoë": 1, "Jean Luc": 2, "Ana": -1, "Bo": -1, "Cy": -1}


def test_dealer_changes_the_picking_order(check_json: CheckJson, fails: Fails) -> None:
    # Cy dealt, so Dee picks first and Cy last: Bob sits after Ed and may crack Ed's pick.
    out = check_json(
        "--players",
        FIVE,
        "--dealer",
        "Cy",
        "--picker",
        "Ed",
        "--partner",
        "Ann",
        "--points",
        70,
        "--crack",
        "Bob",
    )
    assert out["stake"] == 2
    assert "had the chance to pick" in fails(
        "check",
        "--players",
        FIVE,
        "--dealer",
        "Cy",
        "--picker",
        "Ed",
        "--partner",
        "Ann",
        "--points",
        70,
        "--crack",
        "Dee",
    )


def test_python_dash_m_runs_the_same_cli() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "scorepad",
            "check",
            "--players",
            FIVE,
            "--picker",
            "Ann",
            "--partner",
            "Bob",
            "--points",
            "64",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["deltas"]["Ann"] == 2


def test_domain_error_in_a_real_process_is_one_line_without_traceback() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "scorepad",
            "check",
            "--players",
            FIVE,
            "--picker",
            "Ann",
            "--partner",
            "Bob",
            "--points",
            "130",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == "Error: --points 130: card points run from 0 to 120\n"


def test_closed_pipe_is_not_a_traceback() -> None:
    reader = subprocess.Popen(
        [sys.executable, "-m", "scorepad", "rules"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert reader.stdout is not None
    reader.stdout.close()  # nobody reads: the write fails with EPIPE
    _, err = reader.communicate()
    assert b"Traceback" not in err


def test_shell_completion_offers_presets_and_players() -> None:
    from click.shell_completion import ShellComplete

    def complete(args: list[str], incomplete: str) -> list[str]:
        return [
            c.value
            for c in ShellComplete(cli, {}, "scorepad", "_SCOREPAD_COMPLETE").get_completions(
                args, incomplete
            )
        ]

    assert complete(["check", "--rules"], "pa") == ["pagat"]
    assert complete(["check", "--players", "Ann,Bob,Cy", "--picker"], "b") == ["Bob"]
    assert "double_on_the_bump=" in complete(["check", "--set"], "double")
    assert complete(["rules"], "first") == ["first-night"]
    from pathlib import Path

    sample = str(Path(__file__).parent.parent / "sample_sessions" / "standard-friday.csv")
    assert complete(["-f", sample, "hand", "--picker"], "d") == ["Dee"]
    assert complete(["-f", sample, "hand", "--leaster", "--winner"], "") == [
        "Ann",
        "Bob",
        "Cy",
        "Dee",
        "Ed",
    ]


def test_group_without_command_lists_the_commands(run: Run) -> None:
    result = run()
    assert "Commands:" in result.stdout and "check" in result.stdout
