"""The game registry: every game under a key, with aliases (``chase``, ``screw``, ...)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import UnknownGameError
from engine.game import Game
from engine.games.big2 import Big2Game
from engine.games.chase import ChaseGame


@dataclass(frozen=True)
class GameEntry:
    """A registry key: a game and, for games with presets, the preset the key stands for."""

    key: str
    game: Game
    preset: str | None
    title: str
    aliases: tuple[str, ...] = ()


_CHASE = ChaseGame()
ENTRIES: tuple[GameEntry, ...] = (
    GameEntry("screw", _CHASE, "screw", "Screw Your Neighbor", ("screw-your-neighbor", "syn")),
    GameEntry("chase", _CHASE, "chase", "Chase the Ace", ("chase-the-ace", "cta")),
    GameEntry("big2", Big2Game(), None, "Big Two", ("big-two", "bigtwo", "deuces", "capsa")),
)


def game_keys() -> list[str]:
    return [entry.key for entry in ENTRIES]


def get_entry(name: str) -> GameEntry:
    """The registry entry for a key or an alias, case-insensitive; UnknownGameError if there is none."""
    wanted = name.strip().lower()
    for entry in ENTRIES:
        if wanted == entry.key or wanted in entry.aliases:
            return entry
    raise UnknownGameError(f"no game called {name!r}; choose one of: {', '.join(game_keys())}")
