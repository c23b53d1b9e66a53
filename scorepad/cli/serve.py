"""`scorepad serve`: the live board (the optional extra `scorepad[serve]`)."""

import re
import socket
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import click

from .. import i18n
from ..errors import ScorepadError
from ..i18n import gettext as _
from ._common import (
    CONTEXT_SETTINGS,
    allow_host_option,
    host_option,
    max_listeners_option,
    open_session,
    page_language_option,
    port_option,
    session_file_option,
)
from ._money import currency_option, rate_option

if TYPE_CHECKING:
    from ..web.follow import LiveBoard

LOOPBACK = ("127.0.0.1", "localhost", "::1")
_HOST_NAME = re.compile(r"[A-Za-z0-9.:-]{1,253}|\*\.[A-Za-z0-9.-]{1,250}")


@click.command(context_settings=CONTEXT_SETTINGS)
@host_option
@port_option
@click.option(
    "--allow-entry",
    is_flag=True,
    help="Let the page record hands too (with the token, printed at start).",
)
@click.option(
    "--token",
    metavar="TOKEN",
    help="The token entry needs, 16 to 200 characters (default: a new random one of 24, "
    "printed at start). Wrong tokens from one address are throttled.",
)
@allow_host_option
@max_listeners_option
@rate_option(
    "Show the money and the settlement too, at this much a game point (as settle --rate; "
    "a Bavarian tariff is in cents: 0.01). Default: the table's rate; with none, no money."
)
@currency_option(
    "Currency symbol to show amounts with (up to 5 characters). Default: the table's "
    "currency, else $."
)
@click.option(
    "--hands",
    "hand_folders",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="DIR",
    help="A folder of hand files, for the analysis of the hands replay --record recorded "
    "(repeatable; default: the session file's folder and its hands/ subfolder).",
)
@page_language_option
@session_file_option
@click.pass_obj
def serve(
    path: Path,
    host: str,
    port: int,
    allow_entry: bool,
    token: str | None,
    allow_hosts: tuple[str, ...],
    max_listeners: int,
    rate: str | None,
    currency: str | None,
    hand_folders: tuple[Path, ...],
    language: str | None,
) -> None:
    """A live scoreboard of the session for every phone at the table (or the TV).

    Serves one page with the standings, the last hands, who deals next, the doublers pending,
    the rules in force and a running-totals chart; it updates by itself within a second of any
    change to the session file, whoever makes it. With --rate, or a table whose `rate` setting
    is set (the bavarian preset's: 0.01 EUR), it shows each player's money and who pays whom,
    as `settle` does. With --allow-entry the page can record hands
    and undo the last change too, given the token (as `Authorization: Bearer TOKEN` or the
    link printed at start); without the token it shows no entry form.

    A hand of the last hands opens in a view of its own. One that `replay --record` recorded
    offers its open-card analysis there (as `analyze` prints it), its hand file found by its
    digest in the --hands folders; one analysis runs at a time.

    It listens on this machine only unless --host says otherwise. It answers only to this
    machine's own names and addresses (a web page elsewhere cannot read it through a name of
    its own); --allow-host adds a name. Slow or idle clients are cut off (10 s to send a
    request, 5 s idle between requests, at most 512 connections, of them at most
    --max-listeners listening to the live events). Needs the extra:
    pip install 'scorepad[serve]'. Stop it with Ctrl-C.

    Examples:

    \b
        scorepad serve
        scorepad -f friday.csv serve --host 0.0.0.0 --allow-entry
        scorepad serve --host 0.0.0.0 --allow-host scorepad.lan
        scorepad -f verein.csv serve --rate 0.01 --currency €
    """
    need_the_extra("serve")
    from ..settlement import parse_rate
    from ..web.app import Board
    from ..web.follow import MoneyRate

    money = MoneyRate(parse_rate(rate), currency) if rate is not None else None
    # (16 at least: the default is 24 random ones, and a short one is guessed however slowly
    # the board lets wrong ones in)
    if token is not None and (
        len(token) < 16 or len(token) > 200 or not token.isascii() or not token.isprintable()
        or " " in token
    ):  # fmt: skip
        raise click.BadParameter(
            _(
                "16 to 200 printable characters, no spaces (a shorter token is guessed too "
                "soon; the default is 24 random ones)"
            ),
            param_hint="--token",
        )
    check_host_names(allow_hosts)
    open_session(path).head()  # a missing or broken file is an error here, not on the page
    where = listen(host, port, allow_hosts)
    board = Board(path, allow_entry, token, hosts=where.hosts, money=money, hands=hand_folders)
    board.language = language
    board.max_listeners = max_listeners
    click.echo(_("Serving {path} at {url} (Ctrl-C stops).").format(path=path, url=where.url))
    if allow_entry:
        click.echo(_("Entry is on. Token: {token}").format(token=board.token))
        click.echo(
            _("Open this link to enter hands from a phone: {url}?token={token}").format(
                url=where.url, token=board.token
            )
        )
    run_board(board, where, where.url + (f"?token={board.token}" if allow_entry else ""))


# --- what every live board's command does (`serve`, `tournament serve`) -------------------------


class Listening(NamedTuple):
    """A board's listening socket, the address to give people and the host names to answer to."""

    sock: socket.socket
    url: str
    shown: str
    hosts: list[str]


def need_the_extra(command: str) -> None:
    """Refuse, saying what to install, where the board's stack (the serve extra) is missing."""
    try:
        import sse_starlette  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise ScorepadError(
            _("{command} needs the serve extra: pip install 'scorepad[serve]'").format(
                command=command
            )
        ) from None


def check_host_names(names: tuple[str, ...]) -> None:
    """Refuse an --allow-host that is no host name or address."""
    for name in names:
        if not _HOST_NAME.fullmatch(name):
            raise click.BadParameter(
                _("{name!r}: a host name or address (letters, digits, '.', '-', ':')").format(
                    name=name[:60]
                ),
                param_hint="--allow-host",
            )


def listen(host: str, port: int, allow_hosts: tuple[str, ...]) -> Listening:
    """Listen on host:port (or a clear error): the socket, the address to give people, and the
    names the page may be opened by (this machine's, and the --allow-host ones)."""
    sock = _bind(host, port)
    shown = _shown_host(host)
    address = sock.getsockname()
    return Listening(
        sock, f"http://{shown}:{address[1]}/", shown, [*_own_names(host, shown), *allow_hosts]
    )


def run_board(board: "LiveBoard", where: Listening, link: str) -> None:
    """Serve `board` until Ctrl-C, after a QR code of `link` when phones may reach it."""
    import uvicorn

    from ..web.app import server_config

    if where.shown not in LOOPBACK:
        _qr(link)
    server = uvicorn.Server(server_config(board))
    # What the board's API answers is for programs (its JSON, its errors): English, whatever
    # the terminal speaks; the page is in its own language (`--lang`, else the browser's).
    i18n.use("en")
    with suppress(KeyboardInterrupt):  # (uvicorn handles Ctrl-C itself)
        server.run(sockets=[where.sock])


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket, or a clear error (a port in use, an address not of this machine)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise ScorepadError(
            _("--host {host}: not an address of this machine").format(host=host)
        ) from None
    family, kind, proto, _name, where = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(where)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ScorepadError(
            _("cannot listen on {host}:{port}: {strerror} (give another --port)").format(
                host=host, port=port, strerror=exc.strerror
            )
        ) from None
    return sock


def _shown_host(host: str) -> str:
    """The address to give people: this machine's LAN address for 0.0.0.0."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # (no packet is sent: it only picks the route)
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def _own_names(host: str, shown: str) -> list[str]:
    """The names the page may be opened by: the address listened on, the one shown, and, when
    listening on every address, this machine's name and its addresses."""
    names = [host, shown]
    if host in ("0.0.0.0", "::", ""):
        machine = socket.gethostname()
        names += [machine, f"{machine}.local"]
        with suppress(OSError):
            names += [str(info[4][0]) for info in socket.getaddrinfo(machine, None)]
    return [n for n in names if n and n not in ("0.0.0.0", "::")]


def _qr(url: str) -> None:
    """A QR code of the address in the terminal, for phones."""
    try:
        import qrcode
    except ImportError:  # pragma: no cover - part of the extra
        return
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.make(fit=True)
    code.print_ascii(invert=True)
