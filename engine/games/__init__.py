"""One package per game, named by the game's key: ``chase``, ``big2``, ``trash``, ``rank``.

Each holds ``rules.py`` (options, variants, events, views, state and the game's spec, with its figures and rules
text), ``bots.py`` (its computer players), ``figures.py`` (what the statistics count) and, in its ``__init__.py``,
its :class:`~engine.listing.Listing` (``LISTING``), its one record in the engine. The registry of games
(:mod:`engine.registry`) finds the listings by walking these packages; it imports a game's ``__init__.py`` for its
listing at once, and the game's modules only when the game is first needed.

A game is part of the engine's core: it may import the core (the modules directly in ``engine/`` and
``engine/bots.py``), never another game, :mod:`engine.play`, :mod:`engine.lan`, :mod:`engine.records`, the UI,
Textual, or anything that does I/O or runs concurrently (a test reads the imports: ``tests/test_imports.py``).
"""
