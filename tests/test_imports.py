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
        "heavy = ('tabulate', 'tomli_w', 'scorepad.scoring', 'scorepad.rules')\n"
        "print(','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stderr.strip() == ""
    assert "Usage: scorepad" in result.stdout or "scorepad" in result.stdout
