"""The live board's page (`scorepad serve`): one HTML file, everything in it."""
