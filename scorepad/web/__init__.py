"""The live board (`scorepad serve`): the ASGI app (`serve.py`, the extra `scorepad[serve]`) and
its one page (`board.html`, everything in it). Never imports the command line or click."""
