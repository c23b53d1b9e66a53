"""`python -m scorepad`, and the `scorepad` command's entry point (`run`)."""

from __future__ import annotations

import gc


def run() -> None:
    """Run the command line, the cycle collector off while its code is imported.

    What importing makes (click's, scorepad's, tabulate's objects) lives until the process ends
    and holds no garbage, yet the collector would look through it again and again as it grows:
    about 3 ms of a recorded hand's 70. It comes back on as the command is loaded, its modules
    imported (`ScorepadGroup.resolve_command`), before the command does anything."""
    gc.disable()
    from .cli import main

    main(prog_name="scorepad", collector_paused=True)


if __name__ == "__main__":
    run()
