"""`scorepad analyze`: the sample hand files analysed through the command line (text, every card,
exact points, JSON), and bad input refused in one line."""

import json
from pathlib import Path

import pytest
from _types import Fails, Run

from scorepad.analysis import LEVELS

HANDS = Path(__file__).parent.parent / "sample_sessions" / "hands"
SAUSPIEL = HANDS / "sauspiel-mistake.txt"
SHEEPSHEAD = HANDS / "sheepshead-mistake.txt"


def test_the_disputed_sauspiel_names_the_card_that_lost_it(run: Run) -> None:
    result = run("analyze", SAUSPIEL)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "With every card open, the declarer's side could force a win: 61 or more.",
        "Trick 4: Hans's 10H turned a win into a loss for the declarer's side; "
        "8H, QH or QS kept the win",
        "Mistakes: Resi 0, Hans 1, Gustl 0, Kathi 0.",
    ]


SHEEPSHEAD_TEXT = [
    "With every card open, the picker's side could force a loss: 31 or more.",
    "Trick 4: Ann's JH turned a loss into a loss with schneider for the picker's side; "
    "QD kept the loss",
    "Mistakes: Ann 1, Bob 0, Cy 0, Dee 0, Ed 0.",
]


def test_a_sheepshead_picker_gave_schneider_away(run: Run) -> None:
    result = run("analyze", SHEEPSHEAD)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == SHEEPSHEAD_TEXT
    assert result.stderr == ""  # no progress bar off a terminal


def test_all_shows_every_card_in_the_order_played(run: Run) -> None:
    lines = run("analyze", SAUSPIEL, "--all").stdout.splitlines()
    cards = lines[1:-1]
    assert len(cards) == 32
    played = [
        line.split(": ", 1)[1].split()
        for line in SAUSPIEL.read_text().splitlines()
        if line.startswith("trick:")
    ]
    assert [line.split()[3] for line in cards] == [card for trick in played for card in trick]
    assert cards[0] == "Trick 1: Resi's 9C kept the win"
    assert cards[15].startswith("Trick 4: Hans's 10H turned a win into a loss")
    assert cards[16] == "Trick 5: Resi's 10D kept the loss"
    assert all("kept the loss" in line for line in cards[16:])


def test_points_gives_the_exact_card_points(run: Run) -> None:
    result = run("analyze", SAUSPIEL, "--points")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "With every card open, the declarer's side could force a win: 88 or more.",
        "Trick 4: Hans's 10H turned a win into a loss (58 card points) for the declarer's "
        "side; 8H, QH or QS kept the win",
        "Mistakes: Resi 0, Hans 1, Gustl 0, Kathi 0.",
    ]


def test_json_has_the_keys_the_issue_names(run: Run) -> None:
    result = run("analyze", SAUSPIEL, SHEEPSHEAD, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["hands"]
    sauspiel, sheepshead = data["hands"]
    assert list(sauspiel) == ["file", "declarers", "start", "cards", "mistakes"]
    assert sauspiel["file"] == str(SAUSPIEL)
    assert sauspiel["declarers"] == ["Hans", "Gustl"]
    assert sauspiel["start"] == {"outcome": "win"}
    assert len(sauspiel["cards"]) == 32
    assert sauspiel["cards"][15] == {
        "trick": 4,
        "player": "Hans",
        "card": "10H",
        "before": {"outcome": "win"},
        "after": {"outcome": "loss"},
        "mistake": True,
        "better": ["8H", "QH", "QS"],
    }
    assert sauspiel["mistakes"] == [{"trick": 4, "player": "Hans", "card": "10H"}]
    assert sheepshead["declarers"] == ["Ann", "Bob"]
    assert sheepshead["mistakes"] == [{"trick": 4, "player": "Ann", "card": "JH"}]
    for hand in data["hands"]:
        for card in hand["cards"]:
            assert card["before"]["outcome"] in LEVELS and card["after"]["outcome"] in LEVELS
            assert card["mistake"] == (card["before"] != card["after"])
        # one card's after is the next one's before
        for one, two in zip(hand["cards"], hand["cards"][1:], strict=False):
            assert one["after"] == two["before"]


def test_json_with_points(run: Run) -> None:
    data = json.loads(run("analyze", SHEEPSHEAD, "--points", "--format", "json").stdout)
    hand = data["hands"][0]
    assert hand["start"] == {"outcome": "loss", "points": 47}
    (mistake,) = [c for c in hand["cards"] if c["mistake"]]
    assert mistake["after"] == {"outcome": "loss-schneider", "points": 28}
    assert all(set(c["after"]) == {"outcome", "points"} for c in hand["cards"])
    # the last card leaves the hand's own card points (with the bury's 10)
    assert hand["cards"][-1]["after"]["points"] == 28


def test_json_without_points_has_no_points(run: Run) -> None:
    data = json.loads(run("analyze", SHEEPSHEAD, "--format", "json").stdout)
    hand = data["hands"][0]
    assert hand["start"] == {"outcome": "loss"}
    assert all(set(c["before"]) == {"outcome"} for c in hand["cards"])


def test_several_files_each_under_its_name(run: Run) -> None:
    walkthrough = HANDS / "first-night-walkthrough.txt"
    lines = run("analyze", SHEEPSHEAD, walkthrough).stdout.splitlines()
    assert lines[:2] == [f"{SHEEPSHEAD}:", SHEEPSHEAD_TEXT[0]]
    assert lines[4:7] == ["", f"{walkthrough}:", run("analyze", walkthrough).stdout.split("\n")[0]]


def test_a_bad_hand_file_is_one_line(fails: Fails, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(SAUSPIEL.read_text().replace("trick: 9C KC AC AH", "trick: 9C KC AC XX"))
    assert fails("analyze", bad).startswith(f"Error: {bad}:13: unknown card 'XX'")
    assert fails("analyze", tmp_path / "missing.txt").startswith("Error: ")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("friday-disputed.txt", "the hand breaks the rules (trick 5: South reneged"),
    ],
)
def test_hands_it_cannot_analyse_are_refused(fails: Fails, name: str, words: str) -> None:
    line = fails("analyze", HANDS / name)
    assert line.startswith(f"Error: {HANDS / name}: {words}")


def test_ctrl_c_stops_with_one_line_and_exit_130(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    import scorepad.analysis

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(scorepad.analysis, "analyse", interrupted)
    result = run("analyze", SAUSPIEL)
    assert result.exit_code == 130
    assert result.stdout == ""
    assert result.stderr == "Stopped: the analysis was not finished.\n"


@pytest.mark.parametrize("calls", [200, 400, 1000])
def test_ctrl_c_in_the_middle_of_a_play_stops_as_cleanly(
    run: Run, monkeypatch: pytest.MonkeyPatch, calls: int
) -> None:
    # Ctrl-C lands while a trick is being closed (its card played, its winner not yet found):
    # the position is not taken back (that raised IndexError over the interrupt: a traceback)
    from scorepad.analysis.position import Position

    winner, count = Position._winner, [0]

    def interrupted(self: Position, trick: list[int], first: bool) -> int:
        count[0] += 1
        if count[0] == calls:
            raise KeyboardInterrupt
        return winner(self, trick, first)

    monkeypatch.setattr(Position, "_winner", interrupted)
    for command in (("analyze", SAUSPIEL), ("replay", SAUSPIEL, "--analyze")):
        count[0] = 0
        result = run(*command)
        assert (result.exit_code, result.stderr) == (
            130,
            "Stopped: the analysis was not finished.\n",
        ), result.stderr


def test_replay_record_analyze_stopped_says_the_hand_is_recorded(
    run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import scorepad.analysis

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(scorepad.analysis, "analyse", interrupted)
    walkthrough = HANDS / "first-night-walkthrough.txt"
    for fmt in ("text", "json"):
        session = tmp_path / f"{fmt}.csv"
        run(
            "-f", session, "new", "--players", "West,North,East,Pat,South", "--rules", "first-night"
        )
        result = run("-f", session, "replay", walkthrough, "--record", "--analyze", "--format", fmt)
        assert result.exit_code == 130
        assert result.stderr.splitlines() == [
            "Stopped: the analysis was not finished.",
            "Hand 1 is recorded all the same.",
        ]
        # the replay and the recording are shown before the analysis starts (text)
        assert ("Recorded into" in result.stdout) == (fmt == "text")
        assert run("-f", session, "standings", "--format", "json").stdout.count('"West": 2') == 1


def test_several_files_one_bad_print_nothing_but_the_error(
    run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bad = tmp_path / "empty.txt"
    bad.write_text("")
    import scorepad.analysis

    analysed = []
    monkeypatch.setattr(scorepad.analysis, "analyse", lambda *a, **k: analysed.append(a))
    for command in (
        ("replay", SAUSPIEL, bad, "--format", "json"),
        ("replay", SAUSPIEL, bad, "--analyze", "--format", "json"),
        ("replay", SAUSPIEL, bad),
        ("analyze", SAUSPIEL, bad),
        ("analyze", SAUSPIEL, tmp_path / "missing.txt"),
    ):
        result = run(*command)
        assert result.exit_code == 1 and result.stdout == "", command
        assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("Error: ")
    assert analysed == []  # (the files are read before any analysis starts)


# (the Hochzeit and the Sie take several seconds: the slow run analyses them; the Bavarian
# Ramsch takes minutes, 4 to 9 on a 2-core machine, longer than CI may: `pytest -m minutes`)
SAMPLE_MARKS = {
    "bavarian-hochzeit.txt": pytest.mark.slow,
    "bavarian-sie.txt": pytest.mark.slow,
    "bavarian-ramsch.txt": pytest.mark.minutes,
}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=SAMPLE_MARKS.get(p.name, ())) for p in sorted(HANDS.glob("*.txt"))],
    ids=lambda p: p.name,
)
def test_every_sample_hand_file_is_analysed_or_refused(run: Run, path: Path) -> None:
    result = run("analyze", path, "--format", "json")
    if result.exit_code:
        assert result.stdout == "" and len(result.stderr.splitlines()) == 1
        return
    hand = json.loads(result.stdout)["hands"][0]
    first = hand["cards"][0]
    if hand.get("game") == "ramsch":  # (each player's start by name; the leader's first)
        assert first["before"] == hand["start"][first["player"]]
    else:
        assert first["before"] == hand["start"]
    assert hand["mistakes"] == [
        {k: c[k] for k in ("trick", "player", "card")} for c in hand["cards"] if c["mistake"]
    ]


def test_in_german_with_german_card_names(run: Run) -> None:
    result = run("--lang", "de", "analyze", SAUSPIEL)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Mit offenen Karten hätte die Spielerpartei ein gewonnenes Spiel (61 Augen oder mehr) "
        "erzwingen können.",
        "Stich 4, Hans: Herz-Zehn machte für die Spielerpartei ein verlorenes Spiel statt ein "
        "gewonnenes Spiel; Herz-Acht, Herz-Ober oder Gras-Ober hätte das gewonnene Spiel "
        "gehalten",
        "Fehler: Resi 0, Hans 1, Gustl 0, Kathi 0.",
    ]
    # the JSON keeps its stable words and cards as written
    data = json.loads(run("--lang", "de", "analyze", SHEEPSHEAD, "--format", "json").stdout)
    assert data["hands"][0]["mistakes"] == [{"trick": 4, "player": "Ann", "card": "JH"}]
    assert data["hands"][0]["start"] == {"outcome": "loss"}


def test_replay_analyze_adds_the_analysis_after_the_rules_check(run: Run) -> None:
    plain = run("replay", SHEEPSHEAD)
    result = run("replay", SHEEPSHEAD, "--analyze")
    assert result.exit_code == 0, result.stderr
    analysis = run("analyze", SHEEPSHEAD).stdout
    assert result.stdout == plain.stdout + "\n" + analysis


def test_replay_analyze_in_json_has_the_analysis_of_a_hand(run: Run) -> None:
    plain = json.loads(run("replay", SHEEPSHEAD, "--format", "json").stdout)
    data = json.loads(run("replay", SHEEPSHEAD, "--analyze", "--format", "json").stdout)
    analysis = data.pop("analysis")
    assert data == plain
    assert analysis == json.loads(run("analyze", SHEEPSHEAD, "--format", "json").stdout)["hands"][0]


def test_replay_analyze_of_a_renege_says_why_not(run: Run) -> None:
    disputed = HANDS / "friday-disputed.txt"
    result = run("replay", disputed, "--analyze")
    assert result.exit_code == 1  # the renege, as replay finds it
    assert result.stdout == run("replay", disputed).stdout + (
        "\nNot analysed: the hand breaks the rules (trick 5: South reneged: played 10S on a "
        "heart lead while holding 10H): analyze takes hands played by the rules\n"
    )
    data = json.loads(run("replay", disputed, "--analyze", "--format", "json").stdout)
    assert data["analysis"] is None and data["problems"]


def test_a_progress_bar_on_a_terminal_after_a_second(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scorepad.cli.analyze as command

    class Clock:  # every reading a second later than the one before
        now = 0.0

        @classmethod
        def monotonic(cls) -> float:
            cls.now += 1.0
            return cls.now

    monkeypatch.setattr(command, "time", Clock)
    monkeypatch.setattr(command, "_on_a_terminal", lambda: True)
    result = run("analyze", SHEEPSHEAD)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == SHEEPSHEAD_TEXT
    assert "\rsheepshead-mistake.txt [" in result.stderr
    # every card done, and the line cleared (click leaves the erase code out off a terminal)
    assert result.stderr.removesuffix("\033[K").endswith("] 30/30\r")


RAMSCH = HANDS / "ramsch-mistake.txt"
RAMSCH_TEXT = [
    "A Ramsch, each player for themself, with every card open against the other three:",
    "Anni could make sure of a Durchmarsch; Bertl of a Jungfrau; Sepp of a Jungfrau; "
    "Vroni of a Jungfrau.",
    "Trick 1: Anni's AH lost the Durchmarsch (now 120 card points or fewer); JC, JH, JS, QC, "
    "QD, QH or QS kept the Durchmarsch",
    "Trick 1: Bertl's JD lost the Jungfrau (now 24 card points or fewer); 10H, 9H or KH kept "
    "the Jungfrau",
    "Mistakes: Anni 1, Bertl 1, Sepp 0, Vroni 0.",
]


def test_a_ramsch_each_player_for_themself(run: Run) -> None:
    result = run("analyze", RAMSCH)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == RAMSCH_TEXT
    # --points makes no difference: a Ramsch always gives its points
    assert run("analyze", RAMSCH, "--points").stdout == result.stdout
    every = run("analyze", RAMSCH, "--all").stdout.splitlines()
    assert len(every) == 2 + 32 + 1
    assert "Trick 2: Anni's QC kept 96 card points or fewer" in every


def test_a_ramsch_as_json(run: Run) -> None:
    hand = json.loads(run("analyze", RAMSCH, "--format", "json").stdout)["hands"][0]
    assert list(hand) == ["file", "game", "declarers", "start", "cards", "mistakes"]
    assert hand["game"] == "ramsch" and hand["declarers"] == []
    assert hand["start"] == {
        "Anni": {"outcome": "durchmarsch", "points": 120},
        "Bertl": {"outcome": "jungfrau", "points": 0},
        "Sepp": {"outcome": "jungfrau", "points": 0},
        "Vroni": {"outcome": "jungfrau", "points": 0},
    }
    first = hand["cards"][0]
    assert first == {
        "trick": 1,
        "player": "Anni",
        "card": "AH",
        "before": {"outcome": "durchmarsch", "points": 120},
        "after": {"outcome": "points", "points": 120},
        "mistake": True,
        "better": ["JC", "JH", "JS", "QC", "QD", "QH", "QS"],
    }
    assert hand["mistakes"] == [
        {"trick": 1, "player": "Anni", "card": "AH"},
        {"trick": 1, "player": "Bertl", "card": "JD"},
    ]
    # a player's value after his card is his value before his next (when nobody played between)
    # and the others' cards only keep or better it
    order = ("durchmarsch", "jungfrau", "points")
    last: dict[str, tuple[int, int]] = {}
    for card in hand["cards"]:
        rank = (order.index(card["before"]["outcome"]), card["before"]["points"])
        if card["player"] in last:
            assert rank <= last[card["player"]] or rank[0] < last[card["player"]][0]
        last[card["player"]] = (order.index(card["after"]["outcome"]), card["after"]["points"])


def test_a_ramsch_in_german(run: Run) -> None:
    result = run("--lang", "de", "analyze", RAMSCH)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Ein Ramsch, jeder für sich, mit offenen Karten gegen die anderen drei:"
    assert lines[1] == (
        "Anni hätte sich einen Durchmarsch sichern können; Bertl eine Jungfrau; "
        "Sepp eine Jungfrau; Vroni eine Jungfrau."
    )
    assert lines[2].startswith("Stich 1, Anni: Herz-Sau kostete den Durchmarsch (jetzt 120 Augen")
    assert "Eichel-Ober" in lines[2]
    assert lines[-1] == "Fehler: Anni 1, Bertl 1, Sepp 0, Vroni 0."


def test_replay_analyze_takes_a_ramsch(run: Run) -> None:
    result = run("replay", RAMSCH, "--analyze")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-len(RAMSCH_TEXT) :] == RAMSCH_TEXT


def test_a_bettel_has_no_points_even_with_points(run: Run) -> None:
    # won or lost by its tricks: neither the start nor any card says card points
    bettel = HANDS / "bavarian-bettel.txt"
    text = run("analyze", bettel, "--points", "--all")
    assert text.exit_code == 0 and text.stdout.count("\n") > 30
    assert "card points" not in text.stdout
    data = json.loads(run("analyze", bettel, "--points", "--format", "json").stdout)["hands"][0]
    assert "points" not in data["start"]
    assert all("points" not in c["before"] and "points" not in c["after"] for c in data["cards"])
