"""One package per game, named by the game's key: ``chase``, ``big2``, ``trash``, ``rank``.

Each holds ``rules.py`` (options, variants, events, views, state and the game's spec, with its figures and rules
text) and ``bots.py`` (its computer players). The registry of games (keys, aliases, bots) is
:mod:`engine.registry`, which imports a game's package only when the game is first needed.

A game is part of the engine's core: it may import the core (the modules directly in ``engine/`` and
``engine/bots.py``), never another game, :mod:`engine.play`, :mod:`engine.lan`, :mod:`engine.records`, the UI,
Textual, or anything that does I/O or runs concurrently (a test reads the imports: ``tests/test_imports.py``).
"""
