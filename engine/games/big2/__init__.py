"""Big Two (RULES.md §3): climbing with singles, pairs, triples, five-card hands and the Dragon.

- ``rules.py``: options, events, views, state and :class:`~engine.games.big2.rules.Big2Game`, the game's spec;
- ``core.py``: the moves within a deal on integers, plain Python that ``pip install`` compiles with mypyc into
  ``_native`` beside it (``hatch_build.py``); ``rules.py`` uses the compiled copy only when it matches the source;
- ``figures.py``: what the statistics count of a finished match, and a seat's score from its events;
- ``bots.py``: the ``easy``, ``medium`` and ``hard`` computer players;
- ``walkthrough.py``: the walkthrough of its rules, a stacked deal for each rule (:mod:`engine.walkthrough`).

Its record, :data:`LISTING`, is what the registry knows of it before loading it (:mod:`engine.listing`); this
module imports nothing else. It may import the engine's core only, never another game (see :mod:`engine.games`).
"""

from engine.listing import Figure, Listing

LISTING = Listing(
    "big2",
    "engine.games.big2.rules:Big2Game",
    (
        ("easy", "engine.games.big2.bots:EasyBig2Bot"),
        ("medium", "engine.games.big2.bots:MediumBig2Bot"),
        ("hard", "engine.games.big2.bots:HardBig2Bot"),
    ),
    (("big2", None, "Big Two", ("big-two", "bigtwo", "deuces", "capsa")),),
    (2, 4, 4),
    hinter="engine.games.big2.hints:hint",
    reviewer="engine.games.big2.hints:REVIEWER",
    counter="engine.games.big2.figures:count",
    figures=(Figure("cards_left_when_losing", "cards left when losing", "cards_left", "deals_lost"),),
    scorer="engine.games.big2.figures:score",
    walkthrough="engine.games.big2.walkthrough:walkthrough",
    order=2,
)
"""The game's one record in the engine (found by :mod:`engine.registry`)."""
