"""Rank ("Ранг", RULES.md §4): get rid of your cards one rank up or down; the last player holding cards loses.

- ``rules.py``: options, events, views, state and :class:`~engine.games.rank.rules.RankGame`, the game's spec;
- ``bots.py``: the ``medium`` and ``hard`` computer players (``easy`` is :class:`engine.bots.RandomBot`).

It may import the engine's core only, never another game (see :mod:`engine.games`).
"""
