"""MkDocs hooks of the manual (`mkdocs.yml`: `hooks:`).

The command reference, `docs/reference.md`, is made from the commands as the manual is built:
its marker line is replaced by `scorepad.cli.reference.markdown()`, every command, option and
default as the installed scorepad has them.
"""

from typing import Any

from scorepad.cli.reference import MARKER, markdown


def on_page_markdown(text: str, page: Any, config: Any, files: Any) -> str:
    """Put the reference in the page that asks for it (a page whose marker is missing keeps
    its text; `tests/test_reference.py` holds docs/reference.md to having it)."""
    if MARKER not in text:
        return text
    return text.replace(MARKER, markdown())
