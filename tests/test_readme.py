"""The README's examples are real: its night at the table is replayed and compared line by line."""

import re
import shlex
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "README.md"


def night_block() -> str:
    text = README.read_text()
    section = text.split("## A night at the table", 1)[1]
    return re.search(r"```console\n(.*?)```", section, re.S).group(1)


def replay(block: str, run, folder: Path) -> str:
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


def test_the_night_in_the_readme_is_what_scorepad_prints(run, tmp_path):
    block = night_block()
    assert block.startswith("$ scorepad new ")
    assert replay(block, run, tmp_path) == block


def _quoted(command: str) -> str:
    text = README.read_text()
    after = text.split(f"$ scorepad {command}\n", 1)[1].split("```", 1)[0]
    return after.split("$ scorepad ", 1)[0]


@pytest.mark.parametrize(
    "command",
    [
        "-f sample_sessions/standard-friday.csv settle --rate 0.25",
        "-f sample_sessions/standard-friday.csv stats",
        "-f sample_sessions/three-handed.csv chart --width 72 --height 14",
        "season sample_sessions/league/",
        "-f sample_sessions/standard-friday.csv standings --format github",
        "count 10C AC 7D KC 9H",
        "trick --players Ann,Bob,Cy,Dee,Ed 10C AC 7D KC 9H",
        "replay sample_sessions/hands/friday-disputed.txt",
    ],
)
def test_the_readmes_examples_are_what_scorepad_prints(run, command, monkeypatch):
    monkeypatch.chdir(README.parent)
    assert run(*shlex.split(command)).stdout == _quoted(command)
