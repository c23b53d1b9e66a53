"""A sauspiel.de game page saved as HTML, read by the sections openschafkopf reads:

- the players: the elements with a `data-username` inside `.game-participants`, in seat order
  (the first leads the first trick, the last deals);
- the game: the `h1` beside `.title-supertext` ("Sauspiel auf die Alte von Anna", "Herz-Solo
  von Bert", "Wenz von Cilli"; "Zamgworfen": thrown in);
- the table of key figures (`th` and `td` of a row): "Tarif" ("P 10 / 20 / 50": runs, schneider
  and schwarz / a Sauspiel / a solo; "P 10 / 50" prices a Sauspiel as the extras; in euros
  "€ 0,10 / 0,50", read in cents), "Klopfer" and "Kontra und Retour" (the players' links);
- each hand: an element reading "Karten von:", whose grandparent holds the cards, in the
  participants' order;
- each trick: an element reading "Stich von" (and the winner's link), whose grandparent holds its
  four cards from the leader's, in the order played.

A card is an element of class `card-image`, its classes `card-image by g2 HO` (a suit E G H S,
then a rank 7 8 9 X U O K A: X is the ten; `highlight` may follow). The page states no running
totals: its tariff becomes the record's settings, and sauspiel.de's rules as openschafkopf
scores them (a Tout's value doubled, a jungfrau doubling the Ramsch, runs of a Wenz and a Geier
from 2, of any other game from 3).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

from ..cards import Card
from ..i18n import gettext as _
from ..text import unprintable, unprintable_problem
from . import Played, Record, RecordedGame, RecordError, card, check_deal
from .openschafkopf import described

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


@dataclass
class _Node:
    """An element of the page: its tag, attributes, children (elements and text) and line."""

    tag: str
    attrs: dict[str, str]
    line: int
    parent: _Node | None = None
    children: list[_Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def walk(self) -> Iterator[_Node]:
        for child in self.children:
            if isinstance(child, _Node):
                yield child
                yield from child.walk()

    def up(self, steps: int) -> _Node:
        node = self
        for _step in range(steps):
            if node.parent is None:
                raise RecordError(self.line, _("the page ends here: not as sauspiel.de saves it"))
            node = node.parent
        return node


class _Page(HTMLParser):
    """The page as a tree of `_Node`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Node("", {}, 1)
        self.open = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = _Node(tag, {k: v or "" for k, v in attrs}, self.getpos()[0], self.open[-1])
        self.open[-1].children.append(node)
        if tag not in _VOID:
            self.open.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.open.pop()

    def handle_endtag(self, tag: str) -> None:
        for at in range(len(self.open) - 1, 0, -1):
            if self.open[at].tag == tag:
                del self.open[at:]
                return

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def read(text: str) -> Record:
    """Read a saved sauspiel.de game page; a RecordError names the line of anything wrong."""
    page = _Page()
    page.feed(text)
    page.close()
    nodes = list(page.root.walk())
    players = _players(nodes)
    dealer = players[-1]
    title = _one(nodes, lambda n: "title-supertext" in n.classes(), "title-supertext")
    heading = next((n for n in title.up(1).walk() if n.tag == "h1"), None)
    if heading is None:
        raise RecordError(title.line, _("no h1 with the game beside .title-supertext"))
    said = " ".join(heading.text().split())
    settings = _tariff(nodes)
    number = 1  # (a page is one game)
    if said == "Zamgworfen":
        game = RecordedGame(number, heading.line, said, dealer, {}, skipped=_("thrown in"))
        return Record("sauspiel", players, (game,), settings)
    hands = _hands(nodes, players)
    game_name, call, who = described(said, heading.line)
    declarer = _player(who, players, heading.line) if who else None
    tricks = tuple(
        Played(node.line, _cards(node.up(2)), winner=_winner(node, players))
        for node in nodes
        if _reads(node, "Stich von")
    )
    knockers = tuple(_linked(nodes, "Klopfer", players))
    stoss = _linked(nodes, "Kontra und Retour", players)
    size = len(hands[players[0]])
    game = RecordedGame(
        number,
        heading.line,
        said,
        dealer,
        hands,
        game=game_name,
        declarer=declarer,
        call=call,
        tricks=tricks,
        knocks=len(knockers),
        knockers=knockers,
        stoss=len(stoss) if len(stoss) > 2 else 0,
        crack=stoss[0] if 0 < len(stoss) <= 2 else None,
        recrack=len(stoss) == 2,
    )
    if size == 6:
        settings = (*settings, "deal.4.cards=6")
    return Record("sauspiel", players, (game,), settings)


def _reads(node: _Node, text: str) -> bool:
    """Whether an element holds just this text (no elements within)."""
    return all(isinstance(c, str) for c in node.children) and node.text().strip() == text


def _one(nodes: list[_Node], test: Callable[[_Node], bool], what: str) -> _Node:
    found = [n for n in nodes if test(n)]
    if len(found) != 1:
        raise RecordError(
            found[1].line if len(found) > 1 else 0,
            _("the page has {count} elements of {what} (one, as sauspiel.de saves a game)").format(
                count=len(found), what=what
            ),
        )
    return found[0]


def _players(nodes: list[_Node]) -> tuple[str, ...]:
    box = _one(nodes, lambda n: "game-participants" in n.classes(), ".game-participants")
    names = [
        _name(n.attrs["data-username"], n.line) for n in box.walk() if n.attrs.get("data-username")
    ]
    if len(names) != 4 or len(set(names)) != 4:
        raise RecordError(
            box.line,
            _("the game's participants are {names}: a game has four").format(
                names=", ".join(names) or "-"
            ),
        )
    return tuple(names)


def _name(text: str, line: int) -> str:
    """A player's name as the page writes it (its spaces and line breaks as one space)."""
    name = " ".join(text.split())
    if not name:
        raise RecordError(line, _("a player's name is empty"))
    bad = unprintable(name)
    if bad is not None:
        raise RecordError(line, unprintable_problem(_("a player's name"), name, bad))
    return name


def _player(text: str, players: tuple[str, ...], line: int) -> str:
    name = _name(text, line)
    if name not in players:
        raise RecordError(
            line,
            _("{name}: not a player of this game ({players})").format(
                name=name, players=", ".join(players)
            ),
        )
    return name


def _cards(node: _Node) -> tuple[Card, ...]:
    """The cards an element holds (`card-image by g2 HO`), in the page's order."""
    out = []
    for one in node.walk():
        classes = one.classes()
        if "card-image" in classes:
            codes = [c for c in classes if re.fullmatch(r"[EGHS][789XZUOKA]", c)]
            if len(codes) != 1:
                raise RecordError(
                    one.line,
                    _(
                        "a card of classes {classes!r}: expected one such as 'card-image by g2 HO'"
                    ).format(classes=" ".join(classes)),
                )
            out.append(card(codes[0], one.line))
    return tuple(out)


def _hands(nodes: list[_Node], players: tuple[str, ...]) -> dict[str, tuple[Card, ...]]:
    found = [n for n in nodes if _reads(n, "Karten von:")]
    if len(found) != 4:
        raise RecordError(
            found[-1].line if found else 0,
            _(
                "the page shows the cards of {count} players ('Karten von:'); a game deals four"
            ).format(count=len(found)),
        )
    dealt = [
        (player, node.line, _cards(node.up(2))) for player, node in zip(players, found, strict=True)
    ]
    check_deal(dealt)
    return {player: cards for player, _line, cards in dealt}


def _winner(node: _Node, players: tuple[str, ...]) -> str | None:
    """The player a "Stich von" element names (the link after it), if any."""
    parent = node.up(1)
    names = [n.text().strip() for n in parent.walk() if n.tag == "a"]
    return _player(names[0], players, node.line) if names else None


def _figure(nodes: list[_Node], key: str) -> _Node | None:
    """The `td` in the row of a `th` reading `key` in the key figures."""
    heads = [n for n in nodes if n.tag == "th" and n.text().strip() == key]
    if not heads:
        return None
    row = heads[0].up(1)
    return next((n for n in row.walk() if n.tag == "td"), None)


def _linked(nodes: list[_Node], key: str, players: tuple[str, ...]) -> list[str]:
    cell = _figure(nodes, key)
    if cell is None:
        return []
    return [_player(a.text().strip(), players, a.line) for a in cell.walk() if a.tag == "a"]


def _tariff(nodes: list[_Node]) -> tuple[str, ...]:
    """The page's tariff as settings, with sauspiel.de's rules besides."""
    cell = _figure(nodes, "Tarif")
    if cell is None:
        if _figure(nodes, "Turnier") is None:
            raise RecordError(0, _("no 'Tarif' (nor 'Turnier') among the page's key figures"))
        extra, partner, solo = 1, 1, 2
    else:
        text = " ".join(cell.text().split())
        found = re.fullmatch(
            r"(P|€|\$) (\d+(?:,\d\d)?)(?: / (\d+(?:,\d\d)?))(?: / (\d+(?:,\d\d)?))?", text
        )
        if found is None:
            raise RecordError(
                cell.line,
                _("Tarif {text!r}: expected 'P 10 / 20 / 50' or '€ 0,10 / 0,50'").format(text=text),
            )
        amounts = [int(a.replace(",", "")) for a in found.groups()[1:] if a is not None]
        extra, partner, solo = (
            amounts if len(amounts) == 3 else (amounts[0], amounts[0], amounts[1])
        )
    return (
        f"game_values.partner={partner}",
        *(f"game_values.{g}={solo}" for g in ("solo", "wenz", "geier", "farbwenz", "farbgeier")),
        f"game_values.ramsch={partner}",
        f"schneider_bonus={extra}",
        f"schwarz_bonus={extra}",
        f"run_value={extra}",
        "runs_min.partner=3",
        "runs_min.solo=3",
        "runs_min.wenz=2",
        "runs_min.geier=2",
        "runs_min.farbwenz=3",
        "runs_min.farbgeier=3",
        "tout_scoring=double",
        "jungfrau=double-all",
        "all_pass=ramsch",
    )
