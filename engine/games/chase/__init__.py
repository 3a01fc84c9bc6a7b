"""Screw Your Neighbor and Chase the Ace (RULES.md §1): one game, two presets. Each player is dealt one card and
stays or trades with the player to the left; the lowest card pays a life.

- ``rules.py``: options, events, views, state and :class:`~engine.games.chase.rules.ChaseGame`, the game's spec;
- ``bots.py``: the ``medium`` and ``hard`` computer players (``easy`` is :class:`engine.bots.RandomBot`).

It may import the engine's core only, never another game (see :mod:`engine.games`).
"""
