"""Cards: notation both ways, card points, trump orders, and who wins a trick (docs/rules.md §1)."""

import json
from typing import Any

import pytest
from _types import Fails, Run
from hypothesis import given
from hypothesis import strategies as st

from scorepad.cards import (
    DECK,
    SHEEPSHEAD_TRUMPS,
    Card,
    Game,
    Suit,
    card_points,
    parse_cards,
    parse_suit,
)
from scorepad.errors import CardError


@given(st.sampled_from(DECK))
def test_parse_and_print_are_inverse(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.german) == card


@pytest.mark.parametrize(
    "text, card",
    [
        ("QC", "QC"),
        ("10D", "10D"),
        ("TD", "10D"),
        ("td", "10D"),
        ("A♥", "AH"),
        ("7♣", "7C"),
        ("K♠", "KS"),
        ("J♦", "JD"),
        ("Eichel-Ober", "QC"),
        ("Gras Unter", "JS"),
        ("Blatt-Sau", "AS"),
        ("Herz-König", "KH"),
        ("Schellen Zehn", "10D"),
        ("EO", "QC"),
        ("GU", "JS"),
        ("HA", "AH"),
        ("S10", "10D"),
        ("SK", "KD"),
        ("AS", "AS"),
        ("KH", "KH"),
        ("herz sieben", "7H"),
    ],
)
def test_notations(text: str, card: str) -> None:
    assert str(Card.parse(text)) == card


@pytest.mark.parametrize("text", ["", "Z", "1C", "QX", "11H", "Eichel-Dame", "QCC"])
def test_unknown_cards_are_clear_errors(text: str) -> None:
    with pytest.raises(CardError, match="card"):
        Card.parse(text)


def test_duplicates_are_refused() -> None:
    with pytest.raises(CardError, match="QC is given twice"):
        parse_cards(["QC", "10D", "Eichel-Ober"])


def test_the_packs_constants_agree_with_the_cards() -> None:
    from scorepad import names

    assert names.ACE_POINTS == Card.parse("AS").points == max(c.points for c in DECK)
    assert card_points(DECK) == names.TOTAL_POINTS and names.MAKE == 120 // 2 + 1


def test_every_preset_named_is_a_bundled_file_and_loads() -> None:
    from importlib import resources

    from scorepad.names import PRESETS
    from scorepad.rules import load_rules

    files = {
        f.name.removesuffix(".toml")
        for f in resources.files("scorepad.presets").iterdir()
        if f.name.endswith(".toml")
    }
    assert set(PRESETS) == files
    assert [load_rules(name).name for name in PRESETS] == list(PRESETS)


def test_card_points_and_the_deck() -> None:
    assert card_points(DECK) == 120 and len(DECK) == 32
    assert [Card.parse(c).points for c in ("AS", "10S", "KS", "QS", "JS", "9S", "8S", "7S")] == [
        11,
        10,
        4,
        3,
        2,
        0,
        0,
        0,
    ]


def test_sheepshead_trump_order() -> None:
    assert [str(c) for c in SHEEPSHEAD_TRUMPS] == [
        "QC",
        "QS",
        "QH",
        "QD",
        "JC",
        "JS",
        "JH",
        "JD",
        "AD",
        "10D",
        "KD",
        "9D",
        "8D",
        "7D",
    ]


def test_a_queen_or_jack_never_follows_its_printed_suit() -> None:
    game = Game.sheepshead()
    assert (
        game.suit_of(Card.parse("QC")) == "trump" and game.suit_of(Card.parse("7C")) == Suit.CLUBS
    )
    # clubs led: the queen of clubs is trump and wins; it does not "follow" clubs
    cards = [Card.parse(c) for c in ("AC", "QC", "10C")]
    assert game.winner(cards) == 1


@pytest.mark.parametrize(
    "game, trump, order",
    [
        ("partner", None, "QC QS QH QD JC JS JH JD AH 10H KH 9H 8H 7H"),
        ("solo", Suit.CLUBS, "QC QS QH QD JC JS JH JD AC 10C KC 9C 8C 7C"),
        ("wenz", None, "JC JS JH JD"),
        ("geier", None, "QC QS QH QD"),
        ("wenz-tout", None, "JC JS JH JD"),
    ],
)
def test_schafkopf_trump_orders(game: str, trump: Suit | None, order: str) -> None:
    assert " ".join(map(str, Game.schafkopf(game, trump).trumps)) == order


def test_in_a_wenz_the_ober_ranks_in_its_suit_between_king_and_nine() -> None:
    wenz = Game.schafkopf("wenz")
    cards = [Card.parse(c) for c in ("9H", "QH", "KH")]
    assert wenz.winner(cards) == 2  # the king beats the Ober, the Ober beats the 9
    assert wenz.winner(cards[:2]) == 1


def test_a_fail_suit_ranks_a_10_k_9_8_7() -> None:
    game = Game.sheepshead()
    cards = [Card.parse(c) for c in ("KS", "9S", "10S")]
    assert game.winner(cards) == 2


def test_parse_suit() -> None:
    assert parse_suit("Eichel") == Suit.CLUBS and parse_suit("♦") == Suit.DIAMONDS
    with pytest.raises(CardError):
        parse_suit("X")


# --- count and trick ----------------------------------------------------------------------------


def test_count(run: Run) -> None:
    result = run("count", "10C", "AC", "7D", "KC", "9H")
    assert result.stdout.splitlines()[-1].split() == ["Total", "25"]
    data = json.loads(run("count", "QC,JD", "A♥", "--format", "json").stdout)
    assert data["points"] == 3 + 2 + 11
    assert data["cards"][2] == {"card": "AH", "points": 11}


def test_count_refusals(fails: Fails) -> None:
    assert "given twice" in fails("count", "QC", "QC")
    assert "unknown card 'ZZ'" in fails("count", "ZZ")


def test_the_seeds_worked_trick(run: Run) -> None:
    # 10 of clubs led, ace of clubs, 7 of diamonds, king of clubs, 9 of hearts
    out = run("trick", "10C", "AC", "7D", "KC", "9H").stdout
    assert out.rstrip().endswith("7D wins: the only trump. The trick is worth 25 card points.")
    data = json.loads(
        run(
            "trick",
            "--players",
            "Ann,Bob,Cy,Dee,Ed",
            "10C",
            "AC",
            "7D",
            "KC",
            "9H",
            "--format",
            "json",
        ).stdout
    )
    assert (data["card"], data["points"], data["winner"]) == ("7D", 25, "Cy")


def test_trick_without_trump_goes_to_the_highest_of_the_suit_led(run: Run) -> None:
    data = json.loads(run("trick", "KS", "AH", "10S", "9S", "--format", "json").stdout)
    assert data["card"] == "10S" and "the suit led" in data["why"]


def test_trick_schafkopf_games(run: Run) -> None:
    def winner(*args: object) -> Any:
        return json.loads(run("trick", "--rules", "schafkopf", *args, "--format", "json").stdout)[
            "card"
        ]

    assert winner("AH", "7H", "JC") == "JC"  # partner: hearts are trump
    assert winner("--game", "wenz", "QC", "JH", "AH") == "JH"  # wenz: only Unters
    assert winner("--game", "geier", "JC", "QD", "AC") == "QD"  # geier: only Obers
    assert winner("--game", "solo", "--trump", "Eichel", "AH", "7C") == "7C"
    assert winner("EO", "Herz-Unter", "Gras-Sau") == "QC"


def test_trick_refusals(fails: Fails) -> None:
    assert "--game belongs to Schafkopf" in fails("trick", "--game", "solo", "QC", "JD")
    assert "names 2 players for 3 cards" in fails("trick", "--players", "A,B", "QC", "JD", "AD")
    assert "only a solo, sie, farbwenz or farbgeier names its trump" in fails(
        "trick", "--rules", "schafkopf", "--trump", "H", "QC"
    )
    assert "a solo needs its trump suit" in fails(
        "trick", "--rules", "schafkopf", "--game", "solo", "QC"
    )


# --- cards in German (issue 40, item 12) ---------------------------------------------------------


def test_card_name_in_german_is_the_bavarian_name_and_in_english_the_code() -> None:
    from scorepad.cards import card_name

    codes = ["EO", "GA", "HZ", "SU", "E7"]
    cards = [Card.parse(code) for code in codes]
    assert [str(c) for c in cards] == ["QC", "AS", "10H", "JD", "7C"]  # (German codes read)
    assert [card_name(c, "de") for c in cards] == [
        "Eichel-Ober", "Gras-Sau", "Herz-Zehn", "Schellen-Unter", "Eichel-Sieben"
    ]  # fmt: skip
    assert [card_name(c, "en") for c in cards] == ["QC", "AS", "10H", "JD", "7C"]


def _gras_sau_call(tmp_path: Any) -> Any:
    """The sample Sauspiel with Schellen and Gras swapped: the call is the Gras-Sau (AS)."""
    from pathlib import Path

    text = (
        Path(__file__).parent.parent / "sample_sessions/hands/schafkopf-sauspiel.txt"
    ).read_text()
    swapped = "".join(
        {"D": "S", "S": "D"}.get(ch, ch) if i and text[i - 1] in "0123456789JQKA" else ch
        for i, ch in enumerate(text)
    )
    path = tmp_path / "gras.txt"
    path.write_text(swapped, encoding="utf-8")
    return path


def test_replay_trick_and_count_name_the_cards_in_german(run: Run, tmp_path: Any) -> None:
    path = _gras_sau_call(tmp_path)
    out = run("--lang", "de", "replay", path).stdout
    assert "Sepp sagt an und ruft die Gras-Sau: Vroni ist der Partner." in out
    assert "Anni Schellen-Ober Bertl Gras-Unter Sepp Herz-Sieben Vroni Eichel-Unter" in out
    assert out.endswith("Keine Regelverstöße: jede Karte ist nach den Regeln gespielt worden.\n")
    english = run("replay", path).stdout
    assert "calls AS" in english and "Anni QD Bertl JS Sepp 7H Vroni JC" in english
    trick = run("--lang", "de", "trick", "--rules", "schafkopf", "--players",
                "Anni,Bertl,Sepp,Vroni", "EO", "GA", "HZ", "SU").stdout  # fmt: skip
    assert "Spieler    Karte           Trumpf      Augen  Gewinner\n" in trick
    assert "Anni       Eichel-Ober     Trumpf          3  sticht" in trick
    assert trick.endswith(
        "Anni sticht mit Eichel-Ober: der höchste Trumpf. Der Stich zählt 26 Augen.\n"
    )
    count = run("--lang", "de", "count", "EO", "GA", "HZ", "SU", "E7").stdout
    assert [line.split()[0] for line in count.splitlines()[2:7]] == [
        "Eichel-Ober", "Gras-Sau", "Herz-Zehn", "Schellen-Unter", "Eichel-Sieben"
    ]  # fmt: skip
    # what programs read keeps the codes
    data = json.loads(run("--lang", "de", "count", "EO", "GA", "--format", "json").stdout)
    assert [c["card"] for c in data["cards"]] == ["QC", "AS"]
