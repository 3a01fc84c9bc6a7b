"""The shared full screens: :mod:`~tui.screens.menu` (the main menu), :mod:`~tui.screens.lobby` (the LAN lobby),
:mod:`~tui.screens.table` (:class:`~tui.screens.table.TableScreen`, what every game's table screen does with its
session), :mod:`~tui.screens.replay` (a kept game played back), :mod:`~tui.screens.stats` (your statistics),
:mod:`~tui.screens.rules` (a game's rules), and :mod:`~tui.screens.quick` (a screen styled once when it opens).

It may import the engine's core and :mod:`engine.records`, :mod:`tui.dialogs`, :mod:`tui.widgets`,
:mod:`tui.words`, :mod:`tui.terminal`, :mod:`tui.settings` and the UI's registration of the games
(:mod:`tui.games`); the replay viewer also reads each game's words (a later step gives them to the registration).
Never :mod:`tui.apps`: a screen asks the app for things by messages (:mod:`tui.messages`); never the table host,
a bot or the network (``tests/tui/test_robustness.py``).
"""
