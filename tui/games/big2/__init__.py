"""Big Two at the table: :mod:`~tui.games.big2.table` (the table screen), :mod:`~tui.games.big2.words` (its events
in plain words), :mod:`~tui.games.big2.seats` (the other players) and :mod:`~tui.games.big2.scoring` (the end of a
deal: the losers' cards and points).

It may import the engine's core and :mod:`engine.games.big2`, and the shared :mod:`tui.screens`,
:mod:`tui.dialogs`, :mod:`tui.widgets`, :mod:`tui.words` and :mod:`tui.terminal`; never another game's package (see
:mod:`tui.games`).
"""
