"""Trash (RULES.md §2): turn your whole layout face up, one chain of cards at a time.

- ``rules.py``: options, events, views, state and :class:`~engine.games.trash.rules.TrashGame`, the game's spec;
- ``figures.py``: what the statistics count of a finished match, and a seat's score from its events;
- ``bots.py``: the ``medium`` and ``hard`` computer players (``easy`` is :class:`engine.bots.RandomBot`);
- ``walkthrough.py``: the walkthrough of its rules, a stacked deal for each rule (:mod:`engine.walkthrough`).

Its record, :data:`LISTING`, is what the registry knows of it before loading it (:mod:`engine.listing`); this
module imports nothing else. It may import the engine's core only, never another game (see :mod:`engine.games`).
"""

from engine.listing import Figure, Listing

LISTING = Listing(
    "trash",
    "engine.games.trash.rules:TrashGame",
    (
        ("easy", "engine.bots:RandomBot"),
        ("medium", "engine.games.trash.bots:MediumTrashBot"),
        ("hard", "engine.games.trash.bots:HardTrashBot"),
    ),
    (("trash", None, "Trash", ()),),
    (2, 2, 4),
    hinter="engine.games.trash.hints:hint",
    walkthrough="engine.games.trash.walkthrough:walkthrough",
    reviewer="engine.games.trash.hints:REVIEWER",
    counter="engine.games.trash.figures:count",
    figures=(Figure("turns_to_complete", "turns to complete", "turns", "completed"),),
    scorer="engine.games.trash.figures:score",
    order=3,
)
"""The game's one record in the engine (found by :mod:`engine.registry`)."""
