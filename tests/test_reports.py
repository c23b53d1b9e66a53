"""stats, season and chart, on nights made for the test and on the bundled samples."""

import json
from pathlib import Path
from typing import Protocol, cast

import pytest
from _types import Run
from click.testing import Result

SAMPLES = Path(__file__).parent.parent / "sample_sessions"


class Sp(Protocol):
    """The `night` fixture: `sp(*args)` runs `scorepad -f FILE ...` (asserting success);
    `sp.path` is FILE."""

    path: Path

    def __call__(self, *args: object) -> Result: ...


@pytest.fixture
def night(run: Run, tmp_path: Path) -> Sp:
    path = tmp_path / "night.csv"

    def succeeds(*args: object) -> Result:
        result = run("-f", path, *args)
        assert result.exit_code == 0, result.stderr
        return result

    sp = cast(Sp, succeeds)  # a function with an attribute: mypy types it by the protocol
    sp("new", "--players", "Ann,Bob,Cy,Dee,Ed")
    sp("hand", "--picker", "Ann", "--partner", "Bob", "--points", 95)  # schneider
    sp("hand", "--picker", "Cy", "--alone", "--points", 0, "--tricks", 0)  # no-trick
    sp("hand", "--leaster", "--winner", "Dee")
    sp("hand", "--picker", "Ann", "--partner", "Ed", "--points", 70)
    sp("hand", "--picker", "Bob", "--partner", "Cy", "--points", 20, "--tricks", 1)
    sp("void", "5")
    sp.path = path
    return sp


def test_stats_counts_every_kind_of_hand(night: Sp) -> None:
    data = json.loads(night("stats", "--format", "json").stdout)
    players = {p["player"]: p for p in data["players"]}
    ann, bob, cy, dee = players["Ann"], players["Bob"], players["Cy"], players["Dee"]
    assert data["hands"] == 4  # the voided hand counts for nothing
    assert (ann["picks"], ann["picker_wins"], ann["average_picker_points"]) == (2, 2, 82.5)
    assert ann["pick_rate"] == 0.5 and ann["picker_win_rate"] == 1.0
    assert bob["partner"] == 1 and bob["picks"] == 0
    assert ann["schneider_for"] == 1 and cy["schneider_against"] == 1
    assert cy["no_trick_against"] == 1 and ann["no_trick_for"] == 1
    assert dee["leasters_won"] == 1
    assert (cy["best"], cy["worst"]) == (-1, -12)  # alone without a trick: 4 x 3
    assert (ann["best"], ann["worst"]) == (4, -1)


def test_stats_text(night: Sp) -> None:
    lines = night("stats").stdout.splitlines()
    assert lines[0].split()[:4] == ["Player", "Hands", "Picks", "Pick"]
    ann = next(line for line in lines if line.startswith("Ann")).split()
    assert ann[:5] == ["Ann", "4", "2", "50%", "100%"]


def test_stats_on_every_sample(run: Run) -> None:
    for path in SAMPLES.glob("*.csv"):
        assert run("-f", path, "stats").exit_code == 0


def test_season_over_a_folder(run: Run, night: Sp, tmp_path: Path) -> None:
    other = tmp_path / "second.csv"
    run("-f", other, "new", "--players", "ann,Bob,Cy,Zed")
    run("-f", other, "hand", "--picker", "Zed", "--points", 80)
    data = json.loads(run("season", tmp_path, "--format", "json").stdout)
    assert data["nights"] == ["night", "second"]
    rows = {r["player"]: r for r in data["players"]}
    assert rows["Ann"]["nights"] == {"night": 4 + 3 - 1 + 2, "second": -1}  # names match
    assert rows["Zed"]["played"] == 1 and rows["Zed"]["nights"]["night"] is None
    assert rows["Ann"]["average"] == (rows["Ann"]["total"]) / 2


def test_season_text_has_a_column_per_night_and_totals(run: Run) -> None:
    out = run("season", SAMPLES / "standard-friday.csv", SAMPLES / "pagat-bump-and-cracks.csv")
    header = out.stdout.splitlines()[0].split()
    assert header == [
        "Player",
        "standard-friday",
        "pagat-bump-and-cracks",
        "Total",
        "Nights",
        "Average",
    ]


def test_season_refuses_a_bad_night_unless_skipped(run: Run, night: Sp, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("hand,kind\r\n")
    result = run("season", tmp_path)
    assert result.exit_code == 1 and "bad.csv:1:" in result.stderr
    assert "--skip-bad" in result.stderr
    skipped = run("season", tmp_path, "--skip-bad", "--format", "json")
    assert skipped.exit_code == 0 and "skipped" in skipped.stderr and "bad.csv" in skipped.stderr
    assert json.loads(skipped.stdout)["nights"] == ["night"]


def test_chart_in_the_terminal(night: Sp) -> None:
    out = night("chart", "--width", 60, "--height", 12).stdout
    assert "Running totals: night.csv" in out and "hand" in out
    for player in ("Ann", "Bob", "Cy", "Dee", "Ed"):
        assert player in out
    assert "\x1b[" not in out  # no colour codes when not on a terminal


@pytest.mark.parametrize(
    "suffix, magic",
    [
        (".png", b"\x89PNG"),
        (".svg", b"<?xml"),
        (".PNG", b"\x89PNG"),
        (".jpg", b"\xff\xd8\xff"),
        (".jpeg", b"\xff\xd8\xff"),
        (".webp", b"RIFF"),
        (".gif", b"GIF8"),
        (".bmp", b"BM"),
        (".tiff", b"II*\x00"),
        (".pdf", b"%PDF"),
    ],
)
def test_chart_as_an_image(night: Sp, tmp_path: Path, suffix: str, magic: bytes) -> None:
    image = tmp_path / f"chart{suffix}"
    assert night("chart", "--output", image).stdout == f"Wrote {image}.\n"
    assert image.read_bytes().startswith(magic)


def test_chart_as_a_png_is_a_picture_of_the_night(night: Sp, tmp_path: Path) -> None:
    from PIL import Image

    image = tmp_path / "chart.png"
    night("chart", "--output", image)
    with Image.open(image) as picture:
        assert (picture.format, picture.size, picture.mode) == ("PNG", (1000, 500), "RGB")
        colors = {color for _, color in picture.getcolors(1_000_000) or []}
    # each player's line in a colour of their own (matplotlib's first five)
    for color in ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"):
        assert tuple(int(color[k : k + 2], 16) for k in (1, 3, 5)) in colors, color


def _svg(path: Path) -> tuple[list[str], list[str]]:
    """The players' lines (by the name each carries) and every text of an SVG chart."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(path).getroot()
    assert root.tag == f"{ns}svg" and root.get("viewBox") == "0 0 1000 500"
    lines = [
        line.findtext(f"{ns}title") or ""
        for line in root.iter(f"{ns}polyline")
        if line.get("class") == "player"
    ]
    return lines, [text.text or "" for text in root.iter(f"{ns}text")]


def test_chart_as_an_svg_has_a_line_and_a_name_per_player(night: Sp, tmp_path: Path) -> None:
    image = tmp_path / "chart.svg"
    night("chart", "--output", image)
    lines, texts = _svg(image)
    assert sorted(lines) == ["Ann", "Bob", "Cy", "Dee", "Ed"]
    assert {"Ann", "Bob", "Cy", "Dee", "Ed", "hand", "game points"} <= set(texts)
    assert "Running totals: night.csv (standard rules)" in texts


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_chart_image_of_one_hand_a_total_below_zero_and_names_not_ascii(
    run: Run, tmp_path: Path, suffix: str
) -> None:
    path, image = tmp_path / "night.csv", tmp_path / f"chart{suffix}"
    assert run("-f", path, "new", "--players", "Ann,Bärbel,Cy,Dee,Jürgen").exit_code == 0
    hand = ("hand", "--picker", "Ann", "--alone", "--points", 20, "--tricks", 1)  # Ann loses
    assert run("-f", path, *hand).exit_code == 0
    result = run("-f", path, "chart", "--output", image)
    assert result.exit_code == 0 and result.stdout == f"Wrote {image}.\n", result.stderr
    if suffix == ".svg":
        lines, texts = _svg(image)
        assert lines == ["Jürgen", "Dee", "Cy", "Bärbel", "Ann"]  # (the first drawn last: on top)
        assert {"Bärbel", "Jürgen"} <= set(texts)
        assert any(t.startswith("\u2212") for t in texts)  # a tick below zero
    else:
        from PIL import Image

        with Image.open(image) as picture:
            assert picture.size == (1000, 500)


def test_chart_image_of_no_hands_draws(run: Run, tmp_path: Path) -> None:
    path, image = tmp_path / "night.csv", tmp_path / "chart.png"
    assert run("-f", path, "new", "--players", "Ann,Bob,Cy,Dee,Ed").exit_code == 0
    assert run("-f", path, "chart", "--output", image).exit_code == 0
    assert image.read_bytes().startswith(b"\x89PNG")


def test_the_chart_font_draws_every_letter_of_german_names() -> None:
    """Pillow's own font has only ASCII: the chart's font draws umlauts, ß, the minus sign
    and the ellipsis, each as a glyph of its own (not the box of a letter it lacks)."""
    from PIL import ImageFont

    from scorepad.picture import FONT

    font = ImageFont.truetype(FONT, 24)

    def drawn(letter: str) -> bytes:
        return bytes(font.getmask(letter))

    missing = drawn("\u4e00")  # (a letter the font lacks: its box)
    for letter in "äöüÄÖÜßéñłøç\u2212…":
        assert drawn(letter) != missing, letter


def test_chart_image_without_pillow_says_how_to_get_it(
    night: Sp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, run: Run
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "PIL", None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    result = run("-f", night.path, "chart", "--output", tmp_path / "c.png")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: --output needs Pillow, which is not installed: pip install 'scorepad[plot]'\n"
    )
    assert not (tmp_path / "c.png").exists()
    # an SVG is written without it
    assert run("-f", night.path, "chart", "--output", tmp_path / "c.svg").exit_code == 0
    assert _svg(tmp_path / "c.svg")[0]


def test_chart_image_in_a_format_this_pillow_cannot_write_says_so(
    night: Sp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, run: Run
) -> None:
    from PIL import Image

    Image.init()
    monkeypatch.delitem(Image.SAVE, "WEBP")  # (as a Pillow built without libwebp)
    result = run("-f", night.path, "chart", "--output", tmp_path / "c.webp")
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: {tmp_path / 'c.webp'}: cannot write: Pillow ")
    assert result.stderr.endswith(" cannot write WEBP\n")
    assert not (tmp_path / "c.webp").exists()


@pytest.mark.parametrize("name", ["c.txt", "c.eps", "c", "c.png.bak"])
def test_chart_refuses_other_image_types(run: Run, night: Sp, tmp_path: Path, name: str) -> None:
    result = run("-f", night.path, "chart", "--output", tmp_path / name)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "Error: Invalid value for --output: the image must be one of these types: .png, .svg, "
        ".pdf, .jpg, .jpeg, .webp, .gif, .bmp, .tif, .tiff; see 'scorepad chart --help'\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night.csv"]


def test_the_chart_legend_stands_below_the_chart_at_any_height(night: Sp) -> None:
    out = night("chart", "--width", 60, "--height", 8).stdout.splitlines()
    assert out[-1].split() == ["oo", "Ann", "xx", "Bob", "++", "Cy", "**", "Dee", "##", "Ed"]
    assert not any("Ann" in line for line in out[:-1])  # nothing drawn over the hands


@pytest.mark.parametrize("width", ["23", "60", "101", "400"])
@pytest.mark.parametrize("color", [False, True])
def test_the_chart_of_a_long_night_kept_in_runs_is_the_chart_of_every_hand(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: str, color: bool
) -> None:
    """Past `RunningSeries.EVERY` hands the chart keeps runs of hands cut where a column of the
    plot may begin: it draws exactly what every hand would (here on 10,000 hands, the limit
    set low)."""
    import outputs_cases

    import scorepad.cli.reports
    from scorepad.reports import RunningSeries

    path = outputs_cases.bench_session(10_000, tmp_path / "long.csv")
    monkeypatch.setattr(scorepad.cli.reports, "use_color", lambda fmt: color)
    every = run("-f", path, "chart", "--width", width, "--height", "15")
    monkeypatch.setattr(RunningSeries, "EVERY", 100)
    kept = run("-f", path, "chart", "--width", width, "--height", "15")
    assert every.exit_code == kept.exit_code == 0
    assert kept.stdout == every.stdout


@pytest.mark.parametrize("width", [40, 120, 200])
def test_chart_draws_the_width_asked_for_past_the_terminal(
    run: Run, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # a terminal narrower than the chart asked for
    out = run("-f", SAMPLES / "standard-friday.csv", "chart", "--width", width).stdout
    lines = out.splitlines()[:-1]  # (the legend below is as long as the names)
    assert max(len(line) for line in lines) == width
    whole = "Running totals: standard-friday.csv (standard rules)"
    title = lines[0].strip()
    assert title == whole if width > 60 else (title.endswith("…") and whole.startswith(title[:-1]))


def test_a_long_chart_title_is_shortened_to_fit_not_left_out(run: Run) -> None:
    out = run("-f", SAMPLES / "standard-friday.csv", "chart", "--width", "30").stdout
    title = out.splitlines()[0].strip()
    assert title.startswith("Running totals: st") and title.endswith("…")
    assert len(out.splitlines()[0]) <= 30
