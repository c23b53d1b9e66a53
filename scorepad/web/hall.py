"""`scorepad tournament serve`: the hall's board, the tournament live for every screen in the room.

A read-only board (no entry: each table records into its own session file, from the terminal,
`play` or the one-session board) over the tournament's folder, built from what the one-session
board shares (`follow.LiveBoard`, `app.live_app`, `app.server_config`: the host check, the
connection guard and the event stream are the same), and the tournament's own store functions,
so that what it shows is what the commands print:

- the standings (`tournament standings`: the same ranking, tie-breaks and refusal: while a table's
  file does not verify, the standings refuse and the page names the table and its problem);
- the current round's tables (`tournament status`: hands recorded out of the round's, done or
  not, or the problem with the file), and where the tournament stands, in a sentence.

`GET /` is the page (`hall.html`), `GET /api/state` the state as JSON, `GET /events` a `state`
event whenever tournament.toml or any table's file changes (a watcher polls their sizes and
times, as the one-session board polls its file); each event names the tables that changed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool

from .. import i18n
from ..errors import ScorepadError
from ..tournament import standings, standings_record
from ..tournament_store import FILE, load, progress, read_tables, results_of, table_record
from .app import live_app, page_html
from .follow import POLL, LiveBoard

_TABLE_FILE = re.compile(r"round-([0-9]{1,4})/table-([0-9]{1,5})\.csv")

Look = dict[str, tuple[int, int, int]]  # a file of the folder (its relative name): ino, size, time


def hall_state(folder: Path) -> dict[str, Any]:
    """The hall's board: the keys of `tournament standings --format json` (`standings` None
    while they refuse, and `refused` saying why), `progress` (the sentence of `tournament
    status`), `current_round` (None before the first draw), `hands` (a round's), the current
    round's `tables` and every table with a `problem` (the keys of `tournament status --format
    json`'s tables), and `done` (every round played). An `error` alone where tournament.toml
    cannot be read."""
    try:
        t = load(folder)
    except ScorepadError as exc:
        return {"error": str(exc)}
    reads = list(read_tables(folder, t))  # (each table read once)
    tables = [read.status for read in reads]
    refused = None
    try:
        ranked = standings(t, list(results_of(reads)))
    except ScorepadError as exc:  # (the refusal of `tournament standings`, word for word)
        ranked, refused = [], str(exc)
    state = standings_record(t, ranked)
    current = len(t.drawn)
    state.update(
        standings=None if refused else state["standings"],
        refused=refused,
        progress=progress(t, tables, folder),
        current_round=current or None,
        hands=t.hands,
        tables=[table_record(s) for s in tables if s.round == current],
        problems=[table_record(s) for s in tables if s.problem],
        done=current == t.rounds and all(s.done for s in tables),
    )
    return state


def hall_state_in(folder: Path, language: str) -> dict[str, Any]:
    """`hall_state`, its text worded in `language`."""
    with i18n.speaking(language):
        return hall_state(folder)


def look_at(folder: Path) -> Look:
    """tournament.toml and every table's file (round-N/table-K.csv), each with its inode, size
    and time: the board works the state out again when this changes."""
    found: Look = {}
    names = [FILE]
    try:
        with os.scandir(folder) as entries:
            rounds = [e.name for e in entries if e.name.startswith("round-") and e.is_dir()]
        for name in rounds:
            with os.scandir(folder / name) as entries:
                names += [f"{name}/{e.name}" for e in entries if e.name.endswith(".csv")]
    except OSError:
        pass  # (gone, or not readable: the state says so)
    for name in names:
        try:
            st = os.stat(folder / name)
        except OSError:
            continue
        found[name] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return found


def changed_tables(before: Look | None, seen: Look) -> list[dict[str, int]]:
    """The tables whose file changed (or came, or went) between two looks, in order."""
    if before is None:
        return []
    names = {n for n in before.keys() | seen.keys() if before.get(n) != seen.get(n)}
    tables = []
    for name in names:
        match = _TABLE_FILE.fullmatch(name)
        if match:
            tables.append((int(match[1]), int(match[2])))
    return [{"round": r, "table": k} for r, k in sorted(tables)]


class HallBoard(LiveBoard):
    """A tournament's folder served, read-only."""

    def __init__(self, folder: Path, poll: float = POLL, hosts: Sequence[str] = ()):
        super().__init__(poll, hosts)
        self.folder = Path(folder)

    def look(self) -> Look:
        return look_at(self.folder)

    async def news(self, before: Any, seen: Any, languages: Sequence[str]) -> dict[str, Any]:
        """The state, and the tables whose file changed since the last event, in each language
        (the state's text, `progress`, `refused`, a table's `problem`, in it; the rest is the
        same in every one)."""
        changed = changed_tables(before, seen) if self.event else []
        news = {}
        for language in languages:
            state = await run_in_threadpool(hall_state_in, self.folder, language)
            news[language] = {"changed": changed, "state": state}
        return news

    def app(self) -> Starlette:
        return live_app(self, lambda language: page_html("hall.html", {}, language))
