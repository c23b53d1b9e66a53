"""The board's hand view: a hand recorded by `replay --record`, its hand file found again, and
its open-card analysis (`scorepad.analysis`, as `analyze` prints it) worked out on request.

A row `replay --record` wrote keeps the digest of its hand file (`replay.digest`), not the file:
`HandFiles` looks for it in the board's folders (`serve --hands`; by default the session file's
folder and its `hands/` subfolder), reading each file as `replay` reads it and keeping its
digest while the file stays as it was; a file that cannot be read as a hand file is passed by.

The analysis takes seconds of CPU and the board faces the table's network, so `Analyses` works
out one at a time, in a worker thread (the event loop goes on serving the page, the state and
the events): a request while one runs is answered 429 with `Retry-After`, and each analysis is
kept by its digest, so the next view of the hand is answered at once.

It needs nothing of the web stack: the routes are `app`'s.
"""

import asyncio
import os
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from .. import i18n
from ..analysis import HandAnalysis, analyse
from ..analysis.words import as_data, as_lines
from ..errors import ScorepadError
from ..i18n import N_
from ..i18n import gettext as _
from ..replay import HandFile, digest, parse_hand_file, replay, rules_for
from ..rules import Rules
from ..session import Session

MAX_HAND_FILE = 64 * 1024  # bytes: a larger file in a folder is no hand file (the session is)
MAX_FILES = 2000  # files looked at in one folder, in the order of their names
KEPT = 256  # analyses kept, by digest (the newest)
RETRY_AFTER = 2  # seconds a request waits while another analysis runs (429)


class Found(NamedTuple):
    """A hand file found: where, what it says, and its rules."""

    path: Path
    hand: HandFile
    rules: Rules


class Kept(NamedTuple):
    """An analysis worked out: the file it was made from, the analysis and its rules."""

    path: Path
    analysis: HandAnalysis
    rules: Rules


class Answer(NamedTuple):
    """What the board answers: a status, its JSON, and headers."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] | None = None


def read_hand(path: Path) -> Found | None:
    """A hand file read as `replay` reads it, with its rules; None when it is none (too large,
    unreadable, not a hand file)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_HAND_FILE + 1)
        if len(data) > MAX_HAND_FILE:
            return None
        hand = parse_hand_file(data.decode("utf-8-sig"))
        return Found(path, hand, rules_for(hand))
    except (OSError, UnicodeDecodeError, ScorepadError):
        return None


def default_folders(session: Path) -> tuple[Path, ...]:
    """Where the board looks for hand files unless told (`serve --hands`): the session file's
    folder and its `hands/` subfolder."""
    folder = session.parent
    return (folder, folder / "hands")


class HandFiles:
    """The hand files in some folders, by digest: each file read once while its size and time
    stay the same."""

    def __init__(self, folders: Iterable[Path]):
        self.folders = tuple(Path(f) for f in folders)
        self._read: dict[Path, tuple[tuple[int, int], str | None]] = {}

    def find(self, wanted: str) -> Path | None:
        """The first hand file (by folder, then name) whose digest is `wanted`."""
        seen: dict[Path, tuple[tuple[int, int], str | None]] = {}
        found = None
        for path in self._files():
            try:
                st = path.stat()
            except OSError:
                continue
            look = (st.st_size, st.st_mtime_ns)
            known = self._read.get(path)
            if known is None or known[0] != look:
                hand = read_hand(path) if st.st_size <= MAX_HAND_FILE else None
                known = (look, digest(hand.hand) if hand is not None else None)
            seen[path] = known
            if found is None and known[1] == wanted:
                found = path
        self._read = seen
        return found

    def _files(self) -> Iterable[Path]:
        for folder in self.folders:
            try:
                with os.scandir(folder) as entries:
                    names = sorted(
                        e.name
                        for e in entries
                        if not e.name.startswith(".") and e.is_file(follow_symlinks=True)
                    )
            except OSError:
                continue
            for name in names[:MAX_FILES]:
                yield folder / name


def refusal(hand: HandFile, rules: Rules) -> str | None:
    """Why `analyse` refuses a hand, in the language in force (None: it takes it): the checks
    it makes before its search, made here without the search, for the hand view to say why
    it offers no analysis."""
    replayed = replay(hand, rules)
    broken = [p for p in replayed.problems if p.player is not None or p.trick is not None]
    if broken:
        return _(
            "the hand breaks the rules ({problem}): analyze takes hands played by the rules"
        ).format(problem=broken[0])
    return None


def _in(language: str, message: str, **values: Any) -> str:
    """One of this module's messages (marked `N_`) in `language`, its values put in."""
    if language != "en":
        message = i18n.catalog(language).gettext(message)
    return message.format(**values)


class Analyses:
    """The analyses of one session's replayed hands: looked up, worked out one at a time in a
    worker thread, and kept by digest."""

    def __init__(
        self,
        session: Callable[[], Session],
        folders: Sequence[Path],
        look: Callable[[], Any],
        run: Callable[[HandFile, Rules], HandAnalysis] = analyse,
    ):
        self.session = session
        self.files = HandFiles(folders)
        self.look = look  # (what the session file looks like now: its digests are read again
        self.run = run  # when it changed)
        self.kept: OrderedDict[str, Kept] = OrderedDict()
        self.running: asyncio.Task[Kept] | None = None
        self._replayed: tuple[Any, dict[int, str]] = (None, {})

    def replayed(self) -> dict[int, str]:
        """Each hand `replay --record` recorded, with its digest (read again when the file
        changed)."""
        look = self.look()
        if self._replayed[0] != look or look is None:
            session = self.session()
            by_hand = {hand: d for d, hand in session.digests(session.head()).items()}
            self._replayed = (look, by_hand)
        return self._replayed[1]

    def about(self, number: int, language: str) -> dict[str, Any]:
        """What the hand view offers for hand `number` (a worker thread's call): whether it was
        replayed, its hand file, whether it can be analysed (`analysis`), whether its analysis
        is kept (`analysed`) and, where none is offered, why (`reason`, in `language`)."""
        record: dict[str, Any] = {
            "hand": number,
            "replayed": False,
            "file": None,
            "analysis": False,
            "analysed": False,
            "reason": None,
        }
        answer = self._look_up(number, language)
        if isinstance(answer, Answer):
            record.update(replayed=answer.body.get("replayed", False), reason=answer.body["error"])
            return record
        wanted, found = answer
        record.update(replayed=True, file=str(found.path))
        if wanted in self.kept:
            return {**record, "analysis": True, "analysed": True}
        with i18n.speaking(language):
            why = refusal(found.hand, found.rules)
        if why is not None:
            return {**record, "reason": _in(language, CANNOT, hand=number, reason=why)}
        return {**record, "analysis": True}

    def _look_up(self, number: int, language: str) -> Answer | tuple[str, Found]:
        """Hand `number`'s digest and its hand file, or the answer saying why there is none."""
        wanted = self.replayed().get(number)
        if wanted is None:
            message = _in(language, NOT_REPLAYED, hand=number)
            return Answer(404, {"error": message, "replayed": False})
        path = self.files.find(wanted)
        found = read_hand(path) if path is not None else None
        if found is None or digest(found.hand) != wanted:
            message = _in(language, NOT_FOUND, hand=number)
            return Answer(404, {"error": message, "replayed": True})
        return wanted, found

    async def analysis(self, number: int, language: str) -> Answer:
        """Hand `number`'s analysis: the object of one hand of `analyze --format json`, and its
        `text` as `analyze` prints it in `language`; a kept one at once, else worked out in a
        worker thread, one at a time (429 while another runs)."""
        answer = await asyncio.to_thread(self._look_up, number, language)
        if isinstance(answer, Answer):
            return Answer(answer.status, {"error": answer.body["error"]})
        wanted, found = answer
        kept = self.kept.get(wanted)
        if kept is None:
            if self.running is not None:
                message = _in(language, BUSY, seconds=RETRY_AFTER)
                return Answer(429, {"error": message}, {"retry-after": str(RETRY_AFTER)})
            # (no await between the look at `running` and its setting: one worker at a time)
            running = asyncio.get_running_loop().create_task(
                asyncio.to_thread(self._work, found, language)
            )
            running.add_done_callback(lambda task: self._done(wanted, task))
            self.running = running
            try:  # (a request that goes away leaves it running: what it finds is kept)
                kept = await asyncio.shield(running)
            except ScorepadError as exc:  # (refused before its search: a renege)
                return Answer(422, {"error": _in(language, CANNOT, hand=number, reason=exc)})
        text = await asyncio.to_thread(self._text, kept, language)
        return Answer(200, {**as_data(kept.analysis, str(kept.path)), "text": text})

    def _done(self, wanted: str, task: "asyncio.Task[Kept]") -> None:
        """The worker is free again; what it found is kept (whether or not its request still
        waits for it)."""
        self.running = None
        if not task.cancelled() and task.exception() is None:
            self.kept[wanted] = task.result()
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)

    def _work(self, found: Found, language: str) -> Kept:
        """The analysis itself, in the worker thread; a hand it refuses, refused first without
        its search (why, in `language`, as a ScorepadError). The analysis words nothing it
        keeps, so it runs in the process's language (English while the board serves), outside
        `i18n.speaking`: a long one never holds up the wording of the board's events."""
        with i18n.speaking(language):
            why = refusal(found.hand, found.rules)
        if why is not None:
            raise ScorepadError(why)
        return Kept(found.path, self.run(found.hand, found.rules), found.rules)

    @staticmethod
    def _text(kept: Kept, language: str) -> list[str]:
        rules = kept.rules
        with i18n.speaking(language):
            return as_lines(
                kept.analysis, rules.is_schafkopf, rules.schneider_win, rules.schneider_loss, False
            )


NOT_REPLAYED = N_(
    "hand {hand} was not recorded from a hand file (replay --record): there are no cards to analyse"
)
NOT_FOUND = N_("the hand file of hand {hand} is not in the board's folders (serve --hands)")
CANNOT = N_("hand {hand} cannot be analysed: {reason}")
BUSY = N_("another analysis is running: ask again in {seconds} s")
