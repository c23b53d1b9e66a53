"""The called suit (`called`): what the picker called for a partner, as a table notes it down.

In Sheepshead the called ace's suit (`clubs`, `spades`, `hearts`), `ten-SUIT` for a ten called
by a picker who holds all three fail aces, or `unknown` for an unknown-card call (the picker
holds no card of the called suit and plays one face down in its place). In Schafkopf the called
Sau of a partner game (a Sauspiel): `eichel`, `gras` or `schellen` (`acorns`, `leaves`, `bells`,
or the English suits `clubs`, `spades`, `diamonds`, are read as them).

Optional: a hand without it scores as before. Where it is given it is checked against the table
(a deal whose partner is found by a called ace, a partner game) and kept as written here.
"""

from ..errors import HandError
from ..i18n import N_, game_word
from ..i18n import gettext as _
from ..rules import Rules
from .records import PickerHand
from .seating import Seating

SHEEPSHEAD_CALLS = ("clubs", "spades", "hearts", "ten-clubs", "ten-spades", "ten-hearts", "unknown")
"""What a Sheepshead hand's `called` holds."""
SCHAFKOPF_CALLS = ("eichel", "gras", "schellen")
"""What a Schafkopf hand's `called` holds: the suit of the called Sau."""
_SHEEPSHEAD_READ = {
    **{c: c for c in SHEEPSHEAD_CALLS},
    "club": "clubs",
    "spade": "spades",
    "heart": "hearts",
    **{f"10-{s}": f"ten-{s}" for s in ("clubs", "spades", "hearts")},
}
_SCHAFKOPF_READ = {
    **{c: c for c in SCHAFKOPF_CALLS},
    "acorns": "eichel",
    "acorn": "eichel",
    "eicheln": "eichel",
    "clubs": "eichel",
    "leaves": "gras",
    "blatt": "gras",
    "laub": "gras",
    "grün": "gras",
    "spades": "gras",
    "bells": "schellen",
    "schelln": "schellen",
    "diamonds": "schellen",
}
WORDS = tuple(dict.fromkeys((*SHEEPSHEAD_CALLS, *SCHAFKOPF_CALLS, "acorns", "leaves", "bells")))
"""The words `--called` offers (its completion): each family's, and Schafkopf's in English."""

# What was called, as a sheet notes it (`marks`) and as `stats` names it: German names the
# cards as a Bavarian table does (`ruft die Gras-Sau`, the ace of clubs an Eichel-Sau).
_CALLED = {
    "clubs": (N_("called the ace of clubs"), N_("ace of clubs")),
    "spades": (N_("called the ace of spades"), N_("ace of spades")),
    "hearts": (N_("called the ace of hearts"), N_("ace of hearts")),
    "ten-clubs": (N_("called the ten of clubs"), N_("ten of clubs")),
    "ten-spades": (N_("called the ten of spades"), N_("ten of spades")),
    "ten-hearts": (N_("called the ten of hearts"), N_("ten of hearts")),
    "unknown": (N_("called with an unknown card"), N_("unknown card")),
    "eichel": (N_("called the Eichel-Sau"), N_("Eichel-Sau")),
    "gras": (N_("called the Gras-Sau"), N_("Gras-Sau")),
    "schellen": (N_("called the Schellen-Sau"), N_("Schellen-Sau")),
}


def calls_of(rules: Rules) -> tuple[str, ...]:
    """The values a hand's `called` takes under `rules`."""
    return SCHAFKOPF_CALLS if rules.is_schafkopf else SHEEPSHEAD_CALLS


def spelled(rules: Rules, hand: PickerHand) -> PickerHand:
    """The hand with its `called` as this table writes it (`acorns` is `eichel` at a
    Schafkopf table; any case; `none`, nothing noted: what `amend --called none` clears it
    with); a word the table does not read is left for `check_called`."""
    if hand.called is None:
        return hand
    text = hand.called.strip().lower()
    if text == "none":
        return hand._replace(called=None)
    read = _SCHAFKOPF_READ if rules.is_schafkopf else _SHEEPSHEAD_READ
    return hand._replace(called=read.get(text, hand.called))


def check_called(rules: Rules, hand: PickerHand, seating: Seating) -> None:
    """A HandError for a `called` this hand cannot have: a word the table does not write, a
    call where the partner is found otherwise (a jack of diamonds, a game without a partner),
    or a call by a picker who went alone."""
    called = hand.called
    if called is None:
        return
    if rules.is_schafkopf:
        _check_schafkopf(hand, called)
        return
    if called not in SHEEPSHEAD_CALLS:
        raise HandError(
            _(
                "⟨called⟩ {called}: write the called ace's suit (clubs, spades, hearts), "
                "ten-SUIT for a called ten, or unknown for an unknown-card call"
            ).format(called=called)
        )
    if seating.deal.call != "ace" or not seating.deal.partners:
        message = (
            _(
                "⟨called⟩ {called}: a {size}-handed hand under {name} rules finds the partner "
                "by the jack of diamonds, not by a called ace"
            )
            if seating.deal.call == "jack-of-diamonds" and seating.deal.partners
            else _(
                "⟨called⟩ {called}: a {size}-handed picker under {name} rules plays alone and "
                "calls no ace"
            )
        )
        raise HandError(message.format(called=called, size=seating.size, name=rules.name))
    if hand.alone:
        raise HandError(
            _("⟨called⟩ {called} with ⟨alone⟩: a picker who goes alone calls no ace").format(
                called=called
            )
        )


def _check_schafkopf(hand: PickerHand, called: str) -> None:
    if called not in SCHAFKOPF_CALLS:
        if called.strip().lower() in ("herz", "hearts", "heart", "rot"):
            raise HandError(
                _(
                    "⟨called⟩ {called}: hearts are trump in a Sauspiel, the Herz-Sau cannot be "
                    "called; call eichel, gras or schellen"
                ).format(called=called)
            )
        raise HandError(
            _(
                "⟨called⟩ {called}: a Sauspiel calls the Sau of eichel, gras or schellen "
                "(acorns, leaves, bells)"
            ).format(called=called)
        )
    game = hand.game or "partner"
    if game != "partner":
        raise HandError(
            _("⟨called⟩ {called}: a {game} calls no Sau (only a Sauspiel does)").format(
                called=called, game=game_word(game)
            )
        )


def called_words(called: str) -> str:
    """A call in a few words, as a sheet notes it: `called the ace of clubs`, `called the
    Gras-Sau` (`ruft die Gras-Sau` in German)."""
    words = _CALLED.get(called)
    return _(words[0]) if words else called  # (a value no table writes: as it is)


def called_name(called: str) -> str:
    """What was called, named (`ace of clubs`, `Gras-Sau`), as `stats` lists the calls."""
    words = _CALLED.get(called)
    return _(words[1]) if words else called


ORDER = tuple(_CALLED)
"""The calls in the order reports list them."""
