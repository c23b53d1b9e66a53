"""Measure `scorepad analyze`: random deals of each game, played at random by the rules, analysed
card by card with every card open (issue 41's targets).

    python bench/analyze.py                    # 200 deals a game, seed 1 (the issue's figures)
    python bench/analyze.py --deals 20         # fewer, quicker
    python bench/analyze.py --points-deals 20  # and `--points` on 20 deals a game

Each game runs in a process of its own (its peak memory is that process's maximum resident set
size). Each deal is timed twice in turn: `replay`'s rules check of the deal, the baseline measured
in the same run, then the analysis (what `analyze` adds to it). The figures are the analysis's
seconds a deal (median, 90th percentile, worst) against the issue's targets, and the ratio to
the baseline pair by pair (median and 90th percentile: it holds when the machine's speed drifts,
seconds do not), and the 90th percentile of its CPU seconds (on a busy machine, nearer what a
quiet one would take than the wall's).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

GAMES = ("sauspiel", "solo", "wenz", "geier", "sheepshead-5")
TARGETS = {"p90": 0.5, "worst": 5.0, "points p90": 3.0, "memory": 200.0}


def child(game: str, deals: int, seed: int, points: bool) -> None:
    """Analyse `deals` deals of `game`; print one JSON line a deal: analysis and baseline."""
    import random

    from scorepad.analysis import analyse
    from scorepad.analysis.deals import played_at_random
    from scorepad.replay import replay, rules_for

    for number in range(deals):
        hand = played_at_random(random.Random(f"{seed}-{game}-{number}"), game)
        rules = rules_for(hand)
        start = time.perf_counter()
        assert replay(hand, rules).ok
        base = time.perf_counter() - start
        start, cpu = time.perf_counter(), time.process_time()
        analyse(hand, rules, points)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(json.dumps([took, base, cpu]), flush=True)


def measure(
    game: str, deals: int, seed: int, points: bool
) -> tuple[list[float], list[float], list[float], float]:
    """(seconds a deal, ratios to the baseline, CPU seconds a deal, peak MiB) of one game in a
    process of its own."""
    command = [
        sys.executable,
        __file__,
        "--child",
        game,
        "--deals",
        str(deals),
        "--seed",
        str(seed),
    ]
    process = subprocess.Popen(
        [*command, *(["--points"] if points else [])], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    rows = [json.loads(line) for line in process.stdout]
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    return (
        [t for t, _, _ in rows],
        [t / b for t, b, _ in rows],
        [c for _, _, c in rows],
        usage.ru_maxrss / 1024,
    )


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals a game (default 200)")
    parser.add_argument("--points-deals", type=int, default=0, help="deals a game with --points")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--points", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.deals, args.seed, args.points)
        return 0
    header = (
        f"{'game':<22}{'deals':>6}{'median':>9}{'p90':>9}{'worst':>9}"
        f"{'ratio':>9}{'p90':>9}{'cpu p90':>9}{'memory':>9}  target"
    )
    print(header)
    print("-" * len(header))
    missed = 0
    for points in (False, True):
        deals = args.points_deals if points else args.deals
        if not deals:
            continue
        for game in args.games.split(","):
            times, ratios, cpu, memory = measure(game, deals, args.seed, points)
            p90, worst = percentile(times, 0.9), max(times)
            if points:
                ok = p90 <= TARGETS["points p90"] and memory < TARGETS["memory"]
                target = f"p90 <= {TARGETS['points p90']} s, < {TARGETS['memory']:.0f} MiB"
            else:
                ok = (
                    p90 <= TARGETS["p90"]
                    and worst <= TARGETS["worst"]
                    and memory < TARGETS["memory"]
                )
                target = (
                    f"p90 <= {TARGETS['p90']} s, worst <= {TARGETS['worst']} s, "
                    f"< {TARGETS['memory']:.0f} MiB"
                )
            missed += not ok
            name = game + (" --points" if points else "")
            print(
                f"{name:<22}{deals:>6}{statistics.median(times):>8.2f}s{p90:>8.2f}s"
                f"{worst:>8.2f}s{statistics.median(ratios):>8.0f}x{percentile(ratios, 0.9):>8.0f}x"
                f"{percentile(cpu, 0.9):>8.2f}s"
                f"{memory:>6.0f}MiB  {target}: {'ok' if ok else 'MISSED'}",
                flush=True,
            )
    print(
        f"wall seconds a deal; ratio: the analysis against replay's rules check of the same "
        f"deal (median, 90th percentile); cpu: the analysis's CPU seconds (what a quiet machine "
        f"would take); seed {args.seed}; python "
        f"{'.'.join(map(str, sys.version_info[:3]))}; {os.cpu_count()} cores"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
