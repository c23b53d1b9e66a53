"""Replaying a whole hand from its cards: the deal, the bury, the call and every trick.

A hand file is plain text, one `key: value` per line (`#` starts a comment):

    rules: standard                  # a preset or a rules file (default: standard)
    players: Ann, Bob, Cy, Dee, Ed   # seat order; the first trick is led from the dealer's left
    dealer: Ed
    Ann: QC QS JD AH KH 7C           # each player's dealt cards ("hand NAME: ..." also works)
    ...
    blind: 10D 9S
    picker: Ann
    bury: 7C 9S
    call: AC                         # AC, AS or AH; "AS unknown 7C"; "10H"; "alone"; "JD"
    game: solo H                     # Schafkopf: partner (the default), solo SUIT, wenz, geier,
                                     #   hochzeit, bettel, farbwenz SUIT, farbgeier SUIT,
                                     #   sie SUIT, ramsch, or a tout (solo-tout SUIT, wenz-tout,
                                     #   geier-tout, farbwenz-tout SUIT, farbgeier-tout SUIT)
    loser: Bob                       # Ramsch: settles a tie for the most card points
    crack: Dee                       # optional: a crack (Stoss), and "recrack: yes"
    trick: QC 7D KD 9D 8D            # the cards in the order played, the leader's first

Three keys carry what a game record (`scorepad import`) knows besides the cards; each is
optional, and a hand file without them reads and digests as before:

    knocks: 2                        # Schafkopf: knocks (Klopfen, Legen), or who: "Ann, Bob"
    stoss: 1                         # Schafkopf: how many Stoss (Kontra, Re, ...) were given,
                                     #   where the record does not say who (else crack/recrack)
    set: game_values.partner=10      # a setting of the rules for this hand, as --set takes it
                                     #   (one a line; the record's own tariff)

`parse_hand_file` reads it (errors carry the line), `rules_for` loads its rules and settings,
`replay` checks the deal and every play and works the hand out. Pure: the command line reads
the file and prints.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from dataclasses import dataclass, field

from ..cards import Card
from ..errors import CardError, ScorepadError
from ..i18n import gettext as _
from ..rules import Rules, load_rules
from ..scoring import find_player, same_name
from ..text import unprintable, unprintable_problem

KEYS = (
    "rules",
    "players",
    "dealer",
    "blind",
    "picker",
    "bury",
    "call",
    "game",
    "crack",
    "recrack",
    "loser",
    "knocks",
    "stoss",
    "set",
    "trick",
    "hand",
)


class HandFileError(ScorepadError):
    """A hand file that cannot be read; carries the line."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line

    @property
    def message(self) -> str:
        return str(self)


@dataclass
class HandFile:
    """What a hand file says, as written (names and cards checked, nothing else yet)."""

    rules: str | None = None
    players: list[str] = field(default_factory=list)
    dealer: str | None = None
    hands: dict[str, list[Card]] = field(default_factory=dict)
    blind: list[Card] = field(default_factory=list)
    picker: str | None = None
    bury: list[Card] = field(default_factory=list)
    call: str = ""
    game: str = ""
    crack: str | None = None
    recrack: bool = False
    loser: str | None = None
    tricks: list[tuple[int, list[Card]]] = field(default_factory=list)  # (line, cards)
    lines: dict[str, int] = field(default_factory=dict)  # where each key was given
    knocks: int = 0
    knockers: list[str] = field(default_factory=list)  # (when the file names them)
    stoss: int = 0
    settings: list[tuple[int, str]] = field(default_factory=list)  # (line, KEY=VALUE)


def _cards(text: str, line: int) -> list[Card]:
    try:
        return [Card.parse(word) for word in re.split(r"[,\s]+", text.strip()) if word]
    except CardError as exc:
        raise HandFileError(line, str(exc)) from None


def parse_hand_file(text: str) -> HandFile:
    """Read a hand file's text; every problem names its line."""
    hand = HandFile()
    pending: list[tuple[int, str, str]] = []  # card lines keyed by a name, read after players
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            _read_line(hand, pending, number, line)
    if not hand.players:
        raise HandFileError(1, _("no 'players:' line: list the players in seat order"))
    for number, name, value in pending:
        try:
            player = find_player(name, hand.players, "")
        except ScorepadError:
            raise HandFileError(
                number,
                _("{name!r} is neither a key ({keys}) nor a player").format(
                    name=name, keys=", ".join(KEYS[:-1])
                ),
            ) from None
        if player in hand.hands:
            raise HandFileError(number, _("{player}'s cards are given twice").format(player=player))
        hand.hands[player] = _cards(value, number)
        hand.lines[f"hand {player}"] = number
    for key in ("dealer", "picker", "crack", "loser"):
        value = getattr(hand, key)
        if value:
            try:
                setattr(hand, key, find_player(value, hand.players, f"{key}:"))
            except ScorepadError as exc:
                raise HandFileError(hand.lines[key], str(exc).strip()) from None
    _check_knockers_and_stoss(hand)
    return hand


def _read_line(hand: HandFile, pending: list[tuple[int, str, str]], number: int, line: str) -> None:
    """Take in one line of a hand file (not blank, its comment cut off): a trick, a key's
    value, or a player's cards (kept in `pending` until the players are known)."""
    bad = unprintable(line)  # (its names and words are printed: no escape sequences)
    if bad is not None:
        raise HandFileError(number, unprintable_problem("this line", line, bad))
    key, sep, value = line.partition(":")
    key, value = key.strip(), value.strip()
    if not sep:
        raise HandFileError(
            number,
            _("write 'key: value', e.g. 'trick: QC 7D KD 9D 8D' (not {line!r})").format(line=line),
        )
    lowered = key.lower()
    if not value and lowered in KEYS and lowered != "hand":
        raise HandFileError(
            number,
            _("{key}: empty; give a value or leave the line out").format(key=lowered),
        )
    if lowered == "trick":
        hand.tricks.append((number, _cards(value, number)))
    elif lowered == "set":
        hand.settings.append((number, value))
    elif lowered.startswith("hand "):
        pending.append((number, key[5:].strip(), value))
    elif lowered not in KEYS:
        pending.append((number, key, value))
    elif lowered in hand.lines:
        raise HandFileError(
            number,
            _("{lowered} is given twice (first on line {lines})").format(
                lowered=lowered, lines=hand.lines[lowered]
            ),
        )
    else:
        hand.lines[lowered] = number
        _read_key(hand, lowered, value, number)


def _read_key(hand: HandFile, key: str, value: str, number: int) -> None:
    """Take in the value of one of the hand file's keys (`KEYS`)."""
    if key == "players":
        hand.players = [
            n.strip() for n in next(csv.reader([value], skipinitialspace=True)) if n.strip()
        ]
        if len({same_name(p) for p in hand.players}) != len(hand.players):
            raise HandFileError(number, _("players: a name is listed twice"))
    elif key in ("blind", "bury"):
        setattr(hand, key, _cards(value, number))
    elif key == "recrack":
        if value.lower() not in ("yes", "no", "true", "false", ""):
            raise HandFileError(number, _("recrack: write yes or no"))
        hand.recrack = value.lower() in ("yes", "true")
    elif key in ("knocks", "stoss"):
        _count(hand, key, value, number)
    else:
        setattr(hand, key, value)


def _count(hand: HandFile, key: str, value: str, line: int) -> None:
    """`knocks: 2` or `knocks: Ann, Bob` (names checked once the players are read);
    `stoss: 1`."""
    if value.isascii() and value.isdigit() and len(value) <= 2:
        setattr(hand, key, int(value))
    elif key == "knocks":
        hand.knockers = [n.strip() for n in next(csv.reader([value])) if n.strip()]
        hand.knocks = len(hand.knockers)
    else:
        raise HandFileError(
            line,
            _("stoss: write how many Stoss were given, e.g. 'stoss: 1' (not {value!r})").format(
                value=value
            ),
        )


def _check_knockers_and_stoss(hand: HandFile) -> None:
    """Who knocked is seated and knocked once; a count of Stoss is not given with the crack."""
    named: list[str] = []
    for name in hand.knockers:
        try:
            player = find_player(name, hand.players, "knocks:")
        except ScorepadError as exc:
            raise HandFileError(hand.lines["knocks"], str(exc).strip()) from None
        if player in named:
            raise HandFileError(
                hand.lines["knocks"],
                _("knocks: {player} is named twice (each player knocks once at most)").format(
                    player=player
                ),
            )
        named.append(player)
    hand.knockers = named
    if hand.stoss and (hand.crack or hand.recrack):
        raise HandFileError(
            hand.lines["stoss"],
            _("stoss: counts every Stoss; give it or crack:/recrack:, not both"),
        )


def rules_for(hand: HandFile) -> Rules:
    """The rules a hand file names (`rules:`, default standard) with its `set:` lines; a
    problem names the line it comes from."""
    settings = [text for _line, text in hand.settings]
    try:
        return load_rules(hand.rules, settings)
    except ScorepadError as exc:
        failed = exc
    try:
        load_rules(hand.rules)
    except ScorepadError as exc:
        raise HandFileError(hand.lines.get("rules", 1), str(exc)) from None
    for count, (line, _text) in enumerate(hand.settings, 1):  # (which line it was)
        try:
            load_rules(hand.rules, settings[:count])
        except ScorepadError as exc:
            raise HandFileError(line, str(exc)) from None
    raise HandFileError(hand.lines.get("rules", 1), str(failed))


def digest(hand: HandFile) -> str:
    """The digest of what a hand file says (kept with the row `replay --record` records, so
    the same hand is not recorded twice): its deal and play, as read (its comments, spacing,
    order of lines and spelling of names do not count), as SHA-256 in hexadecimal."""
    said: dict[str, object] = {
        "rules": hand.rules,
        "players": hand.players,
        "dealer": hand.dealer,
        "hands": {p: [str(c) for c in hand.hands.get(p, [])] for p in hand.players},
        "blind": [str(c) for c in hand.blind],
        "picker": hand.picker,
        "bury": [str(c) for c in hand.bury],
        "call": hand.call.lower(),
        "game": hand.game.lower(),
        "crack": hand.crack,
        "recrack": hand.recrack,
        "loser": hand.loser,
        "tricks": [[str(c) for c in cards] for _, cards in hand.tricks],
    }
    # (what the record keys add counts only where given: every digest made before stays)
    if hand.knocks:
        said["knocks"] = hand.knockers or hand.knocks
    if hand.stoss:
        said["stoss"] = hand.stoss
    if hand.settings:
        said["set"] = [text for _line, text in hand.settings]
    text = json.dumps(said, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- replaying ----------------------------------------------------------------------------------
