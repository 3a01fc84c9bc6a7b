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


class SeededOnUse(random.Random):
    """``random.Random(seed)``, seeded only when it is first used: the same stream, but a decision that draws
    nothing (a deterministic bot, a single legal action) does not pay for seeding the Mersenne Twister, which
    costs more than many decisions. Once seeded it becomes a plain ``random.Random``."""

    def __init__(self, seed: str) -> None:  # no seeding here (random.Random.__init__ would seed)
        self._pending = seed
        self.gauss_next = None  # read by gauss() before it draws, as random.Random.__init__ sets it

    # Each method seeds first (a method bound before the first draw, as _randbelow binds getrandbits, may still
    # be called after it: hence a function, not a method that a plain random.Random would not have).
    def random(self) -> float:
        _seed_now(self)
        value: float = _C_RANDOM.random(self)
        return value

    def getrandbits(self, k: int, /) -> int:
        _seed_now(self)
        bits: int = _C_RANDOM.getrandbits(self, k)
        return bits

    def getstate(self) -> tuple[Any, ...]:
        _seed_now(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _seed_now(self)
        random.Random.setstate(self, state)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        _seed_now(self)
        random.Random.seed(self, *args, **kwargs)

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy: a plain random.Random in the same state
        _seed_now(self)
        return random.Random, (), random.Random.getstate(self)


def _seed_now(rng: random.Random) -> None:
    if rng.__class__ is SeededOnUse:
        rng.__class__ = random.Random  # type: ignore[assignment]
        random.Random.__init__(rng, rng.__dict__.pop("_pending"))


_C_RANDOM: Any = random.Random.__mro__[1]
"""The C generator under ``random.Random`` (its ``random`` and ``getrandbits``)."""


def decision_rng(
    seed: int, seat: int, version: int, purpose: str = "bot", cancelled: Callable[[], bool] | None = None
) -> random.Random:
    """The RNG for one decision: the same table, seat and moment always give the same stream."""
    text = f"{seed}/{purpose}/{seat}/{version}"
    return SeededOnUse(text) if cancelled is None else CancellableRandom(text, cancelled)
