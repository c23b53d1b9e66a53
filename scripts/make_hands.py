"""Write the Bavarian sample hands in sample_sessions/hands/ (seeded: the same every time).

    python scripts/make_hands.py [FOLDER]      (default: sample_sessions/hands/)

Each is a hand dealt and played legally by `scorepad.simulate`, one per Bavarian game, for
`scorepad replay` (and the tests that replay them).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from scorepad.cards import Rank
from scorepad.rules import load_rules
from scorepad.simulate import random_hand

OUT = Path(__file__).resolve().parent.parent / "sample_sessions" / "hands"
PLAYERS = ("Anni", "Bertl", "Sepp", "Vroni")


class _SieDeal(random.Random):
    """Shuffles so that the first player is dealt every Ober and Unter (a sie)."""

    def shuffle(self, x):  # type: ignore[override]
        super().shuffle(x)
        x.sort(key=lambda card: card.rank not in (Rank.QUEEN, Rank.JACK))


HANDS = {
    # file: (game, seed, what it shows)
    "bavarian-hochzeit.txt": (
        "hochzeit",
        1,
        "a hochzeit taken by Bertl (the hands after the exchange)",
    ),
    "bavarian-bettel.txt": ("bettel", 1, "a bettel won: Anni takes no trick"),
    "bavarian-farbwenz.txt": ("farbwenz", 1, "a farbwenz: the unters, then the declared suit"),
    "bavarian-farbgeier.txt": ("farbgeier", 50, "a farbgeier: the obers, then the declared suit"),
    "bavarian-ramsch.txt": ("ramsch", 1, "a Ramsch: the most card points loses, a jungfrau"),
    "bavarian-sie.txt": ("sie", 3, "a sie: all four obers and all four unters"),
}


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.mkdir(parents=True, exist_ok=True)
    rules = load_rules("bavarian")
    for name, (game, seed, what) in HANDS.items():
        rng = _SieDeal(seed) if game == "sie" else random.Random(seed)
        text = random_hand(rng, rules, PLAYERS, game=game)
        if game == "sie":  # the sie is the first player's
            text = text.replace(
                next(line for line in text.splitlines() if line.startswith("picker:")),
                f"picker: {PLAYERS[0]}",
            )
        body = text.split("\n", 1)[1]  # (the simulator's own comment line goes)
        (out / name).write_text(f"# {what} (bavarian rules)\n" + body, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
