"""Parlour's game engine. Its core (the modules directly in ``engine/``, :mod:`engine.bots` and
:mod:`engine.games`) is pure, deterministic rules: cards, events, the game protocol, the match layer, dealing, tables,
the codec, the session protocol, the registry, bots and one package per game, with no UI and no I/O (but for
Big Two reading its own source once, to check its compiled core, and :mod:`engine.simulate` running worker
processes for ``parlour simulate --jobs``).

Around the core, each package says what it holds and may import:

- :mod:`engine.play`: running tables for people in this process (the table host, its sessions, the bot process);
- :mod:`engine.lan`: the network edge (server, protocol, client, remote session, SSH);
- :mod:`engine.records`: saves, replays and statistics (files and SQLite in the user's data directory).

The core imports none of them, nor the UI, Textual, asyncio, sockets, subprocesses, threads or SQLite, with two
exceptions that ``tests/test_imports.py`` names one by one: :mod:`engine.registry` takes a lock while it loads a
game (bots on other threads may ask for the same game at once), and :mod:`engine.simulate` asks whether it runs on
the main thread before it holds signals for its worker processes. Nothing in ``engine`` imports the UI or Textual.

As a library, ``import engine`` names what a program needs and loads each the first time it is used (so the import
itself costs nothing, and no game is loaded until a table of it is made): the games (:data:`ENTRIES`,
:func:`get_entry`), a table (:class:`Table`, :class:`Scenario`), cards (:class:`Card`, :func:`parse_cards`), the
codec (:func:`encode`, :func:`decode`, :func:`dumps`, :func:`loads`), the bots (:func:`make_bot`), the types a
program annotates with (:class:`Game`, :class:`GameState`, :class:`GameEntry`, :class:`Event`) and the errors
(:class:`ParlourError` and its kinds). ``docs/library.md`` opens with a tour of them.

>>> import engine
>>> [entry.key for entry in engine.ENTRIES]
['screw', 'chase', 'big2', 'trash', 'rank']
>>> str(engine.Card.parse("TH")), engine.encode(engine.parse_cards("5D 7D"))
('10H', ['5D', '7D'])
"""

import importlib

__version__ = "0.1.0"

TYPE_CHECKING = False
"""True for mypy alone (it reads any constant of this name so): ``typing`` is not imported just to learn it."""

if TYPE_CHECKING:
    from engine.cards import Card, parse_cards
    from engine.codec import decode, dumps, encode, loads
    from engine.errors import (
        CodecError,
        GameOverError,
        IllegalActionError,
        InvalidActionError,
        NotYourTurnError,
        OptionError,
        ParlourError,
        SeatError,
        UnknownGameError,
    )
    from engine.events import Event
    from engine.game import Game, GameEntry, GameState, Scenario
    from engine.registry import ENTRIES, get_entry, make_bot
    from engine.table import Table

_WHERE: dict[str, str] = {
    "ENTRIES": "engine.registry",
    "get_entry": "engine.registry",
    "make_bot": "engine.registry",
    "Table": "engine.table",
    "Scenario": "engine.game",
    "Game": "engine.game",
    "GameEntry": "engine.game",
    "GameState": "engine.game",
    "Event": "engine.events",
    "Card": "engine.cards",
    "parse_cards": "engine.cards",
    "encode": "engine.codec",
    "decode": "engine.codec",
    "dumps": "engine.codec",
    "loads": "engine.codec",
    "ParlourError": "engine.errors",
    "InvalidActionError": "engine.errors",
    "IllegalActionError": "engine.errors",
    "NotYourTurnError": "engine.errors",
    "GameOverError": "engine.errors",
    "SeatError": "engine.errors",
    "UnknownGameError": "engine.errors",
    "OptionError": "engine.errors",
    "CodecError": "engine.errors",
}
"""Each public name and the module of the core it comes from, imported the first time the name is used."""
_LIVE = frozenset({"ENTRIES"})
"""Names read from their module each time, never kept here: the registry makes a new ``ENTRIES`` when a game is
registered (:func:`engine.registry.register`)."""

__all__ = [
    "ENTRIES",
    "Card",
    "CodecError",
    "Event",
    "Game",
    "GameEntry",
    "GameOverError",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "NotYourTurnError",
    "OptionError",
    "ParlourError",
    "Scenario",
    "SeatError",
    "Table",
    "UnknownGameError",
    "__version__",
    "decode",
    "dumps",
    "encode",
    "get_entry",
    "loads",
    "make_bot",
    "parse_cards",
]


def _load(name: str) -> object:
    """``engine.<name>`` (PEP 562): the public name from its module, imported now and kept for the next time."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value: object = getattr(importlib.import_module(where), name)
    if name not in _LIVE:
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if not TYPE_CHECKING:  # mypy reads the imports above, and so still refuses a name the package does not have
    __getattr__ = _load
