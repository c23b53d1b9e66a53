"""Build the sdist and the wheel, check them, and run the wheel as a user who installs it would.

    .venv/bin/pip install -q '.[release]' && .venv/bin/python scripts/check_package.py

The classifiers must be PyPI's (`trove-classifiers`). `python -m build` makes both; `twine check
--strict` reads their metadata as PyPI would (the README rendered as the project's page), and
`check-wheel-contents` looks for what a wheel should not hold. Then the wheel is installed into a
fresh virtual environment (what `pipx install` gives a user) and the README's first command runs
against it: it must print what the README shows, and `scorepad --version` the version of the
package. CI runs this (`.ci/run`); it exits non-zero on the first thing wrong, saying what.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST = re.compile(
    r"^python3 -m venv \.venv && \.venv/bin/pip install -q \. && \.venv/bin/scorepad (.+)$", re.M
)


def main() -> int:
    unknown = unknown_classifiers()
    if unknown:
        return fail(f"pyproject.toml: classifiers PyPI does not know: {unknown}")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = FIRST.search(readme)
    if first is None:
        return fail(
            "README.md: its first command is not `python3 -m venv .venv && ...` as expected"
        )
    args = first.group(1).split()
    shown = readme.split(f"$ scorepad {' '.join(args)}\n", 1)[1].split("```", 1)[0]
    with tempfile.TemporaryDirectory(prefix="scorepad-package-") as scratch:
        dist, venv = Path(scratch) / "dist", Path(scratch) / "venv"
        step("build", sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT))
        made = sorted(dist.iterdir())
        wheels = [p for p in made if p.suffix == ".whl"]
        if len(made) != 2 or len(wheels) != 1:
            return fail(f"build made {[p.name for p in made]}, not one sdist and one wheel")
        step("twine check", sys.executable, "-m", "twine", "check", "--strict", *map(str, made))
        step("check-wheel-contents", sys.executable, "-m", "check_wheel_contents", str(wheels[0]))
        step("a fresh virtualenv", sys.executable, "-m", "venv", str(venv))
        scripts = venv / ("Scripts" if os.name == "nt" else "bin")
        step("the wheel installed", str(scripts / "pip"), "install", "-q", str(wheels[0]))
        scorepad = str(scripts / "scorepad")
        printed = step("the README's first command", scorepad, *args)
        if printed != shown:
            return fail(
                f"scorepad {' '.join(args)} printed\n{printed}\nwhere README.md shows\n{shown}"
            )
        version = step("scorepad --version", scorepad, "--version").strip()
        wanted = f"scorepad {version_of(wheels[0])}"
        if version != wanted:
            return fail(f"scorepad --version printed {version!r}, not {wanted!r}")
    print(f"package: {', '.join(p.name for p in made)}: built, checked, installed and run")
    return 0


def unknown_classifiers() -> list[str]:
    """The project's classifiers that are not PyPI's (which refuses an upload with one)."""
    import tomllib

    from trove_classifiers import classifiers

    with (ROOT / "pyproject.toml").open("rb") as file:
        given = tomllib.load(file)["project"]["classifiers"]
    return [c for c in given if c not in classifiers]


def step(what: str, *command: str) -> str:
    """Run one step in the repository's folder; its stdout, or the script stops, saying why."""
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(fail(f"{what}: exit {done.returncode}\n{done.stdout}{done.stderr}"))
    return done.stdout


def version_of(wheel: Path) -> str:
    """The version a wheel's name carries (name-version-python-abi-platform.whl)."""
    return wheel.name.split("-")[1]


def fail(message: str) -> int:
    print(f"check_package: {message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
