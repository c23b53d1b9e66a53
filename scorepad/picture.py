"""The chart of a night's running totals as an image file: PNG and the other raster formats
drawn with Pillow (imported only to draw one), SVG written as plain markup (no Pillow).

Both draw the same layout, in the pixels of a 1000 by 500 picture: the title, the frame with
round ticks on both axes ("hand", "game points"), faint lines at the ticks, the zero line,
each player's running total as a step line in a colour of their own, and the legend beside
the frame, where it covers no hand."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .errors import ScorepadError
from .i18n import decimal_text
from .i18n import gettext as _

if TYPE_CHECKING:
    from PIL import ImageFont

Series = Mapping[str, tuple[Sequence[int], Sequence[int]]]

# The formats by suffix: Pillow's name for each raster one.
RASTER = {
    ".png": "PNG",
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".webp": "WEBP",
    ".gif": "GIF",
    ".bmp": "BMP",
    ".tif": "TIFF",
    ".tiff": "TIFF",
    ".pdf": "PDF",
}
SUFFIXES = (".png", ".svg", ".pdf", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tif", ".tiff")

WIDTH, HEIGHT = 1000, 500
# matplotlib's colours (its "tab10"), the ones the chart had before it drew with Pillow
COLORS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
)  # fmt: skip
INK, FAINT, ZERO = "#262626", "#ebebeb", "#9a9a9a"
TITLE, LABEL, TICK = 18, 14, 12  # font sizes, in pixels
# DejaVu Sans (matplotlib's font) cut to the Latin, Greek and Cyrillic letters: Pillow's own
# font has only ASCII, and a name like Bärbel must draw. Made from DejaVu Sans 2.35 by
#   pyftsubset DejaVuSans.ttf --no-hinting --layout-features=kern,liga --unicodes=U+0020-007E,
#     U+00A0-024F,U+0370-03FF,U+0400-04FF,U+1E00-1EFF,U+2010-2027,U+2030-203A,U+20AC,U+2212
FONT = Path(__file__).parent / "fonts" / "DejaVuSans.ttf"
SVG_FONTS = "'DejaVu Sans', Verdana, Arial, Helvetica, sans-serif"
EM = 0.62  # (DejaVu Sans's mean advance, in ems: how wide the SVG's text is taken to be)


def write_chart(path: Path, title: str, series: Series) -> None:
    """Draw each player's running total (`series`: hands and totals, ascending hands) into
    `path`, in the format its suffix names (one of `SUFFIXES`)."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        svg = _Svg()
        _draw(svg, _Layout(svg.width_of, title, series))
        data = svg.markup().encode("utf-8")
    else:
        data = _raster(RASTER[suffix], title, series, path)
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise ScorepadError(
            _("{file}: cannot write: {reason}").format(file=path, reason=exc.strerror or exc)
        ) from None


def whole_ticks(low: int, high: int, rows: int = 15) -> list[int]:
    """Ticks for a chart's axis of game points: whole numbers a round step apart (1, 2 or 5
    times a power of ten), at most about eight between `low` and `high`, and at least one and a
    half of the chart's `rows` apart (two ticks on one row would show only one of them)."""
    span = high - low
    step = 1
    while span // step > 8 or step * max(rows, 1) * 2 < span * 3:  # (1, 2, 5, 10, 20, 50, ...)
        step = step * 5 // 2 if str(step).startswith("2") else step * 2
    first = -(-low // step) * step  # (the first multiple of step at or above low)
    return list(range(first, high + 1, step)) or [low]


def _number(value: int) -> str:
    """A tick's number as the language writes it (1,000 or 1.000), with a true minus sign."""
    return decimal_text(f"{abs(value):,}") if value >= 0 else "\u2212" + _number(-value)


class _Layout:
    """Where everything goes, in the picture's pixels, for text as wide as `width_of` says."""

    def __init__(self, width_of: Callable[[str, int], float], title: str, series: Series):
        self.width_of = width_of
        self.series = list(series.values())
        self.title, self.title_size = self._fit(title, TITLE, WIDTH - 40, smallest=11)
        last = max((hands[-1] for hands, _ in series.values() if hands), default=0)
        low = min((min(values) for _, values in series.values() if values), default=0)
        high = max((max(values) for _, values in series.values() if values), default=0)
        low, high = min(low, 0), max(high, 0)
        # the legend: a line and a name per player, beside the frame, in columns if need be
        self.rows = max(1, (HEIGHT - 100) // 22)
        columns = -(-len(series) // self.rows)
        room = min(180, WIDTH * 2 // 5 // columns - 44)  # (the legend takes at most 2/5)
        names = [self._fit(p, LABEL, room)[0] for p in series]
        name_width = max((width_of(n, LABEL) for n in names), default=0)
        self.legend_column = 30 + math.ceil(name_width) + 14
        self.legend = [(n, COLORS[k % len(COLORS)]) for k, n in enumerate(names)]
        # the frame: room for the title above, the ticks' numbers and the labels around
        self.top, self.bottom = 50, HEIGHT - 58
        plot_height = self.bottom - self.top
        rough = whole_ticks(low, high, plot_height // 16)
        step = rough[1] - rough[0] if len(rough) > 1 else 1
        self.low = math.floor(low / step) * step if low < 0 else 0
        self.high = math.ceil(high / step) * step if high > 0 else 0
        if self.low == self.high:  # (a night of no points: an axis around zero)
            self.low, self.high = -1, 1
        self.y_ticks = list(range(self.low, self.high + 1, step))
        tick_width = max(width_of(_number(t), TICK) for t in self.y_ticks)
        self.left = 16 + LABEL + 12 + math.ceil(tick_width) + 10
        self.right = WIDTH - 16 - columns * self.legend_column
        self.last = max(last, 1)
        self.x_ticks = whole_ticks(0, self.last, (self.right - self.left) // 60)

    def _fit(
        self, text: str, size: int, room: float, smallest: int | None = None
    ) -> tuple[str, int]:
        """`text` at `size` (smaller, down to `smallest`, if it is too wide for `room`) and,
        if it is still too wide, cut short with an ellipsis."""
        while size > (smallest or size) and self.width_of(text, size) > room:
            size -= 1
        if self.width_of(text, size) <= room:
            return text, size
        while len(text) > 1 and self.width_of(text + "…", size) > room:
            text = text[:-1]
        return text.rstrip() + "…", size

    def x(self, hand: float) -> float:
        pad = 8  # (the first and last hand stand off the frame)
        return self.left + pad + (self.right - self.left - 2 * pad) * hand / self.last

    def y(self, points: float) -> float:
        pad = 8
        span = self.high - self.low
        return self.bottom - pad - (self.bottom - self.top - 2 * pad) * (points - self.low) / span

    def steps(self, hands: Sequence[int], values: Sequence[int]) -> list[tuple[float, float]]:
        """A player's step line (each total held until the next hand), in pixels: of the
        corners that fall in one half of a pixel's column, the first, the lowest, the
        highest and the last (they draw what all of them would)."""
        line: list[tuple[float, float]] = []
        column: list[tuple[float, float]] = []
        at = None
        for hand, value in zip(hands, values):
            x, y = self.x(hand), self.y(value)
            if round(x * 2) != at:
                line += _extremes(column)
                column, at = [], round(x * 2)
            held = column or line  # (the last total, held until this hand)
            if held:
                column.append((x, held[-1][1]))
            column.append((x, y))
        return line + _extremes(column)


def _extremes(corners: list[tuple[float, float]]) -> list[tuple[float, float]]:
    if len(corners) <= 4:
        return corners
    kept = {0, len(corners) - 1}
    kept.add(min(range(len(corners)), key=lambda k: corners[k][1]))
    kept.add(max(range(len(corners)), key=lambda k: corners[k][1]))
    return [corners[k] for k in sorted(kept)]


class _Canvas(Protocol):
    def line(self, points: Sequence[tuple[float, float]], color: str, width: float) -> None: ...

    def text(
        self, xy: tuple[float, float], text: str, size: int, anchor: str, upright: bool = False
    ) -> None: ...

    def player(self, name: str, points: Sequence[tuple[float, float]], color: str) -> None: ...


def _draw(canvas: _Canvas, layout: _Layout) -> None:
    """The chart on `canvas`: what the two formats share."""
    left, right, top, bottom = layout.left, layout.right, layout.top, layout.bottom
    canvas.text((WIDTH / 2, 16), layout.title, layout.title_size, "mt")
    for tick in layout.y_ticks:
        y = layout.y(tick)
        if tick:
            canvas.line([(left, y), (right, y)], FAINT, 1)
        canvas.line([(left - 5, y), (left, y)], INK, 1)
        canvas.text((left - 8, y), _number(tick), TICK, "rm")
    for tick in layout.x_ticks:
        x = layout.x(tick)
        canvas.line([(x, bottom), (x, bottom + 5)], INK, 1)
        canvas.text((x, bottom + 8), _number(tick), TICK, "mt")
    canvas.line([(left, layout.y(0)), (right, layout.y(0))], ZERO, 1)
    canvas.text(((left + right) / 2, HEIGHT - 14), _("hand"), LABEL, "ms")
    canvas.text((16, (top + bottom) / 2), _("game points"), LABEL, "mt", upright=True)
    canvas.line([(left, top), (right, top), (right, bottom), (left, bottom), (left, top)], INK, 1)
    # (the first player's line on top: the legend's order)
    for (name, color), (hands, values) in reversed(list(zip(layout.legend, layout.series))):
        canvas.player(name, layout.steps(hands, values), color)
    for k, (name, color) in enumerate(layout.legend):
        column, row = divmod(k, layout.rows)
        x = right + 14 + column * layout.legend_column
        y = top + 10 + 22 * row
        canvas.line([(x, y), (x + 22, y)], color, 2)
        canvas.text((x + 30, y), name, LABEL, "lm")


class _Svg:
    """The chart as SVG markup, text in the viewer's own font (DejaVu Sans if it has it)."""

    def __init__(self) -> None:
        self.parts = [
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{SVG_FONTS}" fill="{INK}">\n'
            f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>\n'
        ]

    @staticmethod
    def width_of(text: str, size: int) -> float:
        return len(text) * size * EM

    def line(self, points: Sequence[tuple[float, float]], color: str, width: float) -> None:
        self.parts.append(
            f'<polyline points="{_points(points)}" fill="none" stroke="{color}" '
            f'stroke-width="{width:g}" shape-rendering="crispEdges"/>\n'
        )

    def player(self, name: str, points: Sequence[tuple[float, float]], color: str) -> None:
        self.parts.append(
            f'<polyline class="player" points="{_points(points)}" fill="none" '
            f'stroke="{color}" stroke-width="2" stroke-linejoin="round">'
            f"<title>{_escape(name)}</title></polyline>\n"
        )

    def text(
        self, xy: tuple[float, float], text: str, size: int, anchor: str, upright: bool = False
    ) -> None:
        x, y = xy
        # (from the anchor's line to the baseline: viewers differ on dominant-baseline)
        if upright:
            x += {"t": 0.76, "m": 0.35, "s": 0.0}[anchor[1]] * size
        else:
            y += {"t": 0.76, "m": 0.35, "s": 0.0}[anchor[1]] * size
        along = {"l": "start", "m": "middle", "r": "end"}[anchor[0]]
        turn = f' transform="rotate(-90 {x:.1f} {y:.1f})"' if upright else ""
        self.parts.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{along}"{turn}>'
            f"{_escape(text)}</text>\n"
        )

    def markup(self) -> str:
        return "".join(self.parts) + "</svg>\n"


def _escape(text: str) -> str:
    """`text` as XML's character data (xml.sax.saxutils's escape would import urllib)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _raster(kind: str, title: str, series: Series, path: Path) -> bytes:
    """The chart in Pillow's format `kind` (for `path`)."""
    try:
        import PIL.Image
    except ImportError:
        raise ScorepadError(
            _("--output needs Pillow, which is not installed: pip install 'scorepad[plot]'")
        ) from None
    # (the lines are level or upright: sharp at the picture's own pixels, which a larger
    # picture scaled down would blur, at four times the memory; a PDF is printed, and zoomed)
    canvas = _Pillow(2 if kind == "PDF" else 1)
    _draw(canvas, _Layout(canvas.width_of, title, series))
    # (100 pixels to the inch: 10 by 5 inches, as matplotlib's chart was; a PDF takes its
    # size from its resolution alone)
    options: dict[str, Any] = {"dpi": (100, 100)}
    if kind == "PDF":
        options = {"resolution": 100 * canvas.scale, "quality": 95}
    elif kind == "JPEG":
        options["quality"] = 95
    elif kind == "WEBP":
        options["lossless"] = True  # (smaller than lossy, for flat colours)
    elif kind == "TIFF":
        options["compression"] = "tiff_lzw"
    out = BytesIO()
    try:
        canvas.image.save(out, kind, **options)
    except (KeyError, OSError):  # (a Pillow built without the format's library)
        reason = f"Pillow {PIL.__version__} cannot write {kind}"
        raise ScorepadError(
            _("{file}: cannot write: {reason}").format(file=path, reason=reason)
        ) from None
    return out.getvalue()


class _Pillow:
    """The chart as a picture, drawn at `scale` times its size."""

    def __init__(self, scale: int) -> None:
        from PIL import Image, ImageDraw

        self.scale = scale
        self.image = Image.new("RGB", (WIDTH * scale, HEIGHT * scale), "white")
        self.draw = ImageDraw.Draw(self.image)
        self._fonts: dict[int, ImageFont.FreeTypeFont] = {}

    def font(self, size: int) -> ImageFont.FreeTypeFont:
        from PIL import ImageFont

        if size not in self._fonts:
            self._fonts[size] = ImageFont.truetype(FONT, size * self.scale)
        return self._fonts[size]

    def width_of(self, text: str, size: int) -> float:
        return self.font(size).getlength(text) / self.scale

    def _at(self, points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * self.scale, y * self.scale) for x, y in points]

    def line(self, points: Sequence[tuple[float, float]], color: str, width: float) -> None:
        self.draw.line(self._at(points), fill=color, width=round(width * self.scale))

    def player(self, name: str, points: Sequence[tuple[float, float]], color: str) -> None:
        self.draw.line(self._at(points), fill=color, width=2 * self.scale, joint="curve")

    def text(
        self, xy: tuple[float, float], text: str, size: int, anchor: str, upright: bool = False
    ) -> None:
        from PIL import Image, ImageDraw

        font = self.font(size)
        x, y = self._at([xy])[0]
        if not upright:
            self.draw.text((x, y), text, fill=INK, font=font, anchor=anchor)
            return
        # (upright text: drawn level on a mask of its own, turned a quarter, laid on with its
        # top at x)
        width = math.ceil(font.getlength(text))
        ascent, descent = font.getmetrics()
        level = Image.new("L", (width, ascent + descent), 0)
        ImageDraw.Draw(level).text((0, 0), text, fill=255, font=font, anchor="la")
        mask = level.rotate(90, expand=True)
        self.draw.bitmap((round(x), round(y - mask.height / 2)), mask, fill=INK)
