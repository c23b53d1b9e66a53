"""Measure what a user feels, each figure as a ratio against a baseline measured in the same run.

    python bench/run.py                 # every part (sessions of 10, 10,000 and 100,000 hands)
    python bench/run.py --parts 23      # only some parts (see --help)

Run it with the Python of a regular install with the plot and serve extras (`pip install
'.[plot,serve]'`, not `-e`: an editable install adds import cost of its own). Sessions are written
once by bench/generate.py into bench/data/ and reused. Every figure is a whole command in a fresh
process, so start-up counts, as it does at the table, run in turn with its baseline (A B A B ...,
`--runs` pairs after one not counted): the ratio quoted is the median of the ratios pair by pair,
which holds when the machine's speed drifts, with the lowest and highest. Peak memory is the child
process's maximum resident set size.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
PYTHON = sys.executable
SCOREPAD = [PYTHON, "-m", "scorepad"]
PLAYERS = "Ann,Bob,Cy,Dee,Ed,Flo"

BARE_PASS = r"""
import csv, sys
for name in sys.argv[2:]:
    with open(name, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows)
        columns = [header.index(p) for p in sys.argv[1].split(",")]
        totals = [0] * len(columns)
        for row in rows:
            for k, i in enumerate(columns):
                if row[i]:
                    totals[k] += int(row[i])
    print(totals)
"""
# Every command that reads the whole file, in each of its output formats (a report's pass from
# the start of the file: its checkpoint is removed before each run).
REPORTS = (
    ("verify",),
    ("standings",),
    ("standings", "--format", "json"),
    ("sheet",),
    ("sheet", "--format", "csv"),
    ("sheet", "--format", "json"),
    ("settle",),
    ("stats",),
    ("chart", "--width", "100", "--height", "25"),
    ("chart", "--output", "{scratch}/chart.png"),
)
WHOLE_FILE = 4.0  # the target of each, against the bare pass over the file
LARGEST = 100_000  # the size real tables reach (a league's lifetime is about 50,000 hands)
# What a checkpoint spares: each after one new hand, on the largest session.
AFTER_A_HAND = (("standings",), ("settle",), ("stats",), ("status",))
AFTER = 0.3  # the target of each, against the bare pass over the file
# The code that reads, checks and changes a session file, and the most lines it may take.
CORE = ("ledger", "store", "session.py", "reading.py", "steps.py")
CORE_LINES = 5_000


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


class Paired(NamedTuple):
    """A command timed against its baseline, run by run in turn (A B A B ...)."""

    measured: float  # median wall seconds of the command
    baseline: float  # median wall seconds of the baseline
    ratio: float  # median of the ratios pair by pair (holds when the machine's speed drifts)
    spread: tuple[float, float]  # the lowest and highest ratio of a pair
    memory: float  # the command's highest peak memory (MiB)


def always(command: list[str]) -> Callable[[int], list[str]]:
    """The same command for every run."""
    return lambda number: command


def paired(
    command_for_run: Callable[[int], list[str]],
    baseline: list[str],
    runs: int,
    before: Callable[[], None] | None = None,
) -> Paired:
    """Run the baseline and the command in turn, `runs` times each, after one of each not
    counted (the files are in the page cache then); `before`, if given, is done (untimed)
    before each run of the command."""
    run(baseline)
    if before is not None:
        before()
    run(command_for_run(-1))
    times, bases, ratios, memory = [], [], [], 0.0
    for number in range(runs):
        base, _ = run(baseline)
        if before is not None:
            before()
        elapsed, peak = run(command_for_run(number))
        times.append(elapsed)
        bases.append(base)
        ratios.append(elapsed / base)
        memory = max(memory, peak)
    return Paired(
        statistics.median(times),
        statistics.median(bases),
        statistics.median(ratios),
        (min(ratios), max(ratios)),
        memory,
    )


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


def no_checkpoint(path: Path) -> Callable[[], None]:
    """Remove the session's checkpoint (a pass from the start of the file)."""
    side = path.with_name(f".{path.name}.checkpoint")
    return lambda: side.unlink(missing_ok=True)


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
        self.notes: list[str] = []  # lines printed under the table (memory over the nights)

    def add(self, name: str, figure: Paired, target: float, memory: float | None = None) -> None:
        low, high = figure.spread
        self.rows.append(
            (
                name,
                f"{figure.measured * 1000:.0f} ms",
                f"{figure.baseline * 1000:.0f} ms",
                f"{figure.ratio:.2f}x",
                f"{low:.2f}-{high:.2f}x",
                f"<= {target}x" + (f", < {memory:.0f} MiB" if memory else ""),
                f"{figure.memory:.0f} MiB",
                "ok"
                if figure.ratio <= target and (memory is None or figure.memory < memory)
                else "MISSED",
            )
        )

    def add_seconds(
        self,
        name: str,
        seconds: list[float],
        target: float,
        memory: float,
        memory_target: float,
        baseline: float | None = None,
    ) -> None:
        """A figure against a target in seconds (not a ratio): its median, the lowest and
        highest, and the peak memory (MiB) against its own target."""
        measured = statistics.median(seconds)
        self.rows.append(
            (
                name,
                f"{measured * 1000:.0f} ms",
                f"{baseline * 1000:.0f} ms" if baseline is not None else "-",
                "-",
                f"{min(seconds) * 1000:.0f}-{max(seconds) * 1000:.0f} ms",
                f"<= {target * 1000:.0f} ms, < {memory_target:.0f} MiB",
                f"{memory:.0f} MiB",
                "ok" if measured <= target and memory < memory_target else "MISSED",
            )
        )

    def print(self) -> None:
        header = ("figure", "measured", "baseline", "ratio", "spread", "target", "memory", "")
        table = [header, *self.rows]
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        for row in [header, tuple("-" * w for w in widths), *self.rows]:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
        for note in self.notes:
            print(note)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs a figure (median)")
    parser.add_argument(
        "--parts",
        default="123456",
        help="which parts to run: 1 a hand, 2 the whole-file commands, 3 after a hand, 4 a "
        "season, 5 ratings over nights, 6 the live board",
    )
    args = parser.parse_args()
    import importlib.util

    missing = [m for m in ("PIL", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:  # (the chart's picture and the live board are figures of their own)
        print("the bench needs the plot and serve extras: pip install '.[plot,serve]'")
        return 2
    DATA.mkdir(exist_ok=True)
    largest = LARGEST
    sizes = [10_000, LARGEST]
    runs = args.runs
    figures = Figures()

    quick_runs = runs * 10  # start-up figures are short and noisy: take many more of them
    memory: dict[str, list[tuple[int, float]]] = {}
    scratch = Path(tempfile.mkdtemp(prefix="scorepad-bench-"))
    if "1" in args.parts:
        part_one(figures, scratch, quick_runs)
    if "2" in args.parts:
        part_two(figures, scratch, sizes, largest, runs, memory)
    if "3" in args.parts:
        part_three(figures, scratch, largest, runs)
    if "4" in args.parts:
        part_four(figures, scratch, runs)
    if "5" in args.parts:
        part_five(figures, scratch, runs)
    if "6" in args.parts:
        part_board(figures, scratch, largest, runs)
    shutil.rmtree(scratch)
    report(figures, memory, runs, quick_runs)
    return 0


def part_one(figures: Figures, scratch: Path, quick_runs: int) -> None:
    """Recording a hand and checking one, against the floor of any Click+tabulate program."""
    fifty = scratch / "fifty.csv"
    shutil.copy(session(10), fifty)
    floor = [PYTHON, "-c", "import click, tabulate"]
    recorded = paired(lambda n: [*SCOREPAD, "-f", str(fifty), *hand_args(fifty)], floor, quick_runs)
    figures.add("record a hand", recorded, 1.15)
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
    figures.add("check a hand", paired(always(check), floor, quick_runs), 1.15)
    # in German (`--lang de`: the catalog read as the command starts)
    german = paired(
        lambda n: [*SCOREPAD, "--lang", "de", "-f", str(fifty), *hand_args(fifty)],
        floor,
        quick_runs,
    )
    figures.add("record a hand in German", german, 1.2)
    check_de = [*SCOREPAD, "--lang", "de", *check[len(SCOREPAD) :]]
    figures.add("check a hand in German", paired(always(check_de), floor, quick_runs), 1.2)


def part_two(
    figures: Figures,
    scratch: Path,
    sizes: list[int],
    largest: int,
    runs: int,
    memory: dict[str, list[tuple[int, float]]],
) -> None:
    """Every command that reads the whole file, against a bare csv.reader pass over it."""
    for size in sizes:
        path = session(size)
        bare = [PYTHON, "-c", BARE_PASS, PLAYERS, str(path)]
        for report in REPORTS:
            name = " ".join(report).replace("{scratch}/", "")
            args = [a.replace("{scratch}", str(scratch)) for a in report]
            command = [*SCOREPAD, "-f", str(path), *args]
            result = paired(always(command), bare, runs, no_checkpoint(path))
            memory.setdefault(name, []).append((size, result.memory))
            if size == largest:
                figures.add(f"{name}, {largest:,} hands", result, WHOLE_FILE, 60)
        no_checkpoint(path)()


def part_three(figures: Figures, scratch: Path, largest: int, runs: int) -> None:
    """What the checkpoint spares: a report (and a hand recorded) on the largest session
    whose last change was one hand, against the bare pass over it."""
    big = scratch / "big.csv"
    shutil.copy(session(largest), big)
    bare = [PYTHON, "-c", BARE_PASS, PLAYERS, str(big)]
    record = [*SCOREPAD, "-f", str(big)]

    def one_hand() -> None:
        subprocess.run([*record, *hand_args(big)], check=True, stdout=subprocess.DEVNULL)

    subprocess.run([*record, "standings"], check=True, stdout=subprocess.DEVNULL)
    for report in AFTER_A_HAND:
        result = paired(always([*record, *report]), bare, runs, one_hand)
        figures.add(f"{' '.join(report)} after a hand, {largest:,}", result, AFTER)
    result = paired(lambda n: [*record, *hand_args(big)], bare, runs)
    figures.add(f"record a hand, {largest:,} hands", result, AFTER)
    big.unlink()
    no_checkpoint(big)()


SEASON_NIGHTS, SEASON_HANDS = 100, 200  # a league's season: a hundred nights of 200 hands


def part_four(figures: Figures, scratch: Path, runs: int) -> None:
    """A season over a hundred nights of 200 hands (each night of its own seed), against the
    bare pass over the files: the first time (no checkpoints), and again (each night's)."""
    nights = scratch / "season"
    nights.mkdir()
    for k in range(SEASON_NIGHTS):
        night = DATA / f"night-{SEASON_HANDS}-{k + 1}.csv"
        if not night.exists():
            subprocess.run(
                [PYTHON, str(HERE / "generate.py"), str(SEASON_HANDS), str(night), str(k + 1)],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        shutil.copy(night, nights / night.name)
    night_files = sorted(str(p) for p in nights.glob("*.csv"))
    bare = [PYTHON, "-c", BARE_PASS, PLAYERS, *night_files]

    def no_checkpoints() -> None:
        for night in nights.glob("*.csv"):
            no_checkpoint(night)()

    season = [*SCOREPAD, "season", str(nights)]
    name = f"season, {SEASON_NIGHTS} nights of {SEASON_HANDS} hands"
    figures.add(name, paired(always(season), bare, runs, no_checkpoints), 3.0, 60)
    figures.add(f"{name} again (checkpoints)", paired(always(season), bare, runs), 0.3, 60)
    # the floor under it: what starting Python and importing click alone take, against the
    # same pass (above 0.3x, the target again is out of reach of any click program)
    floor = paired(always([PYTHON, "-c", "import click"]), bare, runs)
    figures.notes.append(
        f"floor of a season again: python -c 'import click' takes {floor.ratio:.2f}x the bare "
        f"pass over the {SEASON_NIGHTS} nights ({floor.measured * 1000:.0f} ms against "
        f"{floor.baseline * 1000:.0f} ms)"
    )
    shutil.rmtree(nights)


# The yardstick of a rating: the bare pass that also rates each picker's hand with OpenSkill
# (the picker's side against the rest dealt in, won by the picker's points): what any program
# that rates every hand pays.
BARE_RATING = r"""
import csv, json, sys
from openskill.models import PlackettLuce
model, ratings = PlackettLuce(), {}
for name in sys.argv[2:]:
    with open(name, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows)
        at = {c: header.index(c) for c in ("kind", "picker", "partners", "out", "seated")}
        for row in rows:
            if row[at["kind"]] != "picker":
                continue
            side = [row[at["picker"]], *json.loads(row[at["partners"]] or "[]")]
            out = json.loads(row[at["out"]] or "[]")
            seated = json.loads(row[at["seated"]])
            rest = [p for p in seated if p not in side and p not in out]
            teams = [[ratings.setdefault(p, model.rating(name=p)) for p in t] for t in (side, rest)]
            won = int(row[header.index(side[0])] or 0) > 0
            new = model.rate(teams, ranks=[1, 2] if won else [2, 1])
            for t, r in zip((side, rest), new):
                ratings.update(zip(t, r))
print(sorted((r.ordinal(), p) for p, r in ratings.items()))
"""


def part_five(figures: Figures, scratch: Path, runs: int) -> None:
    """Ratings over ten nights of 10,000 hands, against the bare pass that rates each hand
    (OpenSkill's own cost is most of either)."""
    nights = scratch / "rated"
    nights.mkdir()
    for k in range(10):
        shutil.copy(session(10_000), nights / f"night-{k}.csv")
    night_files = sorted(str(p) for p in nights.glob("*.csv"))
    bare = [PYTHON, "-c", BARE_RATING, PLAYERS, *night_files]
    result = paired(always([*SCOREPAD, "rating", str(nights)]), bare, runs)
    figures.add("rating, ten nights of 10,000 hands (vs rating each hand)", result, 2.5, 60)
    shutil.rmtree(nights)


BOARD_CLIENTS = 50  # listeners on the board's event stream while hands are recorded
BOARD_HANDS = 10  # hands recorded, each timed to its event at every listener
BOARD_STARTS = 3  # starts timed against the bare pass (each a pass over the largest file)


class Served:
    """`scorepad serve` on a session, started and timed to its first `/api/state` answer."""

    def __init__(self, path: Path):
        with socket.socket() as probe:  # (a free port on the loopback address)
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        command = [*SCOREPAD, "-f", str(path), "serve", "--port", str(self.port)]
        start = time.perf_counter()
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tempfile.gettempdir()
        )
        while True:
            if self.process.poll() is not None:
                assert self.process.stderr is not None
                raise SystemExit(
                    f"failed: {' '.join(command)}\n{self.process.stderr.read().decode()}"
                )
            try:
                url = f"http://127.0.0.1:{self.port}/api/state"
                with urllib.request.urlopen(url, timeout=60) as answer:
                    if answer.status == 200:
                        answer.read()
                        break
            except OSError:
                time.sleep(0.02)
        self.started = time.perf_counter() - start  # wall seconds to the first answer

    def stop(self) -> float:
        """Stop the server (as Ctrl-C does); its peak memory (MiB)."""
        self.process.send_signal(signal.SIGINT)
        _, _status, usage = os.wait4(self.process.pid, 0)
        return usage.ru_maxrss / 1024


class Listeners:
    """Clients on the board's event stream (`GET /events`), each noting when every event's
    version reaches it: one thread, one connection each."""

    _VERSION = re.compile(rb'data: \{"version": (\d+)')

    def __init__(self, port: int, count: int):
        self.port, self.count = port, count
        self.seen: list[dict[int, float]] = [{} for _ in range(count)]  # version -> when
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks = [
            asyncio.run_coroutine_threadsafe(self._listen(k), self.loop) for k in range(count)
        ]

    async def _listen(self, k: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 24)
        writer.write(
            b"GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n"
        )
        await writer.drain()
        seen = self.seen[k]
        while True:
            line = await reader.readline()
            if not line:
                return
            found = self._VERSION.match(line)
            if found:
                seen.setdefault(int(found[1]), time.perf_counter())

    def newest(self) -> int:
        """The newest version every listener has seen (0: some have seen none)."""
        return min((max(seen, default=0) for seen in self.seen), default=0)

    def wait_for(self, version: int, timeout: float = 120.0) -> float:
        """When the last listener saw an event past `version` (each its first such)."""
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            firsts = [
                min((t for v, t in seen.items() if v > version), default=None) for seen in self.seen
            ]
            if all(t is not None for t in firsts):
                return max(t for t in firsts if t is not None)
            time.sleep(0.002)
        raise SystemExit(f"no event past version {version} reached every listener")

    def close(self) -> None:
        async def stop() -> None:  # (each listener cancelled and finished, before the loop)
            for task in self.tasks:
                task.cancel()
            listening = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for listener in listening:
                listener.cancel()
            await asyncio.gather(*listening, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        if not self.thread.is_alive():
            self.loop.close()


def written(path: Path, size: int, timeout: float = 60.0) -> float:
    """When the file at `path` grew past `size` bytes (a hand written), polled each 1 ms."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        if os.stat(path).st_size > size:
            return time.perf_counter()
        time.sleep(0.001)
    raise SystemExit("the hand was not written")


def part_board(figures: Figures, scratch: Path, largest: int, runs: int) -> None:
    """The live board on the largest session: its start (to the first `/api/state` answer)
    against the bare pass over the file, in turn; then, with BOARD_CLIENTS listening on its
    event stream, BOARD_HANDS hands recorded with the command line, each timed from the hand
    written (the file grew) to its event at the last listener; the server's peak memory."""
    big = scratch / "board.csv"
    shutil.copy(session(largest), big)
    bare = [PYTHON, "-c", BARE_PASS, PLAYERS, str(big)]
    starts, bases, ratios, memory = [], [], [], 0.0
    run(bare)  # (not counted: the file is in the page cache then)
    server = None
    pairs = min(runs, BOARD_STARTS)
    for number in range(pairs):
        base, _ = run(bare)
        server = Served(big)
        starts.append(server.started)
        bases.append(base)
        ratios.append(server.started / base)
        if number < pairs - 1:
            memory = max(memory, server.stop())
    assert server is not None
    start = Paired(
        statistics.median(starts),
        statistics.median(bases),
        statistics.median(ratios),
        (min(ratios), max(ratios)),
        memory,
    )
    listeners = Listeners(server.port, BOARD_CLIENTS)
    try:
        listeners.wait_for(0)  # (every listener has the state it gets on connecting)
        latencies, bare_pass = [], start.baseline
        for _hand in range(BOARD_HANDS):
            version = max(max(seen, default=0) for seen in listeners.seen)
            size = big.stat().st_size
            record = subprocess.Popen(
                [*SCOREPAD, "-f", str(big), *hand_args(big)], stdout=subprocess.DEVNULL
            )
            at = written(big, size)
            arrived = listeners.wait_for(version)
            if record.wait() != 0:
                raise SystemExit("recording a hand failed")
            latencies.append(max(0.0, arrived - at))
    finally:
        listeners.close()
        peak = server.stop()
    start = start._replace(memory=max(memory, peak))
    figures.add(f"board start, {largest:,} hands", start, 2.5, 100)
    figures.add_seconds(
        f"board: a hand to its event, {BOARD_CLIENTS} listening",
        latencies,
        0.5,
        peak,
        100,
        bare_pass,
    )
    big.unlink()


def core_lines() -> int:
    """The lines of the code that reads, checks and changes a session file (`CORE`)."""
    package = HERE.parent / "scorepad"
    paths = [p for name in CORE for p in sorted((package / name).glob("**/*.py"))]
    paths += [package / name for name in CORE if name.endswith(".py")]
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in paths if p.is_file())


def report(
    figures: Figures, memory: dict[str, list[tuple[int, float]]], runs: int, quick_runs: int
) -> None:
    figures.print()
    print()
    if memory:
        print("peak memory (target: under 60 MiB):")
    for name, sizes_mib in memory.items():
        shown = ", ".join(f"{size:,} {mib:.0f} MiB" for size, mib in sizes_mib)
        under = all(mib < 60 for _, mib in sizes_mib)
        print(f"  {name:<22} {shown}  {'ok' if under else 'MISSED'}")
    lines = core_lines()
    print(
        f"the session's code ({', '.join(CORE)}): {lines:,} lines (target: at most "
        f"{CORE_LINES:,}): {'ok' if lines <= CORE_LINES else 'MISSED'}"
    )
    print(
        f"median of {runs} pairs ({quick_runs} for a hand); python {sys.version.split()[0]}; "
        f"{os.cpu_count()} cores"
    )


if __name__ == "__main__":
    sys.exit(main())
