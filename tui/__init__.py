"""Parlour's terminal UI (Textual) and its command line.

At its root only the command (:mod:`tui.cli`, :mod:`tui.launch`, :mod:`tui.__main__`) and the messages screens
post to the app (:mod:`tui.messages`); the rest is in packages, each saying what it holds and may import:

- :mod:`tui.apps`: the apps (local play, LAN play, replays) and what they share;
- :mod:`tui.screens`: the shared full screens (menu, lobby, the table every game's screen builds on, replay,
  statistics, rules); :mod:`tui.dialogs`: the shared dialogs; :mod:`tui.widgets`: the shared widgets;
- :mod:`tui.games`: the UI's registration of each game, and one package per game (its table screen, words,
  dialogs and seats);
- :mod:`tui.words`: words every game's screens use, the turn clock's words, how cards are written;
- :mod:`tui.settings`: your settings, in their file and in a running app;
- :mod:`tui.terminal`: start-up and terminal plumbing (the quick-exit driver, Textual's version, the stylesheets).

The UI imports the engine, never the reverse (a test reads the imports: ``tests/test_imports.py``).
"""
