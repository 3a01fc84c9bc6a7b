"""Big Two (RULES.md §3): climbing with singles, pairs, triples, five-card hands and the Dragon.

- ``rules.py``: options, events, views, state and :class:`~engine.games.big2.rules.Big2Game`, the game's spec;
- ``core.py``: the moves within a deal on integers, plain Python that ``pip install`` compiles with mypyc into
  ``_native`` beside it (``hatch_build.py``); ``rules.py`` uses the compiled copy only when it matches the source;
- ``bots.py``: the ``easy``, ``medium`` and ``hard`` computer players.

It may import the engine's core only, never another game (see :mod:`engine.games`).
"""
