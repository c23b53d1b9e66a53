"""`scorepad analyze`: every card of a replayed hand, with every card open (the analysis is
`scorepad.analysis`; this reads the files, shows progress and prints)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..errors import ScorepadError
from ..i18n import gettext as _
from ._common import CONTEXT_SETTINGS

if TYPE_CHECKING:
    from ..analysis import HandAnalysis
    from ..replay import HandFile
    from ..rules import Rules


@click.command("analyze", context_settings=CONTEXT_SETTINGS)
@click.argument(
    "hand_files",
    nargs=-1,
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="HAND_FILE...",
)
@click.option("--all", "every", is_flag=True, help="Show every card, not only the mistakes.")
@click.option(
    "--points",
    is_flag=True,
    help=(
        "Add the exact card points each side could force (slower: several searches a card; "
        "a Ramsch always gives its points)."
    ),
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format.",
)
def analyze(hand_files: tuple[Path, ...], every: bool, points: bool, fmt: str) -> None:
    """Analyse every card of a hand with every card open: who gave the outcome away.

    Reads hand files as `replay` does (the hand must be played by the rules). For each card
    in the order played it finds the best outcome the declaring side (the picker or declarer
    and partners) could force, had everyone seen every hand, before the card and after it:
    a win or a loss, schneider, schwarz (a Bettel or a Tout: made or not). A card that makes
    that outcome worse for its player's side is a mistake; the cards that would have kept the
    outcome are named. A Ramsch is analysed each player for themself, against the other three
    together: a Durchmarsch, a Jungfrau, else the fewest card points he could make sure of
    (points are always given: --points makes no difference; a Ramsch takes minutes).

    Examples:

    \b
        scorepad analyze sample_sessions/hands/sauspiel-mistake.txt
        scorepad analyze hand.txt --all --points
        scorepad analyze hand.txt --format json
    """
    from .cards import read_hand_file

    # every file read first: one that cannot be read stops the command before any analysis
    hands = [(path, *read_hand_file(path)) for path in hand_files]
    try:
        found = [(path, _analysed(path, hand, rules, points), rules) for path, hand, rules in hands]
    except KeyboardInterrupt:
        _clear()
        click.echo(_("Stopped: the analysis was not finished."), err=True)
        raise SystemExit(130) from None
    _print(found, every, fmt)


def after_replay(
    path: Path, hand: HandFile, rules: Rules, fmt: str, recorded: int | None = None
) -> list[str] | dict[str, object] | None:
    """`replay --analyze`: the analysis of a replayed hand, as lines of text to print or (JSON)
    the object of one hand of `analyze --format json`; a hand it cannot analyse (a renege)
    gives a line saying why (in JSON: None). Ctrl-C stops with exit 130, saying so (and that
    the hand is recorded, as hand `recorded`, where it was)."""
    from ..analysis.words import as_data, as_lines

    try:
        found = _analysed(path, hand, rules, False)
    except KeyboardInterrupt:
        _clear()
        click.echo(_("Stopped: the analysis was not finished."), err=True)
        if recorded is not None:
            click.echo(_("Hand {hand} is recorded all the same.").format(hand=recorded), err=True)
        raise SystemExit(130) from None
    except ScorepadError as exc:
        if fmt == "json":
            return None
        reason = str(exc).removeprefix(f"{path}: ")
        return [_("Not analysed: {reason}").format(reason=reason)]
    if fmt == "json":
        return as_data(found, str(path))
    return as_lines(found, rules.is_schafkopf, rules.schneider_win, rules.schneider_loss, False)


def _analysed(path: Path, hand: HandFile, rules: Rules, points: bool) -> HandAnalysis:
    from ..analysis import analyse
    from ..replay import HandFileError

    started = time.monotonic()
    terminal = _on_a_terminal()

    def tick(done: int, total: int) -> None:
        if terminal and time.monotonic() - started > 1:
            width = 30
            filled = width * done // max(total, 1)
            bar = "#" * filled + "-" * (width - filled)
            click.echo(f"\r{path.name} [{bar}] {done}/{total}", nl=False, err=True)
            _PROGRESS[0] = True

    try:
        return analyse(hand, rules, points, tick)
    except HandFileError as exc:
        raise ScorepadError(f"{path}:{exc.line}: {exc.message}") from None
    except ScorepadError as exc:
        raise ScorepadError(f"{path}: {exc}") from None
    finally:
        _clear()


_PROGRESS = [False]


def _on_a_terminal() -> bool:
    """Whether stderr is a terminal (the progress bar is drawn only there)."""
    return sys.stderr.isatty()


def _clear() -> None:
    if _PROGRESS[0]:
        click.echo("\r\033[K", nl=False, err=True)
        _PROGRESS[0] = False


def _print(found: list[tuple[Path, HandAnalysis, Any]], every: bool, fmt: str) -> None:
    from ..analysis.words import as_data, as_lines

    if fmt == "json":
        from ..render import to_json

        click.echo(to_json({"hands": [as_data(a, str(path)) for path, a, _rules in found]}))
        return
    for index, (path, result, rules) in enumerate(found):
        if len(found) > 1:
            if index:
                click.echo()
            click.echo(f"{path}:")
        for line in as_lines(
            result, rules.is_schafkopf, rules.schneider_win, rules.schneider_loss, every
        ):
            click.echo(line)
