"""A sixth game, High Card, defined inside the tests to show what a new game writes and that registering it once
on each side is enough: ``test_high_card.py`` hands :data:`LISTING` to :func:`engine.registry.register` and
:data:`sixth_game.ui.UI_LISTING` to :func:`tui.games.register`, and nowhere else names the game.

- ``rules.py``: options, events, the view, the state, the spec, its statistics figures (the engine's side);
- ``ui.py``: the UI's listing; ``words.py``: its events in words and the menu's summary; ``table.py``: its table
  screen and its end-of-deal dialog; ``highcard.tcss``: its stylesheet (the UI's side).

This module is the engine's record; it imports nothing of its own.
"""

from engine.listing import Figure, Listing

LISTING = Listing(
    "highcard",
    "sixth_game.rules:HighCardGame",
    (("easy", "engine.bots:RandomBot"),),
    (("highcard", None, "High Card", ("high-card",)),),
    (2, 2, 4),
    hint=None,
    counter="sixth_game.rules:count",
    figures=(Figure("deals_won_per_deal", "deals won per deal", "deals_won", "deals"),),
    scorer="sixth_game.rules:score",
)
"""High Card's one record in the engine."""
