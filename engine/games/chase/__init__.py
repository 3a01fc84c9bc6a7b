"""Screw Your Neighbor and Chase the Ace (RULES.md §1): one game, two presets. Each player is dealt one card and
stays or trades with the player to the left; the lowest card pays a life.

- ``rules.py``: options, events, views, state and :class:`~engine.games.chase.rules.ChaseGame`, the game's spec;
- ``figures.py``: what the statistics count of a finished match, and a seat's score from its events;
- ``bots.py``: the ``medium`` and ``hard`` computer players (``easy`` is :class:`engine.bots.RandomBot`);
- ``hints.py``: a player's hint, ``hard``'s choice with its reason from the bot's own estimates;
- ``walkthrough.py``: the walkthrough of each preset's rules, a stacked deal a rule (:mod:`engine.walkthrough`).

Its record, :data:`LISTING`, is what the registry knows of it before loading it (:mod:`engine.listing`); this
module imports nothing else. It may import the engine's core only, never another game (see :mod:`engine.games`).
"""

from engine.listing import Figure, Listing

LISTING = Listing(
    "chase",
    "engine.games.chase.rules:ChaseGame",
    (
        ("easy", "engine.bots:RandomBot"),
        ("medium", "engine.games.chase.bots:MediumChaseBot"),
        ("hard", "engine.games.chase.bots:HardChaseBot"),
    ),
    (
        ("screw", "screw", "Screw Your Neighbor", ("screw-your-neighbor", "syn")),
        ("chase", "chase", "Chase the Ace", ("chase-the-ace", "cta")),
    ),
    (2, 5, 10),
    hinter="engine.games.chase.hints:hint",
    walkthrough="engine.games.chase.walkthrough:walkthrough",
    reviewer="engine.games.chase.hints:REVIEWER",
    counter="engine.games.chase.figures:count",
    figures=(
        Figure("hands_paid", "hands paid", "hands_paid", "games"),
        Figure("paid_per_hand", "paid per hand", "hands_paid", "hands"),
    ),
    scorer="engine.games.chase.figures:score",
    order=1,
)
"""The game's one record in the engine (found by :mod:`engine.registry`)."""
