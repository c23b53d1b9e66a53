"""Wording shared by every kind of hand's explanation: counts, lists of names, and the
inputs named as the interface in force names them."""

from collections.abc import Sequence

from ..errors import worded
from ..i18n import N_, ngettext
from ..i18n import gettext as _


def explanation(lines: list[str]) -> tuple[str, ...]:
    """An explanation as the interface in force words the inputs it names (`errors.worded`)."""
    return tuple(worded(line) for line in lines)


_PLURALS = {
    "card point": (N_("{n} card point"), N_("{n} card points")),
    "card": (N_("{n} card"), N_("{n} cards")),
    "partner": (N_("{n} partner"), N_("{n} partners")),
    "player": (N_("{n} player"), N_("{n} players")),
    "run": (N_("{n} run"), N_("{n} runs")),
    "trick": (N_("{n} trick"), N_("{n} tricks")),
    "defender": (N_("{n} defender"), N_("{n} defenders")),
    "opponent": (N_("{n} opponent"), N_("{n} opponents")),
}


def plural(n: int, word: str) -> str:
    """`1 trick`, `2 tricks`: a count and its word, as the language in force says it."""
    forms = _PLURALS.get(word)
    if forms is None:
        return f"{n} {word}" if n == 1 else f"{n} {word}s"
    return ngettext(forms[0], forms[1], n).format(n=n)


def listed(names: Sequence[str]) -> str:
    """Names in a list (`Ann, Bob`), or `nobody`."""
    return ", ".join(names) if names else _("nobody")
