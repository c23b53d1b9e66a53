"""Measure what a user feels, each figure as a ratio against a baseline measured in the same run.

    python bench/run.py            # sessions of 10, 10,000, 100,000 and 1,000,000 hands
    python bench/run.py --quick    # the largest session is 100,000 hands (for a quick look)

Run it with the Python of a regular install (`pip install .`, not `-e`: an editable install adds
import cost of its own). Sessions are written once by bench/generate.py into bench/data/ and
reused. Every figure is the median of several runs of a whole command in a fresh process
(`--runs`), so start-up counts, as it does at the table. Peak memory is the child process's
maximum resident set size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
PYTHON = sys.executable
SCOREPAD = [PYTHON, "-m", "scorepad"]
PLAYERS = "Ann,Bob,Cy,Dee,Ed,Flo"

BARE_PASS = r"""
import csv, sys
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = csv.reader(f)
    header = next(rows)
    columns = [header.index(p) for p in sys.argv[2].split(",")]
    totals = [0] * len(columns)
    for row in rows:
        for k, i in enumerate(columns):
            if row[i]:
                totals[k] += int(row[i])
print(totals)
"""
REPORTS = (("standings",), ("sheet", "--format", "csv"), ("settle",), ("stats",), ("verify",))


def run(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak memory (MiB) of one run of a command in a new process."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tempfile.gettempdir()
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        assert process.stderr is not None
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    return elapsed, usage.ru_maxrss / 1024


def median(command_for_run: Callable[[int], list[str]], runs: int) -> tuple[float, float]:
    """Median wall time and the highest peak memory over `runs` runs."""
    times, memory = [], 0.0
    for number in range(runs):
        elapsed, peak = run(command_for_run(number))
        times.append(elapsed)
        memory = max(memory, peak)
    return statistics.median(times), memory


def session(hands: int) -> Path:
    path = DATA / f"session-{hands}.csv"
    if not path.exists():
        print(f"writing a session of {hands:,} hands ...", file=sys.stderr, flush=True)
        subprocess.run(
            [PYTHON, str(HERE / "generate.py"), str(hands), str(path)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return path


def hand_args(path: Path) -> list[str]:
    """A hand to record next: a picker and partner who are both dealt in."""
    from scorepad.scoring import seat
    from scorepad.session import Session

    state = Session(path).state()
    order = seat(state.rules, state.seated, state.next_dealer).order
    return ["hand", "--picker", order[0], "--partner", order[1], "--points", "70"]


class Figures:
    """The table of figures: each a measurement, its baseline, the ratio and the target."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []

    def add(
        self, name: str, measured: tuple[float, float], baseline: tuple[float, float], target: float
    ) -> None:
        ratio = measured[0] / baseline[0]
        self.rows.append(
            (
                name,
                f"{measured[0] * 1000:.0f} ms",
                f"{baseline[0] * 1000:.0f} ms",
                f"{ratio:.2f}x",
                f"<= {target}x",
                "ok" if ratio <= target else "MISSED",
            )
        )

    def print(self) -> None:
        header = ("figure", "measured", "baseline", "ratio", "target", "")
        table = [header, *self.rows]
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        for row in [header, tuple("-" * w for w in widths), *self.rows]:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="largest session 100,000 hands")
    parser.add_argument("--runs", type=int, default=5, help="runs a figure (median)")
    args = parser.parse_args()
    DATA.mkdir(exist_ok=True)
    largest = 100_000 if args.quick else 1_000_000
    sizes = [10_000, 100_000] + ([] if args.quick else [1_000_000])
    runs = args.runs
    figures = Figures()

    # 1. recording a hand and checking one, against the floor of any Click+tabulate program
    scratch = Path(tempfile.mkdtemp(prefix="scorepad-bench-"))
    fifty = scratch / "fifty.csv"
    shutil.copy(session(10), fifty)
    quick_runs = runs * 3  # start-up figures are short and noisy: take more of them
    floor = median(lambda n: [PYTHON, "-c", "import click, tabulate"], quick_runs)
    recorded = median(lambda n: [*SCOREPAD, "-f", str(fifty), *hand_args(fifty)], quick_runs)
    figures.add("record a hand", recorded, floor, 1.15)
    check = [
        *SCOREPAD,
        "check",
        "--players",
        "Ann,Bob,Cy,Dee,Ed",
        "--picker",
        "Ann",
        "--partner",
        "Bob",
        "--points",
        "70",
        "--tricks",
        "4",
    ]
    figures.add("check a hand", median(lambda n: check, quick_runs), floor, 1.15)
    shutil.rmtree(scratch)

    # 2. every report that reads the whole file, against a bare csv.reader pass over it
    memory: dict[str, list[tuple[int, float]]] = {}
    for size in sizes:
        path = session(size)
        bare = median(lambda n, p=path: [PYTHON, "-c", BARE_PASS, str(p), PLAYERS], runs)
        for report in REPORTS:
            name = " ".join(report)
            result = median(lambda n, p=path, r=report: [*SCOREPAD, "-f", str(p), *r], runs)
            memory.setdefault(name, []).append((size, result[1]))
            if size == largest:
                figures.add(f"{name}, {largest:,} hands", result, bare, 2.5)

    figures.print()
    print()
    print(
        "peak memory (targets: under 60 MiB; flat: at most 10 MiB more at the largest size "
        "than at 10,000 hands):"
    )
    for name, sizes_mib in memory.items():
        shown = ", ".join(f"{size:,} {mib:.0f} MiB" for size, mib in sizes_mib)
        under = all(mib < 60 for _, mib in sizes_mib)
        flat = sizes_mib[-1][1] - sizes_mib[0][1] <= 10
        print(
            f"  {name:<20} {shown}  under 60: {'ok' if under else 'MISSED'}, "
            f"flat: {'ok' if flat else 'MISSED'}"
        )
    print(
        f"median of {runs} runs ({quick_runs} for a hand); python {sys.version.split()[0]}; "
        f"{os.cpu_count()} cores"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
