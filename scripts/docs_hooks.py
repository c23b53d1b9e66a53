"""MkDocs hooks of the manual (`mkdocs.yml`: `hooks:`).

The parts of the manual made from the code are made as it is built: each marker line of a page
(`scorepad.cli.reference.GENERATED`) is replaced by what it stands for, the command reference
(`docs/reference.md`) and the table of every setting (`docs/rules-and-presets.md`), as the
installed scorepad has them.
"""

from typing import Any

from scorepad.cli.reference import GENERATED


def on_page_markdown(text: str, page: Any, config: Any, files: Any) -> str:
    """A page with its generated parts in place of their marker lines (`tests/test_reference.py`
    holds the pages to having them)."""
    for marker, make in GENERATED.items():
        if marker in text:
            text = text.replace(marker, make())
    return text
