"""Trash (RULES.md §2): turn your whole layout face up, one chain of cards at a time.

- ``rules.py``: options, events, views, state and :class:`~engine.games.trash.rules.TrashGame`, the game's spec;
- ``bots.py``: the ``medium`` and ``hard`` computer players (``easy`` is :class:`engine.bots.RandomBot`).

It may import the engine's core only, never another game (see :mod:`engine.games`).
"""
