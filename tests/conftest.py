"""Shared helpers: run the real command line in-process and read its JSON."""

import json
import os
import sys
from pathlib import Path
from typing import Any, cast

if os.environ.get("SCOREPAD_LOCKS") == "windows":
    # The suite run as on Windows (`SCOREPAD_LOCKS=windows pytest`): scorepad follows the
    # protocol of mandatory locks (see scorepad/files.py), the lock is portalocker's, and the
    # POSIX-only calls are not there. portalocker is imported first: it takes its platform's
    # call as it loads (msvcrt on Windows; here fcntl), which is the library's own guarantee.
    import portalocker  # noqa: F401

    sys.modules["fcntl"] = None  # type: ignore[assignment]
    for _name in ("pread", "preadv", "fchmod"):
        if hasattr(os, _name):
            delattr(os, _name)

# The suite speaks English whatever the machine's locale (a German test says --lang de, or sets
# SCOREPAD_LANG itself).
os.environ["SCOREPAD_LANG"] = "en"

import pytest
from click.testing import CliRunner, Result
from hypothesis import settings

# Time limits per example make a property test fail on a busy machine, not on a bug: none here
# (each test bounds its work by its number of examples instead).
settings.register_profile("scorepad", deadline=None)
settings.load_profile("scorepad")

from _types import CheckJson, Fails, Night, Run

from scorepad.cli import cli
from scorepad.ledger.check import Hands, Memo

FIVE = "Ann,Bob,Cy,Dee,Ed"
FOUR = "Ann,Bob,Cy,Dee"


@pytest.fixture(autouse=True)
def _english_first() -> None:
    """Each test starts in English: a German command run in this process leaves German in
    force (as a process at the table keeps its language), and a test that renders without a
    command would read it."""
    from scorepad import i18n

    i18n.use("en")


@pytest.fixture
def run() -> Run:
    """Invoke `scorepad ARGS...`; returns click's Result (stdout and stderr apart)."""
    runner = CliRunner()

    def invoke(*args: object, input: str | None = None) -> Result:
        result = runner.invoke(cli, [str(a) for a in args], input=input, prog_name="scorepad")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result

    return invoke


@pytest.fixture
def check_json(run: Run) -> CheckJson:
    """Run `scorepad check ... --format json` and return the parsed object (asserting success)."""

    def invoke(*args: object) -> Any:
        result = run("check", *args, "--format", "json")
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)

    return invoke


@pytest.fixture
def fails(run: Run) -> Fails:
    """Run a command that must fail with one `Error: …` line; return that line."""

    def invoke(*args: object, code: int = 1) -> str:
        result = run(*args)
        assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
        return lines[0]

    return invoke


@pytest.fixture
def night(run: Run, tmp_path: Path) -> Night:
    """A session file in tmp_path: night(*args) runs `scorepad -f FILE ARGS`; night.path is it."""
    path = tmp_path / "night.csv"

    def invoke(*args: object, input: str | None = None) -> Result:
        return run("-f", path, *args, input=input)

    night = cast(Night, invoke)  # a function with an attribute: mypy types it by the protocol
    night.path = path
    return night


class _Forgets(dict[Any, Any]):
    """A dict that keeps nothing put in it."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass

    def setdefault(self, key: Any, default: Any = None) -> Any:
        return default


class Forgetful(Memo):
    """A memo that remembers no hand: the pass decodes and scores every row, as the tests hold
    the pass that remembers hands to."""

    def table(self, rules: Any, codec: Any, seated: tuple[str, ...]) -> Hands:
        hands = Hands(rules)
        hands.exact, hands.alike = _Forgets(), _Forgets()
        return hands


def memo_of(remembers: bool) -> Memo | None:
    """The memo of a pass that remembers the hands it scores (None: the pass makes its own),
    or of one that scores every row anew (`Forgetful`)."""
    return None if remembers else Forgetful()
