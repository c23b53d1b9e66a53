"""What text read from a file may hold: nothing that would change what a terminal shows. Pure:
the store checks every cell with it, and replay every line of a hand file."""

from __future__ import annotations


def unprintable(text: str) -> str | None:
    """The first character of a text read from a file that must not reach a terminal or a
    table: a control character (C0 but the tab, DEL, C1), a bidirectional override or isolate,
    any other format or unassigned character (whatever Python does not count as printable);
    None when there is none."""
    if text.isprintable():
        return None
    return next((c for c in text if not c.isprintable() and c != "\t"), None)


def unprintable_problem(what: str, text: str, bad: str) -> str:
    """What is wrong with a text that holds `bad` (see `unprintable`), quoting it escaped."""
    return (
        f"{what}: {text[:40]!r} holds a control character (U+{ord(bad):04X}), which could "
        f"change what a terminal shows; take it away"
    )


_HEX_DIGITS = "0123456789abcdef"


def is_digest(text: str) -> bool:
    """Whether `text` is a SHA-256 digest as scorepad writes one: 64 lowercase hex digits."""
    return len(text) == 64 and not text.strip(_HEX_DIGITS)
