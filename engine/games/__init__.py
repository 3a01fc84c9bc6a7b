"""One module per game. The registry of games (keys, aliases, bots) is :mod:`engine.registry`."""
