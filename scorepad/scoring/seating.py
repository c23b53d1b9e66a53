"""Who plays a hand: the players at the table, the dealer, who sits out and the deal; and a
player found by name (case and Unicode form do not matter)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from ..errors import HandError
from ..i18n import gettext as _
from ..rules import Deal, Rules


class Seating(NamedTuple):
    """Who plays a hand: the active players in picking order and who sits out."""

    players: tuple[str, ...]  # everyone at the table, in seat order
    dealer: str
    order: tuple[str, ...]  # active players, dealer's left first
    sitting_out: tuple[str, ...]
    deal: Deal

    @property
    def size(self) -> int:
        """How many players are dealt in."""
        return len(self.order)


def same_name(name: str) -> str:
    """What two spellings of one name have in common: its NFC form, case folded."""
    if not name.isascii():
        import unicodedata

        name = unicodedata.normalize("NFC", name)
    return name.casefold()


def find_player(name: str, among: Sequence[str], option: str) -> str:
    """The player `name` refers to (case and Unicode form do not matter: a composed "Zoë" typed
    at the keyboard is the decomposed one in a file); unknown names suggest the closest."""
    if name in among:  # (as written: the common case, and the cheapest)
        return name
    wanted = same_name(name.strip())
    for player in among:
        if same_name(player) == wanted:
            return player
    import difflib  # only on the way to an error

    close = difflib.get_close_matches(name, list(among), n=1, cutoff=0.5)
    hint = _(" (did you mean {close}?)").format(close=close[0]) if close else ""
    raise HandError(
        _("{option} {name}: unknown player{hint}; players: {among}").format(
            option=option, name=name, hint=hint, among=", ".join(among)
        )
    )


def seat(
    rules: Rules, players: Sequence[str], dealer: str | None = None, out: Iterable[str] = ()
) -> Seating:
    """Work out who plays this hand and in which order, by the rules' deal table and sit_out."""
    players = tuple(players)
    if len(players) < 2:
        raise HandError(
            _(
                "⟨players⟩: name everyone at the table, in seat order, e.g. ⟨players⟩ "
                "Ann,Bob,Cy,Dee,Ed"
            )
        )
    seen: dict[str, str] = {}
    for name in players:
        if not name.strip():
            raise HandError(_("⟨players⟩: a player's name is empty"))
        key = same_name(name)
        if key in seen:
            raise HandError(_("⟨players⟩: {name} is listed twice").format(name=name))
        seen[key] = name
    dealer = find_player(dealer, players, "⟨dealer⟩") if dealer else players[-1]
    start = players.index(dealer) + 1
    rotation = players[start:] + players[:start]  # the dealer's left first, the dealer last
    sitting = {find_player(name, players, "⟨out⟩") for name in out}
    if rules.sit_out == "dealer" and len(players) - len(sitting) > rules.seats:
        sitting.add(dealer)
    order = tuple(p for p in rotation if p not in sitting)
    deal = rules.deal_for(len(order))
    if deal is None:
        counts = ", ".join(str(n) for n in sorted(rules.deals))
        why = _(" ({len_sitting} sitting out)").format(len_sitting=len(sitting)) if sitting else ""
        raise HandError(
            _(
                "{len_order} players in the hand{why}: {name} rules deal for {counts} players"
            ).format(len_order=len(order), why=why, name=rules.name, counts=counts)
        )
    return Seating(players, dealer, order, tuple(p for p in players if p in sitting), deal)


def active(seating: Seating, name: str, option: str) -> str:
    """The player `name` (given as `option`) refers to, who must be dealt in."""
    player = find_player(name, seating.players, option)
    if player in seating.sitting_out:
        raise HandError(
            _("{option} {player}: {player} sits out this hand").format(option=option, player=player)
        )
    return player


def in_seat_order(seating: Seating, values: Mapping[str, int]) -> dict[str, int]:
    """Each player's value, in seat order."""
    return {p: values[p] for p in seating.players if p in values}
