"""The game registry: every game registered once, with its computer players, under its keys and aliases.

A game is one :class:`~engine.listing.Listing`, its record, in its own package (``engine/games/<key>/__init__.py``,
``LISTING``): where the game's spec, its bots and its statistics figures live, and the keys it is played under.
The registry finds them by walking the packages of :mod:`engine.games` (:mod:`pkgutil`); :func:`register` adds a
game defined elsewhere (a plug-in, a test) and :func:`unregister` takes it away again. The game's spec brings its
options, figures, rules text and the classes the codec needs. Nothing else in the engine, the CLI or the UI lists
the games or matches on a game's key.

A game's module (and its bots') is imported the first time something needs the game itself, not when the registry
is: finding the listings imports each game's package and nothing in it, so ``parlour play big2`` never loads the
other games' rules, and the keys, titles and aliases are known without loading any. :data:`GAMES` and
:data:`REGISTRATIONS` load them all (read them only where every game is wanted); :data:`ENTRIES` and
:data:`LISTINGS` are the games registered when they are read (:func:`entries` and :func:`listings` likewise). A
test checks that each listing says what its game's spec says (the spec reads its key, players and entries from its
listing).

This module sits above the games and the bots (it imports both, and neither imports it), so there is no import
circle between a game and its bots.

>>> get_entry("Chase-The-Ace").title, [level for level in bot_levels(get_entry("big2").game)]
('Chase the Ace', ['easy', 'medium', 'hard'])
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import engine.games
from engine import codec
from engine.bots import Bot
from engine.errors import OptionError, ParlourError, UnknownGameError, echo
from engine.game import BotFactory, Game, GameEntry
from engine.hints import Hinter, Reviewer
from engine.listing import Figure, Listing

if TYPE_CHECKING:
    from engine.walkthrough import Walkthrough

__all__ = [
    "ENTRIES",
    "LISTINGS",
    "GameEntry",
    "Listing",
    "Registration",
    "bot_levels",
    "check_level",
    "difficulties",
    "entries",
    "figures_of",
    "game_keys",
    "games",
    "get_entry",
    "hint_level",
    "hinter_of",
    "listing",
    "listing_of_game",
    "listings",
    "make_bot",
    "named",
    "register",
    "reviewer_of",
    "unregister",
    "walkthrough_of",
]


@dataclass(frozen=True)
class Registration:
    """A loaded game and its computer players."""

    game: Game[Any, Any, Any]
    bots: Mapping[str, BotFactory]
    """The computer players by level, weakest first."""
    hint: str | None = "hard"
    """The level whose choice a player's hint shows (None: the game gives no hints)."""
    hinter: str | None = None
    """``module:function`` of what makes its hints with their reasons, imported the first time a hint is asked
    (None: the hint level's choice, with no reason)."""


_LOADED: dict[str, Registration] = {}
_LOADING = threading.RLock()
"""Held while a game is loaded (bots on other threads may ask for the same game at once)."""


def _named(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _load(listing: Listing) -> Registration:
    """The game of ``listing``, its module imported and its classes made known to the codec on first use."""
    loaded = _LOADED.get(listing.key)
    if loaded is not None:
        return loaded
    with _LOADING:
        loaded = _LOADED.get(listing.key)
        if loaded is None:
            game = _named(listing.spec)()
            if game.key != listing.key:
                raise ParlourError(f"the spec {listing.spec} plays {game.key!r}, not its listing's {listing.key!r}")
            bots = {level: _named(path) for level, path in listing.bots}
            codec.register(game.key, *game.codec_types())
            loaded = _LOADED[listing.key] = Registration(game, bots, listing.hint, listing.hinter)
    return loaded


def _game_of(listing: Listing) -> Game[Any, Any, Any]:
    return _load(listing).game


_LISTINGS: dict[str, Listing] = {}
"""Every registered game's listing, by its key, in the order of the lists of games (replaced, never changed, so a
reader on another thread sees the one before a registration or the one after)."""
_ENTRIES: tuple[GameEntry, ...] = ()
_LISTING_OF: dict[str, Listing] = {}
"""Each entry's key and its game's listing."""
_ENTRIES_OF: dict[str, tuple[GameEntry, ...]] = {}
"""Each registered game's entries, made once (a registration later keeps the entries there are)."""


def _rebuild(listings: dict[str, Listing]) -> None:
    global _ENTRIES, _LISTINGS, _LISTING_OF
    ordered = sorted(listings.values(), key=lambda known: (known.order, known.key))
    for known in ordered:
        if known.key not in _ENTRIES_OF:
            _ENTRIES_OF[known.key] = tuple(
                GameEntry(key, partial(_game_of, known), preset, title, aliases)
                for key, preset, title, aliases in known.entries
            )
    _LISTINGS = {known.key: known for known in ordered}
    _LISTING_OF = {key: known for known in ordered for key, _preset, _title, _aliases in known.entries}
    _ENTRIES = tuple(entry for known in ordered for entry in _ENTRIES_OF[known.key])


def register(known: Listing) -> None:
    """Make the game of ``known`` playable everywhere a registered game is (a plug-in's, a test's); ParlourError
    when its key, or one of its entries' keys or aliases, is already a registered game's."""
    with _LOADING:
        taken = {name for other in _LISTINGS.values() for name in _names(other)}
        if known.key in _LISTINGS:
            raise ParlourError(f"a game with the key {known.key!r} is registered already")
        clash = sorted(taken & set(_names(known)))
        if clash:
            raise ParlourError(f"the name {clash[0]!r} is another registered game's")
        codec.load_on_demand(known.key, partial(_load, known))
        _rebuild({**_LISTINGS, known.key: known})


def unregister(key: str) -> None:
    """Take the game of ``key`` (its listing's key) away again, its classes unknown to the codec; nothing if it is
    not registered."""
    with _LOADING:
        if key not in _LISTINGS:
            return
        _rebuild({other: known for other, known in _LISTINGS.items() if other != key})
        _ENTRIES_OF.pop(key, None)
        _LOADED.pop(key, None)
        codec.forget(key)


def _names(known: Listing) -> tuple[str, ...]:
    return tuple(name for key, _preset, _title, aliases in known.entries for name in (key, *aliases))


def _discover() -> None:
    """Register the listing (``LISTING``) of each package under :mod:`engine.games`."""
    for found in pkgutil.iter_modules(engine.games.__path__, engine.games.__name__ + "."):
        if found.ispkg:
            known = getattr(importlib.import_module(found.name), "LISTING", None)
            if isinstance(known, Listing):
                register(known)


def listings() -> tuple[Listing, ...]:
    """Every registered game's listing, in the order of the lists of games."""
    return tuple(_LISTINGS.values())


def entries() -> tuple[GameEntry, ...]:
    """Every registered game's entries (the keys it is played under), in the order of the lists of games."""
    return _ENTRIES


if TYPE_CHECKING:
    ENTRIES: tuple[GameEntry, ...]
    LISTINGS: tuple[Listing, ...]
    GAMES: tuple[Game[Any, Any, Any], ...]
    REGISTRATIONS: tuple[Registration, ...]


def listing(entry: GameEntry | str) -> Listing:
    """What the registry knows of an entry's game (a key or alias will do) without loading it."""
    key = entry.key if isinstance(entry, GameEntry) else get_entry(entry).key
    return _LISTING_OF[key]


def listing_of_game(key: str) -> Listing:
    """The listing of the game whose spec's key is ``key``; UnknownGameError if there is none."""
    known = _LISTINGS.get(key)
    if known is None:
        raise UnknownGameError(f"no game has the key {echo(key)}")
    return known


def named(path: str) -> Any:
    """What a listing names as ``module:name``, its module imported."""
    return _named(path)


def figures_of(key: str) -> tuple[Any, tuple[Figure, ...]]:
    """The statistics counter (None if it has none) and figures of the game whose spec's key is ``key``."""
    known = listing_of_game(key)
    return (None if known.counter is None else _named(known.counter)), known.figures


def games() -> tuple[Game[Any, Any, Any], ...]:
    """Every game, in the registry's order (each loaded if it was not)."""
    return tuple(_load(known).game for known in listings())


def __getattr__(name: str) -> Any:
    """``ENTRIES`` and ``LISTINGS``: the games registered now; ``GAMES`` and ``REGISTRATIONS``: every game,
    loaded when first asked for."""
    if name == "ENTRIES":
        return _ENTRIES
    if name == "LISTINGS":
        return listings()
    if name == "GAMES":
        return games()
    if name == "REGISTRATIONS":
        return tuple(_load(known) for known in listings())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _registration(game: Game[Any, Any, Any]) -> Registration:
    known = _LISTINGS.get(game.key)
    if known is None:
        raise UnknownGameError(f"{game.name} is not registered")
    return _load(known)


def game_keys() -> list[str]:
    return [entry.key for entry in _ENTRIES]


def get_entry(name: str) -> GameEntry:
    """The registry entry for a key or an alias, case-insensitive; UnknownGameError if there is none."""
    if not isinstance(name, str):
        raise UnknownGameError(f"not a game name: {echo(name)}")
    wanted = name.strip().lower()
    for entry in _ENTRIES:
        if wanted == entry.key or wanted in entry.aliases:
            return entry
    raise UnknownGameError(f"no game called {echo(name)}; choose one of: {', '.join(game_keys())}")


def bot_levels(game: Game[Any, Any, Any]) -> Mapping[str, BotFactory]:
    """The game's computer players by level, weakest first."""
    return _registration(game).bots


def difficulties(game: Game[Any, Any, Any]) -> tuple[str, ...]:
    return tuple(bot_levels(game))


def check_level(game: Game[Any, Any, Any], difficulty: object) -> str:
    """``difficulty`` as one of the game's bot levels (trimmed, lower case); OptionError if it is none."""
    return _level_in(bot_levels(game), difficulty)


def _level_in(factories: Mapping[str, BotFactory], difficulty: object) -> str:
    key = difficulty.strip().lower() if isinstance(difficulty, str) else None
    if key is None or key not in factories:
        raise OptionError(f"unknown difficulty {echo(difficulty, 40)}; choose one of: {', '.join(factories)}")
    return key


def make_bot(game: Game[Any, Any, Any], difficulty: str) -> Bot:
    """A bot of the named difficulty for ``game``; OptionError if there is no such level."""
    factories = bot_levels(game)
    return factories[_level_in(factories, difficulty)](game)


def hint_level(game: Game[Any, Any, Any]) -> str | None:
    """The bot level whose choice a hint shows, or None when the game gives no hints."""
    return _registration(game).hint


def hinter_of(game: Game[Any, Any, Any]) -> Hinter | None:
    """What makes the game's hints with their reasons (:mod:`engine.hints`), or None: its hint level's choice
    then comes with no reason. Its module is imported the first time a hint is asked."""
    path = _registration(game).hinter
    if path is None:
        return None
    hinter = _HINTERS.get(path)
    if hinter is None:
        with _LOADING:
            hinter = _HINTERS[path] = _named(path)
    return hinter


_HINTERS: dict[str, Hinter] = {}
"""Each hint maker imported so far, by its ``module:function``."""


def reviewer_of(game: Game[Any, Any, Any]) -> Reviewer | None:
    """What judges a finished match's moves against the hint level's (:class:`~engine.hints.Reviewer`), or None:
    a move is then only compared with the hint's. Its module is imported when first asked."""
    path = listing_of_game(game.key).reviewer
    if path is None:
        return None
    with _LOADING:
        reviewer: Reviewer = _named(path)
    return reviewer


def walkthrough_of(entry: GameEntry) -> Walkthrough | None:
    """The walkthrough of ``entry``'s rules under its preset (:mod:`engine.walkthrough`), or None when its game has
    none. Its module is imported when first asked."""
    path = listing(entry).walkthrough
    if path is None:
        return None
    made: Walkthrough = _named(path)(entry.preset)
    return made


_discover()
