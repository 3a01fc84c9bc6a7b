"""A player's hint: what the game's hint level (``hard``) would do in a seat, and why, in one sentence.

A game's listing names its hint maker (``Listing.hinter``, ``module:function``), a function
``hint(bot, view, legal, rng) -> Hint`` beside its bots: it is handed the bot of the hint level, the seat's own view,
its legal actions and the decision's RNG, and gives that bot's choice with the reason the bot's own figures give
(its estimated chances, the cards it counted). It reads nothing but the view, so a hint never tells what the seat
cannot see. A game without a hint maker gives the bot's choice with no reason (``reason`` empty).

After a game, the review (:mod:`engine.review`) asks each decision of a person's seat again: a game's listing names
its :class:`Reviewer` (``Listing.reviewer``), whose ``judge(bot, view, legal, chosen, rng)`` gives None when the
hint level would have made the move ``chosen`` too, else a :class:`Judgement`: the hint (with the same RNG, the very
hint the seat would have been given), how much worse ``chosen`` was by the hint level's own figures, and the move in
words. It reads the same view, and nothing else.

This module imports only the codec, so a game's package may import it.

>>> from engine import codec
>>> codec.loads(codec.dumps(Hint("stay", "Stay: your 9♥ pays about 1 hand in 12 here")))
Hint(action='stay', reason='Stay: your 9♥ pays about 1 hand in 12 here')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import codec

__all__ = ["Hint", "Hinter", "Judge", "Judgement", "Reviewer", "chance_words", "times_in"]


@dataclass(frozen=True)
class Hint:
    """A hint for one seat at one moment: the action the hint level would take, and why."""

    action: Any
    """The game's action (one of the seat's legal actions)."""
    reason: str
    """The move and why, in one sentence built from the bot's own figures, as a player reads it ("Stay: your 9♥
    pays about 1 hand in 12 here; ..."); cards are written with suit symbols, as in the engine's messages ("" when
    the game gives no reason)."""

    def __str__(self) -> str:
        return self.reason or str(self.action)

    @property
    def move(self) -> str:
        """The move in words, the reason's opening ("Stay"), or the action's text when there is no reason."""
        return self.reason.partition(": ")[0] if self.reason else str(self.action)


codec.register("hint", Hint)

Hinter = Callable[[Any, Any, Sequence[Any], random.Random], Hint]
"""A game's hint maker: ``(bot, view, legal, rng) -> Hint`` (see the module docstring)."""


@dataclass(frozen=True)
class Judgement:
    """What the hint level makes of a move it would not have made: its own move and reason, and what the other cost.

    >>> Judgement(Hint("trade", "Trade: ..."), 0.25, "keeping the 2♣").cost
    0.25
    """

    hint: Hint
    """The hint level's own move and its reason (the hint the seat would have been given)."""
    cost: float
    """How much worse the move made was than the hint's, by the hint level's own figures (0 or more), in the game's
    own unit (:attr:`Reviewer.unit`): comparable between two decisions of the same game."""
    move: str
    """The move made, in words, as a sentence names it ("keeping the 5♦", "drawing from the stock")."""
    worse: str = ""
    """How much worse, in words a player reads, from the same figures ("" when the reason says it already)."""


Judge = Callable[[Any, Any, Sequence[Any], Any, random.Random], "Judgement | None"]
"""A game's judge of a move: ``(bot, view, legal, chosen, rng) -> Judgement | None`` (see the module docstring)."""


@dataclass(frozen=True)
class Reviewer:
    """How a game reviews a finished match's moves: its judge, and its words for the review's summary."""

    judge: Judge
    round_word: str = "round"
    """What the game calls one of its rounds ("hand", "deal"): the summary says "in hand 7"."""
    unit: str = ""
    """What :attr:`Judgement.cost` counts ("lives expected to be paid")."""


def times_in(share: float) -> str:
    """A share written as a player counts it: "6 times in 10", "almost never", "almost every time".

    >>> times_in(0.6), times_in(0.02), times_in(0.97)
    ('6 times in 10', 'almost never', 'almost every time')
    """
    count = round(share * 10)
    if count <= 0:
        return "almost never"
    if count >= 10:
        return "almost every time"
    return f"{count} time{'s' if count != 1 else ''} in 10"


def chance_words(share: float, what: str = "hand") -> str:
    """A chance as a player says it: "about 1 hand in 12", "about 3 hands in 10", "almost never".

    >>> chance_words(1 / 12), chance_words(0.31), chance_words(0.001), chance_words(1.0)
    ('about 1 hand in 12', 'about 3 hands in 10', 'almost never', 'almost always')
    """
    if share <= 0.005:
        return "almost never"
    if share >= 0.995:
        return "almost always"
    if share < 0.25:
        return f"about 1 {what} in {max(2, round(1 / share))}"
    tenths = round(share * 10)
    return f"about {tenths} {what}{'s' if tenths != 1 else ''} in 10"
