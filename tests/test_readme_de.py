"""README.de.md's examples are real: its Bavarian evening is replayed line by line in German,
and every other console block prints what it shows."""

import re
import shlex
from pathlib import Path

import pytest
from _types import Run

README = Path(__file__).parent.parent / "README.de.md"


def _blocks() -> list[str]:
    return re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _commands(block: str) -> list[tuple[str, str]]:
    parts = re.split(r"^\$ scorepad (.*)\n", block, flags=re.M)[1:]
    return list(zip(parts[::2], parts[1::2]))


@pytest.fixture(autouse=True)
def _german(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_LANG", "de")
    monkeypatch.setenv("NO_COLOR", "1")


def test_the_bavarian_evening_is_what_scorepad_prints(run: Run, tmp_path: Path) -> None:
    """The evening, from `new` on, in a folder of its own."""
    evening = _blocks()[0]
    assert evening.startswith("$ scorepad new ")
    path = tmp_path / "scorepad.csv"
    for command, shown in _commands(evening):
        result = run("-f", path, *shlex.split(command))
        printed = (result.stdout + result.stderr).replace(str(path), "scorepad.csv")
        assert printed == shown, command


@pytest.mark.parametrize("block", _blocks()[1:], ids=lambda b: b.splitlines()[0][:50])
def test_every_other_console_block_is_what_scorepad_prints(
    run: Run, block: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(README.parent)
    for command, shown in _commands(block):
        result = run(*shlex.split(command))
        assert result.stdout + result.stderr == shown, command
