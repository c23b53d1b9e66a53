"""Modules along their concerns (issue 38): no module over 800 lines, no class over 500. (No
function over cyclomatic complexity 20 is ruff's C901, in `.ci/run`'s lint; past that a function
says why beside it, and none is over 25.)"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "scorepad"


def test_no_module_over_800_lines_and_no_class_over_500() -> None:
    big = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(PACKAGE.parent)
        if text.count("\n") > 800:
            big.append(f"{name}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > 500:
                    big.append(f"{name}: class {node.name} of {length} lines")
    assert big == []
