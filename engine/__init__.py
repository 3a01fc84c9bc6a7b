"""Parlour's game engine. Its core (the modules directly in ``engine/``, :mod:`engine.bots` and
:mod:`engine.games`) is pure, deterministic rules: cards, events, the game protocol, the match layer, tables,
the codec, the session protocol, the registry, bots and one package per game, with no UI and no I/O (but for
Big Two reading its own source once, to check its compiled core, and :mod:`engine.simulate` running worker
processes for ``parlour simulate --jobs``).

Around the core, each package says what it holds and may import:

- :mod:`engine.play`: running tables for people in this process (the table host, its sessions, the bot process);
- :mod:`engine.lan`: the network edge (server, protocol, client, remote session, SSH);
- :mod:`engine.records`: saves, replays and statistics (files and SQLite in the user's data directory).

The core imports none of them, nor the UI, Textual, asyncio, sockets, subprocesses, threads or SQLite, with two
exceptions that ``tests/test_imports.py`` names one by one: :mod:`engine.registry` takes a lock while it loads a
game (bots on other threads may ask for the same game at once), and :mod:`engine.simulate` asks whether it runs on
the main thread before it holds signals for its worker processes. Nothing in ``engine`` imports the UI or Textual.
"""

__version__ = "0.1.0"
