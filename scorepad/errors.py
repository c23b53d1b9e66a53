"""One exception family for everything a user can get wrong.

The command line turns any `ScorepadError` into a one-line `Error: …` and a non-zero exit; any
other exception is a bug and keeps its traceback.
"""


class ScorepadError(ValueError):
    """Something the user typed or wrote in a file is not acceptable."""


class RulesError(ScorepadError):
    """A rules table, preset name or `--set` override is not valid."""


class HandError(ScorepadError):
    """A hand's inputs are impossible or break the table's rules."""


class CardError(ScorepadError):
    """A card could not be read."""
