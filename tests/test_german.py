"""scorepad speaks German (issue 26): every message has its translation, the language is chosen
as documented, the commands' help, output and errors read German, numbers and money are written
the German way, and what programs read stays byte for byte the same in both languages."""

from __future__ import annotations

import json
import re
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _types import Run
from click.testing import CliRunner, Result

from scorepad import i18n
from scorepad.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import messages  # type: ignore[import-not-found]  # noqa: E402

sys.path.remove(str(ROOT / "scripts"))


def de(*args: object, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    """`scorepad --lang de ARGS...`, in-process."""
    return CliRunner().invoke(
        cli, ["--lang", "de", *map(str, args)], input=input, prog_name="scorepad", env=env
    )


def en(*args: object, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, [*map(str, args)], input=input, prog_name="scorepad")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.use("en")


# --- the catalog ---------------------------------------------------------------------------


def test_every_message_has_a_german_translation() -> None:
    """Each marked message, each paragraph of help, each setting's meaning, role and game name
    is in the German .po, translated and not fuzzy: when a new message comes, this names it
    (then run `python scripts/messages.py` and translate it in
    scorepad/locale/de/LC_MESSAGES/scorepad.po)."""
    lacking = messages.lacking("de")
    assert lacking == [], "\n".join(lacking)


def _fields(text: str) -> set[str]:
    named = {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}
    return named | set(re.findall(r"%\((\w+)\)", text)) | set(re.findall(r"⟨[a-z_]+⟩", text))


def test_each_translation_has_the_placeholders_of_its_message() -> None:
    """A translation that names another field would fail as it is formatted."""
    catalog = messages.read("de")
    wrong = []
    for entry in catalog:
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        wanted = set().union(*map(_fields, ids))
        for text in strings:
            if _fields(text) - wanted:
                wrong.append(f"{entry.id!r}: {text!r}")
    assert wrong == []


def test_the_compiled_catalog_is_the_po() -> None:
    """scorepad.mo, what scorepad ships and loads, is compiled from scorepad.po as it is now."""
    catalog = messages.read("de")
    compiled = i18n.catalog("de")
    stale = [
        e.id
        for e in catalog
        if e.id and isinstance(e.id, str) and not e.context and compiled.gettext(e.id) != e.string
    ]
    assert stale == [], "run python scripts/messages.py"


def test_a_regular_install_ships_the_catalog() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = config["tool"]["setuptools"]["package-data"]["scorepad"]
    assert "locale/*/LC_MESSAGES/*.mo" in data
    assert (ROOT / "scorepad/locale/de/LC_MESSAGES/scorepad.mo").is_file()


# --- choosing the language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "environ", "language"),
    [
        (None, {}, "en"),
        ("de", {}, "de"),
        ("en", {"SCOREPAD_LANG": "de"}, "en"),
        (None, {"SCOREPAD_LANG": "de"}, "de"),
        (None, {"SCOREPAD_LANG": "fr", "LANG": "de_DE.UTF-8"}, "de"),
        (None, {"LC_ALL": "de_AT.UTF-8", "LANG": "en_US.UTF-8"}, "de"),
        (None, {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        (None, {"LC_MESSAGES": "de_CH", "LANG": "en_GB"}, "de"),
        (None, {"LANG": "fr_FR.UTF-8"}, "en"),
    ],
)
def test_the_language_is_lang_then_scorepad_lang_then_the_locale(
    option: str | None, environ: dict[str, str], language: str
) -> None:
    assert i18n.choose(option, environ) == language


def test_the_environment_chooses_german() -> None:
    environ = {"SCOREPAD_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}
    result = CliRunner().invoke(cli, ["--help"], env=environ, prog_name="scorepad")
    assert result.stdout.startswith("Aufruf: scorepad [OPTIONEN] BEFEHL [ARGUMENTE]...")


def test_english_loads_no_catalog() -> None:
    code = (
        "import sys\nfrom scorepad.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "from scorepad import i18n\n"
        "print(i18n.loaded(), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "SCOREPAD_LANG": "en"},
    )
    assert result.stderr.strip() == "()"


def test_an_unknown_language_is_a_usage_error() -> None:
    result = en("--lang", "fr", "status")
    assert result.exit_code == 2
    assert "'fr' is not one of 'en', 'de'" in result.stderr or "--lang" in result.stderr


# --- help -----------------------------------------------------------------------------------


def _all_commands() -> list[list[str]]:
    found: list[list[str]] = [[]]
    for name in COMMANDS:
        found.append([name])
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        if command is not None and hasattr(command, "commands"):
            found += [[name, sub] for sub in command.commands]
    return found


@pytest.mark.parametrize("path", _all_commands(), ids=lambda p: " ".join(p) or "scorepad")
def test_every_commands_help_is_german(path: list[str]) -> None:
    result = de(*path, "--help")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Aufruf: scorepad"), out
    assert "Optionen:" in out and "Diese Hilfe zeigen und beenden." in out
    assert "Show this message" not in out and "Options:" not in out
    english = en(*path, "--help").stdout
    first = english.split("\n\n")[1].strip().split("\n")[0]
    assert first not in out  # the command's own first line is translated too


def test_version_in_german() -> None:
    assert de("--version").stdout == f"scorepad Version {i18n_version()}\n"
    assert en("--version").stdout == f"scorepad {i18n_version()}\n"


def i18n_version() -> str:
    from scorepad import __version__

    return __version__


# --- a night in German ----------------------------------------------------------------------


def test_a_hand_recorded_in_german(tmp_path: Path) -> None:
    path = tmp_path / "abend.csv"
    result = de("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    assert result.stdout == (
        f"{path} begonnen: Ann, Bob, Cy, Dee, Ed; Regeln: standard.\n"
        "Als Nächstes: Spiel 1, Ed gibt, Ann spielt aus.\n"
    )
    result = de("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", 64)
    assert result.stdout == (
        "Spiel 1: Ann hat aufgenommen, Partner Bob, 64 Augen: gewonnen, Stufe 1, Einsatz 1.\n"
        "Spieler    Rolle           Punkte    Stand\n"
        "---------  ------------  --------  -------\n"
        "Ann        Spieler             +2       +2\n"
        "Bob        Partner             +1       +1\n"
        "Cy         Gegenspieler        -1       -1\n"
        "Dee        Gegenspieler        -1       -1\n"
        "Ed         Gegenspieler        -1       -1\n"
        "\n"
        "Als Nächstes: Spiel 2, Ann gibt, Bob spielt aus.\n"
    )


def test_settle_writes_money_the_german_way(tmp_path: Path) -> None:
    sample = ROOT / "sample_sessions/standard-friday.csv"
    out = de("-f", sample, "settle", "--rate", "0,10", "--currency", "€").stdout
    assert out.startswith("Abrechnung zu 0,10 € je Punkt (39 Spiele, Regeln standard):")
    assert "1,20 €" in out and "-1,00 €" in out and "$" not in out
    english = en("-f", sample, "settle", "--rate", "0.10").stdout
    assert "$1.20" in english and "-$1.00" in english


def test_german_game_names(tmp_path: Path) -> None:
    base = ["check", "--rules", "schafkopf", "--players", "Ann,Bob,Cy,Dee", "--picker", "Ann"]
    hand = [*base, "--partner", "Bob", "--points", "70", "--format", "json"]
    partner = json.loads(en(*hand, "--game", "partner").stdout)
    for word in ("rufspiel", "sauspiel", "Sauspiel"):
        assert json.loads(en(*hand, "--game", word).stdout) == partner


# --- errors users can cause -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code", "german"),
    [
        (["status", "--bogus"], 2, "Fehler: Eine Option '--bogus' gibt es nicht"),
        (["new"], 2, "Fehler: Fehlende Option '--players'"),
        (["hand", "--picker"], 2, "braucht ein Argument"),
        (["settle", "--rate", "x"], 1, "Fehler: --rate x: kein Betrag; schreib z. B. 0,25"),
        (["settle", "--rate", "-1"], 1, "der Tarif muss ein Betrag über null sein"),
        (["status"], 1, "die Sitzungsdatei gibt es nicht"),
        (
            [
                "check",
                "--players",
                "Ann,Bob,Cy,Dee,Ed",
                "--picker",
                "Ann",
                "--alone",
                "--points",
                "130",
            ],
            1,
            "Fehler: --points 130: Augen gehen von 0 bis 120",
        ),
        (
            [
                "check",
                "--players",
                "Ann,Bob,Cy,Dee,Ed",
                "--picker",
                "Zed",
                "--alone",
                "--points",
                "70",
            ],
            1,
            "unbekannter Spieler",
        ),
        (["new", "--players", "Ann,Bob,Cy,Ann"], 1, "steht zweimal da"),
        (["rules", "nope"], 1, "unbekannte Regeln 'nope'"),
        (["rules", "--set", "base=x"], 1, "ist nicht gültig"),
        (["trick", "ZZ"], 1, "unbekannte Karte"),
        (
            ["check", "--players", "A,B,C,D,E", "--tricks", "x"],
            2,
            "'x' ist keine gültige ganze Zahl",
        ),
    ],
)
def test_errors_users_can_cause_are_german(
    args: list[str], code: int, german: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = de(*args)
    assert result.exit_code == code, result.output
    assert german in result.stderr, result.stderr
    assert result.stderr.startswith("Fehler: ") and result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_the_error_of_a_bad_game_is_german() -> None:
    result = de("check", "--players", "A,B,C,D,E", "--game", "tarock")
    assert "Ungültiger Wert für '--game'" in result.stderr


# --- what machines read ---------------------------------------------------------------------

MACHINE = [
    ["standings", "--format", "json"],
    ["standings", "--format", "csv"],
    ["sheet", "--format", "csv"],
    ["sheet", "--format", "json"],
    ["settle", "--rate", "0.25", "--format", "json"],
    ["settle", "--rate", "0.25", "--format", "csv"],
    ["stats", "--format", "json"],
    ["stats", "--format", "csv"],
    ["status", "--format", "json"],
    ["log", "--format", "csv"],
    ["rules", "--format", "toml"],
    ["rules", "--format", "json"],
]


@pytest.mark.parametrize("args", MACHINE, ids=" ".join)
@pytest.mark.parametrize("night", ["standard-friday.csv", "bavarian-evening.csv"])
def test_machine_output_is_the_same_in_both_languages(args: list[str], night: str) -> None:
    path = ROOT / "sample_sessions" / night
    english = en("-f", path, *args)
    german = de("-f", path, *args)
    assert english.exit_code == 0, english.output
    assert german.stdout == english.stdout


def test_check_json_is_the_same_in_both_languages() -> None:
    args = ["check", "--players", "Ann,Bob,Cy,Dee,Ed", "--picker", "Ann", "--alone"]
    args += ["--points", "95", "--crack", "Bob", "--format", "json"]
    assert de(*args).stdout == en(*args).stdout


@pytest.mark.parametrize("scoring", ["fewest-wins", "most-loses"])
def test_a_leasters_payout_reads_german_however_it_is_scored(scoring: str) -> None:
    args = ["check", "--players", "Ann,Bob,Cy,Dee,Ed", "--leaster"]
    args += [
        "--set",
        f"leaster_scoring={scoring}",
        "--leaster-points",
        "Ann=10,Bob=20,Cy=30,Dee=45,Ed=15",
    ]
    german = de(*args)
    assert german.exit_code == 0, german.output
    assert "Auszahlung: 1." in german.stdout.splitlines()
    assert "Payout" not in german.stdout


def test_a_german_night_writes_the_same_file(tmp_path: Path) -> None:
    """The session file is never translated: the same night, in either language, is the
    same file (but for the times its rows carry)."""
    files = []
    for run, name in ((en, "en.csv"), (de, "de.csv")):
        path = tmp_path / name
        run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
        run("-f", path, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "64")
        run("-f", path, "hand", "--leaster", "--winner", "Dee")
        run("-f", path, "void", "1", "--reason", "Zählfehler")
        files.append(re.sub(r"\d{4}-\d\d-\d\dT[\d:.+Z-]+", "T", path.read_text(encoding="utf-8")))
    assert files[0] == files[1]


# --- the board ------------------------------------------------------------------------------


def _board_page(path: Path, accept: str | None, language: str | None = None) -> Any:
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient

    from scorepad.web.app import Board, create_app

    board = Board(path, poll=0.05)
    board.language = language
    headers = {"accept-language": accept} if accept else {}
    with TestClient(create_app(board), base_url="http://127.0.0.1") as client:
        return client.get("/", headers=headers)


@pytest.fixture
def night(tmp_path: Path) -> Path:
    path = tmp_path / "abend.csv"
    en("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    return path


def test_the_board_speaks_the_browsers_language(night: Path) -> None:
    page = _board_page(night, "de-DE,de;q=0.9,en;q=0.8")
    assert page.headers["content-language"] == "de"
    assert '<html lang="de">' in page.text and "<h2>Stand</h2>" in page.text
    assert "⟦" not in page.text and "Standings" not in page.text
    english = _board_page(night, "fr-FR,en;q=0.5")
    assert "<h2>Standings</h2>" in english.text and "⟦" not in english.text
    assert _board_page(night, None).headers["content-language"] == "en"


def test_serve_lang_decides_the_boards_language(night: Path) -> None:
    assert "<h2>Stand</h2>" in _board_page(night, "en-US", "de").text
    assert "<h2>Standings</h2>" in _board_page(night, "de", "en").text


def test_the_boards_messages_fit_in_its_script() -> None:
    """A page's message is written into its HTML and its script as it is: a translation
    holds no character either would read otherwise."""
    catalog = messages.read("de")
    wrong = [
        e.string
        for e in catalog
        if any("scorepad/web/" in where for where, _ in e.locations)
        and any(c in e.string for c in '"\\<>&')
    ]
    assert wrong == []


def test_the_german_board_in_chromium(night: Path) -> None:
    playwright = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (.ci/run installs it)"
    )
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from decimal import Decimal

    from test_serve import TOKEN, _chromium, served

    from scorepad.web.follow import MoneyRate

    chromium = _chromium()
    if chromium is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium; .ci/run does)")
    en("-f", night, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "64")
    money = MoneyRate(Decimal("0.10"), "€")
    with (
        served(night, allow_entry=True, token=TOKEN, money=money) as url,
        playwright.sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(locale="de-DE", extra_http_headers={"accept-language": "de"})
            page.goto(f"{url}/?token={TOKEN}")
            page.wait_for_selector("#live.on", timeout=60_000)
            assert page.locator("#live").inner_text() == "live"
            assert page.locator("#standings-card h2").text_content() == "Stand"
            assert page.locator("#next").inner_text() == "Spiel 2: Ann gibt, Bob spielt aus."
            assert page.locator("#pending").inner_text() == "Keine Doubler ausstehend"
            assert page.locator("#money-rate").inner_text() == "Zu 0,10 € je Punkt:"
            assert page.locator("#standings .money").first.inner_text() == "0,20 €"
            assert "Cy zahlt an Ann 0,10 €" in page.locator("#payments").inner_text()
            assert page.locator("#entry h2").text_content() == "Ein Spiel aufschreiben"
            assert page.locator("#undo").inner_text() == "Letzte Änderung zurücknehmen"
            page.select_option("#picker", "Cy")
            page.fill("#points", "95")
            page.check("#alone")
            page.click("#hand-form button[type=submit]")
            page.wait_for_function(
                "document.getElementById('entry-message').textContent.startsWith('Aufgeschrieben')",
                timeout=60_000,
            )
            assert (
                page.locator("#entry-message").inner_text()
                == "Aufgeschrieben: Spiel 2: Cy allein 95, Schneider."
            )
            # the last hands, described in German (the API asked in the page's language)
            page.wait_for_function(
                "document.getElementById('recent').textContent.includes('Cy allein 95')",
                timeout=60_000,
            )
            recent = page.locator("#recent").inner_text()
            assert "Cy allein 95, Schneider" in recent and "alone" not in recent
        finally:
            browser.close()


SWEEP = [
    "check --players A,B,C,D,E --picker A --partner A --points 70",
    "check --players A,B,C,D,E --picker A --alone --partner B --points 70",
    "check --players A,B,C,D,E --picker A --alone --points 70 --tricks 9",
    "check --players A,B,C,D,E --picker A --alone --points 0 --tricks 6",
    "check --players A,B,C,D,E --picker A --alone --points 70 --crack A",
    "check --players A,B,C,D,E --picker A --alone --points 70 --recrack",
    "check --players A,B,C,D,E --picker A --alone --points 70 --knocks 1",
    "check --players A,B,C,D,E --leaster",
    "check --players A,B,C,D,E --leaster --leaster-points A=10,B=10",
    "check --players A,B,C,D,E --leaster --leaster-points A=x",
    "check --players A,B,C,D,E --schwanzer --loser A",
    "check --rules schafkopf --players A,B,C,D --picker A --game bettel --points 0",
    "check --rules schafkopf --players A,B,C,D --picker A --game solo --partner B --points 70",
    "check --rules schafkopf --players A,B,C,D --picker A --game wenz --points 70 --runs 9",
    "check --rules bavarian --players A,B,C,D --ramsch --ramsch-points A=10",
    "check --rules bavarian --players A,B,C,D --ramsch --ramsch-points A=0,B=40,C=40,D=40",
    "check --rules schafkopf --players A,B,C,D,E --picker A --points 70",
    "check --set nope=1 --players A,B,C,D,E --picker A --alone --points 70",
    "check --set cracks=maybe --players A,B,C,D,E --picker A --alone --points 70",
    "rules --set deal.9.cards=3",
    "count ZZ 10C",
    "trick --rules schafkopf --game solo EO",
    "settle --rate 0,001 --currency 12345678",
    "new --players A",
    "new --players =A,B,C,D,E",
    "hand --picker A --alone --points 70",
    "void 3",
    "amend 1",
    "seat remove Zed",
    "replay no-such-file.txt",
    "season no-such-folder",
    "chart --output chart.txt",
]


@pytest.mark.parametrize("line", SWEEP)
def test_every_error_in_german_is_one_line_and_changes_nothing(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    en("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    before = (tmp_path / "scorepad.csv").read_bytes()
    result = de(*line.split())
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (1, 2), result.output
    assert result.stderr.startswith("Fehler: ") and result.stderr.count("\n") == 1, result.stderr
    assert (tmp_path / "scorepad.csv").read_bytes() == before


# --- `--lang` after the command ---------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["standings", "--lang", "de"],
        ["standings", "--lang=de"],
        ["--lang", "en", "standings", "--lang", "de"],  # (the last one given counts)
        ["standings", "--format", "text", "--lang", "de"],
    ],
    ids=" ".join,
)
def test_lang_after_the_command(args: list[str]) -> None:
    sample = ROOT / "sample_sessions/standard-friday.csv"
    result = en("-f", sample, *args)
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("39 Spiele (Regeln standard).\n")


def test_lang_after_the_command_speaks_the_help_too() -> None:
    out = en("standings", "--lang", "de", "--help").stdout
    assert out.startswith("Aufruf: scorepad standings [OPTIONEN]") and "Optionen:" in out
    assert "--lang" not in out  # (every command takes it; the top level's help names it)
    assert en("standings", "--help").stdout == en("standings", "-h").stdout  # English as ever


def test_lang_after_a_groups_command(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    made = en("tournament", "new", cup, "--name", "Cup", "--rules", "preis", "--lang", "de",
              "--players", "A,B,C,D", "--rounds", "1", "--hands", "1", "--seed", "1")  # fmt: skip
    assert made.exit_code == 0, made.output
    assert made.stdout.startswith(f"{cup}/tournament.toml begonnen: Cup; 4 Spieler")
    for args in (["tournament", "standings", cup, "--lang", "de"],
                 ["tournament", "--lang", "de", "standings", cup],
                 ["tournament", "players", "add", "--lang", "de", cup, "E"]):  # fmt: skip
        result = en(*args)
        assert result.exit_code == 0, result.output
        assert "Runde" in result.stdout or "angemeldet" in result.stdout, result.stdout
    help_text = en("tournament", "players", "remove", "--lang", "de", "-h").stdout
    assert help_text.startswith("Aufruf: scorepad tournament players remove [OPTIONEN] ORDNER NAME")


def test_scorepad_lang_still_chooses_and_lang_after_the_command_wins() -> None:
    sample = ROOT / "sample_sessions/standard-friday.csv"
    environ = {"SCOREPAD_LANG": "de"}
    runner = CliRunner()
    german = runner.invoke(cli, ["-f", str(sample), "standings"], env=environ)
    assert german.stdout.endswith("39 Spiele (Regeln standard).\n")
    english = runner.invoke(cli, ["-f", str(sample), "standings", "--lang", "en"], env=environ)
    assert english.stdout.endswith("39 hands (standard rules).\n")


def test_a_bad_lang_after_the_command_is_a_usage_error() -> None:
    result = en("status", "--lang", "fr")
    assert result.exit_code == 2
    assert "'fr' is not one of 'en', 'de'" in result.stderr


def test_lang_after_the_command_keeps_machine_output_english() -> None:
    sample = ROOT / "sample_sessions/bavarian-evening.csv"
    for args in (["sheet", "--format", "csv"], ["standings", "--format", "json"]):
        assert en("-f", sample, *args, "--lang", "de").stdout == en("-f", sample, *args).stdout


# --- no English left in German output ---------------------------------------------------------

ENGLISH = re.compile(
    r"\b(the|and|with|of|is|are|was|hands?|picker|won|lost|points|total|round|rounds|tables?|"
    r"done|playing|remainder|places?|provisional|card|tricks|plays|rules|next|none|seats|"
    r"dealer|record|from|high score)\b",
    re.IGNORECASE,
)
ALLOWED = re.compile(
    r"double on the bump|scorepad(?: -f \S+)?(?: [a-z-]+)*(?: \.\.\.)?|[a-z_.0-9]+=[a-z0-9-]+|"
    r"solos, best-round, name|\S*/\S*"
)


def english_words(text: str) -> list[str]:
    """The common English words in a German text (what a program or a rule reads put aside:
    commands, settings as `key=value`, paths)."""
    return ENGLISH.findall(ALLOWED.sub(" ", text))


@pytest.mark.parametrize(
    "hand_file", sorted(p.name for p in (ROOT / "sample_sessions/hands").glob("*.txt"))
)
def test_replay_speaks_german_throughout(hand_file: str) -> None:
    result = de("replay", ROOT / "sample_sessions/hands" / hand_file)
    assert result.exit_code in (0, 1), result.output
    assert english_words(result.stdout) == [], result.stdout


def test_replay_names_the_game_and_its_suit_in_german() -> None:
    out = de("replay", ROOT / "sample_sessions/hands/bavarian-farbgeier.txt").stdout
    assert "Vroni sagt an und spielt Farbgeier Eichel." in out
    out = en("replay", ROOT / "sample_sessions/hands/bavarian-farbgeier.txt").stdout
    assert "Vroni declares and plays a farbgeier C." in out
    out = de("replay", ROOT / "sample_sessions/hands/bavarian-ramsch.txt").stdout
    assert "Augen (Stiche): Anni 25 (1), Bertl 59 (4), Sepp 36 (3), Vroni 0 (0)." in out


def _cup(tmp_path: Path) -> Path:
    cup = tmp_path / "cup"
    en("tournament", "new", cup, "--name", "Club Cup", "--rules", "preis", "--players",
       "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias", "--rounds", "2", "--hands", "1",
       "--seed", "7", "--entry", "10", "--currency", "€", "--payout", "50,30,20")  # fmt: skip
    return cup


def test_the_tournament_speaks_german(tmp_path: Path) -> None:
    cup = _cup(tmp_path)
    drawn = de("tournament", "draw", cup, "--sheets")
    assert drawn.exit_code == 0, drawn.output
    sheet = (cup / "round-1" / "table-1.txt").read_text(encoding="utf-8")
    assert sheet.startswith("Club Cup: Runde 1, Tisch 1 (Regeln preis, 1 Spiel)\n")
    assert "Erster Geber: Franz" in sheet and "\nStand " in sheet
    en("-f", cup / "round-1/table-1.csv", "hand", "--picker", "Hias", "--game", "solo",
       "--points", "70")  # fmt: skip
    outputs = {"draw": drawn.stdout, "sheet": sheet}
    for command in ("status", "standings", "payout"):
        result = de("tournament", command, cup)
        assert result.exit_code == 0, result.output
        outputs[command] = result.stdout
    assert "läuft" in outputs["status"] and "fertig" in outputs["status"]
    assert "Vorläufig" in outputs["payout"] and "Rest: 0,00 €." in outputs["payout"]
    assert "50 %" in outputs["payout"] and "Platz 1" in outputs["payout"]
    for name, text in outputs.items():
        assert english_words(text) == [], (name, text)


def test_the_tournaments_english_is_as_it_was(tmp_path: Path) -> None:
    cup = _cup(tmp_path)
    en("tournament", "draw", cup, "--sheets")
    sheet = (cup / "round-1" / "table-1.txt").read_text(encoding="utf-8")
    assert sheet == (
        "Club Cup: round 1, table 1 (preis rules, 1 hand)\n"
        "Seats: Hias, Dori, Anni, Franz. First dealer: Franz; the deal passes to the left.\n"
        f"Record each hand with: scorepad -f {cup}/round-1/table-1.csv hand ...\n"
        "\n"
        "Hand  Dealer  Game            Hias    Dori    Anni   Franz\n"
        "----  ------  ------------  ------  ------  ------  ------\n"
        "   1  ______  ____________  ______  ______  ______  ______\n"
        "\n"
        "Total                       ______  ______  ______  ______\n"
    )
    payout = en("tournament", "payout", cup).stdout
    assert "Provisional: the tournament is not over." in payout and "places 1-8" in payout
    assert payout.endswith("Remainder: €0.00.\n")


def test_the_stored_rules_summary_is_worded_in_german_and_kept_in_english(tmp_path: Path) -> None:
    path = tmp_path / "abend.csv"
    made = de("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed", "--set", "base=2")
    assert made.exit_code == 0, made.output
    assert "Regeln: standard, mit base=2." in made.stdout
    assert '"standard, with base=2"' in path.read_text(encoding="utf-8")  # (the file's own)
    assert "Regeln:         standard, mit base=2\n" in de("-f", path, "status").stdout
    assert "Rules:     standard, with base=2\n" in en("-f", path, "status").stdout
    rules_file = tmp_path / "haus.toml"
    rules_file.write_text('preset = "standard"\nname = "haus"\n', encoding="utf-8")
    other = tmp_path / "haus.csv"
    de("-f", other, "new", "--players", "A,B,C,D,E", "--rules", rules_file, "--set", "base=3")
    status = de("-f", other, "status").stdout
    assert f"haus ({rules_file}, nach standard), mit base=3" in status, status


def test_the_presets_are_described_in_german() -> None:
    out = de("rules", "bavarian").stdout
    assert out.startswith("Regeln: bavarian. Bayerischer Schafkopf zu 10/50 ct")
    assert en("rules", "bavarian").stdout.startswith("Rules: bavarian. Bavarian Schafkopf at")


def test_the_german_board_describes_the_last_hands_in_german(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient

    from scorepad.web.app import Board, create_app

    sample = ROOT / "sample_sessions/house-rules.csv"
    with TestClient(create_app(Board(sample, poll=0.05)), base_url="http://127.0.0.1") as client:
        english = client.get("/api/state").json()
        german = client.get("/api/state", params={"lang": "de"}).json()
        page = client.get("/", headers={"accept-language": "de"}).text
    assert english["recent"][0]["played"] == "Dee + Cy 116, schneider, last hand"
    assert german["recent"][0]["played"] == "Dee + Cy 116, Schneider, letztes Spiel"
    assert german["rules_in_force"]["summary"].startswith("pagat, mit all_pass=schwanzer")
    assert english["rules_in_force"]["summary"].startswith("pagat, with all_pass=schwanzer")
    for hand in german["recent"]:
        assert english_words(hand["played"]) == [], hand["played"]
    # the keys and what a program compares stay English: only the text differs
    assert german.keys() == english.keys()
    assert {k for k in english if english[k] != german[k]} == {"recent", "rules_in_force"}
    for mine, theirs in zip(german["recent"], english["recent"], strict=True):
        assert {k for k in mine if mine[k] != theirs[k]} <= {"played"}
        assert mine["marks"] == theirs["marks"]
    assert '"/api/state" + LANG' in page and 'lang="de"' in page  # (the page asks in German)


def test_a_hand_entered_on_the_german_board_is_described_in_german(night: Path) -> None:
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient

    from scorepad.web.app import Board, create_app

    board = Board(night, allow_entry=True, token="secret-token", poll=0.05)
    headers = {"authorization": "Bearer secret-token"}
    hand = {"picker": "Ann", "partners": ["Bob"], "points": 64}
    with TestClient(create_app(board), base_url="http://127.0.0.1") as client:
        client.get("/", headers={"accept-language": "de"})
        german = client.post("/api/hands?lang=de", json=hand, headers=headers).json()
        english = client.post("/api/hands", json={**hand, "points": 70}, headers=headers).json()
    assert german["played"].startswith("Ann + Bob 64"), german
    assert english["played"].startswith("Ann + Bob 70"), english
    assert "worded" not in german and "worded" not in english
    assert german["marks"] == [] and german.keys() == english.keys()


def _entering(path: Path, language: str | None = None) -> Any:
    """A client of the board of `path`, entry on (its token in `ENTRY`)."""
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient

    from scorepad.web.app import Board, create_app

    board = Board(path, allow_entry=True, token="secret-token", poll=0.05)
    board.language = language
    return TestClient(create_app(board), base_url="http://127.0.0.1")


ENTRY = {"authorization": "Bearer secret-token"}


def test_an_undo_on_the_german_board_says_what_it_took_back_in_german(night: Path) -> None:
    hand = {"picker": "Ann", "partners": ["Bob"], "points": 64}
    with _entering(night) as client:
        client.get("/", headers={"accept-language": "de"})  # (a German page is open)
        assert client.post("/api/hands", json=hand, headers=ENTRY).status_code == 201
        undone = client.post("/api/undo?lang=de", json={}, headers=ENTRY)
        redone = client.post("/api/redo?lang=de", json={}, headers=ENTRY)
        english = client.post("/api/undo", json={}, headers=ENTRY)
        by_header = client.post("/api/redo", json={}, headers={**ENTRY, "accept-language": "de"})
        page = client.get("/", headers={"accept-language": "de"}).text
    assert undone.status_code == 201 and undone.json()["undone"] == "Spiel 1", undone.text
    assert redone.json()["redone"] == "Spiel 1"
    assert english.json()["undone"] == "the restoring of hand 1"  # (English, as before)
    assert by_header.json()["redone"] == "die Wiederherstellung von Spiel 1"  # (its voiding)
    for answer in (undone, redone, english, by_header):
        assert "worded" not in answer.json()
    # the keys, and what a program compares, are English in both languages
    assert undone.json().keys() == english.json().keys()
    assert undone.json()["note"] == "undo on the board"
    assert '"⟦Undid ⟧"' not in page and '"Zurückgenommen: " + data.undone' in page


def test_the_bock_round_an_undo_takes_back_is_worded_in_german(night: Path) -> None:
    assert de("-f", night, "bock").exit_code == 0
    undone = de("-f", night, "undo")
    assert undone.exit_code == 0, undone.output
    assert undone.stdout.startswith("Zurückgenommen: die Bockrunde aus Zeile 4.\n")
    redone = en("-f", night, "redo")
    assert redone.stdout.startswith("Redid the Bock round of line 4.\n"), redone.stdout


def test_a_refused_entry_says_why_in_the_readers_language(night: Path) -> None:
    before = night.read_bytes()
    unknown = {"picker": "Zed", "points": 64}
    with _entering(night) as client:
        german = client.post("/api/undo?lang=de", json={}, headers=ENTRY)
        english = client.post("/api/undo", json={}, headers=ENTRY)
        asked = client.post("/api/redo", json={}, headers={**ENTRY, "accept-language": "de-AT"})
        hand_de = client.post(
            "/api/hands", json=unknown, headers={**ENTRY, "accept-language": "de"}
        )
        hand_en = client.post("/api/hands", json=unknown, headers=ENTRY)
        token = client.post("/api/undo?lang=de", json={})
    with _entering(night, "de") as client:  # serve --lang de: its language, unless asked
        board_de = client.post("/api/undo", json={}, headers=ENTRY)
        asked_en = client.post("/api/undo?lang=en", json={}, headers=ENTRY)
    assert night.read_bytes() == before  # nothing was written
    nothing = "there is nothing to undo: no change recorded yet, or every one undone"
    assert english.status_code == 422 and english.json() == {"error": nothing}
    assert asked_en.json() == {"error": nothing}
    assert german.status_code == 422
    none_de = "es gibt nichts zurückzunehmen: noch keine Änderung aufgeschrieben, oder jede"
    assert german.json() == board_de.json() == {"error": f"{none_de} schon zurückgenommen"}
    assert asked.json()["error"].startswith("es gibt nichts zu wiederholen")
    assert hand_de.status_code == hand_en.status_code == 422
    # (an input by its JSON key, in either language)
    assert hand_de.json() == {
        "error": "picker Zed: unbekannter Spieler; Spieler: Ann, Bob, Cy, Dee, Ed"
    }
    assert hand_en.json()["error"].startswith("picker Zed: ")
    assert hand_en.json()["error"] != hand_de.json()["error"]
    assert token.status_code == 403 and "das Token" in token.json()["error"]


def test_tournament_serve_has_lang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from starlette.testclient import TestClient

    served: list[Any] = []
    monkeypatch.setattr("scorepad.cli.serve.run_board", lambda board, *a: served.append(board))
    cup = _cup(tmp_path)
    en("tournament", "draw", cup)
    result = en("tournament", "serve", cup, "--port", "0", "--lang", "de")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Club Cup ({cup}) wird unter http://")  # (as every --lang)
    (board,) = served
    assert board.language == "de"
    with TestClient(board.app(), base_url="http://127.0.0.1") as client:
        page = client.get("/", headers={"accept-language": "en-US"})
        state = client.get("/api/state", params={"lang": "de"}).json()
    assert page.headers["content-language"] == "de" and '<html lang="de">' in page.text
    assert "⟦" not in page.text and "<h2>Stand</h2>" in page.text
    assert state["progress"].startswith("Runde 1 von 2: 0 von 2 Tischen fertig")
    assert "--lang de|en" in en("tournament", "serve", "--help").stdout


def test_a_german_night_reads_german_throughout(tmp_path: Path) -> None:
    path = tmp_path / "abend.csv"
    for args in (
        ["new", "--players", "Ann,Bob,Cy,Dee,Ed", "--set", "base=2"],
        ["hand", "--picker", "Ann", "--partner", "Bob", "--points", "64"],
        ["hand", "--leaster", "--winner", "Dee"],
        ["hand", "--picker", "Cy", "--alone", "--points", "95", "--crack", "Bob"],
        ["amend", "1", "--points", "70"],
        ["void", "2", "--reason", "Zählfehler"],
    ):
        result = de("-f", path, *args)
        assert result.exit_code == 0, result.output
        assert english_words(result.stdout) == [], result.stdout
    for command in ("sheet", "log", "status", "standings", "stats", "verify"):
        result = de("-f", path, command)
        assert result.exit_code == 0, result.output
        assert english_words(result.stdout) == [], (command, result.stdout)
    sheet = de("-f", path, "sheet").stdout
    assert "Ann + Bob 70 (berichtigt)" in sheet and "Leaster: Dee (gestrichen)" in sheet
    checked = de("check", "--players", "A,B,C,D,E", "--picker", "A", "--partner", "B",
                 "--points", "64").stdout  # fmt: skip
    assert "es wird angenommen, dass jede Partei einen Stich gemacht hat." in checked


# --- play ----------------------------------------------------------------------------------


def test_play_in_german_takes_the_changes_in_german_words_and_english_ones(night: Path) -> None:
    answers = [
        "?",  # the help, naming the German words
        "Ann", "Bob", "", "70", "4", "", "",  # hand 1: Ann + Bob 70, recorded
        "zurück",  # undoes it
        "kommt Flo",  # a sixth sits down
        "geht Flo",  # and leaves
        "streichen",  # (no hand's number: asked again)
        "strafe Ed 2 an Ann",  # hand 2, a penalty
        "Rueckgaengig",  # undoes it (any case, ae for ä)
        "Ann", "Cy", "", "64", "", "", "",  # hand 3
        "ändern 3 --points 80",
        "undo",  # the English word keeps working
        "",
    ]  # fmt: skip
    result = de("-f", night, "play", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "    zurück [GRUND]  " in out and "    strafe NAME N  " in out  # (the help)
    assert "Zurückgenommen: Spiel 1." in out and "Zurückgenommen: Spiel 2." in out
    assert "Flo setzt sich an den Tisch." in out and "Flo verlässt den Tisch." in out
    assert "Spiel 2: eine Strafe: Ed zahlt 2 an Ann." in out
    assert "Zurückgenommen: die Berichtigung von Spiel 3." in out
    assert "schreib: streichen N (die Nummer des Spiels), z. B. streichen 3" in result.stderr
    sheet = json.loads(en("-f", night, "sheet", "--format", "json").stdout)["hands"]
    assert [(h["hand"], h["void"], h["points"]) for h in sheet] == [
        (1, True, 70),
        (2, True, None),
        (3, False, 64),
    ], sheet


def test_play_in_english_takes_no_german_words(night: Path) -> None:
    result = en("-f", night, "play", input="zurück\n\n")
    assert result.exit_code == 0, result.output
    assert "Undid" not in result.stdout and "zurück" in result.stderr  # (no such player)
    assert "    undo [REASON]     reverse" in en("-f", night, "play", input="?\n\n").stdout


# --- one hand, one Spiel ------------------------------------------------------------------


def test_one_hand_is_singular_in_both_languages(tmp_path: Path) -> None:
    args = ["tournament", "new", tmp_path / "cup", "--name", "Cup", "--rules", "preis",
            "--rounds", "2", "--players", "Anni,Bertl,Christl,Dori,Evi,Franz,Gustl,Hias",
            "--hands", "1"]  # fmt: skip
    german = de(*args)
    assert german.exit_code == 0, german.output
    assert ", 2 Runden zu 1 Spiel an Tischen zu 4 " in german.stdout, german.stdout
    assert "Spiel(en)" not in german.stdout
    drawn = de("tournament", "draw", tmp_path / "cup")
    assert "(0 Paarungen wiederholt;" in drawn.stdout, drawn.stdout
    english = en(*[str(a).replace("cup", "cup2") for a in args])
    assert ", 2 rounds of 1 hand at tables of 4 " in english.stdout, english.stdout
    night = tmp_path / "abend.csv"
    en("-f", night, "new", "--players", "Ann,Bob,Cy,Dee,Ed")
    en("-f", night, "hand", "--picker", "Ann", "--partner", "Bob", "--points", "64")
    rated = en("rating", night, "--min-hands", "1")
    assert "1 file; " in rated.stdout, rated.stdout
    assert "1 Datei; " in de("rating", night, "--min-hands", "1").stdout
    many = de("rating", night, "--min-hands", "2").stdout
    assert "Unter 2 Spielen ohne Rang" in many, many


# --- click's messages, through the standard library's gettext ------------------------------


@pytest.mark.parametrize(
    ("args", "german"),
    [
        (["standings", "extra1"], "Unerwartetes zusätzliches Argument (extra1);"),
        (["standings", "extra1", "extra2"], "Unerwartete zusätzliche Argumente (extra1 extra2);"),
        (
            ["sheet", "--frmat", "csv"],
            "Eine Option '--frmat' gibt es nicht. Meinst du '--format'?;",
        ),
        (["standings", "--format"], "Option '--format' braucht ein Argument"),
        (["check", "--players", "A,B,C,D,E", "--game", "x"], "'x' ist keins von 'partner', "),
        (["check", "--players", "A,B,C,D,E", "--points", "x"], "'x' ist keine gültige ganze Zahl"),
    ],
)
def test_clicks_own_messages_and_their_plurals_are_german(args: list[str], german: str) -> None:
    result = de(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("Fehler: ") and german in result.stderr, result.stderr
    assert "Fehler" not in en(*args).stderr


def test_a_plural_declared_as_a_pair_of_messages_is_german() -> None:
    # (scoring's words for a count are declared `N_(one), N_(many)`, not as one plural entry)
    args = ["check", "--players", "Ann,Bob,Cy,Dee,Ed", "--picker", "Ann", "--partner", "Bob"]
    result = de(*args, "--points", 70)
    assert "Spieler Ann bekommt den Rest, (3 Gegenspieler - 1 Partner) x 1 = 2.\n" in result.stdout


def test_english_after_german_gives_gettext_back_as_the_process_found_it() -> None:
    import gettext
    import os

    from scorepad.cli import _language

    de("standings", "extra1")
    assert gettext.textdomain() == "scorepad" and os.environ["LANGUAGE"] == "de"
    import click.core  # (click is left as it is: its messages are gettext's)

    assert vars(click.core)["_"] is gettext.gettext
    assert vars(click.core)["ngettext"] is gettext.ngettext
    assert en("standings", "extra1").stderr.startswith("Error: Got unexpected extra argument")
    assert (gettext.textdomain(), os.environ.get("LANGUAGE")) == _language._FOUND[0]
    assert _language._FOUND[0][0] == "messages"  # (gettext's default)


def test_the_helps_placeholders_are_german(run: Run) -> None:
    """Issue 40: `--file DATEI`, `--wait SEKUNDEN`, `--dealer NAME` in German help; English
    keeps FILE and SECONDS."""
    german = run("--lang", "de", "--help").stdout
    assert "  -f, --file DATEI  " in german and "  --wait SEKUNDEN  " in german
    assert "  --dealer NAME  " in run("--lang", "de", "hand", "--help").stdout
    english = run("--help").stdout
    assert "  -f, --file FILE  " in english and "  --wait SECONDS  " in english


def test_a_schafkopf_table_hears_of_no_doubler() -> None:
    """Issue 40, item 13: no Doubler at a Schafkopf table (status, in either language); a
    Sheepshead table keeps its line, and the JSON key stays for programs."""
    bavarian = ROOT / "sample_sessions/bavarian-evening.csv"
    friday = ROOT / "sample_sessions/standard-friday.csv"
    for said in (de("-f", bavarian, "status"), en("-f", bavarian, "status")):
        assert said.exit_code == 0 and "Bertl +670" in said.stdout  # (the lines around it)
        assert "Doubler" not in said.stdout
    assert "Doublers:  none pending" in en("-f", friday, "status").stdout
    status = json.loads(en("-f", bavarian, "status", "--format", "json").stdout)
    assert status["doublers_pending"] == 0


def test_the_base_value_of_each_game_is_named_in_its_own_case() -> None:
    """Issue 40, item 13: "Grundwert des Rufspiels" (a message for each game, not the game's
    key in a sentence); English as it was."""
    bavarian = ROOT / "sample_sessions/bavarian-evening.csv"
    german, english = de("-f", bavarian, "rules").stdout, en("-f", bavarian, "rules").stdout
    assert re.search(r"game_values\.partner +10 +Schafkopf: Grundwert des Rufspiels\n", german)
    assert re.search(r"game_values\.hochzeit +\d+ +Schafkopf: Grundwert der Hochzeit\n", german)
    assert "Grundwert eines Spiels" not in german
    assert "Schafkopf: base value of a partner game" in english


def test_play_in_german_takes_allein_for_a_hand_alone(night: Path) -> None:
    """Issue 40, item 13: the question offers 'allein', and the answer counts (so the catalog
    need not ask for the English word); 'alone' still works."""
    result = de("-f", night, "play", input="Ann\nallein\n70\n4\n\n\nBob\nalone\n40\n2\n\n\n\n")
    assert result.exit_code == 0, result.output
    assert "Partner? (Bob, Cy, Dee, Ed, allein)" in result.stdout
    sheet = json.loads(en("-f", night, "sheet", "--format", "json").stdout)["hands"]
    assert [(h["picker"], h["alone"]) for h in sheet] == [("Ann", True), ("Bob", True)], sheet


def test_play_in_german_offers_the_stock_and_takes_it(tmp_path: Path) -> None:
    """Issue 40, item 13: Stock (never pot): at a table whose all pass into the Stock, play
    offers 'Stock' and records a hand into it; 'pot' still works."""
    path = tmp_path / "stock.csv"
    players = "Anni,Bertl,Sepp,Vroni"
    assert en("-f", path, "new", "--players", players, "--rules", "bavarian",
              "--set", "all_pass=pot").exit_code == 0  # fmt: skip
    result = de("-f", path, "play", input="Stock\n\npot\n\n\n")
    assert result.exit_code == 0, result.output
    assert "4 Vroni, Stock; ? für mehr" in result.stdout and ", pot;" not in result.stdout
    sheet = json.loads(en("-f", path, "sheet", "--format", "json").stdout)["hands"]
    assert [h["kind"] for h in sheet] == ["pot", "pot"]


def test_large_numbers_in_german_messages_are_grouped_with_points(tmp_path: Path) -> None:
    """A limit in a message reads 1.000.000 in German (1,000,000 in English)."""
    path = tmp_path / "night.csv"
    assert en("-f", path, "new", "--players", "Anni,Bertl,Sepp,Vroni").exit_code == 0
    for say, grouped in ((de, "1.000.000"), (en, "1,000,000")):
        penalty = say("-f", path, "penalty", "Anni", "--points", "99999999999")
        setting = say("-f", path, "set", "run_value=999999999999")
        assert penalty.exit_code != 0 and f"1 {'bis' if say is de else 'to'} {grouped} " in (
            penalty.stderr
        )
        assert setting.exit_code != 0 and setting.stderr.rstrip().endswith(grouped)


def test_a_sie_is_explained_with_the_games_german_names() -> None:
    """Issue 40, item 13: no game key in a German sentence ("doppelt ein Solo Tout")."""
    args = ("check", "--rules", "bavarian", "--players", "A,B,C,D", "--picker", "A", "--game",
            "sie", "--points", "120", "--tricks", "8", "--explain")  # fmt: skip
    assert "Spielwert: eine Sie ist doppelt ein Solo Tout: 2 x" in de(*args).stdout
    assert "Game value: a sie is twice a solo-tout: 2 x" in en(*args).stdout
