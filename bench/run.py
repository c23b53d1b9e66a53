"""Measure what a user feels, each figure as a ratio against a baseline measured in the same run.

    python bench/run.py              # the full run: sessions of 10, 10,000, 100,000, 1,000,000 hands
    python bench/run.py --quick      # the largest session is 100,000 hands (for a quick look)

Run it with the Python that has scorepad installed (`.venv/bin/python bench/run.py`). Sessions
are written once by bench/generate.py into bench/data/ and reused. Every figure is the median of
several runs of a whole command in a fresh process (`--runs`), so start-up counts, as it does at
the table. Peak memory is the child process's maximum resident set size.
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
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
PYTHON = sys.executable
SCOREPAD = [PYTHON, "-m", "scorepad"]

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


def run(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak memory (MiB) of one run of a command in a new process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               cwd=tempfile.gettempdir())
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")
    return elapsed, usage.ru_maxrss / 1024


def median(command_for_run, runs: int) -> tuple[float, float]:
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
        subprocess.run([PYTHON, str(HERE / "generate.py"), str(hands), str(path)], check=True,
                       stdout=subprocess.DEVNULL)
    return path


def hand_args(path: Path) -> list[str]:
    """A hand to record next: a picker and partner who are both dealt in."""
    from scorepad.ledger import Replay
    from scorepad.scoring import seat
    from scorepad.session import read_head, read_tail

    head = read_head(path)
    last, last_hand = read_tail(head)
    state = Replay.resume(head.rules, head.players, last, last_hand)
    order = seat(head.rules, state.seated, state.next_dealer).order
    return ["hand", "--picker", order[0], "--partner", order[1], "--points", "70"]


def twelve_player_session() -> Path:
    """A night twelve people played in turns (five at the table, seats changing)."""
    path = DATA / "session-12-players.csv"
    if path.exists():
        return path
    from scorepad.ledger import Replay
    from scorepad.rules import load_rules
    from scorepad.scoring import LeasterHand, seat
    from scorepad.session import append, create, locked

    names = [f"P{i:02}" for i in range(1, 13)]
    rules = load_rules("standard")
    create(path, names, rules, names[4], "2026-11-06T19:00:00-06:00")
    state = Replay(rules, names, names[4], seated=names)
    rows = [state.seat_row(names[:5], "five at the table")]
    for number in range(36):
        order = seat(rules, state.seated, state.next_dealer).order
        rows.append(state.record(LeasterHand(state.seated, winner=order[number % 3]))[0])
        newcomer = names[(names.index(state.seated[-1]) + 1) % len(names)]
        if newcomer not in state.seated:
            rows.append(state.seat_row([*state.seated[1:], newcomer], ""))
    with locked(path) as fd:
        append(path, fd, names, rows)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="largest session 100,000 hands")
    parser.add_argument("--runs", type=int, default=5, help="runs a figure (median)")
    args = parser.parse_args()
    DATA.mkdir(exist_ok=True)
    largest = 100_000 if args.quick else 1_000_000
    sizes = [10, 10_000, 100_000] + ([] if args.quick else [1_000_000])
    runs = args.runs
    players = "Ann,Bob,Cy,Dee,Ed,Flo"
    rows = []

    def figure(name, measured, baseline, target, unit="x"):
        ratio = measured[0] / baseline[0] if baseline else measured[0]
        ok = ratio <= target
        shown_base = f"{baseline[0] * 1000:.0f} ms" if baseline else "-"
        shown_target = f"<= {target}{unit}" if unit == "x" else f"< {target} s"
        rows.append((name, f"{measured[0] * 1000:.0f} ms", shown_base,
                     f"{ratio:.2f}x" if baseline else f"{ratio:.2f} s", shown_target,
                     "ok" if ok else "MISSED"))

    # 1. recording a hand in a 50-hand session, against the floor of any Click+tabulate program
    scratch = Path(tempfile.mkdtemp(prefix="scorepad-bench-"))
    fifty = scratch / "fifty.csv"
    subprocess.run([PYTHON, str(HERE / "generate.py"), "50", str(fifty)], check=True,
                   stdout=subprocess.DEVNULL)
    quick_runs = runs * 3  # start-up figures are short and noisy: take more of them
    floor = median(lambda n: [PYTHON, "-c", "import click, tabulate"], quick_runs)
    record_50 = median(lambda n: [*SCOREPAD, "-f", str(fifty), *hand_args(fifty)], quick_runs)
    figure("record a hand, 50-hand session", record_50, floor, 1.3)

    # 2. recording in the largest session against the 10-hand one
    small, big = scratch / "small.csv", scratch / "big.csv"
    shutil.copy(session(10), small)
    shutil.copy(session(largest), big)
    record_small = median(lambda n: [*SCOREPAD, "-f", str(small), *hand_args(small)],
                          quick_runs)
    record_big = median(lambda n: [*SCOREPAD, "-f", str(big), *hand_args(big)], quick_runs)
    figure(f"record a hand, {largest:,} vs 10 hands", record_big, record_small, 1.2)

    # 3. standings (and its memory at every size) and 4. verify, against a bare csv pass
    memory = []
    for size in sizes:
        path = session(size)
        result = median(lambda n: [*SCOREPAD, "-f", str(path), "standings"], runs)
        memory.append((size, result[1]))
        if size == largest:
            bare = median(lambda n: [PYTHON, "-c", BARE_PASS, str(path), players], runs)
            figure(f"standings, {largest:,} hands", result, bare, 2.0)
            checked = median(lambda n: [*SCOREPAD, "-f", str(path), "verify"], max(1, runs // 2))
            figure(f"verify, {largest:,} hands", checked, bare, 4.0)

    # 5. settling twelve players with balances
    twelve = twelve_player_session()
    settle = median(lambda n: [*SCOREPAD, "-f", str(twelve), "settle", "--rate", "0.25"], runs)
    figure("settle, 12 players with balances", settle, None, 1.0, unit="s")
    shutil.rmtree(scratch)

    widths = [max(len(str(r[i])) for r in rows + [_HEADER]) for i in range(len(_HEADER))]
    for row in [_HEADER, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    print()
    print("peak memory of standings: " + ", ".join(f"{size:,} hands {mib:.0f} MiB"
                                                   for size, mib in memory)
          + " (target: under 60 MiB and flat)")
    print(f"median of {runs} runs ({runs * 3} for recording a hand); python "
          f"{sys.version.split()[0]}; {os.cpu_count()} cores")
    return 0


_HEADER = ("figure", "measured", "baseline", "ratio", "target", "")

if __name__ == "__main__":
    sys.exit(main())
