"""A game's one record in the engine: its :class:`Listing`, what the registry knows of it before loading it.

Each game's package states its listing once, in ``engine/games/<key>/__init__.py`` (``LISTING``), naming its
modules as ``module:name`` strings and importing nothing of its own, so the registry lists every game (keys,
titles, aliases, players, levels) without loading any. The listing is the one source of truth: a game's spec reads
its key and its players from it (:meth:`Listing.game_entries` gives its entries), and a test checks that they agree.
A game defined elsewhere (a plug-in, a test) hands its listing to :func:`engine.registry.register`.

This module imports only :mod:`engine.game`, so a game's package may import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.game import GameEntry

if TYPE_CHECKING:
    from engine.game import Game

__all__ = ["Figure", "Listing"]


@dataclass(frozen=True)
class Figure:
    """A figure of a statistics group: the sum of one count over the sum of another (or over the number of games)."""

    name: str
    label: str
    """Its words in a table (``parlour stats``)."""
    numerator: str
    denominator: str
    """A count's name, or ``games``."""


@dataclass(frozen=True)
class Listing:
    """A game as the registry knows it before loading it: where its spec, bots and figures are, and its keys."""

    key: str
    """The game's own key (its spec's ``key``; the codec's tag for its classes)."""
    spec: str
    """``module:Class`` of the game's spec."""
    bots: tuple[tuple[str, str], ...]
    """Each level (weakest first) and the ``module:Class`` of its bot."""
    entries: tuple[tuple[str, str | None, str, tuple[str, ...]], ...]
    """The keys it is played under: key, preset, title, aliases (its spec's ``entries()``)."""
    players: tuple[int, int, int]
    """The fewest, the usual and the most players (its spec's ``min_players``, ``default_players``,
    ``max_players``)."""
    hint: str | None = "hard"
    """The level whose choice a player's hint shows (None: the game gives no hints)."""
    hinter: str | None = None
    """``module:function`` that makes a player's hint, the move and its reason (:mod:`engine.hints`), from the
    hint level's bot, the seat's view, its legal actions and the decision's RNG (None: the bot's choice, with no
    reason)."""
    reviewer: str | None = None
    """``module:name`` of the game's :class:`~engine.hints.Reviewer`, which judges a finished match's moves against
    the hint level's (:mod:`engine.review`; None: a move is only compared with the hint's, at no cost)."""
    walkthrough: str | None = None
    """``module:function`` that gives the walkthrough of the game's rules under a preset (:mod:`engine.walkthrough`;
    None: the game has none)."""
    counter: str | None = None
    """``module:function`` that takes a finished match's history and a seat and gives that seat's counts for the
    statistics (None: only games, wins, streaks and scores)."""
    figures: tuple[Figure, ...] = ()
    """The statistics figures made of those counts."""
    scorer: str | None = None
    """``module:function`` that gives a seat's score from a finished match's events (a seat's redacted ones are
    enough), the seat and the options, as the game's own result gives it (None: the seat's final total)."""
    order: int = 1000
    """Where the game comes in every list of games (lower first; the same: by key)."""

    @property
    def levels(self) -> tuple[str, ...]:
        return tuple(level for level, _ in self.bots)

    def game_entries(self, game: Game[Any, Any, Any]) -> tuple[GameEntry, ...]:
        """The spec's entries (``Game.entries``), as this listing names them."""
        return tuple(GameEntry(key, game, preset, title, aliases) for key, preset, title, aliases in self.entries)
