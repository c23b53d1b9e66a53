"""The domain core stays free of click and tabulate, and `--help` starts without tabulate."""

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

CORE = (
    "scorepad.cards",
    "scorepad.rules",
    "scorepad.scoring",
    "scorepad.errors",
    "scorepad.analysis",
)


@pytest.mark.parametrize("module", CORE)
def test_domain_core_imports_neither_click_nor_tabulate(module: str) -> None:
    code = (
        f"import sys, {module}; "
        "bad = [m for m in ('click', 'tabulate') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""


@pytest.mark.parametrize(
    "args", [["--help"], ["check", "--help"], ["import", "--help"], ["--version"]]
)
def test_help_does_not_import_tabulate_or_the_domain(args: list[str]) -> None:
    code = (
        "import sys\n"
        "from scorepad.cli import cli\n"
        f"try:\n    cli.main({args!r}, prog_name='scorepad')\n"
        "except SystemExit:\n    pass\n"
        "heavy = ('tabulate', 'tomli_w', 'scorepad.scoring', 'scorepad.rules', 'starlette',"
        " 'uvicorn')\n"
        "print(','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stderr.strip() == ""
    assert "Usage: scorepad" in result.stdout or "scorepad" in result.stdout


def test_recording_a_hand_does_not_load_the_live_board(tmp_path: Path) -> None:
    # `serve` (and its web stack) is imported only by `scorepad serve`; the tournament's files
    # only for a table of one
    path = tmp_path / "night.csv"
    code = (
        "import sys\n"
        "from scorepad.cli import cli\n"
        "for args in ("
        f"['-f', {str(path)!r}, 'new', '--players', 'Ann,Bob,Cy,Dee,Ed'],"
        f"['-f', {str(path)!r}, 'hand', '--picker', 'Ann', '--partner', 'Bob', '--points', '70']"
        "):\n"
        "    try:\n        cli.main(args, prog_name='scorepad')\n"
        "    except SystemExit:\n        pass\n"
        "web = ('starlette', 'uvicorn', 'sse_starlette', 'scorepad.web',"
        " 'scorepad.tournament_store')\n"
        "print(','.join(m for m in web if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stderr.strip() == "" and "Hand 1" in result.stdout


# --- layers that go one way ---------------------------------------------------------------------

PACKAGE = Path(__file__).parent.parent / "scorepad"
# Each module's layer: a module imports only from its own layer and the ones below it.
LAYERS = {
    # the domain: no I/O, no click
    **dict.fromkeys(
        (
            "names",
            "errors",
            "i18n",
            "games",
            "hands",
            "cards",
            "rules",
            "scoring",
            "pot",
            "settlement",
            "replay",
            "analysis",
            "simulate",
            "text",
            "presets",
            "tournament",
            "placings",
            "records",
        ),
        0,
    ),
    # the store: the session file on disk (its format, the platform's calls, lock, rewrites)
    "store": 1,
    "ledger": 2,
    "reading": 3,
    "steps": 3,
    "session": 3,
    "reports": 4,
    "render": 4,
    "picture": 4,
    "tournament_store": 4,
    "rating": 4,
    "importing": 4,
    # the interfaces
    "cli": 5,
    "locale": 5,
    "web": 5,
    "__main__": 5,
}


def _imports() -> Iterator[tuple[str, str, tuple[str, ...], int]]:
    """(module, the module it imports, the names it takes, line) for every import in the package,
    those inside functions too."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        package = parts if path.name == "__init__.py" else parts[:-1]
        if path.name == "__init__.py":
            parts = parts[:-1] or ["__init__"]
        module = ".".join(parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield module, alias.name, (), node.lineno
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0:
                    target = node.module or ""
                else:
                    base = package[: len(package) - (node.level - 1)]
                    target = ".".join(["scorepad", *base, *([node.module] if node.module else [])])
                yield module, target, tuple(a.name for a in node.names), node.lineno


def test_every_module_has_a_layer() -> None:
    modules = {m.split(".")[0] for m, *_ in _imports()} - {"__init__"}
    assert modules <= set(LAYERS), modules - set(LAYERS)


def test_imports_go_one_way_and_take_no_private_names() -> None:
    wrong = []
    for module, target, names, line in _imports():
        top = module.split(".")[0]
        if target.split(".")[0] == "click" and top != "cli":
            wrong.append(f"{module}:{line}: imports click (only scorepad.cli does)")
        if not target.startswith("scorepad."):
            continue
        other = target.split(".")[1]
        if top in LAYERS and other in LAYERS and LAYERS[other] > LAYERS[top]:
            wrong.append(f"{module}:{line}: imports {target}, a layer above it")
        if top == "web" and other == "cli":
            wrong.append(f"{module}:{line}: the board imports the command line")
        for name in names:
            if name.startswith("_") and not name.startswith("__"):
                wrong.append(f"{module}:{line}: takes the private name {name} from {target}")
    assert wrong == []


def test_a_regular_install_has_every_package() -> None:
    """`pip install .` installs the packages pyproject.toml names: every folder of the package
    with an `__init__.py` is one of them (an editable install, or the checkout on the path,
    would hide a missing one)."""
    import fnmatch
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    found = {
        ".".join(init.parent.relative_to(PACKAGE.parent).parts)
        for init in PACKAGE.rglob("__init__.py")
    }
    if "packages" in setuptools and isinstance(setuptools["packages"], list):
        missing = found - set(setuptools["packages"])
    else:
        include = setuptools["packages"]["find"]["include"]
        missing = {p for p in found if not any(fnmatch.fnmatch(p, pattern) for pattern in include)}
    assert missing == set()


def test_records_are_made_from_annotations_already_evaluated() -> None:
    # A NamedTuple checks each field's annotation as it is made; an annotation that is still
    # text (`from __future__ import annotations`) is compiled first, field by field, and that
    # cost every command about 5 ms as it started (Row and Rules have about 50 fields each).
    # A module that makes a record evaluates its annotations (a name bound later is quoted).
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        records = [
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            and any(isinstance(b, ast.Name) and b.id == "NamedTuple" for b in node.bases)
        ]
        postponed = any(
            isinstance(node, ast.ImportFrom)
            and node.module == "__future__"
            and any(a.name == "annotations" for a in node.names)
            for node in tree.body
        )
        assert not (records and postponed), (
            f"{path.relative_to(PACKAGE)}: {', '.join(records)} made from annotations as text"
        )
