"""Computer opponents. A bot is ``choose(view, legal_actions, rng) -> action``: it sees only its seat's view.

Each game's bots live in ``engine/bots/<game>.py`` and are registered by level in :mod:`engine.registry`.

A bot keeps no random state of its own: the table hands it an RNG seeded by the table's seed, the seat and the
decision's number, so thinking twice about the same moment gives the same answer and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.game import Action, Game

DIFFICULTIES = ("easy", "medium", "hard")


class Bot(Protocol):
    difficulty: str

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """``easy``: any legal action, uniformly at random."""

    difficulty = "easy"

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game

    def choose(self, view: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))


class DecisionCancelled(Exception):
    """Raised inside a bot's decision when whoever asked for it no longer wants it (the table is closing)."""


class CancellableRandom(random.Random):
    """A Random that gives exactly the stream of ``random.Random(seed)`` but stops a decision when asked.

    Every draw first asks ``cancelled()``; once it says yes the next draw raises :class:`DecisionCancelled`. A
    searching bot draws often, so a host that closes stops it within a playout, without the bot knowing.
    """

    def __init__(self, seed: str, cancelled: Callable[[], bool]) -> None:
        self._cancelled = cancelled
        super().__init__(seed)

    def getrandbits(self, k: int, /) -> int:
        if self._cancelled():
            raise DecisionCancelled
        return super().getrandbits(k)

    def random(self) -> float:
        if self._cancelled():
            raise DecisionCancelled
        return super().random()


def decision_rng(
    seed: int, seat: int, version: int, purpose: str = "bot", cancelled: Callable[[], bool] | None = None
) -> random.Random:
    """The RNG for one decision: the same table, seat and moment always give the same stream."""
    text = f"{seed}/{purpose}/{seat}/{version}"
    return random.Random(text) if cancelled is None else CancellableRandom(text, cancelled)
