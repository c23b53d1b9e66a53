"""The README's examples are real: its night at the table is replayed and compared line by line."""

import re
import shlex
from pathlib import Path

import pytest
from _types import Run

README = Path(__file__).parent.parent / "README.md"


def night_block() -> str:
    text = README.read_text()
    section = text.split("## A night at the table", 1)[1]
    block = re.search(r"```console\n(.*?)```", section, re.S)
    assert block is not None
    return block.group(1)


def replay(block: str, run: Run, folder: Path) -> str:
    """Run every `$ scorepad ...` line of a transcript in `folder`; return the new transcript."""
    out = []
    for line in block.splitlines():
        if not line.startswith("$ scorepad "):
            continue
        args = shlex.split(line[len("$ scorepad ") :])
        result = run("-f", folder / "scorepad.csv", *args)
        out.append(
            line
            + "\n"
            + result.stdout.replace(str(folder / "scorepad.csv"), "scorepad.csv")
            + result.stderr
        )
    return "".join(out)


def test_the_night_in_the_readme_is_what_scorepad_prints(run: Run, tmp_path: Path) -> None:
    block = night_block()
    assert block.startswith("$ scorepad new ")
    assert replay(block, run, tmp_path) == block


def pot_block() -> str:
    """The README's night with the pot: its first console block."""
    section = README.read_text().split("## The pot (", 1)[1]
    block = re.search(r"```console\n(.*?)```", section, re.S)
    assert block is not None
    return block.group(1)


def test_the_pot_night_in_the_readme_is_what_scorepad_prints(run: Run, tmp_path: Path) -> None:
    block = pot_block()
    assert block.startswith("$ scorepad new ") and "$ scorepad hand --pot" in block
    assert replay(block, run, tmp_path) == block


def tournament_block() -> str:
    text = README.read_text()
    section = text.split("## Tournaments", 1)[1]
    block = re.search(r"```console\n(.*?)```", section, re.S)
    assert block is not None
    return block.group(1)


def test_the_tournament_in_the_readme_is_what_scorepad_prints(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (in a folder of its own: it writes the tournament's folder)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    block = tournament_block()
    assert block.startswith("$ scorepad tournament new ")
    parts = re.split(r"^\$ scorepad (.*)\n", block, flags=re.M)[1:]
    out = []
    for command in parts[::2]:
        result = run(*shlex.split(command))
        assert result.exit_code == 0, (command, result.stderr)
        out.append((command, result.stdout + result.stderr))
    assert out == list(zip(parts[::2], parts[1::2]))


def bock_block() -> str:
    text = README.read_text()
    section = text.split("### Bock rounds", 1)[1]
    block = re.search(r"```console\n(.*?)```", section, re.S)
    assert block is not None
    return block.group(1)


def test_the_bock_night_in_the_readme_is_what_scorepad_prints(run: Run, tmp_path: Path) -> None:
    block = bock_block()
    assert block.startswith("$ scorepad new ")
    assert replay(block, run, tmp_path) == block


def _console_blocks() -> list[str]:
    """Every console block of the README but the night at the table, the night with the pot,
    the tournament and the Bock night (replayed above, each in a folder of its own)."""
    text = README.read_text()
    replayed = (night_block(), pot_block(), tournament_block(), bock_block())
    return [b for b in re.findall(r"```console\n(.*?)```", text, re.S) if b not in replayed]


def _matches(expected: str, actual: str) -> bool:
    """Whether output matches the README's, where a line `...` stands for any lines."""
    pattern = "".join(
        r"(?:.*\n)*?" if line.strip() == "..." else re.escape(line) + r"\n"
        for line in expected.splitlines()
    )
    return re.fullmatch(pattern, actual) is not None


@pytest.mark.parametrize("block", _console_blocks(), ids=lambda b: b.splitlines()[0][:50])
def test_every_console_block_in_the_readme_is_what_scorepad_prints(
    run: Run, block: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(README.parent)
    monkeypatch.setenv("NO_COLOR", "1")
    parts = re.split(r"^\$ scorepad (.*)\n", block, flags=re.M)[1:]
    assert parts, block
    for command, expected in zip(parts[::2], parts[1::2]):
        result = run(*shlex.split(command))
        actual = result.stdout + result.stderr
        assert _matches(expected, actual), (command, actual)
