"""`scorepad import`: other programs' game records read (`records`), held to their own running
totals, and written as hand files and a night.

Nothing is written until every record is read and every game replayed and scored with the
running totals equal to the record's: then the hand files are written (each new, never over a
file) and the night is made in a temp file beside its name, every hand recorded and its points
checked again as the session scores them, and linked into place last. A problem on the way
removes whatever was written.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import ScorepadError
from .i18n import gettext as _
from .records import Record, RecordError, decode, detect, read, unrecognised
from .records.tally import Tallied, rules_of, runs_settings, tally
from .rules import Rules
from .scoring import Hand, ManualHand

DEFAULT_RULES = "bavarian"
"""The rules a record is scored by unless given (a Schafkopf table with Ramsch and knocks)."""


@dataclass(frozen=True)
class Source:
    """One record file, read, replayed and scored."""

    path: Path
    record: Record
    rules: Rules
    settings: tuple[str, ...]  # the record's tariff, the runs its prices show, then --set
    games: tuple[Tallied, ...]
    hand_files: tuple[Path | None, ...] = ()  # one a game (None: a game not recorded)


@dataclass(frozen=True)
class Imported:
    """What an import read, and what it wrote."""

    sources: tuple[Source, ...]
    spec: str
    to: Path | None = None
    session: Path | None = None
    recorded: int = 0
    skipped: tuple[tuple[Source, Tallied], ...] = field(default_factory=tuple)
    left_out: int = 0  # the games skipped that the night leaves out too (no points to give)


def failure(path: Path, exc: RecordError) -> ScorepadError:
    """A record's problem as the one line the user reads: FILE:LINE: message."""
    where = f"{path}:{exc.line}" if exc.line else f"{path}"
    return ScorepadError(f"{where}: {exc}")


def load(
    paths: Sequence[Path],
    spec: str | None,
    settings: Sequence[str],
    one_night: bool,
    progress: Callable[[int, Path, Record], None] | None = None,
) -> Imported:
    """Read, replay and score every record (one night's rules for all with `one_night`);
    a ScorepadError at the first problem, nothing written."""
    records = []
    for number, path in enumerate(paths, 1):
        record = _read(path)
        if progress is not None:
            progress(number, path, record)
        records.append(record)
    spec = spec or DEFAULT_RULES
    groups = (
        [list(zip(paths, records, strict=True))]
        if one_night
        else [[(p, r)] for p, r in zip(paths, records, strict=True)]
    )
    if one_night:
        _same_table(paths, records)
    sources = []
    for group in groups:
        shared = _shared_settings(group)
        combined = replace(group[0][1], games=tuple(g for _p, r in group for g in r.games))
        for path, record in group:
            record = replace(record, settings=shared)
            try:
                found = runs_settings(combined, rules_of(record, spec, settings))
                given = (*found, *settings)
                rules = rules_of(record, spec, given)
                games = tally(record, rules, spec, given, path.name)
            except RecordError as exc:
                raise failure(path, exc) from None
            except ScorepadError as exc:
                raise ScorepadError(f"{path}: {exc}") from None
            sources.append(Source(path, record, rules, (*shared, *given), tuple(games)))
    skipped = tuple((s, t) for s in sources for t in s.games if t.hand is None)
    return Imported(tuple(sources), spec, skipped=skipped)


def _read(path: Path) -> Record:
    from .store.files import read_regular

    try:
        data = read_regular(path)
    except FileNotFoundError:
        raise ScorepadError(_("{path}: no such file").format(path=path)) from None
    except OSError as exc:
        raise ScorepadError(
            _("{path}: cannot read: {strerror}").format(path=path, strerror=exc.strerror)
        ) from None
    if data is None:
        raise ScorepadError(_("{path}: not a regular file").format(path=path))
    text = decode(data)
    kind = detect(text)
    if kind is None:
        raise ScorepadError(f"{path}: {unrecognised()}")
    try:
        return read(kind, text)
    except RecordError as exc:
        raise failure(path, exc) from None


def _same_table(paths: Sequence[Path], records: Sequence[Record]) -> None:
    """The records of one night seat the same players in the same order."""
    first = records[0].players
    for path, record in zip(paths[1:], records[1:], strict=True):
        if record.players != first:
            raise ScorepadError(
                _(
                    "{path}: seats {players}; {first_path} seats {first}: a night is one table "
                    "(import them without ⟨session⟩, or into nights of their own)"
                ).format(
                    path=path,
                    players=", ".join(record.players),
                    first_path=paths[0],
                    first=", ".join(first),
                )
            )


def _shared_settings(group: Sequence[tuple[Path, Record]]) -> tuple[str, ...]:
    """The tariffs of records scored in one night, which must agree."""
    merged: dict[str, tuple[str, Path]] = {}
    for path, record in group:
        for setting in record.settings:
            key, _sep, value = setting.partition("=")
            if key in merged and merged[key][0] != value:
                raise ScorepadError(
                    _(
                        "{path}: its tariff says {key}={value}, {other}'s {key}={first}: a night "
                        "is scored by one tariff (import them into nights of their own)"
                    ).format(
                        path=path, key=key, value=value, other=merged[key][1], first=merged[key][0]
                    )
                )
            merged.setdefault(key, (value, path))
    return tuple(f"{key}={value}" for key, (value, _path) in sorted(merged.items()))


# --- writing ------------------------------------------------------------------------------------


def named(imported: Imported, to: Path) -> Imported:
    """Each game's hand file under `to`: by the record's date (else the file's name) and the
    game's number, `2020-05-16-003.txt`; a second record of the same date `2020-05-16-2-003.txt`."""
    taken: dict[str, int] = {}
    sources = []
    for source in imported.sources:
        key = source.record.date or _slug(source.path.stem)
        taken[key] = taken.get(key, 0) + 1
        prefix = key if taken[key] == 1 else f"{key}-{taken[key]}"
        names = tuple(
            to / f"{prefix}-{t.game.number:03d}.txt" if t.outcome is not None else None
            for t in source.games
        )
        sources.append(replace(source, hand_files=names))
    return replace(imported, sources=tuple(sources), to=to)


def _slug(stem: str) -> str:
    return re.sub(r"[^0-9A-Za-z]+", "-", stem).strip("-").lower() or "games"


def write(imported: Imported, session: Path | None) -> Imported:
    """Write the hand files (where `named` put them) and the night (`session`); a ScorepadError
    and nothing left written when anything fails."""
    paths = [p for s in imported.sources for p in s.hand_files if p is not None]
    for path in [*paths, *([session] if session else [])]:
        if os.path.lexists(path):
            raise ScorepadError(
                _("{path} exists: import writes new files only (nothing written)").format(path=path)
            )
    made = _missing_folders([*paths, *([session] if session else [])])
    written: list[Path] = []
    night: Path | None = None
    try:
        if session is not None:
            night = _temp_beside(session)
            imported = _night(imported, night)
        for source in imported.sources:
            for tallied, hand_file in zip(source.games, source.hand_files, strict=False):
                if hand_file is not None:
                    hand_file.parent.mkdir(parents=True, exist_ok=True)
                    with hand_file.open("x", encoding="utf-8", newline="\n") as handle:
                        written.append(hand_file)
                        handle.write(tallied.text)
        if night is not None and session is not None:
            from .store.files import create_exclusive

            create_exclusive(str(night), session)
    except BaseException as exc:
        for path in [*written, *([night] if night is not None else [])]:
            path.unlink(missing_ok=True)
        for folder in made:  # (the deepest first; a folder something else wrote into stays)
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(exc, OSError):
            where = exc.filename or session or ""
            raise ScorepadError(
                _("{path}: cannot write: {strerror} (nothing written)").format(
                    path=where, strerror=exc.strerror or exc
                )
            ) from None
        raise
    finally:
        if night is not None:
            night.unlink(missing_ok=True)
    return replace(imported, session=session)


def _missing_folders(paths: Sequence[Path]) -> list[Path]:
    """The folders writing these files makes (the deepest first)."""
    missing = {
        folder for path in paths for folder in path.absolute().parents if not folder.exists()
    }
    return sorted(missing, key=lambda folder: len(folder.parts), reverse=True)


def _temp_beside(session: Path) -> Path:
    """A name for the night while it is made, beside its own (never an existing file's)."""
    session.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(
        prefix=f".{session.name}.import-", suffix=".csv", dir=session.parent
    )
    os.close(handle)
    os.unlink(name)  # (Session.create makes it, and never over a file)
    return Path(name)


def _night(imported: Imported, night: Path) -> Imported:
    """The night, made at `night`: every game recorded as a hand, its points as the session
    scores them checked against the replay's."""
    from .session import Session
    from .store.format import check_new_name

    first = imported.sources[0]
    players = first.record.players
    for source in imported.sources:  # (a name a hand file holds, a session file may not)
        for player in source.record.players:
            try:
                check_new_name(player)
            except ScorepadError as exc:
                raise ScorepadError(f"{source.path}:{source.record.games[0].line}: {exc}") from None
    dealer = first.record.games[0].dealer
    made = Session.create(night, players, first.rules, dealer)
    recorded = left_out = 0
    seen: dict[str, tuple[int, int, Path]] = {}  # a game's digest: where it was first
    for index, source in enumerate(imported.sources):
        for tallied in source.games:
            if tallied.outcome is not None and tallied.digest:
                here = (index, tallied.game.number, source.path)
                again = seen.setdefault(tallied.digest, here)
                if again != here:
                    raise ScorepadError(
                        _(
                            "{path}: game {number} is game {first} of {first_path} again: a "
                            "night counts a game once (nothing written)"
                        ).format(
                            path=source.path,
                            number=tallied.game.number,
                            first=again[1],
                            first_path=again[2],
                        )
                    )
            hand: Hand | None = tallied.hand
            note = _("imported: {name}, game {number}").format(
                name=source.path.name, number=tallied.game.number
            )
            if hand is None:  # (a game not replayed: a hand the table scored, its record's points)
                if not tallied.game.deltas:
                    left_out += 1
                    continue
                scores = dict(tallied.game.deltas)
                hand = ManualHand(tuple(players), dealer=tallied.game.dealer, scores=scores)
                note += ": " + re.split(r"[,;(:]", tallied.game.skipped)[0].strip()
                _row, result, _state = made.record(hand, note)
            elif tallied.outcome is not None and tallied.game.dealer == dealer:
                _row, result, _state = made.record_replayed(hand, tallied.digest, note)
            else:  # (the record's dealer is not the night's next: after a game not recorded,
                # or in records of games apart, as openschafkopf's lines are)
                _row, result, _state = made.record(hand, note, tallied.digest or "")
            if dict(result.deltas) != dict(tallied.deltas or tallied.game.deltas or {}):
                raise ScorepadError(
                    _(
                        "{path}: game {number}: the night scores it {night}, the replay "
                        "{replay} (nothing written)"
                    ).format(
                        path=source.path,
                        number=tallied.game.number,
                        night=_points(result.deltas),
                        replay=_points(tallied.deltas or tallied.game.deltas or {}),
                    )
                )
            recorded += 1
            dealer = players[(players.index(tallied.game.dealer) + 1) % len(players)]
    return replace(imported, recorded=recorded, left_out=left_out)


def _points(deltas: Mapping[str, int]) -> str:
    return ", ".join(f"{p} {n:+d}" for p, n in deltas.items())
