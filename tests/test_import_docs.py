"""docs/import.md is what scorepad prints: every console block is run, command by command, in a
folder of its own (with the sample records), and compared byte for byte."""

import re
import shlex
import shutil
from pathlib import Path

import pytest
from _types import Run

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "import.md"


def console_blocks() -> list[str]:
    return re.findall(r"```console\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def replayed(block: str, run: Run) -> str:
    """Run every `$ scorepad ...` line of a transcript here; the transcript it makes."""
    out = []
    parts = re.split(r"^\$ scorepad (.*)\n", block, flags=re.M)[1:]
    for command in parts[::2]:
        result = run(*shlex.split(command))
        out.append(f"$ scorepad {command}\n{result.stdout}{result.stderr}")
    return "".join(out)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(ROOT / "sample_sessions" / "records", tmp_path / "sample_sessions" / "records")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


def test_the_page_has_console_blocks() -> None:
    blocks = console_blocks()
    assert len(blocks) >= 3
    assert all(block.startswith("$ scorepad ") for block in blocks)
    assert sum(block.count("$ scorepad import ") for block in blocks) >= 3


@pytest.mark.parametrize("block", console_blocks(), ids=lambda b: b.splitlines()[0][:60])
def test_every_console_block_is_what_scorepad_prints(run: Run, folder: Path, block: str) -> None:
    assert replayed(block, run) == block


def test_the_hand_file_shown_is_the_one_written(run: Run, folder: Path) -> None:
    first = console_blocks()[0]
    replayed(first, run)
    shown = re.search(r"```text\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert shown is not None
    written = folder / "hands" / "2025-03-14-023.txt"
    assert written.read_text(encoding="utf-8") == shown.group(1)
