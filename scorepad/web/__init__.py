"""The live board (`scorepad serve`, the extra `scorepad[serve]`): the ASGI app (`app.py`: routes,
the entry's token, the page, the server), the night followed as the file grows and its event
stream (`follow.py`), a hand entered as JSON turned into the session's records (`records.py`),
the hall's board of a tournament (`hall.py`), and the pages (`board.html`, `hall.html`,
everything in them). Never imports the command line or click."""
