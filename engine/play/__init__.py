"""Running tables for people in this process: the table host, its sessions and the bot process.

- :mod:`engine.play.table_host`: :class:`~engine.play.table_host.TableHost` owns one table, runs its computer
  players on a thread of its own, paces them, and hands out one session per seat;
- :mod:`engine.play.local_sessions`: :class:`~engine.play.local_sessions.LocalSession` (a seat at a host in this
  process) and :class:`~engine.play.local_sessions.CodecSession` (the same, every message through the codec, as
  over the network);
- :mod:`engine.play.bot_process`: the child process that makes the bots' decisions, so a thinking bot never takes
  the interpreter from a person's screen.

It may import the engine's core (the modules directly in ``engine/``, ``engine/bots.py``, ``engine/games/``) and
:mod:`engine.records`; never :mod:`engine.lan`, the UI or Textual, and not asyncio: threads and a child process
are its only concurrency (a test reads the imports: ``tests/test_imports.py``).
"""
