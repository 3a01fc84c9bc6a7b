"""The game registry: every game registered once, with its computer players, under its keys and aliases.

Adding a game is one :class:`Listing` in :data:`LISTINGS`: where the game's spec and its bots live, and the keys
it is played under. The game's spec brings its options, figures, rules text and the classes the codec needs. Nothing
else in the engine, the CLI or the UI matches on a game's key.

A game's module (and its bots') is imported the first time something needs the game itself, not when the registry
is: ``parlour play big2`` never loads the other games, and the keys, titles and aliases are known without loading
any. :data:`GAMES` and :data:`REGISTRATIONS` load them all (read them only where every game is wanted). A test
checks that each listing's keys are the ones its game declares (:meth:`~engine.game.Game.entries`).

This module sits above the games and the bots (it imports both, and neither imports it), so there is no import
circle between a game and its bots.

>>> get_entry("Chase-The-Ace").title, [level for level in bot_levels(get_entry("big2").game)]
('Chase the Ace', ['easy', 'medium', 'hard'])
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from engine import codec
from engine.bots import Bot
from engine.errors import OptionError, UnknownGameError, echo
from engine.game import BotFactory, Game, GameEntry

__all__ = [
    "ENTRIES",
    "LISTINGS",
    "GameEntry",
    "Listing",
    "Registration",
    "bot_levels",
    "check_level",
    "difficulties",
    "game_keys",
    "games",
    "get_entry",
    "hint_level",
    "listing",
    "make_bot",
]


@dataclass(frozen=True)
class Registration:
    """A loaded game and its computer players."""

    game: Game[Any, Any, Any]
    bots: Mapping[str, BotFactory]
    """The computer players by level, weakest first."""
    hint: str | None = "hard"
    """The level whose choice a player's hint shows (None: the game gives no hints)."""


@dataclass(frozen=True)
class Listing:
    """A game as the registry knows it before loading it: where its spec and bots are, and its keys."""

    key: str
    """The game's own key (its spec's ``key``; the codec's tag for its classes)."""
    spec: str
    """``module:Class`` of the game's spec."""
    bots: tuple[tuple[str, str], ...]
    """Each level (weakest first) and the ``module:Class`` of its bot."""
    entries: tuple[tuple[str, str | None, str, tuple[str, ...]], ...]
    """The keys it is played under: key, preset, title, aliases (as its spec's ``entries()`` gives them)."""
    players: tuple[int, int, int]
    """The fewest, the usual and the most players (its spec's ``min_players``, ``default_players``,
    ``max_players``)."""
    hint: str | None = "hard"

    @property
    def levels(self) -> tuple[str, ...]:
        return tuple(level for level, _ in self.bots)


_RANDOM = "engine.bots:RandomBot"
LISTINGS: tuple[Listing, ...] = (
    Listing(
        "chase",
        "engine.games.chase.rules:ChaseGame",
        (
            ("easy", _RANDOM),
            ("medium", "engine.games.chase.bots:MediumChaseBot"),
            ("hard", "engine.games.chase.bots:HardChaseBot"),
        ),
        (
            ("screw", "screw", "Screw Your Neighbor", ("screw-your-neighbor", "syn")),
            ("chase", "chase", "Chase the Ace", ("chase-the-ace", "cta")),
        ),
        (2, 5, 10),
    ),
    Listing(
        "big2",
        "engine.games.big2.rules:Big2Game",
        (
            ("easy", "engine.games.big2.bots:EasyBig2Bot"),
            ("medium", "engine.games.big2.bots:MediumBig2Bot"),
            ("hard", "engine.games.big2.bots:HardBig2Bot"),
        ),
        (("big2", None, "Big Two", ("big-two", "bigtwo", "deuces", "capsa")),),
        (2, 4, 4),
    ),
    Listing(
        "trash",
        "engine.games.trash.rules:TrashGame",
        (
            ("easy", _RANDOM),
            ("medium", "engine.games.trash.bots:MediumTrashBot"),
            ("hard", "engine.games.trash.bots:HardTrashBot"),
        ),
        (("trash", None, "Trash", ()),),
        (2, 2, 4),
    ),
    Listing(
        "rank",
        "engine.games.rank.rules:RankGame",
        (
            ("easy", _RANDOM),
            ("medium", "engine.games.rank.bots:MediumRankBot"),
            ("hard", "engine.games.rank.bots:HardRankBot"),
        ),
        (("rank", None, "Rank", ("ранг", "rang")),),
        (2, 4, 10),
    ),
)

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
            bots = {level: _named(path) for level, path in listing.bots}
            codec.register(game.key, *game.codec_types())
            loaded = _LOADED[listing.key] = Registration(game, bots, listing.hint)
    return loaded


def _game_of(listing: Listing) -> Game[Any, Any, Any]:
    return _load(listing).game


for _listing in LISTINGS:
    codec.load_on_demand(_listing.key, partial(_load, _listing))

ENTRIES: tuple[GameEntry, ...] = tuple(
    GameEntry(key, partial(_game_of, listing), preset, title, aliases)
    for listing in LISTINGS
    for key, preset, title, aliases in listing.entries
)
_BY_KEY = {listing.key: listing for listing in LISTINGS}
_LISTING_OF = {key: listing for listing in LISTINGS for key, _preset, _title, _aliases in listing.entries}


def listing(entry: GameEntry | str) -> Listing:
    """What the registry knows of an entry's game (a key or alias will do) without loading it."""
    key = entry.key if isinstance(entry, GameEntry) else get_entry(entry).key
    return _LISTING_OF[key]


def games() -> tuple[Game[Any, Any, Any], ...]:
    """Every game, in the registry's order (each loaded if it was not)."""
    return tuple(_load(listing).game for listing in LISTINGS)


def __getattr__(name: str) -> Any:
    """``GAMES`` and ``REGISTRATIONS``: every game, loaded when first asked for."""
    if name == "GAMES":
        return games()
    if name == "REGISTRATIONS":
        return tuple(_load(listing) for listing in LISTINGS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _registration(game: Game[Any, Any, Any]) -> Registration:
    listing = _BY_KEY.get(game.key)
    if listing is None:
        raise UnknownGameError(f"{game.name} is not registered")
    return _load(listing)


def game_keys() -> list[str]:
    return [entry.key for entry in ENTRIES]


def get_entry(name: str) -> GameEntry:
    """The registry entry for a key or an alias, case-insensitive; UnknownGameError if there is none."""
    if not isinstance(name, str):
        raise UnknownGameError(f"not a game name: {echo(name)}")
    wanted = name.strip().lower()
    for entry in ENTRIES:
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
