"""Freeze what every command prints today: rewrite tests/fixtures/outputs/ (and tests/fixtures/
written/, the session files today's scorepad writes) from the code as it is.

    .venv/bin/python scripts/freeze_outputs.py            # every case
    .venv/bin/python scripts/freeze_outputs.py --check    # compare only; exit 1 on a difference

Run it ONLY when a change of output is intended (a new command, a new option, a wording
changed on purpose), then review `git diff tests/fixtures/` line by line: every difference it
shows is a change users see. tests/test_outputs_unchanged.py compares the code with these
fixtures; both take their cases from tests/outputs_cases.py (add a case there, then run this).

It writes the bench's sessions of 10,000 and 100,000 hands (bench/generate.py, seed 1) into a
temporary folder, checks that writing them is deterministic (twice the same bytes, every time
cell the bench's fixed time), and keeps each output on them as its length, sha256 and first and
last lines. About a minute.
"""

from __future__ import annotations

import argparse
import csv
import importlib.metadata
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import outputs_cases as oc  # noqa: E402


def versions() -> str:
    names = ("click", "tabulate", "plotext")
    lines = [f"python {platform.python_version()}"]
    lines += [f"{n} {importlib.metadata.version(n)}" for n in names]
    return "\n".join(lines) + "\n"


def _check_bench_file(path: Path) -> None:
    """Every time cell of a generated session is the bench's fixed time."""
    sys.path.insert(0, oc.bench_sources())
    try:
        fixed = __import__("generate").TIME
    finally:
        sys.path.remove(oc.bench_sources())
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        column = next(rows).index("time")
        times = {row[column] for row in rows}
    assert times <= {fixed, ""}, f"{path}: times other than {fixed}: {sorted(times)[:5]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only, write nothing")
    options = parser.parse_args()
    started = time.perf_counter()
    cases = oc.all_cases()
    with tempfile.TemporaryDirectory(prefix="scorepad-freeze-") as tmp:
        base = Path(tmp)
        bench = base / "bench"
        bench.mkdir()
        transcripts: dict[str, dict[str, str]] = {}
        for hands in oc.BENCH_SIZES:
            path = oc.generate_bench(hands, bench / f"session-{hands}.csv")
            _check_bench_file(path)
            transcripts.setdefault("bench-files", {})[path.name] = oc.bench_file_transcript(path)
            print(f"generated {path.name}: {time.perf_counter() - started:.1f} s", flush=True)
        again = oc.generate_bench(oc.BENCH_SIZES[0], base / "again.csv")
        assert again.read_bytes() == (bench / f"session-{oc.BENCH_SIZES[0]}.csv").read_bytes(), (
            "bench/generate.py is not deterministic"
        )
        # the session files the scripts keep come first: cases read them
        if not options.check:
            oc.WRITTEN.mkdir(parents=True, exist_ok=True)
        for number, case in enumerate(c for c in cases if c.keep):
            work = base / f"keep-{number}"
            work.mkdir()
            oc.run_case(case, work, bench)
            written = (work / "night.csv").read_bytes()
            if options.check:
                assert (oc.WRITTEN / case.keep).read_bytes() == written, case.keep
            else:
                (oc.WRITTEN / case.keep).write_bytes(written)
        for number, case in enumerate(cases):
            work = base / f"case-{number}"
            work.mkdir()
            transcripts.setdefault(case.group, {})[case.name] = oc.run_case(case, work, bench)
            shutil.rmtree(work)
    differ = 0
    for group, found in transcripts.items():
        frozen = oc.read_group(group)
        changed = [name for name in found if frozen.get(name) != found[name]]
        dropped = [name for name in frozen if name not in found]
        if changed or dropped:
            differ += 1
            print(f"{group}: {len(changed)} changed or new, {len(dropped)} dropped")
            for name in changed[:3]:
                print(f"  {name}\n" + oc.first_difference(frozen.get(name, ""), found[name]))
        if not options.check:
            oc.write_group(group, found)
    if not options.check:
        for stale in oc.FIXTURES.glob("*.txt"):
            if stale.stem not in transcripts:
                stale.unlink()
        (oc.FIXTURES / "VERSIONS").write_text(versions(), encoding="utf-8")
    total = sum(len(t) for t in transcripts.values())
    print(
        f"{total} cases in {len(transcripts)} groups, {time.perf_counter() - started:.1f} s; "
        + ("differences: see above" if differ else "all as frozen")
        + ("" if options.check else f"; written to {oc.FIXTURES.relative_to(ROOT)}")
    )
    return 1 if options.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
