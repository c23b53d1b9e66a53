"""The console examples of the manual and the READMEs, read from their Markdown.

The conventions (the contributing page of the manual says the same):

- A ```` ```console ```` block is an example that a test runs: each line `$ scorepad ARGS` is a
  command, and the lines below it, up to the next `$` line, are exactly what it prints (stdout,
  then stderr). A line `...` (indented or not) stands for any lines, or none. A `$` line that
  does not run scorepad is an error, so no example goes unchecked.
- Each block runs in a folder of its own that starts with a copy of `sample_sessions/`, so
  `-f sample_sessions/standard-friday.csv` works and `scorepad new` writes `scorepad.csv` there.
- `<!-- continued -->` on the line before a block: it goes on from the block before it on the
  page, in the same folder (a night told in parts, with words between them).
- `<!-- file: NAME -->` on the line before any fenced block: the block is the file NAME. It is
  written into the folder of every console block below it on the page; where NAME is a file of
  the repository (a sample), the block must be that file, byte for byte.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).parent.parent

CONTINUED = "<!-- continued -->"
FILE = re.compile(r"<!-- file: (\S+) -->")
_FENCE = re.compile(r"^(\s*)(```+)(\S*)\s*$")
_ELIDED = "..."


def pages() -> list[Path]:
    """Every page whose examples are run: both READMEs and every page of the manual."""
    return [ROOT / "README.md", ROOT / "README.de.md", *sorted((ROOT / "docs").rglob("*.md"))]


@dataclass(frozen=True)
class Fenced:
    """One fenced block of a page: its language, text, first line and the marks before it."""

    page: Path
    line: int
    language: str
    text: str
    continued: bool
    file: str | None


def fenced(page: Path) -> list[Fenced]:
    """The fenced blocks of a page, in order (an indented block, in a list, unindented)."""
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    blocks = []
    at = 0
    while at < len(lines):
        opening = _FENCE.match(lines[at])
        if opening is None:
            at += 1
            continue
        indent, fence, language = opening.groups()
        before = next((line.strip() for line in reversed(lines[:at]) if line.strip()), "")
        end = at + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        body = "".join(line.removeprefix(indent) for line in lines[at + 1 : end])
        named = FILE.fullmatch(before)
        blocks.append(
            Fenced(
                page,
                at + 1,
                language,
                body,
                before == CONTINUED,
                named.group(1) if named else None,
            )
        )
        at = end + 1
    return blocks


@dataclass(frozen=True)
class Command:
    """One `$ scorepad ...` line of an example and what it prints."""

    line: int
    args: str
    shown: str


@dataclass
class Example:
    """Console blocks run one after another in one folder, with the files given before them."""

    page: Path
    line: int
    files: dict[str, str] = field(default_factory=dict)
    commands: list[Command] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def commands(block: Fenced) -> list[Command]:
    """The commands of a console block, each with what it shows."""
    found: list[Command] = []
    for number, line in enumerate(block.text.splitlines(keepends=True), start=block.line + 1):
        if line.startswith("$ "):
            if not line.startswith("$ scorepad "):
                raise ValueError(f"{block.page}:{number}: only scorepad runs here: {line!r}")
            found.append(Command(number, line[len("$ scorepad ") :].rstrip("\n"), ""))
        elif not found:
            raise ValueError(f"{block.page}:{number}: output before any command: {line!r}")
        else:
            last = found[-1]
            found[-1] = Command(last.line, last.args, last.shown + line)
    if not found:
        raise ValueError(f"{block.page}:{block.line}: a console block without a command")
    return found


def examples(page: Path) -> list[Example]:
    """A page's examples: each console block, with the blocks that continue it."""
    made: list[Example] = []
    files: dict[str, str] = {}
    for block in fenced(page):
        if block.file is not None:
            files[block.file] = block.text
        if block.language != "console":
            continue
        if block.continued:
            if not made:
                raise ValueError(f"{page}:{block.line}: continues no block before it")
            example = made[-1]
        else:
            example = Example(page, block.line, dict(files))
            made.append(example)
        example.commands.extend(commands(block))
    return made


def shown_files(page: Path) -> list[Fenced]:
    """The blocks of a page that show a file of the repository (which they must match)."""
    return [b for b in fenced(page) if b.file is not None and (ROOT / b.file).is_file()]


def matches(shown: str, printed: str) -> bool:
    """Whether scorepad printed what the page shows, where a line `...` stands for any lines."""
    lines = shown.split("\n")
    if lines[-1] == "":
        lines.pop()
    pattern = "".join(
        r"(?:.*\n)*?" if line.strip() == _ELIDED else re.escape(line) + r"\n" for line in lines
    )
    return re.fullmatch(pattern, printed) is not None
