"""The README's examples are real: its night at the table is replayed and compared line by line."""

import re
import shlex
from pathlib import Path

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
        args = shlex.split(line[len("$ scorepad "):])
        result = run("-f", folder / "scorepad.csv", *args)
        out.append(line + "\n" + result.stdout.replace(str(folder / "scorepad.csv"),
                                                       "scorepad.csv") + result.stderr)
    return "".join(out)


def test_the_night_in_the_readme_is_what_scorepad_prints(run, tmp_path):
    block = night_block()
    assert block.startswith("$ scorepad new ")
    assert replay(block, run, tmp_path) == block
