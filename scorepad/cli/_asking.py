"""Asking at the table: a question in the terminal until its answer reads, and the readings of
answers (a name, some names, yes or no, a whole number) that `play` asks with."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

import click

from ..errors import ScorepadError
from ..i18n import N_
from ..i18n import gettext as _


class Stop(Exception):
    """The table is done: an empty answer where a hand would start, or Ctrl-D."""


HELP = N_("""\
  Answer each question and press Enter; a wrong answer is explained and asked again.
  Name a player by name (case and accents do not matter: jurgen is Jürgen), by the first
  letters no one else's name starts with (J), or by seat number (1 is the first seat); Tab
  completes a name. Nothing is recorded until you say yes to "Record hand N?" (n, no or
  cancel records nothing).
  At "Who picked?" you may also answer:
    undo [REASON]     reverse the last change (a hand, a void, an amendment, a seat change)
    amend N OPTIONS   correct hand N with the options of `scorepad amend` (amend 3 --points 58)
    void N [REASON]   void hand N: its points are reversed
    join NAME         seat a player who joins (after the last seat)
    leave NAME        a player leaves, keeping their total
    penalty NAME N    NAME pays N to each other seated player ("penalty Ed 2 to Ann": to one)
    bock [N]          start a Bock round (N rounds) by the table's decision (`scorepad bock`)
    scores A=N,B=N    a hand the table scores itself: each player's game points as given
    ?                 this help
    Enter or Ctrl-D   stop, with the standings
  Ctrl-C stops at once: the hand being entered is not recorded.""")
"""What `?` shows (in German it names the German words of the changes: `GERMAN_CHANGES`)."""

# --- names: typed as the table says them, and completed -------------------------------------------


def folded(name: str) -> str:
    """A name as it is matched: case folded, accents dropped (jurgen for Jürgen)."""
    if name.isascii():
        return name.casefold()
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def find_name(text: str, among: Sequence[str], seats: Sequence[str] = ()) -> str:
    """The player of `among` that `text` names: the name itself (case and accents aside), the
    start of one name only, or a seat number (1 for the first of `seats`). A ScorepadError says
    why not (no such player, the start of two names, a seat of someone not asked for)."""
    from ..scoring import find_player

    text = text.strip()
    if text.isascii() and text.isdigit() and seats:
        number = int(text)
        if not 1 <= number <= len(seats):
            raise ScorepadError(
                _("seat {text}: the seats run from 1 to {len_seats}").format(
                    text=text, len_seats=len(seats)
                )
            )
        player = seats[number - 1]
        if player not in among:
            raise ScorepadError(
                _("seat {number} is {player}; name one of {among}").format(
                    number=number, player=player, among=", ".join(among)
                )
            )
        return player
    wanted = folded(text)
    same = [p for p in among if folded(p) == wanted]
    if len(same) == 1:
        return same[0]
    starting = [p for p in among if folded(p).startswith(wanted)] if wanted else []
    if len(starting) == 1:
        return starting[0]
    if len(starting) > 1:
        raise ScorepadError(
            _("{text}: the start of {starting} and {starting2}; give more").format(
                text=text, starting=", ".join(starting[:-1]), starting2=starting[-1]
            )
        )
    try:
        return find_player(text, among, "")  # (as written, or its error: unknown, did you mean)
    except ScorepadError:
        import difflib  # only on the way to an error

        # (typed at the table, a name is often in lower case: "anm" is Ann mistyped)
        close = difflib.get_close_matches(wanted, [folded(p) for p in among], n=1, cutoff=0.5)
        if not close:
            raise
        raise ScorepadError(
            _("{text}: unknown player (did you mean {close}?); players: {among}").format(
                text=text,
                close=next(p for p in among if folded(p) == close[0]),
                among=", ".join(among),
            )
        ) from None


_completions: list[str] = []  # what Tab offers for the question being asked


def complete(text: str, state: int) -> str | None:
    """readline's completer: the names (and words) of the question asked that start so."""
    matches = [c for c in _completions if folded(c).startswith(folded(text))]
    return matches[state] if state < len(matches) else None


def use_readline() -> None:
    """Tab completes names where readline is there (a terminal, not Windows' console)."""
    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:  # (Windows)
        return
    readline.set_completer(complete)
    readline.set_completer_delims(" ,")
    if "libedit" in (readline.__doc__ or ""):  # (macOS)
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")


def ask(
    question: str,
    check: Callable[[str], Any],
    default: str | None = None,
    complete: Sequence[str] = (),
) -> Any:
    """Ask until `check` accepts the answer (it returns the value or raises ScorepadError).

    An answer `check` refuses is explained on one line and asked again; `?` shows the help;
    Ctrl-D stops the loop; Ctrl-C is a KeyboardInterrupt (click words both as an Abort: the
    one it stands for is its context). Tab completes the words of `complete`."""
    _completions[:] = complete
    while True:
        try:
            answer = click.prompt(
                question,
                default=default if default is not None else "",
                show_default=default not in (None, ""),
            )
        except click.exceptions.Abort as exc:
            if isinstance(exc.__context__, KeyboardInterrupt):
                raise KeyboardInterrupt from None
            raise Stop from None
        if answer.strip() == "?":
            click.echo(_(HELP))
            continue
        try:
            return check(answer.strip())
        except ScorepadError as exc:
            click.echo(f"  {str(exc).strip()}", err=True)


def whole(
    low: int, high: int, blank: tuple[int | None] | None = None
) -> Callable[[str], int | None]:
    def check(text: str) -> int | None:
        if text == "" and blank is not None:
            return blank[0]
        digits = text[1:] if text[:1] == "-" else text
        if (
            not (digits.isascii() and digits.isdigit())  # (not `isdecimal`: any script's)
            or len(text) > 9
            or not low <= int(text) <= high
        ):
            raise ScorepadError(
                _("give a whole number from {low} to {high}").format(low=low, high=high)
            )
        return int(text)

    return check


def record_or_note(text: str) -> tuple[bool, str]:
    """Yes (Enter), no (n, no, cancel), or a note to record the hand with."""
    from ..store.format import check_note

    if text.lower() in ("", *YES, *NO, "cancel", "abbrechen"):
        return text.lower() in ("", *YES), ""
    return True, check_note(text)


def some_of(names: Sequence[str], seats: Sequence[str] = ()) -> Callable[[str], tuple[str, ...]]:
    def check(text: str) -> tuple[str, ...]:
        found = tuple(find_name(n, names, seats) for n in text.split(",") if n.strip())
        if not found:
            raise ScorepadError(_("name one or more of {names}").format(names=", ".join(names)))
        return found

    return check


YES = ("y", "yes", "j", "ja")
"""The answers that say yes (in English or German: a table may answer in either)."""
NO = ("n", "no", "nein")


def yes(text: str) -> bool:
    if text.lower() in YES:
        return True
    if text.lower() in ("", *NO):
        return False
    raise ScorepadError(_("answer y or n"))


def one_of(
    names: Sequence[str],
    extra: Sequence[str] = (),
    allow_blank: bool = False,
    seats: Sequence[str] = (),
) -> Callable[[str], str | None]:
    def check(text: str) -> str | None:
        if text == "" and allow_blank:
            return None
        if text.lower() in extra:
            return text.lower()
        return find_name(text, names, seats)

    return check
