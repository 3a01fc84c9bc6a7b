"""Rank at the table: :mod:`~tui.games.rank.table` (the table screen), :mod:`~tui.games.rank.words` (its events in
plain words), :mod:`~tui.games.rank.seats` (the other players) and :mod:`~tui.games.rank.dialogs` (naming a Joker,
the card that may follow it, the penalties at the end of a deal).

It may import the engine's core and :mod:`engine.games.rank`, and the shared :mod:`tui.screens`,
:mod:`tui.dialogs`, :mod:`tui.widgets`, :mod:`tui.words` and :mod:`tui.terminal`; never another game's package (see
:mod:`tui.games`).
"""
