"""The session file on disk, below the ledger: its format (`format`: the columns, the row kinds,
the codec), the platform's calls (`files`), one consistent view of it (`snapshot`), its lock
(`lock`), new files and rows (`write`), rewrites put in its place (`journal`), quick passes over
its bytes (`scan`, `tail`), and the rewrites of `upgrade` and `repair`. `session` is the facade
over them; nothing else opens the file."""
