"""Game records other programs write, read by `scorepad.records` (pure: no file is opened here):
NetSchafkopf protocols, openschafkopf game lines and saved sauspiel.de pages, each game replayed
as its hand file and held to what the record says, its running totals above all."""

import random
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorepad.errors import ScorepadError
from scorepad.records import RecordError, decode, detect, lines, openschafkopf, read
from scorepad.records.tally import Tallied, rules_of, runs_settings, tally
from scorepad.replay import parse_hand_file, replay, rules_for

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "sample_sessions" / "records"
sys.path.insert(0, str(ROOT / "scripts"))
import make_records  # type: ignore[import-not-found]  # noqa: E402

sys.path.remove(str(ROOT / "scripts"))

PLAYERS = make_records.PLAYERS


def tallied(text: str, settings: tuple[str, ...] = ()) -> list[Tallied]:
    """Read a record and replay and score every game of it (as `scorepad import` does)."""
    kind = detect(text)
    if kind is None:
        raise RecordError(0, "not a record")
    record = read(kind, text)
    found = runs_settings(record, rules_of(record, None, settings))
    rules = rules_of(record, None, (*found, *settings))
    return tally(record, rules, "bavarian", (*found, *settings), "record")


def sample(name: str) -> str:
    return decode((RECORDS / name).read_bytes())


def one_game(seed: int, game: str = "partner", dealer: str = "Vroni") -> "make_records.Played":
    return make_records.play(random.Random(seed), PLAYERS, dealer, game)


# --- the samples --------------------------------------------------------------------------------


def test_the_samples_are_what_the_script_writes(tmp_path: Path) -> None:
    import subprocess

    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_records.py"), str(tmp_path)],
        check=True,
        cwd=ROOT,
    )
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(p.name for p in RECORDS.iterdir())
    for name in made:
        assert (tmp_path / name).read_bytes() == (RECORDS / name).read_bytes(), name


def test_the_netschafkopf_sample_is_saved_as_netschafkopf_saves_one() -> None:
    data = (RECORDS / "netschafkopf-abend.txt").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # (Latin-1: "Grün", "für")
    assert data.count(b"\r\n") == data.count(b"\n") > 400
    assert "Grün" in data.decode("latin-1")


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("netschafkopf-abend.txt", "netschafkopf"),
        ("openschafkopf-games.txt", "openschafkopf"),
        ("sauspiel-spiel.html", "sauspiel"),
    ],
)
def test_each_sample_is_told_for_what_it_is(name: str, kind: str) -> None:
    assert detect(sample(name)) == kind


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Hand,Dealer,Ann,Bob\n1,Ann,+1,-1\n",
        "rules: bavarian\nplayers: A, B, C, D\n",
        "<html><body>Spiel</body></html>",
        "Rufspiel mit der Gras-Sau von 2: so h7 go\nnot a game\n",
    ],
)
def test_a_text_in_no_format_is_none(text: str) -> None:
    assert detect(text) is None


def test_the_netschafkopf_sample_adds_up_game_by_game() -> None:
    games = tallied(sample("netschafkopf-abend.txt"))
    assert len(games) == 24
    running = dict.fromkeys(PLAYERS, 0)
    for game in games:
        for player in PLAYERS:
            running[player] += (game.deltas or {})[player]
        assert game.game.totals == running  # (tally itself refuses a difference; this says so)
    skipped = [g for g in games if g.outcome is None]
    assert [g.game.number for g in skipped] == [15]
    assert skipped[0].game.skipped.startswith("a Schieber")


def test_every_game_of_the_samples_replays_with_nothing_wrong() -> None:
    for name in ("netschafkopf-abend.txt", "openschafkopf-games.txt", "sauspiel-spiel.html"):
        for game in tallied(sample(name)):
            if game.outcome is None:
                continue
            hand = parse_hand_file(game.text)
            again = replay(hand, rules_for(hand))
            assert again.problems == (), (name, game.game.number)
            assert again.score is not None and dict(again.score.deltas) == game.deltas


def test_the_record_states_its_tariff_and_the_hand_files_keep_it() -> None:
    record = read("netschafkopf", sample("netschafkopf-abend.txt"))
    assert "game_values.partner=10" in record.settings
    assert "game_values.solo=50" in record.settings and "run_value=10" in record.settings
    assert "knock_factor=2" in record.settings and "jungfrau=double-all" in record.settings
    assert "tout_scoring=double" in record.settings
    first = tallied(sample("netschafkopf-abend.txt"))[0]
    assert "set: game_values.partner=10\n" in first.text


def test_knocks_and_kontra_become_the_hand_files_knocks_and_stoss() -> None:
    games = {g.game.number: g for g in tallied(sample("netschafkopf-abend.txt"))}
    assert "knocks: 2\n" in games[14].text  # "2 mal aufgedoppelt"
    assert "stoss: 1\n" in games[19].text and "knocks: 1\n" in games[19].text
    assert "knocks:" not in games[1].text and "stoss:" not in games[1].text


def test_a_ramsch_names_its_loser_and_counts_its_jungfrau() -> None:
    text = sample("netschafkopf-abend.txt")
    games = {g.game.number: g for g in tallied(text)}
    ramsch = games[5]
    assert ramsch.game.game == "ramsch" and ramsch.game.declarer is None
    said = ramsch.game.result
    assert said is not None and said.loser is not None
    assert f"loser: {said.loser}\n" in ramsch.text


# --- how a protocol is read ---------------------------------------------------------------------


def test_latin1_and_utf8_and_crlf_and_lf_read_alike() -> None:
    data = (RECORDS / "netschafkopf-abend.txt").read_bytes()
    text = data.decode("latin-1")
    variants = [
        data,
        text.encode("utf-8"),
        text.replace("\r\n", "\n").encode("utf-8"),
        text.replace("\r\n", "\n").encode("latin-1"),
        b"\xef\xbb\xbf" + text.encode("utf-8"),
    ]
    read_back = [read("netschafkopf", decode(v)) for v in variants]
    assert all(r == read_back[0] for r in read_back)
    assert any("Grün-" in g.said for g in read_back[0].games)  # (decoded, never "GrÃ¼n")
    assert "Ã" not in str(read_back[0])


def test_lines_end_with_crlf_cr_or_lf() -> None:
    assert lines("a\r\nb\rc\nd") == ["a", "b", "c", "d"]


def test_the_players_sit_as_the_totals_columns_list_them() -> None:
    record = read("netschafkopf", sample("netschafkopf-abend.txt"))
    assert record.players == PLAYERS
    assert record.date == "2025-03-14"
    assert [g.dealer for g in record.games[:5]] == ["Vroni", "Anni", "Bertl", "Sepp", "Vroni"]


def _protocol(games: list["make_records.Played"], owner: str = "Vroni") -> str:
    return str(make_records.protocol(owner, "2025-03-14", games))


def _lines(text: str) -> list[str]:
    return text.split("\r\n")


def _error(text: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        tallied(text)
    return caught.value


def test_an_unknown_card_is_an_error_at_its_line() -> None:
    rows = _lines(_protocol([one_game(1)]))
    at = next(i for i, row in enumerate(rows) if " hat: " in row)
    rows[at] = rows[at][:-2] + "EQ"
    error = _error("\r\n".join(rows))
    assert error.line == at + 1
    assert str(error).startswith("unknown card 'EQ': a record writes a suit (E, G, H, S)")


def test_a_card_dealt_twice_is_an_error_at_its_second_hand() -> None:
    rows = _lines(_protocol([one_game(1)]))
    first = next(i for i, row in enumerate(rows) if " hat: " in row)
    twice = rows[first].split()[-1]
    rows[first + 1] = rows[first + 1][:-2] + twice
    error = _error("\r\n".join(rows))
    assert error.line == first + 2
    assert f"{twice} is dealt twice: to " in str(error) and f"(line {first + 1})" in str(error)


def test_a_player_not_seated_is_an_error() -> None:
    rows = _lines(_protocol([one_game(1)]))
    at = next(i for i, row in enumerate(rows) if " spielt aus: " in row)
    rows[at] = "      Xaver spielt aus:" + rows[at].split("spielt aus:")[1]
    error = _error("\r\n".join(rows))
    assert error.line == at + 1
    assert str(error) == (
        "a trick led by Xaver: not a player of this protocol (Anni, Bertl, Sepp, Vroni)"
    )


def test_a_trick_led_by_the_wrong_player_is_an_error() -> None:
    rows = _lines(_protocol([one_game(1)]))
    at = [i for i, row in enumerate(rows) if " spielt aus: " in row][3]
    leader = rows[at].split()[0]
    other = next(p for p in PLAYERS if p != leader)
    rows[at] = f"{other:>12} spielt aus:" + rows[at].split("spielt aus:")[1]
    error = _error("\r\n".join(rows))
    assert error.line == at + 1
    assert str(error) == f"trick 4 is led by {other} here, but {leader} took trick 3"


def _renege() -> tuple[str, int, str]:
    """A protocol with one player's cards of two tricks swapped, so that the first of them does
    not follow suit though it could (the tricks' winners as before); its line and player."""
    for seed in range(200):
        played = one_game(seed)
        order = played.order
        for first in range(len(played.tricks)):
            for second in range(first + 1, len(played.tricks)):
                swapped = _swapped(played, first, second, order)
                if swapped is not None:
                    text = _protocol([swapped[0]])
                    rows = _lines(text)
                    tricks = [i for i, row in enumerate(rows) if " spielt aus: " in row]
                    return text, tricks[first] + 1, swapped[1]
    raise AssertionError("no renege found")


def _swapped(played, first: int, second: int, order):  # type: ignore[no-untyped-def]
    (lead_a, cards_a), (lead_b, cards_b) = played.tricks[first], played.tricks[second]
    seats = list(played.players)
    for player in seats:
        at_a = (seats.index(player) - seats.index(lead_a)) % 4
        at_b = (seats.index(player) - seats.index(lead_b)) % 4
        if at_a == 0 or at_b == 0:
            continue
        led = order.suit_of(cards_a[0])
        a, b = cards_a[at_a], cards_b[at_b]
        if order.suit_of(a) != led or order.suit_of(b) == led:
            continue
        new_a, new_b = list(cards_a), list(cards_b)
        new_a[at_a], new_b[at_b] = b, a
        if order.winner(new_a) != order.winner(cards_a) or order.winner(new_b) != order.winner(
            cards_b
        ):
            continue
        tricks = list(played.tricks)
        tricks[first], tricks[second] = (lead_a, new_a), (lead_b, new_b)
        copy = make_records.Played(
            played.players, played.dealer, played.hands, played.game, played.declarer, played.call
        )
        copy.tricks, copy.winners = tricks, played.winners
        return copy, player
    return None


def test_a_trick_that_does_not_follow_suit_is_an_error_at_its_line() -> None:
    text, line, player = _renege()
    error = _error(text)
    assert error.line == line
    assert "reneged" in str(error) and player in str(error)


def test_a_malformed_line_is_an_error_at_its_line() -> None:
    rows = _lines(_protocol([one_game(1)]))
    at = next(i for i, row in enumerate(rows) if row.startswith("Spiel "))
    rows[at + 1] = "    1       10   zehn"
    error = _error("\r\n".join(rows))
    assert error.line == at + 2
    assert str(error).startswith("expected the game's number, its price, each player's total")


def test_a_game_scored_otherwise_than_the_record_says_where_and_by_how_much() -> None:
    rows = _lines(_protocol([one_game(1), one_game(2, dealer="Anni")]))
    at = [i for i, row in enumerate(rows) if row.startswith("Spiel ")][1]
    numbers = rows[at + 1].split()
    numbers[2] = f"{int(numbers[2]) + 10:+d}"  # Anni's total after game 2
    rows[at + 1] = (
        f"{2:>5}{numbers[1]:>9}" + "".join(f"{n:>13}" for n in numbers[2:6]) + "        0"
    )
    error = _error("\r\n".join(rows))
    game_two = [i for i, row in enumerate(rows) if row.startswith("Geber:")][1]
    assert error.line == game_two + 1
    assert str(error).startswith("after game 2 the totals differ from the record's by Anni -10:")


def test_a_price_it_does_not_read_is_an_error() -> None:
    rows = _lines(_protocol([one_game(1)]))
    at = next(i for i, row in enumerate(rows) if "kostet" in row)
    rows[at] = rows[at] + " Bock 40 Punkte."
    error = _error("\r\n".join(rows))
    assert error.line == at + 1
    assert str(error) == "a price scorepad does not read: 'Bock 40 Punkte'"


def test_a_result_that_the_cards_deny_is_an_error() -> None:
    rows = _lines(_protocol([one_game(1)]))
    at = next(i for i, row in enumerate(rows) if "Augen" in row)
    text = "\r\n".join(rows)
    said = rows[at].split("haben ")[-1].split()[0] if "haben" in rows[at] else None
    if said is None:  # (wrapped: "Die " on one line, "Gegner haben N Augen" on the next)
        said = rows[at].split()[-2]
    text = text.replace(f"haben {said} Augen", f"haben {int(said) + 1} Augen", 1)
    error = _error(text)
    assert f"the record gives the opponents {int(said) + 1} card points, the cards {said}" in str(
        error
    )


# --- properties ---------------------------------------------------------------------------------

_GAMES = ("partner", "partner", "solo", "wenz", "geier", "farbwenz", "farbgeier", "ramsch")


@settings(max_examples=25)
@given(
    seed=st.integers(0, 10**6),
    count=st.integers(1, 12),
    latin1=st.booleans(),
    crlf=st.booleans(),
)
@example(seed=4842, count=9, latin1=False, crlf=False)  # (a Ramsch that was a Durchmarsch)
def test_a_protocol_of_legal_games_imports_as_dealt_and_played_totals_equal(
    seed: int, count: int, latin1: bool, crlf: bool
) -> None:
    rng = random.Random(seed)
    games = make_records.night(rng, tuple(rng.choice(_GAMES) for _ in range(count)))
    for game in games:
        if isinstance(game, make_records.Played):
            game.knocks, game.kontra = rng.choice([(0, 0), (0, 0), (1, 0), (0, 1), (2, 1)])
            game.kontra *= game.game != "ramsch"  # (a Ramsch knows no Kontra)
    text = _protocol(games, owner=rng.choice(PLAYERS))
    if not crlf:
        text = text.replace("\r\n", "\n")
    read_back = tallied(decode(text.encode("latin-1" if latin1 else "utf-8")))
    assert len(read_back) == count
    for made, got in zip(games, read_back, strict=True):
        assert got.game.dealer == made.dealer
        assert {p: list(c) for p, c in got.game.hands.items()} == made.hands
        assert [list(t.cards) for t in got.game.tricks] == [c for _l, c in made.tricks]
        assert got.deltas == outcome_of(made)


def outcome_of(made: "make_records.Played") -> dict[str, int]:
    return dict(make_records.outcome(made, "nobody")[2])


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), game=st.sampled_from((*_GAMES, "wenz-tout", "solo-tout")))
def test_openschafkopf_lines_round_trip_through_hand_files(seed: int, game: str) -> None:
    played = make_records.play(random.Random(seed), PLAYERS, PLAYERS[-1], game)
    line = make_records.game_line(played)
    record = read("openschafkopf", line + "\n")
    (got,) = tallied(line + "\n")
    seats = {str(i): set(played.hands[p]) for i, p in enumerate(PLAYERS)}
    assert {p: set(c) for p, c in got.game.hands.items()} == seats
    assert openschafkopf.line(parse_hand_file(got.text)) == line
    assert record.players == ("0", "1", "2", "3")


def test_the_sample_lines_round_trip() -> None:
    text = sample("openschafkopf-games.txt")
    written = [openschafkopf.line(parse_hand_file(g.text)) for g in tallied(text)]
    assert written == [row for row in text.splitlines() if row]


@pytest.mark.parametrize(
    ("said", "game", "call", "who"),
    [
        ("Rufspiel mit der Gras-Sau von 2", "partner", "AS", "2"),
        ("Rufspiel Blaue von 3", "partner", "AS", "3"),
        ("Sauspiel auf die Alte von Anni", "partner", "AC", "Anni"),
        ("Schelln-Wenz von 2", "farbwenz D", None, "2"),
        ("Herz-Solo-Tout von 0", "solo-tout H", None, "0"),
        ("Eichel sticht von 1", "solo C", None, "1"),
        ("Geier von 1", "geier", None, "1"),
        ("Wenz-Tout von 3", "wenz-tout", None, "3"),
        ("Bettel normal von 0", "bettel", None, "0"),
        ("Ramsch", "ramsch", None, None),
    ],
)
def test_games_are_read_as_openschafkopf_describes_them(
    said: str, game: str, call: str | None, who: str | None
) -> None:
    name, called, player = openschafkopf.described(said, 1)
    assert (name, str(called) if called else None, player) == (game, call, who)


@pytest.mark.parametrize(
    "said",
    ["Rufspiel mit der Herz-Sau von 1", "Solo von 2", "Hochzeit von 1", "Ramsch von 2", "Wenz"],
)
def test_games_scorepad_does_not_play_are_errors(said: str) -> None:
    with pytest.raises(RecordError):
        openschafkopf.described(said, 1)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Wenz von 3: ea ek", "2 cards: a game line has all 32 cards in the order played"),
        ("Wenz von 7: " + " ".join(["ea"] * 32), "von 7: the players of a game line are 0"),
        ("Wenz von 3 " + "ea " * 32, "write the rules, a colon and the cards"),
    ],
)
def test_a_bad_game_line_is_an_error_at_its_line(line: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        read("openschafkopf", "\n" + line + "\n")
    assert caught.value.line == 2 and str(caught.value).startswith(message)


def test_a_card_played_twice_in_a_line_is_an_error() -> None:
    line = sample("openschafkopf-games.txt").splitlines()[0]
    cards = line.split(": ")[1].split()
    cards[5] = cards[4]
    with pytest.raises(RecordError) as caught:
        read("openschafkopf", line.split(": ")[0] + ": " + " ".join(cards))
    assert str(caught.value) == f"{cards[4].upper()} is played twice"


_MUTATIONS = st.tuples(
    st.integers(0, 10**6), st.sampled_from(["drop", "dup", "char", "cut", "swap"])
)
_SAMPLES = ("netschafkopf-abend.txt", "openschafkopf-games.txt", "sauspiel-spiel.html")


@settings(max_examples=80)
@given(
    name=st.sampled_from(_SAMPLES),
    mutations=st.lists(_MUTATIONS, min_size=1, max_size=4),
    put=st.text(min_size=1, max_size=3),
)
def test_no_mangled_record_gives_a_traceback(
    name: str, mutations: list[tuple[int, str]], put: str
) -> None:
    rows = sample(name).split("\n")
    for at, how in mutations:
        i = at % len(rows)
        if how == "drop":
            del rows[i]
        elif how == "dup":
            rows.insert(i, rows[i])
        elif how == "char" and rows[i]:
            j = at % len(rows[i])
            rows[i] = rows[i][:j] + put + rows[i][j + 1 :]
        elif how == "swap":
            k = (at // 7) % len(rows)
            rows[i], rows[k] = rows[k], rows[i]
        else:
            rows[i] = rows[i][: at % (len(rows[i]) + 1)]
    try:
        tallied("\n".join(rows))
    except RecordError as exc:
        assert "\n" not in str(exc) and exc.line >= 0
    except ScorepadError as exc:
        assert "\n" not in str(exc)


def test_a_sauspiel_page_gives_its_knocks_and_kontra_by_name() -> None:
    (game,) = tallied(sample("sauspiel-spiel.html"))
    assert "knocks: Bertl\n" in game.text and "crack: " in game.text
    assert game.game.said.startswith("Sauspiel auf die Alte von ")
    record = read("sauspiel", sample("sauspiel-spiel.html"))
    assert "game_values.partner=10" in record.settings and "game_values.solo=50" in record.settings


def test_a_sauspiel_trick_taken_by_another_is_an_error() -> None:
    text = sample("sauspiel-spiel.html")
    rows = text.split("\n")
    at = next(i for i, row in enumerate(rows) if "Stich von" in row)
    winner = rows[at].split('data-username="')[1].split('"')[0]
    other = next(p for p in PLAYERS if p != winner)
    rows[at] = rows[at].replace(f'"{winner}"', f'"{other}"').replace(f">{winner}<", f">{other}<")
    error = _error("\n".join(rows))
    assert error.line == at + 1
    assert str(error) == f"trick 1 is {other}'s here, but {winner}'s card wins it"
