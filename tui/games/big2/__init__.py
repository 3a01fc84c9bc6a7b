"""Big Two at the table: :mod:`~tui.games.big2.table` (the table screen), :mod:`~tui.games.big2.words` (its events
in plain words), :mod:`~tui.games.big2.seats` (the other players) and :mod:`~tui.games.big2.scoring` (the end of a
deal: the losers' cards and points).

It may import the engine's core and :mod:`engine.games.big2`, and the shared :mod:`tui.screens`,
:mod:`tui.dialogs`, :mod:`tui.widgets`, :mod:`tui.words` and :mod:`tui.terminal`; never another game's package (see
:mod:`tui.games`).

Its one record in the UI is :data:`UI_LISTING` (found by :mod:`tui.games`); ``summary.py`` is the one line of its
rules under the menu's form.
"""

from tui.games import UiListing

UI_LISTING = UiListing(
    "big2",
    table="tui.games.big2.table:Big2TableScreen",
    words="tui.games.big2.words:describe_big2",
    summary="tui.games.big2.summary:summary",
    styles=("big2.tcss",),
)
"""The game's one record in the UI."""
