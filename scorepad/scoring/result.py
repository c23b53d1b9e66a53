"""What scoring a hand gives: its outcome, each player's game points, and why."""

from collections.abc import Mapping
from enum import StrEnum
from typing import NamedTuple


class Outcome(StrEnum):
    """How a hand ended for the picker's side (or that it was a leaster)."""

    WIN = "win"
    LOSS = "loss"
    LEASTER = "leaster"
    TIE = "tie"  # a 60-60 hand that is not scored (sixty_sixty = doubler)
    SCHWANZER = "schwanzer"
    RAMSCH = "ramsch"
    PENALTY = "penalty"
    POT = "pot"  # everyone passed, and each player paid into the pot (all_pass = pot)
    MANUAL = "manual"  # a hand the table scores itself (`--scores`)


class Score(NamedTuple):
    """The result of one hand: each active player's game points and the reasons, line by line."""

    outcome: Outcome
    stake: int  # the amount each defender pays or receives (leaster: the payout)
    deltas: Mapping[str, int]  # every active player, in seat order
    roles: Mapping[str, str]  # everyone at the table, in seat order
    explanation: tuple[str, ...]
    zero_sum: bool
    level: int | None = None
    winners: tuple[str, ...] = ()  # leaster winners
    schneider: bool = False  # the losing side was schneidered (level 2, or Schafkopf's bonus)
    no_trick: bool = False  # the losing side took no trick (level 3, or schwarz)
    sitting_out: tuple[str, ...] = ()  # at the table but not dealt in
    doubles_next: bool = False  # the next hand is doubled, as after a doubler (sixty_sixty)
    # the events of `bock_after` this hand is (a Bock round follows it), in the setting's order
    bock_next: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()  # a schwanzer's losers
    # why the stake is more than the hand's value: each doubling ("x2 double on the bump"), and
    # a cap (the explanation's Stake line says the same with its figures)
    doublings: tuple[str, ...] = ()
    runs: int = 0  # the runs (Laufende) that count in a Schafkopf game's value, as given
    # what the hand put into the pot (all_pass = pot): the antes when everyone passed, what a
    # lost hand paid in; negative: what a won hand took out of it (see `pot`)
    pot: int = 0

    @property
    def winners_of_hand(self) -> tuple[str, ...]:
        """Who won the hand: a leaster's winners, else the players it paid."""
        if self.outcome is Outcome.LEASTER:
            return self.winners
        return tuple(p for p, v in self.deltas.items() if v > 0)

    def to_dict(self) -> dict[str, object]:
        """The score as plain data (for JSON)."""
        return {
            "outcome": self.outcome,
            "level": self.level,
            "stake": self.stake,
            "zero_sum": self.zero_sum,
            "deltas": dict(self.deltas),
            "roles": dict(self.roles),
            "winners": list(self.winners_of_hand),
            "schneider": self.schneider,
            "no_trick": self.no_trick,
            "doubles_next": self.doubles_next,
            "bock_next": list(self.bock_next),
            "losers": list(self.losers),
            "explanation": list(self.explanation),
            **({"into_pot": self.pot} if self.pot else {}),
        }
