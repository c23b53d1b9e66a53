"""The domain core stays free of click and tabulate, and `--help` starts without tabulate."""

import subprocess
import sys

import pytest

CORE = ("scorepad.cards", "scorepad.rules", "scorepad.scoring", "scorepad.errors")


@pytest.mark.parametrize("module", CORE)
def test_domain_core_imports_neither_click_nor_tabulate(module):
    code = (
        f"import sys, {module}; "
        "bad = [m for m in ('click', 'tabulate') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"], ["--version"]])
def test_help_does_not_import_tabulate_or_the_domain(args):
    code = (
        "import sys\n"
        "from scorepad.cli import cli\n"
        f"try:\n    cli.main({args!r}, prog_name='scorepad')\n"
        "except SystemExit:\n    pass\n"
        "heavy = ('tabulate', 'tomli_w', 'scorepad.scoring', 'scorepad.rules', 'starlette',"
        " 'uvicorn')\n"
        "print(','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stderr.strip() == ""
    assert "Usage: scorepad" in result.stdout or "scorepad" in result.stdout


def test_recording_a_hand_does_not_load_the_live_board(tmp_path):
    # `serve` (and its web stack) is imported only by `scorepad serve`
    path = tmp_path / "night.csv"
    code = (
        "import sys\n"
        "from scorepad.cli import cli\n"
        "for args in ("
        f"['-f', {str(path)!r}, 'new', '--players', 'Ann,Bob,Cy,Dee,Ed'],"
        f"['-f', {str(path)!r}, 'hand', '--picker', 'Ann', '--partner', 'Bob', '--points', '70']"
        "):\n"
        "    try:\n        cli.main(args, prog_name='scorepad')\n"
        "    except SystemExit:\n        pass\n"
        "web = ('starlette', 'uvicorn', 'sse_starlette', 'scorepad.serve')\n"
        "print(','.join(m for m in web if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stderr.strip() == "" and "Hand 1" in result.stdout
