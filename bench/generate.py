"""Write valid session files of any length, seeded, for the benchmarks.

    python bench/generate.py HANDS [FILE [SEED]]

Standard rules with six people at a five-handed table (the dealer sits out), and every kind of
hand: picker and partner, alone, cracked, schneider, no-trick, leasters, and corrections (an
undo now and then, an amended hand). Every row is made by the same code as `scorepad hand`, so
the file passes `scorepad verify`.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from pathlib import Path

from scorepad.ledger import Ledger
from scorepad.rules import load_rules
from scorepad.scoring import LeasterHand, PickerHand, possible_points, seat
from scorepad.store.base import NEWLINE
from scorepad.store.write import create

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Ed", "Flo")
TIME = "2026-11-06T19:00:00-06:00"


def generate(hands: int, path: Path, seed: int = 1) -> Path:
    """Write a session of `hands` recorded hands to `path` (replacing it)."""
    rng = random.Random(seed)
    rules = load_rules("standard", ["sit_out=dealer"])
    if path.exists():
        path.unlink()
    codec = create(path, PLAYERS, rules, PLAYERS[-1], TIME).codec
    state = Ledger(rules, PLAYERS, PLAYERS[-1], codec=codec)
    with open(path, "a", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator=NEWLINE)
        recorded = 0
        while recorded < hands:
            number = state.last_hand + 1
            correct = rng.random() < 0.02
            if correct:
                state.keep(number)
            row, _ = state.record(_random_hand(rng, rules, state), "", TIME)
            writer.writerow(codec.encode(row))
            recorded += 1
            if correct and rng.random() < 0.5:
                writer.writerow(codec.encode(state.void_row(number, "undo", TIME)))
            elif correct:
                # (points the bury alone could hold, or all 120, would need the tricks counted)
                recorded_row = state.kept[number].row
                changes = {
                    "points": rng.choice([p for p in range(23, 119) if p != recorded_row.points]),
                    "tricks": None,
                }
                if recorded_row.picker is None:
                    others = [
                        p
                        for p in state.kept[number].deltas
                        if p not in recorded_row.out and p != recorded_row.winner
                    ]
                    changes = {"winner": rng.choice(others)}
                writer.writerow(codec.encode(state.amend_row(number, changes, "recount", TIME)[0]))
    return path


def _random_hand(rng: random.Random, rules, state) -> PickerHand | LeasterHand:
    seating = seat(rules, state.seated, state.next_dealer)
    order = seating.order
    if rng.random() < 0.1:
        return LeasterHand(state.seated, winner=rng.choice(order))
    picker = rng.choice(order)
    others = [p for p in order if p != picker]
    alone = rng.random() < 0.08
    partners = () if alone else (rng.choice(others),)
    points = max(0, min(120, round(rng.gauss(72, 20))))
    tricks = None  # (counted where the points leave the level open, as scorepad asks)
    if points == 120:
        tricks = 6 if rng.random() < 0.6 else 5
    elif points <= 22:
        tricks = 0 if rng.random() < 0.5 else 1
    points = _possible(points, tricks, len(order), seating.deal.blind)
    after = [p for p in order[order.index(picker) + 1 :] if p not in partners]
    crack = rng.choice(after) if after and rng.random() < 0.03 else None
    return PickerHand(
        state.seated, picker, points, partners=partners, alone=alone, tricks=tricks, crack=crack
    )


def _possible(points: int, tricks: int | None, players: int, blind: int) -> int:
    """The card points nearest to `points` that the picker's side's cards can hold (each side
    a trick at least when its tricks are not given), as `points_check = "cards"` asks."""
    counts = [tricks] if tricks is not None else range(1, 6)
    held = set().union(*(possible_points(32, t * players + blind) for t in counts))
    return min(held, key=lambda p: (abs(p - points), p))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("hands", type=int, help="how many hands")
    parser.add_argument("file", nargs="?", type=Path, help="default: bench/data/session-HANDS.csv")
    parser.add_argument("seed", nargs="?", type=int, default=1, help="default: 1")
    arguments = parser.parse_args()
    hands, seed = arguments.hands, arguments.seed
    path = arguments.file or Path(f"bench/data/session-{hands}.csv")
    path.parent.mkdir(parents=True, exist_ok=True)
    generate(hands, path, seed)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
