"""Users see no change: every command prints byte for byte what it printed when the fixtures
were frozen, on every sample session, on files of every format today's scorepad reads and
writes, and on the bench's sessions of 10,000 and 100,000 hands; and the files it writes are
byte for byte the same.

The cases are tests/outputs_cases.py; the fixtures tests/fixtures/outputs/ (a transcript per
case) and tests/fixtures/written/ (session files today's scorepad wrote, with a row of every
kind). When a change of output is intended, and only then, rewrite them:

    .venv/bin/python scripts/freeze_outputs.py

and review the diff. The cases on 100,000 hands are `slow` (`pytest -m slow` runs them); the
bench's sessions are written once for the code as it is (SCOREPAD_OUTPUTS_NO_CACHE=1: every
run), see outputs_cases.bench_session.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import outputs_cases as oc
import pytest

if TYPE_CHECKING:
    from _pytest.mark.structures import ParameterSet

CASES = oc.all_cases()
FROZEN = {group: oc.read_group(group) for group in {c.group for c in CASES} | {"bench-files"}}
VERSIONS = oc.FIXTURES / "VERSIONS"


def _versions_note() -> str:
    """Say so when the libraries that shape the output are not those the fixtures saw."""
    sys.path.insert(0, str(oc.ROOT / "scripts"))
    try:
        # (scripts/ is on the path only here, at run time: mypy does not look there)
        from freeze_outputs import versions  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(oc.ROOT / "scripts"))
    frozen = VERSIONS.read_text(encoding="utf-8") if VERSIONS.exists() else ""
    now = versions()
    if frozen == now:
        return ""
    return f"\n(note: the fixtures were frozen with\n{frozen}and this run has\n{now})"


def _compare(case: oc.Case, transcript: str, artifacts: Path) -> None:
    frozen = FROZEN[case.group].get(case.name)
    assert frozen is not None, (
        f"no fixture for {case.id!r}: run scripts/freeze_outputs.py (a new case)"
    )
    if transcript != frozen:
        artifacts.mkdir(parents=True, exist_ok=True)
        (artifacts / "now.txt").write_text(transcript, encoding="utf-8", newline="")
        (artifacts / "frozen.txt").write_text(frozen, encoding="utf-8", newline="")
        pytest.fail(
            f"{case.id}: the output changed (whole transcripts in {artifacts})\n"
            + oc.first_difference(frozen, transcript)
            + (f"\n(written by bench/generate.py, or from {oc.CACHE})" if case.bench else "")
            + _versions_note(),
            pytrace=False,
        )


# --- the bench's sessions ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def bench_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bench")


@pytest.fixture(scope="session")
def bench(bench_dir: Path) -> Callable[[int], Path]:
    """The folder of the bench's sessions, each as bench/generate.py writes it (see
    outputs_cases.bench_session), checked against the fixture's length and sha256."""
    made: set[int] = set()

    def ready(hands: int) -> Path:
        path = bench_dir / f"session-{hands}.csv"
        if hands not in made:
            oc.bench_session(hands, path)
            _compare(
                oc.Case("bench-files", path.name, (), bench=hands),
                oc.bench_file_transcript(path),
                bench_dir / "artifacts" / path.name,
            )
            made.add(hands)
        return bench_dir

    return ready


# --- the cases --------------------------------------------------------------------------------


def _params() -> Iterator[ParameterSet]:
    for case in CASES:
        yield pytest.param(case, id=case.id, marks=[pytest.mark.slow] if case.slow else [])


@pytest.mark.parametrize("case", list(_params()))
def test_output_unchanged(case: oc.Case, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    bench_dir = request.getfixturevalue("bench")(case.bench) if case.bench else None
    work = tmp_path / "work"
    work.mkdir()
    transcript = oc.run_case(case, work, bench_dir)
    _compare(case, transcript, tmp_path / "artifacts")
    if case.keep:  # the session file kept as a fixture is the one written now
        assert (work / "night.csv").read_bytes() == (oc.WRITTEN / case.keep).read_bytes()


def test_every_fixture_has_its_case() -> None:
    names = {(c.group, c.name) for c in CASES}
    stale = [
        f"{group}: {name}"
        for group, frozen in FROZEN.items()
        if group != "bench-files"
        for name in frozen
        if (group, name) not in names
    ]
    assert not stale, f"fixtures without a case (run scripts/freeze_outputs.py): {stale[:5]}"
    groups = {p.stem for p in oc.FIXTURES.glob("*.txt")}
    assert groups == set(FROZEN), groups ^ set(FROZEN)


def test_the_written_files_have_a_row_of_every_kind() -> None:
    import csv

    from scorepad.store.format import RowKind

    kinds: set[str] = set()
    for name in oc.WRITTEN_FILES:
        with open(oc.WRITTEN / name, newline="", encoding="utf-8") as f:
            rows = csv.reader(f)
            at = next(rows).index("kind")
            kinds |= {row[at] for row in rows}
    assert kinds == {k.value for k in RowKind}
