"""Trash at the table: :mod:`~tui.games.trash.table` (the table screen), :mod:`~tui.games.trash.words` (its events
in plain words), :mod:`~tui.games.trash.layout` (a layout as a grid of cards) and :mod:`~tui.games.trash.deal_end`
(the end of a deal: every layout as it ended).

It may import the engine's core and :mod:`engine.games.trash`, and the shared :mod:`tui.screens`,
:mod:`tui.dialogs`, :mod:`tui.widgets`, :mod:`tui.words` and :mod:`tui.terminal`; never another game's package (see
:mod:`tui.games`).

Its one record in the UI is :data:`UI_LISTING` (found by :mod:`tui.games`); ``summary.py`` is the one line of its
rules under the menu's form.
"""

from tui.games import UiListing

UI_LISTING = UiListing(
    "trash",
    table="tui.games.trash.table:TrashTableScreen",
    words="tui.games.trash.words:describe_trash",
    summary="tui.games.trash.summary:summary",
    styles=("trash.tcss",),
)
"""The game's one record in the UI."""
