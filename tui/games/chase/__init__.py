"""Screw Your Neighbor and Chase the Ace at the table: :mod:`~tui.games.chase.table` (the table screen,
:class:`~tui.games.chase.table.ChaseTableScreen`), :mod:`~tui.games.chase.words` (its events in plain words),
:mod:`~tui.games.chase.seats` (the seats around the table) and :mod:`~tui.games.chase.reveal` (the end of a hand:
every card face up).

It may import the engine's core and :mod:`engine.games.chase`, and the shared :mod:`tui.screens`,
:mod:`tui.dialogs`, :mod:`tui.widgets`, :mod:`tui.words` and :mod:`tui.terminal`; never another game's package (see
:mod:`tui.games`).

Its one record in the UI is :data:`UI_LISTING` (found by :mod:`tui.games`); ``summary.py`` is the one line of its
rules under the menu's form.
"""

from tui.games import UiListing

UI_LISTING = UiListing(
    "chase",
    table="tui.games.chase.table:ChaseTableScreen",
    words="tui.games.chase.words:describe",
    summary="tui.games.chase.summary:summary",
    styles=("chase.tcss",),
)
"""The game's one record in the UI."""
