"""Replaying whole hands from their cards: the deal, the play, reneges, and the score."""

import json
import random
from pathlib import Path

import pytest
from _types import Fails, Run
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.cards import Card, Suit
from scorepad.replay import HandFileError, parse_hand_file, replay
from scorepad.replay.tricks import Play, before_the_first_card, play_problems
from scorepad.rules import load_rules
from scorepad.simulate import random_hand

HANDS = Path(__file__).parent.parent / "sample_sessions" / "hands"
WALKTHROUGH = (HANDS / "first-night-walkthrough.txt").read_text()


def variant(**tricks: str) -> str:
    """The walkthrough with some tricks replaced (t4="AS 7C 7S 9H 7H") and other changes."""
    lines = WALKTHROUGH.splitlines()
    out, number = [], 0
    for line in lines:
        if line.startswith("trick:"):
            number += 1
            line = f"trick: {tricks.get(f't{number}', line[6:].split('#')[0].strip())}"
        for key in ("call", "rules"):
            if line.startswith(f"{key}:") and key in tricks:
                line = f"{key}: {tricks[key]}"
        out.append(line)
    return "\n".join(out) + "\n"


def problems(text: str, preset: str | None = None) -> list[str]:
    hand = parse_hand_file(text)
    return [str(p) for p in replay(hand, load_rules(preset or hand.rules)).problems]


def test_the_walkthrough_replays_cleanly(run: Run) -> None:
    result = replay(parse_hand_file(WALKTHROUGH), load_rules("first-night"))
    assert result.ok and result.partners == ("North",)
    assert [t.winner for t in result.tricks] == ["West", "West", "South", "West", "West", "North"]
    assert [t.points for t in result.tricks] == [9, 11, 19, 21, 31, 25]
    assert (result.points, result.side_tricks) == (101, 5)  # with the bury's 4
    assert result.score is not None
    assert dict(result.score.deltas) == {"West": 2, "North": 2, "East": 0, "Pat": 0, "South": 0}
    cli = run("replay", HANDS / "first-night-walkthrough.txt")
    assert cli.exit_code == 0
    assert "Nothing found wrong: every card was played by the rules." in cli.stdout


def test_a_renege_is_reported_with_the_card_that_should_have_followed(run: Run) -> None:
    cli = run("replay", HANDS / "friday-disputed.txt")
    assert cli.exit_code == 1
    assert "- trick 5: South reneged: played 10S on a heart lead while holding 10H" in cli.stdout
    data = json.loads(run("replay", HANDS / "friday-disputed.txt", "--format", "json").stdout)
    assert data["problems"] == [
        {
            "trick": 5,
            "player": "South",
            "message": "South reneged: played 10S on a heart lead while holding 10H",
        }
    ]
    assert data["score"]["deltas"]["West"] == 4  # standard rules: 101 is schneider


def test_not_following_trump_is_a_renege() -> None:
    found = problems(variant(t3="JD 8S KS 7H JC", t4="AS 10D 7S 9H AD", t5="8H 10H AH 10C 8C"))
    assert found == ["trick 3: Pat reneged: played 7H on a trump lead while holding AD"]


def test_the_partner_may_not_play_the_called_ace_before_its_suit_is_led() -> None:
    found = problems(variant(t5="AH AC 8C 8H 10H", t6="7C 10C 9C KC 10S"))
    assert found == ["trick 5: North played the called AC before its suit was led"]


def test_the_partner_must_play_the_called_ace_when_its_suit_is_first_led() -> None:
    found = problems(variant(t5="7C 10C 9C KC 10S", t6="AC 8C 8H 10H AH"))
    assert found == [
        "trick 5: North held the called AC and played 10C: the called card must "
        "be played when its suit is first led"
    ]


def test_the_picker_must_keep_a_card_of_the_called_suit() -> None:
    found = problems(variant(t4="AS 7C 7S 9H 7H", t5="10H AH 10C 8C 8H", t6="10D AC 9C KC 10S"))
    assert found == [
        "trick 4: West played 7C, the last club, before the called suit was led: "
        "the picker must keep one"
    ]


def test_keeping_a_card_of_the_called_suit_is_the_keep_called_suit_setting() -> None:
    text = variant(t4="AS 7C 7S 9H 7H", t5="10H AH 10C 8C 8H", t6="10D AC 9C KC 10S")
    hand = parse_hand_file(text)
    assert load_rules(hand.rules).keep_called_suit  # Sheepshead: the picker keeps one
    off = load_rules(hand.rules, ["keep_called_suit=false"])
    assert [str(p) for p in replay(hand, off).problems] == []


def test_the_unknown_card_follows_the_called_suit_and_cannot_win() -> None:
    text = variant(
        call="AS unknown 7C", t4="AS 7C 7S 9H 7H", t5="10H AH 10C 8C 8H", t6="10D AC 9C KC 10S"
    )
    result = replay(parse_hand_file(text), load_rules("first-night"))
    assert result.ok and result.partners == ("South",)
    assert result.tricks[3].winner == "South"
    wrong = variant(call="AS unknown 7C")  # West trumps the first spade lead instead
    assert problems(wrong) == [
        "trick 4: West must play the unknown card 7C when spades are first led, not 10D"
    ]


UNKNOWN_ASIDE = """\
rules: first-night
players: West, North, East, Pat, South
dealer: South
West:  AC 7C QC QS JD 8D
North: 10C KC QH JC 9S 8S
East:  9C 8C AS 10S KS 7S
Pat:   AH 10H KH 9H QD JS
South: 8H 7H JH AD 10D KD
blind: 9D 7D
picker: West
bury: 9D 7D
call: AS unknown 7C
trick: AC KC 9C QD 8H
trick: 9H 7H 8D JC 7S
trick: 10C 8C 10H KD {west}
trick: QS QH KS JS JH
trick: JD 8S 10S KH 10D
trick: {last} 9S AS AH AD
"""


def test_the_unknown_card_laid_aside_is_not_held_for_following_suit() -> None:
    # clubs led before spades: West's only club is the unknown card, face down until then, so
    # he may play any card (it used to be a renege, and playing the 7C a misplay: no card was
    # right)
    text = UNKNOWN_ASIDE.format(west="QC", last="7C")
    assert problems(text) == []
    # the card itself stays barred until then, and a player holding a club still follows suit
    rules = load_rules("first-night")
    game, call, holding = before_the_first_card(parse_hand_file(text), rules)
    aside = Play(3, "West", Card.parse("7C"), False, holding["West"][1:], False, False, False)
    assert [m.message for m in play_problems(aside, Suit.CLUBS, game, call, "West", rules)] == [
        "West played the unknown card 7C before spades were led"
    ]
    changed = text.replace("10C 8C 10H KD QC", "10C 10S 10H KD QC").replace("8S 10S KH", "8S 8C KH")
    assert problems(changed) == [
        "trick 3: East reneged: played 10S on a club lead while holding 8C"
    ]


def test_a_bad_call_is_reported() -> None:
    assert problems(variant(call="AH")) == ["West called AH, which West holds"]


@pytest.mark.parametrize(
    "change, message",
    [
        (
            ("players: West, North, East, Pat, South", "players: West, North, East, Pat"),
            ":11: 'South' is neither a key",
        ),
        (("South: JC KD 9D AS 10H 10S", ""), "no cards for South"),
        (("Pat:   QD JH AD 7H 8H KC", "Pat:   QD JH AD 7H 8H"), "Pat has 5 cards"),
        (("Pat:   QD JH AD 7H 8H KC", "Pat:   QD JH AD 7H 8H QC"), "QC is dealt twice"),
        (("blind: 10D 9S", "blind: 10D"), "the blind has 1 cards"),
        (("bury: 9S KH", "bury: 9S AC"), "West buried AC, which was not in West's hand"),
        (("trick: QS 8D JS JH KD", "trick: QS 8D JS JH"), "trick 2 has 4 cards"),
        (
            ("trick: QS 8D JS JH KD", "trick: QS 8D JS KD JH"),
            "Pat plays KD, which Pat does not hold",
        ),
        (("call: AC", "call: XX"), "call: unknown card 'XX'"),
        (("picker: West", "picker: Zed"), "unknown player"),
        (("dealer: South", "dealer South"), "write 'key: value'"),
        (("rules: first-night", "rules: first-nite"), "did you mean 'first-night'?"),
    ],
)
def test_hand_file_errors_name_the_line(
    fails: Fails, tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    path = tmp_path / "hand.txt"
    path.write_text(WALKTHROUGH.replace(*change))
    line = fails("replay", path)
    assert line.startswith(f"Error: {path}:") and message in line, line


def test_record_appends_the_replayed_hand(run: Run, tmp_path: Path) -> None:
    session = tmp_path / "night.csv"
    run("-f", session, "new", "--players", "West,North,East,Pat,South", "--rules", "first-night")
    result = run("-f", session, "replay", HANDS / "first-night-walkthrough.txt", "--record")
    assert result.exit_code == 0, result.stderr
    assert "Recorded into" in result.stdout
    totals = json.loads(run("-f", session, "standings", "--format", "json").stdout)["totals"]
    assert totals == {"West": 2, "North": 2, "East": 0, "Pat": 0, "South": 0}
    assert run("-f", session, "verify").stdout == ""


def test_record_refuses_a_hand_with_problems(run: Run, tmp_path: Path) -> None:
    session = tmp_path / "night.csv"
    run("-f", session, "new", "--players", "West,North,East,Pat,South")
    before = session.read_bytes()
    result = run("-f", session, "replay", HANDS / "friday-disputed.txt", "--record")
    assert result.exit_code == 1 and "not recorded" in result.stderr
    assert session.read_bytes() == before


@pytest.mark.parametrize(
    "preset, players",
    [
        ("standard", "ABCDE"),
        ("standard", "ABC"),
        ("standard", "ABCD"),
        ("standard", "ABCDEF"),
        ("pagat", "ABCDE"),
        ("pagat", "ABCDEF"),
        ("first-night", "ABCDE"),
        ("first-night", "ABCD"),
        ("schafkopf", "ABCD"),
    ],
)
def test_a_random_legal_hand_of_each_preset_replays_cleanly(preset: str, players: str) -> None:
    rules = load_rules(preset)
    result = replay(parse_hand_file(random_hand(random.Random(1), rules, list(players))), rules)
    assert result.ok, [str(p) for p in result.problems]
    assert result.score is not None


def test_schafkopf_runs_are_counted_from_the_cards() -> None:
    rules = load_rules("schafkopf")
    text = random_hand(random.Random(3), rules, ["Anni", "Bertl", "Sepp", "Vroni"], game="solo")
    result = replay(parse_hand_file(text), rules)
    owners = {c: p for p in result.players for c in parse_hand_file(text).hands[p]}
    side = {result.picker}
    tops = [owners[c] in side for c in result.game.trumps]
    expected = next((i for i, held in enumerate(tops) if held != tops[0]), len(tops))
    assert result.runs == expected


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(
        [
            ("standard", 5),
            ("standard", 3),
            ("standard", 4),
            ("standard", 6),
            ("pagat", 6),
            ("first-night", 4),
            ("schafkopf", 4),
        ]
    ),
    st.integers(0, 2**32 - 1),
)
def test_any_legally_played_deal_replays_to_120_points_and_every_trick(
    setup: tuple[str, int], seed: int
) -> None:
    preset, count = setup
    rules = load_rules(preset)
    players = [f"P{i}" for i in range(count)]
    hand = parse_hand_file(random_hand(random.Random(seed), rules, players))
    result = replay(hand, rules)
    assert result.ok, [str(p) for p in result.problems]
    assert sum(t.points for t in result.tricks) + sum(c.points for c in result.bury) == 120
    won = {p: sum(1 for t in result.tricks if t.winner == p) for p in players}
    deal = rules.deal_for(count)
    assert deal is not None
    assert sum(won.values()) == deal.cards == len(result.tricks)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([("standard", 5), ("standard", 3), ("schafkopf", 4)]), st.integers(0, 2**32 - 1)
)
def test_a_renege_made_by_swapping_two_plays_is_caught(setup: tuple[str, int], seed: int) -> None:
    """Take a legal hand; swap a follower's card with one they played later from another suit
    while they still held the led suit. That trick now has a renege, and replay must say so."""
    preset, count = setup
    rules = load_rules(preset)
    players = [f"P{i}" for i in range(count)]
    text = random_hand(random.Random(seed), rules, players)
    hand = parse_hand_file(text)
    clean = replay(hand, rules)
    game = clean.game
    for trick in clean.tricks:
        led = game.suit_of(trick.plays[0][1])
        for player, card in trick.plays[1:]:
            if game.suit_of(card) != led:
                continue
            later = [
                (t, c)
                for t in clean.tricks[trick.number :]
                for p, c in t.plays
                if p == player
                and game.suit_of(c) != led
                and t.plays[0][0] != player
                and game.suit_of(t.plays[0][1]) == game.suit_of(c)
            ]
            if not later:
                continue
            other_trick, other = later[0]
            lines = text.splitlines()
            trick_lines = [i for i, l in enumerate(lines) if l.startswith("trick:")]
            for number, swap_in, swap_out in (
                (trick.number, other, card),
                (other_trick.number, card, other),
            ):
                at = trick_lines[number - 1]
                cards = lines[at][6:].split()
                cards[cards.index(str(swap_out))] = str(swap_in)
                lines[at] = "trick: " + " ".join(cards)
            try:
                found = replay(parse_hand_file("\n".join(lines)), rules).problems
            except HandFileError:  # the swap changed who led a later trick: nothing to check
                return
            assert any(
                p.trick == trick.number and p.player == player and "reneged" in p.message
                for p in found
            ), [str(p) for p in found]
            return


def test_a_schafkopf_partner_game_replays_by_its_trump_order(run: Run) -> None:
    result = run("replay", HANDS / "schafkopf-sauspiel.txt", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["problems"] == [] and data["points"] == 61 and data["runs"] == 4
    assert data["score"]["stake"] == 1 + 4  # a partner game 1, plus four runs
    # hearts are trump in a partner game: a heart takes a trick of a plain suit
    hearts = [t for t in data["tricks"] if t["card"].endswith("H") and t["card"][0] not in "QJ"]
    assert all("trump" in t["why"] for t in hearts)


def test_the_same_deal_under_pagat_rules_pays_the_schneider(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "pagat.txt"
    path.write_text(WALKTHROUGH.replace("rules: first-night", "rules: pagat"))
    data = json.loads(run("replay", path, "--format", "json").stdout)
    assert data["problems"] == [] and data["score"]["deltas"]["West"] == 4


@pytest.mark.parametrize(
    "game, message",
    [
        (
            "wenz H",
            "game: only a solo, sie, farbwenz or farbgeier names its trump suit, not a wenz",
        ),
        ("solo", "game: a solo needs its trump suit"),
        ("skat", "game: unknown game 'skat'"),
    ],
)
def test_a_bad_schafkopf_game_names_its_line(
    fails: Fails, tmp_path: Path, game: str, message: str
) -> None:
    path = tmp_path / "hand.txt"
    text = (HANDS / "schafkopf-sauspiel.txt").read_text()
    path.write_text(text.replace("game: partner", f"game: {game}").replace("call: AD\n", ""))
    line = fails("replay", path)
    assert line.startswith(f"Error: {path}:10: ") and message in line, line
