"""The network edge: the LAN server, its protocol and client, the remote session, and play over SSH.

- :mod:`engine.lan.protocol`: newline-delimited JSON messages, each validated into a typed message;
- :mod:`engine.lan.server`: the host's asyncio server (each table a :class:`~engine.play.table_host.TableHost`);
- :mod:`engine.lan.client`: a low-level asyncio client; :mod:`engine.lan.remote_session`: a
  :class:`~engine.session.Session` whose seat is at a LAN host;
- :mod:`engine.lan.lan_host`: :class:`~engine.lan.lan_host.LanHost` (the server and its SSH door on one loop), for
  ``parlour host``;
- :mod:`engine.lan.ssh`: the SSH gateway; :mod:`engine.lan.tokens`: resume tokens;
  :mod:`engine.lan.secrets_input`: passwords read from files and the environment.

This is the only part of ``engine`` that may use asyncio and sockets. It may import the engine's core,
:mod:`engine.play` and :mod:`engine.records`; never the UI or Textual. The engine never starts the UI: the command an
SSH guest runs is given to the host by ``tui/`` (a test reads the imports: ``tests/test_imports.py``).
"""
