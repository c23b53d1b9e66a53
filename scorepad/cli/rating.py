"""`scorepad rating`: each player's skill over many nights and tournaments (OpenSkill)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..i18n import decimal_text, ngettext
from ._common import CONTEXT_SETTINGS, WholeRange, session_files, table_format_option

if TYPE_CHECKING:
    from ..rating import PlayerRating


def ratings_of(files: Sequence[Path]) -> list[PlayerRating]:
    """Every player's rating over the files' hands."""
    from ..rating import ratings_over

    return ratings_over(files)


@click.command(context_settings=CONTEXT_SETTINGS)
@click.argument(
    "sources",
    nargs=-1,
    required=True,
    metavar="FILE...",
    type=click.Path(exists=True, path_type=Path),
)
@click.option(
    "--min-hands",
    type=WholeRange(0, 1_000_000),
    default=10,
    show_default=True,
    help="Players with fewer hands are listed apart, unranked.",
)
@table_format_option()
def rating(sources: tuple[Path, ...], min_hands: int, fmt: str) -> None:
    """Each player's skill over any number of nights or tournaments, past the luck of the cards.

    Every hand is a match of the picker's side against the defenders (in a leaster, a
    schwanzer or a Ramsch, everyone on their own, ranked by the hand's points), rated with
    OpenSkill's Plackett-Luce model in the order the hands were recorded, so the same files give
    the same ratings in any order. The rating is the conservative one, mu - 3 sigma. Give
    session files, folders of them, or a tournament's folder; every file is checked as it is
    read.

    Examples:

    \b
        scorepad rating sample_sessions/league/
        scorepad rating kirchweih/ friday-*.csv --min-hands 20 --format json
    """
    from ..rating import MODEL, rating_record, split
    from ..render import render, to_json

    files = session_files(sources)
    ranked, apart = split(ratings_of(files), min_hands)
    if fmt == "json":
        click.echo(
            to_json(
                {
                    "model": MODEL,
                    "min_hands": min_hands,
                    "files": [str(f) for f in files],
                    "ratings": [rating_record(r) for r in ranked],
                    "provisional": [rating_record(r) for r in apart],
                }
            )
        )
        return
    rows = [
        (i, r.player, *(decimal_text(f"{x:.2f}") for x in (r.rating, r.mu, r.sigma)), r.hands)
        for i, r in enumerate(ranked, 1)
    ]
    click.echo(
        render(
            ("#", "Player", "Rating", "Mu", "Sigma", "Hands"),
            rows,
            fmt,
            ("right", "left", "right", "right", "right", "right"),
        )
    )
    if fmt == "csv":
        return
    click.echo()
    if apart:
        listed = ", ".join(f"{r.player} ({r.hands})" for r in apart)
        click.echo(
            ngettext(
                "Under {min_hands} hand, not ranked: {listed}.",
                "Under {min_hands} hands, not ranked: {listed}.",
                min_hands,
            ).format(min_hands=min_hands, listed=listed)
        )
    click.echo(
        ngettext(
            "{len_files} file; {model}, rating = mu - 3 sigma.",
            "{len_files} files; {model}, rating = mu - 3 sigma.",
            len(files),
        ).format(len_files=len(files), model=MODEL)
    )
