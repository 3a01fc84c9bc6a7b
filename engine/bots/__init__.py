"""Computer opponents. A bot is ``choose(view, legal_actions) -> action``: it sees only its seat's view.

Every bot gets its own seeded RNG, so a table's bots are as deterministic as its deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.errors import OptionError
from engine.game import Action, Game

DIFFICULTIES = ("easy", "medium", "hard")


class Bot(Protocol):
    name: str
    difficulty: str

    def choose(self, view: Any, legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """``easy``: any legal action, uniformly at random."""

    difficulty = "easy"

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.name = "easy"
        self.rng = rng

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))


BotFactory = Callable[[Game, random.Random], Bot]


def _factories(game: Game) -> dict[str, BotFactory]:
    from engine.bots import big2, chase

    if game.key == "chase":
        return {"easy": RandomBot, "medium": chase.MediumChaseBot, "hard": chase.HardChaseBot}
    if game.key == "big2":
        return {"easy": big2.EasyBig2Bot, "medium": big2.MediumBig2Bot, "hard": big2.HardBig2Bot}
    return {"easy": RandomBot}


def difficulties(game: Game) -> tuple[str, ...]:
    return tuple(_factories(game))


def make_bot(game: Game, difficulty: str, rng: random.Random) -> Bot:
    """A bot of the named difficulty for ``game``; OptionError if there is no such level."""
    factories = _factories(game)
    key = difficulty.strip().lower()
    if key not in factories:
        raise OptionError(f"unknown difficulty {difficulty!r}; choose one of: {', '.join(factories)}")
    return factories[key](game, rng)
