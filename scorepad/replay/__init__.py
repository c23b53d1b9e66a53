"""Replaying a whole hand from its cards: a hand file read and checked line by line (`file`), then
its deal, bury, call and every trick played out and the hand worked out (`tricks`). Everything a
caller needs is here."""

from .file import KEYS, HandFile, HandFileError, digest, parse_hand_file, rules_for
from .tricks import FAIL_SUITS, HandReplay, Misplay, Trick, game_text, replay

__all__ = [
    "FAIL_SUITS",
    "KEYS",
    "HandFile",
    "HandFileError",
    "HandReplay",
    "Misplay",
    "Trick",
    "digest",
    "game_text",
    "parse_hand_file",
    "replay",
    "rules_for",
]
