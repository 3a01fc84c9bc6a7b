"""Rank at the table: :mod:`~tui.games.rank.table` (the table screen), :mod:`~tui.games.rank.words` (its events in
plain words), :mod:`~tui.games.rank.seats` (the other players) and :mod:`~tui.games.rank.dialogs` (naming a Joker,
the card that may follow it, the penalties at the end of a deal).

It may import the engine's core and :mod:`engine.games.rank`, and the shared :mod:`tui.screens`,
:mod:`tui.dialogs`, :mod:`tui.widgets`, :mod:`tui.words` and :mod:`tui.terminal`; never another game's package (see
:mod:`tui.games`).

Its one record in the UI is :data:`UI_LISTING` (found by :mod:`tui.games`); ``summary.py`` is the one line of its
rules under the menu's form.
"""

from tui.games import UiListing

UI_LISTING = UiListing(
    "rank",
    table="tui.games.rank.table:RankTableScreen",
    words="tui.games.rank.words:describe_rank",
    summary="tui.games.rank.summary:summary",
    styles=("rank.tcss",),
)
"""The game's one record in the UI."""
