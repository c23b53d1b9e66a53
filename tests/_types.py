"""The types of the shared fixtures (tests/conftest.py): each is a function the test calls."""

from pathlib import Path
from typing import Any, Protocol

from click.testing import Result


class Run(Protocol):
    """`run(*args, input=...)`: `scorepad ARGS...` in-process (each argument as str())."""

    def __call__(self, *args: object, input: str | None = None) -> Result: ...


class CheckJson(Protocol):
    """`check_json(*args)`: `scorepad check ARGS --format json`, its output parsed."""

    def __call__(self, *args: object) -> Any: ...


class Fails(Protocol):
    """`fails(*args, code=1)`: the one `Error: …` line of a command that must fail."""

    def __call__(self, *args: object, code: int = 1) -> str: ...


class Night(Protocol):
    """`night(*args, input=...)`: `scorepad -f FILE ARGS...`; `night.path` is FILE."""

    path: Path

    def __call__(self, *args: object, input: str | None = None) -> Result: ...
