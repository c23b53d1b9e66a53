"""Write the nights in sample_sessions/ (seeded, so the files come out the same every time).

    python scripts/make_samples.py [FOLDER]      (default: sample_sessions/)

Each night is recorded through the same code as `scorepad hand`, with made-up but plausible
hands: card points around what pickers really take, tricks to match, now and then a leaster,
a crack, a schneider, a no-trick, a 60-60 loss, a correction.
"""

from __future__ import annotations

import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from scorepad.errors import ScorepadError
from scorepad.ledger import Ledger
from scorepad.rules import load_rules
from scorepad.scoring import (
    LeasterHand,
    Penalty,
    PickerHand,
    RamschHand,
    SchwanzerHand,
    seat,
)
from scorepad.store.format import Codec
from scorepad.store.lock import locked
from scorepad.store.snapshot import Snapshot
from scorepad.store.write import append, create, upgrade

OUT = Path(__file__).resolve().parent.parent / "sample_sessions"
CST = timezone(timedelta(hours=-6))


class Night:
    """Records hands into a new session file, with the clock moving a few minutes a hand."""

    def __init__(self, name, players, preset, overrides=(), seed=1, start="2026-11-06 19:05"):
        self.path = OUT / name
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            self.path.unlink()
        self.rules = load_rules(preset, overrides)
        self.players = players
        self.rng = random.Random(seed)
        self.clock = datetime.fromisoformat(start).replace(tzinfo=CST)
        self.head = create(
            self.path, players, self.rules, players[-1], self.clock.isoformat(timespec="seconds")
        )
        self.state = Ledger(self.rules, players, players[-1], codec=self.head.codec)

    def tick(self) -> str:
        self.clock += timedelta(minutes=self.rng.randint(3, 7), seconds=self.rng.randint(0, 59))
        return self.clock.isoformat(timespec="seconds")

    def write(self, row):
        if not self.head.codec.holds(row):  # a row of a later format: the file rewritten in it
            with locked(self.path) as fd:
                upgrade(self.path, fd, self.head, Codec.needs(row))
            with Snapshot(self.path) as snapshot:
                self.head = snapshot.read_head()[0]
        with locked(self.path) as fd:
            append(self.path, fd, self.head.codec, [row])

    def seating(self):
        return seat(self.rules, self.players, self.state.next_dealer)

    def picker_hand(self, points=None, tricks=None, alone=None, crack=False, note="", **extra):
        seating = self.seating()
        deal = seating.deal
        order = seating.order
        picker = extra.pop("picker", None) or self.rng.choice(order)
        others = [p for p in order if p != picker]
        if alone is None:
            alone = deal.partners == 0 or self.rng.random() < 0.08
        partners = () if alone else tuple(self.rng.sample(others, min(deal.partners, 1)))
        if deal.partners > 1 and not alone:
            partners = tuple(self.rng.sample(others, deal.partners))
        if extra.get("game", "partner") not in ("partner", "hochzeit"):  # one v three
            alone, partners = False, ()
        if points is None:
            points = max(0, min(120, round(self.rng.gauss(72, 19))))
        if tricks is None:
            tricks = self._tricks(points, deal)
        cracker = None
        if crack and self.rules.cracks:
            after = order[order.index(picker) + 1 :]
            eligible = [p for p in after if p not in partners]
            cracker = self.rng.choice(eligible) if eligible else None
        recrack = extra.pop("recrack", False) and cracker is not None
        hand = PickerHand(
            self.players,
            picker,
            points,
            partners=partners,
            alone=alone,
            tricks=tricks,
            crack=cracker,
            recrack=recrack,
            **extra,
        )
        row, _ = self.state.record(hand, note, self.tick())
        self.write(row)

    def _tricks(self, points, deal):
        if points == 120:
            return deal.cards if self.rng.random() < 0.7 else deal.cards - 1
        if points <= deal.blind * 11 and self.rng.random() < 0.5:
            return 0
        share = points / 120
        low = 1
        high = deal.cards - 1
        return max(low, min(high, round(share * deal.cards + self.rng.uniform(-0.7, 0.7))))

    def leaster(self, note=""):
        seating = self.seating()
        cards = seating.deal.cards
        order = list(seating.order)
        tricks = dict.fromkeys(order, 0)
        for _ in range(cards):
            tricks[self.rng.choice(order)] += 1
        takers = [p for p in order if tricks[p]]
        points = dict.fromkeys(order, 0)
        remaining = 120
        for p in takers[:-1]:
            share = self.rng.randint(0, remaining // 2)
            points[p] = share
            remaining -= share
        points[takers[-1]] += remaining
        hand = LeasterHand(self.players, leaster_points=points, leaster_tricks=tricks)
        try:
            row, _ = self.state.record(hand, note, self.tick())
        except ScorepadError:  # a tie for fewest: the table names the winner
            low = min(points[p] for p in takers)
            winner = self.rng.choice([p for p in takers if points[p] == low])
            hand = LeasterHand(
                self.players, winner=winner, leaster_points=points, leaster_tricks=tricks
            )
            row, _ = self.state.record(hand, note, self.tick())
        self.write(row)

    def schwanzer(self, note=""):
        """Everyone passed: deal out the 26 schwanzer points among the players."""
        order = self.seating().order
        points = dict.fromkeys(order, 0)
        for _ in range(self.rng.randint(14, 24)):
            points[self.rng.choice(order)] += 1
        hand = SchwanzerHand(self.players, schwanzer_points=points)
        self.write(self.state.record(hand, note, self.tick())[0])

    def ramsch(self, note="", knocks=0, durchmarsch=None):
        """Everyone passed: share out the 120 card points; whoever took none is a jungfrau."""
        order = list(self.seating().order)
        if durchmarsch:
            hand = RamschHand(self.players, durchmarsch=durchmarsch, knocks=knocks)
        else:
            takers = self.rng.sample(order, self.rng.choice([3, 4, 4]))
            cuts = sorted(self.rng.sample(range(5, 116), len(takers) - 1))
            shares = [b - a for a, b in zip([0, *cuts], [*cuts, 120])]
            points = dict.fromkeys(order, 0)
            points.update(zip(takers, shares))
            high = max(points.values())
            loser = next(p for p in order if points[p] == high)
            jungfrau = tuple(p for p in order if p not in takers)
            hand = RamschHand(
                self.players,
                ramsch_points=points,
                losers=(loser,),
                jungfrau=jungfrau,
                knocks=knocks,
            )
        self.write(self.state.record(hand, note, self.tick())[0])

    def penalty(self, offender, points, to=None, note=""):
        row, _ = self.state.penalty_row(Penalty((), offender, points, to), note, self.tick())
        self.write(row)

    def doubler(self, note=""):
        self.write(self.state.record_doubler(note=note, time=self.tick()))

    def pot(self, note=""):
        self.write(self.state.record_pot(note=note, time=self.tick())[0])

    def void(self, ref, reason):
        self.state.keep(ref)
        self.write(self.state.void_row(ref, reason, self.tick()))

    def amend(self, ref, note, **changes):
        self.write(self.state.amend_row(ref, changes, note, self.tick())[0])


def keep_all(night):
    for ref in range(1, 1000):
        night.state.keep(ref)


def standard_friday():
    night = Night("standard-friday.csv", ("Ann", "Bob", "Cy", "Dee", "Ed"), "standard", seed=7)
    keep_all(night)
    plan = ["p"] * 40
    special = {
        3: "leaster",
        7: "alone",
        10: "schneider",
        14: "notrick",
        17: "tie",
        21: "leaster",
        24: "crack",
        28: "alone",
        31: "lost-notrick",
        35: "leaster",
        38: "set-schneider",
    }
    for number, _ in enumerate(plan, 1):
        kind = special.get(number, "p")
        if kind == "leaster":
            night.leaster()
        elif kind == "alone":
            night.picker_hand(alone=True, points=night.rng.choice([66, 78, 93]))
        elif kind == "schneider":
            night.picker_hand(points=97, tricks=5)
        elif kind == "notrick":
            night.picker_hand(points=120, tricks=6, note="every trick")
        elif kind == "tie":
            night.picker_hand(points=60, tricks=3, note="60-60, so the picker's side loses")
        elif kind == "crack":
            night.picker_hand(points=55, crack=True)
        elif kind == "lost-notrick":
            night.picker_hand(points=7, tricks=0, note="bury only")
        elif kind == "set-schneider":
            night.picker_hand(points=24, tricks=1)
        else:
            night.picker_hand()
        if number == 12:
            night.amend(12, "Dee recounted: 58, not 64", points=58)
        if number == 26:
            night.void(26, "misdeal found after scoring")


def pagat_bump():
    night = Night(
        "pagat-bump-and-cracks.csv",
        ("Gus", "Hal", "Ida", "Jo", "Kat"),
        "pagat",
        seed=11,
        start="2026-11-13 19:30",
    )
    for number in range(1, 25):
        if number % 9 == 0:
            night.leaster()
        else:
            night.picker_hand(crack=number % 4 == 0, recrack=number % 8 == 0 and night.rules.cracks)


def six_dealer_sits_out():
    night = Night(
        "six-dealer-sits-out.csv",
        ("Lou", "Mo", "Ned", "Ola", "Pat", "Quin"),
        "standard",
        ["sit_out=dealer"],
        seed=5,
        start="2026-11-14 18:45",
    )
    for number in range(1, 19):
        if number % 7 == 0:
            night.leaster()
        else:
            night.picker_hand()


def three_handed():
    night = Night(
        "three-handed.csv", ("Rae", "Sid", "Tom"), "standard", seed=3, start="2026-11-17 20:00"
    )
    for number in range(1, 16):
        if number % 6 == 0:
            night.leaster()
        else:
            night.picker_hand(alone=True)


def first_night_race():
    night = Night(
        "first-night-race.csv",
        ("Uma", "Vic", "Wes", "Xan", "Yul"),
        "first-night",
        seed=2,
        start="2026-11-20 19:00",
    )
    while not night.state.race_winners:
        night.picker_hand(alone=False)


def schafkopf_evening():
    night = Night(
        "schafkopf-evening.csv",
        ("Anni", "Bertl", "Sepp", "Vroni"),
        "schafkopf",
        seed=9,
        start="2026-11-21 19:15",
    )
    games = ["partner"] * 6 + ["solo", "wenz", "geier", "solo-tout"]
    for number in range(1, 21):
        game = night.rng.choice(games)
        runs = night.rng.choice([0, 0, 1, 2, 3, 4])
        if game == "partner":
            night.picker_hand(game="partner", alone=False, runs=runs, crack=number % 7 == 0)
        elif game.endswith("tout"):
            won = night.rng.random() < 0.6
            night.picker_hand(
                game=game, points=120 if won else 98, tricks=8 if won else 7, runs=runs
            )
        else:
            night.picker_hand(game=game, runs=runs, crack=number % 5 == 0)


def bavarian_evening():
    """Bavarian Schafkopf at 10/50 ct: Sauspiele, solos, a wenz-tout, a bettel, a hochzeit, a
    farbwenz, Ramsch with a jungfrau, knocks and Stoss."""
    night = Night(
        "bavarian-evening.csv",
        ("Anni", "Bertl", "Sepp", "Vroni"),
        "bavarian",
        seed=31,
        start="2026-11-27 19:30",
    )
    plan = {
        3: "ramsch",
        5: "solo",
        6: "bettel",
        8: "hochzeit",
        10: "wenz-tout",
        11: "ramsch-knock",
        13: "farbwenz",
        15: "solo",
        17: "bettel-lost",
        18: "ramsch",
    }
    for number in range(1, 21):
        what = plan.get(number, "partner")
        knocks = 1 if number in (4, 13) else 0
        if what.startswith("ramsch"):
            night.ramsch(knocks=1 if what == "ramsch-knock" else 0)
        elif what.startswith("bettel"):
            tricks = 1 if what == "bettel-lost" else 0
            night.picker_hand(game="bettel", points=0, tricks=tricks, knocks=knocks)
        elif what == "wenz-tout":
            night.picker_hand(game="wenz-tout", points=120, tricks=8, runs=2, note="Wenz-Tout!")
        elif what == "hochzeit":
            night.picker_hand(game="hochzeit", alone=False, runs=0, knocks=knocks)
        elif what in ("solo", "farbwenz"):
            night.picker_hand(
                game=what, runs=night.rng.choice([0, 1, 3]), knocks=knocks, stoss=int(number == 15)
            )
        else:
            night.picker_hand(
                game="partner",
                alone=False,
                runs=night.rng.choice([0, 0, 1, 3, 4]),
                knocks=knocks,
                stoss=2 if number == 9 else 0,
            )


def league():
    """Three Fridays of one league: mostly the same players, one night under pagat rules."""
    nights = [
        ("2026-10-02", ("Ann", "Bob", "Cy", "Dee", "Ed"), "standard"),
        ("2026-10-09", ("Ann", "Bob", "Cy", "Flo", "Ed"), "pagat"),
        ("2026-10-16", ("Ann", "Bob", "Cy", "Dee", "Ed", "Flo"), "standard"),
    ]
    for number, (date, players, preset) in enumerate(nights):
        night = Night(
            f"league/{date}.csv", players, preset, seed=20 + number, start=f"{date} 19:00"
        )
        for hand in range(1, 21):
            if hand % 8 == 0:
                night.leaster()
            else:
                night.picker_hand(crack=hand % 5 == 0)


def house_rules():
    """A night of Sheepshead house rules: schwanzer when all pass, a 60-60 that doubles the
    next hand, a penalty, equal shares for the picker's side, and the last hand doubled."""
    night = Night(
        "house-rules.csv",
        ("Ann", "Bob", "Cy", "Dee", "Ed"),
        "pagat",
        (
            "all_pass=schwanzer",
            "sixty_sixty=loss-double-next",
            "partner_split=equal",
            "bump_on_no_trick=false",
            "last_hand_doubled=true",
        ),
        seed=23,
        start="2026-11-20 19:15",
    )
    for number in range(1, 17):
        if number in (4, 11):
            night.schwanzer()
        elif number == 7:
            night.picker_hand(points=60, tricks=3, note="60-60 on the nose")
        elif number == 9:
            night.penalty("Ed", 1, note="led out of turn")
        elif number == 13:
            night.picker_hand(points=0, tricks=0, alone=False)
        elif number == 16:
            night.picker_hand(last=True, note="last hand")
        else:
            night.picker_hand(crack=number % 5 == 0)


def pot_night():
    """Sheepshead with the pot (all_pass = pot, capped at 30): passed hands feed it, a lost hand
    doubles it, one stops at the cap, a won one takes it; an amendment that leaves the pot as it
    was; the night ends with something in it for `settle` to pay out."""
    night = Night(
        "pot-night.csv",
        ("Ann", "Bob", "Cy", "Dee", "Ed"),
        "standard",
        ("all_pass=pot", "pot_max=30"),
        seed=47,
        start="2026-11-27 19:10",
    )
    keep_all(night)
    plan = {
        3: "pot",
        4: "pot",
        5: ("lost", 44),
        6: "pot",
        7: ("lost", 38),
        8: ("won", 83),
        11: "pot",
        12: "pot",
        13: ("won", 95),
        16: "pot",
        17: "pot",
    }
    for number in range(1, 18):
        what = plan.get(number)
        if what == "pot":
            night.pot()
        elif what is not None:
            points = what[1]
            night.picker_hand(points=points, alone=False, crack=number == 7)
        else:
            night.picker_hand(crack=number % 5 == 0)
    night.amend(8, "recounted: 86", points=86)


def folder_nights():
    """Two nights kept as a folder each, every one a `scorepad.csv` (as a table keeps them)."""
    for number, date in enumerate(("2026-11-06", "2026-11-13")):
        night = Night(
            f"nights/{date}/scorepad.csv",
            ("Ann", "Bob", "Cy", "Dee", "Ed"),
            "standard",
            seed=40 + number,
            start=f"{date} 19:00",
        )
        for hand in range(1, 13):
            if hand % 6 == 0:
                night.leaster()
            else:
                night.picker_hand()


def main() -> int:
    global OUT
    if len(sys.argv) > 1:
        OUT = Path(sys.argv[1])
    OUT.mkdir(exist_ok=True)
    for make in (
        standard_friday,
        pagat_bump,
        six_dealer_sits_out,
        three_handed,
        first_night_race,
        schafkopf_evening,
        league,
        folder_nights,
        house_rules,
        bavarian_evening,
        pot_night,
    ):
        make()
    return 0


if __name__ == "__main__":
    sys.exit(main())
