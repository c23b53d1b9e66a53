"""`python -m scorepad`, and the `scorepad` command's entry point (`run`)."""

from __future__ import annotations


def run() -> None:
    """Run the command line."""
    from .cli import main

    main(prog_name="scorepad")


if __name__ == "__main__":
    run()
