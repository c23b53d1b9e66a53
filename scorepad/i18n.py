"""The language scorepad speaks: English (the messages as written) or a translation of them.

English is the message id: every message is written in English in the code, marked with
`gettext` (imported as `_`), and a translation is a gettext catalog,
`scorepad/locale/LANG/LC_MESSAGES/scorepad.mo` (compiled from its `.po` source by
`scripts/messages.py`), read by the standard library's `gettext`. In English no catalog is
loaded at all; in another language its one catalog is loaded the first time a message is
asked for (click's own messages are in it too: see `cli._language.click_speaks`).

The language is chosen once per process by the interface (`choose`, then `use`): `--lang`,
else `$SCOREPAD_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English. It is
stored nowhere. What machines read (CSV, JSON, the session file, setting and option names) is
never translated; numbers and money in text are written as the language writes them (`money`,
`decimal_text`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from gettext import NullTranslations, translation
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decimal import Decimal

LANGUAGES = ("en", "de")
"""The languages scorepad speaks (English first: the messages as written)."""

DOMAIN = "scorepad"
LOCALE_DIR = Path(__file__).parent / "locale"

_LANGUAGE = ["en"]

_CATALOGS: dict[str, NullTranslations] = {"en": NullTranslations()}
"""Each language's catalog, once loaded (English has none: its messages are themselves)."""


def choose(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: `option` (`--lang`), else `$SCOREPAD_LANG`, else the locale's
    (`LC_ALL`, `LC_MESSAGES`, `LANG`, as POSIX orders them), else English. A language scorepad
    does not speak is passed over (`de_AT.UTF-8` is German; `fr_FR` falls through)."""
    env = os.environ if environ is None else environ
    for value in (option, env.get("SCOREPAD_LANG")):
        found = _language_of(value)
        if found:
            return found
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:  # the first one set decides, as POSIX has it (C and POSIX are English)
            return _language_of(value) or "en"
    return "en"


def _language_of(value: str | None) -> str | None:
    """The language a value names (`de`, `de_DE.UTF-8`, `de-AT`), if scorepad speaks it."""
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def use(language: str) -> None:
    """Speak `language` in this process from now on (an interface calls it as it starts)."""
    if language not in LANGUAGES:
        raise ValueError(f"scorepad does not speak {language!r}")
    _LANGUAGE[0] = language


def language() -> str:
    """The language in force (`en`, `de`)."""
    return _LANGUAGE[0]


def catalog(language_code: str | None = None) -> NullTranslations:
    """The catalog of a language (of the one in force): the standard library's gettext
    translations of its compiled `.mo`, loaded on first use."""
    code = language_code or _LANGUAGE[0]
    found = _CATALOGS.get(code)
    if found is None:
        found = _CATALOGS[code] = translation(DOMAIN, LOCALE_DIR, languages=[code])
    return found


def loaded() -> tuple[str, ...]:
    """The languages whose catalog this process has loaded (English has none to load)."""
    return tuple(code for code in _CATALOGS if code != "en")


def gettext(message: str) -> str:
    """`message` in the language in force (imported as `_`; English: the message itself)."""
    if _LANGUAGE[0] == "en" or not message:  # ("" is the catalog's header)
        return message
    return catalog().gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or the plural of a message for `count`, in the language in force."""
    english = singular if count == 1 else plural
    if _LANGUAGE[0] == "en":
        return english
    found = catalog().ngettext(singular, plural, count)
    # (a form may be in the catalog as a message of its own: declared as a pair of `N_`)
    return catalog().gettext(english) if found == english else found


@contextmanager
def english() -> Iterator[None]:
    """Speak English within the block: what a program reads (JSON, CSV) is never translated."""
    saved = _LANGUAGE[0]
    _LANGUAGE[0] = "en"
    try:
        yield
    finally:
        _LANGUAGE[0] = saved


_SPEAKING_LOCK: list[Any] = []


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Speak `language` within the block, one such block at a time in the process: the live
    board's threads each word a reader's text (in its page's language) in one, for the
    language in force is the process's."""
    if not _SPEAKING_LOCK:
        import threading

        _SPEAKING_LOCK.append(threading.RLock())
    with _SPEAKING_LOCK[0]:
        saved = _LANGUAGE[0]
        _LANGUAGE[0] = language
        try:
            yield
        finally:
            _LANGUAGE[0] = saved


def joined(names: Iterable[str]) -> str:
    """Names one after the other: `Ann and Bob` (`Ann und Bob`)."""
    return gettext(" and ").join(names)


def game_word(name: str | None) -> str:
    """A Schafkopf game's name as the language says it (`partner` is a Sauspiel in German);
    its name as written (`--game`, files, JSON) in English."""
    if not name:
        return ""
    if _LANGUAGE[0] == "en":
        return name
    return catalog().pgettext("game", name)


def N_(message: str) -> str:
    """Mark a message for translation where it is declared; it is translated where it is shown."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message and its plural for translation where they are declared."""
    return singular, plural


def german() -> bool:
    """Whether the language in force writes numbers with a decimal comma."""
    return _LANGUAGE[0] == "de"


def decimal_text(text: str) -> str:
    """A number written with a point (`54.5`, `1,234.50`) as the language writes it
    (`54,5`, `1.234,50` in German)."""
    if not german():
        return text
    return text.replace(",", "\0").replace(".", ",").replace("\0", ".")


def percent_text(value: float) -> str:
    """A share as a percentage, whole: `15%` (`15 %` in German)."""
    text = f"{value:.0%}"
    return text.replace("%", " %") if german() else text


def money(amount: Decimal, currency: str = "$") -> str:
    """An amount as the language writes it, to the cent: `$1.50`, `-$0.20` in English;
    `1,50 €`, `-0,20 €` in German, the symbol after the amount."""
    sign = "-" if amount < 0 else ""
    if german():
        return f"{sign}{decimal_text(f'{abs(amount):,.2f}')} {currency}"
    return f"{sign}{_before(currency)}{abs(amount):,.2f}"


def _before(currency: str) -> str:
    """A currency as it stands before an amount in English: a symbol as it is ($1.50), a code
    of letters with a space (EUR 1.50)."""
    return f"{currency} " if currency[-1:].isalpha() else currency


def rate_money(shown: str, currency: str = "$") -> str:
    """A rate as given (`0.25`, `0.001`: never rounded) with its currency, as `money` places it."""
    if german():
        return f"{decimal_text(shown)} {currency}"
    return f"{_before(currency)}{shown}"


def amount_typed(text: str) -> str:
    """An amount as typed, read as the language writes it: in German `0,10` is `0.10` (a point
    is taken too, as people type it on a phone)."""
    if german() and "," in text and "." not in text:
        return text.replace(",", ".")
    return text
