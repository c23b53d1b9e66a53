"""The package as it is published: its version in one place, its changelog, its addresses
and metadata, and the READMEs short, their links into the manual leading to pages that exist.
(CI builds the sdist and the wheel and runs them: scripts/check_package.py.)"""

import importlib.metadata
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from _types import Run

import scorepad

ROOT = Path(__file__).parent.parent


def project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def test_the_version_is_kept_in_one_place(run: Run) -> None:
    data = project()
    assert "version" not in data["project"] and data["project"]["dynamic"] == ["version"]
    assert data["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "scorepad.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", scorepad.__version__)
    assert importlib.metadata.version("scorepad") == scorepad.__version__
    result = run("--version")
    assert (result.exit_code, result.stdout) == (0, f"scorepad {scorepad.__version__}\n")


def test_the_changelog_starts_with_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\d+\.\d+\.\d+)\b", changelog, re.M)
    assert versions and versions[0] == scorepad.__version__
    assert (ROOT / "docs" / "changelog.md").read_text() == '--8<-- "CHANGELOG.md"\n'


def test_the_metadata_says_what_scorepad_is_for() -> None:
    meta = project()["project"]
    assert {"sheepshead", "schafkopf"} <= set(meta["keywords"])
    assert "Topic :: Games/Entertainment :: Board Games" in meta["classifiers"]
    minimum = meta["requires-python"].removeprefix(">=")
    assert f"Programming Language :: Python :: {minimum}" in meta["classifiers"]
    assert set(meta["urls"]) == {"Homepage", "Documentation", "Source", "Issues", "Changelog"}
    assert {"docs", "release", "test"} <= set(meta["optional-dependencies"])


def links(text: str) -> list[str]:
    """The addresses a Markdown text links to: inline, `[text](URL)`, or by reference,
    `[name]: URL` on a line of its own."""
    return re.findall(r"\]\((https?://[^)]+)\)", text) + re.findall(
        r"^\[[^\]]+\]: (https?://\S+)$", text, re.M
    )


def test_the_addresses_agree_everywhere() -> None:
    """The repository's and the manual's addresses are written alike in pyproject.toml,
    mkdocs.yml and the READMEs (until the project's home is confirmed, they are placeholders:
    this says where all of them are)."""
    urls = project()["project"]["urls"]
    source, manual = urls["Source"], urls["Documentation"]
    assert urls["Homepage"] == source and urls["Issues"] == f"{source}/issues"
    assert urls["Changelog"] == f"{source}/blob/main/CHANGELOG.md"
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"site_url: {manual}\n" in config and f"repo_url: {source}\n" in config
    for readme in ("README.md", "README.de.md"):
        text = (ROOT / readme).read_text(encoding="utf-8")
        for link in links(text):
            assert link.startswith((manual, source)), (readme, link)


@pytest.mark.parametrize("readme", ["README.md", "README.de.md"])
def test_a_readme_is_short_and_its_links_lead_somewhere(readme: str) -> None:
    text = (ROOT / readme).read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    urls = project()["project"]["urls"]
    manual, files = urls["Documentation"], f"{urls['Source']}/blob/main/"
    pages = [link.removeprefix(manual) for link in links(text) if link.startswith(manual)]
    assert len(pages) >= 5
    for page in pages:
        name = page.strip("/").split("#")[0] or "index"
        assert (ROOT / "docs" / f"{name}.md").is_file(), page
    for link in links(text):
        if link.startswith(files):
            assert (ROOT / link.removeprefix(files).split("#")[0]).is_file(), link


def test_the_readme_says_how_to_read_the_manual_locally() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ".venv/bin/pip install -q '.[docs]' && .venv/bin/mkdocs serve" in text
