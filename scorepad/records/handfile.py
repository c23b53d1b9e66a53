"""A recorded game written as a hand file (the format `scorepad replay` reads, `replay.py`):
the rules and the record's tariff (`set:`), the players and the dealer, each hand, the game, the
declarer and the call, the knocks and the Stoss as recorded, and every trick."""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import gettext as _
from ..replay import KEYS
from . import Record, RecordedGame, RecordError


def hand_file(
    record: Record,
    game: RecordedGame,
    rules: str,
    settings: Sequence[str],
    source: str,
) -> tuple[str, dict[int, int]]:
    """The hand file of a recorded game, and for each of its lines the record's line it comes
    from (to say where in the record a problem the replay finds is)."""
    assert not game.skipped
    out: list[str] = []
    where: dict[int, int] = {}

    def add(text: str, line: int = game.line) -> None:
        out.append(text)
        where[len(out)] = line

    add(f"# {source}, game {game.number} (line {game.line}): {game.said}")
    add(f"rules: {rules}")
    for setting in settings:
        add(f"set: {setting}")
    add(f"players: {_names(record.players, game.line)}")
    add(f"dealer: {game.dealer}")
    width = max(len(_key(p)) for p in record.players)
    for player in record.players:
        cards = " ".join(str(c) for c in game.hands[player])
        add(f"{_key(player) + ':':<{width + 1}} {cards}")
    if game.game != "partner":
        add(f"game: {game.game}")
    if game.declarer is not None:
        add(f"picker: {game.declarer}")
    if game.call is not None:
        add(f"call: {game.call}")
    if game.result is not None and game.result.loser is not None:
        add(f"loser: {game.result.loser}", game.result.line)
    if game.knockers:
        add(f"knocks: {_names(game.knockers, game.line)}")
    elif game.knocks:
        add(f"knocks: {game.knocks}")
    if game.crack is not None:
        add(f"crack: {game.crack}")
        if game.recrack:
            add("recrack: yes")
    elif game.stoss:
        add(f"stoss: {game.stoss}")
    for trick in game.tricks:
        add("trick: " + " ".join(str(c) for c in trick.cards), trick.line)
    return "\n".join(out) + "\n", where


def _key(player: str) -> str:
    """How a player's cards are keyed: the name, or `hand NAME` for a name that is a key."""
    return f"hand {player}" if player.lower() in KEYS else player


def _names(names: Sequence[str], line: int) -> str:
    """Names as a hand file lists them (a name with a comma in double quotes)."""
    for name in names:
        if "#" in name or ":" in name:
            raise RecordError(
                line,
                _("player {name!r}: a hand file cannot hold a name with '#' or ':'").format(
                    name=name
                ),
            )
    return ", ".join(
        f'"{n.replace(chr(34), chr(34) * 2)}"' if "," in n or '"' in n else n for n in names
    )
