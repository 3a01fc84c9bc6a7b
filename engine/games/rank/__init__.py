"""Rank ("Ранг", RULES.md §4): get rid of your cards one rank up or down; the last player holding cards loses.

- ``rules.py``: options, events, views, state and :class:`~engine.games.rank.rules.RankGame`, the game's spec;
- ``figures.py``: what the statistics count of a finished match, and a seat's score from its events;
- ``bots.py``: the ``medium`` and ``hard`` computer players (``easy`` is :class:`engine.bots.RandomBot`);
- ``walkthrough.py``: a walkthrough of its rules, each rule shown on a stacked deal (:mod:`engine.walkthrough`).

Its record, :data:`LISTING`, is what the registry knows of it before loading it (:mod:`engine.listing`); this
module imports nothing else. It may import the engine's core only, never another game (see :mod:`engine.games`).
"""

from engine.listing import Figure, Listing

LISTING = Listing(
    "rank",
    "engine.games.rank.rules:RankGame",
    (
        ("easy", "engine.bots:RandomBot"),
        ("medium", "engine.games.rank.bots:MediumRankBot"),
        ("hard", "engine.games.rank.bots:HardRankBot"),
    ),
    (("rank", None, "Rank", ("ранг", "rang")),),
    (2, 4, 10),
    hinter="engine.games.rank.hints:hint",
    reviewer="engine.games.rank.hints:REVIEWER",
    counter="engine.games.rank.figures:count",
    figures=(Figure("penalty_points", "penalty points", "penalty_points", "games"),),
    scorer="engine.games.rank.figures:score",
    walkthrough="engine.games.rank.walkthrough:walkthrough",
    order=4,
)
"""The game's one record in the engine (found by :mod:`engine.registry`)."""
