"""A hand entered on the live board, turned into the session's records.

`POST /api/hands` takes a JSON object of the inputs `scorepad hand` takes (`hands.INPUTS`: the
same names; `FIELDS`, the JSON type of each), and `POST /api/undo` and `/api/redo` an object
that may give a `reason`. The body is read in bounded memory (`json_body`), each field is
type-checked (`BadRequest`, 400, else), and the hand is built and recorded through the session
API (`record_hand`, `undo_change`, `redo_change`), with the same lock, checks and append as
the terminal's: a refusal (422) says why in the reader's language, naming inputs by their
JSON keys, and writes nothing.
"""

import json
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..errors import ScorepadError, field, wording
from ..hands import OPTIONS, Type, build_hand, check_doubler
from ..reports import recorded_record
from ..session import Session, said_again
from ..store.format import check_note

if TYPE_CHECKING:
    from starlette.requests import Request

MAX_BODY = 16 * 1024  # the largest request body accepted, in bytes

# The inputs of a hand, as POST /api/hands takes them (`hands.INPUTS`: the same names), and the
# JSON type of each; a doubler (a thrown-in hand, which has no inputs but the dealer) and a note.
_JSON_TYPES: dict[str, type] = {
    Type.NAME: str, Type.NAMES: list, Type.FLAG: bool, Type.INT: int, Type.COUNT: int,
    Type.COUNTS: dict, Type.GAME: str, Type.KIND: bool, Type.CALL: str,
}  # fmt: skip
FIELDS: dict[str, type] = {
    **{i.name: _JSON_TYPES[i.type] for i in OPTIONS},
    "out": list,
    "doubler": bool,
    "pot": bool,
    "note": str,
}


class BadRequest(Exception):
    """A request the board answers with a JSON error and this status (and these headers)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers


def idempotency_key(request: "Request") -> str | None:
    """The request's Idempotency-Key, if it gives one (a retried entry counts once)."""
    key = request.headers.get("idempotency-key")
    if key is not None and not (
        0 < len(key) <= 200 and key.isascii() and key.isprintable()
    ):  # fmt: skip
        raise BadRequest(400, "idempotency-key: 1 to 200 printable ASCII characters")
    return key


async def json_body(request: "Request") -> dict[str, Any]:
    """The request's JSON object, read in bounded memory."""
    length = request.headers.get("content-length")
    if length is not None and not (length.isascii() and length.isdecimal()):
        raise BadRequest(400, "content-length: not a number of bytes")
    if length is not None and (len(length) > 12 or int(length) > MAX_BODY):
        raise BadRequest(413, f"the body is over {MAX_BODY // 1024} KiB")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest(413, f"the body is over {MAX_BODY // 1024} KiB")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest(400, "the body is not a JSON object") from None
    if not isinstance(data, dict):
        raise BadRequest(400, "the body is not a JSON object")
    return data


def _params(data: dict[str, Any]) -> dict[str, Any]:
    """The inputs a JSON object stands for, type-checked."""
    unknown = sorted(k for k in data if k not in FIELDS)
    if unknown:
        raise BadRequest(400, f"unknown field {unknown[0][:40]!r}; fields: {', '.join(FIELDS)}")
    for key, value in data.items():
        want: Any = FIELDS[key]  # (a type, for isinstance)
        if value is None:
            continue
        if isinstance(value, bool) and want is not bool:
            raise BadRequest(400, f"{key}: {_kind(want)} expected")
        if not isinstance(value, want):
            raise BadRequest(400, f"{key}: {_kind(want)} expected")
        if want is list and not all(isinstance(v, str) for v in value):
            raise BadRequest(400, f"{key}: a list of names expected")
        if want is dict and not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in value.items()
        ):
            raise BadRequest(400, f"{key}: an object of name to whole number expected")
        if want is int and not -(10**9) <= value <= 10**9:
            raise BadRequest(400, f"{key}: {value} is out of range")
    return {k: v for k, v in data.items() if v is not None}


def _check_text(params: dict[str, Any]) -> None:
    """Refuse a name that holds a lone surrogate (JSON's `"\\ud800"`: half of a character,
    which no file or answer can hold), quoting it escaped, by its field."""
    for key, value in params.items():
        texts = (
            [value] if isinstance(value, str) else value if isinstance(value, list | dict) else ()
        )
        for text in texts:
            half = next((c for c in text if "\ud800" <= c <= "\udfff"), None)
            if half is not None:
                raise ScorepadError(
                    i18n.gettext(
                        "{key}: {text!r} is no character, only half of one (U+{code}); send the "
                        "name as UTF-8 text"
                    ).format(key=field(key), text=text[:40], code=f"{ord(half):04X}")
                )


def _kind(want: type) -> str:
    return {
        str: "text",
        int: "a whole number",
        bool: "true or false",
        list: "a list of names",
        dict: "an object of name to whole number",
    }[want]


def _json_word(name: str) -> str:
    """How the board names an input or a setting in a message: its JSON key."""
    return name


def record_hand(
    session: Session,
    path: Path,
    data: dict[str, Any],
    languages: Sequence[str] = ("en",),
    language: str = "en",
) -> dict[str, Any]:
    """Record the hand a JSON object describes, as `scorepad hand` would; its JSON (with its
    `played` in each other of `languages` under `worded`), or a BadRequest (422) saying why
    not in `language`, naming inputs by their keys. Nothing is written when it fails."""

    params = _params(data)
    note = params.pop("note", "")
    out = params.pop("out", ())
    with wording(_json_word), _speaking(language):
        try:
            _check_text({**params, "out": out})
            check_note(note)
            doubler, pot = params.pop("doubler", False), params.pop("pot", False)
            if doubler and pot:
                raise ScorepadError(
                    i18n.gettext("doubler and pot: everyone passed once, and the table plays one")
                )
            if doubler or pot:
                check_doubler(params, "pot" if pot else "doubler")
            result = None
            if doubler:
                row, state = session.record_doubler(params.get("dealer"), note)
            elif pot:
                row, result, state = session.record_pot(params.get("dealer"), out, note)
            else:
                row, result, state = session.record(build_hand((), params, out), note)
        except ScorepadError as exc:
            raise BadRequest(422, str(exc)) from None
    recorded = recorded_record(path, row, result, state)
    worded = {}
    for language in languages:
        if language != "en":
            with i18n.speaking(language):
                worded[language] = {"played": recorded_record(path, row, result, state)["played"]}
    return {**recorded, "worded": worded} if worded else recorded


def undo_change(
    session: Session,
    path: Path,
    data: dict[str, Any],
    languages: Sequence[str] = ("en",),
    language: str = "en",
) -> dict[str, Any]:
    """Undo the last change of the session, as `scorepad undo` does, from a JSON object that may
    give a `reason`: what was undone (in words; in each other of `languages` under `worded`),
    the new row and the totals after it; or a BadRequest (422) saying why not (nothing to
    undo) in `language`. Nothing is written when it fails."""
    return _step(session, path, data, True, languages, language)


def redo_change(
    session: Session,
    path: Path,
    data: dict[str, Any],
    languages: Sequence[str] = ("en",),
    language: str = "en",
) -> dict[str, Any]:
    """Make again what the last undo took back, as `scorepad redo` does (as `undo_change`; the
    answer's `redone` says what)."""
    return _step(session, path, data, False, languages, language)


def _step(
    session: Session,
    path: Path,
    data: dict[str, Any],
    back: bool,
    languages: Sequence[str],
    language: str = "en",
) -> dict[str, Any]:
    unknown = sorted(k for k in data if k != "reason")
    if unknown:
        raise BadRequest(400, f"unknown field {unknown[0][:40]!r}; fields: reason")
    reason = data.get("reason") or ""
    if not isinstance(reason, str):
        raise BadRequest(400, "reason: text expected")
    with wording(_json_word), _speaking(language):
        try:
            note = check_note(reason) or f"{'undo' if back else 'redo'} on the board"
            step = session.undo if back else session.redo
            done, row, _unused, state = step(note)
        except ScorepadError as exc:
            raise BadRequest(422, str(exc)) from None
    said = "undone" if back else "redone"
    english = done
    worded = {}
    for each in {*languages, language} - {"en"}:
        with i18n.speaking(each):
            worded[each] = {said: said_again(done)}
    if language != "en":
        with i18n.speaking("en"):
            english = said_again(done)
    answer = {
        "file": str(path),
        said: str(english),
        "note": row.note,
        "hands": state.hands,
        "totals": dict(state.totals),
        "next_dealer": state.next_dealer,
    }
    return {**answer, "worded": worded} if worded else answer


def _speaking(language: str) -> AbstractContextManager[None]:
    """Speak `language` within the block (English, the process's, as it is: no lock taken).
    An entry made so says why it is refused in its reader's language; the block holds
    `i18n.speaking`'s lock while it waits for the session's, as briefly as a writer holds it."""
    return nullcontext() if language == "en" else i18n.speaking(language)


def worded_entry(body: Any, language: str) -> Any:
    """An entry's answer for its reader: its text (`played`, `undone`, `redone`) in the
    reader's language, where the board worded it so (`worded`, which no answer shows). (A
    refusal's `error` is worded in the language of the request that made the entry.)"""
    if not isinstance(body, dict):
        return body
    shown = {k: v for k, v in body.items() if k != "worded"}
    shown.update(body.get("worded", {}).get(language, {}))
    return shown
