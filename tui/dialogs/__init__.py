"""The dialogs every game and app shares (``ModalScreen`` subclasses that ``dismiss`` their answer):
:mod:`~tui.dialogs.confirm` (a yes-or-no question, or one with several answers), :mod:`~tui.dialogs.results` (the
end of a match), :mod:`~tui.dialogs.round_over` (the end of a hand or a deal, which each game's own dialog builds
on), :mod:`~tui.dialogs.settings` (the settings) and :mod:`~tui.dialogs.new_table` (a new table at a LAN host).

It may import the engine's core, :mod:`tui.widgets`, :mod:`tui.words`, :mod:`tui.terminal`, :mod:`tui.settings`,
the UI's registration of the games (:mod:`tui.games`) and the menu's choices (:mod:`tui.screens.menu`); never
:mod:`tui.apps` nor a game's own package.
"""
