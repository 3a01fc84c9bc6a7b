"""The game registry: every game registered once, with its computer players, under its keys and aliases.

Adding a game is one :class:`Registration` in :data:`REGISTRATIONS`: the game's spec brings its options, figures,
rules text and the classes the codec needs, and the registration adds its bots by level. Nothing else in the
engine, the CLI or the UI matches on a game's key.

This module sits above the games and the bots (it imports both, and neither imports it), so there is no import
circle between a game and its bots.

>>> get_entry("Chase-The-Ace").title, [level for level in bot_levels(get_entry("big2").game)]
('Chase the Ace', ['easy', 'medium', 'hard'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import codec
from engine.bots import Bot, RandomBot
from engine.bots.big2 import EasyBig2Bot, HardBig2Bot, MediumBig2Bot
from engine.bots.chase import HardChaseBot, MediumChaseBot
from engine.bots.rank import HardRankBot, MediumRankBot
from engine.bots.trash import HardTrashBot, MediumTrashBot
from engine.errors import OptionError, UnknownGameError, echo
from engine.game import BotFactory, Game, GameEntry
from engine.games.big2 import Big2Game
from engine.games.chase import ChaseGame
from engine.games.rank import RankGame
from engine.games.trash import TrashGame

__all__ = [
    "ENTRIES",
    "GAMES",
    "REGISTRATIONS",
    "GameEntry",
    "Registration",
    "bot_levels",
    "check_level",
    "difficulties",
    "game_keys",
    "get_entry",
    "hint_level",
    "make_bot",
]


@dataclass(frozen=True)
class Registration:
    game: Game[Any, Any, Any]
    bots: Mapping[str, BotFactory]
    """The computer players by level, weakest first."""
    hint: str | None = "hard"
    """The level whose choice a player's hint shows (None: the game gives no hints)."""


REGISTRATIONS: tuple[Registration, ...] = (
    Registration(ChaseGame(), {"easy": RandomBot, "medium": MediumChaseBot, "hard": HardChaseBot}),
    Registration(Big2Game(), {"easy": EasyBig2Bot, "medium": MediumBig2Bot, "hard": HardBig2Bot}),
    Registration(TrashGame(), {"easy": RandomBot, "medium": MediumTrashBot, "hard": HardTrashBot}),
    Registration(RankGame(), {"easy": RandomBot, "medium": MediumRankBot, "hard": HardRankBot}),
)
GAMES: tuple[Game[Any, Any, Any], ...] = tuple(r.game for r in REGISTRATIONS)
ENTRIES: tuple[GameEntry, ...] = tuple(entry for game in GAMES for entry in game.entries())
_BY_KEY = {r.game.key: r for r in REGISTRATIONS}

for _game in GAMES:
    codec.register(_game.key, *_game.codec_types())


def _registration(game: Game[Any, Any, Any]) -> Registration:
    try:
        return _BY_KEY[game.key]
    except KeyError:
        raise UnknownGameError(f"{game.name} is not registered") from None


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
    factories = bot_levels(game)
    key = difficulty.strip().lower() if isinstance(difficulty, str) else None
    if key is None or key not in factories:
        raise OptionError(f"unknown difficulty {echo(difficulty, 40)}; choose one of: {', '.join(factories)}")
    return key


def make_bot(game: Game[Any, Any, Any], difficulty: str) -> Bot:
    """A bot of the named difficulty for ``game``; OptionError if there is no such level."""
    return bot_levels(game)[check_level(game, difficulty)](game)


def hint_level(game: Game[Any, Any, Any]) -> str | None:
    """The bot level whose choice a hint shows, or None when the game gives no hints."""
    return _registration(game).hint
